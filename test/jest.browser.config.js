const api = require('./jest.api.config.js');

/** Browser e2e specs: Debian's Chromium driven through the real UI of the built app. */
module.exports = {
  ...api,
  testMatch: ['<rootDir>/browser/**/*.spec.ts'],
  testTimeout: 120_000,
};
