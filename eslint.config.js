// ESLint (flat config): the recommended rules of ESLint and typescript-eslint
// over the code we write; generated and installed files are left out.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['lib/', 'dist/', 'node_modules/', 'bench/.corpora/', 'bench/.out/', '**/.folio-cache/', '.wrangler/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // An unused parameter keeps a signature's shape when prefixed with _.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Escaping (XML, Markdown, the search index) and terminal output match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests read JSON whose shape they are checking: `any` is the honest type there.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
