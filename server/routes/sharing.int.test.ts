import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { WireElement } from '../../schema/element';
import type { SkippedMember, WireElementMember } from '../../schema/sharing';
import type { WireWorkspace } from '../../schema/workspace';
import { actor, createPage, expectStatus, getPage, ids, joinWorkspace, makeTeamWorkspace, share, snapshot, type Actor } from '../../test/helpers/pages';
import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';
import { INVITE_LIMIT } from '../../schema/policies/workspace';

let t: TestApp;
let seq = 0;

beforeAll(async () => {
  // Many people sign in from one test address.
  // A small invitation quota (INVITE_LIMIT_PER_10_MIN), so that its test fits member/add's list.
  t = await createTestApp({ sendCodeLimitPerIp: 10_000, publicUrl: 'https://docs.example.org/', inviteLimitPeople: 30 });
});
afterAll(async () => {
  await t.close();
});

const el = (id: string, rest = '') => `/api/v3/spaces/element/${id}${rest}`;
const add = (who: Actor | null, pageId: string, entries: unknown) => api(t, who?.cookie, 'POST', el(pageId, '/member/add'), entries);
const access = (who: Actor, pageId: string, payload: unknown) => api(t, who.cookie, 'POST', el(pageId, '/member/access'), payload);
const remove = (who: Actor, pageId: string, payload: unknown) => api(t, who.cookie, 'POST', el(pageId, '/member/remove'), payload);
const members = async (who: Actor, pageId: string) =>
  body<WireElementMember[]>(expectStatus(await api(t, who.cookie, 'GET', el(pageId, '/members')), 200)).data;
const levelOf = async (who: Actor, pageId: string) => (await getPage(t, who, pageId)).accessLevel;

/** The page helpers' snapshot plus the workspaces (their `private` flag). */
async function fullSnapshot(): Promise<unknown> {
  return {
    ...((await snapshot(t)) as object),
    workspaces: (await t.app.db.selectFrom('workspaces').selectAll().orderBy('id').execute()).map((w) => JSON.stringify(w)),
  };
}

/** Expects a refusal with this status and code that changed nothing at all (no account, membership, grant or mail). */
async function expectRefused(call: () => Promise<LightMyRequestResponse>, status: number, code: string): Promise<LightMyRequestResponse> {
  const before = await fullSnapshot();
  const res = await call();
  expect([res.statusCode, errorCode(res)]).toEqual([status, code]);
  expect(body(res).data).toBeNull();
  expect(await fullSnapshot()).toEqual(before);
  return res;
}

async function roleIn(workspaceId: string, userId: string): Promise<string | undefined> {
  const row = await t.app.db
    .selectFrom('workspace_members')
    .select('role')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

/** An owner (admin) with a team workspace, a participant in it, and an outsider. */
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
    // Someone this call brought into the workspace shows only what the inviter named.
    expect(list.find((m) => m.member === user.id)).toEqual({
      contentType: 'ElementMember',
      page: page.id,
      member: user.id,
      level: 'edit',
      canEdit: true,
      canShare: false,
      inherited: false,
      grantedOn: page.id,
      user: { id: user.id, email },
    });
    expect(await roleIn(owner.workspaceId, user.id)).toBe('guest');
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
    // Once a member, they are listed like everyone else.
    expect((await members(owner, page.id)).find((m) => m.member === user.id)?.user).toMatchObject({ id: user.id, email, name: `newcomer${n}` });
  });

  test('an existing account by e-mail joins as a guest with an e-mail; a member by id keeps their role and gets only the notification', async () => {
    const { owner, participant, outsider } = await people();
    const page = await createPage(t, owner);
    const mailsBefore = t.mailer.messages.length;
    const res = expectStatus(
      await add(owner, page.id, [
        { email: outsider.email, accessLevel: 'read' },
        { userId: participant.id, accessLevel: 'full' },
      ]),
      200,
    );
    expect((body(res).meta.added as string[]).sort()).toEqual([outsider.id, participant.id].sort());
    const list = body<WireElementMember[]>(res).data;
    // Whether the address had an account is not shown: the same {id, email} as for a new one.
    expect(list.find((m) => m.member === outsider.id)?.user).toEqual({ id: outsider.id, email: outsider.email });
    expect(list.find((m) => m.member === participant.id)?.user).toMatchObject({
      id: participant.id,
      email: participant.email,
      name: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(await roleIn(owner.workspaceId, outsider.id)).toBe('guest');
    expect(await roleIn(owner.workspaceId, participant.id)).toBe('participant');
    expect(await levelOf(outsider, page.id)).toBe('read');
    expect(await levelOf(participant, page.id)).toBe('full');
    // Everyone new to the workspace is told by e-mail; members see the notification.
    expect(t.mailer.messages.slice(mailsBefore).map((m) => m.to)).toEqual([outsider.email]);
    for (const user of [outsider, participant]) {
      const notes = await t.app.db.selectFrom('notifications').select('name').where('user_id', '=', user.id).where('page_id', '=', page.id).execute();
      expect(notes).toEqual([{ name: 'element_members.invite.member' }]);
    }
    // Adding again changes the level, without a second notification or e-mail.
    const again = expectStatus(await add(owner, page.id, [{ userId: outsider.id, accessLevel: 'edit' }]), 200);
    expect(body(again).meta.added).toEqual([]);
    expect(body<WireElementMember[]>(again).data.find((m) => m.member === outsider.id)?.user).toMatchObject({ name: expect.any(String) });
    expect(await levelOf(outsider, page.id)).toBe('edit');
    expect(await t.app.db.selectFrom('notifications').select('id').where('user_id', '=', outsider.id).where('page_id', '=', page.id).execute()).toHaveLength(1);
    expect(t.mailer.messages.length).toBe(mailsBefore + 1);
  });

  test('the caller and the owner of the page tree are skipped (meta.skipped); the creator of a child page is not', async () => {
    const { n, owner, participant } = await people();
    const bystander = await actor(t, `bystander${n}@example.com`);
    await joinWorkspace(t, owner.workspaceId, bystander.id, 'participant');
    const root = await createPage(t, owner);
    await share(t, owner, root.id, [{ userId: participant.id, accessLevel: 'full' }]);
    const child = await createPage(t, participant, { parentId: root.id });
    for (const pageId of [root.id, child.id]) {
      const res = expectStatus(
        await add(participant, pageId, [
          { email: bystander.email },
          { userId: participant.id, accessLevel: 'read' },
          { email: owner.email, accessLevel: 'read' },
        ]),
        200,
      );
      expect(body(res).meta.skipped as SkippedMember[]).toEqual([
        { userId: participant.id, reason: 'self' },
        { email: owner.email, reason: 'owner' },
      ]);
      const list = body<WireElementMember[]>(res).data;
      expect(list.find((m) => m.member === bystander.id)?.level).toBe('read');
      expect(list.find((m) => m.member === participant.id)?.level).toBe('full');
      expect(await levelOf(owner, pageId)).toBe('full');
    }
    // The child's creator holds full through the root only: the tree's owner may give them a level on it.
    const res = expectStatus(await add(owner, child.id, [{ userId: participant.id, accessLevel: 'edit' }]), 200);
    expect(body(res).meta.skipped).toEqual([]);
    expect(await levelOf(participant, child.id)).toBe('edit');
  });

  test.each([
    [
      'an unknown user id',
      (o: Record<string, string>) => [
        { email: o.fresh, accessLevel: 'read' },
        { userId: o.unknown, accessLevel: 'read' },
      ],
      [{ path: 'body.1.userId', message: 'no such user' }],
    ],
    [
      'the same user id twice',
      (o: Record<string, string>) => [{ userId: o.member }, { userId: o.member, accessLevel: 'full' }],
      [{ path: 'body.1', message: 'names the same person as entry 0' }],
    ],
    [
      'the same e-mail twice',
      (o: Record<string, string>) => [{ email: o.fresh }, { email: o.fresh.toUpperCase() }],
      [{ path: 'body.1', message: 'names the same person as entry 0' }],
    ],
    [
      'a person by id and by e-mail',
      (o: Record<string, string>) => [{ userId: o.member }, { email: o.memberEmail }],
      [{ path: 'body.1', message: 'names the same person as entry 0' }],
    ],
  ])('%s → 422 with the entries named, nothing of the batch is applied', async (_what, entries, details) => {
    const { n, owner, participant } = await people();
    const page = await createPage(t, owner);
    const names = { fresh: `would-be${n}@example.com`, unknown: crypto.randomUUID(), member: participant.id, memberEmail: participant.email };
    const res = await expectRefused(() => add(owner, page.id, entries(names)), 422, 'validation_failed');
    expect(body(res).errors[0].details).toEqual(details);
    expect(await t.app.db.selectFrom('users').select('id').where('email', '=', names.fresh).execute()).toEqual([]);
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
    ['not an e-mail address', [{ email: 'good@example.com' }, { email: 'not-an-email' }]],
    ['two at signs', [{ email: 'two@@example.com' }]],
    ['white space inside an address', [{ email: 'white space@example.com' }]],
  ])('%s → 422, nothing changes', async (_what, payload) => {
    const { owner } = await people();
    const page = await createPage(t, owner);
    await expectRefused(() => add(owner, page.id, payload), 422, 'validation_failed');
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
    await expectRefused(() => add(owner, page.id, [{ userId: participant.id }]), 409, 'page.in_trash');
  });
});

describe('people from outside the workspace: only its admins bring them in', () => {
  type Caller = 'creator' | 'admin' | 'participant' | 'guest';
  type Target = 'member by id' | 'member by e-mail' | 'outsider by id' | 'outsider by e-mail' | 'new address';
  const CALLERS: Caller[] = ['creator', 'admin', 'participant', 'guest'];
  const TARGETS: Target[] = ['member by id', 'member by e-mail', 'outsider by id', 'outsider by e-mail', 'new address'];
  const cases = TARGETS.flatMap((target) => CALLERS.map((caller) => [target, caller] as const));

  test.each(cases)('%s, shared by the %s (full on the page)', async (target, caller) => {
    const n = ++seq;
    const creator = await actor(t, `creator${n}@example.com`);
    await makeTeamWorkspace(t, creator.workspaceId);
    const callers: Record<Caller, Actor> = {
      creator,
      admin: await actor(t, `admin${n}@example.com`),
      participant: await actor(t, `part${n}@example.com`),
      guest: await actor(t, `guest${n}@example.com`),
    };
    await joinWorkspace(t, creator.workspaceId, callers.admin.id, 'admin');
    await joinWorkspace(t, creator.workspaceId, callers.participant.id, 'participant');
    await joinWorkspace(t, creator.workspaceId, callers.guest.id, 'guest');
    const member = await actor(t, `member${n}@example.com`);
    await joinWorkspace(t, creator.workspaceId, member.id, 'participant');
    const outsider = await actor(t, `stranger${n}@example.com`);
    const page = await createPage(t, creator);
    await share(t, creator, page.id, [
      { userId: callers.admin.id, accessLevel: 'full' },
      { userId: callers.participant.id, accessLevel: 'full' },
      { userId: callers.guest.id, accessLevel: 'full' },
    ]);
    const fresh = `fresh${n}@example.com`;
    const entry: Record<Target, Record<string, string>> = {
      'member by id': { userId: member.id },
      'member by e-mail': { email: member.email },
      'outsider by id': { userId: outsider.id },
      'outsider by e-mail': { email: outsider.email },
      'new address': { email: fresh },
    };
    const who = callers[caller];
    const fromOutside = !target.startsWith('member');
    if (fromOutside && (caller === 'participant' || caller === 'guest')) {
      const res = await expectRefused(() => add(who, page.id, [{ ...entry[target], accessLevel: 'edit' }]), 403, 'sharing.outsider_needs_admin');
      // The same answer whether the address has an account or not.
      expect(body(res).errors[0].message).toBe('only admins of the workspace may share with people who are not members of it');
      return;
    }
    const mailsBefore = t.mailer.messages.length;
    const res = expectStatus(await add(who, page.id, [{ ...entry[target], accessLevel: 'edit' }]), 200);
    const invitee =
      target === 'new address'
        ? await t.app.db.selectFrom('users').selectAll().where('email', '=', fresh).executeTakeFirstOrThrow()
        : fromOutside
          ? outsider
          : member;
    expect(body(res).meta.added).toEqual([invitee.id]);
    const listed = body<WireElementMember[]>(res).data.find((m) => m.member === invitee.id);
    expect(listed?.level).toBe('edit');
    if (fromOutside) {
      expect(listed?.user).toEqual({ id: invitee.id, email: invitee.email });
      expect(await roleIn(creator.workspaceId, invitee.id)).toBe('guest');
      expect(t.mailer.messages.slice(mailsBefore).map((m) => m.to)).toEqual([invitee.email]);
      const invited = await t.app.db
        .selectFrom('workspace_members')
        .select('invited_by')
        .where('workspace_id', '=', creator.workspaceId)
        .where('user_id', '=', invitee.id)
        .executeTakeFirst();
      expect(invited?.invited_by).toBe(who.id);
    } else {
      expect(listed?.user).toMatchObject({ id: member.id, name: expect.any(String) });
      expect(await roleIn(creator.workspaceId, member.id)).toBe('participant');
      expect(t.mailer.messages.length).toBe(mailsBefore);
    }
  });

  test('sharing from a personal (private) workspace brings the person in as a guest and makes it non-private, as members/add does', async () => {
    const n = ++seq;
    const me = await actor(t, `solo${n}@example.com`);
    const mine = async () => body<WireWorkspace[]>(await api(t, me.cookie, 'GET', '/api/v3/spaces/workspace')).data.find((w) => w.id === me.workspaceId);
    expect((await mine())?.private).toBe(true);
    const page = await createPage(t, me);
    // Sharing with nobody new keeps it private.
    expectStatus(await add(me, page.id, [{ userId: me.id }]), 200);
    expect((await mine())?.private).toBe(true);
    const friend = `friend${n}@example.com`;
    expectStatus(await add(me, page.id, [{ email: friend, accessLevel: 'read' }]), 200);
    expect(await mine()).toMatchObject({ private: false, role: 'admin' });
    // The state is one updateWorkspace also accepts: a workspace with guests is not private.
    const refused = await api(t, me.cookie, 'POST', `/api/v3/spaces/workspace/${me.workspaceId}`, { private: true });
    expect([refused.statusCode, errorCode(refused)]).toEqual([422, 'validation_failed']);
  });
});

describe('the invitation limit: at most INVITE_LIMIT_PER_10_MIN new people per inviter in INVITE_LIMIT.windowMs', () => {
  test('counted per inviter over page sharing and members/add together; members are free; old invitations expire', async () => {
    const { n, owner, participant } = await people();
    const page = await createPage(t, owner);
    const emails = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}-${n}@example.com`);
    const viaWorkspace = emails('ws', 10);
    expectStatus(
      await api(t, owner.cookie, 'POST', `/api/v3/spaces/workspace/${owner.workspaceId}/members/add`, {
        members: viaWorkspace.map((email) => ({ email, role: 'guest' })),
      }),
      200,
    );
    const viaPage = emails('page', t.config.inviteLimitPeople - 10);
    // One over the limit: refused whole, no account made, no mail sent.
    const over = [...viaPage, `one-too-many${n}@example.com`];
    const res = await expectRefused(
      () =>
        add(
          owner,
          page.id,
          over.map((email) => ({ email })),
        ),
      429,
      'rate_limited',
    );
    expect(body(res).errors[0].message).toContain(`${t.config.inviteLimitPeople} people`);
    expect(await t.app.db.selectFrom('users').select('id').where('email', 'in', over).execute()).toEqual([]);
    // Exactly the limit passes.
    expectStatus(
      await add(
        owner,
        page.id,
        viaPage.map((email) => ({ email })),
      ),
      200,
    );
    // Further newcomers are refused, by either call…
    await expectRefused(() => add(owner, page.id, [{ email: `late${n}@example.com` }]), 429, 'rate_limited');
    await expectRefused(
      () =>
        api(t, owner.cookie, 'POST', `/api/v3/spaces/workspace/${owner.workspaceId}/members/add`, {
          members: [{ email: `late${n}@example.com`, role: 'guest' }],
        }),
      429,
      'rate_limited',
    );
    // …but sharing with people already in the workspace goes on.
    expectStatus(await add(owner, page.id, [{ userId: participant.id, accessLevel: 'edit' }, { email: viaWorkspace[0] }]), 200);
    // Another inviter has their own allowance.
    const other = await actor(t, `other-inviter${n}@example.com`);
    const otherPage = await createPage(t, other);
    expectStatus(await add(other, otherPage.id, [{ email: `others-guest${n}@example.com` }]), 200);
    // Invitations older than the window no longer count.
    const old = new Date(Date.now() - INVITE_LIMIT.windowMs - 60_000).toISOString();
    await t.app.db.updateTable('workspace_members').set({ created_at: old }).where('invited_by', '=', owner.id).execute();
    expectStatus(await add(owner, page.id, [{ email: `late${n}@example.com` }]), 200);
  });
});

describe('members, member/access, member/remove', () => {
  test('grants on ancestors are listed as inherited; the nearest grant wins', async () => {
    const { owner, participant, outsider } = await people();
    const P = await createPage(t, owner, { title: 'P' });
    const C = await createPage(t, owner, { parentId: P.id, title: 'C' });
    await share(t, owner, P.id, [
      { userId: participant.id, accessLevel: 'read' },
      { email: outsider.email, accessLevel: 'edit' },
    ]);
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

  test("change a level and remove a member; the owner's root grant and inherited grants are not changed here", async () => {
    const { owner, participant, outsider } = await people();
    const P = await createPage(t, owner);
    const C = await createPage(t, owner, { parentId: P.id });
    await share(t, owner, P.id, [
      { email: outsider.email, accessLevel: 'read' },
      { userId: participant.id, accessLevel: 'full' },
    ]);

    const changed = expectStatus(await access(participant, P.id, { userId: outsider.id, accessLevel: 'edit' }), 200);
    expect(body<WireElementMember[]>(changed).data.find((m) => m.member === outsider.id)?.level).toBe('edit');
    expect(await levelOf(outsider, C.id)).toBe('edit');

    for (const [call, status, code] of [
      [() => access(participant, P.id, { userId: owner.id, accessLevel: 'read' }), 403, 'sharing.protected_member'],
      [() => access(participant, P.id, { userId: owner.id, accessLevel: 'full' }), 403, 'sharing.protected_member'],
      [() => remove(participant, P.id, { userId: owner.id }), 403, 'sharing.protected_member'],
      [() => remove(owner, P.id, { userId: owner.id }), 403, 'sharing.protected_member'],
      [() => access(owner, C.id, { userId: outsider.id, accessLevel: 'read' }), 404, 'not_found'],
      [() => remove(owner, C.id, { userId: outsider.id }), 404, 'not_found'],
      [() => remove(owner, P.id, { userId: crypto.randomUUID() }), 404, 'not_found'],
      [() => access(owner, P.id, { userId: outsider.id, accessLevel: 'none' }), 422, 'validation_failed'],
      [() => access(owner, P.id, { userId: outsider.id }), 422, 'validation_failed'],
      [() => remove(owner, P.id, {}), 422, 'validation_failed'],
      [() => remove(owner, P.id, { userId: outsider.id, extra: true }), 422, 'validation_failed'],
    ] as const) {
      await expectRefused(call, status, code);
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

describe('full access held above a page is protected there', () => {
  test("the review's case: a full collaborator cannot lock the tree's owner out of a page they created below", async () => {
    const { owner: alice, participant: bob } = await people();
    const R = await createPage(t, alice, { title: 'R' });
    await share(t, alice, R.id, [{ userId: bob.id, accessLevel: 'full' }]);
    const C = await createPage(t, bob, { parentId: R.id, title: 'C' });
    // member/add skips the owner of the tree, on any page of it.
    const res = expectStatus(await add(bob, C.id, [{ userId: alice.id, accessLevel: 'read' }]), 200);
    expect(body(res).meta.skipped).toEqual([{ userId: alice.id, reason: 'owner' }]);
    expect(await levelOf(alice, C.id)).toBe('full');
    // A lower grant of hers below the root (made before this rule) cannot be set lower, but can go.
    await t.app.db.insertInto('page_members').values({ page_id: C.id, user_id: alice.id, level: 'read', created_at: new Date().toISOString() }).execute();
    await expectRefused(() => access(bob, C.id, { userId: alice.id, accessLevel: 'edit' }), 403, 'sharing.protected_member');
    expectStatus(await access(bob, C.id, { userId: alice.id, accessLevel: 'full' }), 200);
    expectStatus(await remove(bob, C.id, { userId: alice.id }), 200);
    expect(await levelOf(alice, C.id)).toBe('full');
    // Bob created C, but the tree is Alice's: she may set his level there, and it holds.
    expectStatus(await add(alice, C.id, [{ userId: bob.id, accessLevel: 'read' }]), 200);
    expect(await levelOf(bob, C.id)).toBe('read');
    await expectRefused(() => add(bob, C.id, [{ userId: alice.id }]), 403, 'forbidden');
    expectStatus(await remove(alice, C.id, { userId: bob.id }), 200);
    expect(await levelOf(bob, C.id)).toBe('full');
  });

  /**
   * Carol holds full on R; Dave holds full on C (below R) only; Bob holds full on R as Carol does.
   * Carol has an edit grant on C. Who may leave Carol with less than full on C?
   */
  type Op = 'add read' | 'add full' | 'access read' | 'access full' | 'remove';
  const OPS: Record<Op, { lowers: boolean; call: (who: Actor, pageId: string, carol: Actor) => Promise<LightMyRequestResponse> }> = {
    'add read': { lowers: true, call: (who, pageId, carol) => add(who, pageId, [{ userId: carol.id, accessLevel: 'read' }]) },
    'add full': { lowers: false, call: (who, pageId, carol) => add(who, pageId, [{ userId: carol.id, accessLevel: 'full' }]) },
    'access read': { lowers: true, call: (who, pageId, carol) => access(who, pageId, { userId: carol.id, accessLevel: 'read' }) },
    'access full': { lowers: false, call: (who, pageId, carol) => access(who, pageId, { userId: carol.id, accessLevel: 'full' }) },
    // Removing her grant on C gives her R's full again.
    remove: { lowers: false, call: (who, pageId, carol) => remove(who, pageId, { userId: carol.id }) },
  };
  const cases = (Object.keys(OPS) as Op[]).flatMap((op) => (['full on the ancestor', 'full on the page only'] as const).map((caller) => [op, caller] as const));

  test.each(cases)('%s of someone holding full through an ancestor, by someone with %s', async (op, caller) => {
    const { n, owner, participant: bob } = await people();
    const carol = await actor(t, `carol${n}@example.com`);
    const dave = await actor(t, `dave${n}@example.com`);
    for (const who of [carol, dave]) await joinWorkspace(t, owner.workspaceId, who.id, 'participant');
    const R = await createPage(t, owner);
    const C = await createPage(t, owner, { parentId: R.id });
    await share(t, owner, R.id, [
      { userId: bob.id, accessLevel: 'full' },
      { userId: carol.id, accessLevel: 'full' },
    ]);
    await share(t, owner, C.id, [
      { userId: dave.id, accessLevel: 'full' },
      { userId: carol.id, accessLevel: 'edit' },
    ]);
    const who = caller === 'full on the ancestor' ? bob : dave;
    if (OPS[op].lowers && who === dave) {
      await expectRefused(() => OPS[op].call(who, C.id, carol), 403, 'sharing.protected_member');
      expect(await levelOf(carol, C.id)).toBe('edit');
    } else {
      expectStatus(await OPS[op].call(who, C.id, carol), 200);
      expect(await levelOf(carol, C.id)).toBe(op.endsWith('read') ? 'read' : 'full');
    }
  });

  test('an admin holds full on pages of the all section by role: only an admin may lower it', async () => {
    const { n, owner: admin, participant } = await people();
    const admin2 = await actor(t, `second-admin${n}@example.com`);
    await joinWorkspace(t, admin.workspaceId, admin2.id, 'admin');
    const S = await createPage(t, admin, { section: 'all' });
    const child = await createPage(t, admin, { parentId: S.id });
    await share(t, admin, child.id, [{ userId: participant.id, accessLevel: 'full' }]);
    // The participant holds full on the child and may share it, but not lower an admin there.
    expectStatus(await add(participant, child.id, [{ userId: admin2.id, accessLevel: 'full' }]), 200);
    await expectRefused(() => access(participant, child.id, { userId: admin2.id, accessLevel: 'read' }), 403, 'sharing.protected_member');
    expect(await levelOf(admin2, child.id)).toBe('full');
    // Another admin may.
    expectStatus(await access(admin, child.id, { userId: admin2.id, accessLevel: 'read' }), 200);
    expect(await levelOf(admin2, child.id)).toBe('read');
  });
});

describe('page member/add and workspace members/add answer the same mistakes the same way', () => {
  type Mistake = (o: { member: string; memberEmail: string; fresh: string; unknown: string }) => Array<{ userId?: string; email?: string }>;
  const MISTAKES: Array<[string, Mistake]> = [
    ['an unknown user id', (o) => [{ email: o.fresh }, { userId: o.unknown }]],
    ['the same user id twice', (o) => [{ userId: o.member }, { userId: o.member }]],
    ['the same e-mail twice, in other letter cases', (o) => [{ email: o.fresh }, { email: o.fresh.toUpperCase() }]],
    ['one person by id and by e-mail', (o) => [{ email: o.memberEmail }, { userId: o.member }]],
    ['not an e-mail address', (o) => [{ userId: o.member }, { email: 'nobody-at-example.com' }]],
  ];

  test.each(MISTAKES)('%s → 422 validation_failed, the same details, nothing changes', async (_what, mistake) => {
    const { n, owner, participant } = await people();
    const page = await createPage(t, owner);
    const names = { member: participant.id, memberEmail: participant.email, fresh: `mistake${n}@example.com`, unknown: crypto.randomUUID() };
    const entries = mistake(names);
    const onPage = await expectRefused(
      () =>
        add(
          owner,
          page.id,
          entries.map((e) => ({ ...e, accessLevel: 'read' })),
        ),
      422,
      'validation_failed',
    );
    const onWorkspace = await expectRefused(
      () =>
        api(t, owner.cookie, 'POST', `/api/v3/spaces/workspace/${owner.workspaceId}/members/add`, { members: entries.map((e) => ({ ...e, role: 'guest' })) }),
      422,
      'validation_failed',
    );
    const details = (res: LightMyRequestResponse, prefix: string) =>
      (body(res).errors[0].details as Array<{ path: string; message: string }>).map((d) => ({ ...d, path: d.path.replace(prefix, '') }));
    expect(details(onPage, 'body.')).toEqual(details(onWorkspace, 'body.members.'));
    expect(details(onPage, 'body.')[0].path).toMatch(/^1/);
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

  // The creator is the workspace's admin; the holders are guests (brought in by the first share).
  const ACTORS: Array<[string, () => Actor | null, Level | 'anonymous', boolean]> = [
    ['the creator (admin)', () => owner, 'full', true],
    ['a full member (guest)', () => holders.full, 'full', false],
    ['an edit member', () => holders.edit, 'edit', false],
    ['a read member', () => holders.read, 'read', false],
    ['a participant without a grant', () => participant, 'none', false],
    ['a non-member', () => outsider, 'none', false],
    ['anonymous', () => null, 'anonymous', false],
  ];
  const OPERATIONS: Array<[string, Exclude<Level, 'none'>, boolean, (pageId: string) => [method: 'GET' | 'POST', url: string, payload?: unknown]]> = [
    ['list members', 'read', false, (id) => ['GET', el(id, '/members')]],
    ['add by id', 'full', false, (id) => ['POST', el(id, '/member/add'), [{ userId: target.id, accessLevel: 'edit' }]]],
    ['invite by e-mail', 'full', true, (id) => ['POST', el(id, '/member/add'), [{ email: `invitee-${id}@example.com`, accessLevel: 'read' }]]],
    ['give full', 'full', false, (id) => ['POST', el(id, '/member/add'), [{ userId: target.id, accessLevel: 'full' }]]],
    ['change a level', 'full', false, (id) => ['POST', el(id, '/member/access'), { userId: holders.read.id, accessLevel: 'full' }]],
    ['remove a member', 'full', false, (id) => ['POST', el(id, '/member/remove'), { userId: holders.read.id }]],
  ];
  const cases = OPERATIONS.flatMap((op) => ACTORS.map(([who, pick, level, admin]) => [op[0], who, op, pick, level, admin] as const));

  test.each(cases)('%s by %s', async (_op, _who, [, min, bringsIn, call], pick, level, admin) => {
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
    const before = await fullSnapshot();
    const res = await api(t, who?.cookie, method, url, payload);
    if (level === 'anonymous') {
      expect([res.statusCode, errorCode(res)]).toEqual([401, 'unauthorized']);
    } else if (RANK[level] < RANK[min]) {
      expect([res.statusCode, errorCode(res)]).toEqual([403, 'forbidden']);
    } else if (bringsIn && !admin) {
      expect([res.statusCode, errorCode(res)]).toEqual([403, 'sharing.outsider_needs_admin']);
    } else {
      expect([res.statusCode, res.body]).toEqual([200, expect.any(String)]);
      return;
    }
    expect(await fullSnapshot()).toEqual(before);
  });
});
