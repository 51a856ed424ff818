import type { Kysely } from 'kysely';
import { generateKeyBetween } from 'fractional-indexing';
import type { AccessLevel } from '../../../schema/constants';
import { newDatabaseData } from '../../../schema/database';
import { holdsDatabase, type CreatePageBody } from '../../../schema/element';
import { newId } from '../../../schema/ids';
import { SYNCED_CONTENT, type Database, type PageRow } from '../../db/types';
import { forbidden, isUniqueViolation } from '../../errors';
import { assertNotSyncedContent, assertWritable, authorizePage } from '../../policies/page';
import { canCreateInSection } from '../../../schema/policies/workspace';
import { insertBlock } from '../../repositories/blocks';
import { findPage, insertPage, loadPage } from '../../repositories/pages';
import type { WorkspaceWithRole } from '../../repositories/workspaces';
import { syncedRefused } from '../../repositories/syncedContent';
import { pageExists, treeChange } from './tree';
import { assertNoRowTemplate } from './trash';
import type { WithEvents } from '../../events/events';

/** What a new page is made with (the create body's fields). */
export type NewPageFields = Pick<CreatePageBody, 'type'> & Partial<Pick<CreatePageBody, 'id' | 'title' | 'defaultLayoutId'>>;

/**
 * Where a new page goes: at the end of a section of a workspace the caller is in, or of a page's
 * children — or, `synced`, as the content of a synced block made on that page (docs/api/blocks.md
 * «Synced blocks»).
 */
export type NewPagePlace = { workspace: WorkspaceWithRole; section: 'private' | 'all' } | { parentId: string; synced?: true };

/**
 * Creates a page at the end of a section or of a page's children. In a section the caller's
 * role must allow it; under a page the parent must be editable and not in the trash as it is
 * inside the tree lock. A taken id (also when a parallel request wins) is 409 page.already_exists. A
 * database page (and a data page) is made with its database block. Synced content is no child of
 * the tree: made under a page that is neither synced content itself (422 block.synced_nested) nor a
 * row template (422 database.row_template), hidden from the tree (no event). Nothing is made under
 * synced content (422 page.synced_content). Answers the page and the caller's level on it.
 */
export async function createPage(
  db: Kysely<Database>,
  userId: string,
  body: NewPageFields,
  place: NewPagePlace,
): Promise<WithEvents<{ page: PageRow; level: AccessLevel }>> {
  const section = 'section' in place ? place.section : null;
  const parentId = 'parentId' in place ? place.parentId : null;
  const synced = 'synced' in place && place.synced === true;
  if ('workspace' in place && !canCreateInSection(place.workspace.role, place.section, place.workspace.is_private === 1))
    throw forbidden('creating pages in this section');
  const id = body.id ?? newId();
  const workspaceId = 'workspace' in place ? place.workspace.id : (await loadPage(db, place.parentId)).workspace_id;
  const done = await treeChange(db, workspaceId, async (trx) => {
    let parent: PageRow | null = null;
    let level: AccessLevel = 'full';
    if (parentId !== null) {
      parent = await loadPage(trx, parentId);
      level = await authorizePage(trx, userId, parent, 'edit');
      await assertWritable(trx, parent);
      if (synced) {
        if (parent.in_trash === SYNCED_CONTENT) throw syncedRefused('nested');
        assertNoRowTemplate(parent);
      } else assertNotSyncedContent(parent);
    }
    if (await findPage(trx, id)) throw pageExists();
    const page = await insertPage(trx, {
      id,
      workspaceId,
      parent,
      section,
      type: body.type,
      title: body.title ?? '',
      defaultLayoutId: body.defaultLayoutId ?? null,
      createdBy: userId,
      grantCreatorFull: parent === null,
      syncedContent: synced,
    });
    // A database page (and a data page) holds its database: one block, made with the page.
    if (holdsDatabase(body.type)) {
      await insertBlock(trx, {
        id: newId(),
        pageId: page.id,
        parentId: null,
        sortKey: generateKeyBetween(null, null),
        type: 'database',
        data: newDatabaseData(body.defaultLayoutId ?? newId()),
        userId,
      });
    }
    return { page, level };
  }).catch((error: unknown) => {
    throw isUniqueViolation(error) ? pageExists() : error;
  });
  // Synced content is in no list of pages: nobody's tree hears of it.
  return { ...done, events: synced ? [] : [{ kind: 'treeChanged', page: done.page }] };
}
