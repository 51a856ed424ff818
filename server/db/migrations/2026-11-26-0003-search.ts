import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Full-text search (issue 18, ADR 9, docs/search.md).
 *
 *  - `search_entries`: what is found — a page's title, a block's text, a database row's text cell —
 *    as its text (for the snippet) and its words' stems (`terms`, server/search/terms.ts: one
 *    stemmer for both databases). SQLite matches `terms` with FTS5 (`search_fts`, an external-content
 *    table kept in step by triggers; diacritics kept — «й» is no «и»); PostgreSQL with a GIN index
 *    on `to_tsvector('simple', terms)`.
 *  - `search_trigrams`: the trigrams of titles, for titles typed with a typo (pg_trgm's measure,
 *    computed the same way on both databases).
 *  - `search_queue`: what changed and is to be indexed again. Triggers on `blocks`, `pages` and
 *    `database_cells` add to it in the transaction of the write (a durable outbox: nothing written
 *    is missed, whatever the route); the indexer (server/search/indexer.ts) takes it within a
 *    second. Everything there is now is queued here. Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('search_entries')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (col) => col.primaryKey())
    .addColumn('workspace_id', 'text', (col) => col.notNull())
    .addColumn('page_id', 'text', (col) => col.notNull())
    .addColumn('unit', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('terms', 'text', (col) => col.notNull())
    .addUniqueConstraint('search_entries_unit', ['unit', 'page_id'])
    .execute();
  await db.schema.createIndex('search_entries_page').on('search_entries').column('page_id').execute();
  await db.schema
    .createTable('search_trigrams')
    .addColumn('workspace_id', 'text', (col) => col.notNull())
    .addColumn('trigram', 'text', (col) => col.notNull())
    .addColumn('page_id', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('search_trigrams_pk', ['workspace_id', 'trigram', 'page_id'])
    .execute();
  await db.schema.createIndex('search_trigrams_page').on('search_trigrams').column('page_id').execute();
  await db.schema
    .createTable('search_queue')
    .addColumn('target', 'text', (col) => col.primaryKey())
    .addColumn('queued_at', 'text', (col) => col.notNull())
    .execute();

  if (postgres) {
    await sql`create index search_entries_terms on search_entries using gin (to_tsvector('simple', terms))`.execute(db);
    // One function per table: the target it queues (b: a block, p: a page, c: a row's cell).
    await sql`create function search_queue_add(target text) returns void language sql as $$
      insert into search_queue (target, queued_at) values (target, clock_timestamp()::text)
      on conflict (target) do update set queued_at = excluded.queued_at $$`.execute(db);
    await sql`create function search_queue_block() returns trigger language plpgsql as $$
      begin
        perform search_queue_add('b:' || case when tg_op = 'DELETE' then old.id else new.id end);
        return null;
      end $$`.execute(db);
    await sql`create function search_queue_page() returns trigger language plpgsql as $$
      begin
        perform search_queue_add('p:' || case when tg_op = 'DELETE' then old.id else new.id end);
        return null;
      end $$`.execute(db);
    await sql`create function search_queue_cell() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then perform search_queue_add('c:' || old.row_id || ':' || old.field_id);
        else perform search_queue_add('c:' || new.row_id || ':' || new.field_id);
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger search_blocks after insert or update of data, type, deleted_at, page_id or delete on blocks for each row execute function search_queue_block()`.execute(
      db,
    );
    await sql`create trigger search_pages after insert or update of title, workspace_id or delete on pages for each row execute function search_queue_page()`.execute(
      db,
    );
    await sql`create trigger search_cells after insert or update of value or delete on database_cells for each row execute function search_queue_cell()`.execute(
      db,
    );
  } else {
    await sql`create virtual table search_fts using fts5(terms, content='search_entries', content_rowid='id', prefix='2 3 4', tokenize='unicode61 remove_diacritics 0')`.execute(
      db,
    );
    await sql`create trigger search_entries_ai after insert on search_entries begin
      insert into search_fts (rowid, terms) values (new.id, new.terms); end`.execute(db);
    await sql`create trigger search_entries_ad after delete on search_entries begin
      insert into search_fts (search_fts, rowid, terms) values ('delete', old.id, old.terms); end`.execute(db);
    await sql`create trigger search_entries_au after update of terms on search_entries begin
      insert into search_fts (search_fts, rowid, terms) values ('delete', old.id, old.terms);
      insert into search_fts (rowid, terms) values (new.id, new.terms); end`.execute(db);
    const queue = (target: string) =>
      `insert into search_queue (target, queued_at) values (${target}, strftime('%Y-%m-%dT%H:%M:%f', 'now')) on conflict (target) do update set queued_at = excluded.queued_at;`;
    for (const [name, event, target] of [
      ['search_blocks_ai', 'after insert on blocks', "'b:' || new.id"],
      ['search_blocks_au', 'after update of data, type, deleted_at, page_id on blocks', "'b:' || new.id"],
      ['search_blocks_ad', 'after delete on blocks', "'b:' || old.id"],
      ['search_pages_ai', 'after insert on pages', "'p:' || new.id"],
      ['search_pages_au', 'after update of title, workspace_id on pages', "'p:' || new.id"],
      ['search_pages_ad', 'after delete on pages', "'p:' || old.id"],
      ['search_cells_ai', 'after insert on database_cells', "'c:' || new.row_id || ':' || new.field_id"],
      ['search_cells_au', 'after update of value on database_cells', "'c:' || new.row_id || ':' || new.field_id"],
      ['search_cells_ad', 'after delete on database_cells', "'c:' || old.row_id || ':' || old.field_id"],
    ] as const) {
      await sql.raw(`create trigger ${name} ${event} begin ${queue(target)} end`).execute(db);
    }
  }

  // What there is already: indexed by the indexer as it takes the queue.
  const now = new Date().toISOString();
  await sql`insert into search_queue (target, queued_at) select ${'p:'} || id, ${now} from pages`.execute(db);
  await sql`insert into search_queue (target, queued_at) select ${'b:'} || id, ${now} from blocks where deleted_at is null`.execute(db);
  await sql`insert into search_queue (target, queued_at) select ${'c:'} || row_id || ${':'} || field_id, ${now} from database_cells where txt is not null`.execute(
    db,
  );
}
