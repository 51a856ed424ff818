// The Russian spelling checker of the offline improver (server/ai/spelling.ts), in a worker thread:
// suggestions for an unknown word take up to a second, which may not hold up the server's event loop.
//
// nspell with dictionary-ru, but without nspell's word table: nspell expands every stem of the
// dictionary into all its forms (~1.5 M strings, ~350 MB and 3 s to load). Here only the 146 k
// stems are kept — in an index built once (spellIndex.mjs: sorted, in one string, read from a
// file) — and a form is recognized by taking its ending off (Hunspell's own way): a form is known
// when it is a stem, or some suffix rule of a stem gives it. nspell reads its table only as
// `data[word]`, so the table is a proxy answering that.
//
// Message in: { id, words: string[], budgetMs }. Message out: { id, fixes: { [word]: fix } } for
// the words that are misspelled and have exactly one suggestion one edit away (a letter added,
// left out, replaced, or two neighbours swapped) — for a capitalized word, one that is a common
// word in lower case (not a name). Words still unchecked when the budget is spent are left alone.
// First message out: { ready: true } once the dictionary is loaded, or { failed: message }.
import { parentPort } from 'node:worker_threads';
import { loadIndex, suffixRules } from './spellIndex.mjs';

/** Damerau (optimal string alignment) distance, stopping early above 1. */
function withinOneEdit(a, b) {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // one replaced
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // two swapped
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** The codes of a form that no rule is attached to (nspell's value for a derived form). */
const NO_CODES = Object.freeze([]);

/**
 * nspell's word table from the dictionary's suffix rules and its index (spellIndex.mjs),
 * answering `table[word]` with the word's rule codes when the dictionary has it (as a stem, or as a
 * stem with one of its suffix rules applied), else undefined.
 */
function formTable({ byAdd }, index) {
  /** The endings of the suffixes' texts: a word whose ending is not one has no longer suffix either. */
  const endings = new Set();
  for (const add of byAdd.keys()) for (let i = 0; i <= add.length; i++) endings.add(add.slice(i));
  function lookup(word) {
    const own = index.codesOf(word);
    if (own !== undefined) return own ? [...own] : NO_CODES;
    for (let cut = 0; cut <= word.length; cut++) {
      const ending = word.slice(word.length - cut);
      if (!endings.has(ending)) break;
      const byStrip = byAdd.get(ending);
      if (!byStrip) continue;
      const base = word.slice(0, word.length - cut);
      const stripped = index.isBase(base);
      const bare = stripped ? undefined : index.codesOf(base);
      if (!stripped && bare === undefined) continue;
      for (const [strip, byCode] of byStrip) {
        if (strip && !stripped) continue;
        const codes = strip ? index.codesOf(base + strip) : (bare ?? index.codesOf(base));
        if (!codes) continue;
        const stem = base + strip;
        for (const code of codes) {
          const matches = byCode.get(code);
          if (matches?.some((match) => !match || match.test(stem))) return NO_CODES;
        }
      }
    }
    return undefined;
  }
  return new Proxy(Object.create(null), { get: (_, word) => (typeof word === 'string' ? lookup(word) : undefined) });
}

const CACHE_LIMIT = 50_000;
/** word → its fix, or null (right, or no single close suggestion). */
const cache = new Map();

let spell;
try {
  const [{ default: nspell }, { default: dictionary }] = await Promise.all([import('nspell'), import('dictionary-ru')]);
  spell = nspell({ aff: dictionary.aff });
  const rules = suffixRules(spell);
  spell.data = formTable(rules, loadIndex(dictionary.dic, rules.stripsOf));
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ failed: String(error?.message ?? error) });
}

parentPort.on('message', ({ id, words, budgetMs }) => {
  const deadline = Date.now() + budgetMs;
  const fixes = {};
  for (const word of words) {
    let fix = cache.get(word);
    if (fix === undefined) {
      if (!spell) break;
      if (spell.correct(word)) fix = null;
      else {
        if (Date.now() > deadline) continue;
        const suggestions = spell.suggest(word);
        const [only] = suggestions;
        fix = suggestions.length === 1 && withinOneEdit(word.toLowerCase(), only.toLowerCase()) ? only : null;
        // A capitalized word (a sentence's first) is fixed only into a common word, never into a name.
        if (fix && word[0] !== word[0].toLowerCase() && !spell.correct(fix.toLowerCase())) fix = null;
      }
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value);
      cache.set(word, fix);
    }
    if (fix) fixes[word] = fix;
  }
  parentPort.postMessage({ id, fixes });
});
