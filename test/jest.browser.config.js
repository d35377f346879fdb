/** Browser e2e specs: Debian's Chromium driven through the real UI of the built app. */
module.exports = {
  ...require('./jest.api.config.js'),
  testMatch: ['<rootDir>/browser/**/*.spec.ts'],
  testTimeout: 120_000,
};
