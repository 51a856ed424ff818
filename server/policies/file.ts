import type { Kysely } from 'kysely';
import { SYNCED_CONTENT, type Database, type PageRow, type UserRow } from '../db/types';
import { AppError, notFound, unauthorized } from '../errors';
import { ERROR_CODES } from '../../schema/errors';
import { FILE_STATUS, workspaceStoredBytes, type FileRow } from '../repositories/files';
import { listBlocksMentioning } from '../repositories/blocks';
import { findPage, loadPage } from '../repositories/pages';
import { authorizePage, isPubliclyReadableHeld } from './page';

/**
 * May this caller read this file? Throws otherwise.
 *  - only uploaded (ready) files exist for readers: 404 before that;
 *  - public files (avatars): anyone;
 *  - page files: whoever may read the page (403 without access, 401 when anonymous); while the
 *    page is public, anyone may read the files the page shows (a live block's picture or
 *    attachment, its cover) — not the others (a comment's, a deleted block's): 404 for those;
 *  - other files: their owner only (404 for everyone else).
 * Answers the file's page, if it has one.
 */
export async function authorizeFileRead(db: Kysely<Database>, user: UserRow | null, file: FileRow): Promise<PageRow | null> {
  if (file.status !== FILE_STATUS.ready) throw notFound('file');
  if (file.is_public === 1 && file.page_id === null) return null;
  if (file.page_id !== null) {
    const page = await findPage(db, file.page_id);
    if (!page) throw notFound('file');
    if (await isPubliclyReadableHeld(db, page)) {
      if (await pageShowsFile(db, page, file.id)) return page;
      // Comments and the rest are not public: a visitor learns nothing of these files.
      if (!user) throw notFound('file');
      await authorizePage(db, user.id, page, 'read').catch((error: unknown) => {
        throw error instanceof AppError ? notFound('file') : error;
      });
      return page;
    }
    if (!user) throw unauthorized();
    await authorizePage(db, user.id, page, 'read');
    return page;
  }
  if (!user) throw unauthorized();
  if (file.owner_id !== user.id) throw notFound('file');
  return null;
}

/** Whether the page shows this file to its readers: its cover, or a live block's picture or attachment (`remoteData.fileId`). */
async function pageShowsFile(db: Kysely<Database>, page: PageRow, fileId: string): Promise<boolean> {
  if (page.cover !== null && (JSON.parse(page.cover) as { fileId?: unknown }).fileId === fileId) return true;
  // Only the candidates are parsed. A picture moved into a synced block made on the page keeps
  // the page's file: the page shows it through that block's content (a hidden child of it).
  const contents = await db.selectFrom('pages').select('id').where('parent_id', '=', page.id).where('in_trash', '=', SYNCED_CONTENT).execute();
  for (const pageId of [page.id, ...contents.map((c) => c.id)]) {
    const blocks = await listBlocksMentioning(db, pageId, fileId);
    if (blocks.some((b) => (JSON.parse(b.data) as { remoteData?: { fileId?: unknown } | null }).remoteData?.fileId === fileId)) return true;
  }
  return false;
}

/** Files are added to a page by those who may edit it (403 otherwise, 404 for a missing page). */
export async function authorizePageUpload(db: Kysely<Database>, userId: string, pageId: string): Promise<PageRow> {
  const page = await loadPage(db, pageId);
  await authorizePage(db, userId, page, 'edit');
  return page;
}

/**
 * The workspace's storage quota (STORAGE_QUOTA_MB; 0: none) holds `adding` more bytes beside what
 * its files take or have reserved (an upload's own reservation counts: check after making it).
 * 413 `file.quota_exceeded` otherwise.
 */
export async function assertWithinQuota(db: Kysely<Database>, quotaBytes: number, workspaceId: string, adding = 0): Promise<void> {
  if (quotaBytes <= 0) return;
  const used = await workspaceStoredBytes(db, workspaceId);
  if (used + adding > quotaBytes) {
    throw new AppError(
      413,
      ERROR_CODES.quotaExceeded,
      `the workspace's storage is full: ${used} of ${quotaBytes} bytes taken, ${adding > 0 ? adding : 'this upload'} would not fit`,
    );
  }
}
