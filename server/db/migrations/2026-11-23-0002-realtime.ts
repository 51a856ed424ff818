import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Realtime (docs/realtime.md):
 * - `blocks.origin`: the client (one connection of the web app, `X-Client-Id`) whose write made
 *   the block's current version, and `blocks.origin_since`: the version before that client's
 *   run of consecutive writes began. A write based on a version inside its own run is not a
 *   conflict: it is a retry whose answer was lost, and it replaces its own earlier text (a
 *   replayed request never doubles content). Not indexed, so a keystroke's update stays a
 *   PostgreSQL HOT update.
 * - PostgreSQL only: the table where the socket.io PostgreSQL adapter keeps messages over
 *   NOTIFY's 8,000 bytes (a large block's edit) for the other server processes.
 * Frozen once shipped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('blocks').addColumn('origin', 'text').execute();
  await db.schema.alterTable('blocks').addColumn('origin_since', 'integer').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`CREATE TABLE IF NOT EXISTS socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`DROP TABLE IF EXISTS socket_io_attachments`.execute(db);
  await db.schema.alterTable('blocks').dropColumn('origin_since').execute();
  await db.schema.alterTable('blocks').dropColumn('origin').execute();
}
