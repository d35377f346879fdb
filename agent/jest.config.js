/** Agent unit specs: `*.spec.ts` beside the code. */
module.exports = {
  rootDir: 'src',
  testRegex: '.*\\.spec\\.ts$',
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { tsconfig: { module: 'commonjs', esModuleInterop: true, isolatedModules: true, strict: true, types: ['node', 'jest'] } },
    ],
  },
  moduleNameMapper: {
    '^@vigil/proto$': '<rootDir>/../../proto/src/index.ts',
    '^@vigil/server/(.*)$': '<rootDir>/../../server/src/$1',
  },
  testEnvironment: 'node',
};
