import crypto from 'node:crypto';
import type { Socket } from 'socket.io-client';
import type { WireBlock } from '../../schema/block';
import type { DatabaseEvent } from '../../schema/database';
import {
  channels,
  NOTIFICATIONS_CHANNEL,
  presenceColor,
  REALTIME_ERRORS,
  REALTIME_LIMITS,
  type BlockHistory,
  type ChildrenChange,
  type ElementAdd,
  type ElementEdit,
  type ElementPageEdit,
  type ElementRemove,
  type NotificationAdded,
  type PresenceJoin,
  type PresenceLeave,
  type PresenceMember,
  type PresencePosition,
  type RealtimeAck,
  type RealtimeErrorBody,
} from '../../schema/realtime';
import { createAccessToken } from '../auth/accessTokens';
import { createPage, expectStatus, share, type Actor } from '../../test/helpers/pages';
import { collect, connectRealtime, disconnected, listeningApp, nextEvent, noEvent, refusedConnection, request, until } from '../../test/helpers/realtimeClient';
import { api, body, signIn, type TestApp } from '../../test/helpers/testApp';
import { addMembersAs, createWorkspaceAs } from '../../test/helpers/workspaces';

/**
 * The realtime server (docs/realtime.md) against a real listening server on the project's
 * database, with real socket.io clients: signing in, every join refusal, access taken away,
 * the events every write sends, history, presence, the sidebar's children channels,
 * notifications and idempotent retries.
 */

const app = listeningApp(['ann@example.com', 'bob@example.com', 'cat@example.com']);
const { sockets, connect } = app;
let t: TestApp;
let ann: Actor;
let bob: Actor;
let cat: Actor;
let baseUrl: string;
beforeAll(() => {
  t = app.t();
  [ann, bob, cat] = app.people();
  baseUrl = app.baseUrl();
});

type Ack<T = Record<string, unknown>> = RealtimeAck<T>;

async function join<T = Record<string, unknown>>(socket: Socket, channel: string, since?: string): Promise<Ack<T & { at: string }>> {
  return request<T & { at: string }>(socket, 'join', { channel, ...(since ? { since } : {}) });
}

/** Joins and fails the test with the server's refusal when it is refused. */
async function joined<T = Record<string, unknown>>(socket: Socket, channel: string, since?: string): Promise<T & { at: string }> {
  const answer = await join<T>(socket, channel, since);
  if (!answer.ok) throw new Error(`join ${channel} refused: ${JSON.stringify(answer.error)}`);
  return answer;
}

function refusal(answer: Ack<unknown>): RealtimeErrorBody | undefined {
  return answer.ok ? undefined : answer.error;
}

const element = (who: Actor, pageId: string) => channels.element(pageId, who.id);
const children = (who: Actor, parentId: string) => channels.elementChildren(parentId, who.id);
const text = (value: string) => ({ tokens: value ? [{ text: value }] : [] });
const blockUrl = (id: string) => `/api/v3/spaces/block/${id}`;
const clientHeader = (clientId?: string): Record<string, string> => (clientId ? { 'x-client-id': clientId } : {});

async function newPage(who: Actor = ann, options: Parameters<typeof createPage>[2] = {}): Promise<string> {
  return (await createPage(t, who, { title: 'Страница', workspaceId: who.workspaceId, ...options })).id;
}

async function createBlock(
  pageId: string,
  value: string,
  options: { parentId?: string; placeAfter?: string; clientId?: string; type?: string; data?: unknown; who?: Actor } = {},
): Promise<WireBlock> {
  const { parentId, placeAfter, clientId, type = 'text', data = text(value), who = ann } = options;
  const res = await api(t, who.cookie, 'POST', '/api/v3/spaces/block', { pageId, type, data, parentId, placeAfter }, clientHeader(clientId));
  return body<WireBlock>(expectStatus(res, 201)).data;
}

function updateBlock(block: { id: string; version: number }, value: string, clientId?: string, who: Actor = ann) {
  return api(t, who.cookie, 'POST', blockUrl(block.id), { version: block.version, type: 'text', data: text(value) }, clientHeader(clientId));
}

/** The next event of a channel (payload.channel), any of `event`. */
function onChannel<T extends { channel: string }>(
  socket: Socket,
  event: string,
  channel: string,
  accept: (payload: T) => boolean = () => true,
  timeoutMs?: number,
) {
  return nextEvent<T>(socket, event, (payload) => payload.channel === channel && accept(payload), timeoutMs);
}

/** Asserts an ISO time between `from` and now. */
function expectRecent(at: string, from: number) {
  const time = Date.parse(at);
  expect(new Date(at).toISOString()).toBe(at);
  expect(time).toBeGreaterThanOrEqual(from - 5);
  expect(time).toBeLessThanOrEqual(Date.now() + 5);
}

describe('signing in', () => {
  test('the session cookie signs in: the connection is the cookie owner, and may join their channels only', async () => {
    const page = await newPage();
    const socket = await connect(ann);
    expect((await join(socket, element(ann, page))).ok).toBe(true);
    expect(refusal(await join(socket, element(bob, page)))?.code).toBe(REALTIME_ERRORS.wrongUser);
  });

  test('a Bearer access token signs in, as auth.token and as an Authorization header; an unknown token is refused with 100', async () => {
    const page = await newPage();
    const { token } = await createAccessToken(t.app.db, ann.id);
    for (const socket of [
      await connectRealtime(baseUrl, { token }),
      await connectRealtime(baseUrl, { cookie: '' }, { headers: { authorization: `Bearer ${token}` } }),
    ]) {
      sockets.push(socket);
      expect((await join(socket, element(ann, page))).ok).toBe(true);
      expect(refusal(await join(socket, element(bob, page)))?.code).toBe(REALTIME_ERRORS.wrongUser);
    }
    expect(await refusedConnection(baseUrl, { token: `${token}x` })).toMatchObject({ code: REALTIME_ERRORS.unauthorized });
    // A token wins over a cookie: a bad token is not saved by a good cookie.
    expect(await refusedConnection(baseUrl, { cookie: ann.cookie }, { headers: { authorization: 'Bearer nope' } })).toMatchObject({
      code: REALTIME_ERRORS.unauthorized,
    });
  });

  test('a workspace token (or a read-only one) does not connect: refused with 100 (its integrations hear changes by webhooks)', async () => {
    const { token } = await createAccessToken(t.app.db, ann.id, { workspaceId: ann.workspaceId, name: 'Интеграция', readOnly: false });
    expect(await refusedConnection(baseUrl, { token })).toMatchObject({ code: REALTIME_ERRORS.unauthorized });
  });

  test("a workspace token's writes do not cut its person's browser sessions off from their other workspaces", async () => {
    const other = body<{ id: string }>(expectStatus(await api(t, ann.cookie, 'POST', '/api/v3/spaces/workspace', { name: 'Другое' }), 201)).data.id;
    const elsewhere = await newPage(ann, { workspaceId: other });
    const socket = await connect(ann);
    const errors = collect<RealtimeErrorBody>(socket, 'error');
    await joined(socket, element(ann, elsewhere));
    const { token } = await createAccessToken(t.app.db, ann.id, { workspaceId: ann.workspaceId, name: 'Скрипт', readOnly: false });
    const here = await newPage(ann);
    // Writes through the token (the pages and grants the re-check watches), then the re-check's time.
    for (const title of ['Раз', 'Два'])
      expectStatus(await api(t, undefined, 'PATCH', `/api/v3/spaces/element/${here}`, { title }, { authorization: `Bearer ${token}` }), 200);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(errors).toEqual([]);
    expect((await join(socket, element(ann, elsewhere))).ok).toBe(true);
  });

  test('revoking the access token closes the connection it signed with error 100', async () => {
    const { token } = await createAccessToken(t.app.db, ann.id);
    const socket = await connectRealtime(baseUrl, { token });
    sockets.push(socket);
    const errors = collect<RealtimeErrorBody>(socket, 'error');
    const gone = disconnected(socket);
    expectStatus(await api(t, undefined, 'POST', '/api/auth/accesstoken/remove', undefined, { authorization: `Bearer ${token}` }), 200);
    expect(await gone).toBe('io server disconnect');
    expect(errors.map((e) => e.code)).toEqual([REALTIME_ERRORS.unauthorized]);
  });

  test('no credential, or a session that does not exist: connect_error with code 100', async () => {
    expect(await refusedConnection(baseUrl, { cookie: '' })).toEqual({ code: REALTIME_ERRORS.unauthorized, message: expect.any(String) });
    expect(await refusedConnection(baseUrl, { cookie: 'sid=not-a-session' })).toMatchObject({ code: REALTIME_ERRORS.unauthorized });
  });

  test('the cookie counts only from this site: another Origin is refused with 100, the own origin is fine', async () => {
    expect(await refusedConnection(baseUrl, { cookie: ann.cookie }, { origin: 'https://evil.example.com' })).toMatchObject({
      code: REALTIME_ERRORS.unauthorized,
    });
    // Same host on another port is another origin too.
    const port = Number(new URL(baseUrl).port);
    expect(await refusedConnection(baseUrl, { cookie: ann.cookie }, { origin: `http://127.0.0.1:${port + 1}` })).toMatchObject({
      code: REALTIME_ERRORS.unauthorized,
    });
    expect(await refusedConnection(baseUrl, { cookie: ann.cookie }, { origin: 'null' })).toMatchObject({ code: REALTIME_ERRORS.unauthorized });
    const own = await connect(ann, { origin: baseUrl });
    expect(own.connected).toBe(true);
  });

  test('signing out closes the open connection with error 100; other sessions of the same person stay', async () => {
    const session = await signIn(t, 'ann@example.com');
    const socket = await connect(session);
    const other = await connect(ann);
    const errors = collect<RealtimeErrorBody>(socket, 'error');
    const gone = disconnected(socket);
    expectStatus(await api(t, session, 'GET', '/api/auth/logout'), 200);
    expect(await gone).toBe('io server disconnect');
    expect(errors).toEqual([{ code: REALTIME_ERRORS.unauthorized, message: expect.any(String) }]);
    await noEvent(other, 'error');
    expect(other.connected).toBe(true);
    // And the ended session cannot connect again.
    expect(await refusedConnection(baseUrl, { cookie: session })).toMatchObject({ code: REALTIME_ERRORS.unauthorized });
  });
});

describe('joining', () => {
  test('101: a message that does not fit its schema (join, leave, history, position)', async () => {
    const page = await newPage();
    const socket = await connect(ann);
    const bad: Array<[string, unknown]> = [
      ['join', { channel: 5 }],
      ['join', { channel: element(ann, page), extra: true }],
      ['join', 'just a string'],
      ['join', { channel: element(ann, page), since: 'yesterday' }],
      ['join', { channel: `online:${'x'.repeat(300)}` }],
      ['leave', {}],
      ['history', { channel: element(ann, page) }],
      ['position', { channel: channels.online(page), caret: { anchor: { blockId: 'a', offset: -1 }, focus: { blockId: 'a', offset: 0 } } }],
    ];
    for (const [event, message] of bad) {
      expect([event, message, refusal(await request(socket, event, message))?.code]).toEqual([event, message, REALTIME_ERRORS.badMessage]);
    }
    // Without an acknowledgement the refusal comes back as an error event.
    const error = nextEvent<RealtimeErrorBody>(socket, 'error');
    socket.emit('join', { channel: 7 });
    expect(await error).toMatchObject({ code: REALTIME_ERRORS.badMessage });
  });

  test('102: a channel name of no known kind, or an event that does not belong to the kind', async () => {
    const page = await newPage();
    const socket = await connect(ann);
    for (const channel of [
      'nonsense',
      `page:${page}`,
      `element:${page}`,
      `element:not-a-uuid#${ann.id}`,
      `online:${page}#${ann.id}`,
      'notifications',
      `user:${ann.id}`,
    ]) {
      expect([channel, refusal(await join(socket, channel))]).toEqual([
        channel,
        { code: REALTIME_ERRORS.unknownChannel, message: expect.any(String), channel },
      ]);
    }
    await joined(socket, element(ann, page));
    await joined(socket, channels.online(page));
    const caret = { anchor: { blockId: 'b', offset: 0 }, focus: { blockId: 'b', offset: 0 } };
    expect(refusal(await request(socket, 'position', { channel: element(ann, page), caret }))?.code).toBe(REALTIME_ERRORS.unknownChannel);
    expect(refusal(await request(socket, 'history', { channel: channels.online(page), since: new Date().toISOString() }))?.code).toBe(
      REALTIME_ERRORS.unknownChannel,
    );
  });

  test('103: a page of someone else; the top level of a workspace one is not a member of', async () => {
    const page = await newPage(ann);
    const socket = await connect(bob);
    for (const channel of [element(bob, page), children(bob, page), channels.online(page), children(bob, ann.workspaceId)]) {
      expect([channel, refusal(await join(socket, channel))]).toEqual([channel, { code: REALTIME_ERRORS.forbidden, message: expect.any(String), channel }]);
    }
    // The own workspace's top level is fine.
    await joined(socket, children(bob, bob.workspaceId));
  });

  test('104: no such page or workspace', async () => {
    const socket = await connect(ann);
    const unknown = crypto.randomUUID();
    for (const channel of [element(ann, unknown), children(ann, unknown), channels.online(unknown)]) {
      expect([channel, refusal(await join(socket, channel))?.code]).toEqual([channel, REALTIME_ERRORS.notFound]);
    }
  });

  test('105: the #user part names someone else, even with access to the page', async () => {
    const page = await newPage(ann);
    await share(t, ann, page, [{ userId: bob.id, accessLevel: 'read' }]);
    const socket = await connect(ann);
    expect(refusal(await join(socket, element(bob, page)))).toEqual({
      code: REALTIME_ERRORS.wrongUser,
      message: expect.any(String),
      channel: element(bob, page),
    });
    expect(refusal(await join(socket, children(bob, page)))?.code).toBe(REALTIME_ERRORS.wrongUser);
  });

  test('106: position, history and leave on a channel this connection has not joined (another connection of the same person has)', async () => {
    const page = await newPage();
    const other = await connect(ann);
    await joined(other, element(ann, page));
    await joined(other, channels.online(page));
    const socket = await connect(ann);
    const caret = { anchor: { blockId: 'b', offset: 1 }, focus: { blockId: 'b', offset: 2 } };
    expect(refusal(await request(socket, 'position', { channel: channels.online(page), caret }))).toEqual({
      code: REALTIME_ERRORS.notJoined,
      message: expect.any(String),
      channel: channels.online(page),
    });
    expect(refusal(await request(socket, 'history', { channel: element(ann, page), since: new Date().toISOString() }))?.code).toBe(REALTIME_ERRORS.notJoined);
    expect(refusal(await request(socket, 'leave', { channel: element(ann, page) }))?.code).toBe(REALTIME_ERRORS.notJoined);
    // After a leave the channel is not joined any more.
    await joined(socket, element(ann, page));
    expect((await request(socket, 'leave', { channel: element(ann, page) })).ok).toBe(true);
    expect(refusal(await request(socket, 'leave', { channel: element(ann, page) }))?.code).toBe(REALTIME_ERRORS.notJoined);
  });

  test('108: more than 200 channels on one connection; joining one again or after a leave is fine', async () => {
    const socket = await connect(ann);
    const names = Array.from({ length: REALTIME_LIMITS.maxChannelsPerConnection }, () => channels.aiproxy(crypto.randomUUID()));
    // Under the message limit: a batch per second.
    const batch = REALTIME_LIMITS.messagesPerSecond - 1;
    for (let i = 0; i < names.length; i += batch) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 1010));
      const answers = await Promise.all(names.slice(i, i + batch).map((name) => join(socket, name)));
      expect(answers.filter((a) => !a.ok)).toEqual([]);
    }
    const extra = channels.aiproxy(crypto.randomUUID());
    expect(refusal(await join(socket, extra))).toEqual({ code: REALTIME_ERRORS.tooManyChannels, message: expect.any(String), channel: extra });
    expect((await join(socket, names[0])).ok).toBe(true);
    expect((await request(socket, 'leave', { channel: names[0] })).ok).toBe(true);
    expect((await join(socket, extra)).ok).toBe(true);
  });

  test('109: more than 60 messages a second are dropped; the next second is fine again', async () => {
    const page = await newPage();
    const socket = await connect(ann);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sent = 2 * REALTIME_LIMITS.messagesPerSecond + 10;
    const answers = await Promise.all(Array.from({ length: sent }, () => request(socket, 'leave', { channel: element(ann, page) })));
    const codes = answers.map((a) => refusal(a)?.code);
    const limited = codes.filter((c) => c === REALTIME_ERRORS.rateLimited).length;
    // The connection's window started on connect: the burst falls in one window (or, on a slow
    // machine, two), so at least the messages beyond two windows' worth are dropped.
    expect(limited).toBeGreaterThanOrEqual(sent - 2 * REALTIME_LIMITS.messagesPerSecond);
    expect(codes[0]).toBe(REALTIME_ERRORS.notJoined);
    expect(codes.filter((c) => c !== REALTIME_ERRORS.rateLimited).every((c) => c === REALTIME_ERRORS.notJoined)).toBe(true);
    expect(answers.find((a) => refusal(a)?.code === REALTIME_ERRORS.rateLimited)).toEqual({
      ok: false,
      error: { code: REALTIME_ERRORS.rateLimited, message: expect.any(String) },
    });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await join(socket, element(ann, page))).ok).toBe(true);
  });

  test('110: history of more than 2,000 changed blocks (on join with since, and as a history request); 2,000 is fine', async () => {
    const page = await newPage();
    const since = new Date().toISOString();
    const insert = async (count: number) => {
      const now = new Date().toISOString();
      const rows = Array.from({ length: count }, (_, i) => ({
        id: crypto.randomUUID(),
        page_id: page,
        parent_id: null,
        sort_key: `a${String(i).padStart(5, '0')}${crypto.randomUUID().slice(0, 4)}`,
        type: 'text',
        data: JSON.stringify(text(`row ${i}`)),
        version: 1,
        created_at: now,
        updated_at: now,
        updated_by: ann.id,
        deleted_at: null,
      }));
      for (let i = 0; i < rows.length; i += 200)
        await t.app.db
          .insertInto('blocks')
          .values(rows.slice(i, i + 200))
          .execute();
    };
    await insert(REALTIME_LIMITS.maxHistoryBlocks);
    const socket = await connect(ann);
    const answer = await joined<{ history: BlockHistory }>(socket, element(ann, page), since);
    expect(answer.history.blocks).toHaveLength(REALTIME_LIMITS.maxHistoryBlocks);
    await insert(1);
    expect(refusal(await request(socket, 'history', { channel: element(ann, page), since }))).toEqual({
      code: REALTIME_ERRORS.historyTooLarge,
      message: expect.any(String),
      channel: element(ann, page),
    });
    const other = await connect(ann);
    expect(refusal(await join(other, element(ann, page), since))?.code).toBe(REALTIME_ERRORS.historyTooLarge);
    // A refused join leaves nothing joined.
    expect(refusal(await request(other, 'leave', { channel: element(ann, page) }))?.code).toBe(REALTIME_ERRORS.notJoined);
    // From a later time there is nothing to send.
    const later = new Date(Date.now() + REALTIME_LIMITS.historyOverlapMs + 1000).toISOString();
    expect((await joined<{ history: BlockHistory }>(other, element(ann, page), later)).history).toMatchObject({ blocks: [], removed: [] });
  });

  test('112: an aiproxy channel belongs to the first user in it; their other connections may join it too', async () => {
    const channel = channels.aiproxy(crypto.randomUUID());
    const first = await connect(ann);
    await joined(first, channel);
    const second = await connect(ann);
    await joined(second, channel);
    const stranger = await connect(bob);
    expect(refusal(await join(stranger, channel))).toEqual({ code: REALTIME_ERRORS.channelTaken, message: expect.any(String), channel });
    // Once its owner left, it is free.
    await request(first, 'leave', { channel });
    await request(second, 'leave', { channel });
    await joined(stranger, channel);
  });

  test('allowed: a read-only share joins element and online; a workspace member joins elementChildren of its top level', async () => {
    const page = await newPage(ann);
    await share(t, ann, page, [{ userId: bob.id, accessLevel: 'read' }]);
    const socket = await connect(bob);
    expect(await joined(socket, element(bob, page))).toEqual({ ok: true, at: expect.any(String) });
    const online = await joined<{ members: PresenceMember[] }>(socket, channels.online(page));
    expect(online.members.map((m) => m.userId)).toEqual([bob.id]);
    // Sharing brought bob into ann's workspace (as a guest): its top level is his to watch.
    await joined(socket, children(bob, ann.workspaceId));
    await joined(socket, children(bob, page));
    // And a read-only member hears the edits.
    const created = onChannel<ElementAdd>(socket, 'add', `element:${page}`);
    const block = await createBlock(page, 'видно');
    expect((await created).blocks).toEqual([block]);
  });
});

describe('access taken away', () => {
  test("a removed grant: error 107 for each of that page's channels, no more events there; other channels stay", async () => {
    const page = await newPage(ann);
    const block = await createBlock(page, 'a');
    await share(t, ann, page, [{ userId: bob.id, accessLevel: 'edit' }]);
    const socket = await connect(bob);
    await joined(socket, element(bob, page));
    await joined(socket, channels.online(page));
    await joined(socket, children(bob, page));
    await joined(socket, children(bob, ann.workspaceId));
    const errors = collect<RealtimeErrorBody>(socket, 'error');
    const watcher = await connect(ann);
    await joined(watcher, channels.online(page));
    const left = onChannel<PresenceLeave>(watcher, 'leave', `online:${page}`);

    expectStatus(await api(t, ann.cookie, 'POST', `/api/v3/spaces/element/${page}/member/remove`, { userId: bob.id }), 200);
    await until(() => errors.length >= 3, 3000, 'three 107 errors');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(errors.map((e) => e.channel).sort()).toEqual([element(bob, page), channels.online(page), children(bob, page)].sort());
    expect(errors.every((e) => e.code === REALTIME_ERRORS.accessRevoked)).toBe(true);
    // Others on the page see the person go.
    expect((await left).clientId).toBe(socket.id);

    // Nothing more about the page reaches bob; the workspace channel still works.
    const edited = onChannel<ElementEdit>(watcher, 'edit', `element:${page}`);
    await joined(watcher, element(ann, page));
    expectStatus(await updateBlock(block, 'ab'), 200);
    await edited;
    await noEvent(socket, 'edit', (e) => (e as ElementEdit).channel === `element:${page}`);
    const top = collect<ChildrenChange>(socket, 'edit');
    const made = await newPage(ann);
    await until(() => top.some((e) => e.channel === `elementChildren:${ann.workspaceId}` && e.pageId === made), 5000, 'the top level heard');
    // He cannot simply join again, and the connection stays open.
    expect(refusal(await join(socket, element(bob, page)))?.code).toBe(REALTIME_ERRORS.forbidden);
    expect(socket.connected).toBe(true);
  });

  test('a page moved under a page the person cannot see: 107 for that page only', async () => {
    const parent = await newPage(ann);
    const child = (await createPage(t, ann, { parentId: parent, title: 'Дочерняя' })).id;
    await share(t, ann, parent, [{ userId: bob.id, accessLevel: 'read' }]);
    const socket = await connect(bob);
    await joined(socket, element(bob, parent));
    await joined(socket, element(bob, child));
    const revoked = nextEvent<RealtimeErrorBody>(socket, 'error');
    // A page moved under a page bob cannot see takes his access away.
    const hidden = await newPage(ann);
    expectStatus(await api(t, ann.cookie, 'POST', `/api/v3/spaces/element/${child}/move`, { dst: hidden, placeAfter: null }), 200);
    expect(await revoked).toEqual({ code: REALTIME_ERRORS.accessRevoked, message: expect.any(String), channel: element(bob, child) });
    await noEvent(socket, 'error');
  });

  test('removed from the workspace: 107 for its pages and its top level', async () => {
    const workspace = await createWorkspaceAs(t, ann.cookie, 'Команда');
    await addMembersAs(t, ann.cookie, workspace.id, [{ userId: cat.id, role: 'participant' }]);
    const page = (await createPage(t, ann, { section: 'all', workspaceId: workspace.id, title: 'Общая' })).id;
    const block = await createBlock(page, 'x');
    const socket = await connect(cat);
    await joined(socket, element(cat, page));
    await joined(socket, children(cat, workspace.id));
    const errors = collect<RealtimeErrorBody>(socket, 'error');
    expectStatus(await api(t, ann.cookie, 'POST', `/api/v3/spaces/workspace/${workspace.id}/members/remove`, { userId: cat.id }), 200);
    await until(() => errors.length >= 2, 3000, 'two 107 errors');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(errors.map((e) => [e.code, e.channel]).sort()).toEqual(
      [
        [REALTIME_ERRORS.accessRevoked, element(cat, page)],
        [REALTIME_ERRORS.accessRevoked, children(cat, workspace.id)],
      ].sort(),
    );
    const watcher = await connect(ann);
    await joined(watcher, element(ann, page));
    const edited = onChannel<ElementEdit>(watcher, 'edit', `element:${page}`);
    expectStatus(await updateBlock(block, 'xy'), 200);
    await edited;
    await noEvent(socket, 'edit');
  });

  test('a page deleted forever (trash, then remove): 107 for its channels; the trash alone keeps them', async () => {
    const page = await newPage(ann);
    const socket = await connect(ann);
    await joined(socket, element(ann, page));
    await joined(socket, channels.online(page));
    const errors = collect<RealtimeErrorBody>(socket, 'error');
    expectStatus(await api(t, ann.cookie, 'DELETE', `/api/v3/spaces/element/${page}`), 200);
    await noEvent(socket, 'error', () => true, 250);
    expectStatus(await api(t, ann.cookie, 'POST', `/api/v3/spaces/trash/${page}/remove`), 200);
    await until(() => errors.length >= 2, 3000, 'two 107 errors');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(errors.map((e) => [e.code, e.channel]).sort()).toEqual(
      [
        [REALTIME_ERRORS.accessRevoked, element(ann, page)],
        [REALTIME_ERRORS.accessRevoked, channels.online(page)],
      ].sort(),
    );
    expect(refusal(await request(socket, 'leave', { channel: element(ann, page) }))?.code).toBe(REALTIME_ERRORS.notJoined);
  });
});

describe('a removal holds once it answered (issue 33)', () => {
  /** Every event a socket receives from now on, but errors (the 107s), with the time it came. */
  function everything(socket: Socket): Array<{ event: string; payload: { channel?: string } }> {
    const seen: Array<{ event: string; payload: { channel?: string } }> = [];
    socket.onAny((event: string, payload: { channel?: string }) => {
      if (event !== 'error') seen.push({ event, payload });
    });
    return seen;
  }

  /** A page with a database of one row; `reader` has joined its element, online and children channels. */
  async function readerOnDatabase(owner: Actor, reader: Actor, workspaceId: string, shareIt: boolean) {
    const page = (await createPage(t, owner, { title: 'База', workspaceId, ...(shareIt ? {} : { section: 'all' }) })).id;
    if (shareIt) await share(t, owner, page, [{ userId: reader.id, accessLevel: 'read' }]);
    const block = await createBlock(page, 'текст', { who: owner });
    const database = await createBlock(page, '', {
      who: owner,
      type: 'database',
      data: {
        config: { fields: { MAIN_FIELD: { name: 'Название', type: 'text' }, note: { name: 'Заметка', type: 'text' } } },
        view: { layouts: [{ uid: 'table-1', type: 'table', orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }] }] },
      },
    });
    const made = expectStatus(await api(t, owner.cookie, 'POST', `/api/v3/spaces/database/${database.id}/rows`, { rows: [{ title: 'Строка' }] }), 201);
    const [row] = body<Array<{ id: string }>>(made).data;
    const socket = await connect(reader);
    await joined(socket, element(reader, page));
    await joined(socket, channels.online(page));
    await joined(socket, children(reader, page));
    const watcher = await connect(owner);
    await joined(watcher, element(owner, page));
    await joined(watcher, channels.online(page));
    return { page, block, database, row, socket, watcher };
  }

  /** Writes of the owner to the page and its database; resolves when the owner's own watcher heard them all. */
  async function writeEverything(owner: Actor, setup: Awaited<ReturnType<typeof readerOnDatabase>>, mark: string) {
    const { page, block, database, row, watcher } = setup;
    const key = `element:${page}`;
    const heard = Promise.all([
      onChannel<DatabaseEvent>(watcher, 'database', key, (e) => e.change.kind === 'cells' && JSON.stringify(e.change).includes(mark)),
      onChannel<DatabaseEvent>(watcher, 'database', key, (e) => e.change.kind === 'rows' && JSON.stringify(e.change).includes(mark)),
      onChannel<ElementEdit>(watcher, 'edit', key, (e) => JSON.stringify(e.block ?? {}).includes(mark)),
    ]);
    const writes = await Promise.all([
      api(t, owner.cookie, 'POST', `/api/v3/spaces/row/${row.id}/cells/note`, { value: mark, version: 0 }),
      api(t, owner.cookie, 'POST', `/api/v3/spaces/database/${database.id}/rows`, { rows: [{ title: mark }] }),
      api(t, owner.cookie, 'POST', blockUrl(block.id), { version: block.version, type: 'text', data: text(mark) }),
    ]);
    expect(writes.map((res) => res.statusCode)).toEqual([200, 201, 200]);
    expect((await request(watcher, 'position', { channel: channels.online(page), caret: null })).ok).toBe(true);
    await heard;
    // Past the change watch's re-check (50 ms + 50 ms): the old code had let them through by then.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  test.each([
    ['a page grant removed (member/remove)', 'page'],
    ['removed from the workspace (members/remove)', 'workspace'],
  ] as const)('%s: a cell, a new row, a block and a caret written 1 ms after the answer never reach the removed reader', async (_name, how) => {
    const workspace = how === 'workspace' ? await createWorkspaceAs(t, ann.cookie, 'Команда') : null;
    if (workspace) await addMembersAs(t, ann.cookie, workspace.id, [{ userId: cat.id, role: 'participant' }]);
    const reader = how === 'page' ? bob : cat;
    const setup = await readerOnDatabase(ann, reader, workspace?.id ?? ann.workspaceId, how === 'page');
    const errors = collect<RealtimeErrorBody>(setup.socket, 'error');
    const removal =
      how === 'page'
        ? await api(t, ann.cookie, 'POST', `/api/v3/spaces/element/${setup.page}/member/remove`, { userId: reader.id })
        : await api(t, ann.cookie, 'POST', `/api/v3/spaces/workspace/${workspace?.id}/members/remove`, { userId: reader.id });
    expectStatus(removal, 200);
    const after = everything(setup.socket);
    await new Promise((resolve) => setTimeout(resolve, 1));
    await writeEverything(ann, setup, `после-${how}`);
    expect(after).toEqual([]);
    // And the reader was told why.
    await until(() => errors.length >= 3, 3000, 'three 107 errors');
    expect(new Set(errors.map((e) => e.code))).toEqual(new Set([REALTIME_ERRORS.accessRevoked]));
  });

  test('a write racing the removal, and a join racing it: nothing written after the answer reaches the reader', async () => {
    for (let round = 0; round < 3; round++) {
      const setup = await readerOnDatabase(ann, bob, ann.workspaceId, true);
      const late = await connect(bob);
      const [racing, joinAnswer, removal] = await Promise.all([
        api(t, ann.cookie, 'POST', blockUrl(setup.block.id), { version: setup.block.version, type: 'text', data: text('наперегонки') }),
        join(late, element(bob, setup.page)),
        api(t, ann.cookie, 'POST', `/api/v3/spaces/element/${setup.page}/member/remove`, { userId: bob.id }),
      ]);
      expectStatus(racing, 200);
      expectStatus(removal, 200);
      const heard = [everything(setup.socket), everything(late)];
      const next = { ...setup, block: { ...setup.block, version: setup.block.version + 1 } };
      await writeEverything(ann, next, `гонка-${round}`);
      const after = heard.flat();
      expect(after.filter((e) => JSON.stringify(e.payload).includes(`гонка-${round}`) || e.event === 'position')).toEqual([]);
      // The racing join was refused, or let in and taken out again before the removal answered.
      if (!joinAnswer.ok) expect(joinAnswer.error.code).toBe(REALTIME_ERRORS.forbidden);
      for (const socket of sockets.splice(0)) socket.close();
    }
  });
});

describe('events after every block write', () => {
  test('create, update, delete, restore, move, clone: add, edit, remove with origin and time; a client not joined hears nothing', async () => {
    const page = await newPage();
    const watcher = await connect(ann, { clientId: 'watcher-0001' });
    await joined(watcher, element(ann, page));
    const outsider = await connect(ann);
    const outsiderEvents = ['edit', 'add', 'remove'].flatMap((event) => collect(outsider, event));
    // Someone else with access, but not on the page.
    await share(t, ann, page, [{ userId: bob.id, accessLevel: 'edit' }]);
    const bobSocket = await connect(bob);
    const bobEvents = ['edit', 'add', 'remove'].flatMap((event) => collect(bobSocket, event));
    const key = `element:${page}`;
    const origin = 'writer-client-1';

    let from = Date.now();
    let add = onChannel<ElementAdd>(watcher, 'add', key);
    const parent = await createBlock(page, 'родитель', { clientId: origin });
    const added = await add;
    expect(added).toEqual({ channel: key, pageId: page, origin, at: expect.any(String), blocks: [parent] });
    expectRecent(added.at, from);

    add = onChannel<ElementAdd>(watcher, 'add', key);
    const child = await createBlock(page, 'ребёнок', { parentId: parent.id });
    expect(await add).toMatchObject({ origin: null, blocks: [child] });
    add = onChannel<ElementAdd>(watcher, 'add', key);
    const second = await createBlock(page, 'второй', { placeAfter: parent.id, clientId: origin });
    await add;

    from = Date.now();
    let edit = onChannel<ElementEdit>(watcher, 'edit', key);
    const updated = body<WireBlock>(expectStatus(await updateBlock(parent, 'родитель!', origin), 200)).data;
    const edited = await edit;
    expect(edited).toEqual({ channel: key, pageId: page, origin, at: expect.any(String), block: updated });
    expect(edited.block).toMatchObject({ version: 2, data: text('родитель!') });
    expectRecent(edited.at, from);

    edit = onChannel<ElementEdit>(watcher, 'edit', key);
    expectStatus(await api(t, ann.cookie, 'POST', `${blockUrl(second.id)}/move`, { parentId: parent.id, placeAfter: child.id }, clientHeader(origin)), 200);
    expect(await edit).toMatchObject({ origin, block: { id: second.id, parentId: parent.id, placeAfter: child.id, version: 1, data: text('второй') } });

    add = onChannel<ElementAdd>(watcher, 'add', key);
    const cloneId = crypto.randomUUID();
    const clones = body<WireBlock[]>(
      expectStatus(await api(t, ann.cookie, 'POST', `${blockUrl(parent.id)}/clone`, { id: cloneId }, clientHeader(origin)), 201),
    ).data;
    const cloned = await add;
    expect(cloned).toMatchObject({ origin, blocks: clones });
    expect(cloned.blocks.map((b) => b.id)[0]).toBe(cloneId);
    expect(cloned.blocks).toHaveLength(3);
    expect(cloned.blocks[0]).toMatchObject({ parentId: null, placeAfter: parent.id });

    from = Date.now();
    const remove = onChannel<ElementRemove>(watcher, 'remove', key);
    expectStatus(await api(t, ann.cookie, 'DELETE', blockUrl(parent.id), undefined, clientHeader(origin)), 200);
    const removed = await remove;
    expect(removed).toMatchObject({ channel: key, pageId: page, origin });
    expect([...removed.ids].sort()).toEqual([parent.id, child.id, second.id].sort());
    expect(removed.ids[0]).toBe(parent.id);
    expectRecent(removed.at, from);

    add = onChannel<ElementAdd>(watcher, 'add', key);
    const restored = body<WireBlock[]>(
      expectStatus(await api(t, ann.cookie, 'POST', `${blockUrl(parent.id)}/restore`, undefined, clientHeader(origin)), 200),
    ).data;
    const back = await add;
    expect(back).toMatchObject({ origin, blocks: restored });
    expect(back.blocks.map((b) => b.id)).toEqual([parent.id, child.id, second.id]);

    // A revive (create with a deleted block's id) is an add too.
    expectStatus(await api(t, ann.cookie, 'DELETE', blockUrl(child.id)), 200);
    add = onChannel<ElementAdd>(watcher, 'add', key);
    const revived = body<WireBlock>(
      expectStatus(
        await api(t, ann.cookie, 'POST', '/api/v3/spaces/block', { id: child.id, pageId: page, type: 'text', data: text('снова'), parentId: parent.id }),
        201,
      ),
    ).data;
    expect((await add).blocks).toEqual([revived]);

    // A refused write tells nobody.
    const stale = await api(t, ann.cookie, 'POST', blockUrl(parent.id), { version: 1, type: 'text', data: text('устарело') });
    expect(stale.statusCode).toBe(422);
    await noEvent(watcher, 'edit', (e) => (e as ElementEdit).block.id === parent.id);

    expect(outsiderEvents).toEqual([]);
    expect(bobEvents).toEqual([]);
  });

  test('a database update: edit of the database, then a reset of its rows (cells it cleared); a cell write: its cell with the version', async () => {
    const page = await newPage();
    const fields = {
      MAIN_FIELD: { name: 'Название', type: 'text' },
      price: { name: 'Цена', type: 'number' },
      done: { name: 'Готово', type: 'checkbox' },
    };
    const view = {
      layouts: [
        {
          uid: 'table-1',
          type: 'table',
          orderedFields: [
            { fieldId: 'MAIN_FIELD', isWrap: false },
            { fieldId: 'price', isWrap: true },
          ],
        },
      ],
    };
    const database = await createBlock(page, '', { type: 'database', data: { config: { fields }, view } });
    const made = expectStatus(
      await api(t, ann.cookie, 'POST', `/api/v3/spaces/database/${database.id}/rows`, { rows: [{ title: 'Строка', values: { price: 12, done: true } }] }),
      201,
    );
    const [row] = body<Array<{ id: string }>>(made).data;
    const socket = await connect(ann);
    await joined(socket, element(ann, page));
    const key = `element:${page}`;
    const edit = onChannel<ElementEdit>(socket, 'edit', key);
    const reset = onChannel<DatabaseEvent>(socket, 'database', key, (payload) => payload.origin === 'db-editor-01' && payload.change.kind === 'reset');
    const { price: _dropped, ...kept } = fields;
    const nextView = { layouts: [{ uid: 'table-1', type: 'table', orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }] }] };
    const res = await api(
      t,
      ann.cookie,
      'POST',
      blockUrl(database.id),
      { version: 1, type: 'database', data: { config: { fields: kept }, view: nextView } },
      clientHeader('db-editor-01'),
    );
    expectStatus(res, 200);
    expect(await edit).toMatchObject({ origin: 'db-editor-01', block: { id: database.id, version: 2, data: { config: { fields: kept } } } });
    expect(await reset).toMatchObject({ pageId: page, databaseId: database.id, change: { kind: 'reset' } });
    const cell = onChannel<DatabaseEvent>(socket, 'database', key, (payload) => payload.change.kind === 'cells');
    expectStatus(await api(t, ann.cookie, 'POST', `/api/v3/spaces/row/${row.id}/cells/done`, { value: false, version: 1 }, clientHeader('db-editor-02')), 200);
    expect(await cell).toMatchObject({
      origin: 'db-editor-02',
      databaseId: database.id,
      change: { kind: 'cells', rowId: row.id, cells: [{ fieldId: 'done', value: false, version: 2 }] },
    });
  });

  test("a page's title, icon or cover: edit with the page's fields on its element channel, with origin", async () => {
    const page = await newPage();
    const socket = await connect(ann);
    await joined(socket, element(ann, page));
    const edit = nextEvent<ElementPageEdit>(socket, 'edit', (e) => 'page' in e);
    expectStatus(await api(t, ann.cookie, 'PATCH', `/api/v3/spaces/element/${page}`, { title: 'Новое имя' }, clientHeader('title-editor-1')), 200);
    expect(await edit).toMatchObject({
      channel: `element:${page}`,
      pageId: page,
      origin: 'title-editor-1',
      page: { id: page, title: 'Новое имя', icon: null, cover: null },
    });
    const icon = nextEvent<ElementPageEdit>(socket, 'edit', (e) => 'page' in e);
    expectStatus(await api(t, ann.cookie, 'PATCH', `/api/v3/spaces/element/${page}`, { icon: '📘' }), 200);
    expect(await icon).toMatchObject({ origin: null, page: { title: 'Новое имя', icon: '📘' } });
  });
});

describe('history', () => {
  test('join with since: blocks edited, moved, made and restored since, the ids removed since; older changes are left out', async () => {
    const page = await newPage();
    const [edited, moved, removed, restored, untouched, anchor] = await Promise.all(
      ['правка', 'сдвиг', 'удалить', 'вернуть', 'как было', 'якорь'].map((v) => createBlock(page, v)),
    );
    expectStatus(await api(t, ann.cookie, 'DELETE', blockUrl(restored.id)), 200);
    // Everything so far happened long ago (beyond the 10 s overlap).
    const longAgo = new Date(Date.now() - 3_600_000).toISOString();
    await t.app.db.updateTable('blocks').set({ updated_at: longAgo, created_at: longAgo }).where('page_id', '=', page).execute();
    await t.app.db.updateTable('blocks').set({ deleted_at: longAgo }).where('id', '=', restored.id).execute();
    const loaded = body<WireBlock[]>(expectStatus(await api(t, ann.cookie, 'GET', `/api/v3/spaces/note/${page}/blocks`), 200));
    const since = (loaded.meta as { at: string }).at;
    expect(loaded.data.map((b) => b.id)).not.toContain(restored.id);

    expectStatus(await updateBlock(edited, 'правка!'), 200);
    expectStatus(await api(t, ann.cookie, 'POST', `${blockUrl(moved.id)}/move`, { parentId: anchor.id }), 200);
    expectStatus(await api(t, ann.cookie, 'DELETE', blockUrl(removed.id)), 200);
    expectStatus(await api(t, ann.cookie, 'POST', `${blockUrl(restored.id)}/restore`), 200);
    const made = await createBlock(page, 'новый');

    const socket = await connect(ann);
    const answer = await joined<{ history: BlockHistory }>(socket, element(ann, page), since);
    const { history } = answer;
    expect(history).toMatchObject({ channel: `element:${page}`, pageId: page, removed: [removed.id] });
    expect(history.blocks.map((b) => b.id).sort()).toEqual([edited.id, moved.id, restored.id, made.id].sort());
    expect(history.blocks.find((b) => b.id === edited.id)).toMatchObject({ version: 2, data: text('правка!') });
    expect(history.blocks.find((b) => b.id === moved.id)).toMatchObject({ parentId: anchor.id, placeAfter: null });
    expect(history.blocks.map((b) => b.id)).not.toContain(untouched.id);
    expect(Date.parse(history.at)).toBeGreaterThanOrEqual(Date.parse(since));
    expect(answer.at).toEqual(expect.any(String));

    // A history request on the joined channel: from the answer's `at`, only what changed later.
    const later = await createBlock(page, 'позже');
    const next = await request<{ history: BlockHistory }>(socket, 'history', { channel: element(ann, page), since: history.at });
    if (!next.ok) throw new Error(JSON.stringify(next.error));
    // The overlap may send recent blocks again (harmless); the new one is there, the old untouched one is not.
    expect(next.history.blocks.map((b) => b.id)).toContain(later.id);
    expect(next.history.blocks.map((b) => b.id)).not.toContain(untouched.id);
    // Without since: no history.
    const plain = await joined(await connect(ann), element(ann, page));
    expect(plain).not.toHaveProperty('history');
  });
});

describe('presence', () => {
  test('online: members with self on join, join/position/leave to the others, leave on disconnect', async () => {
    const page = await newPage(ann);
    await share(t, ann, page, [{ userId: bob.id, accessLevel: 'read' }]);
    const annSocket = await connect(ann, { clientId: 'ann-presence-1' });
    const channel = channels.online(page);
    const key = `online:${page}`;
    const first = await joined<{ members: PresenceMember[] }>(annSocket, channel);
    expect(first.members).toEqual([
      { clientId: 'ann-presence-1', userId: ann.id, name: expect.any(String), avatar: null, color: presenceColor(ann.id), caret: null },
    ]);

    const caret = { anchor: { blockId: 'b1', offset: 2 }, focus: { blockId: 'b1', offset: 5 } };
    expect((await request(annSocket, 'position', { channel, caret })).ok).toBe(true);

    const bobSocket = await connect(bob, { clientId: 'bob-presence-1' });
    const joinSeen = onChannel<PresenceJoin>(annSocket, 'join', key);
    const second = await joined<{ members: PresenceMember[] }>(bobSocket, channel);
    expect(second.members.map((m) => [m.clientId, m.userId, m.caret]).sort()).toEqual(
      [
        ['ann-presence-1', ann.id, caret],
        ['bob-presence-1', bob.id, null],
      ].sort(),
    );
    expect(await joinSeen).toEqual({
      channel: key,
      pageId: page,
      member: { clientId: 'bob-presence-1', userId: bob.id, name: expect.any(String), avatar: null, color: presenceColor(bob.id), caret: null },
    });
    await noEvent(bobSocket, 'join');

    const moved = onChannel<PresencePosition>(annSocket, 'position', key);
    const bobCaret = { anchor: { blockId: 'b2', offset: 0 }, focus: { blockId: 'b2', offset: 0 } };
    expect((await request(bobSocket, 'position', { channel, caret: bobCaret })).ok).toBe(true);
    expect(await moved).toEqual({ channel: key, pageId: page, clientId: 'bob-presence-1', caret: bobCaret });
    await noEvent(bobSocket, 'position');
    // Leaving the page (null caret first).
    const cleared = onChannel<PresencePosition>(annSocket, 'position', key, (p) => p.caret === null);
    await request(bobSocket, 'position', { channel, caret: null });
    await cleared;

    // A third connection (ann's second tab) sees both with their last carets.
    const third = await connect(ann, { clientId: 'ann-presence-2' });
    const all = await joined<{ members: PresenceMember[] }>(third, channel);
    expect(Object.fromEntries(all.members.map((m) => [m.clientId, m.caret]))).toEqual({
      'ann-presence-1': caret,
      'bob-presence-1': null,
      'ann-presence-2': null,
    });

    let left = onChannel<PresenceLeave>(annSocket, 'leave', key);
    expect((await request(bobSocket, 'leave', { channel })).ok).toBe(true);
    expect(await left).toEqual({ channel: key, pageId: page, clientId: 'bob-presence-1' });
    // Positions from a connection that left are refused.
    expect(refusal(await request(bobSocket, 'position', { channel, caret: bobCaret }))?.code).toBe(REALTIME_ERRORS.notJoined);

    await joined(bobSocket, channel);
    left = onChannel<PresenceLeave>(annSocket, 'leave', key);
    const leftToo = onChannel<PresenceLeave>(third, 'leave', key);
    bobSocket.close();
    expect(await left).toEqual({ channel: key, pageId: page, clientId: 'bob-presence-1' });
    await leftToo;
    const after = await joined<{ members: PresenceMember[] }>(await connect(bob), channel);
    expect(after.members.map((m) => m.clientId)).not.toContain('bob-presence-1');
  });

  test('presence of one page is not heard on another', async () => {
    const one = await newPage();
    const two = await newPage();
    const a = await connect(ann);
    await joined(a, channels.online(one));
    const b = await connect(ann);
    await joined(b, channels.online(two));
    await noEvent(a, 'join');
  });
});

describe('elementChildren: the sidebar', () => {
  test('create, rename, move (old and new parent), trash, restore, delete forever, reorder, template copy', async () => {
    const workspace = ann.workspaceId;
    const socket = await connect(ann);
    const p = await newPage(ann, { title: 'P' });
    const q = await newPage(ann, { title: 'Q' });
    await joined(socket, children(ann, workspace));
    await joined(socket, children(ann, p));
    await joined(socket, children(ann, q));
    // Events of writes made before the join may still arrive (with PostgreSQL the adapter sends
    // an event on after its NOTIFY), so each step looks for its own page's event among all.
    const seen = collect<ChildrenChange>(socket, 'edit');
    /** Resolves when the children of `parentId` were told about `pageId` after `from` (an index into seen). */
    const told = async (parentId: string, pageId: string, from: number) => {
      const key = `elementChildren:${parentId}`;
      const match = (e: ChildrenChange, i: number) => i >= from && e.channel === key && e.pageId === pageId;
      await until(() => seen.some(match), 5000, `${key} told about ${pageId}`);
      expect(seen.find(match)).toEqual({ channel: key, parentId, pageId });
    };
    /** Runs a write and waits until each parent heard about the page. */
    const step = async (write: () => Promise<unknown>, pageId: () => string, ...parents: string[]) => {
      const from = seen.length;
      await write();
      for (const parent of parents) await told(parent, pageId(), from);
    };

    let made = '';
    await step(
      async () => (made = await newPage(ann, { title: 'Верхняя' })),
      () => made,
      workspace,
    );
    let child = '';
    await step(
      async () => (child = (await createPage(t, ann, { parentId: p, title: 'C' })).id),
      () => child,
      p,
    );
    await step(
      async () => expectStatus(await api(t, ann.cookie, 'PATCH', `/api/v3/spaces/element/${child}`, { title: 'C2' }), 200),
      () => child,
      p,
    );
    await step(
      async () => expectStatus(await api(t, ann.cookie, 'PATCH', `/api/v3/spaces/element/${child}`, { icon: '📘' }), 200),
      () => child,
      p,
    );
    await step(
      async () => expectStatus(await api(t, ann.cookie, 'POST', `/api/v3/spaces/element/${child}/move`, { dst: q, placeAfter: null }), 200),
      () => child,
      p,
      q,
    );
    await step(
      async () => expectStatus(await api(t, ann.cookie, 'DELETE', `/api/v3/spaces/element/${child}`), 200),
      () => child,
      q,
    );
    await step(
      async () => expectStatus(await api(t, ann.cookie, 'POST', `/api/v3/spaces/trash/${child}/restore`), 200),
      () => child,
      q,
    );
    await step(
      async () => expectStatus(await api(t, ann.cookie, 'DELETE', `/api/v3/spaces/element/${child}`), 200),
      () => child,
      q,
    );
    // Deleting for good is heard on its own (the step starts after the trash event was heard).
    await step(
      async () => expectStatus(await api(t, ann.cookie, 'POST', `/api/v3/spaces/trash/${child}/remove`), 200),
      () => child,
      q,
    );

    // Reordering among siblings.
    await createPage(t, ann, { parentId: p, title: 'S1' });
    const other = (await createPage(t, ann, { parentId: p, title: 'S2' })).id;
    await step(
      async () => expectStatus(await api(t, ann.cookie, 'POST', `/api/v3/spaces/element/${other}/placeAfter`, { placeAfter: null }), 200),
      () => other,
      p,
    );

    // A template copied into the section: the workspace's top level hears.
    let root = '';
    const copy = async () =>
      (root = body<{ id: string }>(
        expectStatus(await api(t, ann.cookie, 'POST', '/api/templates/todo-list/copy', { workspaceId: workspace, section: 'private' }), 201),
      ).data.id);
    await step(copy, () => root, workspace);

    // A page's own children channel does not hear the top level, nor another page's children.
    const quiet = await connect(ann);
    await joined(quiet, children(ann, q));
    let top = '';
    await step(
      async () => (top = await newPage(ann)),
      () => top,
      workspace,
    );
    let underP = '';
    await step(
      async () => (underP = (await createPage(t, ann, { parentId: p })).id),
      () => underP,
      p,
    );
    await noEvent(quiet, 'edit');
  });

  test("a page copy (page/clone) into a page tells that page's children channel", async () => {
    const source = await newPage(ann, { title: 'Источник' });
    const target = await newPage(ann, { title: 'Цель' });
    const socket = await connect(ann);
    await joined(socket, children(ann, target));
    const seen = collect<ChildrenChange>(socket, 'edit');
    const copy = body<{ id: string }>(
      expectStatus(await api(t, ann.cookie, 'POST', `/api/v3/spaces/element/${source}/page/clone`, { workspaceId: ann.workspaceId, toElement: target }), 201),
    ).data;
    await until(() => seen.some((e) => e.pageId === copy.id), 5000, 'the copy heard');
    expect(seen.find((e) => e.pageId === copy.id)).toEqual({ channel: `elementChildren:${target}`, parentId: target, pageId: copy.id });
  });
});

describe('elementChildren: people a nested page is shared with directly', () => {
  test('they hear its changes as a change of the workspace top level (their «Доступные мне»), on their own channel', async () => {
    const parent = await newPage(ann, { title: 'Родитель' });
    const nested = (await createPage(t, ann, { parentId: parent, title: 'Вложенная' })).id;
    await share(t, ann, nested, [{ userId: bob.id, accessLevel: 'read' }]);
    const socket = await connect(bob);
    const seen = collect<ChildrenChange>(socket, 'edit');
    expectStatus(await api(t, ann.cookie, 'PATCH', `/api/v3/spaces/element/${nested}`, { title: 'Вложенная 2' }), 200);
    await until(() => seen.some((e) => e.pageId === nested), 5000, 'bob told about the nested page');
    expect(seen.find((e) => e.pageId === nested)).toEqual({ channel: `elementChildren:${ann.workspaceId}`, parentId: ann.workspaceId, pageId: nested });
    // Someone it is not shared with hears nothing.
    const carl = await connect(ann);
    await noEvent(carl, 'edit', (e) => (e as ChildrenChange).pageId === nested);
  });
});

describe('notifications', () => {
  test("a comment mentioning bob: bob's connections get add on the notifications channel; the author's do not", async () => {
    const page = await newPage(ann);
    await share(t, ann, page, [{ userId: bob.id, accessLevel: 'read' }]);
    const bobSocket = await connect(bob);
    const bobTab = await connect(bob);
    const annSocket = await connect(ann);
    const catSocket = await connect(cat);
    const isNotification = (e: unknown) => (e as { channel?: string }).channel === NOTIFICATIONS_CHANNEL;
    const heard = nextEvent<NotificationAdded>(bobSocket, 'add', isNotification);
    const heardToo = nextEvent<NotificationAdded>(bobTab, 'add', isNotification);
    const res = await api(t, ann.cookie, 'POST', `/api/v3/spaces/element/${page}/comments`, {
      content: [{ text: 'Посмотри, ' }, { text: '@bob', mention: { userId: bob.id } }],
    });
    expectStatus(res, 201);
    const added = await heard;
    expect(added).toEqual({ channel: NOTIFICATIONS_CHANNEL, id: expect.any(String), workspaceId: ann.workspaceId });
    expect((await heardToo).id).toBe(added.id);
    const stored = await t.app.db.selectFrom('notifications').selectAll().where('id', '=', added.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ user_id: bob.id, page_id: page });
    await noEvent(annSocket, 'add', isNotification);
    await noEvent(catSocket, 'add', isNotification);
  });

  test('a share invitation: the invited person hears it live', async () => {
    const page = await newPage(ann);
    const catSocket = await connect(cat);
    const heard = nextEvent<NotificationAdded>(catSocket, 'add', (e) => e.channel === NOTIFICATIONS_CHANNEL);
    await share(t, ann, page, [{ userId: cat.id, accessLevel: 'edit' }]);
    const added = await heard;
    const stored = await t.app.db.selectFrom('notifications').selectAll().where('id', '=', added.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ user_id: cat.id, name: 'element_members.invite.member', workspace_id: ann.workspaceId });
    expect(added.workspaceId).toBe(ann.workspaceId);
  });
});

describe('idempotent retries', () => {
  test('the same update sent twice by one client: both 200, nothing doubled, version +2; others with the stale base get 422', async () => {
    const page = await newPage();
    const block = await createBlock(page, 'a');
    const socket = await connect(ann);
    await joined(socket, element(ann, page));
    const edits = collect<ElementEdit>(socket, 'edit');
    const clientId = 'retry-client-01';
    const first = await updateBlock(block, 'ab', clientId);
    const again = await updateBlock(block, 'ab', clientId);
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(body<WireBlock>(first).data).toMatchObject({ version: 2, data: text('ab') });
    expect(body<WireBlock>(again).data).toMatchObject({ version: 3, data: text('ab') });
    // The retry may carry more text typed since: it replaces the earlier attempt, never appends.
    const third = await updateBlock(block, 'abc', clientId);
    expect(body<WireBlock>(expectStatus(third, 200)).data).toMatchObject({ version: 4, data: text('abc') });

    const stored = body<WireBlock>(expectStatus(await api(t, ann.cookie, 'GET', blockUrl(block.id)), 200)).data;
    expect(stored).toMatchObject({ version: 4, data: text('abc') });

    const foreign = await updateBlock(block, 'aX', 'other-client-01');
    expect(foreign.statusCode).toBe(422);
    expect(body<WireBlock>(foreign)).toMatchObject({ errors: [{ code: 'block.version_conflict' }], data: { version: 4, data: text('abc') } });
    const anonymous = await updateBlock(block, 'aY');
    expect(anonymous.statusCode).toBe(422);
    // A client's run ends when someone else writes: its old base is stale from then on.
    expectStatus(await updateBlock({ id: block.id, version: 4 }, 'abc!', 'other-client-01'), 200);
    expect((await updateBlock(block, 'abcd', clientId)).statusCode).toBe(422);

    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(edits.map((e) => [e.origin, e.block.version])).toEqual([
      [clientId, 2],
      [clientId, 3],
      [clientId, 4],
      ['other-client-01', 5],
    ]);
  });

  test("a block deleted and brought back by someone else: the old writer's late retry is a conflict, not an overwrite", async () => {
    const page = await newPage();
    const block = await createBlock(page, 'base');
    const writer = 'old-writer-0001';
    expectStatus(await updateBlock(block, 'base+mine', writer), 200);
    expectStatus(await api(t, ann.cookie, 'DELETE', `${blockUrl(block.id)}?version=2`), 200);
    const revived = await api(
      t,
      ann.cookie,
      'POST',
      '/api/v3/spaces/block',
      { id: block.id, pageId: page, type: 'text', data: text('theirs') },
      clientHeader('reviver-00001'),
    );
    expect(body<WireBlock>(expectStatus(revived, 201)).data).toMatchObject({ version: 3, data: text('theirs') });
    // The writer's answer for version 2 was lost; it sends again from version 1.
    expect((await updateBlock(block, 'base+mine+more', writer)).statusCode).toBe(422);
    // The one who brought it back may retry their own write.
    expectStatus(await updateBlock({ id: block.id, version: 2 }, 'theirs!', 'reviver-00001'), 200);
    const stored = body<WireBlock>(await api(t, ann.cookie, 'GET', blockUrl(block.id))).data;
    expect(stored).toMatchObject({ version: 4, data: text('theirs!') });
  });

  test('two retries from one client sent at once: both answered, one text, versions in order', async () => {
    const page = await newPage();
    const block = await createBlock(page, 'x');
    const clientId = 'retry-client-02';
    const answers = await Promise.all([updateBlock(block, 'xy', clientId), updateBlock(block, 'xy', clientId)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => body<WireBlock>(a).data.version).sort()).toEqual([2, 3]);
    const stored = body<WireBlock>(await api(t, ann.cookie, 'GET', blockUrl(block.id))).data;
    expect(stored).toMatchObject({ version: 3, data: text('xy') });
  });
});
