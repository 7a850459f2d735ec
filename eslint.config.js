import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Scripts the service hands to browsers.
    files: ['src/**/*.js'],
    languageOptions: { globals: { document: 'readonly', window: 'readonly', self: 'readonly' } },
  },
  {
    // The banner's browser code (bundled by src/features/banner/runtime-bundle.ts).
    files: ['src/features/banner/runtime/**/*.ts'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window', 'document', 'navigator', 'location', 'localStorage', 'sessionStorage', 'setTimeout', 'queueMicrotask',
          'MutationObserver', 'CustomEvent', 'DOMParser', 'URL', 'Element', 'Node', 'HTMLElement', 'HTMLScriptElement',
          'HTMLIFrameElement', 'HTMLAnchorElement', 'HTMLButtonElement', 'Storage',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  // ── the house has no circle (docs/ARCHITECTURE.md) ──
  {
    // The kernel knows no feature and no front door.
    files: ['src/kernel/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '(^|/)(features|app|http|graphql|openapi|db|scanner|cli)/', message: 'src/kernel/ imports nothing of the service but the kernel: no feature, no front door, no database layer.' },
        { regex: '(^|/)rest-adapter/', message: 'src/kernel/ may not import the REST adapter.' },
      ] }],
    },
  },
  {
    // Only the composition root (src/app/) mounts the REST adapter.
    files: ['src/**/*.ts'],
    ignores: ['src/app/**', 'src/kernel/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '(^|/)rest-adapter/', message: 'Only src/app/ may import rest-adapter/: the rest of src/ never depends on a front door that depends on it.' },
      ] }],
    },
  },
  {
    // Features are reached through the front doors; they never import them or the composition root.
    files: ['src/features/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '(^|/)(app|http|cli|openapi)/', message: 'A feature may not import src/app, src/http, src/cli or src/openapi.' },
        { regex: '(^|/)rest-adapter/', message: 'A feature may not import the REST adapter; its REST rows use src/features/feature.ts.' },
      ] }],
    },
  },
  {
    // The REST adapter uses the features (their rows and operations), the kernel and the HTTP edge, nothing else of src/.
    files: ['rest-adapter/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '^\\.\\./src/(?!features/|kernel/|http/)', message: 'rest-adapter/ may import from src/ only features/, kernel/ and http/.' },
      ] }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
