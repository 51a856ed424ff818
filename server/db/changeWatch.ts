import { outsideTokenScope } from '../auth/tokenScope';
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';

/**
 * A counter that moves whenever a watched table may have changed, so in-process caches of what
 * those tables say (sessions, access levels) can tell a fresh entry from a stale one without
 * asking the database. It moves before a write runs, after it ran, and again after the
 * transaction it ran in commits or rolls back: a reader that overlapped any part of a change
 * sees a different number at its end than at its start and does not keep what it read.
 *
 * Only this process's writes move it. Other processes (several servers on one PostgreSQL) are
 * covered by the caches' short time to live; see docs/adr/0004-hot-path-caches.md.
 */
export class ChangeWatch {
  private value = 0;
  private readonly listeners = new Set<() => void>();

  get epoch(): number {
    return this.value;
  }

  bump(): void {
    this.value += 1;
    // Out of the writer's token scope: the listeners (the realtime re-check) act for everyone.
    outsideTokenScope(() => {
      for (const listener of this.listeners) listener();
    });
  }

  /** Calls `listener` on every move (the realtime server re-checks who may stay in which channel). Returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * Tables whose writes invalidate the caches and make the realtime server check its connections
 * again: who is signed in (sessions, access tokens), who may see which page.
 */
export const WATCHED_TABLES: ReadonlySet<string> = new Set(['sessions', 'access_tokens', 'users', 'pages', 'page_members', 'workspace_members', 'workspaces']);

const WRITE_TARGET = /\b(?:insert\s+into|update|delete\s+from)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/gi;
const SCHEMA_CHANGE = /^\s*(?:create|alter|drop)\b/i;

/**
 * Does this SQL text write to a watched table? Judged on the text so raw `sql` and builder
 * queries alike are caught; CTEs and subqueries that write are found too. Erring towards "yes"
 * (a schema change, an upsert's `do update set`) only costs a cache refill.
 */
export function writesWatchedTable(sqlText: string, tables: ReadonlySet<string> = WATCHED_TABLES): boolean {
  if (SCHEMA_CHANGE.test(sqlText)) return true;
  for (const match of sqlText.matchAll(WRITE_TARGET)) {
    if (tables.has(match[1].toLowerCase())) return true;
  }
  return false;
}

/**
 * The dialect with every connection watched: a write to a watched table moves `watch`. The SQL
 * texts are few and fixed, so each is judged once.
 */
export function watchChanges(inner: Dialect, watch: ChangeWatch, tables: ReadonlySet<string> = WATCHED_TABLES): Dialect {
  const judged = new Map<string, boolean>();
  const isWatchedWrite = (sqlText: string): boolean => {
    let verdict = judged.get(sqlText);
    if (verdict === undefined) {
      verdict = writesWatchedTable(sqlText, tables);
      if (judged.size < 10_000) judged.set(sqlText, verdict);
    }
    return verdict;
  };

  return {
    createAdapter: () => inner.createAdapter(),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createDriver: (): Driver => {
      const driver = inner.createDriver();
      /** Watched wrappers by the driver's own connection objects, and back. */
      const wrappers = new WeakMap<DatabaseConnection, WatchedConnection>();
      const originals = new WeakMap<DatabaseConnection, DatabaseConnection>();

      class WatchedConnection implements DatabaseConnection {
        inTransaction = false;
        wroteInTransaction = false;
        constructor(private readonly connection: DatabaseConnection) {}

        async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
          if (!isWatchedWrite(compiled.sql)) return this.connection.executeQuery<R>(compiled);
          watch.bump();
          if (this.inTransaction) this.wroteInTransaction = true;
          try {
            return await this.connection.executeQuery<R>(compiled);
          } finally {
            watch.bump();
          }
        }

        streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
          if (isWatchedWrite(compiled.sql)) {
            watch.bump();
            if (this.inTransaction) this.wroteInTransaction = true;
          }
          return this.connection.streamQuery<R>(compiled, chunkSize);
        }

        /** The transaction ended: a change made inside is now visible (or gone) to everyone. */
        ended(): void {
          if (this.wroteInTransaction) watch.bump();
          this.inTransaction = false;
          this.wroteInTransaction = false;
        }
      }

      const wrap = (connection: DatabaseConnection): WatchedConnection => {
        let wrapped = wrappers.get(connection);
        if (!wrapped) {
          wrapped = new WatchedConnection(connection);
          wrappers.set(connection, wrapped);
          originals.set(wrapped, connection);
        }
        return wrapped;
      };
      const original = (connection: DatabaseConnection): DatabaseConnection => originals.get(connection) ?? connection;
      const watched = (connection: DatabaseConnection) => connection as WatchedConnection;

      return {
        init: () => driver.init(),
        acquireConnection: async () => wrap(await driver.acquireConnection()),
        async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
          await driver.beginTransaction(original(connection), settings);
          watched(connection).inTransaction = true;
        },
        async commitTransaction(connection: DatabaseConnection) {
          try {
            await driver.commitTransaction(original(connection));
          } finally {
            watched(connection).ended();
          }
        },
        async rollbackTransaction(connection: DatabaseConnection) {
          try {
            await driver.rollbackTransaction(original(connection));
          } finally {
            watched(connection).ended();
          }
        },
        savepoint: driver.savepoint && ((connection, name, compile) => driver.savepoint!(original(connection), name, compile)),
        rollbackToSavepoint: driver.rollbackToSavepoint && ((connection, name, compile) => driver.rollbackToSavepoint!(original(connection), name, compile)),
        releaseSavepoint: driver.releaseSavepoint && ((connection, name, compile) => driver.releaseSavepoint!(original(connection), name, compile)),
        releaseConnection: (connection) => driver.releaseConnection(original(connection)),
        destroy: () => driver.destroy(),
      };
    },
  };
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * A cache of values read from watched tables: an entry counts only while nothing watched has
 * changed since it was read (same epoch) and for at most `ttlMs` (the bound for changes made by
 * other processes). A value read while a change was under way is returned but not kept.
 */
export class EpochCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private clearedAt = -1;

  constructor(
    private readonly watch: ChangeWatch,
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  /**
   * The kept value for `key`, or `undefined` when none counts: lets a hot path answer without a
   * promise when the value is in memory. `undefined` is never a kept value (`get` reloads it).
   */
  peek(key: K): V | undefined {
    const epoch = this.watch.epoch;
    if (epoch !== this.clearedAt) {
      // Everything kept is stale: drop it at once rather than entry by entry.
      this.entries.clear();
      this.clearedAt = epoch;
      return undefined;
    }
    const entry = this.entries.get(key);
    return entry && entry.expiresAt > Date.now() ? entry.value : undefined;
  }

  /** The value for `key`, loaded when not kept; `keep` says which loaded values may be kept. */
  async get(key: K, load: () => Promise<V>, keep?: (value: V) => boolean): Promise<V> {
    const kept = this.peek(key);
    if (kept !== undefined) return kept;
    const epoch = this.watch.epoch;
    const now = Date.now();
    const value = await load();
    if (this.watch.epoch === epoch && (keep === undefined || keep(value))) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, expiresAt: now + this.ttlMs });
    }
    return value;
  }
}
