/** Server unit specs: `*.spec.ts` beside the code. */
module.exports = {
  rootDir: 'src',
  testRegex: '.*\\.spec\\.ts$',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/../tsconfig.spec.json' }] },
  moduleNameMapper: { '^@vigil/proto$': '<rootDir>/../../proto/src/index.ts' },
  testEnvironment: 'node',
};
