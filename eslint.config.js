// ESLint (flat config): typescript-eslint's recommended rules with no explicit `any`, plus which
// packages each part of src/ may import. The layers of src/ (which part may import which) are
// checked on the real import graph by test/unit/architecture.test.ts; unused exports by knip
// (knip.json). Formatting is Prettier's alone (.prettierrc.json), so no stylistic rules here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** Packages only some parts of src/ may use (the same table as test/unit/architecture.test.ts). */
const owned = (message, ...names) => names.map((name) => ({ group: [name, `${name}/*`], message }));
const KOA = owned('only src/http, app.ts and service.ts know Koa', 'koa', '@koa/router', 'koa-body');
const PUPPETEER = owned('only src/render drives Chromium', 'puppeteer-core');
const CHAIN = owned('only src/payment knows viem and x402', 'viem', '@x402/core', '@x402/evm', '@x402/extensions');
const MCP = owned('only src/http speaks MCP', '@modelcontextprotocol/sdk');
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns: patterns.flat() }] });

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'test-results/', 'playwright-report/', '.tmp/', 'contracts/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Control characters are what textRules.ts and the fuzz tests are about.
      'no-control-regex': 'off',
    },
  },
  { files: ['src/http/preview/page/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  // The design studio's browser code (bundled by esbuild, never run by Node).
  { files: ['src/http/studio/client/**/*.ts'], languageOptions: { globals: { ...globals.browser } } },
  { files: ['src/**/*.ts'], ignores: ['src/http/**', 'src/app.ts', 'src/service.ts'], rules: restrict(KOA, MCP) },
  { files: ['src/**/*.ts'], ignores: ['src/render/**'], rules: restrict(PUPPETEER) },
  {
    files: ['src/invoice/**', 'src/helpers/**', 'src/einvoice/**', 'src/render/**', 'src/compute/**'],
    rules: restrict(CHAIN, KOA, MCP),
  },
  // The layout's size limits (docs/architecture.md): a file over 400 lines or a function over 120
  // holds more than one responsibility. Blank lines and comments don't count: a file is not split
  // for its explanations. The scripts are held to the same bar.
  {
    files: ['src/**/*.ts', 'scripts/**/*.{ts,mjs}'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
    },
  },
);
