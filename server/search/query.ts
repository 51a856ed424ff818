import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from '../db/connect';
import type { Database, PageRow } from '../db/types';
import { ENTRY_SPAN } from './indexer';
import { placedWords, termMatches, trigrams, type ParsedQuery, type QueryTerm } from './terms';
import type { PageFeatures } from './rank';
import type { SearchKind } from '../../schema/search';

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
  /** Rows of this database (block id) only. */
  database?: string;
  /** What kind of page: pages (not rows), databases (pages holding one), rows of databases. */
  kind?: SearchKind;
}

/** SQL conditions on the page `p` for a kind of result. */
function kindCondition(kind: SearchKind): RawBuilder<boolean> {
  if (kind === 'pages') return sql<boolean>`p.database_id is null`;
  if (kind === 'rows') return sql<boolean>`p.database_id is not null`;
  return sql<boolean>`(p.type in ('Database', 'Widget') or exists (select 1 from blocks b where b.page_id = p.id and b.type = 'database' and b.deleted_at is null))`;
}

/** The first stem after every stem starting with `stem` (a prefix as a range of stems, in code point order). */
export function stemsAfter(stem: string): string {
  const chars = Array.from(stem);
  return chars.slice(0, -1).join('') + String.fromCodePoint(chars[chars.length - 1].codePointAt(0)! + 1);
}

/**
 * The ids of the entries holding a term (a term being typed: a word it begins), once each: FTS5's
 * match on SQLite, the stems' postings on PostgreSQL (a prefix a range of them, in the "C"
 * collation's code point order, where one entry may hold several stems of the range). Stems hold
 * letters and digits only.
 */
function termEntries(term: QueryTerm, postgres: boolean) {
  if (!postgres) return sql`select rowid as entry_id from search_fts where search_fts match ${`"${term.stem}"${term.prefix ? '*' : ''}`}`;
  return term.prefix
    ? sql`select distinct entry_id from search_postings where stem >= ${term.stem} and stem < ${stemsAfter(term.stem)}`
    : sql`select entry_id from search_postings where stem = ${term.stem}`;
}

/** A phrase's stems as `search_entries.terms` holds them, for a LIKE over ' ' || terms || ' ' (a prefix last: no space after it). */
function phrasePattern(words: readonly QueryTerm[]): string {
  const escaped = words.map((w) => w.stem.replace(/[\\%_]/g, (c) => `\\${c}`));
  const last = words[words.length - 1];
  return `% ${escaped.join(' ')}${last?.prefix ? '' : ' '}%`;
}

/** `(' ' || terms || ' ') like pattern` (escaped with a backslash) on both databases. */
function holdsPhrase(column: RawBuilder<unknown>, words: readonly QueryTerm[]) {
  return sql`(' ' || ${column} || ' ') like ${phrasePattern(words)} escape '\\'`;
}

/**
 * What the pages holding any of the query's terms hold (rank.ts ranks them), in the pages the
 * filters keep: which terms each page holds anywhere and in its title (bit i: term i), the most
 * terms one entry holds and that entry (the passage shown: the title when it holds as many), how
 * many entries hold any, and whether an entry holding them all has the query's words one after
 * another. Only pages holding every quoted phrase are kept. The same on both databases: the
 * terms' entries come from FTS5 or the postings, the rest is plain SQL over their ids (an id
 * carries its page: `search_pages.seq` × 2^20, the title's number 0).
 */
export async function pageFeatures(db: Kysely<Database>, query: ParsedQuery, filters: SearchFilters): Promise<Array<PageFeatures & { bestEntry: number }>> {
  const terms = query.terms;
  if (terms.length === 0) return [];
  const postgres = isPostgres(db);
  const span = sql.lit(ENTRY_SPAN);
  const total = terms.length;
  // Each entry holding a term: how many of the terms it holds, and which (bit i: term i). One term:
  // the entries as they come (no grouping: the common words and short prefixes are the most entries).
  const perEntry =
    terms.length === 1
      ? sql`select entry_id, 1 as n, 1 as mask from (${termEntries(terms[0], postgres)}) m`
      : sql`select entry_id, count(distinct t) as n, sum(distinct w) as mask from (${sql.join(
          terms.map((term, i) => sql`select entry_id, ${sql.lit(i)} as t, ${sql.lit(2 ** i)} as w from (${termEntries(term, postgres)}) x${sql.lit(i)}`),
          sql` union all `,
        )}) m group by entry_id`;
  const conditions = [sql`p.workspace_id = ${filters.workspaceId}`, sql`p.in_trash = ${filters.inTrash ? 1 : 0}`];
  if (filters.author) conditions.push(sql`p.created_by = ${filters.author}`);
  if (filters.after) conditions.push(sql`p.updated_at >= ${filters.after}`);
  if (filters.before) conditions.push(sql`p.updated_at < ${filters.before}`);
  if (filters.database) conditions.push(sql`p.database_id = ${filters.database}`);
  if (filters.kind) conditions.push(kindCondition(filters.kind));
  // Each quoted phrase in an entry holding its words (the terms include them), per page.
  const quoted: RawBuilder<unknown>[] = [];
  query.phrases.forEach((words, i) => {
    const wanted = terms.flatMap((t, at) => (words.some((w) => w.stem === t.stem) ? [2 ** at] : [])).reduce((a, b) => a + b, 0);
    const name = sql.raw(`quoted${i}`);
    quoted.push(
      sql`, ${name} as (select pe.entry_id / ${span} as seq from per_entry pe join search_entries se on se.id = pe.entry_id where (pe.mask & ${sql.lit(wanted)}) = ${sql.lit(wanted)} and ${holdsPhrase(sql.ref('se.terms'), words)} group by pe.entry_id / ${span})`,
    );
    conditions.push(sql`f.seq in (select seq from ${name})`);
  });
  // The whole query as a phrase: looked for in the entries holding every term only.
  const phrased =
    query.words.length > 1
      ? sql`pe.entry_id in (select e.entry_id from per_entry e join search_entries se on se.id = e.entry_id where e.n = ${total} and ${holdsPhrase(sql.ref('se.terms'), query.words)})`
      : sql`0 = 1`;
  // The terms a page holds: bit i is in some entry's mask (OR as a sum of each bit's max).
  const pageMask = sql.join(
    terms.map((_, i) => sql`max(pe.mask & ${sql.lit(2 ** i)})`),
    sql` + `,
  );
  // Two passes over the matches — per entry (its terms), per page — then the page (`cross join`
  // keeps SQLite's order: the pages found first; the pages' table first, or two aggregates
  // joined, were read again per page: 2–6 s for 1,800 pages). Only what ranking reads, for every
  // page found (thousands for a common word, on each query the finder sends): the results' whole
  // rows are read for the few looked at (routes/search.ts); a title's stems as the index keeps
  // them, for the pages whose title holds a term.
  const rows = await sql<
    Pick<PageRow, 'id' | 'title' | 'updated_at' | 'database_id'> & {
      page_mask: number;
      title_mask: number;
      best: number;
      entries: number;
      phrase: number;
      seq: number;
      title_terms: string | null;
    }
  >`
    with per_entry as (${perEntry}),
    f as (
      select pe.entry_id / ${span} as seq, ${pageMask} as page_mask,
        max(case when pe.entry_id % ${span} = 0 then pe.mask else 0 end) as title_mask,
        max(pe.n * ${span} + ${span} - 1 - pe.entry_id % ${span}) as best, count(*) as entries,
        max(case when ${phrased} then 1 else 0 end) as phrase
      from per_entry pe group by pe.entry_id / ${span}
    )${sql.join(quoted, sql``)}
    select p.id, p.title, p.updated_at, p.database_id, f.seq, f.page_mask, f.title_mask, f.best, f.entries, f.phrase,
      case when f.title_mask > 0 then (select te.terms from search_entries te where te.id = f.seq * ${span}) end as title_terms
    from f cross join search_pages s cross join pages p
    where s.seq = f.seq and p.id = s.page_id and ${sql.join(conditions, sql` and `)}`.execute(db);
  return rows.rows.map(({ id, title, updated_at, database_id, seq, page_mask, title_mask, best, entries, phrase: inPhrase, title_terms }) => {
    const bestNumber = Number(best);
    const local = ENTRY_SPAN - 1 - (bestNumber % ENTRY_SPAN);
    return {
      pageId: id,
      title,
      updatedAt: updated_at,
      databaseId: database_id ?? null,
      pageMask: Number(page_mask),
      titleMask: Number(title_mask),
      bestTerms: Math.floor(bestNumber / ENTRY_SPAN),
      entries: Number(entries),
      phrase: Number(inPhrase) === 1,
      titleTerms: title_terms,
      bestEntry: Number(seq) * ENTRY_SPAN + local,
    };
  });
}

/**
 * The names of databases (blocks) as a search result shows them, and their pages: the block's own
 * title, else its page's — none when the caller may not read that page (`readablePage`: a guest
 * given one row learns nothing of the database around it).
 */
export async function databaseNames(db: Kysely<Database>, ids: readonly string[], readablePage: (id: string) => PageRow | undefined) {
  const names = new Map<string, { id: string; title: string; pageId: string }>();
  if (ids.length === 0) return names;
  const blocks = await db
    .selectFrom('blocks')
    .select(['id', 'page_id', 'data'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  for (const block of blocks) {
    let own = '';
    try {
      const data = JSON.parse(block.data) as { title?: unknown };
      if (typeof data.title === 'string') own = data.title.trim();
    } catch {
      // A block's data is JSON; nothing to name it by otherwise.
    }
    const page = readablePage(block.page_id);
    names.set(block.id, { id: block.id, title: page ? own || page.title : '', pageId: block.page_id });
  }
  return names;
}

/** Entries by id, for the passages shown. */
export async function entriesById(db: Kysely<Database>, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, { unit: string; kind: Candidate['kind']; text: string }>();
  const rows = await db.selectFrom('search_entries').select(['id', 'unit', 'kind', 'text']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), { unit: r.unit, kind: r.kind, text: r.text }]));
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
    .$if(!!filters.database, (qb) => qb.where('p.database_id', '=', filters.database!))
    .$if(!!filters.kind, (qb) => qb.where(kindCondition(filters.kind!)))
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
