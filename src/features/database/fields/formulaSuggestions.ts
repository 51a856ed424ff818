import { TYPE_NAMES, type FormulaType } from '../../../../schema/formula/values';

/*
 * What the formula editor offers at the caret (docs/formulas.md «The editor»): inside
 * `prop("…` the fields whose names hold what is typed; after a word, the functions that start
 * with it and the fields whose names do (as `prop("Имя")`). Each suggestion says what replaces
 * which part of the text and where the caret goes. Pure: the editor draws and applies them.
 */

export interface SuggestedField {
  name: string;
  /** The type its values have in formulas (shown beside the name). */
  type: FormulaType;
}

export interface SuggestedFunction {
  name: string;
  signature: string;
  description: string;
}

export interface Suggestion {
  kind: 'field' | 'function';
  label: string;
  /** The signature of a function, the type of a field. */
  detail: string;
  /** A function's description. */
  description?: string;
  /** The text put in place of `[from, to)`; the caret goes to its end. */
  insert: string;
}

export interface Suggestions {
  from: number;
  to: number;
  items: Suggestion[];
}

/** At most this many suggestions are listed. */
export const MAX_SUGGESTIONS = 8;

const WORD = /[\p{L}\p{N}_]+$/u;
const IN_PROP = /prop\(\s*"([^"\n]*)$/;

/** Whether `at` falls inside a string literal (an odd number of unescaped quotes before it). */
function inString(text: string, at: number): boolean {
  let open = false;
  for (let i = 0; i < at; i++) {
    if (text[i] === '\\' && open) i++;
    else if (text[i] === '"') open = !open;
  }
  return open;
}

const fold = (s: string) => s.toLocaleLowerCase('ru').replace(/ё/g, 'е');

/** Those whose key starts with `typed` first, then those that hold it; each group in the given order. */
function ranked<T>(items: readonly T[], key: (item: T) => string, typed: string, starts = false): T[] {
  const t = fold(typed);
  const first = items.filter((item) => fold(key(item)).startsWith(t));
  const then = starts ? [] : items.filter((item) => !fold(key(item)).startsWith(t) && fold(key(item)).includes(t));
  return [...first, ...then];
}

export function suggestionsAt(text: string, caret: number, fields: readonly SuggestedField[], functions: readonly SuggestedFunction[]): Suggestions | null {
  const before = text.slice(0, caret);
  const field = (f: SuggestedField, insert: string): Suggestion => ({ kind: 'field', label: f.name, detail: TYPE_NAMES[f.type], insert });
  // Inside prop("…: a field's name, the quote and the bracket closed.
  const prop = IN_PROP.exec(before);
  if (prop) {
    const typed = prop[1];
    // What follows up to the closing quote (and bracket) is replaced too: a name being corrected.
    const rest = /^[^"\n]*("(\s*\))?)?/.exec(text.slice(caret))![0];
    const items = ranked(fields, (f) => f.name, typed).map((f) => field(f, `${f.name.replace(/"/g, '\\"')}")`));
    return items.length === 0 ? null : { from: caret - typed.length, to: caret + rest.length, items: items.slice(0, MAX_SUGGESTIONS) };
  }
  const word = WORD.exec(before)?.[0];
  if (!word || inString(text, caret - word.length)) return null;
  // The word goes on after the caret: it is replaced whole.
  const after = /^[\p{L}\p{N}_]*/u.exec(text.slice(caret))![0];
  const whole = word + after;
  const items = [
    ...ranked(functions, (f) => f.name, word, true)
      .filter((f) => f.name !== whole || text[caret + after.length] !== '(')
      .map((f): Suggestion => ({ kind: 'function', label: f.name, detail: f.signature, description: f.description, insert: `${f.name}(` })),
    ...ranked(fields, (f) => f.name, word).map((f) => field(f, `prop("${f.name.replace(/"/g, '\\"')}")`)),
  ];
  return items.length === 0 ? null : { from: caret - word.length, to: caret + after.length, items: items.slice(0, MAX_SUGGESTIONS) };
}
