import type { Kysely, Transaction } from 'kysely';
import { ERROR_CODES } from '../../../schema/errors';
import { lockTree } from '../../db/locks';
import type { Database, PageRow } from '../../db/types';
import { AppError, invalidField } from '../../errors';
import { allows } from '../../../schema/policies/page';
import { pageAccessLevel } from '../../policies/page';
import { loadPage } from '../../repositories/pages';

/**
 * Runs a change of a workspace's page tree (create, move, clone into, reorder, trash, restore,
 * delete forever) in one transaction that holds the workspace's tree lock. Whatever the change
 * checks (the pages, their place, the trash state, a cycle, the caller's access, which follows
 * the place) is read again inside it: see docs/adr/0003-concurrency.md.
 */
export function treeChange<T>(db: Kysely<Database>, workspaceId: string, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lockTree(trx, workspaceId);
    return work(trx);
  });
}

/**
 * A tree change about one page: its workspace's tree is locked and the page is read again
 * inside (404 when there is none, before or after the lock).
 */
export async function changeAtPage<T>(db: Kysely<Database>, pageId: string, work: (trx: Transaction<Database>, page: PageRow) => Promise<T>): Promise<T> {
  const page = await loadPage(db, pageId);
  return treeChange(db, page.workspace_id, async (trx) => work(trx, await loadPage(trx, pageId)));
}

export const pageExists = () => new AppError(409, ERROR_CODES.pageExists, 'a page with this id exists');

/** `placeAfter` must be a live sibling the caller can see (not in the trash, nor hidden synced content); null means first. */
export async function siblingToPlaceAfter(
  trx: Transaction<Database>,
  userId: string,
  siblings: readonly PageRow[],
  placeAfter: string | null,
): Promise<PageRow | null> {
  if (placeAfter === null) return null;
  const after = siblings.find((s) => s.id === placeAfter);
  if (!after || after.in_trash !== 0 || !allows(await pageAccessLevel(trx, userId, after), 'read')) {
    throw invalidField('placeAfter is not a page at the destination', 'body.placeAfter');
  }
  return after;
}
