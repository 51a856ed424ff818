import { LIMITS } from './constants';

/**
 * Text the server cannot store faithfully (docs/api.md «Text»): a NUL character (PostgreSQL refuses
 * it in text, SQLite would keep it) and a lone UTF-16 surrogate (stored as bytes that read back as
 * U+FFFD). The API refuses it (server/plugins/textInput.ts); what the app takes in from outside —
 * a paste, an imported file — is made storable first (`storableText`), so nothing is refused later.
 */

/** A high surrogate not followed by a low one, or a low one not after a high one (UTF-16 code units: no `u` flag). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * A title cut to LIMITS.titleLength (the one limit of a title: schema/blocks/database.ts
 * `titleProblem`), never inside a character (a surrogate pair is kept whole or left out). What an
 * import takes in from a file; the API refuses a longer title instead.
 */
export function fitTitle(title: string): string {
  if (title.length <= LIMITS.titleLength) return title;
  const cut = title.slice(0, LIMITS.titleLength);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** Why the text cannot be stored, or null when it can. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'holds a NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'holds an unpaired UTF-16 surrogate';
  return null;
}

/** The text with NUL characters left out and lone surrogates as U+FFFD (the replacement character). */
export function storableText(text: string): string {
  return textProblem(text) === null ? text : text.replaceAll('\u0000', '').replace(LONE_SURROGATES, '\ufffd');
}

/** A JSON-like value with every string in it (keys too) made storable; the same value when nothing needed it. */
export function storableValue<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) {
    const items = value.map(storableValue);
    return (items.some((item, at) => item !== value[at]) ? items : value) as T;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    const fixed = entries.map(([key, item]) => [storableText(key), storableValue(item)] as const);
    return (fixed.some(([key, item], at) => key !== entries[at][0] || item !== entries[at][1]) ? Object.fromEntries(fixed) : value) as T;
  }
  return value;
}
