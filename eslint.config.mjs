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
  // The live-latency bench injects this file's observer into Chromium pages.
  { files: ['bench/lib/live-dom.mjs'], languageOptions: { globals: { ...globals.browser } } },
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
  prettier,
);
