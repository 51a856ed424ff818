import type { Kysely } from 'kysely';
import type { AccessLevel } from '../../../schema/constants';
import { MAIN_FIELD_ID } from '../../../schema/blocks/database';
import type { PatchElementBody } from '../../../schema/element';
import type { Database, PageRow } from '../../db/types';
import { forbidden, invalidField, notFound } from '../../errors';
import { assertNotSyncedContent, assertWritable, authorizePage } from '../../policies/page';
import { databaseData, findDatabaseBlock, writeCellOver, type WrittenCell } from '../../repositories/databases';
import { recomputeFormulas } from '../databases/formulas';
import { recomputeRowReaders } from '../databases/formulaJobs';
import { findFile } from '../../repositories/files';
import { loadPage, publishPage, updatePageFields, type PageFieldsUpdate } from '../../repositories/pages';
import type { DomainEvent, WithEvents } from '../../events/events';

/**
 * Changes one of a page's title, icon, cover or public flag (`PATCH element/{id}`): editors,
 * sharers for the public flag; 409 page.in_trash in the trash. A cover file must be the page's
 * own or its workspace's. Publishing records who did it and when (a second publish, also a
 * simultaneous one, changes nothing). A database row's title is its MAIN_FIELD cell too: the
 * cell's version goes up with it. Answers the page before and after, and the caller's level.
 */
export async function updatePage(
  db: Kysely<Database>,
  userId: string,
  pageId: string,
  body: PatchElementBody,
): Promise<WithEvents<{ updated: PageRow; level: AccessLevel }>> {
  if (body.id !== undefined && body.id !== pageId) throw invalidField('the body id differs from the path id', 'body.id');
  const page = await loadPage(db, pageId);
  const level = await authorizePage(db, userId, page, body.isPublic === undefined ? 'edit' : 'share');
  assertNotSyncedContent(page);
  await assertWritable(db, page);
  if (body.isPublic === true) {
    const published = await publishPage(db, page.id, userId);
    if (!published) throw notFound('page');
    // Published: only the tree's marks change (the page's readers see nothing new in it).
    return { updated: published, level, events: [{ kind: 'treeChanged', page: published }] };
  }
  let fields: PageFieldsUpdate;
  if (body.title !== undefined) {
    fields = { title: body.title };
  } else if (body.icon !== undefined) {
    fields = { icon: body.icon };
  } else if (body.cover !== undefined) {
    if (body.cover?.contentType === 'FileCover') {
      const file = await findFile(db, body.cover.fileId);
      if (!file) throw notFound('file');
      const belongs = file.page_id === page.id || (file.page_id === null && file.workspace_id === page.workspace_id);
      if (!belongs) throw forbidden('this file');
    }
    fields = { cover: body.cover === null ? null : JSON.stringify(body.cover) };
  } else {
    fields = { is_public: 0, published_by: null, published_at: null };
  }
  let computed: WrittenCell[] = [];
  let readers: DomainEvent[] = [];
  const updated =
    page.database_id !== null && fields.title !== undefined
      ? await db.transaction().execute(async (trx) => {
          const changed = await updatePageFields(trx, page, fields);
          await writeCellOver(trx, page, { name: '', type: 'text' }, MAIN_FIELD_ID, changed.title, userId);
          // A row's title read by its database's formulas (docs/formulas.md).
          const database = await findDatabaseBlock(trx, page.database_id!);
          if (database) computed = await recomputeFormulas(trx, database.id, databaseData(database).config, [page.id], userId);
          // Rollups reading the row's title, in other databases too (docs/relations.md «Rollups»).
          readers = await recomputeRowReaders(trx, [page.id], userId, [MAIN_FIELD_ID, ...computed.map((cell) => cell.fieldId)]);
          return changed;
        })
      : await updatePageFields(db, page, fields);
  const events: DomainEvent[] = [
    ...(computed.length > 0
      ? [
          {
            kind: 'cellsWritten' as const,
            holderId: updated.parent_id!,
            databaseId: updated.database_id!,
            rows: new Map([[updated.id, updated]]),
            written: computed,
            changes: [],
          },
        ]
      : []),
    ...readers,
    { kind: 'treeChanged', page: updated },
    { kind: 'pageChanged', page: updated, at: updated.updated_at },
  ];
  return { updated, level, events };
}
