import type { WorkspaceRole } from '../../schema/constants';
import type { WireWorkspace } from '../../schema/workspace';
import { api, body, type TestApp } from './testApp';

/** The id of the user with this e-mail (read from the database: no route needed). */
export async function userIdOf(t: TestApp, email: string): Promise<string> {
  const row = await t.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return row.id;
}

/** A new shared (non-private) workspace made through the API; the caller is its admin. */
export async function createWorkspaceAs(t: TestApp, cookie: string, name = 'Команда'): Promise<WireWorkspace> {
  const res = await api(t, cookie, 'POST', '/api/v3/spaces/workspace', { name });
  if (res.statusCode !== 201) throw new Error(`create workspace answered ${res.statusCode}: ${res.body}`);
  return body<WireWorkspace>(res).data;
}

/** Adds users (by id) with roles through the API, as the admin `cookie`. */
export async function addMembersAs(t: TestApp, cookie: string, workspaceId: string, members: Array<{ userId: string; role: WorkspaceRole }>): Promise<void> {
  const res = await api(t, cookie, 'POST', `/api/v3/spaces/workspace/${workspaceId}/members/add`, { members });
  if (res.statusCode !== 200) throw new Error(`members/add answered ${res.statusCode}: ${res.body}`);
}
