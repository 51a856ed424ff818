import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: every debounced keystroke rewrites a block row. With full pages (fillfactor 100)
 * each new row version lands on another page and adds entries to both block indexes, and until
 * vacuum runs, reading "the block before this one" walks over the dead versions of its
 * neighbours: the update got slower the longer people typed (bench: 3,300 → 1,400 updates/s
 * between a 5 s and a 10 s run). Room on each page lets an update stay on its page without new
 * index entries (a HOT update; no indexed column changes), and vacuum comes sooner. SQLite
 * rewrites in place: nothing to do there. Frozen once shipped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`ALTER TABLE blocks SET (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`ALTER TABLE blocks RESET (fillfactor, autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor)`.execute(db);
}
