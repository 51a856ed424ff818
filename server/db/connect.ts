import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { DEFAULT_BUSY_TIMEOUT_MS } from '../config';
import { ConnectionDemand, isStorageBusy, waitWhenBusy } from './busy';
import { ChangeWatch, watchChanges } from './changeWatch';
import { PREPARED_STATEMENT_NAMES } from './precompiled';
import type { Database } from './types';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** Moves on every write to the tables that caches of sessions and access depend on. */
  changes: ChangeWatch;
}

/** True when the handle (or a transaction on it) talks to PostgreSQL. */
export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Opens the database: PostgreSQL when a postgres:// URL is given, otherwise SQLite in
 * `sqliteFile` (WAL, synchronous=NORMAL: durable across process crashes, fast enough to
 * take every keystroke's debounced block update). A SQLite write finding the file locked by
 * another process waits for it asynchronously, at most `busyTimeoutMs` (server/db/busy.ts).
 */
export function connectDatabase(options: {
  databaseUrl?: string;
  sqliteFile: string;
  /** Told when a PostgreSQL connection dies (server restart, failover, admin kill), idle or checked out. */
  onConnectionError?: (error: Error) => void;
  /** SQLite: how long a write waits for another process's write lock before 503 storage.busy (DB_BUSY_TIMEOUT_MS). */
  busyTimeoutMs?: number;
}): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // A lost connection (server restart, failover, admin kill) is an 'error' event on its client,
    // and one without a listener kills the process. The pool listens only while a client is idle
    // (and drops it); a client checked out between two statements of a transaction has no
    // listener of the pool's, so each client gets one of its own for its whole life. That work
    // fails on its next statement, and the released dead client is not reused by the pool.
    pool.on('error', () => undefined); // reported by the client's own listener below
    pool.on('connect', (client) => {
      client.on('error', (error) => options.onConnectionError?.(error));
      prepareHotStatements(client);
    });
    const changes = new ChangeWatch();
    return { db: new Kysely<Database>({ dialect: watchChanges(new PostgresDialect({ pool }), changes) }), kind: 'postgres', changes };
  }
  if (options.sqliteFile !== ':memory:') fs.mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  const sqlite = new SQLite(options.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Opening may wait for a lock in SQLite itself (better-sqlite3's default 5 s), as nothing is
  // served yet; from here on SQLite answers SQLITE_BUSY at once and the wait is asynchronous.
  sqlite.pragma('busy_timeout = 0');
  const changes = new ChangeWatch();
  const statements = withStatementCache(sqlite);
  const demand = new ConnectionDemand();
  const patient = waitWhenBusy(new SqliteDialect({ database: statements }), {
    totalWaitMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
    inTransaction: () => sqlite.inTransaction,
    demand,
  });
  const db = new Kysely<Database>({ dialect: watchChanges(patient, changes) });
  demands.set(db, demand);
  // The hottest statements may skip Kysely's promise pipeline (server/db/precompiled.ts): a
  // synchronous better-sqlite3 call is as safe as Kysely's own outside a transaction; inside one
  // (another request holds the connection) they take the normal path and wait their turn, as
  // they do when the file is locked by another process (that path waits for the lock).
  directRunners.set(db, (text, parameters) => {
    if (sqlite.inTransaction) return null;
    try {
      return (statements.prepare(text) as SQLite.Statement).all(...(parameters as unknown[]));
    } catch (error) {
      if (isStorageBusy(error)) return null;
      throw error;
    }
  });
  return { db, kind: 'sqlite', changes };
}

/**
 * Runs the precompiled hot statements (server/db/precompiled.ts) as named prepared statements on
 * this connection: PostgreSQL parses and plans them once per connection instead of per call.
 * Kysely sends every query as `client.query(text, values)`; other texts pass unchanged.
 */
function prepareHotStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: (...args: unknown[]) => unknown }).query = (config: unknown, values?: unknown, ...rest: unknown[]) => {
    const name = typeof config === 'string' && Array.isArray(values) ? PREPARED_STATEMENT_NAMES.get(config) : undefined;
    return name ? query({ name, text: config, values }, ...rest) : query(config, values, ...rest);
  };
}

/** Runs a compiled statement synchronously on SQLite, or null when it must go through Kysely. */
export type DirectRunner = (sql: string, parameters: readonly unknown[]) => unknown[] | null;
const directRunners = new WeakMap<Kysely<Database>, DirectRunner>();

/** The direct runner of a SQLite handle (none for PostgreSQL or a transaction). */
export function directRunnerOf(db: Kysely<Database>): DirectRunner | undefined {
  return directRunners.get(db);
}

const demands = new WeakMap<Kysely<Database>, ConnectionDemand>();

/** SQLite: whether anyone waits for the one connection now (`ConnectionDemand`); PostgreSQL (a pool): never. */
export function connectionWanted(db: Kysely<Database>): () => boolean {
  const demand = demands.get(db);
  return demand ? () => demand.waiting > 0 : () => false;
}

/** How many distinct SQL texts keep a prepared statement. */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * better-sqlite3 for Kysely with prepared statements reused by their SQL text. Kysely's SQLite
 * driver prepares every query afresh, and preparing cost as much as running the query on the hot
 * paths (a block update); statements are safe to reuse since better-sqlite3 runs them synchronously.
 */
export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        // Most recently used last, so the oldest is evicted first.
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= size) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
