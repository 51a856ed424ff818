import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Search that reads only the index (issue 18, ADR 9 «Figures»): a common word is in thousands of
 * entries, and looking each up in `search_entries` (rows holding their text) to learn its page cost
 * more than the match itself.
 *
 *  - SQLite: `search_fts` becomes a contentless FTS5 table that keeps, beside the indexed terms,
 *    each entry's workspace, page and kind (`contentless_unindexed`): a match answers them itself.
 *    Kept by triggers on `search_entries` as before.
 *  - PostgreSQL: unchanged (a stored, indexed `tsvector` instead of the expression index was
 *    measured: the heap grew by a quarter and a common word took 43 ms instead of 25).
 * Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL's GIN index answers from the heap as before (a stored tsvector was measured slower: ADR 9).
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const trigger of ['search_entries_ai', 'search_entries_ad', 'search_entries_au']) await sql.raw(`drop trigger ${trigger}`).execute(db);
  await sql`drop table search_fts`.execute(db);
  await sql`create virtual table search_fts using fts5(terms, workspace_id unindexed, page_id unindexed, kind unindexed, content='', contentless_delete=1, contentless_unindexed=1, prefix='2 3 4', tokenize='unicode61 remove_diacritics 0')`.execute(
    db,
  );
  const insert = 'insert into search_fts (rowid, terms, workspace_id, page_id, kind) values (new.id, new.terms, new.workspace_id, new.page_id, new.kind);';
  await sql.raw(`create trigger search_entries_ai after insert on search_entries begin ${insert} end`).execute(db);
  await sql.raw('create trigger search_entries_ad after delete on search_entries begin delete from search_fts where rowid = old.id; end').execute(db);
  await sql
    .raw(
      `create trigger search_entries_au after update of terms, workspace_id, page_id, kind on search_entries begin delete from search_fts where rowid = old.id; ${insert} end`,
    )
    .execute(db);
  await sql`insert into search_fts (rowid, terms, workspace_id, page_id, kind) select id, terms, workspace_id, page_id, kind from search_entries`.execute(db);
}
