import { useCallback, useEffect, useState } from 'react';
import { Element, Text, type NodeEntry, type Path, type Point, type Range } from 'slate';
import type Prism from 'prismjs';
import { DEFAULT_CODE_LANGUAGE, isCodeLanguage, type CodeLanguage } from './block';
import { grammarFor, loadLanguage, PRISM_GRAMMAR, tokenize } from './prism';

/** A highlighted run of a code block's text: [start, end) offsets and prism's classes. */
export interface CodeSpan {
  start: number;
  end: number;
  className: string;
}

/** A decoration range carries `prism`: the classes of the highlighted run (read by TokenLeaf). */
export type CodeRange = Range & { prism: string };

const NONE: Range[] = [];

/** Prism tokens flattened into runs with their classes (nested tokens get the outer classes too). */
export function spansOf(tokens: ReadonlyArray<string | Prism.Token>): CodeSpan[] {
  const spans: CodeSpan[] = [];
  let offset = 0;
  const walk = (items: ReadonlyArray<string | Prism.Token> | string | Prism.Token, classes: string) => {
    if (typeof items === 'string') {
      if (classes && items.length > 0) spans.push({ start: offset, end: offset + items.length, className: classes });
      offset += items.length;
      return;
    }
    if (Array.isArray(items)) {
      for (const item of items) walk(item, classes);
      return;
    }
    const token = items as Prism.Token;
    const alias = Array.isArray(token.alias) ? token.alias.join(' ') : (token.alias ?? '');
    walk(token.content, `${classes ? `${classes} ` : 'token '}${token.type}${alias ? ` ${alias}` : ''}`);
  };
  walk(tokens, '');
  return spans;
}

/** Highlighting is cached per language and text, so unchanged code blocks cost nothing. */
const CACHE_LIMIT = 500;
const cache = new Map<string, CodeSpan[]>();

export function highlight(text: string, language: CodeLanguage): CodeSpan[] | null {
  const grammar = grammarFor(language);
  if (!grammar) return null;
  const key = `${language}\u0000${text}`;
  let spans = cache.get(key);
  if (spans) {
    cache.delete(key);
  } else {
    spans = spansOf(tokenize(text, grammar));
  }
  cache.set(key, spans);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  return spans;
}

const languageListeners = new Set<() => void>();
const requested = new Set<CodeLanguage>();

/** Loads a language once; when it arrives, the editors decorate again. */
function requestLanguage(language: CodeLanguage): void {
  if (requested.has(language)) return;
  requested.add(language);
  loadLanguage(language).then(
    () => languageListeners.forEach((listener) => listener()),
    () => requested.delete(language),
  );
}

/**
 * Offsets in the text of a top-level block → points in its text children (`end`: a point on a
 * boundary between two children ends the one before). For decorations by offset.
 */
export function blockPoints(node: Element, path: Path): (offset: number, end: boolean) => Point {
  const starts: number[] = [];
  let total = 0;
  for (const child of node.children) {
    starts.push(total);
    total += Text.isText(child) ? child.text.length : 0;
  }
  return (offset, end) => {
    let i = starts.length - 1;
    while (i > 0 && (starts[i] > offset || (end && starts[i] === offset))) i--;
    return { path: [...path, i], offset: offset - starts[i] };
  };
}

/**
 * Slate decorations for code blocks (other nodes get none, at once): prism's tokens as ranges
 * with a `prism` class list. A language not loaded yet is loaded, and the editor asked to
 * decorate again (see useCodeDecorate).
 */
export function decorateCode([node, path]: NodeEntry): Range[] {
  // The editor's own list is a new array: <Editable> pushes its placeholder decorations into it.
  if (path.length === 0) return [];
  if (path.length !== 1 || !Element.isElement(node) || node.type !== 'codeBlock') return NONE;
  const language = node.language && isCodeLanguage(node.language) ? node.language : DEFAULT_CODE_LANGUAGE;
  if (PRISM_GRAMMAR[language] === null) return NONE;
  const children = node.children.filter(Text.isText);
  const text = children.length === 1 ? children[0].text : children.map((c) => c.text).join('');
  if (text === '') return NONE;
  const spans = highlight(text, language);
  if (!spans) {
    requestLanguage(language);
    return NONE;
  }
  const pointAt = blockPoints(node, path);
  return spans.map((span) => ({ anchor: pointAt(span.start, false), focus: pointAt(span.end, true), prism: span.className }) as CodeRange);
}

/** The decorate function for <Editable>: a new one whenever a prism language arrives, so code is highlighted again. */
export function useCodeDecorate(): (entry: NodeEntry) => Range[] {
  const [loaded, setLoaded] = useState(0);
  useEffect(() => {
    const listener = () => setLoaded((n) => n + 1);
    languageListeners.add(listener);
    return () => void languageListeners.delete(listener);
  }, []);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useCallback((entry: NodeEntry) => decorateCode(entry), [loaded]);
}
