import crypto from 'node:crypto';
import type { WireElement } from '../../schema/element';
import type { SkippedMember, WireElementMember } from '../../schema/sharing';
import { actor, createPage, expectStatus, getPage, ids, joinWorkspace, makeTeamWorkspace, share, snapshot, type Actor } from '../../test/helpers/pages';
import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';

let t: TestApp;
let seq = 0;

beforeAll(async () => {
  // Many people sign in from one test address.
  t = await createTestApp({ sendCodeLimitPerIp: 10_000, publicUrl: 'https://docs.example.org/' });
});
afterAll(async () => {
  await t.close();
});

const el = (id: string, rest = '') => `/api/v3/spaces/element/${id}${rest}`;
const add = (who: Actor | null, pageId: string, entries: unknown) => api(t, who?.cookie, 'POST', el(pageId, '/member/add'), entries);
const members = async (who: Actor, pageId: string) =>
  body<WireElementMember[]>(expectStatus(await api(t, who.cookie, 'GET', el(pageId, '/members')), 200)).data;

/** An owner with a team workspace, a participant in it, and an outsider. */
async function people() {
  const n = ++seq;
  const owner = await actor(t, `owner${n}@example.com`);
  await makeTeamWorkspace(t, owner.workspaceId);
  const participant = await actor(t, `participant${n}@example.com`);
  await joinWorkspace(t, owner.workspaceId, participant.id, 'participant');
  const outsider = await actor(t, `outsider${n}@example.com`);
  return { n, owner, participant, outsider };
}

describe('member/add', () => {
  test('inviting an unknown e-mail makes an account, a guest membership, a grant, a notification and an e-mail', async () => {
    const { n, owner } = await people();
    const page = await createPage(t, owner, { title: 'Roadmap' });
    const email = `newcomer${n}@example.com`;
    const res = expectStatus(await add(owner, page.id, [{ email: `  ${email.toUpperCase()} `, accessLevel: 'edit' }]), 200);
    const user = await t.app.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(body(res).meta).toMatchObject({ added: [user.id], skipped: [], notMailed: [] });
    const list = body<WireElementMember[]>(res).data;
    expect(list.find((m) => m.member === user.id)).toEqual({
      contentType: 'ElementMember',
      page: page.id,
      member: user.id,
      level: 'edit',
      canEdit: true,
      canShare: false,
      inherited: false,
      grantedOn: page.id,
      user: { id: user.id, email, name: `newcomer${n}`, avatar_url: null, anonymous: false, telegramId: null, createdAt: user.created_at },
    });
    const membership = await t.app.db.selectFrom('workspace_members').selectAll().where('user_id', '=', user.id).where('workspace_id', '=', owner.workspaceId).executeTakeFirst();
    expect(membership?.role).toBe('guest');
    const notes = await t.app.db.selectFrom('notifications').selectAll().where('user_id', '=', user.id).execute();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ name: 'element_members.invite.member', page_id: page.id, workspace_id: owner.workspaceId, is_read: 0 });
    expect(JSON.parse(notes[0].context)).toEqual({ elementId: page.id, senderId: owner.id });
    const mail = t.mailer.messages.filter((m) => m.to === email);
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toContain('Roadmap');
    expect(mail[0].text).toContain(`https://docs.example.org/${page.id}`);

    // The newcomer signs in and finds the page under "shared" of the owner's workspace.
    const cookie = await signIn(t, email);
    const headers = { 'x-workspace-id': owner.workspaceId };
    expect(ids(await api(t, cookie, 'GET', '/api/v3/spaces/section/shared', undefined, headers))).toEqual([page.id]);
    const loaded = body<WireElement>(expectStatus(await api(t, cookie, 'GET', el(page.id)), 200)).data;
    expect(loaded.accessLevel).toBe('edit');
  });

  test('an existing user by e-mail becomes a guest and is notified; a member by id keeps their role', async () => {
    const { owner, participant, outsider } = await people();
    const page = await createPage(t, owner);
    const mailsBefore = t.mailer.messages.length;
    const res = expectStatus(await add(owner, page.id, [{ email: outsider.email, accessLevel: 'read' }, { userId: participant.id, accessLevel: 'full' }]), 200);
    expect((body(res).meta.added as string[]).sort()).toEqual([outsider.id, participant.id].sort());
    const roles = await t.app.db.selectFrom('workspace_members').select(['user_id', 'role']).where('workspace_id', '=', owner.workspaceId).execute();
    expect(roles.find((r) => r.user_id === outsider.id)?.role).toBe('guest');
    expect(roles.find((r) => r.user_id === participant.id)?.role).toBe('participant');
    expect((await getPage(t, outsider, page.id)).accessLevel).toBe('read');
    expect((await getPage(t, participant, page.id)).accessLevel).toBe('full');
    // Accounts that exist get the in-app notification only.
    expect(t.mailer.messages.length).toBe(mailsBefore);
    for (const user of [outsider, participant]) {
      const notes = await t.app.db.selectFrom('notifications').select('name').where('user_id', '=', user.id).where('page_id', '=', page.id).execute();
      expect(notes).toEqual([{ name: 'element_members.invite.member' }]);
    }
    // Adding again changes the level, without a second notification.
    const again = expectStatus(await add(owner, page.id, [{ userId: outsider.id, accessLevel: 'edit' }]), 200);
    expect(body(again).meta.added).toEqual([]);
    expect((await getPage(t, outsider, page.id)).accessLevel).toBe('edit');
    expect(await t.app.db.selectFrom('notifications').select('id').where('user_id', '=', outsider.id).where('page_id', '=', page.id).execute()).toHaveLength(1);
  });

  test('bad e-mails, the caller and the creator are skipped (meta.skipped); the rest is shared', async () => {
    const { n, owner, participant } = await people();
    const page = await createPage(t, owner);
    await share(t, owner, page.id, [{ userId: participant.id, accessLevel: 'full' }]);
    const good = `good${n}@example.com`;
    const res = expectStatus(await add(participant, page.id, [
      { email: 'not-an-email', accessLevel: 'read' },
      { email: 'two@@example.com', accessLevel: 'read' },
      { email: 'white space@example.com' },
      { email: good },
      { userId: participant.id, accessLevel: 'read' },
      { email: owner.email, accessLevel: 'read' },
    ]), 200);
    const skipped = body(res).meta.skipped as SkippedMember[];
    expect(skipped).toEqual([
      { email: 'not-an-email', reason: 'invalid_email' },
      { email: 'two@@example.com', reason: 'invalid_email' },
      { email: 'white space@example.com', reason: 'invalid_email' },
      { userId: participant.id, reason: 'self' },
      { email: owner.email, reason: 'owner' },
    ]);
    const list = body<WireElementMember[]>(res).data;
    expect(list.find((m) => m.user.email === good)?.level).toBe('read');
    expect(list.find((m) => m.member === owner.id)?.level).toBe('full');
    expect(list.find((m) => m.member === participant.id)?.level).toBe('full');
    expect(await t.app.db.selectFrom('users').select('id').where('email', 'in', ['not-an-email', 'two@@example.com']).execute()).toEqual([]);
  });

  test.each([
    ['an unknown user id', 'unknown'],
    ['a user id of someone outside the workspace', 'outside'],
  ])('%s → 404 and nothing of the batch is applied', async (_what, kind) => {
    const { n, owner, outsider } = await people();
    const page = await createPage(t, owner);
    const userId = kind === 'unknown' ? crypto.randomUUID() : outsider.id;
    const before = await snapshot(t);
    const res = await add(owner, page.id, [{ email: `would-be${n}@example.com`, accessLevel: 'read' }, { userId, accessLevel: 'read' }]);
    expect([res.statusCode, errorCode(res)]).toEqual([404, 'not_found']);
    expect(await snapshot(t)).toEqual(before);
  });

  test.each([
    ['an object, not a list', { userId: 'x', accessLevel: 'read' }],
    ['an empty list', []],
    ['both userId and email', [{ userId: 'x', email: 'a@b.co', accessLevel: 'read' }]],
    ['neither userId nor email', [{ accessLevel: 'read' }]],
    ['level none', [{ email: 'a@b.co', accessLevel: 'none' }]],
    ['an unknown level', [{ email: 'a@b.co', accessLevel: 'owner' }]],
    ['an unknown field', [{ email: 'a@b.co', accessLevel: 'read', role: 'admin' }]],
    ['over 100 entries', Array.from({ length: 101 }, (_, i) => ({ email: `p${i}@example.com` }))],
    ['an e-mail of 1000 characters', [{ email: `${'a'.repeat(990)}@example.com` }]],
  ])('%s → 422, nothing changes', async (_what, payload) => {
    const { owner } = await people();
    const page = await createPage(t, owner);
    const before = await snapshot(t);
    const res = await add(owner, page.id, payload);
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    expect(await snapshot(t)).toEqual(before);
  });

  test('JSON with __proto__ keys is refused and pollutes nothing', async () => {
    const { owner } = await people();
    const page = await createPage(t, owner);
    const res = await t.app.inject({
      method: 'POST',
      url: el(page.id, '/member/add'),
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      payload: '[{"email":"p@example.com","__proto__":{"accessLevel":"full","polluted":true}}]',
    });
    expect([400, 422]).toContain(res.statusCode);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('a failed invitation e-mail does not undo the share; it is reported in meta.notMailed', async () => {
    const { n, owner } = await people();
    const page = await createPage(t, owner);
    const send = t.mailer.send;
    t.mailer.send = async () => {
      throw new Error('smtp down');
    };
    try {
      const email = `unlucky${n}@example.com`;
      const res = expectStatus(await add(owner, page.id, [{ email }]), 200);
      expect(body(res).meta.notMailed).toEqual([email]);
      expect(body<WireElementMember[]>(res).data.map((m) => m.user.email)).toContain(email);
    } finally {
      t.mailer.send = send;
    }
  });

  test('a page in the trash cannot be shared (409)', async () => {
    const { owner, participant } = await people();
    const page = await createPage(t, owner);
    expectStatus(await api(t, owner.cookie, 'DELETE', el(page.id)), 200);
    const before = await snapshot(t);
    const res = await add(owner, page.id, [{ userId: participant.id }]);
    expect([res.statusCode, errorCode(res)]).toEqual([409, 'page.in_trash']);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('members, member/access, member/remove', () => {
  test('grants on ancestors are listed as inherited; the nearest grant wins', async () => {
    const { owner, participant, outsider } = await people();
    const P = await createPage(t, owner, { title: 'P' });
    const C = await createPage(t, owner, { parentId: P.id, title: 'C' });
    await share(t, owner, P.id, [{ userId: participant.id, accessLevel: 'read' }, { email: outsider.email, accessLevel: 'edit' }]);
    await share(t, owner, C.id, [{ userId: participant.id, accessLevel: 'full' }]);
    const list = await members(outsider, C.id);
    const byUser = new Map(list.map((m) => [m.member, m]));
    expect(byUser.get(owner.id)).toMatchObject({ level: 'full', inherited: true, grantedOn: P.id, canShare: true });
    expect(byUser.get(outsider.id)).toMatchObject({ level: 'edit', inherited: true, grantedOn: P.id, canEdit: true, canShare: false });
    expect(byUser.get(participant.id)).toMatchObject({ level: 'full', inherited: false, grantedOn: C.id });
    expect(list.every((m) => m.page === C.id)).toBe(true);
    expect((await members(owner, P.id)).find((m) => m.member === participant.id)?.level).toBe('read');
    const missing = await api(t, owner.cookie, 'GET', el(crypto.randomUUID(), '/members'));
    expect([missing.statusCode, errorCode(missing)]).toEqual([404, 'not_found']);
  });

  test('change a level and remove a member; the creator and inherited grants are not changed here', async () => {
    const { owner, participant, outsider } = await people();
    const P = await createPage(t, owner);
    const C = await createPage(t, owner, { parentId: P.id });
    await share(t, owner, P.id, [{ email: outsider.email, accessLevel: 'read' }, { userId: participant.id, accessLevel: 'full' }]);
    const access = (who: Actor, pageId: string, payload: unknown) => api(t, who.cookie, 'POST', el(pageId, '/member/access'), payload);
    const remove = (who: Actor, pageId: string, payload: unknown) => api(t, who.cookie, 'POST', el(pageId, '/member/remove'), payload);

    const changed = expectStatus(await access(participant, P.id, { userId: outsider.id, accessLevel: 'edit' }), 200);
    expect(body<WireElementMember[]>(changed).data.find((m) => m.member === outsider.id)?.level).toBe('edit');
    expect((await getPage(t, outsider, C.id)).accessLevel).toBe('edit');

    for (const [call, status, code] of [
      [() => access(participant, P.id, { userId: owner.id, accessLevel: 'read' }), 403, 'forbidden'],
      [() => remove(participant, P.id, { userId: owner.id }), 403, 'forbidden'],
      [() => remove(owner, P.id, { userId: owner.id }), 403, 'forbidden'],
      [() => access(owner, C.id, { userId: outsider.id, accessLevel: 'read' }), 404, 'not_found'],
      [() => remove(owner, C.id, { userId: outsider.id }), 404, 'not_found'],
      [() => remove(owner, P.id, { userId: crypto.randomUUID() }), 404, 'not_found'],
      [() => access(owner, P.id, { userId: outsider.id, accessLevel: 'none' }), 422, 'validation_failed'],
      [() => access(owner, P.id, { userId: outsider.id }), 422, 'validation_failed'],
      [() => remove(owner, P.id, {}), 422, 'validation_failed'],
      [() => remove(owner, P.id, { userId: outsider.id, extra: true }), 422, 'validation_failed'],
    ] as const) {
      const before = await snapshot(t);
      const res = await call();
      expect([res.statusCode, errorCode(res)]).toEqual([status, code]);
      expect(await snapshot(t)).toEqual(before);
    }

    const removed = expectStatus(await remove(owner, P.id, { userId: outsider.id }), 200);
    expect(body<WireElementMember[]>(removed).data.map((m) => m.member)).not.toContain(outsider.id);
    expect((await api(t, outsider.cookie, 'GET', el(C.id))).statusCode).toBe(403);
    expect(ids(await api(t, outsider.cookie, 'GET', '/api/v3/spaces/section/shared', undefined, { 'x-workspace-id': owner.workspaceId }))).toEqual([]);
    // A full member may leave.
    expectStatus(await remove(participant, P.id, { userId: participant.id }), 200);
    expect((await api(t, participant.cookie, 'GET', el(P.id))).statusCode).toBe(403);
  });
});

describe('permissions: page access level × sharing operation', () => {
  type Level = 'none' | 'read' | 'edit' | 'full';
  const RANK: Record<Level, number> = { none: 0, read: 1, edit: 2, full: 3 };
  let owner: Actor;
  let holders: Record<'full' | 'edit' | 'read', Actor>;
  let participant: Actor;
  let outsider: Actor;
  let target: Actor;
  beforeAll(async () => {
    ({ owner, participant, outsider } = await people());
    holders = {
      full: await actor(t, `holder-full${seq}@example.com`),
      edit: await actor(t, `holder-edit${seq}@example.com`),
      read: await actor(t, `holder-read${seq}@example.com`),
    };
    target = await actor(t, `target${seq}@example.com`);
    await joinWorkspace(t, owner.workspaceId, target.id, 'guest');
  });

  const ACTORS: Array<[string, () => Actor | null, Level | 'anonymous']> = [
    ['the creator', () => owner, 'full'],
    ['a full member', () => holders.full, 'full'],
    ['an edit member', () => holders.edit, 'edit'],
    ['a read member', () => holders.read, 'read'],
    ['a participant without a grant', () => participant, 'none'],
    ['a non-member', () => outsider, 'none'],
    ['anonymous', () => null, 'anonymous'],
  ];
  const OPERATIONS: Array<[string, Exclude<Level, 'none'>, (pageId: string) => [method: 'GET' | 'POST', url: string, payload?: unknown]]> = [
    ['list members', 'read', (id) => ['GET', el(id, '/members')]],
    ['add by id', 'full', (id) => ['POST', el(id, '/member/add'), [{ userId: target.id, accessLevel: 'edit' }]]],
    ['invite by e-mail', 'full', (id) => ['POST', el(id, '/member/add'), [{ email: `invitee-${id}@example.com`, accessLevel: 'read' }]]],
    ['give full', 'full', (id) => ['POST', el(id, '/member/add'), [{ userId: target.id, accessLevel: 'full' }]]],
    ['change a level', 'full', (id) => ['POST', el(id, '/member/access'), { userId: holders.read.id, accessLevel: 'full' }]],
    ['remove a member', 'full', (id) => ['POST', el(id, '/member/remove'), { userId: holders.read.id }]],
  ];
  const cases = OPERATIONS.flatMap((op) => ACTORS.map(([who, pick, level]) => [op[0], who, op, pick, level] as const));

  test.each(cases)('%s by %s', async (_op, _who, [, min, call], pick, level) => {
    const page = await createPage(t, owner, { title: 'Shared' });
    // Levels are set on the parent and reach the page by inheritance, as in real trees.
    const child = await createPage(t, owner, { parentId: page.id, title: 'Child' });
    await share(t, owner, page.id, [
      { email: holders.full.email, accessLevel: 'full' },
      { email: holders.edit.email, accessLevel: 'edit' },
    ]);
    await share(t, owner, child.id, [{ email: holders.read.email, accessLevel: 'read' }]);
    await share(t, owner, page.id, [{ email: holders.read.email, accessLevel: 'read' }]);
    const who = pick();
    const [method, url, payload] = call(child.id);
    const before = await snapshot(t);
    const res = await api(t, who?.cookie, method, url, payload);
    if (level === 'anonymous') {
      expect([res.statusCode, errorCode(res)]).toEqual([401, 'unauthorized']);
    } else if (RANK[level] >= RANK[min]) {
      expect([res.statusCode, res.body]).toEqual([200, expect.any(String)]);
      return;
    } else {
      expect([res.statusCode, errorCode(res)]).toEqual([403, 'forbidden']);
    }
    expect(await snapshot(t)).toEqual(before);
  });
});
