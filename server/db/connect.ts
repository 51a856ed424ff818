import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './types';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
}

/**
 * Opens the database: PostgreSQL when a postgres:// URL is given, otherwise SQLite in
 * `sqliteFile` (WAL, synchronous=NORMAL: durable across process crashes, fast enough to
 * take every keystroke's debounced block update).
 */
/** True when the handle (or a transaction on it) talks to PostgreSQL. */
export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export function connectDatabase(options: {
  databaseUrl?: string;
  sqliteFile: string;
  /** Told when an idle PostgreSQL connection dies (server restart, failover, admin kill). */
  onConnectionError?: (error: Error) => void;
}): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // Without a listener, an idle client's error is an unhandled 'error' event that kills the
    // process; the pool has already dropped that client and opens a new one when needed.
    pool.on('error', (error) => options.onConnectionError?.(error));
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), kind: 'postgres' };
  }
  if (options.sqliteFile !== ':memory:') fs.mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  const sqlite = new SQLite(options.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), kind: 'sqlite' };
}
