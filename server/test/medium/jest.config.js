/**
 * Server medium specs: services with their real repositories on a real PostgreSQL (a fresh database per file on
 * TEST_DATABASE_URL's server, else on one embedded cluster for the run) and everything else faked.
 */
module.exports = {
  rootDir: '../..',
  testMatch: ['<rootDir>/test/medium/**/*.medium-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
  moduleNameMapper: { '^@vigil/proto$': '<rootDir>/../proto/src/index.ts' },
  testEnvironment: 'node',
  globalSetup: '<rootDir>/test/medium/global-setup.ts',
  globalTeardown: '<rootDir>/test/medium/global-teardown.ts',
  testTimeout: 30_000,
  maxWorkers: 2,
};
