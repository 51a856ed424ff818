import { sql, type Kysely, type Transaction } from 'kysely';
import { isPostgres } from './connect';
import { inChunks } from './inChunks';
import type { Database } from './types';

/**
 * What a lock guards. The number is the first key of PostgreSQL's two-key advisory lock, so
 * locks of different kinds never collide; append only.
 */
export const LOCK_KINDS = {
  /** The page tree of a workspace: parents, paths, sections, sort keys and trash state. */
  tree: 1,
  /** The blocks of a page: their parents, order, deletion and database rows. */
  blocks: 2,
  /** The comments of a page: replies, deletion and reactions. */
  comments: 3,
  /** Writes of a two-way relation's cells, which write the other database's too (its revisions after this one's). */
  twoWay: 4,
} as const;

export type LockKind = keyof typeof LOCK_KINDS;

/**
 * Takes an exclusive lock on `kind` of `key` until the transaction ends (commit or rollback).
 * Every read-check-write that must not interleave with another one of the same kind runs in a
 * transaction that takes this lock FIRST and then reads what it checks (see
 * docs/adr/0003-concurrency.md).
 *
 * PostgreSQL: `pg_advisory_xact_lock(kind, hashtext(key))`. A hash collision only makes two
 * unrelated keys wait for each other. Under READ COMMITTED each later statement sees everything
 * the previous holder committed.
 *
 * SQLite: nothing to do. The server is one process with one connection, and Kysely's SQLite
 * driver holds that connection (a mutex) from BEGIN to COMMIT, so a transaction never
 * interleaves with any other query: it is serialized against everything already. Its BEGIN is
 * IMMEDIATE, taking the file's write lock against other processes too (server/db/busy.ts).
 */
export async function lockFor(trx: Kysely<Database>, kind: LockKind, key: string): Promise<void> {
  // Outside a transaction an xact lock would be let go at the end of this very statement.
  if (!trx.isTransaction) throw new Error(`lock ${kind} ${key}: call inside a transaction`);
  if (!isPostgres(trx)) return;
  await sql`select pg_advisory_xact_lock(${LOCK_KINDS[kind]}::int4, hashtext(${key}))`.execute(trx);
}

/** The page-tree lock of a workspace (create, move, clone into, reorder, trash, restore, delete forever). */
export function lockTree(trx: Transaction<Database>, workspaceId: string): Promise<void> {
  return lockFor(trx, 'tree', workspaceId);
}

/** The block lock of a page (create, revive, move, clone, delete, restore; databases and rows). */
export function lockBlocks(trx: Transaction<Database>, pageId: string): Promise<void> {
  return lockFor(trx, 'blocks', pageId);
}

/** The comment lock of a page (write, reply, edit, delete, react). */
export function lockComments(trx: Transaction<Database>, pageId: string): Promise<void> {
  return lockFor(trx, 'comments', pageId);
}

/**
 * Locks rows of the pages table (PostgreSQL), in one order — by id, bytewise — whatever order the
 * caller names them in, before a write that changes several of them or their cells: two writes of
 * the same pages named in different orders then wait for each other instead of each holding what
 * the other needs (a deadlock, answered 500: a batch of cells against rows trashed or moved at
 * once). `noKeyUpdate` is what an UPDATE of the pages takes anyway and lets writes into the
 * pages' bodies go on (they hold the pages key-shared: writablePage); `update` waits for those
 * too (a page deleted for good). Every write of a data table's rows takes these first, before its
 * cells and its revision counters. SQLite: nothing to do (writes are serialized, see lockFor).
 */
export async function lockPageRows(trx: Transaction<Database>, pageIds: readonly string[], strength: 'noKeyUpdate' | 'update' = 'noKeyUpdate'): Promise<void> {
  if (!isPostgres(trx)) return;
  const sorted = [...new Set(pageIds)].sort();
  for (const chunk of inChunks(sorted)) {
    const read = trx
      .selectFrom('pages')
      .select('id')
      .where('id', 'in', chunk)
      .orderBy(sql`id collate "C"`);
    await (strength === 'update' ? read.forUpdate() : read.forNoKeyUpdate()).execute();
  }
}
