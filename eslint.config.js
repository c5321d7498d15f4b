// ESLint for the whole workspace (`npm run lint`): typescript-eslint's recommended rules (no type
// information needed, so it stays fast), the rules of hooks for the web screens, and Node or
// browser globals by where the code runs. `npm run typecheck` does the type checking.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores(['**/dist/', '**/node_modules/', 'data/', 'coverage/', 'test-results/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  { languageOptions: { globals: globals.node } },
  {
    rules: {
      // `_name` marks a parameter or binding kept for its place; a rest sibling omits keys on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Input validation matches control characters on purpose, to refuse them (docs/security.md).
      'no-control-regex': 'off',
      // Name validation matches an emoji's optional modifier as one code point on purpose.
      'no-misleading-character-class': 'off',
    },
  },
  {
    // Services take one context and one input (docs/architecture.md, "Services"): at most three
    // parameters, so that a call cannot mix up the order of several handles, ids and flags.
    files: ['packages/*/src/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/max-params': ['error', { max: 3 }] },
  },
  {
    // The OpenID provider's adapter: its prepared statements take their SQL parameters in order
    // (db/prepared-writes.ts), as many as the statement has.
    files: ['packages/server/src/oidc/adapter.ts'],
    rules: { '@typescript-eslint/max-params': 'off' },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // The two classic rules only: the React Compiler rules of the plugin's `recommended` set flag
    // the latest-value ref and load-in-effect idioms the screens use on purpose (no React Compiler here).
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
]);
