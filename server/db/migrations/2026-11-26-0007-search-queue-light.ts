import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * A lighter search queue on SQLite (issue 18, ADR 9 «Figures»: the block update's hot path). Every
 * block update queues its block through a trigger; measured per update, the queue's upsert cost
 * about as much again as the update's own index writes. Now:
 *
 *  - `search_queue` is a `without rowid` table: one b-tree (its key, the target) instead of the
 *    rowid table and the target's index.
 *  - A target already waiting is left as it is (`on conflict do nothing`) instead of being written
 *    again with a new time: a block typed into keeps its first time in the queue, which is what the
 *    indexer's pacing asks (how long the oldest write has waited), and the write costs one lookup.
 *
 * PostgreSQL: unchanged (its queue row lock is what orders a write against the indexer's take).
 * Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  const triggers = [
    ['search_blocks_ai', 'after insert on blocks', "'b:' || new.id"],
    ['search_blocks_au', 'after update of data, type, deleted_at, page_id on blocks', "'b:' || new.id"],
    ['search_blocks_ad', 'after delete on blocks', "'b:' || old.id"],
    ['search_pages_ai', 'after insert on pages', "'p:' || new.id"],
    ['search_pages_au', 'after update of title, workspace_id on pages', "'p:' || new.id"],
    ['search_pages_ad', 'after delete on pages', "'p:' || old.id"],
    ['search_cells_ai', 'after insert on database_cells', "'c:' || new.row_id || ':' || new.field_id"],
    ['search_cells_au', 'after update of value on database_cells', "'c:' || new.row_id || ':' || new.field_id"],
    ['search_cells_ad', 'after delete on database_cells', "'c:' || old.row_id || ':' || old.field_id"],
  ] as const;
  for (const [name] of triggers) await sql.raw(`drop trigger ${name}`).execute(db);
  await sql`create table search_queue_light (target text primary key, queued_at text not null) without rowid`.execute(db);
  await sql`insert into search_queue_light (target, queued_at) select target, queued_at from search_queue`.execute(db);
  await sql`drop table search_queue`.execute(db);
  await sql`alter table search_queue_light rename to search_queue`.execute(db);
  for (const [name, event, target] of triggers) {
    await sql
      .raw(
        `create trigger ${name} ${event} begin insert into search_queue (target, queued_at) values (${target}, strftime('%Y-%m-%dT%H:%M:%f', 'now')) on conflict (target) do nothing; end`,
      )
      .execute(db);
  }
}
