import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { layering } from './tooling/eslint/layering.ts';
import { localPlugin } from './tooling/eslint/no-import-cycle.ts';

/** Tests and their helpers may be long: a table of cases reads best in one place. */
const TESTS = ['**/*.test.ts', '**/*.test.tsx', '**/test/**', 'e2e/**'];

/**
 * Declarative tables of data, exempt from the size rules: each is a description to read top to
 * bottom, with no logic to split. Keep this list short: none needs it today.
 */
/** @type {string[]} */
const DATA_TABLES = [];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { local: localPlugin },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
      'local/no-import-cycle': 'error',
      // Files are split by concern, not by a count: past about 400 lines (blank lines and comments
      // included, as ESLint counts by default) a warning asks whether two concerns share the file.
      'max-lines': ['warn', 400],
      'max-lines-per-function': ['error', 80],
    },
  },
  {
    files: [...TESTS, ...DATA_TABLES],
    rules: { 'max-lines': 'off', 'max-lines-per-function': 'off' },
  },
  ...layering,
  {
    // The API as feature folders, each entered through its index.ts, above shared layers that never
    // import them: only these composition files import the features.
    files: ['apps/api/src/**/*.ts'],
    ignores: TESTS,
    rules: {
      'local/feature-boundaries': [
        'error',
        {
          root: 'apps/api/src',
          features: 'features',
          composition: [
            'app.ts',
            'app-deps.ts',
            'server.ts',
            '*-cli.ts',
            'seed/*.ts',
            'features/index.ts',
          ],
          tests: 'test',
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['apps/simulator/src/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'module' },
  },
);
