import { builtinModules } from 'node:module';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/*
 * Boundaries (docs/ARCHITECTURE.md, «Boundaries»): which top folder may import which. A relative
 * import is judged by where it lands: a file `depth` folders down reaches the top with exactly
 * `depth` `../`, so each depth gets its own pattern (server/routes/x.ts's `../plugins/auth` is
 * server/plugins, its `../../plugins/…` the editor plugins). TypeScript's project references hold
 * the same lines (tsconfig.*.json); this rule also names the offending import.
 */
const FORBIDDEN = {
  schema: ['server', 'src', 'plugins', 'examples'],
  server: ['src', 'plugins', 'examples'],
  src: ['server'],
  plugins: ['server'],
  examples: ['server'],
};
/** The imports across a line that are allowed, by file: each is a reason, not a habit. */
const ALLOWED = {
  // The server's HTML import (in a jsdom worker) and HTML export read and write blocks with the
  // clipboard's reader and writer: one HTML dialect for paste, import and export.
  'server/export/htmlRead.ts': ['plugins/withClipboard/'],
  'server/export/pageExport.ts': ['plugins/withClipboard/'],
  // A Vite plugin of the build, not the server: it writes the web app's early script from its functions.
  'server/web/earlyStart.ts': ['src/app/earlyStart.ts', 'src/editor/blocks/rowsAddress.ts'],
  // Convergence of the web app's row store and cell writes against the real server (its rows read
  // at the address and with the view's query the web app uses).
  'server/realtime/databaseConvergence.int.test.ts': ['src/app/api', 'src/features/database/', 'src/editor/blocks/rowsAddress'],
};
/**
 * Packages a folder's own files may not import (its tests may): plugins/ are headless Slate
 * plugins, unit-tested without React, and the server's HTML import and export use them; the web
 * app puts them over slate-react (src/editor/pageEditor.ts).
 */
const FORBIDDEN_PACKAGES = {
  plugins: [
    { regex: '^slate-(react|dom)(/|$)', message: 'plugins/ are headless: slate-react comes in src/editor/pageEditor.ts (docs/ARCHITECTURE.md, «Boundaries»).' },
  ],
};
const MAX_DEPTH = 8;
/** Node's own modules: not in schema/ (both sides) nor in the web app (a browser); their tests run in Node and may. */
const NO_NODE_MESSAGE = 'Node only: schema/, src/ and plugins/ run in the browser too (docs/ARCHITECTURE.md, «Boundaries»).';
const NODE_MODULES = builtinModules
  .filter((name) => !name.startsWith('_'))
  .flatMap((name) => [name, `node:${name}`])
  .map((name) => ({ name, message: NO_NODE_MESSAGE }));
const TEST_HELPERS = ['schema/blocks/htmlTestUtil.ts', 'src/features/database/fakeDatabaseServer.ts', 'src/features/database/mountDatabase.tsx'];
/**
 * A block type's definition (plugins/blocks/<type>/block.ts, examples/blocks/<type>/block.ts) is schema, wherever its folder is:
 * whoever may import schema/ may import it (its folder's other files are the web app's).
 */
const bannedTop = (top) => (top === 'plugins' || top === 'examples' ? `${top}(?!/blocks/[^/]+/block$)` : top);
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const boundaryRules = [];
for (const [top, banned] of Object.entries(FORBIDDEN)) {
  const browserToo = top !== 'server';
  for (let depth = 1; depth <= MAX_DEPTH; depth += 1) {
    const at = `${top}/${'*/'.repeat(depth - 1)}`;
    const options = ({ allowed = [], node = false, packages = false } = {}) => ({
      patterns: [
        {
          regex: `^(\\.\\./){${depth}}(${banned.map(bannedTop).join('|')})(/|$)${allowed.length ? `(?!${allowed.map((a) => escape(a.slice(a.indexOf('/') + 1))).join('|')})` : ''}`,
          message: `${top}/ imports nothing from ${banned.map((b) => `${b}/`).join(', ')} (docs/ARCHITECTURE.md, «Boundaries»).`,
        },
        ...(packages ? (FORBIDDEN_PACKAGES[top] ?? []) : []),
      ],
      ...(node ? { paths: NODE_MODULES } : {}),
    });
    boundaryRules.push({ files: [`${at}*.{ts,tsx,js,mjs,cjs}`], rules: { 'no-restricted-imports': ['error', options({ node: browserToo, packages: true })] } });
    if (browserToo) {
      const tests = [`${at}*.test.{ts,tsx}`, ...TEST_HELPERS.filter((file) => file.startsWith(`${top}/`) && file.split('/').length - 1 === depth)];
      boundaryRules.push({ files: tests, rules: { 'no-restricted-imports': ['error', options()] } });
    }
    for (const [file, allowed] of Object.entries(ALLOWED)) {
      if (file.startsWith(`${top}/`) && file.split('/').length - 1 === depth) {
        boundaryRules.push({ files: [file], rules: { 'no-restricted-imports': ['error', options({ allowed, node: browserToo, packages: true })] } });
      }
    }
  }
}
/*
 * A block type's folder (plugins/blocks/<type>/, issue 39, docs/plugins.md): its definition
 * (`block.ts`) is schema — both sides read it (schema/blocks/index.ts lists it), and it imports
 * schema/ alone —, its view (`View.tsx`) and the view's own files the web app's (slate-react,
 * src/: the view API is src/editor/blockView.ts). Nothing of Node in any.
 */
boundaryRules.push(
  {
    files: ['{plugins,examples}/blocks/*/block.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '^(\\.\\./){3}(?!schema/)', message: 'A block type’s definition imports schema/ alone (docs/plugins.md).' }],
          paths: NODE_MODULES,
        },
      ],
    },
  },
  {
    files: ['{plugins,examples}/blocks/*/*.{ts,tsx}'],
    ignores: ['{plugins,examples}/blocks/*/block.ts', '{plugins,examples}/blocks/*/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '^(\\.\\./){3}server(/|$)', message: 'A block type’s view is the web app’s (docs/ARCHITECTURE.md, «Boundaries»).' }],
          paths: NODE_MODULES,
        },
      ],
    },
  },
);
/** Node's globals, likewise (TypeScript cannot hold this line for src/: @types/papaparse brings Node's types in). */
const noNodeGlobals = {
  files: ['schema/**/*.{ts,tsx}', 'src/**/*.{ts,tsx}', 'plugins/**/*.{ts,tsx}', 'examples/**/*.{ts,tsx}'],
  ignores: ['**/*.test.{ts,tsx}', ...TEST_HELPERS],
  rules: {
    'no-restricted-globals': [
      'error',
      ...['process', 'Buffer', '__dirname', '__filename', 'require', 'module', 'global', 'setImmediate'].map((name) => ({ name, message: NO_NODE_MESSAGE })),
    ],
  },
};

export default tseslint.config(
  { ignores: ['dist/', 'dist-server/', 'dist-ssr/', 'node_modules/', 'coverage/', 'test/bench/results/', 'test/e2e/artifacts/', '.tmp/', '.tsbuild/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'plugins/**/*.{ts,tsx}', 'examples/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The web app reports through src/app/report.ts only (docs/web-app.md «Error reporting»).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/app/report.ts', '**/*.test.{ts,tsx}'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'test/**/*.{ts,mjs,cjs}'],
    languageOptions: { globals: { ...globals.jest } },
  },
  {
    files: ['server/web/serviceWorker.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.serviceworker, __PRECACHE__: 'readonly' } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...boundaryRules,
  noNodeGlobals,
);
