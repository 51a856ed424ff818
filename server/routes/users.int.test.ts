import type { UploadUrlAnswer } from '../../schema/file';
import { newId } from '../../schema/ids';
import { USER_SETTINGS, type UserSettings, type WireUser } from '../../schema/user';
import { hashSecret } from '../auth/tokens';
import { ACTORS, addMember, createTeam, type Actor, type Team } from '../../test/helpers/team';
import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
let team: Team;

beforeAll(async () => {
  // A Bot API that is not there (a closed local port): the bot's name is unknown, nothing goes out.
  t = await createTestApp({ telegramBotToken: '123:test-bot-token', telegramApiUrl: 'http://127.0.0.1:9' });
  team = await createTeam(t);
  await t.app.db.updateTable('users').set({ telegram_id: '555' }).where('id', '=', team.userId.participant).execute();
});
afterAll(async () => {
  await t.close();
});

const userRow = (id: string) => t.app.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Uploads a file as `cookie` and answers its id. */
async function upload(cookie: string, file: { name: string; type: string; content: Buffer }, extra: Record<string, unknown>): Promise<string> {
  const asked = body<UploadUrlAnswer>(
    await api(t, cookie, 'POST', '/api/file/upload_url', { name: file.name, mimeType: file.type, size: file.content.length, ...extra }),
  ).data;
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file.content)], { type: file.type }), file.name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  const res = await t.app.inject({
    method: 'POST',
    url: asked.uploadUrl,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') as string },
  });
  expect(res.statusCode).toBe(204);
  return asked.id;
}

describe('POST /api/user/list', () => {
  // Who each caller may see among the team: themselves and people who share a workspace.
  const sees = (caller: Actor, target: Actor) => caller !== 'anonymous' && (caller === target || (caller !== 'outsider' && target !== 'outsider'));

  test.each(ACTORS.map((a) => [a]))('%s sees workspace mates; everyone else is an anonymous placeholder', async (caller) => {
    const targets = ACTORS.filter((a): a is Exclude<Actor, 'anonymous'> => a !== 'anonymous');
    const unknown = newId();
    const ids = [...targets.map((a) => team.userId[a]), unknown];
    const res = await api(t, team.cookie[caller], 'POST', '/api/user/list', { users_id: ids });
    expect(res.statusCode).toBe(200);
    const users = body<WireUser[]>(res).data;
    expect(users.map((u) => u.id)).toEqual(ids);
    expect(body(res).meta).toEqual({ count: ids.length, hasMoreNext: false });
    targets.forEach((target, i) => {
      if (sees(caller, target)) {
        expect(users[i]).toMatchObject({ anonymous: false, email: `${target}@team.example`, name: target });
        // The messenger link is shown to its owner only.
        expect(users[i].telegramId).toBe(caller === 'participant' && target === 'participant' ? '555' : null);
      } else {
        expect(users[i]).toEqual({ id: team.userId[target], email: '', name: '', avatar_url: null, anonymous: true, telegramId: null, createdAt: '' });
      }
    });
    expect(users[ids.length - 1]).toMatchObject({ id: unknown, anonymous: true, name: '' });
  });

  test('duplicates are answered once, in first-seen order; an empty list is fine', async () => {
    const { admin, participant } = team.userId;
    const res = await api(t, team.cookie.admin, 'POST', '/api/user/list', { users_id: [participant, admin, participant] });
    expect(body<WireUser[]>(res).data.map((u) => u.id)).toEqual([participant, admin]);
    const empty = await api(t, team.cookie.admin, 'POST', '/api/user/list', { users_id: [] });
    expect(body<WireUser[]>(empty).data).toEqual([]);
  });

  test.each([
    [{}],
    [{ users_id: 'abc' }],
    [{ users_id: [1] }],
    [{ users_id: [''] }],
    [{ users_id: [], extra: 1 }],
    [{ users_id: Array.from({ length: 501 }, () => newId()) }],
  ])('a bad body %# → 422', async (payload) => {
    const res = await api(t, team.cookie.admin, 'POST', '/api/user/list', payload);
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
  });
});

describe('GET /api/user/{email}', () => {
  const found: Record<Actor, number> = { admin: 200, participant: 200, reader: 200, guest: 200, outsider: 404, anonymous: 401 };

  test.each(ACTORS.map((a) => [a]))('%s looking up a team member', async (caller) => {
    const res = await api(t, team.cookie[caller], 'GET', `/api/user/${encodeURIComponent('Participant@Team.example')}`);
    expect(res.statusCode).toBe(found[caller]);
    if (res.statusCode === 200) {
      expect(body<WireUser>(res).data).toMatchObject({
        id: team.userId.participant,
        email: 'participant@team.example',
        telegramId: caller === 'participant' ? '555' : null,
      });
    } else expect(res.body).not.toContain(team.userId.participant);
  });

  test('someone in no shared workspace, nobody, and a non-e-mail are all 404', async () => {
    for (const email of ['outsider@team.example', 'nobody@team.example', 'not-an-email']) {
      const res = await api(t, team.cookie.admin, 'GET', `/api/user/${encodeURIComponent(email)}`);
      expect([res.statusCode, errorCode(res)]).toEqual([404, 'not_found']);
    }
    const self = await api(t, team.cookie.outsider, 'GET', '/api/user/outsider@team.example');
    expect(body<WireUser>(self).data.id).toBe(team.userId.outsider);
  });
});

describe('POST /api/user', () => {
  test('changes your own name and avatar', async () => {
    const cookie = await signIn(t, 'nina@example.com');
    const me = body<WireUser>(await api(t, cookie, 'GET', '/api/user/current')).data;
    const res = await api(t, cookie, 'POST', '/api/user', { id: me.id, name: '  Нина  ', avatar_url: 'https://img.example.com/nina.png' });
    expect(res.statusCode).toBe(200);
    expect(body<WireUser>(res).data).toMatchObject({ id: me.id, name: 'Нина', avatar_url: 'https://img.example.com/nina.png' });
    expect(body<WireUser>(await api(t, cookie, 'GET', '/api/user/current')).data.name).toBe('Нина');

    const cleared = await api(t, cookie, 'POST', '/api/user', { id: me.id, avatar_url: null });
    expect(body<WireUser>(cleared).data).toMatchObject({ name: 'Нина', avatar_url: null });
  });

  test('an avatar may be your own public upload on this server', async () => {
    const own = await upload(team.cookie.reader as string, { name: 'me.png', type: 'image/png', content: PNG }, { public: true });
    const res = await api(t, team.cookie.reader, 'POST', '/api/user', { id: team.userId.reader, name: 'reader', avatar_url: `/api/file/${own}` });
    expect(res.statusCode).toBe(200);
    expect(body<WireUser>(res).data.avatar_url).toBe(`/api/file/${own}`);
    const absolute = await api(t, team.cookie.reader, 'POST', '/api/user', { id: team.userId.reader, avatar_url: `${t.config.publicUrl}/api/file/${own}` });
    expect(absolute.statusCode).toBe(200);
  });

  test('refused avatars: other schemes, someone else’s upload, a page file, a missing file → 422, nothing changed', async () => {
    const theirs = await upload(team.cookie.admin as string, { name: 'a.png', type: 'image/png', content: PNG }, { public: true });
    const pageFile = await upload(team.cookie.guest as string, { name: 'a.png', type: 'image/png', content: PNG }, {});
    const before = await userRow(team.userId.guest);
    for (const avatar of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'ftp://x.example/a.png',
      '/etc/passwd',
      `/api/file/${theirs}`,
      `/api/file/${pageFile}`,
      `/api/file/${newId()}`,
    ]) {
      const res = await api(t, team.cookie.guest, 'POST', '/api/user', { id: team.userId.guest, avatar_url: avatar });
      expect([avatar, res.statusCode, errorCode(res)]).toEqual([avatar, 422, 'validation_failed']);
    }
    expect(await userRow(team.userId.guest)).toEqual(before);
  });

  const change: Record<Exclude<Actor, 'admin'>, number> = { participant: 403, reader: 403, guest: 403, outsider: 403, anonymous: 401 };
  test.each(ACTORS.filter((a) => a !== 'admin').map((a) => [a]))('%s cannot change another user (the team admin)', async (caller) => {
    const before = await userRow(team.userId.admin);
    const res = await api(t, team.cookie[caller], 'POST', '/api/user', { id: team.userId.admin, name: 'hijacked', avatar_url: 'https://evil.example/x.png' });
    expect(res.statusCode).toBe(change[caller as keyof typeof change]);
    expect(await userRow(team.userId.admin)).toEqual(before);
  });

  // `me` stands for the caller's own id.
  test.each<[Record<string, unknown>]>([
    [{ name: 'x' }],
    [{ id: 'me', name: '' }],
    [{ id: 'me', name: 'x', email: 'new@example.com' }],
    [{ id: 'me', telegramId: '1' }],
    [{ id: 'me', name: 'x'.repeat(201) }],
  ])('a bad body %# → 422, nothing changed', async (payload) => {
    const before = await userRow(team.userId.admin);
    const res = await api(t, team.cookie.admin, 'POST', '/api/user', { ...payload, ...(payload.id === 'me' ? { id: team.userId.admin } : {}) });
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    expect(await userRow(team.userId.admin)).toEqual(before);
  });
});

describe('settings', () => {
  test('defaults for every known key, then one key at a time', async () => {
    const cookie = await signIn(t, 'sam@example.com');
    const defaults = body<UserSettings>(await api(t, cookie, 'GET', '/api/user/settings')).data;
    expect(defaults).toEqual(Object.fromEntries(Object.entries(USER_SETTINGS).map(([k, v]) => [k, v.default])));
    expect(defaults).toMatchObject({ theme: 'auto', inboxWidth: 400, treeWidth: 300, commentsWidth: 400, inboxPinned: false, messengerBanner: true });

    const set = await api(t, cookie, 'POST', '/api/user/settings', { key: 'theme', value: 'dark' });
    expect(set.statusCode).toBe(200);
    expect(body(set).data).toEqual({ status: 'success' });
    await api(t, cookie, 'POST', '/api/user/settings', { key: 'treeSections', value: { favorite: false, all: true, shared: true, private: false } });
    await api(t, cookie, 'POST', '/api/user/settings', { key: 'theme', value: 'light' });
    const after = body<UserSettings>(await api(t, cookie, 'GET', '/api/user/settings')).data;
    expect(after).toEqual({ ...defaults, theme: 'light', treeSections: { favorite: false, all: true, shared: true, private: false } });
    // Settings are per user.
    expect(body<UserSettings>(await api(t, team.cookie.admin, 'GET', '/api/user/settings')).data.theme).toBe('auto');
  });

  test('unknown keys (also prototype names) → 422 user.unknown_setting; bad values → 422 validation_failed; nothing stored', async () => {
    const cookie = await signIn(t, 'kim@example.com');
    for (const key of ['font', '__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const res = await api(t, cookie, 'POST', '/api/user/settings', { key, value: 'x' });
      expect([key, res.statusCode, errorCode(res)]).toEqual([key, 422, 'user.unknown_setting']);
    }
    const badValues: [string, unknown][] = [
      ['theme', 'sepia'],
      ['theme', undefined],
      ['inboxWidth', 5],
      ['inboxWidth', '400'],
      ['inboxPinned', 'yes'],
      ['wizardOffered', 'yes'],
      ['activeWorkspace', ['x']],
      ['recentColors', ['red']],
      ['treeSections', { favorite: true }],
      ['treeSections', { favorite: true, all: true, shared: true, private: true, extra: true }],
    ];
    for (const [key, value] of badValues) {
      const res = await api(t, cookie, 'POST', '/api/user/settings', { key, value });
      expect([key, res.statusCode, errorCode(res)]).toEqual([key, 422, 'validation_failed']);
    }
    const polluted = await t.app.inject({
      method: 'POST',
      url: '/api/user/settings',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{"key":"treeSections","value":{"favorite":true,"all":true,"shared":true,"private":true,"__proto__":{"x":1}}}',
    });
    expect(polluted.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    const rows = await t.app.db
      .selectFrom('user_settings as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select('s.key')
      .where('u.email', '=', 'kim@example.com')
      .execute();
    expect(rows).toEqual([]);
  });

  test('activeWorkspace: only a workspace of yours is stored, and read back only while you are in it', async () => {
    const cookie = await signIn(t, 'lee@example.com');
    const me = body<WireUser>(await api(t, cookie, 'GET', '/api/user/current')).data;
    const read = async () => body<UserSettings>(await api(t, cookie, 'GET', '/api/user/settings')).data.activeWorkspace;
    expect(await read()).toBeNull();
    // Someone else's workspace, a made-up id, a number: refused, nothing stored.
    for (const value of [team.workspaceId, newId(), 42, '']) {
      const res = await api(t, cookie, 'POST', '/api/user/settings', { key: 'activeWorkspace', value });
      expect([value, res.statusCode, errorCode(res)]).toEqual([value, 422, 'validation_failed']);
    }
    expect(await read()).toBeNull();
    // Made a member: stored and read back.
    await addMember(t, team.workspaceId, me.id, 'participant');
    expect((await api(t, cookie, 'POST', '/api/user/settings', { key: 'activeWorkspace', value: team.workspaceId })).statusCode).toBe(200);
    expect(await read()).toBe(team.workspaceId);
    // Removed from it: read back as null (the app falls back to the first workspace); the row stays.
    expect((await api(t, team.cookie.admin, 'POST', `/api/v3/spaces/workspace/${team.workspaceId}/members/remove`, { userId: me.id })).statusCode).toBe(200);
    expect(await read()).toBeNull();
    // null is always fine.
    expect((await api(t, cookie, 'POST', '/api/user/settings', { key: 'activeWorkspace', value: null })).statusCode).toBe(200);
    expect(await read()).toBeNull();
  });

  test('anonymous → 401 for both', async () => {
    expect((await api(t, undefined, 'GET', '/api/user/settings')).statusCode).toBe(401);
    expect((await api(t, undefined, 'POST', '/api/user/settings', { key: 'theme', value: 'dark' })).statusCode).toBe(401);
  });
});

describe('GET /api/user/telegram/code', () => {
  test('a one-time token, stored hashed, expiring', async () => {
    const res = await api(t, team.cookie.reader, 'GET', '/api/user/telegram/code');
    expect(res.statusCode).toBe(200);
    const { token, expiresAt, link } = body<{ token: string; expiresAt: string; link: string | null }>(res).data;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The bot's name could not be asked (telegram.int.test.ts has the deep link): the code comes without one.
    expect(link).toBeNull();
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    const row = await t.app.db.selectFrom('messenger_link_tokens').selectAll().where('id', '=', hashSecret(token)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: team.userId.reader, used_at: null, expires_at: expiresAt });
    const second = body<{ token: string }>(await api(t, team.cookie.reader, 'GET', '/api/user/telegram/code')).data.token;
    expect(second).not.toBe(token);
  });

  test('anonymous → 401; without a bot → 404 messenger.disabled', async () => {
    expect((await api(t, undefined, 'GET', '/api/user/telegram/code')).statusCode).toBe(401);
    const plain = await createTestApp();
    try {
      const cookie = await signIn(plain, 'ann@example.com');
      const res = await api(plain, cookie, 'GET', '/api/user/telegram/code');
      expect([res.statusCode, errorCode(res)]).toEqual([404, 'messenger.disabled']);
    } finally {
      await plain.close();
    }
  });
});

test('every user, auth, file and feedback call is in the OpenAPI document; the webhook is not', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
  expect(res.statusCode).toBe(200);
  const paths = res.json<{ paths: Record<string, Record<string, unknown>> }>().paths;
  const methods = (path: string) => Object.keys(paths[path] ?? {}).sort();
  expect(methods('/api/user/list')).toEqual(['post']);
  expect(methods('/api/user/current')).toEqual(['get']);
  expect(methods('/api/user/{email}')).toEqual(['get']);
  expect(methods('/api/user')).toEqual(['post']);
  expect(methods('/api/user/settings')).toEqual(['get', 'post']);
  expect(methods('/api/user/telegram/code')).toEqual(['get']);
  expect(methods('/api/auth/oauth')).toEqual(['get', 'post']);
  expect(methods('/api/config')).toEqual(['get']);
  for (const path of [
    '/api/auth/accesstoken/get',
    '/api/auth/accesstoken/remove',
    '/api/auth/register',
    '/api/auth/oauth/code',
    '/api/email/hello',
    '/api/file/upload_url',
    '/api/file/upload/{id}',
    '/api/file/page',
  ]) {
    expect([path, methods(path)]).toEqual([path, ['post']]);
  }
  expect(methods('/api/file/get/{id}')).toEqual(['get']);
  // A file's bytes: HEAD too (docs/api/files.md «Ranges»).
  for (const path of ['/api/file/{id}', '/api/file/protected/{pageId}/{fileId}']) {
    expect([path, methods(path)]).toEqual([path, ['get', 'head']]);
  }
  expect(Object.keys(paths).filter((p) => p.includes('telegram/webhook'))).toEqual([]);
});

describe('the messenger link is shown to its owner only, wherever a user appears', () => {
  test('workspace member lists, page member lists and comment authors hide telegramId of others', async () => {
    const admin = team.cookie.admin;
    const participantId = team.userId.participant;
    const members = body<{ user: WireUser }[]>(await api(t, admin, 'GET', `/api/v3/spaces/workspace/${team.workspaceId}/members`)).data;
    const participant = members.find((m) => m.user.id === participantId);
    expect(participant?.user.telegramId).toBeNull();

    // The team page: the participant comments on it (edit access), the admin reads it (full).
    const page = team.pageId;
    await t.app.db
      .insertInto('page_members')
      .values({ page_id: page, user_id: participantId, level: 'edit', created_at: new Date().toISOString() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    expect(
      (await api(t, team.cookie.participant, 'POST', `/api/v3/spaces/element/${page}/comments`, { content: [{ text: 'привет' }], attaches: [] })).statusCode,
    ).toBe(201);
    const comments = body<{ author: WireUser }[]>(await api(t, admin, 'GET', `/api/v3/spaces/element/${page}/comments`)).data;
    expect(comments[0].author.id).toBe(participantId);
    expect(comments[0].author.telegramId).toBeNull();
    const pageMembers = body<{ user: WireUser }[]>(await api(t, team.cookie.participant, 'GET', `/api/v3/spaces/element/${page}/members`)).data;
    expect(pageMembers.length).toBeGreaterThan(0);
    for (const member of pageMembers) if (member.user.id !== participantId) expect(member.user.telegramId).toBeNull();

    // The owner still sees their own.
    expect(body<WireUser>(await api(t, team.cookie.participant, 'GET', '/api/user/current')).data.telegramId).toBe('555');
  });
});
