/** API e2e specs: the built server run as a real process on PostgreSQL (TEST_DATABASE_URL) or its embedded PostgreSQL. */
module.exports = {
  rootDir: '.',
  testMatch: ['<rootDir>/api/**/*.e2e-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  moduleNameMapper: { '^@vigil/proto$': '<rootDir>/../proto/src/index.ts' },
  testEnvironment: 'node',
  testTimeout: 60_000,
  maxWorkers: 1,
};
