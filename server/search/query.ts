import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from '../db/connect';
import type { Database, PageRow } from '../db/types';
import { ENTRY_SPAN } from './indexer';
import { inChunks } from '../db/inChunks';
import { placedWords, termMatches, trigrams, type ParsedQuery, type QueryTerm } from './terms';
import { comparePages, floatSql, scoreSql, type RankedPage, type RankOrder } from './rank';
import type { SearchKind, SearchMatchKind } from '../../schema/search';

/** One entry that answers a query, with its page. */
export interface Candidate {
  page: PageRow;
  unit: string;
  kind: SearchMatchKind;
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

/**
 * SQL conditions for a kind of result, on the page's copy `s` (search_pages; `copy`: or its row)
 * or, for databases, its row `p` (pageFeatures joins it then).
 */
function kindCondition(kind: SearchKind, copy: 's' | 'p' = 's'): RawBuilder<boolean> {
  const databaseId = sql.ref(`${copy}.database_id`);
  if (kind === 'pages') return sql<boolean>`${databaseId} is null`;
  // Any page: what its comments hold decides (pageFeatures).
  if (kind === 'comments') return sql<boolean>`1 = 1`;
  if (kind === 'rows') return sql<boolean>`${databaseId} is not null`;
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

/** A stem for a LIKE pattern (escaped with a backslash). */
const likeEscaped = (stem: string) => stem.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A phrase's stems as `search_entries.terms` holds them, for a LIKE over ' ' || terms || ' ' (a prefix last: no space after it). */
function phrasePattern(words: readonly QueryTerm[]): string {
  const last = words[words.length - 1];
  return `% ${words.map((w) => likeEscaped(w.stem)).join(' ')}${last?.prefix ? '' : ' '}%`;
}

/** `(' ' || terms || ' ') like pattern` (escaped with a backslash) on both databases. */
function holdsPhrase(column: RawBuilder<unknown>, words: readonly QueryTerm[]) {
  return sql`(' ' || ${column} || ' ') like ${phrasePattern(words)} escape '\\'`;
}

/**
 * An entry's terms, looked up by its id for each entry in turn (a join let PostgreSQL, misjudging
 * how few entries hold every term, scan all of `search_entries` for the LIKE: 115 ms).
 */
const termsOf = (entryId: RawBuilder<unknown>) => sql`(select se.terms from search_entries se where se.id = ${entryId})`;

/**
 * The ids of the entries holding every one of the terms (each at least once, anywhere): FTS5's
 * AND on SQLite, the postings' intersection on PostgreSQL.
 */
function entriesHoldingAll(terms: readonly QueryTerm[], postgres: boolean) {
  if (!postgres) {
    const match = terms.map((t) => `"${t.stem}"${t.prefix ? '*' : ''}`).join(' AND ');
    return sql`select rowid as entry_id from search_fts where search_fts match ${match}`;
  }
  return sql.join(
    terms.map((t) => sql`select entry_id from (${termEntries(t, true)}) e`),
    sql` intersect `,
  );
}

/** The ids of the entries holding any of the terms, once each. */
function entriesHoldingAny(terms: readonly QueryTerm[], postgres: boolean) {
  return sql.join(
    terms.map((t) => termEntries(t, postgres)),
    sql` union `,
  );
}

/**
 * The pages holding a term (bit `bit`): whether the title holds it, whether as the whole word (a
 * prefix: the stem itself, not a longer one it begins), in how many entries (a prefix: summed over
 * the stems it begins).
 */
function termPages(term: QueryTerm, bit: number) {
  const where = term.prefix ? sql`stem >= ${term.stem} and stem < ${stemsAfter(term.stem)}` : sql`stem = ${term.stem}`;
  const whole = term.prefix ? sql`case when stem = ${term.stem} then title else 0 end` : sql`title`;
  return sql`select seq, ${sql.lit(bit)} as w, title, ${whole} as whole, entries from search_page_stems where ${where}`;
}

/**
 * How `rankedPages` reads: the best `limit` pages in this order, ranked as at `now` (ms: one
 * instant for all the reads of a request, the same ranking each time); `databases`: rows of these
 * databases only.
 */
export interface RankWindow {
  order: RankOrder;
  limit: number;
  now: number;
  databases?: readonly string[];
}

/**
 * The pages holding any of the query's terms, in the pages the filters keep, ranked in the
 * database (rank.ts `scoreSql`) and the best `limit` of them read (with every page tied with the
 * last one: the final order of ties is by title, here), in their final order (`comparePages`), in
 * one statement;
 * `more`: there are others. Only pages holding every quoted phrase are kept. The same on both
 * databases. What each page holds comes from the page-level index (`search_page_stems`: a common
 * word is in a few thousand pages but tens of thousands of entries) — which terms, in the title,
 * as whole words there, in how many entries — and the page's copy in `search_pages`; entries are
 * read only to find those holding every term (FTS5's AND, the postings' intersection) and, among
 * them, a phrase. An entry's id carries its page (`search_pages.seq` × 2^20, the title's number 0).
 */
export async function rankedPages(
  db: Kysely<Database>,
  query: ParsedQuery,
  filters: SearchFilters,
  window: RankWindow,
): Promise<{ pages: RankedPage[]; more: boolean }> {
  const terms = query.terms;
  if (terms.length === 0) return { pages: [], more: false };
  const postgres = isPostgres(db);
  const span = sql.lit(ENTRY_SPAN);
  // Per page: how many terms it holds, in its title (½ a term the title holds only as the start
  // of a longer word), which as whole words there (bit i: term i), its entries holding them. One
  // whole word: its rows as they are.
  const perTerm = (value: (bit: number) => RawBuilder<unknown>) =>
    sql.join(
      terms.map((_, i) => sql`max(case when w = ${sql.lit(2 ** i)} then ${value(2 ** i)} else 0 end)`),
      sql` + `,
    );
  const perPage =
    terms.length === 1 && !terms[0].prefix
      ? sql`select seq, 1 as covered, title as in_title, title as whole_mask, entries from search_page_stems where stem = ${terms[0].stem}`
      : sql`select seq, ${perTerm(() => sql`1`)} as covered,
          ${perTerm(() => sql`case when title = 1 then (case when whole = 1 then ${floatSql(1, postgres)} else ${floatSql(0.5, postgres)} end) else ${floatSql(0, postgres)} end`)} as in_title,
          ${perTerm((bit) => sql`case when whole = 1 then ${sql.lit(bit)} else 0 end`)} as whole_mask, sum(entries) as entries
        from (${sql.join(
          terms.map((term, i) => termPages(term, 2 ** i)),
          sql` union all `,
        )}) t group by seq`;
  // The page's copy in search_pages answers most (the route checks the results' own rows: the copy
  // may be a moment old); its row in pages for an author, databases and the trash. Live pages:
  // the copy's trash, its row's only where the copy says trashed (a page restored a moment ago is
  // found at once; one trashed a moment ago is left out by the route) — trashed pages take no
  // place in the windows read.
  const conditions = [sql`s.workspace_id = ${filters.workspaceId}`];
  const readsPage = !!filters.author || filters.kind === 'databases' || filters.inTrash;
  if (filters.inTrash) conditions.push(sql`p.in_trash = 1`);
  else
    conditions.push(
      postgres
        ? sql`(s.in_trash = 0 or s.seq in (select t.seq from search_pages t join pages lp on lp.id = t.page_id where t.workspace_id = ${filters.workspaceId} and t.in_trash = 1 and lp.in_trash = 0))`
        : sql`(s.in_trash = 0 or exists (select 1 from pages lp where lp.id = s.page_id and lp.in_trash = 0))`,
    );
  if (filters.author) conditions.push(sql`p.created_by = ${filters.author}`);
  if (filters.after) conditions.push(sql`s.updated_at >= ${filters.after}`);
  if (filters.before) conditions.push(sql`s.updated_at < ${filters.before}`);
  if (filters.database) conditions.push(sql`s.database_id = ${filters.database}`);
  if (window.databases) conditions.push(window.databases.length > 0 ? sql`s.database_id in (${sql.join(window.databases)})` : sql`1 = 0`);
  if (filters.kind) conditions.push(kindCondition(filters.kind));
  // Each quoted phrase in an entry holding its words (among the terms), per page.
  const ctes: RawBuilder<unknown>[] = [];
  query.phrases.forEach((words, i) => {
    const held = terms.filter((t) => words.some((w) => w.stem === t.stem));
    const name = sql.raw(`quoted${i}`);
    const source = held.length > 0 ? entriesHoldingAll(held, postgres) : entriesHoldingAny(terms, postgres);
    ctes.push(sql`${name} as (select distinct x.entry_id / ${span} as seq from (${source}) x where ${holdsPhrase(termsOf(sql.ref('x.entry_id')), words)})`);
    conditions.push(sql`f.seq in (select seq from ${name})`);
  });
  // Comments only: the pages with a comment holding a term.
  if (filters.kind === 'comments') {
    ctes.push(
      sql`commented as (select distinct x.entry_id / ${span} as seq from (${entriesHoldingAny(terms, postgres)}) x join search_entries se on se.id = x.entry_id where se.kind = 'comment')`,
    );
    conditions.push(sql`f.seq in (select seq from commented)`);
  }
  // Pages with one entry holding every term (of two or more), and with one holding the whole
  // query's words as a phrase (looked for in those entries only).
  const several = terms.length > 1;
  const phrased = query.words.length > 1;
  if (several || phrased) ctes.push(sql`all_in as (${entriesHoldingAll(terms, postgres)})`);
  if (several) ctes.push(sql`one_entry as (select distinct entry_id / ${span} as seq from all_in)`);
  if (phrased)
    ctes.push(sql`phrased as (select distinct a.entry_id / ${span} as seq from all_in a where ${holdsPhrase(termsOf(sql.ref('a.entry_id')), query.words)})`);
  const found = sql`
    select s.page_id as id, s.seq, s.title, s.updated_at, s.updated_days, s.database_id, s.title_terms, f.covered, f.in_title, f.whole_mask, f.entries,
      ${several ? sql`case when f.seq in (select seq from one_entry) then 1 else 0 end` : sql`1`} as one_entry,
      ${phrased ? sql`case when f.seq in (select seq from phrased) then 1 else 0 end` : sql`0`} as phrase
    from f cross join search_pages s${readsPage ? sql` cross join pages p` : sql``}
    where s.seq = f.seq${readsPage ? sql` and p.id = s.page_id` : sql``} and ${sql.join(conditions, sql` and `)}`;
  // The place of each page (rank(): pages tied share one — their final order is the title's as
  // people sort them, here, not the database's), and whether more were found: the pages up to the
  // window's last place are read, ties and all, in one statement. PostgreSQL: the best limit + 1
  // with ties (a top-N sort; numbering and counting them all took ≈ 3 ms of a common word), those
  // past the last place dropped here — more found when any was read past the limit (when all of
  // those tie with the last place there may be none beyond: a bigger window is then read for
  // nothing, which changes no result). SQLite: rank() and count(*), which it does as fast.
  const places = window.order === 'edited' ? sql`order by updated_at desc, covered desc, score desc` : sql`order by covered desc, score desc, updated_at desc`;
  type Row = {
    id: string;
    seq: number | string;
    title: string;
    updated_at: string;
    database_id: string | null;
    covered: number | string;
    score: number | string;
    found?: number | string;
  };
  const withFound = sql`with f as (${perPage})${sql.join(
    ctes.map((cte) => sql`, ${cte}`),
    sql``,
  )}`;
  const scored = sql`select id, seq, title, updated_at, database_id, covered, ${scoreSql(query, window.now, postgres)} as score from (${found}) r`;
  let rows: Row[];
  let more: boolean;
  if (postgres) {
    const read = (await sql<Row>`${withFound} ${scored} ${places} fetch first ${sql.lit(window.limit + 1)} rows with ties`.execute(db)).rows;
    const key = (row: Row) => `${String(row.covered)} ${String(row.score)} ${row.updated_at}`;
    const last = read.length > window.limit ? key(read[window.limit - 1]) : null;
    rows = last === null ? read : read.filter((row, i) => i < window.limit || key(row) === last);
    more = read.length > window.limit;
  } else {
    rows = (
      await sql<Row>`${withFound}
        select * from (select y.*, rank() over (${places}) as place, count(*) over () as found from (${scored}) y) x
        where place <= ${sql.lit(window.limit)}`.execute(db)
    ).rows;
    more = rows.length > 0 && Number(rows[0].found) > rows.length;
  }
  const pages = rows.map((row): RankedPage => ({
    pageId: row.id,
    seq: Number(row.seq),
    title: row.title,
    updatedAt: row.updated_at,
    databaseId: row.database_id ?? null,
    covered: Number(row.covered),
    score: Number(row.score),
  }));
  return { pages: pages.sort(comparePages(window.order)), more };
}

/** Entries of a page looked at for its passage: the first this many holding a term. */
const PASSAGE_CANDIDATES = 50;

/** An entry as a result shows it: its unit (a block's id, `c:` and a field's, `m:` and a comment's, or the title), its kind, its text. */
export interface Passage {
  id: number;
  unit: string;
  kind: Candidate['kind'];
  text: string;
}

/**
 * The entry whose passage is shown for each page (by its `search_pages.seq`): the one holding
 * the most terms, the first of those (the title first). Read for the few pages shown only, in one
 * statement on PostgreSQL: the page's entries in id order (its range of ids) holding a term — the
 * first holding them all and the first `PASSAGE_CANDIDATES` holding any — their terms counted in
 * the database, the best one's text read with it (no entry's terms sent). `kind`: of that kind only (the
 * comments filter shows a comment).
 */
export async function shownPassages(db: Kysely<Database>, query: ParsedQuery, seqs: readonly number[], kind?: SearchMatchKind): Promise<Map<number, Passage>> {
  const best = new Map<number, Passage>();
  const terms = query.terms;
  if (terms.length === 0 || seqs.length === 0) return best;
  const span = sql.lit(ENTRY_SPAN);
  // An entry holding a term: its terms hold it as a phrase of one word.
  const holds = terms.map((t) => holdsPhrase(sql.ref('terms'), [t]));
  const any = sql`(${sql.join(holds, sql` or `)})`;
  const all = sql`(${sql.join(holds, sql` and `)})`;
  const held = sql.join(
    holds.map((h) => sql`case when ${h} then 1 else 0 end`),
    sql` + `,
  );
  const pages = [...new Set(seqs)];
  const ofKind = kind ? sql` and kind = ${kind}` : sql``;
  // The best of the candidates per page, with its text.
  const bestOf = (candidates: RawBuilder<unknown>) => sql<{ id: number | string; unit: string; kind: Candidate['kind']; text: string }>`
    select id, unit, kind, text from (
      select e.id, e.unit, e.kind, e.text, row_number() over (partition by c.id / ${span} order by c.held desc, c.id) as r
      from (${candidates}) c join search_entries e on e.id = c.id
    ) x where r = 1`;
  const take = (rows: ReadonlyArray<{ id: number | string; unit: string; kind: Candidate['kind']; text: string }>) => {
    for (const row of rows) best.set(Math.floor(Number(row.id) / ENTRY_SPAN), { id: Number(row.id), unit: row.unit, kind: row.kind, text: row.text });
  };
  if (isPostgres(db)) {
    // One plan for all the pages (a union of a subquery per page took PostgreSQL ≈ 8 ms to plan).
    const first = (holding: RawBuilder<unknown>, limit: number) =>
      sql`select e.id, e.held from (select unnest(${sql.val(pages)}::bigint[]) as seq) x cross join lateral (
        select id, ${held} as held from search_entries where id >= x.seq * ${span} and id < (x.seq + 1) * ${span}${ofKind} and ${holding} order by id limit ${sql.lit(limit)}) e`;
    take((await bestOf(sql`${first(any, PASSAGE_CANDIDATES)}${terms.length > 1 ? sql` union all ${first(all, 1)}` : sql``}`).execute(db)).rows);
  } else {
    // SQLite, in the process: the candidates' terms counted here (a window and a join in SQL took
    // it ≈ 15 % longer), then the best ones' texts read by id.
    const counted: Array<{ id: number; held: number }> = [];
    const parts = (seq: number) => {
      const range = sql`id >= ${seq * ENTRY_SPAN} and id < ${(seq + 1) * ENTRY_SPAN}${ofKind}`;
      return [
        ...(terms.length > 1 ? [sql`select * from (select id, terms from search_entries where ${range} and ${all} order by id limit 1) a${sql.lit(seq)}`] : []),
        sql`select * from (select id, terms from search_entries where ${range} and ${any} order by id limit ${sql.lit(PASSAGE_CANDIDATES)}) b${sql.lit(seq)}`,
      ];
    };
    for (const chunk of inChunks(pages, 50)) {
      for (const row of (await sql<{ id: number; terms: string }>`${sql.join(chunk.flatMap(parts), sql` union all `)}`.execute(db)).rows) {
        const stems = row.terms.split(' ');
        counted.push({ id: Number(row.id), held: terms.reduce((n, t) => n + (stems.some((stem) => termMatches(t, stem)) ? 1 : 0), 0) });
      }
    }
    const chosen = new Map<number, { id: number; held: number }>();
    for (const entry of counted.sort((a, b) => a.id - b.id)) {
      const seq = Math.floor(entry.id / ENTRY_SPAN);
      if (entry.held > (chosen.get(seq)?.held ?? 0)) chosen.set(seq, entry);
    }
    const ids = [...chosen.values()].map((e) => e.id);
    for (const chunk of inChunks(ids)) take(await db.selectFrom('search_entries').select(['id', 'unit', 'kind', 'text']).where('id', 'in', chunk).execute());
  }
  return best;
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
  // A title is not a comment.
  if (wanted.length < 3 || filters.kind === 'comments') return [];
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
    .$if(!!filters.kind, (qb) => qb.where(kindCondition(filters.kind!, 'p')))
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
