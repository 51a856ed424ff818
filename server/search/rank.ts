import { sql, type RawBuilder } from 'kysely';
import type { ParsedQuery } from './terms';

/**
 * How search ranks what it found (docs/search.md «How results rank»): one scorer for both
 * databases, an SQL expression (`scoreSql`) over what the index tells of each page found
 * (`rankedPages`, query.ts), so that a query sorts its thousands of pages in the database and
 * reads only the best of them; the last order of those (titles as people sort them) here.
 */

/** A page found, with its rank (covered, then score). */
export interface RankedPage {
  pageId: string;
  /** Its number in the index (`search_pages.seq`). */
  seq: number;
  title: string;
  updatedAt: string;
  /** The database block the page is a row of, or null. */
  databaseId: string | null;
  /** How many of the query's terms it holds anywhere. */
  covered: number;
  score: number;
}

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

/** A number as an SQL literal of double precision (PostgreSQL would read `8.0` as numeric, whose sums and comparisons are slow). */
export const floatSql = (value: number, postgres: boolean) => sql.raw(postgres ? `${value}::float8` : Number.isInteger(value) ? `${value}.0` : `${value}`);

/**
 * The score of a page found, as SQL over the columns `rankedPages` gives each page: `in_title`
 * (each term the title holds: 1, or ½ when only as the start of a longer word — a prefix typed
 * on), `whole_mask` (bit i: term i a whole word of the title), `title_terms` (the title's stems),
 * `entries` (entries holding terms), `one_entry` and `phrase` (1/0: one entry holds every term;
 * such an entry has the query's words one after another), `updated_days` (the last change, days
 * since 1970; PostgreSQL) and `updated_at` (the same as text; SQLite). The title weighs most (its
 * share of the terms, all of them, the query itself), then one passage with every term, the words
 * as a phrase, how many passages hold them, and a little for a recent change.
 */
export function scoreSql(query: ParsedQuery, now: number, postgres: boolean): RawBuilder<number> {
  const total = query.terms.length;
  const full = 2 ** total - 1;
  const queryText = query.words.map((w) => w.stem).join(' ');
  const w = (value: number) => floatSql(value, postgres);
  // More passages: log2(1 + n) / 4 of the weight, all of it from 15 (the same doubles on both databases).
  const passages = Array.from({ length: 14 }, (_, i) => sql`when entries <= ${sql.lit(i + 1)} then ${w(WEIGHTS.passages * (Math.log2(2 + i) / 4))}`);
  // PostgreSQL reads the age from the copy's number (parsing the text per page cost it ≈ 1.7 ms of
  // a common word); SQLite's julianday of the text is as fast as its number, faster in the bench.
  const ageDays = postgres
    ? sql`greatest(${w(0)}, ${w(now / 86_400_000)} - updated_days)`
    : sql`max(0.0, julianday(${new Date(now).toISOString()}) - julianday(updated_at))`;
  const parts = [
    sql`${w(WEIGHTS.titleTerms)} * in_title / ${w(Math.max(1, total))}`,
    sql`case when in_title = ${sql.lit(total)} then ${w(WEIGHTS.wholeTitle)} else ${w(0)} end`,
    ...(queryText ? [sql`case when whole_mask = ${sql.lit(full)} and title_terms = ${queryText} then ${w(WEIGHTS.exactTitle)} else ${w(0)} end`] : []),
    ...(total > 1 ? [sql`case when one_entry = 1 then ${w(WEIGHTS.onePassage)} else ${w(0)} end`] : []),
    ...(query.words.length > 1 ? [sql`case when phrase = 1 then ${w(WEIGHTS.phrase)} else ${w(0)} end`] : []),
    sql`case ${sql.join(passages, sql` `)} else ${w(WEIGHTS.passages)} end`,
    sql`${w(WEIGHTS.fresh)} / (1 + ${ageDays} / 30)`,
  ];
  return sql<number>`(${sql.join(parts, sql` + `)})`;
}

/** The orders of results: the best match first, or the last edited first (the best match breaking ties). */
export type RankOrder = 'relevance' | 'edited';

/**
 * The final order of pages the database ranked: those holding every term first (then those
 * holding more), by score — or by the last change first (`edited`) — then the newest change, then
 * the title as people sort them (rows made at once: «Заказ 2» before «Заказ 10»), then the id.
 */
export function comparePages(order: RankOrder) {
  const newer = (a: RankedPage, b: RankedPage) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0);
  const rank = (a: RankedPage, b: RankedPage) => b.covered - a.covered || b.score - a.score;
  return (a: RankedPage, b: RankedPage) =>
    (order === 'edited' ? newer(a, b) || rank(a, b) : rank(a, b) || newer(a, b)) || compareTitles(a.title, b.title) || (a.pageId < b.pageId ? -1 : 1);
}

/** One result of the ranking: a page, or a database's rows (grouped: they come as one result). */
export interface RankedGroup<T extends { databaseId: string | null } = RankedPage> {
  /** The database block of a group of rows; null for a page. */
  databaseId: string | null;
  /** The group's pages, best first (one for a page). */
  pages: T[];
}

/**
 * The ranking in results: a database's rows found are one result, at the place of its best row
 * (a database of 2,000 rows matching «документ» takes one place, not the first 2,000).
 */
export function groupRows<T extends { databaseId: string | null }>(ranked: readonly T[]): Array<RankedGroup<T>> {
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
