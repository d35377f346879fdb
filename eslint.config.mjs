import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-*/**', '**/node_modules/**', '**/coverage/**', 'server/src/database/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Input rules exist to reject control characters, so matching them in a regex is the point, not a slip.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  // Jest's configuration files are CommonJS modules, where require is how one config extends another.
  { files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // The client's service worker: a classic script served as is (client/public), with the worker's globals.
  { files: ['client/public/sw.js'], languageOptions: { sourceType: 'script', globals: { ...globals.serviceworker } } },
  // The live-latency and status page benches run these files' functions inside Chromium pages.
  { files: ['bench/lib/live-dom.mjs', 'bench/lib/status-browser.mjs'], languageOptions: { globals: { ...globals.browser } } },
  {
    // Spec support (`*.testing.ts`) is left out of server/dist, so runtime code must not import it.
    files: ['server/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.testing.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/*.testing'], message: 'Spec support is not built into dist.' }] }],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The public status page is its own small bundle (client/status.html): nothing of the operator app's weight.
    files: ['client/src/public/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@vigil/proto',
              allowTypeImports: true,
              message: "Import values from the file that holds them ('@vigil/proto/status-pages'): the barrel brings all of proto.",
            },
          ],
          patterns: [
            { group: ['@mantine/*', '@tabler/*', 'i18next', 'react-i18next', 'zustand', 'recharts'], message: 'Not in the public bundle.' },
            {
              group: ['../features/*', '../../features/*', '**/i18n/locales/*', '**/live/*', '**/realtime/*', '**/app/*'],
              message: "The operator app's code stays out of the public bundle.",
            },
          ],
        },
      ],
    },
  },
  prettier,
);
