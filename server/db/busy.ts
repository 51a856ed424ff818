import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import { StorageBusyError } from '../errors';

/**
 * Waiting for SQLite's write lock without blocking the event loop.
 *
 * Another process may hold the file's write lock (a second server on the same file, a
 * maintenance script). better-sqlite3 runs statements synchronously, so SQLite's own busy wait
 * (`busy_timeout`) would stop the whole server while it waits: the connection is opened with
 * `busy_timeout = 0` and a statement refused with SQLITE_BUSY comes back at once. Here it is tried
 * again after a pause (1 ms, doubled up to 50 ms) while the connection is left to others — reads
 * go on meanwhile, WAL readers need no lock — until `totalWaitMs` (DB_BUSY_TIMEOUT_MS) is over;
 * then the caller gets StorageBusyError (503 storage.busy with Retry-After).
 *
 * Only a statement outside a transaction is tried again: it failed whole, so running it again is
 * running it once. Inside a transaction a busy statement is never retried (the transaction may
 * have read a snapshot that is stale by then); it fails the transaction, which Kysely rolls back
 * whole. For it not to come to that, every transaction begins IMMEDIATE: it takes the write lock
 * at BEGIN — the one statement waited for — and nothing inside it can find the lock taken.
 */
export function waitWhenBusy(inner: Dialect, options: { totalWaitMs: number; inTransaction: () => boolean; demand?: ConnectionDemand }): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createDriver: () => new PatientDriver(inner.createDriver(), options.totalWaitMs, options.inTransaction, options.demand ?? new ConnectionDemand()),
  };
}

/**
 * How many asked for SQLite's one connection and have not got it yet: queries, and transactions
 * waiting for the one under way. Background work holding the connection in a long transaction
 * (the search indexer's backlog) ends it early when someone waits (server/search/indexer.ts).
 */
export class ConnectionDemand {
  waiting = 0;
}

/** Set while a write runs that must not wait for the lock (`writeAside`). */
const impatient = new AsyncLocalStorage<true>();

/**
 * A small write beside a read — a page's visit noted for recents, a token's last use — that
 * must not hold the read up: when another process holds SQLite's write lock it is not waited
 * for, the read answers at once, and the write is made in the background once the lock is free
 * (or dropped after DB_BUSY_TIMEOUT_MS: it was only a note). On PostgreSQL it simply runs.
 */
export async function writeAside(write: () => Promise<unknown>, log: { warn(obj: unknown, msg: string): void }): Promise<void> {
  try {
    await impatient.run(true, write);
  } catch (error) {
    if (!isStorageBusy(error)) throw error;
    write().catch((failure: unknown) => log.warn({ err: failure }, 'a note beside a read was not written'));
  }
}

/** SQLite's "database is locked" (SQLITE_BUSY and its extended codes), or the refusal after waiting it out. */
export function isStorageBusy(error: unknown): boolean {
  if (error instanceof StorageBusyError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** Retry-After for a wait of `totalWaitMs`: the same again, in whole seconds, at least one. */
export function retryAfterSeconds(totalWaitMs: number): number {
  return Math.max(1, Math.ceil(totalWaitMs / 1000));
}

const FIRST_PAUSE_MS = 1;
const LONGEST_PAUSE_MS = 50;
const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');

type QueryCompile = Parameters<NonNullable<Driver['savepoint']>>[2];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class PatientConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly driver: PatientDriver,
  ) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    try {
      // Kysely's SQLite connection runs the statement now and throws now: when the lock is free
      // this wrapper costs a call and a try.
      return this.inner.executeQuery<R>(compiled);
    } catch (error) {
      if (!isStorageBusy(error)) throw error;
      return this.driver.waitAndRetry(this, () => this.inner.executeQuery<R>(compiled));
    }
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiled, chunkSize);
  }
}

class PatientDriver implements Driver {
  private readonly connections = new WeakMap<DatabaseConnection, PatientConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly totalWaitMs: number,
    private readonly inTransaction: () => boolean,
    private readonly demand: ConnectionDemand,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return this.countedAcquire().then(this.patientOf);
  }

  /** The one connection, counted in `demand` while it is waited for. */
  private countedAcquire(): Promise<DatabaseConnection> {
    this.demand.waiting++;
    return this.inner.acquireConnection().finally(() => this.demand.waiting--);
  }

  private readonly patientOf = (connection: DatabaseConnection): PatientConnection => {
    let patient = this.connections.get(connection);
    if (!patient) {
      patient = new PatientConnection(connection, this);
      this.connections.set(connection, patient);
    }
    return patient;
  };

  /**
   * `run` found the lock taken: pauses (letting the connection go meanwhile) and runs it again
   * until it gets through or the total wait is over. Never inside a transaction, nor for a
   * write aside (refused at once).
   */
  async waitAndRetry<T>(connection: PatientConnection, run: () => Promise<T>): Promise<T> {
    if (this.inTransaction() || impatient.getStore()) throw new StorageBusyError(retryAfterSeconds(this.totalWaitMs));
    const deadline = performance.now() + this.totalWaitMs;
    for (let wait = FIRST_PAUSE_MS; ; wait = Math.min(wait * 2, LONGEST_PAUSE_MS)) {
      const left = deadline - performance.now();
      if (left <= 0) throw new StorageBusyError(retryAfterSeconds(this.totalWaitMs));
      // The one connection is free for other queries during the pause (the statement holds no
      // state on it: it failed whole), and taken again, in turn, to try once more.
      await this.inner.releaseConnection(connection.inner);
      await pause(Math.min(wait, left));
      await this.countedAcquire();
      try {
        return await run();
      } catch (error) {
        if (!isStorageBusy(error)) throw error;
      }
    }
  }

  /** IMMEDIATE: the write lock is taken (waited for, as any statement) before the transaction reads anything. */
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(BEGIN_IMMEDIATE);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(this.innerOf(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(this.innerOf(connection));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompile): Promise<void> {
    return this.inner.savepoint!(this.innerOf(connection), name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompile): Promise<void> {
    return this.inner.rollbackToSavepoint!(this.innerOf(connection), name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompile): Promise<void> {
    return this.inner.releaseSavepoint!(this.innerOf(connection), name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(this.innerOf(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  private innerOf(connection: DatabaseConnection): DatabaseConnection {
    return connection instanceof PatientConnection ? connection.inner : connection;
  }
}
