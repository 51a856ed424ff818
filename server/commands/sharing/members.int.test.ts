import { findGrant } from '../../repositories/pageMembers';
import { findMembership } from '../../repositories/workspaces';
import { refusal } from '../../../test/helpers/refusal';
import { countRows, type TestApp } from '../../../test/helpers/testApp';
import { createTeamApp, insertPage, type Team } from '../../../test/helpers/team';
import { createPage } from '../pages/create';
import { trashPage } from '../pages/trash';
import { changePageMember, sharePage } from './members';
import { eventsOf } from '../../events/events';

/*
 * The sharing commands called as a handler calls them, on a real database (both kinds): who may
 * share, whom, and who may not be lowered; a refusal writes nothing (no account, membership,
 * grant or notification). The HTTP side (mail, the members list) is in routes/sharing.int.test.ts.
 */

let t: TestApp;
let team: Team;

beforeAll(async () => ({ t, team } = await createTeamApp()));
afterAll(async () => t.close());

test('full access shares with a member (a grant and a notification); the caller and the tree’s owner are skipped', async () => {
  const { page } = await createPage(t.app.db, team.userId.admin, { type: 'Note' }, { parentId: team.pageId });
  const outcome = await sharePage(t.app.db, team.userId.admin, page.id, [
    { userId: team.userId.guest, accessLevel: 'edit' },
    { userId: team.userId.admin, accessLevel: 'read' },
  ]);
  expect(outcome.added).toEqual([team.userId.guest]);
  expect(outcome.skipped).toEqual([{ userId: team.userId.admin, reason: 'self' }]);
  const [note] = eventsOf(outcome.events, 'notified');
  expect(outcome.events).toEqual([{ kind: 'notified', userId: team.userId.guest, workspaceId: team.workspaceId, notificationId: expect.any(String) }]);
  const stored = await t.app.db.selectFrom('notifications').select(['user_id', 'context']).where('id', '=', note.notificationId).executeTakeFirstOrThrow();
  expect([stored.user_id, JSON.parse(stored.context)]).toEqual([team.userId.guest, { elementId: page.id, senderId: team.userId.admin }]);
  expect((await findGrant(t.app.db, page.id, team.userId.guest))?.level).toBe('edit');

  // Someone else with full access who names the tree's owner (the admin made the page) skips them.
  await t.app.db
    .insertInto('page_members')
    .values({ page_id: page.id, user_id: team.userId.participant, level: 'full', created_at: new Date().toISOString() })
    .execute();
  const again = await sharePage(t.app.db, team.userId.participant, page.id, [{ userId: team.userId.admin, accessLevel: 'read' }]);
  expect(again.skipped).toEqual([{ userId: team.userId.admin, reason: 'owner' }]);
  expect(again.added).toEqual([]);
  expect(await findGrant(t.app.db, page.id, team.userId.admin)).toBeUndefined();
});

test('denied: without full access, in the trash, an outsider brought in by a non-admin; nothing written', async () => {
  const { page } = await createPage(t.app.db, team.userId.admin, { type: 'Note' }, { parentId: team.pageId });
  const before = await Promise.all([countRows(t, 'users'), countRows(t, 'notifications'), countRows(t, 'page_members')]);
  // The participant edits the team page but may not share it.
  expect(await refusal(sharePage(t.app.db, team.userId.participant, page.id, [{ userId: team.userId.guest, accessLevel: 'read' }]))).toEqual([
    403,
    'forbidden',
  ]);
  expect(await refusal(sharePage(t.app.db, team.userId.outsider, page.id, [{ userId: team.userId.guest, accessLevel: 'read' }]))).toEqual([403, 'forbidden']);

  // A participant's own private page: full access, but not an admin, so no outsiders.
  const own = await insertPage(t, team.workspaceId, team.userId.participant, 'private', 'Own');
  await t.app.db
    .insertInto('page_members')
    .values({ page_id: own, user_id: team.userId.participant, level: 'full', created_at: new Date().toISOString() })
    .execute();
  expect(await refusal(sharePage(t.app.db, team.userId.participant, own, [{ email: 'stranger@elsewhere.example', accessLevel: 'read' }]))).toEqual([
    403,
    'sharing.outsider_needs_admin',
  ]);
  expect(await t.app.db.selectFrom('users').select('id').where('email', '=', 'stranger@elsewhere.example').executeTakeFirst()).toBeUndefined();

  await trashPage(t.app.db, team.userId.admin, page.id);
  expect(await refusal(sharePage(t.app.db, team.userId.admin, page.id, [{ userId: team.userId.guest, accessLevel: 'read' }]))).toEqual([409, 'page.in_trash']);
  expect([await countRows(t, 'users'), await countRows(t, 'notifications'), await countRows(t, 'page_members')]).toEqual([before[0], before[1], before[2] + 1]);
});

test('an admin brings an outsider in as a guest; a member’s grant changes and goes; the tree’s owner is never lowered', async () => {
  const { page } = await createPage(t.app.db, team.userId.admin, { type: 'Note' }, { parentId: team.pageId });
  const outcome = await sharePage(t.app.db, team.userId.admin, page.id, [{ userId: team.userId.outsider, accessLevel: 'read' }]);
  expect(outcome.added).toEqual([team.userId.outsider]);
  expect((await findMembership(t.app.db, team.workspaceId, team.userId.outsider))?.role).toBe('guest');

  await changePageMember(t.app.db, team.userId.admin, page.id, team.userId.outsider, 'edit');
  expect((await findGrant(t.app.db, page.id, team.userId.outsider))?.level).toBe('edit');
  await changePageMember(t.app.db, team.userId.admin, page.id, team.userId.outsider, 'inherit');
  expect(await findGrant(t.app.db, page.id, team.userId.outsider)).toBeUndefined();
  expect(await refusal(changePageMember(t.app.db, team.userId.admin, page.id, team.userId.outsider, 'read'))).toEqual([404, 'not_found']);

  // The participant's own tree: a guest given full access on its root may not change the owner's grant there.
  const root = await insertPage(t, team.workspaceId, team.userId.participant, 'all', 'Participant’s tree');
  await t.app.db
    .insertInto('page_members')
    .values({ page_id: root, user_id: team.userId.participant, level: 'full', created_at: new Date().toISOString() })
    .execute();
  await sharePage(t.app.db, team.userId.participant, root, [{ userId: team.userId.guest, accessLevel: 'full' }]);
  expect(await refusal(changePageMember(t.app.db, team.userId.guest, root, team.userId.participant, 'read'))).toEqual([403, 'sharing.protected_member']);
  expect((await findGrant(t.app.db, root, team.userId.participant))?.level).toBe('full');
});
