import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types';

/**
 * Revision counters of data tables (ADR 7): one per database and field ('' for the rows
 * themselves), raised in the transaction of every write of rows or cells, read by `ViewOrders`
 * (server/repositories/databases.ts) to know whether a view's ordered ids still hold. Kept apart
 * from the page and block repositories, which raise them too, so none imports the other.
 */

/** The revision of a database's rows themselves (made, moved, trashed, restored); fields have their own. */
export const ROWS_REVISION = '';

/**
 * The counter of a view's own order (keys written in that view only: docs/api/databases.md
 * «Order per view»). A field id has no ':' in it, so the two never meet.
 */
export function viewOrderRevision(viewUid: string): string {
  return `view:${viewUid}`;
}

/**
 * Raises the revision counters of a database: '' (ROWS_REVISION) for its rows, a field id for
 * that field's cells. Every write of rows or cells calls this in its transaction; a view's
 * ordered ids are reused only while the counters it depends on stay (`ViewOrders`). Answers each
 * counter's new value (the row of the counter stays locked until the transaction ends, so no other
 * write takes the same value).
 */
export async function bumpRevisions(db: Kysely<Database>, databaseId: string, fieldIds: readonly string[]): Promise<Map<string, number>> {
  const revs = new Map<string, number>();
  for (const fieldId of new Set(fieldIds)) {
    const { rev } = await db
      .insertInto('database_revisions')
      .values({ database_id: databaseId, field_id: fieldId, rev: 1 })
      .onConflict((oc) => oc.columns(['database_id', 'field_id']).doUpdateSet({ rev: sql<number>`database_revisions.rev + 1` }))
      .returning('rev')
      .executeTakeFirstOrThrow();
    revs.set(fieldId, Number(rev));
  }
  return revs;
}

/** Pages went to the trash, came back or were deleted: the databases of the rows among them change. */
export async function bumpRowsOfPages(db: Kysely<Database>, pageIds: readonly string[]): Promise<void> {
  const databases = new Set<string>();
  for (let at = 0; at < pageIds.length; at += 500) {
    const chunk = pageIds.slice(at, at + 500);
    const rows = await db.selectFrom('pages').select('database_id').distinct().where('id', 'in', chunk).where('database_id', 'is not', null).execute();
    for (const row of rows) databases.add(row.database_id!);
  }
  for (const databaseId of databases) await bumpRevisions(db, databaseId, [ROWS_REVISION]);
}

/**
 * Where a database stands: its block's version (fields, views) and its rows' and cells' counters.
 * Any write that could change what a view reads changes it; a client that read rows at one
 * revision and sees the same later has missed nothing (a page joining its live channel: docs/api/databases.md «Realtime»).
 */
export async function databaseRevision(db: Kysely<Database>, database: { id: string; version: number }): Promise<string> {
  const row = await db
    .selectFrom('database_revisions')
    .select([sql<number>`coalesce(sum(rev), 0)`.as('sum'), sql<number>`count(*)`.as('n')])
    .where('database_id', '=', database.id)
    .executeTakeFirst();
  return `${database.version}:${Number(row?.sum ?? 0)}:${Number(row?.n ?? 0)}`;
}

/** A database copied: the counters of its unique IDs come along (the copy gives no number the original gave). */
export async function copySequences(db: Kysely<Database>, fromDatabaseId: string, toDatabaseId: string): Promise<void> {
  const counters = await db
    .selectFrom('database_revisions')
    .select(['field_id', 'rev'])
    .where('database_id', '=', fromDatabaseId)
    .where('field_id', 'like', 'seq:%')
    .execute();
  if (counters.length === 0) return;
  await db
    .insertInto('database_revisions')
    .values(counters.map((c) => ({ database_id: toDatabaseId, field_id: c.field_id, rev: c.rev })))
    .execute();
}
