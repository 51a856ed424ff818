import { generateKeyBetween } from 'fractional-indexing';
import type { Kysely } from 'kysely';
import type { SectionId } from '../../schema/constants';
import type { Database, PageRow } from '../db/types';
import { nowIso } from '../time';

export function findPage(db: Kysely<Database>, id: string): Promise<PageRow | undefined> {
  return db.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Ancestor ids of a page, root first. */
export function pagePath(page: PageRow): string[] {
  return JSON.parse(page.path) as string[];
}

/** Root pages of a section in a workspace, in sidebar order, not in trash. */
export function listSectionRoots(
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
  return query.orderBy('sort_key').orderBy('id').execute();
}

export interface NewPageInput {
  id: string;
  workspaceId: string;
  section: 'private' | 'all';
  title: string;
  createdBy: string;
}

/** A new root Note at the end of its section; its creator gets full access. */
export async function insertRootNote(db: Kysely<Database>, input: NewPageInput): Promise<PageRow> {
  return db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom('pages')
      .select('sort_key')
      .where('workspace_id', '=', input.workspaceId)
      .where('parent_id', 'is', null)
      .where('section', '=', input.section)
      .orderBy('sort_key', 'desc')
      .limit(1)
      .executeTakeFirst();
    const now = nowIso();
    const page: PageRow = {
      id: input.id,
      workspace_id: input.workspaceId,
      parent_id: null,
      section: input.section,
      path: '[]',
      type: 'Note',
      title: input.title,
      icon: null,
      cover: null,
      is_public: 0,
      in_trash: 0,
      default_layout_id: null,
      sort_key: generateKeyBetween(last?.sort_key ?? null, null),
      created_by: input.createdBy,
      created_at: now,
      updated_at: now,
      alias: null,
      published_by: null,
      published_at: null,
      trashed_at: null,
      trashed_by: null,
    };
    await trx.insertInto('pages').values(page).execute();
    await trx
      .insertInto('page_members')
      .values({ page_id: page.id, user_id: input.createdBy, level: 'full', created_at: now })
      .execute();
    return page;
  });
}

export async function updatePageTitle(db: Kysely<Database>, id: string, title: string): Promise<void> {
  await db.updateTable('pages').set({ title, updated_at: nowIso() }).where('id', '=', id).execute();
}
