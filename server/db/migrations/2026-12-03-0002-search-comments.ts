import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Comments in search (issue 36, docs/search.md «What is indexed»): a comment written, edited,
 * deleted or gone queues `m:<comment id>` as blocks, pages and cells queue theirs; the indexer
 * keeps one entry per comment on its page (unit `m:<id>`, kind `comment`). The comments there
 * already are queued here. Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function search_queue_comment() returns trigger language plpgsql as $$
      begin
        perform search_queue_add('m:' || case when tg_op = 'DELETE' then old.id else new.id end);
        return null;
      end $$`.execute(db);
    await sql`create trigger search_comments after insert or update of content, deleted_at, page_id or delete on comments for each row execute function search_queue_comment()`.execute(
      db,
    );
    await sql`insert into search_queue (target, queued_at) select 'm:' || id, clock_timestamp()::text from comments where deleted_at is null on conflict (target) do nothing`.execute(
      db,
    );
    return;
  }
  const queue = (target: string) =>
    `insert into search_queue (target, queued_at) values (${target}, strftime('%Y-%m-%dT%H:%M:%f', 'now')) on conflict (target) do nothing;`;
  for (const [name, event, target] of [
    ['search_comments_ai', 'after insert on comments', "'m:' || new.id"],
    ['search_comments_au', 'after update of content, deleted_at, page_id on comments', "'m:' || new.id"],
    ['search_comments_ad', 'after delete on comments', "'m:' || old.id"],
  ])
    await sql.raw(`create trigger ${name} ${event} begin ${queue(target)} end`).execute(db);
  await sql`insert into search_queue (target, queued_at) select 'm:' || id, strftime('%Y-%m-%dT%H:%M:%f', 'now') from comments where deleted_at is null on conflict (target) do nothing`.execute(
    db,
  );
}
