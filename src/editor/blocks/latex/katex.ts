import { useEffect, useState } from 'react';

type Katex = typeof import('katex');

let katexPromise: Promise<Katex> | null = null;
let katex: Katex | null = null;

/** KaTeX and its stylesheet, loaded on first use (a page without formulas loads neither). */
export function loadKatex(): Promise<Katex> {
  if (!katexPromise) {
    katexPromise = Promise.all([import('katex'), import('katex/dist/katex.min.css')]).then(([module]) => {
      katex = ((module as unknown as { default?: Katex }).default ?? module) as Katex;
      return katex;
    });
    katexPromise.catch(() => {
      katexPromise = null;
    });
  }
  return katexPromise;
}

/** KaTeX once it has loaded (null until then); starts the load. */
export function useKatex(): Katex | null {
  const [loaded, setLoaded] = useState<Katex | null>(katex);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    loadKatex().then(
      (k) => live && setLoaded(() => k),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [loaded]);
  return loaded;
}

/** A formula as HTML (display mode), or KaTeX's message when it cannot be read. */
export function renderFormula(k: Katex, formula: string): { html: string } | { error: string } {
  try {
    return { html: k.renderToString(formula, { displayMode: true, throwOnError: true, strict: 'ignore', trust: false, maxSize: 50, maxExpand: 1000 }) };
  } catch (error) {
    return { error: error instanceof Error ? error.message.replace(/^KaTeX parse error: /, '') : String(error) };
  }
}
