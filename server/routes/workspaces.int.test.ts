import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { WorkspaceRole } from '../../schema/constants';
import type { WireElement } from '../../schema/element';
import { newId } from '../../schema/ids';
import type { MemberListOutcome, WireWorkspace, WireWorkspaceMember } from '../../schema/workspace';
import { addMembersAs, createWorkspaceAs, userIdOf } from '../../test/helpers/workspaces';
import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';
import { buildApp } from '../app';

let t: TestApp;
/** Session cookies by name. */
const cookies: Record<string, string> = {};
/** User ids by name. */
const ids: Record<string, string> = {};
const NAMES = ['ann', 'pat', 'gus', 'otto', 'tom'] as const;
type Name = (typeof NAMES)[number];
const email = (name: string) => `${name}@example.com`;

beforeAll(async () => {
  // A small invitation quota (INVITE_LIMIT_PER_10_MIN), so that its tests fit members/add's list.
  t = await createTestApp({ inviteLimitPeople: 30 });
  for (const name of NAMES) {
    cookies[name] = await signIn(t, email(name));
    ids[name] = await userIdOf(t, email(name));
  }
});
afterAll(async () => {
  await t.close();
});

const url = (workspaceId: string, rest = '') => `/api/v3/spaces/workspace/${workspaceId}${rest}`;

async function myWorkspaces(name: Name): Promise<WireWorkspace[]> {
  const res = await api(t, cookies[name], 'GET', '/api/v3/spaces/workspace');
  expect(res.statusCode).toBe(200);
  return body<WireWorkspace[]>(res).data;
}

async function members(workspaceId: string, query = '', as: Name = 'ann'): Promise<LightMyRequestResponse> {
  return api(t, cookies[as], 'GET', `${url(workspaceId, '/members')}${query}`);
}

async function roleOf(workspaceId: string, userId: string): Promise<string | undefined> {
  const row = await t.app.db
    .selectFrom('workspace_members')
    .select('role')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

/** Everything a workspace call could change, to show that a refused call changed nothing. */
async function snapshot(workspaceId: string): Promise<string> {
  const db = t.app.db;
  return JSON.stringify({
    workspace: await db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).execute(),
    members: await db.selectFrom('workspace_members').selectAll().where('workspace_id', '=', workspaceId).orderBy('user_id').execute(),
    pages: await db.selectFrom('pages').select(['id', 'title']).where('workspace_id', '=', workspaceId).orderBy('id').execute(),
    users: (await db.selectFrom('users').select('id').execute()).length,
  });
}

/**
 * ann (admin) with pat (participant), gus (guest) and tom (participant, the one acted upon). The
 * members are put in directly, at one instant: members/add is tested on its own, and every person
 * it brings in counts against ann's invitation limit.
 */
async function teamWorkspace(): Promise<string> {
  const workspace = await createWorkspaceAs(t, cookies.ann, 'Команда');
  // After the creator, even within the same millisecond.
  const creator = await t.app.db.selectFrom('workspace_members').select('created_at').where('workspace_id', '=', workspace.id).executeTakeFirstOrThrow();
  const joined = new Date(Date.parse(creator.created_at) + 1).toISOString();
  await t.app.db
    .insertInto('workspace_members')
    .values(
      (
        [
          ['pat', 'participant'],
          ['gus', 'guest'],
          ['tom', 'participant'],
        ] as const
      ).map(([name, role]) => ({ workspace_id: workspace.id, user_id: ids[name], role, created_at: joined })),
    )
    .execute();
  return workspace.id;
}

describe('create', () => {
  test('the creator becomes admin; the workspace is listed for them only', async () => {
    const res = await api(t, cookies.ann, 'POST', '/api/v3/spaces/workspace', { name: '  Отдел продаж  ', avatar: 'https://cdn.example/a.png' });
    expect(res.statusCode).toBe(201);
    const workspace = body<WireWorkspace>(res).data;
    expect(workspace).toEqual({
      id: expect.any(String),
      name: 'Отдел продаж',
      avatar: 'https://cdn.example/a.png',
      alias: null,
      role: 'admin',
      private: false,
    });
    expect(await myWorkspaces('ann')).toContainEqual(workspace);
    expect((await myWorkspaces('pat')).map((w) => w.id)).not.toContain(workspace.id);
    expect(await roleOf(workspace.id, ids.ann)).toBe('admin');

    const solo = body<WireWorkspace>(
      await api(t, cookies.ann, 'POST', '/api/v3/spaces/workspace', { name: 'Личное', private: true, avatar: '/api/file/abc-1' }),
    ).data;
    expect(solo).toMatchObject({ private: true, avatar: '/api/file/abc-1', role: 'admin' });
  });

  test.each([
    ['a name under 3 characters', { name: 'ab' }],
    ['a name of spaces', { name: '     ' }],
    ['no name', {}],
    ['a too long name', { name: 'x'.repeat(101) }],
    ['a javascript: avatar', { name: 'Команда', avatar: 'javascript:alert(1)' }],
    ['a relative avatar outside /api/file', { name: 'Команда', avatar: '/etc/passwd' }],
    ['an avatar climbing out of /api/file', { name: 'Команда', avatar: '/api/file/../../secret' }],
    ['a non-boolean private', { name: 'Команда', private: 'yes' }],
    ['an unknown field', { name: 'Команда', alias: 'team' }],
  ])('%s → 422 validation_failed, nothing created', async (_name, payload) => {
    const before = (await t.app.db.selectFrom('workspaces').select('id').execute()).length;
    const res = await api(t, cookies.ann, 'POST', '/api/v3/spaces/workspace', payload);
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
    expect((await t.app.db.selectFrom('workspaces').select('id').execute()).length).toBe(before);
  });

  test('anonymous → 401, nothing created', async () => {
    const before = (await t.app.db.selectFrom('workspaces').select('id').execute()).length;
    const res = await api(t, undefined, 'POST', '/api/v3/spaces/workspace', { name: 'Чужое' });
    expect(res.statusCode).toBe(401);
    expect(errorCode(res)).toBe('unauthorized');
    expect((await t.app.db.selectFrom('workspaces').select('id').execute()).length).toBe(before);
  });

  test('a prototype-polluting body → 400, nothing created', async () => {
    const before = (await t.app.db.selectFrom('workspaces').select('id').execute()).length;
    for (const payload of ['{"name":"Команда","__proto__":{"private":true}}', '{"name":"Команда","constructor":{"prototype":{"private":true}}}']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v3/spaces/workspace',
        headers: { cookie: cookies.ann, 'content-type': 'application/json' },
        payload,
      });
      expect([payload, res.statusCode, errorCode(res)]).toEqual([payload, 400, 'bad_request']);
    }
    expect((await t.app.db.selectFrom('workspaces').select('id').execute()).length).toBe(before);
    expect(({} as Record<string, unknown>).private).toBeUndefined();
  });

  test('malformed JSON → 400; a form body → 415', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v3/spaces/workspace',
      headers: { cookie: cookies.ann, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(bad.statusCode).toBe(400);
    expect(errorCode(bad)).toBe('bad_request');
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/v3/spaces/workspace',
      headers: { cookie: cookies.ann, 'content-type': 'text/plain' },
      payload: 'name=x',
    });
    expect(form.statusCode).toBe(415);
  });
});

describe('update', () => {
  test('an admin renames and changes the avatar; members see it', async () => {
    const id = await teamWorkspace();
    const res = await api(t, cookies.ann, 'POST', url(id), { name: 'Новая команда', avatar: 'http://img.example/x.png' });
    expect(res.statusCode).toBe(200);
    expect(body<WireWorkspace>(res).data).toMatchObject({ id, name: 'Новая команда', avatar: 'http://img.example/x.png', role: 'admin' });
    expect((await myWorkspaces('pat')).find((w) => w.id === id)).toMatchObject({ name: 'Новая команда', role: 'participant' });
    const cleared = await api(t, cookies.ann, 'POST', url(id), { avatar: null });
    expect(body<WireWorkspace>(cleared).data.avatar).toBeNull();
  });

  test('private only while the admin is alone in it', async () => {
    const team = await teamWorkspace();
    const before = await snapshot(team);
    const refused = await api(t, cookies.ann, 'POST', url(team), { private: true });
    expect(refused.statusCode).toBe(422);
    expect(errorCode(refused)).toBe('validation_failed');
    expect(await snapshot(team)).toBe(before);

    const solo = await createWorkspaceAs(t, cookies.ann, 'Одна');
    const res = await api(t, cookies.ann, 'POST', url(solo.id), { private: true });
    expect(res.statusCode).toBe(200);
    expect(body<WireWorkspace>(res).data.private).toBe(true);
  });

  test('an empty body, a short name or an unknown field → 422; a missing workspace → 404', async () => {
    const id = await teamWorkspace();
    for (const payload of [{}, { name: 'ab' }, { role: 'admin' }]) {
      const res = await api(t, cookies.ann, 'POST', url(id), payload);
      expect(res.statusCode).toBe(422);
    }
    const missing = await api(t, cookies.ann, 'POST', url(crypto.randomUUID()), { name: 'Команда' });
    expect(missing.statusCode).toBe(404);
    expect(errorCode(missing)).toBe('not_found');
  });
});

describe('members', () => {
  test('the list: {id, contentType, user, role, createdAt}, oldest first, filtered by roles, paged by cursor', async () => {
    const id = await teamWorkspace();
    const res = await members(id);
    expect(res.statusCode).toBe(200);
    const list = body<WireWorkspaceMember[]>(res);
    // Oldest membership first; members who joined in the same instant (one members/add call) by user id.
    const order = list.data.map((m) => m.id);
    const sorted = [...list.data].sort((x, y) => (x.createdAt === y.createdAt ? (x.id < y.id ? -1 : 1) : x.createdAt < y.createdAt ? -1 : 1));
    expect(order).toEqual(sorted.map((m) => m.id));
    expect(order[0]).toBe(ids.ann);
    expect(Object.fromEntries(list.data.map((m) => [m.user.email, m.role]))).toEqual({
      [email('ann')]: 'admin',
      [email('pat')]: 'participant',
      [email('gus')]: 'guest',
      [email('tom')]: 'participant',
    });
    expect(list.data[0]).toEqual({
      id: ids.ann,
      contentType: 'WorkspaceMember',
      user: expect.objectContaining({ id: ids.ann, email: email('ann'), anonymous: false }),
      role: 'admin',
      createdAt: expect.any(String),
    });
    expect(list.meta).toMatchObject({ count: 4, hasMoreNext: false });

    const admins = body<WireWorkspaceMember[]>(await members(id, `?roles=${encodeURIComponent('["admin"]')}`)).data;
    expect(admins.map((m) => m.id)).toEqual([ids.ann]);
    const twoRoles = body<WireWorkspaceMember[]>(await members(id, `?roles=${encodeURIComponent('["guest","participant"]')}`)).data;
    expect(twoRoles.map((m) => m.id)).toEqual(order.filter((userId) => userId !== ids.ann));

    const first = body<WireWorkspaceMember[]>(await members(id, '?limit=3'));
    expect(first.data.map((m) => m.id)).toEqual(order.slice(0, 3));
    expect(first.meta).toMatchObject({ count: 4, hasMoreNext: true, nextCursor: `${order[2]}::WorkspaceMember` });
    const second = body<WireWorkspaceMember[]>(await members(id, `?limit=3&cursor=${encodeURIComponent(JSON.stringify(first.meta.nextCursor))}`));
    expect(second.data.map((m) => m.id)).toEqual([order[3]]);
    expect(second.meta).toMatchObject({ hasMoreNext: false, nextCursor: null });
  });

  test('members with a hidden role are omitted', async () => {
    const id = await teamWorkspace();
    await t.app.db
      .insertInto('workspace_members')
      .values({ workspace_id: id, user_id: ids.otto, role: 'hidden', created_at: new Date().toISOString() })
      .execute();
    const list = body<WireWorkspaceMember[]>(await members(id)).data;
    expect(list.map((m) => m.id)).not.toContain(ids.otto);
    expect(list).toHaveLength(4);
  });

  test('bad queries: an unknown role, a role not in an array, a forged cursor, a limit out of range', async () => {
    const id = await teamWorkspace();
    for (const query of ['?roles=["owner"]', '?roles="admin"', '?roles=[]', '?limit=0', '?limit=1000']) {
      const res = await members(id, query.replace(/[[\]"]/g, encodeURIComponent));
      expect([query, res.statusCode, errorCode(res)]).toEqual([query, 422, 'validation_failed']);
    }
    for (const cursor of [`${crypto.randomUUID()}::WorkspaceMember`, `${ids.pat}::Element`, 'garbage']) {
      const res = await members(id, `?cursor=${encodeURIComponent(cursor)}`);
      expect([cursor, res.statusCode, errorCode(res)]).toEqual([cursor, 400, 'bad_request']);
    }
  });

  test('add by id and by e-mail; an unknown e-mail becomes a user who finds the workspace on sign-in', async () => {
    const workspace = await createWorkspaceAs(t, cookies.ann, 'Приглашения');
    const newcomer = `new-${crypto.randomBytes(4).toString('hex')}@example.com`;
    const mailsBefore = t.mailer.messages.length;
    const res = await api(t, cookies.ann, 'POST', url(workspace.id, '/members/add'), {
      members: [
        { userId: ids.pat, role: 'participant' },
        { email: email('gus').toUpperCase(), role: 'guest' },
        { email: newcomer, role: 'admin' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const added = body<WireWorkspaceMember[]>(res);
    expect(added.data.map((m) => [m.user.email, m.role])).toEqual([
      [email('pat'), 'participant'],
      [email('gus'), 'guest'],
      [newcomer, 'admin'],
    ]);
    expect(added.meta.added).toHaveLength(3);
    // People this call brought in show only their id and e-mail, whether they had an account or not.
    for (const member of added.data) expect(Object.keys(member.user).sort()).toEqual(['email', 'id']);
    const rows = await t.app.db.selectFrom('workspace_members').select(['user_id', 'invited_by']).where('workspace_id', '=', workspace.id).execute();
    expect(rows.filter((r) => r.user_id !== ids.ann).map((r) => r.invited_by)).toEqual([ids.ann, ids.ann, ids.ann]);
    // Everyone added is told by e-mail.
    expect(
      t.mailer.messages
        .slice(mailsBefore)
        .map((m) => m.to)
        .sort(),
    ).toEqual([email('gus'), newcomer, email('pat')].sort());
    expect(t.mailer.messages[t.mailer.messages.length - 1].subject).toContain('Приглашения');

    const newcomerCookie = await signIn(t, newcomer);
    const theirs = body<WireWorkspace[]>(await api(t, newcomerCookie, 'GET', '/api/v3/spaces/workspace')).data;
    expect(theirs.find((w) => w.id === workspace.id)).toMatchObject({ role: 'admin', name: 'Приглашения' });
    // Like anyone signing up, they have a private workspace of their own too.
    expect(theirs.filter((w) => w.private && w.role === 'admin')).toHaveLength(1);
  });

  test('adding someone who is a member already keeps their role and sends no mail', async () => {
    const id = await teamWorkspace();
    const mailsBefore = t.mailer.messages.length;
    const res = await api(t, cookies.ann, 'POST', url(id, '/members/add'), { members: [{ userId: ids.gus, role: 'admin' }] });
    expect(res.statusCode).toBe(200);
    expect(body<WireWorkspaceMember[]>(res).data).toEqual([
      expect.objectContaining({ id: ids.gus, role: 'guest', user: expect.objectContaining({ name: 'gus' }) }),
    ]);
    expect(body(res).meta.added).toEqual([]);
    expect(await roleOf(id, ids.gus)).toBe('guest');
    expect(t.mailer.messages.length).toBe(mailsBefore);
  });

  test('adding members to a private workspace makes it non-private', async () => {
    const solo = body<WireWorkspace>(await api(t, cookies.ann, 'POST', '/api/v3/spaces/workspace', { name: 'Было личное', private: true })).data;
    expect(solo.private).toBe(true);
    await addMembersAs(t, cookies.ann, solo.id, [{ userId: ids.pat, role: 'participant' }]);
    expect((await myWorkspaces('ann')).find((w) => w.id === solo.id)?.private).toBe(false);
    expect((await myWorkspaces('pat')).find((w) => w.id === solo.id)).toMatchObject({ private: false, role: 'participant' });
  });

  test.each([
    [
      'an unknown user id',
      () => [
        { userId: crypto.randomUUID(), role: 'participant' },
        { email: 'never-created@example.com', role: 'guest' },
      ],
    ],
    [
      'a user named twice',
      () => [
        { userId: ids.otto, role: 'participant' },
        { email: email('otto'), role: 'guest' },
      ],
    ],
    [
      'an e-mail named twice',
      () => [
        { email: 'twice@example.com', role: 'guest' },
        { email: 'TWICE@example.com', role: 'guest' },
      ],
    ],
    ['a bad e-mail', () => [{ email: 'not-an-email', role: 'guest' }]],
    ['an unknown role', () => [{ userId: ids.otto, role: 'owner' }]],
    ['both userId and email', () => [{ userId: ids.otto, email: email('otto'), role: 'guest' }]],
    ['no role', () => [{ userId: ids.otto }]],
    ['no members', () => []],
  ])('%s → 422, nobody added or created', async (_name, list) => {
    const id = await teamWorkspace();
    const before = await snapshot(id);
    const res = await api(t, cookies.ann, 'POST', url(id, '/members/add'), { members: list() });
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
    expect(await snapshot(id)).toBe(before);
    expect(await t.app.db.selectFrom('users').select('id').where('email', 'in', ['never-created@example.com', 'twice@example.com']).execute()).toEqual([]);
  });

  test('role changes; the last admin can never be demoted', async () => {
    const id = await teamWorkspace();
    const promote = await api(t, cookies.ann, 'POST', url(id, '/member/role'), { userId: ids.pat, role: 'admin' });
    expect(promote.statusCode).toBe(200);
    expect(body<WireWorkspaceMember>(promote).data).toMatchObject({ id: ids.pat, role: 'admin', user: { email: email('pat') } });
    // With two admins, one may step down…
    expect((await api(t, cookies.pat, 'POST', url(id, '/member/role'), { userId: ids.ann, role: 'guest' })).statusCode).toBe(200);
    // …but not the last one, not even themselves.
    const before = await snapshot(id);
    const last = await api(t, cookies.pat, 'POST', url(id, '/member/role'), { userId: ids.pat, role: 'participant' });
    expect(last.statusCode).toBe(422);
    expect(errorCode(last)).toBe('workspace.last_admin');
    expect(await snapshot(id)).toBe(before);
    // The same role again is a no-op.
    expect((await api(t, cookies.pat, 'POST', url(id, '/member/role'), { userId: ids.pat, role: 'admin' })).statusCode).toBe(200);
    // The guest-now ann has lost her admin rights.
    expect((await api(t, cookies.ann, 'POST', url(id, '/member/role'), { userId: ids.tom, role: 'admin' })).statusCode).toBe(403);
  });

  test('a role for a non-member → 404; a bad role → 422', async () => {
    const id = await teamWorkspace();
    const before = await snapshot(id);
    const stranger = await api(t, cookies.ann, 'POST', url(id, '/member/role'), { userId: ids.otto, role: 'admin' });
    expect(stranger.statusCode).toBe(404);
    expect(errorCode(stranger)).toBe('not_found');
    const bad = await api(t, cookies.ann, 'POST', url(id, '/member/role'), { userId: ids.pat, role: 'owner' });
    expect(bad.statusCode).toBe(422);
    expect(await snapshot(id)).toBe(before);
  });

  test('two admins demoting each other at once: one wins, an admin remains', async () => {
    const id = await teamWorkspace();
    await api(t, cookies.ann, 'POST', url(id, '/member/role'), { userId: ids.pat, role: 'admin' });
    const responses = await Promise.all([
      api(t, cookies.ann, 'POST', url(id, '/member/role'), { userId: ids.pat, role: 'participant' }),
      api(t, cookies.pat, 'POST', url(id, '/member/role'), { userId: ids.ann, role: 'participant' }),
    ]);
    const statuses = responses.map((r) => r.statusCode).sort();
    // Either one demotion wins and the other finds its caller no longer admin (403) or the last admin (422).
    expect(statuses[0]).toBe(200);
    expect([403, 422]).toContain(statuses[1]);
    const admins = body<WireWorkspaceMember[]>(await members(id, `?roles=${encodeURIComponent('["admin"]')}`, 'tom')).data;
    expect(admins).toHaveLength(1);
  });

  test('an admin removes a member: gone from the list, their grants and favourites in the workspace too', async () => {
    const id = await teamWorkspace();
    const page = body<WireElement>(await api(t, cookies.ann, 'POST', '/api/v3/spaces/section/all', { title: 'Общая' }, { 'x-workspace-id': id })).data;
    const now = new Date().toISOString();
    await t.app.db.insertInto('page_members').values({ page_id: page.id, user_id: ids.tom, level: 'edit', created_at: now }).execute();
    await t.app.db.insertInto('favorites').values({ page_id: page.id, user_id: ids.tom, created_at: now }).execute();
    const res = await api(t, cookies.ann, 'POST', url(id, '/members/remove'), { userId: ids.tom });
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toEqual({ id: ids.tom, status: 'success' });
    expect(body<WireWorkspaceMember[]>(await members(id)).data.map((m) => m.id)).not.toContain(ids.tom);
    expect((await myWorkspaces('tom')).map((w) => w.id)).not.toContain(id);
    expect(await t.app.db.selectFrom('page_members').select('user_id').where('page_id', '=', page.id).where('user_id', '=', ids.tom).execute()).toEqual([]);
    expect(await t.app.db.selectFrom('favorites').select('user_id').where('user_id', '=', ids.tom).where('page_id', '=', page.id).execute()).toEqual([]);
    expect((await api(t, cookies.tom, 'GET', `/api/v3/spaces/element/${page.id}`)).statusCode).toBe(403);
    const again = await api(t, cookies.ann, 'POST', url(id, '/members/remove'), { userId: ids.tom });
    expect(again.statusCode).toBe(404);
  });

  test("a removed member's own root pages stay theirs (out of everyone's reach) and come back when they are added again", async () => {
    const id = await teamWorkspace();
    const headers = { 'x-workspace-id': id };
    const create = async (name: Name, path: string, payload: Record<string, unknown>) =>
      body<WireElement>(await api(t, cookies[name], 'POST', path, payload, headers)).data.id;
    const own = await create('tom', '/api/v3/spaces/section/private', { title: 'Заметки Тома' });
    const below = await create('tom', `/api/v3/spaces/element/${own}/children`, { title: 'Ниже' });
    const shared = await create('ann', '/api/v3/spaces/section/all', { title: 'Общая' });
    await t.app.db.insertInto('page_members').values({ page_id: shared, user_id: ids.tom, level: 'full', created_at: new Date().toISOString() }).execute();
    const levelOf = async (name: Name, pageId: string) => {
      const res = await api(t, cookies[name], 'GET', `/api/v3/spaces/element/${pageId}`);
      return res.statusCode === 200 ? body<WireElement>(res).data.accessLevel : res.statusCode;
    };

    expect((await api(t, cookies.ann, 'POST', url(id, '/members/remove'), { userId: ids.tom })).statusCode).toBe(200);
    const grants = await t.app.db
      .selectFrom('page_members')
      .select(['page_id', 'level'])
      .where('user_id', '=', ids.tom)
      .where('page_id', 'in', [own, below, shared])
      .execute();
    expect(grants).toEqual([{ page_id: own, level: 'full' }]);
    for (const pageId of [own, below]) {
      expect(await levelOf('tom', pageId)).toBe(403);
      expect(await levelOf('ann', pageId)).toBe(403);
    }

    await addMembersAs(t, cookies.ann, id, [{ userId: ids.tom, role: 'participant' }]);
    expect(await levelOf('tom', own)).toBe('full');
    expect(await levelOf('tom', below)).toBe('full');
    const section = await api(t, cookies.tom, 'GET', '/api/v3/spaces/section/private', undefined, headers);
    expect(body<WireElement[]>(section).data.map((p) => p.id)).toEqual([own]);
    // Grants others gave them are gone: on the shared page they have their role's level again.
    expect(await levelOf('tom', shared)).toBe('edit');
  });

  test('anyone may leave; leaving drops the workspace from their list; the last admin may not leave', async () => {
    const id = await teamWorkspace();
    for (const name of ['gus', 'pat'] as const) {
      const res = await api(t, cookies[name], 'POST', url(id, '/members/remove'), { userId: ids[name] });
      expect(res.statusCode).toBe(200);
      expect((await myWorkspaces(name)).map((w) => w.id)).not.toContain(id);
      expect((await members(id, '', name)).statusCode).toBe(403);
    }
    const before = await snapshot(id);
    const last = await api(t, cookies.ann, 'POST', url(id, '/members/remove'), { userId: ids.ann });
    expect(last.statusCode).toBe(422);
    expect(errorCode(last)).toBe('workspace.last_admin');
    expect(await snapshot(id)).toBe(before);
    // With a second admin, the first may go.
    await api(t, cookies.ann, 'POST', url(id, '/member/role'), { userId: ids.tom, role: 'admin' });
    expect((await api(t, cookies.ann, 'POST', url(id, '/members/remove'), { userId: ids.ann })).statusCode).toBe(200);
    expect(await roleOf(id, ids.tom)).toBe('admin');
  });
});

describe('the invitation limit', () => {
  const adds = (app: FastifyInstance, cookie: string, workspaceId: string, emails: string[]) =>
    app.inject({
      method: 'POST',
      url: url(workspaceId, '/members/add'),
      headers: { cookie },
      payload: { members: emails.map((e) => ({ email: e, role: 'guest' })) },
    });
  const newEmails = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => `${prefix}-${i}-${crypto.randomBytes(3).toString('hex')}@example.com`);

  test("is counted in the database: a second server process on the same database sees the first one's invitations", async () => {
    const rita = await signIn(t, 'rita@example.com');
    const workspace = await createWorkspaceAs(t, rita, 'Рита');
    const second = await buildApp(t.config, { logger: false, mailer: t.mailer });
    try {
      await second.ready();
      expect((await adds(t.app, rita, workspace.id, newEmails('first', t.config.inviteLimitPeople - 5))).statusCode).toBe(200);
      const before = await snapshot(workspace.id);
      const over = await adds(second, rita, workspace.id, newEmails('second', 6));
      expect([over.statusCode, errorCode(over)]).toEqual([429, 'rate_limited']);
      expect(await snapshot(workspace.id)).toBe(before);
      expect((await adds(second, rita, workspace.id, newEmails('second', 5))).statusCode).toBe(200);
      const last = await adds(t.app, rita, workspace.id, newEmails('third', 1));
      expect([last.statusCode, errorCode(last)]).toEqual([429, 'rate_limited']);
    } finally {
      await second.close();
    }
  });

  test('two calls at once by one inviter (into two workspaces) cannot both pass on the same count', async () => {
    const sam = await signIn(t, 'sam@example.com');
    const [one, two] = [await createWorkspaceAs(t, sam, 'Один'), await createWorkspaceAs(t, sam, 'Два')];
    const half = t.config.inviteLimitPeople / 2 + 1;
    const responses = await Promise.all([adds(t.app, sam, one.id, newEmails('one', half)), adds(t.app, sam, two.id, newEmails('two', half))]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 429]);
    const samId = await userIdOf(t, 'sam@example.com');
    const invited = await t.app.db.selectFrom('workspace_members').select('user_id').where('invited_by', '=', samId).execute();
    expect(invited).toHaveLength(half);
  });
});

describe('members/add_list: a team from a list at once', () => {
  /** An app with the default invitation quota (INVITE_LIMIT_PER_10_MIN, 300). */
  let team: TestApp;
  beforeAll(async () => {
    team = await createTestApp();
  });
  afterAll(async () => {
    await team.close();
  });
  const addList = (app: TestApp, cookie: string, workspaceId: string, emails: string[], role = 'participant') =>
    api(app, cookie, 'POST', url(workspaceId, '/members/add_list'), { emails, role });
  const listOf = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => `${prefix}-${i}-${crypto.randomBytes(3).toString('hex')}@example.com`);

  test('an admin adds 150 people from one list in one call: added, members already and what is no e-mail are told apart', async () => {
    const admin = await signIn(team, 'list-admin@example.com');
    const workspace = await createWorkspaceAs(team, admin, 'Отдел');
    await signIn(team, 'list-member@example.com');
    await addMembersAs(team, admin, workspace.id, [{ userId: await userIdOf(team, 'list-member@example.com'), role: 'participant' }]);
    const newcomers = listOf('team', 150);
    const sent = [
      ...newcomers.slice(0, 75),
      'List-Member@Example.com',
      'list-admin@example.com',
      'not an address',
      'two@@example.com',
      ` ${newcomers[0].toUpperCase()} `,
      ...newcomers.slice(75),
    ];
    const res = await addList(team, admin, workspace.id, sent, 'guest');
    expect(res.statusCode).toBe(200);
    const outcome = body<MemberListOutcome>(res).data;
    expect(outcome.added.map((u) => u.email)).toEqual(newcomers);
    expect(outcome.added.every((u) => Object.keys(u).sort().join() === 'email,id')).toBe(true);
    expect(outcome.alreadyMembers.map((u) => u.email)).toEqual(['list-member@example.com', 'list-admin@example.com']);
    expect(outcome.invalid).toEqual(['not an address', 'two@@example.com']);
    const rows = await team.app.db
      .selectFrom('workspace_members')
      .innerJoin('users', 'users.id', 'workspace_members.user_id')
      .select(['users.email', 'workspace_members.role'])
      .where('workspace_id', '=', workspace.id)
      .execute();
    expect(rows).toHaveLength(152);
    expect(rows.filter((r) => newcomers.includes(r.email)).every((r) => r.role === 'guest')).toBe(true);
    // Each newcomer is mailed once, after the answer.
    for (let i = 0; i < 200 && team.mailer.messages.filter((m) => newcomers.includes(m.to)).length < 150; i++) await new Promise((r) => setTimeout(r, 20));
    expect(new Set(team.mailer.messages.filter((m) => newcomers.includes(m.to)).map((m) => m.to)).size).toBe(150);
    // The same list again adds nobody.
    const again = body<MemberListOutcome>(await addList(team, admin, workspace.id, newcomers)).data;
    expect([again.added.length, again.alreadyMembers.length]).toEqual([0, 150]);
  });

  test('participants, guests and outsiders cannot (403) and nothing is made', async () => {
    const admin = await signIn(team, 'list-admin2@example.com');
    const workspace = await createWorkspaceAs(team, admin, 'Отдел два');
    const [participant, guest, outsider] = [
      await signIn(team, 'list-p@example.com'),
      await signIn(team, 'list-g@example.com'),
      await signIn(team, 'list-o@example.com'),
    ];
    await addMembersAs(team, admin, workspace.id, [
      { userId: await userIdOf(team, 'list-p@example.com'), role: 'participant' },
      { userId: await userIdOf(team, 'list-g@example.com'), role: 'guest' },
    ]);
    const emails = listOf('refused', 5);
    for (const cookie of [participant, guest, outsider]) {
      for (const list of [emails, ['not an address']]) {
        const res = await addList(team, cookie, workspace.id, list);
        expect([res.statusCode, errorCode(res)]).toEqual([403, 'forbidden']);
      }
    }
    expect(await team.app.db.selectFrom('users').select('id').where('email', 'in', emails).execute()).toEqual([]);
    const count = await team.app.db.selectFrom('workspace_members').select('user_id').where('workspace_id', '=', workspace.id).execute();
    expect(count).toHaveLength(3);
  });

  test('bad bodies are 422; an unknown workspace 404', async () => {
    const admin = await signIn(team, 'list-admin3@example.com');
    const workspace = await createWorkspaceAs(team, admin, 'Отдел три');
    for (const payload of [
      { emails: [], role: 'guest' },
      { emails: ['a@example.com'], role: 'owner' },
      { emails: listOf('big', 501), role: 'guest' },
      { emails: ['a@example.com'] },
    ]) {
      const res = await api(team, admin, 'POST', url(workspace.id, '/members/add_list'), payload);
      expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    }
    const res = await addList(team, admin, 'no-such-workspace', ['a@example.com']);
    expect(res.statusCode).toBe(404);
  });

  test('a list larger than what is left of the quota is refused whole (429), nothing made', async () => {
    const admin = await signIn(t, 'list-quota@example.com');
    const workspace = await createWorkspaceAs(t, admin, 'Квота');
    const before = await snapshot(workspace.id);
    const over = listOf('over', t.config.inviteLimitPeople + 1);
    const res = await addList(t, admin, workspace.id, over);
    expect([res.statusCode, errorCode(res)]).toEqual([429, 'rate_limited']);
    expect(await snapshot(workspace.id)).toBe(before);
    expect(await t.app.db.selectFrom('users').select('id').where('email', 'in', over).execute()).toEqual([]);
    expect((await addList(t, admin, workspace.id, over.slice(1))).statusCode).toBe(200);
  });
});

describe('delete', () => {
  test('an admin deletes the workspace with its pages, blocks, comments, notifications, files and members; others stay', async () => {
    const id = await teamWorkspace();
    const other = await createWorkspaceAs(t, cookies.ann, 'Остаётся');
    const db = t.app.db;
    const now = new Date().toISOString();
    const makePage = async (workspaceId: string) =>
      body<WireElement>(await api(t, cookies.ann, 'POST', '/api/v3/spaces/section/all', { title: 'p' }, { 'x-workspace-id': workspaceId })).data.id;
    const doomedPage = await makePage(id);
    const keptPage = await makePage(other.id);
    const block = await api(t, cookies.ann, 'POST', '/api/v3/spaces/block', { pageId: doomedPage, type: 'text', data: { tokens: [{ text: 'x' }] } });
    expect(block.statusCode).toBe(201);
    const commentId = newId();
    await db
      .insertInto('comments')
      .values({
        id: commentId,
        page_id: doomedPage,
        replied_comment_id: null,
        author_id: ids.pat,
        content: '[]',
        attaches: '[]',
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .execute();
    await db.insertInto('comment_reactions').values({ comment_id: commentId, user_id: ids.gus, code: '👍', created_at: now }).execute();
    await db.insertInto('favorites').values({ user_id: ids.pat, page_id: doomedPage, created_at: now }).execute();
    await db.insertInto('page_visits').values({ user_id: ids.pat, page_id: doomedPage, visited_at: now }).execute();
    await db.insertInto('notification_settings').values({ user_id: ids.pat, page_id: doomedPage, settings: '{}', updated_at: now }).execute();
    const notification = (workspaceId: string | null, pageId: string | null) => ({
      id: newId(),
      user_id: ids.pat,
      workspace_id: workspaceId,
      page_id: pageId,
      name: 'comments.create',
      context: '{}',
      is_read: 0,
      created_at: now,
    });
    await db
      .insertInto('notifications')
      .values([notification(id, doomedPage), notification(null, doomedPage), notification(other.id, keptPage)])
      .execute();
    const filesDir = t.config.filesDir;
    fs.mkdirSync(filesDir, { recursive: true });
    const file = (workspaceId: string | null, pageId: string | null) => {
      const fileId = newId();
      fs.writeFileSync(path.join(filesDir, fileId), 'bytes');
      return {
        id: fileId,
        owner_id: ids.ann,
        page_id: pageId,
        workspace_id: workspaceId,
        name: 'a.txt',
        mime_type: 'text/plain',
        size: 5,
        storage_key: fileId,
        is_public: 0,
        status: 'ready',
        upload_token_hash: null,
        upload_expires_at: null,
        created_at: now,
      };
    };
    const files = [file(id, null), file(null, doomedPage), file(other.id, keptPage)];
    await db.insertInto('files').values(files).execute();

    const res = await api(t, cookies.ann, 'DELETE', url(id));
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toEqual({ id, status: 'success' });

    for (const name of ['ann', 'pat', 'gus', 'tom'] as const) expect((await myWorkspaces(name)).map((w) => w.id)).not.toContain(id);
    const count = async (
      table: 'pages' | 'blocks' | 'comments' | 'comment_reactions' | 'favorites' | 'page_visits' | 'notification_settings' | 'workspace_members',
      column: string,
      value: string,
    ) =>
      (
        await db
          .selectFrom(table)
          .selectAll()
          .where(column as never, '=', value as never)
          .execute()
      ).length;
    expect(await count('pages', 'workspace_id', id)).toBe(0);
    expect(await count('blocks', 'page_id', doomedPage)).toBe(0);
    expect(await count('comments', 'page_id', doomedPage)).toBe(0);
    expect(await count('comment_reactions', 'comment_id', commentId)).toBe(0);
    expect(await count('favorites', 'page_id', doomedPage)).toBe(0);
    expect(await count('page_visits', 'page_id', doomedPage)).toBe(0);
    expect(await count('notification_settings', 'page_id', doomedPage)).toBe(0);
    expect(await count('workspace_members', 'workspace_id', id)).toBe(0);
    const notifications = await db.selectFrom('notifications').select(['workspace_id', 'page_id']).where('user_id', '=', ids.pat).execute();
    expect(notifications.filter((n) => n.workspace_id === id || n.page_id === doomedPage)).toEqual([]);
    expect(notifications.filter((n) => n.page_id === keptPage)).toHaveLength(1);
    const fileRows = await db
      .selectFrom('files')
      .select('id')
      .where(
        'id',
        'in',
        files.map((f) => f.id),
      )
      .execute();
    expect(fileRows.map((f) => f.id)).toEqual([files[2].id]);
    expect(files.map((f) => fs.existsSync(path.join(filesDir, f.storage_key)))).toEqual([false, false, true]);
    // The other workspace is untouched.
    expect((await api(t, cookies.ann, 'GET', `/api/v3/spaces/element/${keptPage}`)).statusCode).toBe(200);
    expect((await api(t, cookies.ann, 'DELETE', url(id))).statusCode).toBe(404);
  });
});

/**
 * Every workspace call × every role. `expect` per role: admin, participant, guest, non-member
 * (otto), anonymous. Each case runs on a fresh workspace; a refused call must change nothing.
 */
type Actor = 'admin' | 'participant' | 'guest' | 'nonMember' | 'anonymous';
const ACTORS: Record<Actor, Name | undefined> = { admin: 'ann', participant: 'pat', guest: 'gus', nonMember: 'otto', anonymous: undefined };

interface Call {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: (workspaceId: string, me: string | undefined) => string;
  payload?: (me: string | undefined) => unknown;
  workspaceHeader?: boolean;
  expect: Record<Actor, number>;
}

const ALL_BUT_ANONYMOUS_403 = { participant: 403, guest: 403, nonMember: 403, anonymous: 401 } as const;
const CALLS: Call[] = [
  {
    name: 'list members',
    method: 'GET',
    path: (w) => url(w, '/members'),
    expect: { admin: 200, participant: 200, guest: 403, nonMember: 403, anonymous: 401 },
  },
  { name: 'update', method: 'POST', path: (w) => url(w), payload: () => ({ name: 'Переименовано' }), expect: { admin: 200, ...ALL_BUT_ANONYMOUS_403 } },
  { name: 'delete', method: 'DELETE', path: (w) => url(w), expect: { admin: 200, ...ALL_BUT_ANONYMOUS_403 } },
  {
    name: 'add a member',
    method: 'POST',
    path: (w) => url(w, '/members/add'),
    payload: () => ({ members: [{ userId: ids.otto, role: 'admin' }] }),
    expect: { admin: 200, ...ALL_BUT_ANONYMOUS_403 },
  },
  {
    name: 'add by e-mail',
    method: 'POST',
    path: (w) => url(w, '/members/add'),
    payload: () => ({ members: [{ email: `m-${crypto.randomBytes(4).toString('hex')}@example.com`, role: 'guest' }] }),
    expect: { admin: 200, ...ALL_BUT_ANONYMOUS_403 },
  },
  {
    name: 'change a role',
    method: 'POST',
    path: (w) => url(w, '/member/role'),
    payload: () => ({ userId: ids.tom, role: 'admin' }),
    expect: { admin: 200, ...ALL_BUT_ANONYMOUS_403 },
  },
  {
    name: 'promote oneself',
    method: 'POST',
    path: (w) => url(w, '/member/role'),
    payload: (me) => ({ userId: me ?? ids.pat, role: 'admin' }),
    expect: { admin: 200, ...ALL_BUT_ANONYMOUS_403 },
  },
  {
    name: 'remove another member',
    method: 'POST',
    path: (w) => url(w, '/members/remove'),
    payload: () => ({ userId: ids.tom }),
    expect: { admin: 200, ...ALL_BUT_ANONYMOUS_403 },
  },
  {
    name: 'leave',
    method: 'POST',
    path: (w) => url(w, '/members/remove'),
    payload: (me) => ({ userId: me ?? ids.pat }),
    expect: { admin: 422, participant: 200, guest: 200, nonMember: 403, anonymous: 401 },
  },
  {
    name: 'create a page in private',
    method: 'POST',
    path: () => '/api/v3/spaces/section/private',
    payload: () => ({ title: 'Новая' }),
    workspaceHeader: true,
    expect: { admin: 201, participant: 201, guest: 403, nonMember: 403, anonymous: 401 },
  },
  {
    name: 'create a page in all',
    method: 'POST',
    path: () => '/api/v3/spaces/section/all',
    payload: () => ({ title: 'Новая' }),
    workspaceHeader: true,
    expect: { admin: 201, participant: 403, guest: 403, nonMember: 403, anonymous: 401 },
  },
  {
    name: 'create a page in favorite',
    method: 'POST',
    path: () => '/api/v3/spaces/section/favorite',
    payload: () => ({ title: 'Новая' }),
    workspaceHeader: true,
    expect: { admin: 403, participant: 403, guest: 403, nonMember: 403, anonymous: 401 },
  },
  {
    name: 'read the all section',
    method: 'GET',
    path: () => '/api/v3/spaces/section/all',
    workspaceHeader: true,
    expect: { admin: 200, participant: 200, guest: 403, nonMember: 403, anonymous: 401 },
  },
  {
    name: 'read the private section',
    method: 'GET',
    path: () => '/api/v3/spaces/section/private',
    workspaceHeader: true,
    expect: { admin: 200, participant: 200, guest: 403, nonMember: 403, anonymous: 401 },
  },
  {
    name: 'read the shared section',
    method: 'GET',
    path: () => '/api/v3/spaces/section/shared',
    workspaceHeader: true,
    expect: { admin: 200, participant: 200, guest: 200, nonMember: 403, anonymous: 401 },
  },
  {
    name: 'read the favorite section',
    method: 'GET',
    path: () => '/api/v3/spaces/section/favorite',
    workspaceHeader: true,
    expect: { admin: 200, participant: 200, guest: 200, nonMember: 403, anonymous: 401 },
  },
];

describe('role × call matrix', () => {
  const cases = CALLS.flatMap((call) => (Object.keys(ACTORS) as Actor[]).map((actor) => [call.name, actor, call] as const));
  test.each(cases)('%s as %s', async (_name, actor, call) => {
    const workspaceId = await teamWorkspace();
    const who = ACTORS[actor];
    const me = who ? ids[who] : undefined;
    const before = await snapshot(workspaceId);
    const res = await api(
      t,
      who ? cookies[who] : undefined,
      call.method,
      call.path(workspaceId, me),
      call.payload?.(me),
      call.workspaceHeader ? { 'x-workspace-id': workspaceId } : {},
    );
    const expected = call.expect[actor];
    expect(res.statusCode).toBe(expected);
    if (expected >= 400) {
      expect(errorCode(res)).toBe({ 401: 'unauthorized', 403: 'forbidden', 422: 'workspace.last_admin' }[expected]);
      expect(body(res).data).toBeNull();
      expect(await snapshot(workspaceId)).toBe(before);
    }
  });

  test('the workspace list shows a workspace to its members only, with their role', async () => {
    const workspaceId = await teamWorkspace();
    const expected: Record<Name, WorkspaceRole | undefined> = { ann: 'admin', pat: 'participant', gus: 'guest', tom: 'participant', otto: undefined };
    for (const name of NAMES) expect((await myWorkspaces(name)).find((w) => w.id === workspaceId)?.role).toBe(expected[name]);
    expect((await api(t, undefined, 'GET', '/api/v3/spaces/workspace')).statusCode).toBe(401);
  });

  test('calls on a workspace that does not exist → 404 for any signed-in user', async () => {
    const missing = crypto.randomUUID();
    for (const call of CALLS.filter((c) => !c.workspaceHeader)) {
      const res = await api(t, cookies.otto, call.method, call.path(missing, ids.otto), call.payload?.(ids.otto));
      expect([call.name, res.statusCode]).toEqual([call.name, 404]);
    }
  });
});

test('the OpenAPI document lists the workspace calls', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
  expect(res.statusCode).toBe(200);
  const paths = res.json<{ paths: Record<string, Record<string, { parameters?: Array<{ name: string }> }>> }>().paths;
  expect(paths).toHaveProperty(['/api/v3/spaces/workspace', 'post']);
  expect(paths).toHaveProperty(['/api/v3/spaces/workspace/{id}', 'delete']);
  for (const action of ['members/add', 'member/role', 'members/remove']) expect(paths).toHaveProperty([`/api/v3/spaces/workspace/{id}/${action}`, 'post']);
  expect(paths['/api/v3/spaces/workspace/{id}/members'].get.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['roles', 'cursor', 'limit']));
});
