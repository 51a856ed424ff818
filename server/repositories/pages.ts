import crypto from 'node:crypto';
import { generateKeyBetween } from 'fractional-indexing';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { PageType, SectionId } from '../../schema/constants';
import { ERROR_CODES } from '../../schema/errors';
import { newId } from '../../schema/ids';
import { isPostgres } from '../db/connect';
import type { BlockRow, Database, PageRow } from '../db/types';
import { AppError, notFound } from '../errors';
import { nowAfter, nowIso, timeAfter } from '../time';
import { bumpRowsOfPages } from './databaseRevisions';
import { syncDatabaseLayouts, withFreshLayoutUids } from './databaseLayouts';

/** Ids per `IN (…)` list: far below SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK_SIZE = 500;

/** A new page (created or cloned) is unpublished and not in the trash, whatever it was copied from. */
export const FRESH_PAGE_STATE = {
  alias: null,
  published_by: null,
  published_at: null,
  trashed_at: null,
  trashed_by: null,
  database_id: null,
  updated_by: null,
} as const;

/** Splits a list into pieces small enough for one `IN (…)`. */
export function inChunks<T>(items: readonly T[], size = CHUNK_SIZE): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

export function findPage(db: Kysely<Database>, id: string): Promise<PageRow | undefined> {
  return db.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirst();
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
 * A page re-read inside the transaction that writes into it (after that transaction's lock):
 * 404 when it is gone, 409 page.in_trash when it is in the trash. On PostgreSQL the row is
 * key-share locked until the transaction ends, so a delete-forever waits for this write instead
 * of pulling the page away under it (which would break the foreign key of what is written).
 */
export async function writablePage(trx: Transaction<Database>, id: string): Promise<PageRow> {
  const query = trx.selectFrom('pages').selectAll().where('id', '=', id);
  const page = await (isPostgres(trx) ? query.forKeyShare() : query).executeTakeFirst();
  if (!page) throw notFound('page');
  assertNotInTrash(page);
  return page;
}

/** A page by its id, else by its public alias. */
export async function findPageByIdOrAlias(db: Kysely<Database>, idOrAlias: string): Promise<PageRow | undefined> {
  return (
    (await findPage(db, idOrAlias)) ??
    (await db.selectFrom('pages').selectAll().where('alias', '=', idOrAlias).executeTakeFirst())
  );
}

export async function findPages(db: Kysely<Database>, ids: readonly string[]): Promise<PageRow[]> {
  const out: PageRow[] = [];
  for (const chunk of inChunks([...new Set(ids)])) {
    out.push(...(await db.selectFrom('pages').selectAll().where('id', 'in', chunk).execute()));
  }
  return out;
}

/** Ancestor ids of a page, root first. */
export function pagePath(page: PageRow): string[] {
  return JSON.parse(page.path) as string[];
}

/** The path a child of `parent` gets (null parent: a section root). */
export function childPath(parent: PageRow | null): string[] {
  return parent ? [...pagePath(parent), parent.id] : [];
}

/**
 * Sibling order: sort key, then id, compared as JavaScript compares strings (code units), which
 * for these ASCII keys is byte order. Sorting here rather than in SQL keeps ties identical on
 * PostgreSQL, whose id column may carry a linguistic collation.
 */
export function compareSiblings(a: PageRow, b: PageRow): number {
  if (a.sort_key !== b.sort_key) return a.sort_key < b.sort_key ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Root pages of a section in a workspace, in sidebar order, not in trash (private: the user's own). */
export async function listSectionRoots(
  db: Kysely<Database>,
  workspaceId: string,
  section: Extract<SectionId, 'private' | 'all'>,
  userId: string,
): Promise<PageRow[]> {
  let query = db
    .selectFrom('pages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('parent_id', 'is', null)
    .where('section', '=', section)
    .where('in_trash', '=', 0);
  if (section === 'private') query = query.where('created_by', '=', userId);
  return (await query.execute()).sort(compareSiblings);
}

/** Children of a page in order, not in trash. */
export async function listChildren(db: Kysely<Database>, parentId: string): Promise<PageRow[]> {
  // Rows of a database on the page are pages too, but never its children (database_id is set).
  const rows = await db.selectFrom('pages').selectAll().where('parent_id', '=', parentId).where('database_id', 'is', null).where('in_trash', '=', 0).execute();
  return rows.sort(compareSiblings);
}

/** Where a page sits: under a parent, or a root of a section of a workspace. */
export type PagePlace = { parent: PageRow } | { workspaceId: string; section: Extract<SectionId, 'private' | 'all'> };

/** Every page at a place (trash included: trashed pages keep their spot for a restore), in order. */
export async function listPagesAt(db: Kysely<Database>, place: PagePlace): Promise<PageRow[]> {
  const rows =
    'parent' in place
      ? await db.selectFrom('pages').selectAll().where('parent_id', '=', place.parent.id).where('database_id', 'is', null).execute()
      : await db
          .selectFrom('pages')
          .selectAll()
          .where('workspace_id', '=', place.workspaceId)
          .where('parent_id', 'is', null)
          .where('section', '=', place.section)
          .execute();
  return rows.sort(compareSiblings);
}

/**
 * A sort key for a page put right after `after` (null: first) among ordered `siblings` (which do
 * not include the page itself). Siblings that share `after`'s key (concurrent inserts) are passed
 * over, so the key always lies strictly between two existing keys.
 */
export function sortKeyAfter(siblings: readonly PageRow[], after: PageRow | null): string {
  if (after === null) return generateKeyBetween(null, siblings[0]?.sort_key ?? null);
  const low = after.sort_key;
  const next = siblings.find((s) => s.sort_key > low);
  return generateKeyBetween(low, next?.sort_key ?? null);
}

/** A sort key after every sibling. */
export function sortKeyAtEnd(siblings: readonly PageRow[]): string {
  return generateKeyBetween(siblings[siblings.length - 1]?.sort_key ?? null, null);
}

/** All pages below a page (any depth, trash included). */
export async function listDescendants(db: Kysely<Database>, page: PageRow): Promise<PageRow[]> {
  // The path holds quoted ids, so the LIKE narrows it down; the exact check is done on the parsed path.
  const rows = await db
    .selectFrom('pages')
    .selectAll()
    .where('workspace_id', '=', page.workspace_id)
    .where('path', 'like', `%"${page.id}"%`)
    .execute();
  return rows.filter((row) => row.id !== page.id && pagePath(row).includes(page.id));
}

export interface NewPageInput {
  id: string;
  workspaceId: string;
  /** Null for a section root. */
  parent: PageRow | null;
  /** The section of a root page. */
  section: Extract<SectionId, 'private' | 'all'> | null;
  type?: PageType;
  title: string;
  defaultLayoutId?: string | null;
  createdBy: string;
  /** Give the creator an explicit full grant (section roots; pages below inherit instead). */
  grantCreatorFull: boolean;
}

/**
 * A new page at the end of its parent's children or of its section. Call in a transaction that
 * holds the tree lock, with `parent` read after taking it.
 */
export async function insertPage(trx: Transaction<Database>, input: NewPageInput): Promise<PageRow> {
  const place: PagePlace = input.parent
    ? { parent: input.parent }
    : { workspaceId: input.workspaceId, section: input.section ?? 'private' };
  const siblings = await listPagesAt(trx, place);
  const now = nowIso();
  const page: PageRow = {
    id: input.id,
    workspace_id: input.workspaceId,
    parent_id: input.parent?.id ?? null,
    section: input.parent ? null : (input.section ?? 'private'),
    path: JSON.stringify(childPath(input.parent)),
    type: input.type ?? 'Note',
    title: input.title,
    icon: null,
    cover: null,
    is_public: 0,
    in_trash: 0,
    default_layout_id: input.defaultLayoutId ?? null,
    sort_key: sortKeyAtEnd(siblings),
    created_by: input.createdBy,
    created_at: now,
    updated_at: now,
    ...FRESH_PAGE_STATE,
  };
  await trx.insertInto('pages').values(page).execute();
  if (input.grantCreatorFull) {
    await trx
      .insertInto('page_members')
      .values({ page_id: page.id, user_id: input.createdBy, level: 'full', created_at: now })
      .execute();
  }
  return page;
}

export type PageFieldsUpdate = Partial<Pick<PageRow, 'title' | 'icon' | 'cover' | 'is_public' | 'published_by' | 'published_at' | 'alias'>>;

/** Changes some fields of a page and its updated_at; returns the page as stored. */
export async function updatePageFields(db: Kysely<Database>, page: PageRow, fields: PageFieldsUpdate): Promise<PageRow> {
  const updated_at = nowIso();
  await db.updateTable('pages').set({ ...fields, updated_at }).where('id', '=', page.id).execute();
  return { ...page, ...fields, updated_at };
}

/**
 * Publishes a page: who and when, and an alias unless it has one already. Only the first of
 * simultaneous publishes changes anything (the update waits for is_public = 0, and coalesce keeps
 * an alias once given), so an alias handed out is never overwritten. Returns the page as stored.
 */
export async function publishPage(db: Kysely<Database>, pageId: string, userId: string): Promise<PageRow | undefined> {
  const now = nowIso();
  await db
    .updateTable('pages')
    .set({ is_public: 1, published_by: userId, published_at: now, updated_at: now, alias: sql<string>`coalesce(alias, ${newAlias()})` })
    .where('id', '=', pageId)
    .where('is_public', '=', 0)
    .execute();
  return findPage(db, pageId);
}

/** A short random alias for public links (lowercase letters and digits). */
export function newAlias(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(crypto.randomBytes(12), (b) => alphabet[b % alphabet.length]).join('');
}

/**
 * Moves a page and everything below it that is not in the trash yet into the trash, as one batch.
 * `trashed_at` names the batch: it is made later than any batch already in the subtree, so a
 * restore never takes along pages that were trashed on their own (even within one millisecond).
 */
export async function trashSubtree(trx: Transaction<Database>, page: PageRow, userId: string): Promise<PageRow> {
  let trashed_at = nowIso();
  const descendants = await listDescendants(trx, page);
  for (const earlier of descendants) {
    if (earlier.in_trash === 1) trashed_at = timeAfter(trashed_at, earlier.trashed_at);
  }
  const ids = [page.id, ...descendants.filter((p) => p.in_trash === 0).map((p) => p.id)];
  for (const chunk of inChunks(ids)) {
    await trx
      .updateTable('pages')
      .set({ in_trash: 1, trashed_at, trashed_by: userId })
      .where('id', 'in', chunk)
      .where('in_trash', '=', 0)
      .execute();
  }
  await bumpRowsOfPages(trx, ids);
  return { ...page, in_trash: 1, trashed_at, trashed_by: userId };
}

/**
 * Takes a page out of the trash with the pages that went there with it (same batch); pages
 * below it that were trashed on their own earlier stay in the trash.
 */
export async function restoreSubtree(trx: Transaction<Database>, page: PageRow): Promise<PageRow> {
  const batch = (await listDescendants(trx, page)).filter((p) => p.in_trash === 1 && p.trashed_at === page.trashed_at);
  for (const chunk of inChunks([page.id, ...batch.map((p) => p.id)])) {
    await trx.updateTable('pages').set({ in_trash: 0, trashed_at: null, trashed_by: null }).where('id', 'in', chunk).execute();
  }
  await bumpRowsOfPages(trx, [page.id, ...batch.map((p) => p.id)]);
  return { ...page, in_trash: 0, trashed_at: null, trashed_by: null };
}

/**
 * Deletes a page and everything below it for good: blocks, comments and their reactions,
 * favourites, visits, notification settings and notifications, members, file rows. Returns the
 * storage keys of the deleted files, for the caller to remove from the file store.
 */
export async function removeSubtreeForever(trx: Transaction<Database>, page: PageRow): Promise<{ pageIds: string[]; storageKeys: string[] }> {
  const pageIds = [page.id, ...(await listDescendants(trx, page)).map((p) => p.id)];
  await bumpRowsOfPages(trx, pageIds);
  if (isPostgres(trx)) {
    // Writes into these pages (blocks, comments) hold their rows key-shared (writablePage):
    // wait for them before deleting anything, rather than meet them half-way (a deadlock).
    for (const chunk of inChunks(pageIds)) await trx.selectFrom('pages').select('id').where('id', 'in', chunk).forUpdate().execute();
  }
  const storageKeys: string[] = [];
  for (const chunk of inChunks(pageIds)) {
    const files = await trx.selectFrom('files').select('storage_key').where('page_id', 'in', chunk).execute();
    storageKeys.push(...files.map((f) => f.storage_key));
    const comments = await trx.selectFrom('comments').select('id').where('page_id', 'in', chunk).execute();
    for (const commentChunk of inChunks(comments.map((c) => c.id))) {
      await trx.deleteFrom('comment_reactions').where('comment_id', 'in', commentChunk).execute();
    }
    await trx.deleteFrom('comments').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('blocks').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('favorites').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('page_visits').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('notification_settings').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('notifications').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('page_members').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('files').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('pages').where('id', 'in', chunk).execute();
  }
  return { pageIds, storageKeys };
}

/**
 * Puts a page at a new place with a new sort key, and rewrites the path of everything below it.
 * A page that becomes a private section root gets its creator's full grant (only the creator
 * may put it there). Call in a transaction holding the tree lock, with the page and the place
 * read after taking it and checked not to be inside the page.
 */
export async function placePage(trx: Transaction<Database>, page: PageRow, place: PagePlace, sortKey: string): Promise<PageRow> {
  const parent = 'parent' in place ? place.parent : null;
  const newPath = childPath(parent);
  const updated_at = nowIso();
  const moved: PageRow = {
    ...page,
    parent_id: parent?.id ?? null,
    section: parent ? null : (place as { section: string }).section,
    path: JSON.stringify(newPath),
    sort_key: sortKey,
    updated_at,
  };
  await trx
    .updateTable('pages')
    .set({ parent_id: moved.parent_id, section: moved.section, path: moved.path, sort_key: sortKey, updated_at })
    .where('id', '=', page.id)
    .execute();
  if (moved.section === 'private') {
    // A private root is reached only through its grant, as when it is created there.
    await trx
      .insertInto('page_members')
      .values({ page_id: page.id, user_id: page.created_by, level: 'full', created_at: updated_at })
      .onConflict((oc) => oc.columns(['page_id', 'user_id']).doUpdateSet({ level: 'full' }))
      .execute();
  }
  for (const descendant of await listDescendants(trx, page)) {
    const old = pagePath(descendant);
    const below = old.slice(old.indexOf(page.id));
    await trx
      .updateTable('pages')
      .set({ path: JSON.stringify([...newPath, ...below]) })
      .where('id', '=', descendant.id)
      .execute();
  }
  return moved;
}

/** Puts a page at a new spot among its current siblings (in a transaction holding the tree lock). */
export async function setSortKey(db: Transaction<Database>, page: PageRow, sortKey: string): Promise<PageRow> {
  const updated_at = nowIso();
  await db.updateTable('pages').set({ sort_key: sortKey, updated_at }).where('id', '=', page.id).execute();
  return { ...page, sort_key: sortKey, updated_at };
}

/**
 * Block data of a copy: every string that is a copied page's or block's id becomes the copy's id
 * (a document block's page, a row's database), and tokens lose their comment links, since
 * comments are not copied.
 */
export function remapBlockData(data: string, ids: ReadonlyMap<string, string>): string {
  const walk = (value: unknown, key: string | null): unknown => {
    if (typeof value === 'string') return ids.get(value) ?? value;
    if (Array.isArray(value)) {
      return value.map((item) => {
        const copy = walk(item, null);
        if (key === 'tokens' && copy !== null && typeof copy === 'object') delete (copy as Record<string, unknown>).comments;
        return copy;
      });
    }
    if (value !== null && typeof value === 'object') {
      // Parsed JSON: own keys only, written back onto the same object (never through a prototype).
      const object = value as Record<string, unknown>;
      for (const field of Object.keys(object)) object[field] = walk(object[field], field);
      return object;
    }
    return value;
  };
  return JSON.stringify(walk(JSON.parse(data) as unknown, null));
}

export interface CloneInput {
  /** The pages to copy, root first: the source root and the descendants the caller may read. */
  pages: PageRow[];
  newRootId: string;
  workspaceId: string;
  parent: PageRow | null;
  userId: string;
}

/**
 * Copies a page tree with new ids: pages (same titles, icons, covers, types, order), their live
 * blocks (new ids, parents remapped, same order; database rows are blocks too). The copy is
 * private to nobody: it is not public, has no alias, no members but the cloner's grant on a new
 * section root, no comments and no favourites. The root goes last in its new place. Call in a
 * transaction holding the tree lock of the target workspace, with the parent read after taking it.
 */
export async function clonePageTree(trx: Transaction<Database>, input: CloneInput): Promise<PageRow> {
  const [source] = input.pages;
  const liveDatabases = new Set<string>();
  const ids = new Map<string, string>([[source.id, input.newRootId]]);
  for (const page of input.pages.slice(1)) ids.set(page.id, newId());
  const blocks: BlockRow[] = [];
  for (const chunk of inChunks(input.pages.map((p) => p.id))) {
    blocks.push(...(await trx.selectFrom('blocks').selectAll().where('page_id', 'in', chunk).where('deleted_at', 'is', null).execute()));
  }
  // Blocks under a deleted block are not part of the document any more: keep what hangs from the top.
  const byParent = new Map<string | null, BlockRow[]>();
  for (const block of blocks) byParent.set(block.parent_id, [...(byParent.get(block.parent_id) ?? []), block]);
  const kept: BlockRow[] = [];
  const queue: Array<string | null> = [null];
  const seen = new Set<string>();
  while (queue.length > 0) {
    for (const block of byParent.get(queue.shift() as string | null) ?? []) {
      if (seen.has(block.id)) continue;
      seen.add(block.id);
      kept.push(block);
      queue.push(block.id);
    }
  }
  for (const block of kept) {
    ids.set(block.id, newId());
    if (block.type === 'database') liveDatabases.add(block.id);
  }
  // Rows of a database come along with it (the live ones of a database still on the page); trashed rows do not.
  const pages = input.pages.filter((page) => page.database_id === null || (liveDatabases.has(page.database_id) && page.in_trash === 0));
  const keptPages = new Set(pages.map((p) => p.id));

  const place: PagePlace = input.parent ? { parent: input.parent } : { workspaceId: input.workspaceId, section: 'private' };
  const now = nowIso();
  const rootPath = childPath(input.parent);
  const copies: PageRow[] = pages.map((page) => {
    const isRoot = page.id === source.id;
    const below = isRoot ? [] : pagePath(page).slice(pagePath(page).indexOf(source.id));
    return {
      ...page,
      id: ids.get(page.id) as string,
      workspace_id: input.workspaceId,
      parent_id: isRoot ? (input.parent?.id ?? null) : (ids.get(page.parent_id as string) as string),
      section: isRoot ? (input.parent ? null : 'private') : null,
      path: JSON.stringify([...rootPath, ...below.map((id) => ids.get(id) as string)]),
      is_public: 0,
      in_trash: 0,
      created_by: input.userId,
      created_at: now,
      updated_at: now,
      ...FRESH_PAGE_STATE,
      database_id: page.database_id === null ? null : (ids.get(page.database_id) as string),
      updated_by: input.userId,
    };
  });
  // A copied database gets views of its own; a data or linked-view page copied along follows it,
  // one naming a view outside the copy keeps naming that view.
  const layoutUids = new Map<string, string>();
  const blockCopies: BlockRow[] = kept.filter((block) => keptPages.has(block.page_id)).map((block) => {
    let data = remapBlockData(block.data, ids);
    if (block.type === 'database') {
      const fresh = withFreshLayoutUids(data);
      data = fresh.data;
      for (const [from, to] of fresh.renamed) layoutUids.set(from, to);
    }
    return {
      ...block,
      id: ids.get(block.id) as string,
      page_id: ids.get(block.page_id) as string,
      parent_id: block.parent_id === null ? null : (ids.get(block.parent_id) as string),
      data,
      version: 1,
      created_at: now,
      updated_at: now,
      updated_by: input.userId,
      deleted_at: null,
    };
  });
  for (const copy of copies) {
    if (copy.default_layout_id !== null) copy.default_layout_id = layoutUids.get(copy.default_layout_id) ?? copy.default_layout_id;
  }
  copies[0].sort_key = sortKeyAtEnd(await listPagesAt(trx, place));
  for (const chunk of inChunks(copies, 200)) await trx.insertInto('pages').values(chunk).execute();
  if (!input.parent) {
    await trx
      .insertInto('page_members')
      .values({ page_id: input.newRootId, user_id: input.userId, level: 'full', created_at: now })
      .execute();
  }
  for (const chunk of inChunks(blockCopies, 200)) await trx.insertInto('blocks').values(chunk).execute();
  for (const copy of blockCopies) if (copy.type === 'database') await syncDatabaseLayouts(trx, copy.id, copy.data, now);
  const rowIds = pages.filter((p) => p.database_id !== null).map((p) => p.id);
  for (const chunk of inChunks(rowIds)) {
    const cells = await trx.selectFrom('database_cells').selectAll().where('row_id', 'in', chunk).execute();
    const cellCopies = cells.map((cell) => ({ ...cell, row_id: ids.get(cell.row_id) as string, database_id: ids.get(cell.database_id) as string, version: 1, updated_at: now, updated_by: input.userId }));
    for (const part of inChunks(cellCopies, 100)) await trx.insertInto('database_cells').values(part).execute();
  }
  return copies[0];
}

/** The subset of page ids the user has favourited. */
export async function favoritePageIds(db: Kysely<Database>, userId: string, pageIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const chunk of inChunks([...new Set(pageIds)])) {
    const rows = await db.selectFrom('favorites').select('page_id').where('user_id', '=', userId).where('page_id', 'in', chunk).execute();
    for (const row of rows) out.add(row.page_id);
  }
  return out;
}

/** Adds a favourite (a second add changes nothing); it sorts after the user's earlier ones. */
export async function addFavorite(db: Kysely<Database>, userId: string, pageId: string): Promise<void> {
  const last = await db
    .selectFrom('favorites')
    .select('created_at')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  await db
    .insertInto('favorites')
    .values({ user_id: userId, page_id: pageId, created_at: nowAfter(last?.created_at) })
    .onConflict((oc) => oc.columns(['user_id', 'page_id']).doNothing())
    .execute();
}

export async function removeFavorite(db: Kysely<Database>, userId: string, pageId: string): Promise<void> {
  await db.deleteFrom('favorites').where('user_id', '=', userId).where('page_id', '=', pageId).execute();
}

/** The user's favourite pages of a workspace, not in trash, in the order they were added. */
export async function listFavoritePages(db: Kysely<Database>, userId: string, workspaceId: string): Promise<PageRow[]> {
  const rows = await db
    .selectFrom('favorites as f')
    .innerJoin('pages as p', 'p.id', 'f.page_id')
    .selectAll('p')
    .select('f.created_at as favorited_at')
    .where('f.user_id', '=', userId)
    .where('p.workspace_id', '=', workspaceId)
    .where('p.in_trash', '=', 0)
    .execute();
  rows.sort((a, b) => (a.favorited_at !== b.favorited_at ? (a.favorited_at < b.favorited_at ? -1 : 1) : a.id < b.id ? -1 : 1));
  return rows.map(({ favorited_at: _favoritedAt, ...page }) => page);
}

/**
 * Notes that the user opened the page now (one row per user and page). The time is made later
 * than the user's newest visit, so pages opened within one millisecond still list in order.
 */
export async function recordVisit(db: Kysely<Database>, userId: string, pageId: string): Promise<void> {
  const last = await db
    .selectFrom('page_visits')
    .select('visited_at')
    .where('user_id', '=', userId)
    .orderBy('visited_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const visited_at = nowAfter(last?.visited_at);
  await db
    .insertInto('page_visits')
    .values({ user_id: userId, page_id: pageId, visited_at })
    .onConflict((oc) => oc.columns(['user_id', 'page_id']).doUpdateSet({ visited_at }))
    .execute();
}

/** How many of the newest visits the recents list looks at. */
export const RECENTS_LIMIT = 500;

/** Pages the user visited, newest visit first, not in trash (optionally of one workspace). */
export async function listVisitedPages(db: Kysely<Database>, userId: string, workspaceId?: string): Promise<PageRow[]> {
  let query = db
    .selectFrom('page_visits as v')
    .innerJoin('pages as p', 'p.id', 'v.page_id')
    .selectAll('p')
    .select('v.visited_at')
    .where('v.user_id', '=', userId)
    .where('p.in_trash', '=', 0);
  if (workspaceId !== undefined) query = query.where('p.workspace_id', '=', workspaceId);
  const rows = await query.orderBy('v.visited_at', 'desc').limit(RECENTS_LIMIT).execute();
  rows.sort((a, b) => (a.visited_at !== b.visited_at ? (a.visited_at > b.visited_at ? -1 : 1) : a.id < b.id ? -1 : 1));
  return rows.map(({ visited_at: _visitedAt, ...page }) => page);
}

/**
 * The pages that head a trash batch in the user's workspaces (optionally one): trashed pages
 * whose parent is not in the trash or went there separately. Newest first.
 */
export async function listTrashHeads(db: Kysely<Database>, userId: string, workspaceId?: string): Promise<PageRow[]> {
  let query = db
    .selectFrom('pages as p')
    .innerJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'p.workspace_id').on('m.user_id', '=', userId))
    .selectAll('p')
    .where('p.in_trash', '=', 1)
    // Rows that went with their database block come back with it (undo, block restore): they are not listed one by one.
    .where((eb) =>
      eb.or([
        eb('p.database_id', 'is', null),
        eb.not(eb.exists(eb.selectFrom('blocks as b').select('b.id').whereRef('b.id', '=', 'p.database_id').where('b.deleted_at', 'is not', null))),
      ]),
    );
  if (workspaceId !== undefined) query = query.where('p.workspace_id', '=', workspaceId);
  const trashed = await query.execute();
  const byId = new Map(trashed.map((p) => [p.id, p]));
  const heads = trashed.filter((page) => {
    const parent = page.parent_id === null ? undefined : byId.get(page.parent_id);
    return parent === undefined || parent.trashed_at !== page.trashed_at;
  });
  return heads.sort((a, b) => {
    const at = a.trashed_at ?? '';
    const bt = b.trashed_at ?? '';
    if (at !== bt) return at > bt ? -1 : 1;
    return a.id < b.id ? -1 : 1;
  });
}
