import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', 'web/dist', '.local', 'bench/results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `import { z }` makes esbuild keep zod whole (~450 KB in every Lambda, locales included);
      // the namespace import lets it drop what is unused (~85 KB)
      'no-restricted-syntax': ['error', {
        selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier",
        message: "Import zod as a namespace: `import * as z from 'zod'` (keeps Lambda bundles small).",
      }],
    },
  },
  // Layers (docs/architecture.md): lib/ never imports an area, domain/ stays pure, the SPA
  // reaches server code only through the @domain alias.
  {
    files: ['functions/lib/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./(?!(domain(/|$)|routes$))', message: 'functions/lib/ holds what every area shares: it never imports an area (the route manifest is shared).' }] }] },
  },
  {
    files: ['functions/lib/*/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./\\.\\./(?!(domain(/|$)|routes$))', message: 'functions/lib/ holds what every area shares: it never imports an area (the route manifest is shared).' }] }] },
  },
  ...[
    ['functions/domain/*.ts', '^\\.\\./'],
    ['functions/domain/*/*.ts', '^\\.\\./\\.\\./'],
  ].map(([files, up]) => ({
    files: [files],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { regex: up, message: 'functions/domain/ is pure: it imports only itself.' },
          { regex: '^(@aws-sdk/|aws-lambda$|@aws-lambda-powertools/|aws-cdk-lib)', message: 'functions/domain/ is pure: no AWS.' },
        ],
      }],
    },
  })),
  {
    files: ['web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: '^(\\.\\./)+(functions|infra|test|bench)(/|$)|^(\\.\\./){3,}', message: 'The SPA imports server code only from @domain (functions/domain).' }],
      }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
);
