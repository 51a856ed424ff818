// The Russian spelling checker of the offline improver (server/ai/spelling.ts), in a worker thread:
// loading the dictionary takes seconds of CPU and ~350 MB, and suggestions for an unknown word up
// to a second, none of which may hold up the server's event loop.
//
// Message in: { id, words: string[], budgetMs }. Message out: { id, fixes: { [word]: fix } } for
// the words that are misspelled and have exactly one suggestion one edit away (a letter added,
// left out, replaced, or two neighbours swapped) — for a capitalized word, one that is a common
// word in lower case (not a name). Words still unchecked when the budget is spent are left alone. First message out: { ready: true } once the dictionary is loaded, or
// { failed: message }.
import { parentPort } from 'node:worker_threads';

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

const CACHE_LIMIT = 50_000;
/** word → its fix, or null (right, or no single close suggestion). */
const cache = new Map();

let spell;
try {
  const [{ default: nspell }, { default: dictionary }] = await Promise.all([import('nspell'), import('dictionary-ru')]);
  spell = nspell(dictionary);
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
