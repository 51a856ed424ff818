import type { Kysely } from 'kysely';
import type { Database, PageRow, UserRow } from '../db/types';
import { notFound, unauthorized } from '../errors';
import { FILE_STATUS, type FileRow } from '../repositories/files';
import { findPage } from '../repositories/pages';
import { authorizePage, isPubliclyReadable } from './page';

/**
 * May this caller read this file? Throws otherwise.
 *  - only uploaded (ready) files exist for readers: 404 before that;
 *  - public files (avatars): anyone;
 *  - page files: whoever may read the page (403 without access, 401 when anonymous), and anyone
 *    while the page is public;
 *  - other files: their owner only (404 for everyone else).
 * Answers the file's page, if it has one.
 */
export async function authorizeFileRead(db: Kysely<Database>, user: UserRow | null, file: FileRow): Promise<PageRow | null> {
  if (file.status !== FILE_STATUS.ready) throw notFound('file');
  if (file.is_public === 1 && file.page_id === null) return null;
  if (file.page_id !== null) {
    const page = await findPage(db, file.page_id);
    if (!page) throw notFound('file');
    if (isPubliclyReadable(page)) return page;
    if (!user) throw unauthorized();
    await authorizePage(db, user.id, page, 'read');
    return page;
  }
  if (!user) throw unauthorized();
  if (file.owner_id !== user.id) throw notFound('file');
  return null;
}

/** Files are added to a page by those who may edit it (403 otherwise, 404 for a missing page). */
export async function authorizePageUpload(db: Kysely<Database>, userId: string, pageId: string): Promise<PageRow> {
  const page = await findPage(db, pageId);
  if (!page) throw notFound('page');
  await authorizePage(db, userId, page, 'edit');
  return page;
}
