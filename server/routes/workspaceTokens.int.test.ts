import type { WireWorkspaceToken } from '../../schema/accessToken';
import type { WireBlock } from '../../schema/block';
import type { WireElement } from '../../schema/element';
import type { WireWorkspace } from '../../schema/workspace';
import { actor, joinWorkspace, makeTeamWorkspace, type Actor } from '../../test/helpers/pages';
import { api, createTestApp, errorCode, expectOk, type TestApp } from '../../test/helpers/testApp';

/*
 * Workspace tokens (issue 38, docs/api/auth.md «Workspace tokens») on a real server and the
 * project's database: a token made for one workspace reaches that one only — pages, blocks,
 * workspace calls, lists across workspaces, notifications, the trash — also where a sign-in
 * without it worked something out before (the typing path's caches); a read-only token changes
 * nothing; who may list and remove whose tokens.
 */

let t: TestApp;
let ann: Actor; // admin of her first workspace (A) and of a second one (B)
let bob: Actor; // a participant of A
let out: Actor; // not in A
let B: string;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  ann = await actor(t, 'ann.tokens@example.com');
  bob = await actor(t, 'bob.tokens@example.com');
  out = await actor(t, 'out.tokens@example.com');
  await makeTeamWorkspace(t, ann.workspaceId);
  await joinWorkspace(t, ann.workspaceId, bob.id, 'participant');
  B = expectOk<WireWorkspace>(await api(t, ann.cookie, 'POST', `${S}/workspace`, { name: 'Второе' }), 201).id;
});
afterAll(async () => {
  await t.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const as = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  api(t, undefined, method, url, payload, { ...bearer(token), ...headers });
const makeToken = async (who: Actor, workspaceId: string, body: { name: string; readOnly?: boolean }) =>
  expectOk<WireWorkspaceToken>(await api(t, who.cookie, 'POST', `${S}/workspace/${workspaceId}/tokens`, body), 201);
const pageIn = async (workspaceId: string, title: string) =>
  expectOk<WireElement>(await api(t, ann.cookie, 'POST', `${S}/section/private`, { title }, { 'x-workspace-id': workspaceId }), 201);
const textBlock = async (pageId: string) =>
  expectOk<WireBlock>(await api(t, ann.cookie, 'POST', `${S}/block`, { pageId, type: 'text', data: { tokens: [{ text: 'Привет' }] } }), 201);

test('a workspace token reaches its workspace only: pages, blocks, workspace calls, lists, the trash', async () => {
  const inA = await pageIn(ann.workspaceId, 'В первом');
  const inB = await pageIn(B, 'Во втором');
  const blockB = await textBlock(inB.id);
  const blockA = await textBlock(inA.id);
  const made = await makeToken(ann, ann.workspaceId, { name: 'Скрипт отчётов' });
  expect(made).toMatchObject({ name: 'Скрипт отчётов', readOnly: false, workspaceId: ann.workspaceId, userId: ann.id, token: expect.any(String) });
  const token = made.token!;

  expectOk(await as(token, 'GET', `${S}/element/${inA.id}`));
  expect((await as(token, 'GET', `${S}/element/${inB.id}`)).statusCode).toBe(403);
  expect((await as(token, 'GET', `${S}/block/${blockB.id}`)).statusCode).toBe(403);
  // Workspace calls: the list holds A alone; B's pages are neither listed nor made.
  expect(expectOk<WireWorkspace[]>(await as(token, 'GET', `${S}/workspace`)).map((w) => w.id)).toEqual([ann.workspaceId]);
  expect((await as(token, 'GET', `${S}/section/private`, undefined, { 'x-workspace-id': B })).statusCode).toBe(403);
  expect((await as(token, 'POST', `${S}/section/private`, { title: 'Нельзя' }, { 'x-workspace-id': B })).statusCode).toBe(403);
  expect((await as(token, 'GET', `${S}/workspace/${B}/members`)).statusCode).toBe(403);
  const made2 = await as(token, 'POST', `${S}/workspace`, { name: 'Третье' });
  expect([made2.statusCode, errorCode(made2)]).toEqual([403, 'auth.token_not_allowed']);
  // Writes in A work; in B they do not — also right after ann's session typed there (the typing path's caches).
  expectOk(await api(t, ann.cookie, 'POST', `${S}/block/${blockB.id}`, { version: blockB.version, type: 'text', data: { tokens: [{ text: 'сессия' }] } }));
  const typed = await as(token, 'POST', `${S}/block/${blockB.id}`, { version: blockB.version + 1, type: 'text', data: { tokens: [{ text: 'токен' }] } });
  expect(typed.statusCode).toBe(403);
  expectOk(await as(token, 'POST', `${S}/block/${blockA.id}`, { version: blockA.version, type: 'text', data: { tokens: [{ text: 'токен' }] } }));
  // The trash across workspaces: A's only.
  expectOk(await api(t, ann.cookie, 'DELETE', `${S}/element/${inB.id}`));
  const trash = expectOk<WireElement[]>(await as(token, 'GET', `${S}/trash`));
  expect(trash.map((p) => p.id)).not.toContain(inB.id);
  expect(expectOk<WireElement[]>(await api(t, ann.cookie, 'GET', `${S}/trash`)).map((p) => p.id)).toContain(inB.id);
  // A token makes no tokens and lists none.
  const minted = await as(token, 'POST', `${S}/workspace/${ann.workspaceId}/tokens`, { name: 'ещё' });
  expect([minted.statusCode, errorCode(minted)]).toEqual([403, 'auth.token_not_allowed']);
  expect((await as(token, 'GET', `${S}/workspace/${ann.workspaceId}/tokens`)).statusCode).toBe(403);
  // A sign-in token of accesstoken/get is not limited: the same user's session reaches both still.
  expectOk(await api(t, ann.cookie, 'GET', `${S}/element/${blockA.pageId}`));
});

test('a read-only token reads and changes nothing; it may remove itself', async () => {
  const page = await pageIn(ann.workspaceId, 'Только читать');
  const { token } = await makeToken(ann, ann.workspaceId, { name: 'Чтение', readOnly: true });
  expectOk(await as(token!, 'GET', `${S}/element/${page.id}`));
  expectOk(await as(token!, 'POST', '/api/user/list', { users_id: [ann.id] }));
  for (const [method, url, payload] of [
    ['PATCH', `${S}/element/${page.id}`, { title: 'Изменено' }],
    ['POST', `${S}/block`, { pageId: page.id, type: 'text', data: { tokens: [{ text: 'нет' }] } }],
    ['DELETE', `${S}/element/${page.id}`, undefined],
  ] as const) {
    const refused = await as(token!, method, url, payload);
    expect([refused.statusCode, errorCode(refused)]).toEqual([403, 'auth.token_read_only']);
  }
  expect(expectOk<WireElement>(await api(t, ann.cookie, 'GET', `${S}/element/${page.id}`)).title).toBe('Только читать');
  expectOk(await as(token!, 'POST', '/api/auth/accesstoken/remove'));
  expect((await as(token!, 'GET', `${S}/element/${page.id}`)).statusCode).toBe(401);
});

test('members list and remove their own tokens, admins everyone’s; outsiders none; a member who leaves takes their tokens along', async () => {
  const bobs = await makeToken(bob, ann.workspaceId, { name: 'Бот Боба' });
  const anns = await makeToken(ann, ann.workspaceId, { name: 'Бот Анны' });
  const listed = (who: Actor) => api(t, who.cookie, 'GET', `${S}/workspace/${ann.workspaceId}/tokens`);
  const bobSees = expectOk<WireWorkspaceToken[]>(await listed(bob));
  expect(bobSees.map((x) => x.name)).toEqual(['Бот Боба']);
  for (const row of bobSees) expect(row).not.toHaveProperty('token');
  expect(expectOk<WireWorkspaceToken[]>(await listed(ann)).map((x) => x.name)).toEqual(expect.arrayContaining(['Бот Боба', 'Бот Анны']));
  expect((await listed(out)).statusCode).toBe(403);
  expect((await api(t, out.cookie, 'POST', `${S}/workspace/${ann.workspaceId}/tokens`, { name: 'чужой' })).statusCode).toBe(403);
  // Bob cannot remove Ann's (as if it were not there); the admin removes Bob's.
  expect((await api(t, bob.cookie, 'DELETE', `${S}/workspace/${ann.workspaceId}/tokens/${anns.id}`)).statusCode).toBe(404);
  const shared = await pageIn(ann.workspaceId, 'Общая');
  expectOk(await api(t, ann.cookie, 'POST', `${S}/element/${shared.id}/member/add`, [{ userId: bob.id, accessLevel: 'read' }]));
  expectOk(await as(bobs.token!, 'GET', `${S}/element/${shared.id}`));
  expectOk(await api(t, ann.cookie, 'DELETE', `${S}/workspace/${ann.workspaceId}/tokens/${bobs.id}`));
  expect((await as(bobs.token!, 'GET', `${S}/element/${shared.id}`)).statusCode).toBe(401);
  // A new token of Bob's, then Bob leaves A: the token reaches nothing there.
  const again = await makeToken(bob, ann.workspaceId, { name: 'Снова' });
  expectOk(await as(again.token!, 'GET', `${S}/element/${shared.id}`));
  expectOk(await api(t, ann.cookie, 'POST', `${S}/workspace/${ann.workspaceId}/members/remove`, { userId: bob.id }));
  expect((await as(again.token!, 'GET', `${S}/element/${shared.id}`)).statusCode).toBe(401);
  expect(expectOk<WireWorkspaceToken[]>(await listed(ann)).map((x) => x.name)).not.toContain('Снова');
  // Bad input: no name.
  const nameless = await api(t, ann.cookie, 'POST', `${S}/workspace/${ann.workspaceId}/tokens`, { name: '  ' });
  expect([nameless.statusCode, errorCode(nameless)]).toEqual([422, 'validation_failed']);
});

test('a workspace token makes no account calls, sees no people of other workspaces, and reaches no export of another workspace', async () => {
  const cy = await actor(t, 'cy.tokens@example.com');
  const dee = await actor(t, 'dee.tokens@example.com');
  await joinWorkspace(t, B, cy.id, 'participant'); // cy shares only B with ann
  await joinWorkspace(t, ann.workspaceId, dee.id, 'participant'); // dee shares A
  const { token } = await makeToken(ann, ann.workspaceId, { name: 'Интеграция' });
  // People: dee (in A) is seen; cy (only in B) is not, by id or by e-mail.
  const seen = expectOk<Array<{ id: string; anonymous: boolean }>>(await as(token!, 'POST', '/api/user/list', { users_id: [dee.id, cy.id] }));
  expect(seen.filter((u) => !u.anonymous).map((u) => u.id)).toEqual([dee.id]);
  expect(expectOk<Array<{ id: string; anonymous: boolean }>>(await api(t, ann.cookie, 'POST', '/api/user/list', { users_id: [cy.id] }))[0].anonymous).toBe(
    false,
  );
  expect((await as(token!, 'GET', `/api/user/${encodeURIComponent(cy.email)}`)).statusCode).not.toBe(200);
  // The account's own calls.
  for (const [method, url, payload] of [
    ['POST', '/api/user', { name: 'Токен' }],
    ['POST', '/api/user/settings', { key: 'theme', value: 'dark' }],
    ['GET', '/api/user/telegram/code', undefined],
    ['POST', '/api/auth/register', { email: 'new.tokens@example.com' }],
  ] as const) {
    const refused = await as(token!, method, url, payload);
    expect([url, refused.statusCode, errorCode(refused)]).toEqual([url, 403, 'auth.token_not_allowed']);
  }
  // Exports: none started by the token; B's export made by the session is not the token's to list, follow or fetch.
  const started = await as(token!, 'POST', `${S}/exports`, { workspaceId: ann.workspaceId, format: 'markdown' });
  expect([started.statusCode, errorCode(started)]).toEqual([403, 'auth.token_not_allowed']);
  const job = expectOk<{ id: string }>(await api(t, ann.cookie, 'POST', `${S}/exports`, { workspaceId: B, format: 'markdown' }), 202);
  expect((await as(token!, 'GET', `${S}/exports?workspaceId=${B}`)).statusCode).toBe(403);
  expect((await as(token!, 'GET', `${S}/exports/${job.id}`)).statusCode).toBe(404);
  expect((await as(token!, 'GET', `${S}/exports/${job.id}/download`)).statusCode).toBe(404);
  expectOk(await api(t, ann.cookie, 'GET', `${S}/exports/${job.id}`));
});
