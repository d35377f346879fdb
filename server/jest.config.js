/** Server unit specs: `*.spec.ts` beside the code. */
module.exports = {
  rootDir: 'src',
  testRegex: '.*\\.spec\\.ts$',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/../tsconfig.spec.json' }] },
  moduleNameMapper: { '^@vigil/proto$': '<rootDir>/../../proto/src/index.ts' },
  testEnvironment: 'node',
  // Checker specs talk to real servers (brokers, Chromium) on a 2-core CI running workers side by side.
  testTimeout: 20_000,
};
