import { newId } from '../../../schema/ids';
import { findMembership } from '../../repositories/workspaces';
import { refusal } from '../../../test/helpers/refusal';
import { countRows, type TestApp } from '../../../test/helpers/testApp';
import { createTeamApp, type Team } from '../../../test/helpers/team';
import { addWorkspaceMembers, changeMemberRole, removeWorkspaceMember } from './members';
import { updateWorkspaceSettings } from './update';

/*
 * The workspace member commands called as a handler calls them, on a real database (both kinds):
 * admins add, change and remove; anyone leaves; the last admin stays; a refusal makes no account
 * and no membership. The HTTP side (mail, presenting) is in routes/workspaces.int.test.ts.
 */

let t: TestApp;
let team: Team;

beforeAll(async () => ({ t, team } = await createTeamApp()));
afterAll(async () => t.close());

const roleOf = async (userId: string) => (await findMembership(t.app.db, team.workspaceId, userId))?.role;

test('an admin adds a member by id and a newcomer by e-mail (an account made, admitted)', async () => {
  const { people, admitted } = await addWorkspaceMembers(t.app.db, team.userId.admin, team.workspaceId, [
    { userId: team.userId.outsider, role: 'participant' },
    { email: 'newcomer@team.example', role: 'guest' },
  ]);
  expect(people).toHaveLength(2);
  expect([...admitted.values()].map((u) => u.email).sort()).toEqual(['newcomer@team.example', 'outsider@team.example']);
  expect(await roleOf(team.userId.outsider)).toBe('participant');
  await removeWorkspaceMember(t.app.db, team.userId.admin, team.workspaceId, team.userId.outsider);
  expect(await roleOf(team.userId.outsider)).toBeUndefined();
});

test('denied: adding by a participant, a guest or an outsider; an unknown user id; nothing made', async () => {
  const users = await countRows(t, 'users');
  const entry = [{ email: 'nobody-yet@team.example', role: 'guest' as const }];
  expect(await refusal(addWorkspaceMembers(t.app.db, team.userId.participant, team.workspaceId, entry))).toEqual([403, 'forbidden']);
  expect(await refusal(addWorkspaceMembers(t.app.db, team.userId.guest, team.workspaceId, entry))).toEqual([403, 'forbidden']);
  expect(await refusal(addWorkspaceMembers(t.app.db, team.userId.outsider, team.workspaceId, entry))).toEqual([403, 'forbidden']);
  expect(await refusal(addWorkspaceMembers(t.app.db, team.userId.admin, newId(), entry))).toEqual([404, 'not_found']);
  expect(await refusal(addWorkspaceMembers(t.app.db, team.userId.admin, team.workspaceId, [...entry, { userId: newId(), role: 'guest' }]))).toEqual([
    422,
    'validation_failed',
  ]);
  expect(await countRows(t, 'users')).toBe(users);
});

test('roles change by admins only; members are removed by admins, leave by themselves; the last admin stays', async () => {
  expect(await refusal(changeMemberRole(t.app.db, team.userId.participant, team.workspaceId, team.userId.guest, 'participant'))).toEqual([403, 'forbidden']);
  // The one whose role changed may lose pages: told so (the realtime rooms are checked again).
  expect((await changeMemberRole(t.app.db, team.userId.admin, team.workspaceId, team.userId.guest, 'participant')).events).toEqual([
    { kind: 'accessLost', userId: team.userId.guest },
  ]);
  expect(await roleOf(team.userId.guest)).toBe('participant');
  expect(await refusal(changeMemberRole(t.app.db, team.userId.admin, team.workspaceId, team.userId.outsider, 'guest'))).toEqual([404, 'not_found']);

  expect(await refusal(removeWorkspaceMember(t.app.db, team.userId.participant, team.workspaceId, team.userId.guest))).toEqual([403, 'forbidden']);
  expect(await roleOf(team.userId.guest)).toBe('participant');
  expect((await removeWorkspaceMember(t.app.db, team.userId.guest, team.workspaceId, team.userId.guest)).events).toEqual([
    { kind: 'accessLost', userId: team.userId.guest },
  ]);
  expect(await roleOf(team.userId.guest)).toBeUndefined();

  expect(await refusal(removeWorkspaceMember(t.app.db, team.userId.admin, team.workspaceId, team.userId.admin))).toEqual([422, 'workspace.last_admin']);
  expect(await refusal(changeMemberRole(t.app.db, team.userId.admin, team.workspaceId, team.userId.admin, 'guest'))).toEqual([422, 'workspace.last_admin']);
  // Asking the last admin to stay admin changes nothing, and is no refusal.
  await changeMemberRole(t.app.db, team.userId.admin, team.workspaceId, team.userId.admin, 'admin');
  expect(await roleOf(team.userId.admin)).toBe('admin');
});

test('the workspace itself: admins rename it; never private with other members (422); denied to a participant and an outsider', async () => {
  await updateWorkspaceSettings(t.app.db, team.userId.admin, team.workspaceId, { name: 'Команда 2' });
  expect((await findMembership(t.app.db, team.workspaceId, team.userId.admin))?.name).toBe('Команда 2');
  expect(await refusal(updateWorkspaceSettings(t.app.db, team.userId.admin, team.workspaceId, { private: true }))).toEqual([422, 'validation_failed']);
  expect(await refusal(updateWorkspaceSettings(t.app.db, team.userId.participant, team.workspaceId, { name: 'нет' }))).toEqual([403, 'forbidden']);
  expect(await refusal(updateWorkspaceSettings(t.app.db, team.userId.outsider, team.workspaceId, { name: 'нет' }))).toEqual([403, 'forbidden']);
  const kept = (await findMembership(t.app.db, team.workspaceId, team.userId.admin))!;
  expect([kept.name, kept.is_private]).toEqual(['Команда 2', 0]);
});
