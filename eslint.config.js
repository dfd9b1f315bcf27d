import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';

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
  // Layers (docs/architecture.md, section 2), by eslint-plugin-boundaries: an area of
  // functions/ imports only model/, domain/, lib/ and the route manifest, never another area;
  // model/ never imports an area; lib/ knows no area and no table; domain/ imports only
  // itself; a feature of the SPA never imports another feature.
  {
    files: ['functions/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      // the TypeScript resolver knows the SPA's aliases (@/..., @domain/...), so they are checked too
      'import/resolver': { typescript: { project: ['tsconfig.json', 'web/tsconfig.json'], noWarnOnMultipleProjects: true }, node: { extensions: ['.ts', '.tsx', '.js'] } },
      'boundaries/elements': [
        { type: 'model', pattern: 'functions/model' },
        { type: 'domain', pattern: 'functions/domain' },
        { type: 'lib', pattern: 'functions/lib' },
        { type: 'area', pattern: 'functions/*', capture: ['area'] },
        { type: 'feature', pattern: 'web/src/features/*', capture: ['feature'] },
      ],
    },
    rules: {
      'boundaries/dependencies': ['error', {
        default: 'allow',
        policies: [
          { from: { element: { type: 'area' } }, disallow: { to: { element: { type: 'area', captured: { area: '!{{from.captured.area}}' } } } }, message: 'An area of functions/ never imports another area: what two areas share goes to model/ (the table), domain/ (pure rules) or lib/ (adapters).' },
          { from: { element: { type: 'model' } }, disallow: { to: { element: { type: 'area' } } }, message: 'functions/model/ never imports an area.' },
          { from: { element: { type: 'lib' } }, disallow: { to: { element: { types: { anyOf: ['area', 'model'] } } } }, message: 'functions/lib/ holds adapters that know no area and no table.' },
          // the one exception (a later policy wins): route() in lib/http.ts asks model/session.ts
          // whether the caller's token still counts (the user's valid-after instant, docs/users.md);
          // no other lib/ module, and no other model/ module
          { from: { element: { type: 'lib' }, file: { path: 'functions/lib/http.ts' } }, allow: { to: { element: { type: 'model' }, file: { path: 'functions/model/session.ts' } } } },
          { from: { element: { type: 'domain' } }, disallow: { to: { element: { types: { anyOf: ['area', 'model', 'lib'] } } } }, message: 'functions/domain/ is pure: it imports only itself.' },
          { from: { element: { type: 'feature' } }, disallow: { to: { element: { type: 'feature', captured: { feature: '!{{from.captured.feature}}' } } } }, message: 'A feature of the SPA never imports another feature: shared UI goes to web/src/components/, shared hooks and helpers to web/src/lib/.' },
        ],
      }],
    },
  },
  {
    files: ['functions/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { regex: '^(@aws-sdk/|aws-lambda$|@aws-lambda-powertools/|aws-cdk-lib)', message: 'functions/domain/ is pure: no AWS.' },
          { regex: '^(\\.\\./)+routes$', message: 'functions/domain/ is pure: it imports only itself.' },
        ],
      }],
    },
  },
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
