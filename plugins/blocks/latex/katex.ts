import { useEffect, useState } from 'react';
import { editorT } from '../../../src/editor/blocks/textBlockParts';

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

/** Why KaTeX could not read a formula, in the words the error message uses (documentEditor.json `latexErrors`). */
export type FormulaErrorReason =
  | 'unknownCommand'
  | 'unknownEnvironment'
  | 'missingClose'
  | 'extraClose'
  | 'missingArgument'
  | 'unexpected'
  | 'unknownSymbol'
  | 'doubleSuperscript'
  | 'doubleSubscript'
  | 'invalidSize'
  | 'other';

export interface FormulaError {
  reason: FormulaErrorReason;
  /** The command, symbol or bracket the message names. */
  token?: string;
  /** 1-based, as KaTeX counts; null at the end of the formula. */
  position: number | null;
}

/**
 * KaTeX's ParseError messages (rawMessage, without the position) → our reason and, when the
 * message names none, the token to show; first match wins.
 */
const KATEX_MESSAGES: ReadonlyArray<[RegExp, FormulaErrorReason, string?]> = [
  [/^Undefined control sequence: (.+)$/, 'unknownCommand'],
  [/^No such environment: (.+?)(?: at position.*)?$/, 'unknownEnvironment'],
  [/^Unexpected end of input in a macro argument, expected '(.+)'$/, 'missingClose'],
  [/^Expected '(.+)', got 'EOF'$/, 'missingClose'],
  [/^Expected & or .* or \\end$/, 'missingClose', '\\end'],
  [/^Expected 'EOF', got '(\}|\\right|\\end)'$/, 'extraClose'],
  [/^Extra (\}|\\right|\\end)/, 'extraClose'],
  [/^Expected group after '(.+)'$/, 'missingArgument'],
  [/^Expected 'EOF', got '(.+)'$/, 'unexpected'],
  [/^Unexpected character: '(.+)'$/, 'unknownSymbol'],
  [/^Unsupported character: (.+)$/, 'unknownSymbol'],
  [/^Unrecognized Unicode character "(.+)"/, 'unknownSymbol'],
  [/^Double superscript/, 'doubleSuperscript'],
  [/^Double subscript/, 'doubleSubscript'],
  [/^Invalid (?:size|unit): '(.+)'/, 'invalidSize'],
];

/** What went wrong in a formula, read from KaTeX's error (its English message is not shown). */
export function describeFormulaError(error: unknown): FormulaError {
  const parse = error as { rawMessage?: unknown; position?: unknown; length?: unknown; message?: unknown } | null;
  const raw =
    typeof parse?.rawMessage === 'string' ? parse.rawMessage : typeof parse?.message === 'string' ? parse.message.replace(/^KaTeX parse error: /, '') : '';
  // KaTeX says "at end of input" when the error has no length: the formula ended too soon.
  const position = typeof parse?.position === 'number' && !(parse.length === 0) ? parse.position + 1 : null;
  for (const [pattern, reason, fixedToken] of KATEX_MESSAGES) {
    const match = pattern.exec(raw);
    const named = match?.[1] ?? fixedToken;
    // An invisible character is named by its code point.
    const token = named !== undefined && /^\p{C}$/u.test(named) ? `U+${named.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : named;
    if (match) return { reason, ...(token !== undefined ? { token } : {}), position };
  }
  return { reason: 'other', position };
}

/** The Russian message for a formula error: «Ошибка в формуле: неизвестная команда \foo (позиция 1)». */
export function formulaErrorText(error: FormulaError): string {
  const where = error.position === null ? editorT('latexErrorAtEnd') : editorT('latexErrorAt', { position: error.position });
  return editorT('latexError', { message: editorT(`latexErrors.${error.reason}`, { token: error.token ?? '' }), where });
}

/** A formula as HTML (display mode), or a Russian message saying what KaTeX could not read. */
export function renderFormula(k: Katex, formula: string): { html: string } | { error: string } {
  try {
    return { html: k.renderToString(formula, { displayMode: true, throwOnError: true, strict: 'ignore', trust: false, maxSize: 50, maxExpand: 1000 }) };
  } catch (error) {
    return { error: formulaErrorText(describeFormulaError(error)) };
  }
}
