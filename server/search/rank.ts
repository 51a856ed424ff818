import { indexTerms, WORD, type ParsedQuery } from './terms';

/**
 * How search ranks what it found (docs/search.md «How results rank»): one scorer in the server
 * for both databases, over what each page's matches are (read by `pageFeatures`, query.ts).
 */

/** What a page's matches are, as the index tells them. */
export interface PageFeatures {
  pageId: string;
  title: string;
  updatedAt: string;
  /** The database block the page is a row of, or null. */
  databaseId: string | null;
  /** Which of the query's terms the page holds anywhere (bit i: term i), and in its title. */
  pageMask: number;
  titleMask: number;
  /** One entry (a title, a block, a cell) holds every term. */
  oneEntry: boolean;
  /** Entries holding a term, counted per term (a prefix: per stem it begins): how much of the page is about the query. */
  entries: number;
  /** An entry holds every word of the query one after another. */
  phrase: boolean;
  /** Which terms the title holds as whole words (bit i), not only as the start of a longer one (a prefix typed). */
  titleWholeMask: number;
}

/** Bits set. */
function bits(mask: number): number {
  let n = 0;
  for (let m = mask; m; m &= m - 1) n += 1;
  return n;
}

const DAY_MS = 86_400_000;
const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * Titles in the order people sort them: numbers as numbers («Заказ 2» before «Заказ 10»), else
 * character by character. By hand: a collator's compare (`Intl.Collator`, numeric) in the sort
 * took ≈ 14 ms for 3,500 pages changed at once (an import, rows made together), this ≈ 2.
 */
export function compareTitles(a: string, b: string): number {
  let at = 0;
  while (at < a.length && at < b.length && a.charCodeAt(at) === b.charCodeAt(at)) at += 1;
  if (at === a.length || at === b.length) return a.length - b.length;
  // Differing inside numbers (or where one starts): the whole numbers decide, the longer the greater.
  let start = at;
  while (start > 0 && isDigit(a.charCodeAt(start - 1))) start -= 1;
  if (isDigit(a.charCodeAt(at)) && isDigit(b.charCodeAt(at))) {
    let endA = at;
    let endB = at;
    while (endA < a.length && isDigit(a.charCodeAt(endA))) endA += 1;
    while (endB < b.length && isDigit(b.charCodeAt(endB))) endB += 1;
    // Their values: leading zeros aside, the longer is the greater, else digit by digit.
    let fromA = start;
    let fromB = start;
    while (fromA < endA - 1 && a.charCodeAt(fromA) === 48) fromA += 1;
    while (fromB < endB - 1 && b.charCodeAt(fromB) === 48) fromB += 1;
    if (endA - fromA !== endB - fromB) return endA - fromA - (endB - fromB);
    for (let i = 0; i < endA - fromA; i += 1) {
      const step = a.charCodeAt(fromA + i) - b.charCodeAt(fromB + i);
      if (step !== 0) return step;
    }
    // The same number written with more zeros: after.
    return endA - endB || compareTitles(a.slice(endA), b.slice(endB));
  } else if (start < at) {
    // One number goes on where the other ends: the shorter number is the smaller.
    return isDigit(a.charCodeAt(at)) ? 1 : isDigit(b.charCodeAt(at)) ? -1 : a.charCodeAt(at) - b.charCodeAt(at);
  }
  return a.charCodeAt(at) - b.charCodeAt(at);
}

/** The score's parts (weights), named for the docs and the tests. */
export const WEIGHTS = {
  /** Per share of the query's terms in the title. */
  titleTerms: 8,
  /** The title holds every term. */
  wholeTitle: 4,
  /** The title is the query (its words, in order). */
  exactTitle: 6,
  /** One passage holds every term (of two or more). */
  onePassage: 3,
  /** A passage holds the query's words one after another (two or more). */
  phrase: 4,
  /** More passages holding terms: up to this. */
  passages: 1,
  /** Changed lately: up to this, half of it a month ago. */
  fresh: 1.5,
} as const;

/**
 * Ranks pages: those holding every term first (then those holding more of them), and among
 * those by a score — the title weighs most (its share of the terms, all of them, the query
 * itself), then one passage with every term, the words as a phrase, how many passages hold them,
 * and a little for a recent change — then the newest change, then the title (rows made at once:
 * «Заказ 2» before «Заказ 10»), then the id (a stable order).
 */
export function rankPages<T extends PageFeatures>(found: readonly T[], query: ParsedQuery, now: number): T[] {
  const total = query.terms.length;
  const queryText = query.words.map((w) => w.stem).join(' ');
  const full = 2 ** total - 1;
  // A title that is the query: as many words, the same stems (stemmed only for titles of as many words).
  const isQuery = (title: string) => {
    const words = title.match(WORD);
    return words !== null && words.length === query.words.length && indexTerms(title) === queryText;
  };
  // Terms held anywhere (all of them rank above some of them) and the score, by the page's place
  // in `found`: the pages are sorted as they are (new objects for thousands of pages cost more
  // than the scoring).
  const covered = new Int32Array(found.length);
  const scores = new Float64Array(found.length);
  found.forEach((page, at) => {
    covered[at] = bits(page.pageMask);
    // A term in the title as a whole word counts whole, as the start of a longer one (typed on) half.
    const inTitle =
      page.titleMask === 0 ? 0 : query.terms.reduce((sum, _, i) => sum + (page.titleMask & (2 ** i) ? (page.titleWholeMask & (2 ** i) ? 1 : 0.5) : 0), 0);
    const ageDays = Math.max(0, (now - Date.parse(page.updatedAt)) / DAY_MS);
    const exact = page.titleWholeMask === full && isQuery(page.title);
    scores[at] =
      (WEIGHTS.titleTerms * inTitle) / Math.max(1, total) +
      (inTitle === total ? WEIGHTS.wholeTitle : 0) +
      (exact ? WEIGHTS.exactTitle : 0) +
      (total > 1 && page.oneEntry ? WEIGHTS.onePassage : 0) +
      (query.words.length > 1 && page.phrase ? WEIGHTS.phrase : 0) +
      WEIGHTS.passages * Math.min(1, Math.log2(1 + page.entries) / 4) +
      WEIGHTS.fresh / (1 + ageDays / 30);
  });
  return found
    .map((_, at) => at)
    .sort((x, y) => {
      const a = found[x];
      const b = found[y];
      return (
        covered[y] - covered[x] ||
        scores[y] - scores[x] ||
        (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0) ||
        compareTitles(a.title, b.title) ||
        (a.pageId < b.pageId ? -1 : 1)
      );
    })
    .map((at) => found[at]);
}

/** One result of the ranking: a page, or a database's rows (grouped: they come as one result). */
export interface RankedGroup<T extends PageFeatures = PageFeatures> {
  /** The database block of a group of rows; null for a page. */
  databaseId: string | null;
  /** The group's pages, best first (one for a page). */
  pages: T[];
}

/**
 * The ranking in results: a database's rows found are one result, at the place of its best row
 * (a database of 2,000 rows matching «документ» takes one place, not the first 2,000).
 */
export function groupRows<T extends PageFeatures>(ranked: readonly T[]): Array<RankedGroup<T>> {
  const groups: Array<RankedGroup<T>> = [];
  const byDatabase = new Map<string, RankedGroup<T>>();
  for (const page of ranked) {
    if (page.databaseId === null) {
      groups.push({ databaseId: null, pages: [page] });
      continue;
    }
    const group = byDatabase.get(page.databaseId);
    if (group) group.pages.push(page);
    else {
      const made = { databaseId: page.databaseId, pages: [page] };
      byDatabase.set(page.databaseId, made);
      groups.push(made);
    }
  }
  return groups;
}
