import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../db/connect';
import type { Database } from '../db/types';
import { placedWords, termMatches, trigrams, type QueryTerm } from './terms';

/** One entry that answers a query, with its page's order keys. */
export interface Candidate {
  pageId: string;
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

/** The match expression of the terms: FTS5's, or PostgreSQL's tsquery. Stems hold letters and digits only. */
function matchExpression(terms: readonly QueryTerm[], postgres: boolean): string {
  return postgres ? terms.map((t) => `'${t.stem}'${t.prefix ? ':*' : ''}`).join(' & ') : terms.map((t) => `"${t.stem}"${t.prefix ? '*' : ''}`).join(' AND ');
}

/**
 * Entries holding every term (a term being typed as a prefix), in the pages the filters keep, in
 * the order of their pages — pages whose title matches first, then by the page's last change
 * (newest first) — each page's first entry being its title, else its first block or cell by id:
 * the same pages in the same order on both databases. `offset`/`limit` page through the answer.
 * Each database the way measured fastest (ADR 9 «Figures»): SQLite groups the matches per page
 * from the index alone (`search_fts` keeps each entry's page and kind), one entry per page;
 * PostgreSQL sorts the matching entries themselves, a page's later entries after its first (the
 * caller keeps the first). Access is not looked at here: the caller keeps only what the person
 * may read (routes/search.ts).
 */
export async function matchingPages(db: Kysely<Database>, terms: readonly QueryTerm[], filters: SearchFilters, offset: number, limit: number): Promise<Candidate[]> {
  if (terms.length === 0) return [];
  const postgres = isPostgres(db);
  const match = matchExpression(terms, postgres);
  const conditions = [sql`p.in_trash = ${filters.inTrash ? 1 : 0}`];
  if (filters.author) conditions.push(sql`p.created_by = ${filters.author}`);
  if (filters.after) conditions.push(sql`p.updated_at >= ${filters.after}`);
  if (filters.before) conditions.push(sql`p.updated_at < ${filters.before}`);
  const pageOrder = sql`p.updated_at desc, p.id`;
  if (postgres) {
    const rows = await serially(db, (trx) =>
      sql<{ page_id: string; unit: string; kind: Candidate['kind']; text: string }>`
        select e.page_id, e.unit, e.kind, e.text
        from search_entries e join pages p on p.id = e.page_id
        where to_tsvector('simple', e.terms) @@ to_tsquery('simple', ${match}) and e.workspace_id = ${filters.workspaceId} and ${sql.join(conditions, sql` and `)}
        order by case when e.kind = 'title' then 0 else 1 end, ${pageOrder}, e.id
        limit ${limit} offset ${offset}`.execute(trx),
    );
    return rows.rows.map((r) => ({ pageId: r.page_id, unit: r.unit, kind: r.kind, text: r.text }));
  }
  const pages = await sql<{ page_id: string; entry_id: number }>`
    select m.page_id, coalesce(m.title_id, m.first_id) as entry_id
    from (
      select f.page_id, min(case when f.kind = 'title' then f.rowid end) as title_id, min(f.rowid) as first_id
      from search_fts f
      where search_fts match ${match} and f.workspace_id = ${filters.workspaceId}
      group by f.page_id
    ) m join pages p on p.id = m.page_id
    where ${sql.join(conditions, sql` and `)}
    order by case when m.title_id is null then 1 else 0 end, ${pageOrder}
    limit ${limit} offset ${offset}`.execute(db);
  if (pages.rows.length === 0) return [];
  const entries = await db
    .selectFrom('search_entries')
    .select(['id', 'page_id', 'unit', 'kind', 'text'])
    .where('id', 'in', pages.rows.map((p) => Number(p.entry_id)))
    .execute();
  const byId = new Map(entries.map((e) => [Number(e.id), e]));
  return pages.rows.flatMap((p) => {
    const e = byId.get(Number(p.entry_id));
    return e ? [{ pageId: e.page_id, unit: e.unit, kind: e.kind, text: e.text }] : [];
  });
}

/**
 * Runs a search query on PostgreSQL without parallel workers. The planner gives a common word's
 * thousands of matches to two workers, whose start and hash tables cost more than they save on a
 * small machine serving requests: measured 98–125 ms against 23–46 with them off, the same plan
 * otherwise (ADR 9 «Figures»). `set local` holds for this transaction only.
 */
async function serially<T>(db: Kysely<Database>, run: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local max_parallel_workers_per_gather = 0`.execute(trx);
    return run(trx);
  });
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
  const titles = await db.selectFrom('pages').select(['id', 'title']).where('id', 'in', shared.map((s) => s.page_id)).execute();
  return titles
    .map((page) => ({ page, score: titleSimilarity(query, page.title) }))
    .filter((t) => t.score >= TITLE_SIMILARITY)
    .sort((a, b) => b.score - a.score || (a.page.id < b.page.id ? -1 : 1))
    .slice(0, limit)
    .map(({ page }) => ({ pageId: page.id, unit: 'title', kind: 'title' as const, text: page.title, fuzzy: true }));
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
