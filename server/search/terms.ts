import { newStemmer } from 'snowball-stemmers';

/**
 * The words of search (docs/search.md, ADR 9): one tokenizer and one stemmer for both databases,
 * so a query finds the same entries on SQLite and on PostgreSQL. A word is a run of letters and
 * digits; it is compared folded (lower case, ё as е) and stemmed — Russian words by the Snowball
 * Russian stemmer, Latin ones by Snowball English (Porter 2), others (digits, other scripts) as
 * they are: «программы» and «программа» are both «программ», «running» and «runs» «run».
 */

/** A word: a run of letters and digits. */
export const WORD = /[\p{L}\p{N}]+/gu;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;
/** Words longer than this are not stemmed nor indexed whole (a hash, a base64 blob): cut. */
const MAX_WORD = 40;

const russian = newStemmer('russian');
const english = newStemmer('english');
/** Stems already made (a page's words repeat): bounded, dropped whole when full. */
const stems = new Map<string, string>();
const MAX_STEMS = 50_000;

/** A word as compared: lower case, ё as е, in NFC. */
export function foldWord(word: string): string {
  return word.normalize('NFC').toLowerCase().replace(/ё/g, 'е');
}

/** A folded word's stem. */
export function stemWord(folded: string): string {
  const word = folded.length > MAX_WORD ? folded.slice(0, MAX_WORD) : folded;
  let stem = stems.get(word);
  if (stem !== undefined) return stem;
  stem = CYRILLIC.test(word) ? russian.stem(word) : LATIN.test(word) ? english.stem(word) : word;
  // A stemmer never leaves nothing of a word.
  if (!stem) stem = word;
  if (stems.size >= MAX_STEMS) stems.clear();
  stems.set(word, stem);
  return stem;
}

/** A word of a text where it stands, and its stem. */
export interface PlacedWord {
  start: number;
  end: number;
  stem: string;
}

/** The words of a text with their places (for snippets and highlights). */
export function placedWords(text: string): PlacedWord[] {
  const words: PlacedWord[] = [];
  for (const match of text.matchAll(WORD)) words.push({ start: match.index, end: match.index + match[0].length, stem: stemWord(foldWord(match[0])) });
  return words;
}

/** What the index keeps of a text: its words' stems, space-separated, in order. */
export function indexTerms(text: string): string {
  const terms: string[] = [];
  for (const match of text.matchAll(WORD)) terms.push(stemWord(foldWord(match[0])));
  return terms.join(' ');
}

/** One word of a query: its stem, and whether entries whose stems start with it match too (the word being typed). */
export interface QueryTerm {
  stem: string;
  prefix: boolean;
}

/** Query words at most (more are dropped). */
export const MAX_QUERY_TERMS = 8;

/** Whether a stem answers a query term. */
export function termMatches(term: QueryTerm, stem: string): boolean {
  return term.prefix ? stem.startsWith(term.stem) : stem === term.stem;
}

/** The trigrams of a title for typo-tolerant matching (pg_trgm's way: each word padded, «  w» … «d »). */
export function trigrams(text: string): string[] {
  const grams = new Set<string>();
  for (const match of text.matchAll(WORD)) {
    const padded = `  ${foldWord(match[0]).slice(0, MAX_WORD)} `;
    for (let at = 0; at + 3 <= padded.length; at += 1) grams.add(padded.slice(at, at + 3));
  }
  return [...grams];
}

/**
 * Words too common to decide anything alone (prepositions, conjunctions, particles, articles):
 * a query's words among these are not asked of the index when it has other words (they still
 * count for a phrase and an exact title). Folded, not stemmed.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'а',
  'без',
  'бы',
  'в',
  'во',
  'да',
  'для',
  'до',
  'же',
  'за',
  'и',
  'из',
  'или',
  'к',
  'ко',
  'ли',
  'на',
  'над',
  'не',
  'ни',
  'но',
  'о',
  'об',
  'от',
  'по',
  'под',
  'при',
  'про',
  'с',
  'со',
  'то',
  'у',
  'что',
  'это',
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
]);

/** A query as search reads it (docs/search.md «How results rank»). */
export interface ParsedQuery {
  /** The words asked of the index (stop words left out when others are), each once. */
  terms: QueryTerm[];
  /** Every word's stem in the order typed, stop words too: a phrase of the whole query ranks higher. */
  words: QueryTerm[];
  /** Quoted phrases (`"точная фраза"`): a page must hold each, its words one after another. */
  phrases: QueryTerm[][];
}

/**
 * Reads a query: quoted phrases (a quote left open runs to the end), then its words, each stemmed.
 * The last word also stands for the words it begins while it is being typed: no space or closing
 * quote after it, and a stem of 2 characters at least. Repeated terms once, `MAX_QUERY_TERMS` at most.
 */
export function parseQuery(query: string): ParsedQuery {
  const phrases: string[] = [];
  const loose = query.replace(/"([^"]*)("|$)/g, (_all, inside: string) => {
    phrases.push(inside);
    return ` ${inside} `;
  });
  const typing = !/[\s"]$/.test(query);
  const all = [...loose.matchAll(WORD)].map((m) => m[0]);
  const words = all.map((word, at) => {
    const stem = stemWord(foldWord(word));
    return { stem, prefix: typing && at === all.length - 1 && stem.length >= 2, stop: STOP_WORDS.has(foldWord(word)) };
  });
  const content = words.some((w) => !w.stop) ? words.filter((w) => !w.stop) : words;
  const terms: QueryTerm[] = [];
  for (const { stem, prefix } of content) {
    const same = terms.find((t) => t.stem === stem);
    if (same) same.prefix ||= prefix;
    else terms.push({ stem, prefix });
  }
  return {
    terms: terms.slice(0, MAX_QUERY_TERMS),
    words: words.map(({ stem, prefix }) => ({ stem, prefix })),
    phrases: phrases.map((p) => [...p.matchAll(WORD)].map((m) => ({ stem: stemWord(foldWord(m[0])), prefix: false }))).filter((p) => p.length > 0),
  };
}
