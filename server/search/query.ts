import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../db/connect';
import type { Database, PageRow } from '../db/types';
import { ENTRY_SPAN } from './indexer';
import { placedWords, termMatches, trigrams, type QueryTerm } from './terms';

/** One entry that answers a query, with its page. */
export interface Candidate {
  page: PageRow;
  unit: string;
  kind: 'title' | 'block' | 'cell';
  text: string;
  /** Found by its title's trigrams (a typo), not by its words. */
  fuzzy?: boolean;
}

export interface SearchFilters {
  workspaceId: string;
  /** Pages in the trash instead of live ones. */
  inTrash: boolean;
  /** Pages made by this user. */
  author?: string;
  /** Pages changed at or after / before these (ISO). */
  after?: string;
  before?: string;
}

/** The first stem after every stem starting with `stem` (a prefix as a range of stems, in code point order). */
export function stemsAfter(stem: string): string {
  const chars = Array.from(stem);
  return chars.slice(0, -1).join('') + String.fromCodePoint(chars[chars.length - 1].codePointAt(0)! + 1);
}

/**
 * The ids of the entries holding every term (a term being typed as a prefix): FTS5's match on
 * SQLite, the stems' postings on PostgreSQL (a prefix a range of them, in the "C" collation's
 * code point order). Stems hold letters and digits only.
 */
function matchingEntries(terms: readonly QueryTerm[], postgres: boolean) {
  if (!postgres) {
    const match = terms.map((t) => `"${t.stem}"${t.prefix ? '*' : ''}`).join(' AND ');
    return sql`select rowid as entry_id from search_fts where search_fts match ${match}`;
  }
  const sets = terms.map((t) =>
    t.prefix
      ? sql`select entry_id from search_postings where stem >= ${t.stem} and stem < ${stemsAfter(t.stem)}`
      : sql`select entry_id from search_postings where stem = ${t.stem}`,
  );
  return sql.join(sets, sql` intersect `);
}

/**
 * Entries holding every term (a term being typed as a prefix), in the pages the filters keep, one
 * per page, in the order of their pages — pages whose title matches first, then by the page's
 * last change (newest first) — each page's entry being its title, else its first block or cell by
 * id: the same pages in the same order on both databases. `offset`/`limit` page through the
 * answer. An entry's id carries its page (`search_pages.seq` × 2^20, its title + 0: indexer.ts), so
 * the matches are grouped per page from the index alone — FTS5's rowids on SQLite, the postings'
 * B-tree read index-only on PostgreSQL — and only the pages found are looked up (ADR 9 «Figures»).
 * Access is not looked at here: the caller keeps only what the person may read (routes/search.ts).
 */
export async function matchingPages(
  db: Kysely<Database>,
  terms: readonly QueryTerm[],
  filters: SearchFilters,
  offset: number,
  limit: number,
): Promise<Candidate[]> {
  if (terms.length === 0) return [];
  const postgres = isPostgres(db);
  const conditions = [sql`p.workspace_id = ${filters.workspaceId}`, sql`p.in_trash = ${filters.inTrash ? 1 : 0}`];
  if (filters.author) conditions.push(sql`p.created_by = ${filters.author}`);
  if (filters.after) conditions.push(sql`p.updated_at >= ${filters.after}`);
  if (filters.before) conditions.push(sql`p.updated_at < ${filters.before}`);
  const span = sql.lit(ENTRY_SPAN);
  // Matches per page: its first entry, and whether that is its title (number 0).
  const perPage = sql`select m.entry_id / ${span} as seq, min(m.entry_id) as first, (min(m.entry_id) % ${span}) = 0 as title from (${matchingEntries(terms, postgres)}) m group by m.entry_id / ${span}`;
  // The pages' rows come with their entries (the route needs them: access, paths, the results),
  // read for the page of candidates only: the ordering above carries narrow rows.
  const found = await sql<PageRow & { match_unit: string; match_kind: Candidate['kind']; match_text: string }>`
    select p.*, e.unit as match_unit, e.kind as match_kind, e.text as match_text
    from (
      select g.first, g.title, p.updated_at, p.id
      from (${perPage}) g cross join search_pages s cross join pages p
      where s.seq = g.seq and p.id = s.page_id and ${sql.join(conditions, sql` and `)}
      order by g.title desc, p.updated_at desc, p.id
      limit ${limit} offset ${offset}
    ) top join pages p on p.id = top.id join search_entries e on e.id = top.first
    order by top.title desc, top.updated_at desc, top.id`.execute(db);
  return found.rows.map(({ match_unit: unit, match_kind: kind, match_text: text, ...page }) => ({ page, unit, kind, text }));
}

/** How alike a query's trigrams are to a text's (shared over all: pg_trgm's similarity). */
function similarity(a: readonly string[], b: ReadonlySet<string>): number {
  const shared = a.filter((g) => b.has(g)).length;
  return shared / (a.length + b.size - shared);
}

/**
 * How alike a title is to a query typed with a typo: the best of its runs of as many words as the
 * query has (pg_trgm's word_similarity in spirit: «квртал» is like «Отчёт за квартал»'s «квартал»).
 */
export function titleSimilarity(query: string, title: string): number {
  const wanted = trigrams(query);
  const queryWords = [...query.matchAll(/[\p{L}\p{N}]+/gu)].length;
  const words = [...title.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]);
  let best = 0;
  for (let at = 0; at + Math.min(queryWords, words.length) <= words.length && at < words.length; at += 1) {
    best = Math.max(best, similarity(wanted, new Set(trigrams(words.slice(at, at + queryWords).join(' ')))));
  }
  return best;
}

/** Titles at least this alike (`titleSimilarity`). */
export const TITLE_SIMILARITY = 0.4;

/**
 * Titles like the query though not holding its words (a typo: «прогрмма»), best first: pages
 * sharing trigrams with it, kept when at least `TITLE_SIMILARITY` alike. The same on both databases
 * (the trigrams are counted here, not by pg_trgm).
 */
export async function similarTitles(db: Kysely<Database>, query: string, filters: SearchFilters, limit: number): Promise<Candidate[]> {
  const wanted = trigrams(query);
  if (wanted.length < 3) return [];
  const shared = await db
    .selectFrom('search_trigrams as g')
    .innerJoin('pages as p', 'p.id', 'g.page_id')
    .select(['g.page_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('g.workspace_id', '=', filters.workspaceId)
    .where('g.trigram', 'in', wanted)
    .where('p.in_trash', '=', filters.inTrash ? 1 : 0)
    .$if(!!filters.author, (qb) => qb.where('p.created_by', '=', filters.author!))
    .$if(!!filters.after, (qb) => qb.where('p.updated_at', '>=', filters.after!))
    .$if(!!filters.before, (qb) => qb.where('p.updated_at', '<', filters.before!))
    .groupBy('g.page_id')
    // A run of words alike enough shares at least this many of the query's trigrams.
    .having((eb) => eb.fn.countAll(), '>=', Math.ceil(TITLE_SIMILARITY * wanted.length))
    .orderBy('n', 'desc')
    .orderBy('g.page_id')
    .limit(limit * 4)
    .execute();
  if (shared.length === 0) return [];
  const titles = await db
    .selectFrom('pages')
    .selectAll()
    .where(
      'id',
      'in',
      shared.map((s) => s.page_id),
    )
    .execute();
  return titles
    .map((page) => ({ page, score: titleSimilarity(query, page.title) }))
    .filter((t) => t.score >= TITLE_SIMILARITY)
    .sort((a, b) => b.score - a.score || (a.page.id < b.page.id ? -1 : 1))
    .slice(0, limit)
    .map(({ page }) => ({ page, unit: 'title', kind: 'title' as const, text: page.title, fuzzy: true }));
}

/** A passage of an entry's text around what was found, and the found words' places in it. */
export interface Snippet {
  text: string;
  /** [start, end) of each word found, in `text`. */
  marks: Array<[number, number]>;
  /** Text was left out before / after the passage. */
  cutBefore: boolean;
  cutAfter: boolean;
}

/** Characters of a snippet at most, and before its first word found. */
const SNIPPET_LENGTH = 160;
const SNIPPET_LEAD = 40;

/** The passage of `text` shown for a match: from a little before the first word found, its words found marked. */
export function snippet(text: string, terms: readonly QueryTerm[]): Snippet {
  const found = placedWords(text).filter((w) => terms.some((t) => termMatches(t, w.stem)));
  const first = found[0]?.start ?? 0;
  let start = Math.max(0, first - SNIPPET_LEAD);
  // Start on a word's beginning.
  if (start > 0) {
    const space = text.lastIndexOf(' ', start);
    start = space >= 0 && first - space <= SNIPPET_LEAD + 20 ? space + 1 : start;
  }
  let end = Math.min(text.length, start + SNIPPET_LENGTH);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > first) end = space;
  }
  const marks = found.filter((w) => w.start >= start && w.end <= end).map((w): [number, number] => [w.start - start, w.end - start]);
  return { text: text.slice(start, end), marks, cutBefore: start > 0, cutAfter: end < text.length };
}
