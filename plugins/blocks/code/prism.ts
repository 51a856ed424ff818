import type Prism from 'prismjs';
import type { CodeLanguage } from './block';

type PrismApi = typeof Prism;

/** Our language names → prism grammar names (`plain` has none). */
export const PRISM_GRAMMAR: Record<CodeLanguage, string | null> = {
  plain: null,
  javascript: 'javascript',
  typescript: 'typescript',
  python: 'python',
  bash: 'bash',
  json: 'json',
  sql: 'sql',
  html: 'markup',
  css: 'css',
  go: 'go',
  java: 'java',
  c: 'c',
  cpp: 'cpp',
  rust: 'rust',
  yaml: 'yaml',
  markdown: 'markdown',
};

/**
 * The language files each language needs, in order (the prism core already holds markup, css,
 * clike and javascript). Loaded on first use, so a page without code loads no prism at all.
 */
const LOADERS: Partial<Record<CodeLanguage, () => Promise<unknown>>> = {
  typescript: () => import('prismjs/components/prism-typescript'),
  python: () => import('prismjs/components/prism-python'),
  bash: () => import('prismjs/components/prism-bash'),
  json: () => import('prismjs/components/prism-json'),
  sql: () => import('prismjs/components/prism-sql'),
  go: () => import('prismjs/components/prism-go'),
  java: () => import('prismjs/components/prism-java'),
  c: () => import('prismjs/components/prism-c'),
  cpp: () => import('prismjs/components/prism-c').then(() => import('prismjs/components/prism-cpp')),
  rust: () => import('prismjs/components/prism-rust'),
  yaml: () => import('prismjs/components/prism-yaml'),
  markdown: () => import('prismjs/components/prism-markdown'),
};

let prism: PrismApi | null = null;
let corePromise: Promise<PrismApi> | null = null;
const loading = new Map<CodeLanguage, Promise<void>>();

function loadCore(): Promise<PrismApi> {
  if (!corePromise) {
    // Prism highlights every `language-*` element of the page when it loads unless told not to:
    // the editor's DOM belongs to Slate.
    const scope = globalThis as { Prism?: { manual?: boolean } };
    scope.Prism = { ...scope.Prism, manual: true };
    corePromise = import('prismjs').then((module) => {
      const api = ((module as { default?: PrismApi }).default ?? module) as PrismApi;
      (globalThis as { Prism?: PrismApi }).Prism = api;
      return api;
    });
  }
  return corePromise;
}

/** The grammar of a language when it is loaded (null: plain text, or not loaded yet). */
export function grammarFor(language: CodeLanguage): Prism.Grammar | null {
  const name = PRISM_GRAMMAR[language];
  if (!name || !prism) return null;
  return prism.languages[name] ?? null;
}

/** Loads prism and a language (once); resolves when its grammar is there. */
export function loadLanguage(language: CodeLanguage): Promise<void> {
  let promise = loading.get(language);
  if (!promise) {
    promise = loadCore()
      .then(() => LOADERS[language]?.())
      .then(() => {
        prism = (globalThis as { Prism?: PrismApi }).Prism ?? prism;
      });
    // A failed load (offline) may be tried again later.
    promise.catch(() => loading.delete(language));
    loading.set(language, promise);
  }
  return promise;
}

/** Prism's tokens for text in a loaded grammar. */
export function tokenize(text: string, grammar: Prism.Grammar): Array<string | Prism.Token> {
  return prism!.tokenize(text, grammar);
}
