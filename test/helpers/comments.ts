import type { WireUser } from '../../schema/user';
import { newId } from '../../schema/ids';
import { api, body, signIn, type TestApp } from './testApp';
import { FRESH_PAGE_STATE } from '../../server/repositories/pages';

/** A signed-in test user. */
export interface Person {
  email: string;
  cookie: string;
  id: string;
}

export type Role = 'admin' | 'participant' | 'guest';
export type Level = 'read' | 'edit' | 'full' | 'none';

/** Signs a user in through the real flow and learns their id. */
export async function person(t: TestApp, email: string): Promise<Person> {
  const cookie = await signIn(t, email);
  const res = await api(t, cookie, 'GET', '/api/user/current');
  if (res.statusCode !== 200) throw new Error(`user/current answered ${res.statusCode}`);
  return { email, cookie, id: body<WireUser>(res).data.id };
}

/** A shared (non-private) workspace with `admin` as its admin. */
export async function sharedWorkspace(t: TestApp, admin: Person, name = 'Team'): Promise<string> {
  const id = newId();
  await t.app.db.insertInto('workspaces').values({ id, name, avatar: null, alias: null, is_private: 0, created_at: new Date().toISOString() }).execute();
  await addMember(t, id, admin, 'admin');
  return id;
}

export async function addMember(t: TestApp, workspaceId: string, who: Person, role: Role): Promise<void> {
  await t.app.db.insertInto('workspace_members').values({ workspace_id: workspaceId, user_id: who.id, role, created_at: new Date().toISOString() }).execute();
}

let sortCounter = 0;

/**
 * A Note stored directly (the pages API is built elsewhere): a root of `section`, or a child of
 * `parent`. Its creator gets full access, as the pages API gives.
 */
export async function insertPage(
  t: TestApp,
  input: { workspaceId: string; createdBy: Person; section?: 'private' | 'all'; parentId?: string; title?: string },
): Promise<string> {
  const id = newId();
  const now = new Date().toISOString();
  let path: string[] = [];
  if (input.parentId) {
    const parent = await t.app.db.selectFrom('pages').select(['id', 'path']).where('id', '=', input.parentId).executeTakeFirstOrThrow();
    path = [...(JSON.parse(parent.path) as string[]), parent.id];
  }
  sortCounter += 1;
  await t.app.db
    .insertInto('pages')
    .values({
      id,
      workspace_id: input.workspaceId,
      parent_id: input.parentId ?? null,
      section: input.parentId ? null : (input.section ?? 'private'),
      path: JSON.stringify(path),
      type: 'Note',
      title: input.title ?? 'Doc',
      icon: null,
      cover: null,
      is_public: 0,
      in_trash: 0,
      default_layout_id: null,
      sort_key: `a${String(sortCounter).padStart(6, '0')}`,
      created_by: input.createdBy.id,
      created_at: now,
      updated_at: now,
      ...FRESH_PAGE_STATE,
    })
    .execute();
  await grant(t, id, input.createdBy, 'full');
  return id;
}

/** Gives a user an explicit level on a page (replacing one they had); 'none' removes the grant. */
export async function grant(t: TestApp, pageId: string, who: Person, level: Level): Promise<void> {
  await t.app.db.deleteFrom('page_members').where('page_id', '=', pageId).where('user_id', '=', who.id).execute();
  if (level === 'none') return;
  await t.app.db.insertInto('page_members').values({ page_id: pageId, user_id: who.id, level, created_at: new Date().toISOString() }).execute();
}

/** A stored file row (the files API is built elsewhere). */
export async function insertFile(t: TestApp, input: { owner: Person; pageId: string | null; workspaceId?: string | null }): Promise<string> {
  const id = newId();
  await t.app.db
    .insertInto('files')
    .values({
      id,
      owner_id: input.owner.id,
      page_id: input.pageId,
      workspace_id: input.workspaceId ?? null,
      name: 'report.pdf',
      mime_type: 'application/pdf',
      size: 10,
      storage_key: `test/${id}`,
      is_public: 0,
      status: 'ready',
      upload_token_hash: null,
      upload_expires_at: null,
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}
