import type { Kysely } from 'kysely';
import type { ExportFormat } from '../../../schema/exportJob';
import { canCreateInSection, canDoInWorkspace } from '../../../schema/policies/workspace';
import type { Database, PageRow } from '../../db/types';
import { forbidden } from '../../errors';
import { insertExportJob, newExportJob, type ExportJobRow } from '../../export/exportJobs';
import { fileName } from '../../export/pageExport';
import { importExport, planImportFiles, removeImportFiles, storeImportFiles, type ImportReport } from '../../export/jsonImport';
import { storableValue } from '../../../schema/text';
import { assertWithinQuota } from '../../policies/file';
import type { FileStore } from '../../files/store';
import { assertNotInTrash, assertNotSyncedContent, authorizePage } from '../../policies/page';
import type { WithEvents } from '../../events/events';
import { findPage, loadPage } from '../../repositories/pages';
import { findMembership, listUserWorkspaces } from '../../repositories/workspaces';
import { treeChange } from '../pages/tree';

/**
 * Queues an export (docs/import-export.md «Export jobs»): of a page the caller may read (with its
 * subpages unless `subpages` is false; 409 page.in_trash in the trash), or of a whole workspace
 * they may export (admins and participants). Answers the job as queued.
 */
export async function startExport(
  db: Kysely<Database>,
  userId: string,
  what: { pageId?: string; workspaceId?: string; format: ExportFormat; subpages?: boolean; comments?: boolean },
): Promise<ExportJobRow> {
  let values: Pick<ExportJobRow, 'workspace_id' | 'root_id' | 'title' | 'subpages'>;
  if (what.pageId) {
    const page = await loadPage(db, what.pageId);
    await authorizePage(db, userId, page, 'read');
    assertNotInTrash(page);
    values = { workspace_id: page.workspace_id, root_id: page.id, title: fileName(page.title, 'Без названия'), subpages: what.subpages === false ? 0 : 1 };
  } else {
    const workspace = what.workspaceId ? await findMembership(db, what.workspaceId, userId) : undefined;
    if (!workspace || !canDoInWorkspace(workspace.role, 'export')) throw forbidden('exporting this workspace');
    values = { workspace_id: workspace.id, root_id: null, title: fileName(workspace.name, 'Рабочее пространство'), subpages: 1 };
  }
  const job = newExportJob({ user_id: userId, format: what.format, comments: what.comments ? 1 : 0, ...values });
  await insertExportJob(db, job);
  return job;
}

/** Where an import goes: under a page, or into a section of a workspace. */
export type ImportPlace = { workspaceId: string; parent: PageRow; section: null } | { workspaceId: string; parent: null; section: 'private' | 'all' };

/**
 * Where an import may go (checked before the file is read: reading HTML takes a DOM and time, a
 * Notion export's zips are unpacked): under a page the caller may edit (409 page.in_trash in the
 * trash), or into a section of `workspaceId` (else their first workspace) where they may create
 * pages (403 otherwise).
 */
export async function importPlace(
  db: Kysely<Database>,
  userId: string,
  to: { parentId: string | null; section: 'private' | 'all' | null; workspaceId?: string },
): Promise<ImportPlace> {
  if (to.parentId) {
    const parent = await loadPage(db, to.parentId);
    await authorizePage(db, userId, parent, 'edit');
    assertNotInTrash(parent);
    assertNotSyncedContent(parent);
    return { workspaceId: parent.workspace_id, parent, section: null };
  }
  const workspace = to.workspaceId ? await findMembership(db, to.workspaceId, userId) : (await listUserWorkspaces(db, userId))[0];
  if (!workspace) throw forbidden('this workspace');
  const section = to.section ?? 'private';
  if (!canCreateInSection(workspace.role, section, workspace.is_private === 1)) throw forbidden('creating pages in this section');
  return { workspaceId: workspace.id, parent: null, section };
}

/**
 * Makes what was read of an import at its place, under the workspace's tree lock, where the
 * place is judged again: the page under which it goes must still be there (404), editable and out
 * of the trash (409); the caller must still be allowed in the section. Answers the report with
 * the first page made (`root`), which the tree lists.
 */
export async function importAt(
  db: Kysely<Database>,
  userId: string,
  place: ImportPlace,
  read: { document: Parameters<typeof importExport>[1]['document']; files: Map<string, Uint8Array> },
  options: { store: FileStore; quotaBytes?: number },
): Promise<WithEvents<ImportReport & { root: PageRow | undefined }>> {
  // Text from a file may hold what cannot be stored (NUL, a lone surrogate): made storable once, here, not refused (schema/text.ts).
  const document = storableValue(read.document);
  const files = planImportFiles(document, read.files);
  // Asked once before the files are written (a refused import writes nothing), and again under the lock.
  await assertWithinQuota(db, options.quotaBytes ?? 0, place.workspaceId, files.bytes);
  let report: ImportReport;
  try {
    // Written before the transaction: a big file's seconds of writing hold no lock (on SQLite, not the one connection).
    await storeImportFiles(files, options.store);
    report = await treeChange(db, place.workspaceId, async (trx) => {
      let parent: PageRow | null = null;
      if (place.parent) {
        parent = await loadPage(trx, place.parent.id);
        await authorizePage(trx, userId, parent, 'edit');
        assertNotInTrash(parent);
      } else {
        const workspace = await findMembership(trx, place.workspaceId, userId);
        if (!workspace || !canCreateInSection(workspace.role, place.section, workspace.is_private === 1)) throw forbidden('creating pages in this section');
      }
      return importExport(trx, { document, files, workspaceId: place.workspaceId, parent, section: place.section, userId, quotaBytes: options.quotaBytes });
    });
  } catch (error) {
    await removeImportFiles(files, options.store);
    throw error;
  }
  const root = report.pages[0] ? await findPage(db, report.pages[0].id) : undefined;
  return { ...report, root, events: root ? [{ kind: 'treeChanged', page: root }] : [] };
}
