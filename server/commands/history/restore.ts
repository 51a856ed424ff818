import type { Kysely } from 'kysely';
import type { BlockData, WireBlock } from '../../../schema/block';
import type { BlockWireType } from '../../../schema/blocks';
import type { Database, PageRow } from '../../db/types';
import { blocksAt, findVersion, recordVersion } from '../../history/versions';
import { assertWritable, authorizePage } from '../../policies/page';
import type { DomainEvent } from '../../events/events';
import { deleteBlockRow, findBlocks, insertBlock, listAllPageBlockRows, presentBlock, rewriteBlock } from '../../repositories/blocks';
import { loadPage, updatePageFields } from '../../repositories/pages';
import { nowIso } from '../../time';
import { blockChange } from '../blocks/blockChange';

/** What a restore did: the blocks it changed, brought back and deleted, the page's title, and the versions it recorded. */
export interface Restored {
  page: PageRow;
  at: string;
  edited: string[];
  added: string[];
  removed: Array<{ id: string; version: number }>;
  /** The page's title, when the restore changed it (null: unchanged). */
  retitled: string | null;
  /** The version of the page as it was before, when it had changed since its last one. */
  before: number | null;
  restored: number;
  /** Everyone who has the page open sees it come back (after the commit). */
  events: DomainEvent[];
}

/**
 * Brings a page back to a version (docs/history.md, editors; 409 page.in_trash in the trash, read
 * again under the page's block lock): the page as it is now is recorded first if it changed since
 * its last version (so the restore can be undone), every block is put back as the version had it
 * — changed, deleted, or made again with its id if deleted for good since; a database keeps its
 * fields and views (its rows are pages with their own history) —, the title too (not a database
 * row's: its title is its first cell), and the restore is recorded as a version of its own.
 * `whileLocked` is called inside the transaction, under the lock (the announcements' turn).
 */
export async function restoreVersion(
  db: Kysely<Database>,
  userId: string,
  pageId: string,
  versionId: number,
  whileLocked: () => void = () => undefined,
): Promise<Restored> {
  const page = await loadPage(db, pageId);
  await authorizePage(db, userId, page, 'edit');
  await assertWritable(db, page);
  await findVersion(db, page.id, versionId);
  const at = nowIso();
  const result = await blockChange(db, page.id, async (trx, current): Promise<Omit<Restored, 'events'>> => {
    whileLocked();
    // Read again under the lock: the historian's retention (same lock) may have forgotten it since.
    const version = await findVersion(trx, page.id, versionId);
    const target = new Map((await blocksAt(trx, page.id, versionId)).map((b) => [b.id, b]));
    const before = await recordVersion(trx, page.id, { kind: 'edit' });
    const rows = await listAllPageBlockRows(trx, page.id);
    const edited: string[] = [];
    const added: string[] = [];
    const removed: Array<{ id: string; version: number }> = [];
    for (const row of rows) {
      const want = target.get(row.id);
      target.delete(row.id);
      if (row.type === 'database') continue;
      if (!want) {
        if (row.deleted_at === null) {
          await deleteBlockRow(trx, row.id, at, userId);
          removed.push({ id: row.id, version: row.version });
        }
        continue;
      }
      const same =
        row.deleted_at === null &&
        row.type === want.type &&
        JSON.stringify(JSON.parse(row.data)) === JSON.stringify(want.data) &&
        row.parent_id === want.parentId &&
        row.sort_key === want.sortKey;
      if (same) continue;
      await rewriteBlock(trx, row, want, at, userId);
      (row.deleted_at === null ? edited : added).push(row.id);
    }
    // Blocks deleted for good since: made again with their ids.
    for (const want of target.values()) {
      if (want.type === 'database') continue;
      const { id, parentId, sortKey } = want;
      await insertBlock(trx, { id, pageId: page.id, parentId, sortKey, type: want.type as BlockWireType, data: want.data as BlockData, userId }, at);
      added.push(want.id);
    }
    // The page as read under the lock: a rename meanwhile is judged, and its icon and cover are told as they are.
    const retitled = version.title !== current.title && current.database_id === null ? version.title : null;
    if (retitled !== null) await updatePageFields(trx, current, { title: retitled, updated_by: userId });
    const restored = await recordVersion(trx, page.id, { kind: 'restore', restoredFrom: versionId, authors: [userId] });
    return { page: current, at, edited, added, removed, retitled, before, restored: restored! };
  });
  const present = async (ids: string[]): Promise<WireBlock[]> =>
    ids.length === 0 ? [] : Promise.all((await findBlocks(db, ids)).map((row) => presentBlock(db, row)));
  const events: DomainEvent[] = (await present(result.edited)).map((block) => ({ kind: 'blockChanged', block, at }));
  const added = await present(result.added);
  if (added.length > 0) events.push({ kind: 'blocksAdded', pageId: page.id, blocks: added, at });
  if (result.removed.length > 0) events.push({ kind: 'blocksRemoved', pageId: page.id, removed: result.removed, at });
  if (result.retitled !== null) events.push({ kind: 'pageChanged', page: { ...result.page, title: result.retitled }, at });
  return { ...result, events };
}
