import type { AccessLevel, WorkspaceRole } from '../../schema/constants';
import { newId } from '../../schema/ids';
import type { WireUser } from '../../schema/user';
import { api, body, createTestApp, signIn, type TestApp } from './testApp';
import { FRESH_PAGE_STATE } from '../../server/repositories/pages';

/**
 * Who calls, for permission matrices: the roles of a shared workspace (admin, participant,
 * guest), a guest with a read grant on the team page, someone from another workspace, and an
 * anonymous caller.
 */
export const ACTORS = ['admin', 'participant', 'reader', 'guest', 'outsider', 'anonymous'] as const;
export type Actor = (typeof ACTORS)[number];

export interface Team {
  workspaceId: string;
  /** A page in the team's shared section: admin full, participant edit, reader read, guest and outsider none. */
  pageId: string;
  /** A second team page only the admin may open (explicit grants elsewhere). */
  otherPageId: string;
  cookie: Record<Actor, string | undefined>;
  userId: Record<Exclude<Actor, 'anonymous'>, string>;
  /** The level each actor has on `pageId`. */
  level: Record<Actor, AccessLevel>;
}

export async function currentUser(t: TestApp, cookie: string): Promise<WireUser> {
  return body<WireUser>(await api(t, cookie, 'GET', '/api/user/current')).data;
}

/** Adds a user to a workspace with a role (directly: the members API is tested elsewhere). */
export async function addMember(t: TestApp, workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
  await t.app.db.insertInto('workspace_members').values({ workspace_id: workspaceId, user_id: userId, role, created_at: new Date().toISOString() }).execute();
}

export async function grantPage(t: TestApp, pageId: string, userId: string, level: AccessLevel): Promise<void> {
  await t.app.db.insertInto('page_members').values({ page_id: pageId, user_id: userId, level, created_at: new Date().toISOString() }).execute();
}

/** A root page in a workspace section, inserted directly. */
export async function insertPage(t: TestApp, workspaceId: string, createdBy: string, section: 'all' | 'private', title = 'Page'): Promise<string> {
  const id = newId();
  const now = new Date().toISOString();
  await t.app.db
    .insertInto('pages')
    .values({
      id,
      workspace_id: workspaceId,
      parent_id: null,
      section,
      path: '[]',
      type: 'Note',
      title,
      icon: null,
      cover: null,
      is_public: 0,
      in_trash: 0,
      default_layout_id: null,
      // A fractional-indexing key (pageOrder.ts): never ending in 0, else the next key made after it throws «invalid order key».
      sort_key: `a${Date.now().toString(36)}${id.slice(0, 4)}1`,
      created_by: createdBy,
      created_at: now,
      updated_at: now,
      ...FRESH_PAGE_STATE,
    })
    .execute();
  return id;
}

/** Signs everyone in (e-mails `<actor>@<domain>`) and builds a shared workspace with a page. */
export async function createTeam(t: TestApp, domain = 'team.example'): Promise<Team> {
  const cookie = { anonymous: undefined } as Record<Actor, string | undefined>;
  const userId = {} as Team['userId'];
  for (const actor of ACTORS) {
    if (actor === 'anonymous') continue;
    cookie[actor] = await signIn(t, `${actor}@${domain}`);
    userId[actor] = (await currentUser(t, cookie[actor] as string)).id;
  }
  const workspaceId = newId();
  await t.app.db
    .insertInto('workspaces')
    .values({ id: workspaceId, name: 'Team', avatar: null, alias: null, is_private: 0, created_at: new Date().toISOString() })
    .execute();
  await addMember(t, workspaceId, userId.admin, 'admin');
  await addMember(t, workspaceId, userId.participant, 'participant');
  await addMember(t, workspaceId, userId.reader, 'guest');
  await addMember(t, workspaceId, userId.guest, 'guest');
  const pageId = await insertPage(t, workspaceId, userId.admin, 'all', 'Team page');
  await grantPage(t, pageId, userId.reader, 'read');
  const otherPageId = await insertPage(t, workspaceId, userId.admin, 'all', 'Admins only');
  await grantPage(t, otherPageId, userId.participant, 'none');
  await grantPage(t, otherPageId, userId.reader, 'none');
  return {
    workspaceId,
    pageId,
    otherPageId,
    cookie,
    userId,
    level: { admin: 'full', participant: 'edit', reader: 'read', guest: 'none', outsider: 'none', anonymous: 'none' },
  };
}

/** A test app on the suite's database with a team in it (`createTeam`); close `t` after. */
export async function createTeamApp(): Promise<{ t: TestApp; team: Team }> {
  const t = await createTestApp();
  return { t, team: await createTeam(t) };
}
