import type { Kysely } from 'kysely';
import type { AccessLevel } from '../../../schema/constants';
import { ERROR_CODES } from '../../../schema/errors';
import type { Database, PageRow } from '../../db/types';
import { AppError } from '../../errors';
import { assertNotSyncedContent, authorizePage } from '../../policies/page';
import { findPage } from '../../repositories/pages';
import { ROW_TEMPLATE } from '../../repositories/databases';
import { removeSubtreeForever, restoreSubtree, trashSubtree } from '../../repositories/trash';
import { changeAtPage } from './tree';
import type { WithEvents } from '../../events/events';
import { recomputeRowReaders } from '../databases/formulaJobs';

/** Moves an editable page and its subtree to the trash (a page there already stays as it is). Answers it and the caller's level. */
export async function trashPage(db: Kysely<Database>, userId: string, pageId: string): Promise<WithEvents<{ trashed: PageRow; level: AccessLevel }>> {
  const done = await changeAtPage(db, pageId, async (trx, current) => {
    const level = await authorizePage(trx, userId, current, 'edit');
    assertNoRowTemplate(current);
    assertNotSyncedContent(current);
    const trashed = current.in_trash === 1 ? current : await trashSubtree(trx, current, userId);
    // A database's row: the rollups counting it, computed again (docs/relations.md «Rollups»).
    const readers = current.in_trash === 0 && current.database_id !== null ? await recomputeRowReaders(trx, [current.id], userId) : [];
    return { level, trashed, readers };
  });
  return { ...done, events: [...done.readers, { kind: 'treeChanged', page: done.trashed }] };
}

/**
 * Takes an editable page in the trash out of it with what was trashed with it: 409
 * page.not_in_trash when it is not there, 409 page.parent_in_trash while the page above it is.
 */
export async function restorePage(db: Kysely<Database>, userId: string, pageId: string): Promise<WithEvents<{ restored: PageRow; level: AccessLevel }>> {
  const done = await changeAtPage(db, pageId, async (trx, current) => {
    const level = await authorizePage(trx, userId, current, 'edit');
    assertNoRowTemplate(current);
    assertNotSyncedContent(current);
    if (current.in_trash === 0) throw new AppError(409, ERROR_CODES.pageNotInTrash, 'the page is not in the trash');
    const parent = current.parent_id === null ? undefined : await findPage(trx, current.parent_id);
    if (parent?.in_trash === 1) {
      throw new AppError(409, ERROR_CODES.pageParentInTrash, 'the page above it is in the trash; restore that one first');
    }
    const restored = await restoreSubtree(trx, current);
    const readers = current.database_id !== null ? await recomputeRowReaders(trx, [current.id], userId) : [];
    return { level, restored, readers };
  });
  return { ...done, events: [...done.readers, { kind: 'treeChanged', page: done.restored }] };
}

/**
 * Deletes a page in the trash and everything below it for good (full access needed; 409
 * page.not_in_trash otherwise). Answers the page as it was, the ids removed and the stored files' keys, which the
 * caller removes from the file store after the commit.
 */
export async function removePageForever(
  db: Kysely<Database>,
  userId: string,
  pageId: string,
): Promise<WithEvents<{ removed: PageRow; pageIds: string[]; storageKeys: string[] }>> {
  const done = await changeAtPage(db, pageId, async (trx, current) => {
    await authorizePage(trx, userId, current, 'manage');
    assertNoRowTemplate(current);
    assertNotSyncedContent(current);
    if (current.in_trash === 0) throw new AppError(409, ERROR_CODES.pageNotInTrash, 'only a page in the trash can be deleted for good');
    return { removed: current, ...(await removeSubtreeForever(trx, current)) };
  });
  return { ...done, events: [{ kind: 'treeChanged', page: done.removed }] };
}

/** 422 database.row_template: a row template is neither put in the trash nor taken out of it as a page; its database's templates delete it. */
export function assertNoRowTemplate(page: Pick<PageRow, 'in_trash'>): void {
  if (page.in_trash === ROW_TEMPLATE) throw new AppError(422, ERROR_CODES.rowTemplate, "a row template is deleted in its database's templates");
}
