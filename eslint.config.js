import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/eslint/boundaries.js';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['scripts/eslint/*.js', 'eslint.config.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    plugins: { boundaries },
    rules: {
      'boundaries/rooms': 'error',
      // The defect class that sank the original product: writes nobody waited for.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      // `import { type A } from 'm'` still loads m: for the browser that can put a whole module
      // (and what it imports, such as the schema library) on a page that needed only its types.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'always'],
      // Fastify plugins are async by contract even when they await nothing.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['scripts/eslint/*.js', 'eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
