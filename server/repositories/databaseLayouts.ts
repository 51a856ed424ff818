import type { Kysely, Transaction } from 'kysely';
import { newId } from '../../schema/ids';
import type { Database } from '../db/types';
import { inChunks } from '../db/inChunks';
import { nowIso } from '../time';
import { viewOrderRevision } from './databaseRevisions';

/**
 * Which database block holds a view (layout) uid: the lookup behind a `WidgetView` page, which
 * names a view of a database elsewhere by the view's uid alone (docs/adr/0007-data-tables.md,
 * «Linked views»). `database_layouts` has one record per view of every database block, deleted
 * blocks included (a restore needs nothing; the lookup reads the block's state). Every write of
 * a database block's data calls `syncDatabaseLayouts` in its transaction — the block repository
 * does it in insertBlock, reviveBlock, updateBlockIfVersion and cloneBlockTree, the page
 * repository in clonePageTree — and a block deleted for good takes its records with it (cascade).
 */

/** The view uids of a database block's data (JSON text or parsed); none for anything else. */
export function layoutUidsOf(data: unknown): string[] {
  let parsed: unknown = data;
  if (typeof data === 'string') {
    try {
      parsed = JSON.parse(data);
    } catch {
      return [];
    }
  }
  const layouts = (parsed as { view?: { layouts?: unknown } } | null)?.view?.layouts;
  if (!Array.isArray(layouts)) return [];
  return [...new Set(layouts.map((l) => (l as { uid?: unknown } | null)?.uid).filter((uid): uid is string => typeof uid === 'string'))];
}

/**
 * Makes `database_layouts` hold exactly the views of the block's data now: a view added is
 * entered (since now), a view deleted goes — its own order with it (`dropViewKeys`) —, the others keep their `since`. `data` null: the block
 * is no database (any more) and holds none. Call in the transaction that wrote the block.
 */
export async function syncDatabaseLayouts(db: Kysely<Database>, databaseId: string, data: unknown, now: string = nowIso()): Promise<void> {
  const uids = data === null ? [] : layoutUidsOf(data);
  const held = (await db.selectFrom('database_layouts').select('layout_id').where('database_id', '=', databaseId).execute()).map((r) => r.layout_id);
  const gone = held.filter((uid) => !uids.includes(uid));
  const added = uids.filter((uid) => !held.includes(uid));
  if (gone.length > 0) await db.deleteFrom('database_layouts').where('database_id', '=', databaseId).where('layout_id', 'in', gone).execute();
  await dropViewKeys(db, databaseId, gone);
  if (added.length > 0)
    await db
      .insertInto('database_layouts')
      .values(added.map((uid) => ({ database_id: databaseId, layout_id: uid, since: now })))
      .execute();
}

/**
 * A copy of a database block's data (a block or page clone) with new view uids, so a linked
 * view of the original stays on the original and a linked view copied along can follow the copy
 * (`renamed`: old uid → new).
 */
export function withFreshLayoutUids(data: string): { data: string; renamed: Map<string, string> } {
  const renamed = new Map<string, string>();
  const parsed = JSON.parse(data) as { view?: { layouts?: Array<{ uid: string }> } };
  for (const layout of parsed.view?.layouts ?? []) {
    const uid = newId();
    renamed.set(layout.uid, uid);
    layout.uid = uid;
  }
  return { data: JSON.stringify(parsed), renamed };
}

/**
 * The database block holding a view uid: of several (a client may give a view a uid another
 * database has), the one that has held it longest, so a later database can never take a linked
 * view over from its source. The block may be deleted: the caller says so (after its access check).
 */
export async function findLayoutHolder(db: Kysely<Database>, layoutId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('database_layouts')
    .select('database_id')
    .where('layout_id', '=', layoutId)
    .orderBy('since')
    .orderBy('database_id')
    .limit(1)
    .executeTakeFirst();
  return row?.database_id;
}

/** Views gone from a database (deleted, or the block is no database any more): their own orders go with them. */
export async function dropViewKeys(trx: Kysely<Database>, databaseId: string, viewUids: readonly string[]): Promise<void> {
  if (viewUids.length === 0) return;
  await trx.deleteFrom('database_view_order').where('database_id', '=', databaseId).where('view_uid', 'in', viewUids).execute();
  await trx.deleteFrom('database_revisions').where('database_id', '=', databaseId).where('field_id', 'in', viewUids.map(viewOrderRevision)).execute();
}

/**
 * The own orders of a database's views copied along with it (a block or page clone): each key
 * under the copy's view (`views`: old uid → new) and row (`rows`: old id → new); keys of views or
 * rows not copied stay behind.
 */
export async function cloneViewKeys(
  trx: Transaction<Database>,
  fromId: string,
  toId: string,
  views: ReadonlyMap<string, string>,
  rows: ReadonlyMap<string, string>,
): Promise<void> {
  const kept: Array<{ database_id: string; view_uid: string; row_id: string; sort_key: string }> = [];
  for (const chunk of inChunks([...rows.keys()])) {
    const keys = await trx.selectFrom('database_view_order').selectAll().where('database_id', '=', fromId).where('row_id', 'in', chunk).execute();
    for (const key of keys) {
      const view = views.get(key.view_uid);
      const row = rows.get(key.row_id);
      if (view && row) kept.push({ database_id: toId, view_uid: view, row_id: row, sort_key: key.sort_key });
    }
  }
  for (const chunk of inChunks(kept, 200)) await trx.insertInto('database_view_order').values(chunk).execute();
}
