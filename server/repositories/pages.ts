import crypto from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { PageType, SectionId } from '../../schema/constants';
import { isPostgres } from '../db/connect';
import { SYNCED_CONTENT, type Database, type PageRow } from '../db/types';
import { notFound } from '../errors';
import { nowIso } from '../time';
import { compareSiblings, sortKeyAtEnd } from './pageOrder';
import { inChunks } from '../db/inChunks';

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

export function findPage(db: Kysely<Database>, id: string): Promise<PageRow | undefined> {
  return db.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A page by id; 404 when there is none (inside a transaction: it may have gone meanwhile). */
export async function loadPage(db: Kysely<Database>, id: string): Promise<PageRow> {
  const page = await findPage(db, id);
  if (!page) throw notFound('page');
  return page;
}

/**
 * A page read inside the transaction that writes into it (after that transaction's lock). On
 * PostgreSQL the row is key-share locked until the transaction ends, so a delete-forever waits
 * for this write instead of pulling the page away under it (which would break the foreign key of
 * what is written). The check: `writablePage` (server/policies/page.ts).
 */
export async function findPageForWrite(trx: Transaction<Database>, id: string): Promise<PageRow | undefined> {
  const query = trx.selectFrom('pages').selectAll().where('id', '=', id);
  return (isPostgres(trx) ? query.forKeyShare() : query).executeTakeFirst();
}

/** A page by its id, else by its public alias. */
export async function findPageByIdOrAlias(db: Kysely<Database>, idOrAlias: string): Promise<PageRow | undefined> {
  return (await findPage(db, idOrAlias)) ?? (await db.selectFrom('pages').selectAll().where('alias', '=', idOrAlias).executeTakeFirst());
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

/** All pages below a page (any depth, trash included). */
export async function listDescendants(db: Kysely<Database>, page: PageRow): Promise<PageRow[]> {
  // The path holds quoted ids, so the LIKE narrows it down; the exact check is done on the parsed path.
  const rows = await db.selectFrom('pages').selectAll().where('workspace_id', '=', page.workspace_id).where('path', 'like', `%"${page.id}"%`).execute();
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
  /** Its place among its siblings when the caller has it (many pages made at once); else after the last of them, read here. */
  sortKey?: string;
  /** A synced block's content under `parent` (`SYNCED_CONTENT`: docs/api/blocks.md «Synced blocks»), not a live page. */
  syncedContent?: boolean;
}

/**
 * A new page at the end of its parent's children or of its section. Call in a transaction that
 * holds the tree lock, with `parent` read after taking it.
 */
export async function insertPage(trx: Transaction<Database>, input: NewPageInput): Promise<PageRow> {
  const place: PagePlace = input.parent ? { parent: input.parent } : { workspaceId: input.workspaceId, section: input.section ?? 'private' };
  const sortKey = input.sortKey ?? sortKeyAtEnd(await listPagesAt(trx, place));
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
    in_trash: input.syncedContent ? SYNCED_CONTENT : 0,
    default_layout_id: input.defaultLayoutId ?? null,
    sort_key: sortKey,
    created_by: input.createdBy,
    created_at: now,
    updated_at: now,
    ...FRESH_PAGE_STATE,
  };
  await trx.insertInto('pages').values(page).execute();
  if (input.grantCreatorFull) {
    await trx.insertInto('page_members').values({ page_id: page.id, user_id: input.createdBy, level: 'full', created_at: now }).execute();
  }
  return page;
}

/** The id and title of every page of a workspace outside the trash (a title search reads these, then whole rows of the best). */
export function listLiveTitles(db: Kysely<Database>, workspaceId: string): Promise<Array<{ id: string; title: string }>> {
  return db.selectFrom('pages').select(['id', 'title']).where('workspace_id', '=', workspaceId).where('in_trash', '=', 0).execute();
}

export type PageFieldsUpdate = Partial<Pick<PageRow, 'title' | 'icon' | 'cover' | 'is_public' | 'published_by' | 'published_at' | 'alias' | 'updated_by'>>;

/** Changes some fields of a page and its updated_at; returns the page as stored. */
export async function updatePageFields(db: Kysely<Database>, page: PageRow, fields: PageFieldsUpdate): Promise<PageRow> {
  const updated_at = nowIso();
  await db
    .updateTable('pages')
    .set({ ...fields, updated_at })
    .where('id', '=', page.id)
    .execute();
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

/** The sections of these pages (null: not a section's root), by id. */
export async function sectionsOf(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, string | null>> {
  const sections = new Map<string, string | null>();
  for (const chunk of inChunks([...ids])) {
    const rows = await db.selectFrom('pages').select(['id', 'section']).where('id', 'in', chunk).execute();
    for (const row of rows) sections.set(row.id, row.section);
  }
  return sections;
}

/** The ids among `ids` that pages have (in the trash or not). */
export async function takenPageIds(db: Kysely<Database>, ids: readonly string[]): Promise<string[]> {
  const taken: string[] = [];
  for (const chunk of inChunks([...ids])) taken.push(...(await db.selectFrom('pages').select('id').where('id', 'in', chunk).execute()).map((row) => row.id));
  return taken;
}

/** The live pages (not database rows) under a page, at any depth. */
export function listLivePagesUnder(db: Kysely<Database>, rootId: string): Promise<PageRow[]> {
  return db.selectFrom('pages').selectAll().where('path', 'like', `%"${rootId}"%`).where('in_trash', '=', 0).where('database_id', 'is', null).execute();
}

/** Every live page (not database rows) of a workspace. */
export function listLiveWorkspacePages(db: Kysely<Database>, workspaceId: string): Promise<PageRow[]> {
  return db.selectFrom('pages').selectAll().where('workspace_id', '=', workspaceId).where('in_trash', '=', 0).where('database_id', 'is', null).execute();
}
