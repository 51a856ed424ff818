import type { LightMyRequestResponse } from 'fastify';
import type { WorkspaceRole } from '../../schema/constants';
import type { WireElement } from '../../schema/element';
import type { WireWorkspace } from '../../schema/workspace';
import { api, body, signIn, type TestApp } from './testApp';

/** A signed-in test user: the cookie, their id and their own (first) workspace. */
export interface Actor {
  email: string;
  cookie: string;
  id: string;
  workspaceId: string;
}

export async function actor(t: TestApp, email: string): Promise<Actor> {
  const cookie = await signIn(t, email);
  const user = body<{ id: string }>(await api(t, cookie, 'GET', '/api/user/current')).data;
  const workspaces = body<WireWorkspace[]>(await api(t, cookie, 'GET', '/api/v3/spaces/workspace')).data;
  return { email, cookie, id: user.id, workspaceId: workspaces[0].id };
}

/** Puts a user in a workspace with a role (workspace membership has its own API; tests set it up directly). */
export async function joinWorkspace(t: TestApp, workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
  await t.app.db
    .insertInto('workspace_members')
    .values({ workspace_id: workspaceId, user_id: userId, role, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role }))
    .execute();
}

/** Turns a personal workspace into a shared (team) one, where the "all" section takes pages. */
export async function makeTeamWorkspace(t: TestApp, workspaceId: string): Promise<void> {
  await t.app.db.updateTable('workspaces').set({ is_private: 0 }).where('id', '=', workspaceId).execute();
}

export function expectStatus(response: LightMyRequestResponse, status: number): LightMyRequestResponse {
  if (response.statusCode !== status) {
    throw new Error(`expected ${status}, got ${response.statusCode}: ${response.body}`);
  }
  return response;
}

/** Creates a page at a section root of the actor's request workspace, or under a parent. */
export async function createPage(
  t: TestApp,
  who: Actor,
  options: { title?: string; parentId?: string; section?: 'private' | 'all'; workspaceId?: string; type?: string; defaultLayoutId?: string } = {},
): Promise<WireElement> {
  const { parentId, section = 'private', workspaceId, ...payload } = options;
  const url = parentId ? `/api/v3/spaces/element/${parentId}/children` : `/api/v3/spaces/section/${section}`;
  const headers: Record<string, string> = workspaceId ? { 'x-workspace-id': workspaceId } : {};
  const res = await api(t, who.cookie, 'POST', url, payload, headers);
  return body<WireElement>(expectStatus(res, 201)).data;
}

export async function getPage(t: TestApp, who: Actor, id: string): Promise<WireElement> {
  return body<WireElement>(expectStatus(await api(t, who.cookie, 'GET', `/api/v3/spaces/element/${id}`), 200)).data;
}

/** Shares a page with workspace members or e-mails (the owner must have full access). */
export async function share(
  t: TestApp,
  who: Actor,
  pageId: string,
  entries: Array<{ userId?: string; email?: string; accessLevel: 'read' | 'edit' | 'full' }>,
): Promise<void> {
  expectStatus(await api(t, who.cookie, 'POST', `/api/v3/spaces/element/${pageId}/member/add`, entries), 200);
}

/** Ids of a listing answer. */
export function ids(response: LightMyRequestResponse): string[] {
  return body<Array<{ id: string }>>(expectStatus(response, 200)).data.map((p) => p.id);
}

/** Everything a page call could change, to compare before and after a refused call. */
export async function snapshot(t: TestApp): Promise<unknown> {
  const db = t.app.db;
  const sorted = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();
  return {
    pages: sorted(await db.selectFrom('pages').selectAll().execute()),
    members: sorted(await db.selectFrom('page_members').selectAll().execute()),
    workspaceMembers: sorted(await db.selectFrom('workspace_members').selectAll().execute()),
    favorites: sorted(await db.selectFrom('favorites').selectAll().execute()),
    visits: sorted(await db.selectFrom('page_visits').select(['user_id', 'page_id']).execute()),
    blocks: sorted(await db.selectFrom('blocks').selectAll().execute()),
    users: sorted(await db.selectFrom('users').select(['id', 'email']).execute()),
    notifications: sorted(await db.selectFrom('notifications').select(['id', 'user_id', 'name']).execute()),
    files: sorted(await db.selectFrom('files').select('id').execute()),
    mails: t.mailer.messages.length,
  };
}
