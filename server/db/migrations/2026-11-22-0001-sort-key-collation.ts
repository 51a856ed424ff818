import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Sort keys (fractional indexing: 0-9A-Za-z) and the block ids that break their ties must compare
 * byte by byte, as SQLite and JavaScript compare them. A PostgreSQL database with a linguistic
 * collation (en_US.UTF-8, the usual default) puts 'Zz' after 'a0' and 'aa' before 'aZ', which
 * scrambles block and page order and makes placeAfter disagree with the list. SQLite compares
 * bytes already (BINARY), so there is nothing to do there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`ALTER TABLE blocks ALTER COLUMN sort_key TYPE text COLLATE "C"`.execute(db);
  await sql`ALTER TABLE blocks ALTER COLUMN id TYPE text COLLATE "C"`.execute(db);
  await sql`ALTER TABLE pages ALTER COLUMN sort_key TYPE text COLLATE "C"`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`ALTER TABLE blocks ALTER COLUMN sort_key TYPE text COLLATE "default"`.execute(db);
  await sql`ALTER TABLE blocks ALTER COLUMN id TYPE text COLLATE "default"`.execute(db);
  await sql`ALTER TABLE pages ALTER COLUMN sort_key TYPE text COLLATE "default"`.execute(db);
}
