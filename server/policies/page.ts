import type { Kysely, Transaction } from 'kysely';
import { type AccessLevel, type WorkspaceRole } from '../../schema/constants';
import { allows, roleDefault, type PageAction } from '../../schema/policies/page';
import { ROW_TEMPLATE, SYNCED_CONTENT, type Database, type PageRow } from '../db/types';
import { AppError, forbidden, notFound } from '../errors';
import { ERROR_CODES } from '../../schema/errors';
import { grantsOfUser } from '../repositories/pageMembers';
import { findPageForWrite, pagePath, sectionsOf } from '../repositories/pages';
import { rolesOfUser } from '../repositories/workspaces';

/**
 * The access level a user has on each of the pages, in a fixed number of queries whatever the
 * number of pages (listings must not ask once per page):
 *  - only members of the page's workspace ever get anything;
 *  - an explicit grant (page_members) on the page or its nearest ancestor wins, so access is
 *    inherited down the tree unless a page sets its own;
 *  - otherwise pages under a root of the shared "all" section give admins full and participants
 *    edit; guests get nothing there without a grant;
 *  - otherwise none.
 */
export async function pageAccessLevels(
  db: Kysely<Database>,
  userId: string,
  pages: readonly PageRow[],
  /** The user's roles in the pages' workspaces when the caller has them already (a workspace missing: not a member). */
  knownRoles?: ReadonlyMap<string, WorkspaceRole>,
  /** The user's grants on the pages and their ancestors when the caller read them already (`grantsOfUser` of `accessChainIds`). */
  knownGrants?: ReadonlyMap<string, AccessLevel>,
): Promise<Map<string, AccessLevel>> {
  const levels = new Map<string, AccessLevel>();
  if (pages.length === 0) return levels;

  const roles = new Map<string, WorkspaceRole>(knownRoles);
  const workspaceIds = knownRoles ? [] : [...new Set(pages.map((p) => p.workspace_id))];
  for (const [workspaceId, role] of await rolesOfUser(db, userId, workspaceIds)) roles.set(workspaceId, role);

  const memberPages = pages.filter((p) => roles.has(p.workspace_id));
  const chains = new Map(memberPages.map((p) => [p.id, [p.id, ...pagePath(p).reverse()]]));
  const grants = knownGrants ?? (await grantsOfUser(db, userId, accessChainIds(memberPages)));

  // The section of each tree's root decides the role-based default.
  const known = new Map(pages.map((p) => [p.id, p]));
  const rootIds = [...new Set(memberPages.map((p) => pagePath(p)[0]).filter((id): id is string => id !== undefined && !known.has(id)))];
  const rootSections = await sectionsOf(db, rootIds);
  const rootSectionOf = (page: PageRow): string | null => {
    const rootId = pagePath(page)[0];
    if (rootId === undefined) return page.section;
    return known.get(rootId)?.section ?? rootSections.get(rootId) ?? null;
  };

  for (const page of pages) {
    const role = roles.get(page.workspace_id);
    if (!role) {
      levels.set(page.id, 'none');
      continue;
    }
    const grantedOn = (chains.get(page.id) ?? []).find((id) => grants.has(id));
    if (grantedOn !== undefined) {
      levels.set(page.id, grants.get(grantedOn) as AccessLevel);
      continue;
    }
    levels.set(page.id, roleDefault(role, rootSectionOf(page)));
  }
  return levels;
}

/** The pages whose grants decide the access to these: each page and its ancestors. */
export function accessChainIds(pages: readonly PageRow[]): string[] {
  return [...new Set(pages.flatMap((p) => [p.id, ...pagePath(p)]))];
}

/** The access level a user has on one page (see pageAccessLevels). */
export async function pageAccessLevel(db: Kysely<Database>, userId: string, page: PageRow): Promise<AccessLevel> {
  return (await pageAccessLevels(db, userId, [page])).get(page.id) ?? 'none';
}

/** Throws 403 unless the user may do the action on the page; returns their level. */
export async function authorizePage(db: Kysely<Database>, userId: string, page: PageRow, action: PageAction): Promise<AccessLevel> {
  const level = await pageAccessLevel(db, userId, page);
  if (!allows(level, action)) throw forbidden('this page');
  return level;
}

/** Anyone, signed in or not, may read a page while it is public and not in the trash. */
export function isPubliclyReadable(page: PageRow): boolean {
  return page.is_public === 1 && page.in_trash === 0;
}

/**
 * `isPubliclyReadable`, and a synced block's content (docs/api/blocks.md «Synced blocks») read
 * as its holder is: public while the page it was made on is public and not in the trash, as its
 * access follows that page's otherwise (its published instances elsewhere show nothing).
 */
export async function isPubliclyReadableHeld(db: Kysely<Database>, page: PageRow): Promise<boolean> {
  if (page.in_trash !== SYNCED_CONTENT) return isPubliclyReadable(page);
  const holder = page.parent_id === null ? undefined : await db.selectFrom('pages').selectAll().where('id', '=', page.parent_id).executeTakeFirst();
  return holder !== undefined && isPubliclyReadable(holder);
}

/** 409 page.in_trash: a page in the trash can be read, not changed. */
export const pageInTrash = () => new AppError(409, ERROR_CODES.pageInTrash, 'the page is in the trash; restore it first');

/**
 * The one check every write into a page makes (its blocks, comments, files, fields, children):
 * a page in the trash answers 409 page.in_trash. Reads keep working.
 */
export function assertNotInTrash(page: Pick<PageRow, 'in_trash'>): void {
  if (page.in_trash === 1) throw pageInTrash();
}

/**
 * A page re-read inside the transaction that writes into it (after that transaction's lock): 404
 * when it is gone, 409 page.in_trash when it is in the trash (`assertWritable`); key-share locked on PostgreSQL
 * (`findPageForWrite`).
 */
export async function writablePage(trx: Transaction<Database>, id: string): Promise<PageRow> {
  const page = await findPageForWrite(trx, id);
  if (!page) throw notFound('page');
  await assertWritable(trx, page);
  return page;
}

/**
 * 409 page.in_trash: a page in the trash, a row template whose database's page is there or whose
 * database is deleted — a template stays a template when they go (its rows go to the trash with
 * them), and is not written meanwhile, as the rows are not —, or a synced block's content whose
 * holder is there (it stays synced content, and comes back with the holder).
 */
export async function assertWritable(db: Kysely<Database>, page: Pick<PageRow, 'in_trash' | 'parent_id' | 'database_id'>): Promise<void> {
  assertNotInTrash(page);
  if (!(await isWritable(db, page))) throw pageInTrash();
}

/** Whether a page takes writes (`assertWritable` without the error): not in the trash, nor held by a page or database that is. */
export async function isWritable(db: Kysely<Database>, page: Pick<PageRow, 'in_trash' | 'parent_id' | 'database_id'>): Promise<boolean> {
  if (page.in_trash === 1) return false;
  if (page.in_trash !== ROW_TEMPLATE && page.in_trash !== SYNCED_CONTENT) return true;
  if (page.in_trash === ROW_TEMPLATE) {
    // Its database deleted (the block: its rows went to the trash with it).
    const database =
      page.database_id === null ? undefined : await db.selectFrom('blocks').select('deleted_at').where('id', '=', page.database_id).executeTakeFirst();
    if (!database || database.deleted_at !== null) return false;
  }
  // Its holder (the database's page, the synced block's page) in the trash.
  const holder = page.parent_id === null ? undefined : await db.selectFrom('pages').select('in_trash').where('id', '=', page.parent_id).executeTakeFirst();
  return holder?.in_trash !== 1;
}

/**
 * 422 page.synced_content: a synced block's content (docs/api/blocks.md «Synced blocks») is read
 * as a page and written through its blocks; nothing else of a page is done to it — renamed,
 * published, moved, reordered, put in the trash or taken out, deleted, shared, copied, given
 * children or made a favourite. It lives and goes with its holder.
 */
export function assertNotSyncedContent(page: Pick<PageRow, 'in_trash'>): void {
  if (page.in_trash === SYNCED_CONTENT)
    throw new AppError(422, ERROR_CODES.pageSyncedContent, "a synced block's content is changed through its blocks, and goes with the page it was made on");
}
