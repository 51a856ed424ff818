import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Socket } from 'socket.io-client';
import type { WireBlock } from '../../schema/block';
import {
  channels,
  NOTIFICATIONS_CHANNEL,
  REALTIME_ERRORS,
  REALTIME_EVENTS,
  type ElementAdd,
  type ElementEdit,
  type ElementVersionRecorded,
  type NotificationAdded,
  type PresenceJoin,
  type PresenceLeave,
  type PresenceMember,
  type PresencePosition,
  type RealtimeAck,
  type RealtimeErrorBody,
} from '../../schema/realtime';
import type { AiDelta, AiResult } from '../../schema/ai';
import type { WirePageVersion } from '../../schema/history';
import { startOpenAiServer, type OpenAiServer } from '../../test/helpers/openaiServer';
import { collect, connectRealtime, disconnected, nextEvent, noEvent, request, until } from '../../test/helpers/realtimeClient';
import { freePort, startServerProcess, type ServerProcess } from '../../test/helpers/serverProcess';
import { createMigratedPostgresDatabase, testDb } from '../../test/helpers/testApp';

/**
 * Scale-out (docs/realtime.md, "Several server processes"): two real server processes on one
 * PostgreSQL database, with events crossing between them through PostgreSQL LISTEN/NOTIFY (the
 * default) or through Redis (REDIS_URL). A client connected to process A hears what is done
 * through process B: edits, presence, notifications, access taken away, and the AI assistant's
 * stream (asked through B, heard on A, in order; stopped when its owner on A is gone).
 *
 * SQLite deployments are one process (no adapter), so this suite runs on the postgres project
 * only; on the sqlite project it is skipped.
 */

const REDIS_SERVER = '/usr/bin/redis-server';
/** PostgreSQL only: SQLite deployments are one process, with no adapter (skipped, not failed, on the sqlite project). */
const onPostgres = testDb() === 'postgres' ? describe : describe.skip;

jest.setTimeout(60_000);

interface Person {
  email: string;
  cookie: string;
  id: string;
  workspaceId: string;
}

/** A throwaway Redis (no persistence) on a free port, as a child process of the test. */
async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  if (!fs.existsSync(REDIS_SERVER)) {
    throw new Error(`${REDIS_SERVER} is missing: install it (Debian: apt-get install -y redis-server; .ci/run does this) to test the Redis adapter`);
  }
  const port = await freePort();
  const child: ChildProcess = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}):\n${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A JSON API call to one of the processes. */
async function call<T = unknown>(
  server: ServerProcess,
  who: Person | null,
  method: string,
  path: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; data: T }> {
  const res = await fetch(server.url + path, {
    method,
    headers: { ...(who ? { cookie: who.cookie } : {}), ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
  });
  const text = await res.text();
  const parsed = text ? (JSON.parse(text) as { data: T }) : { data: undefined as T };
  return { status: res.status, data: parsed.data };
}

async function ok<T>(answer: Promise<{ status: number; data: T }>, status = 200): Promise<T> {
  const { status: got, data } = await answer;
  if (got !== status) throw new Error(`expected ${status}, got ${got}: ${JSON.stringify(data)}`);
  return data;
}

/** Signs in through the real flow on `server` (the code is printed in its log: no SMTP). */
async function signInVia(server: ServerProcess, email: string): Promise<Person> {
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  const codesIn = (log: string) => [...log.matchAll(/sign-in code for ([^:\s]+): (\d{6})/g)].filter((m) => m[1] === email).map((m) => m[2]);
  const before = codesIn(server.log()).length;
  const sent = await fetch(`${server.url}/api/auth/send_code`, form({ email }));
  if (sent.status !== 200) throw new Error(`send_code answered ${sent.status}: ${await sent.text()}`);
  // The code of this request, not one printed for an earlier sign-in.
  await until(() => codesIn(server.log()).length > before, 10_000, `a new sign-in code for ${email}`);
  const pin = codesIn(server.log()).at(-1) as string;
  const login = await fetch(`${server.url}/api/auth/login`, form({ email, pin }));
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  const sid = login.headers.getSetCookie().find((c) => c.startsWith('sid='));
  if (!sid) throw new Error('no session cookie');
  const cookie = sid.split(';')[0];
  const partial = { email, cookie, id: '', workspaceId: '' };
  const user = await ok(call<{ id: string }>(server, partial, 'GET', '/api/user/current'));
  const workspaces = await ok(call<Array<{ id: string }>>(server, partial, 'GET', '/api/v3/spaces/workspace'));
  return { ...partial, id: user.id, workspaceId: workspaces[0].id };
}

onPostgres('scale-out (PostgreSQL only: SQLite deployments are one process, no adapter)', () => {
  let database: Awaited<ReturnType<typeof createMigratedPostgresDatabase>> | undefined;
  let model: OpenAiServer | undefined;

  beforeAll(async () => {
    model = await startOpenAiServer();
    // Migrated here, so both processes of each case start at once.
    database = await createMigratedPostgresDatabase();
  });

  afterAll(async () => {
    await database?.drop();
    await model?.close();
  });

  describe.each([
    ['PostgreSQL (LISTEN/NOTIFY)', 'postgres'],
    ['Redis (REDIS_URL)', 'redis'],
  ] as const)('two server processes on one database, events through %s', (_name, adapter) => {
    let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
    let a: ServerProcess | undefined;
    let b: ServerProcess | undefined;
    let ann: Person;
    let bob: Person;
    const sockets: Socket[] = [];

    beforeAll(async () => {
      const started = Date.now();
      const env: Record<string, string> = {
        DATABASE_URL: (database as { url: string }).url,
        LOG_LEVEL: 'info',
        AI_BASE_URL: (model as OpenAiServer).url,
        // The same people sign in again and again from one address here (SEND_CODE_LIMIT_PER_IP_EMAIL is 3 in 10 minutes).
        SEND_CODE_LIMIT_PER_IP_EMAIL: '100',
        SEND_CODE_LIMIT_PER_EMAIL: '100',
      };
      if (adapter === 'redis') {
        redis = await startRedis();
        env.REDIS_URL = redis.url;
      }
      [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
      [ann, bob] = [await signInVia(b, 'ann@example.com'), await signInVia(b, 'bob@example.com')];
      // Visible in the test output: the suite must stay fast (CI runs everything in 90 minutes).
      console.info(`scale-out (${adapter}): database, ${adapter === 'redis' ? 'redis, ' : ''}two processes and sign-ins ready in ${Date.now() - started} ms`);
    }, 90_000);

    afterEach(() => {
      for (const socket of sockets.splice(0)) socket.close();
    });

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await redis?.stop();
    });

    async function connect(server: ServerProcess, who: Person, clientId?: string): Promise<Socket> {
      const socket = await connectRealtime(server.url, { cookie: who.cookie }, { clientId });
      sockets.push(socket);
      return socket;
    }

    async function joined<T = Record<string, unknown>>(socket: Socket, channel: string): Promise<T> {
      const answer = await request<T>(socket, 'join', { channel });
      if (!answer.ok) throw new Error(`join ${channel} refused: ${JSON.stringify(answer.error)}`);
      return answer;
    }

    async function newPage(server: ServerProcess, who: Person, title = 'Страница'): Promise<string> {
      return (await ok(call<{ id: string }>(server, who, 'POST', '/api/v3/spaces/section/private', { title }), 201)).id;
    }

    test('a client on process A hears blocks made and edited through process B (and the other way round), with origin', async () => {
      const server = { a: a as ServerProcess, b: b as ServerProcess };
      const page = await newPage(server.b, ann);
      const onA = await connect(server.a, ann);
      const onB = await connect(server.b, ann);
      await joined(onA, channels.element(page, ann.id));
      await joined(onB, channels.element(page, ann.id));
      const key = `element:${page}`;

      const added = nextEvent<ElementAdd>(onA, 'add', (e) => e.channel === key);
      const block = await ok(
        call<WireBlock>(
          server.b,
          ann,
          'POST',
          '/api/v3/spaces/block',
          { pageId: page, type: 'text', data: { tokens: [{ text: 'с B' }] } },
          { 'x-client-id': 'writer-on-b-1' },
        ),
        201,
      );
      expect(await added).toMatchObject({ channel: key, pageId: page, origin: 'writer-on-b-1', blocks: [block] });

      const started = Date.now();
      const edited = nextEvent<ElementEdit>(onA, 'edit', (e) => e.channel === key);
      const update = await ok(
        call<WireBlock>(
          server.b,
          ann,
          'POST',
          `/api/v3/spaces/block/${block.id}`,
          { version: 1, type: 'text', data: { tokens: [{ text: 'с B!' }] } },
          { 'x-client-id': 'writer-on-b-1' },
        ),
      );
      const seen = await edited;
      expect(seen).toMatchObject({ channel: key, pageId: page, origin: 'writer-on-b-1', block: update });
      expect(seen.block.version).toBe(2);
      const crossMs = Date.now() - started;

      // And back: a write through A reaches the client on B.
      const back = nextEvent<ElementEdit>(onB, 'edit', (e) => e.channel === key && e.block.version === 3);
      await ok(call<WireBlock>(server.a, ann, 'POST', `/api/v3/spaces/block/${block.id}`, { version: 2, type: 'text', data: { tokens: [{ text: 'с A' }] } }));
      expect((await back).block.data).toEqual({ tokens: [{ text: 'с A' }] });

      // A client on A that did not join hears nothing.
      const idle = await connect(server.a, ann);
      const idleEvents = ['edit', 'add', 'remove'].flatMap((event) => collect(idle, event));
      const last = nextEvent<ElementEdit>(onA, 'edit', (e) => e.channel === key && e.block.version === 4);
      await ok(call<WireBlock>(server.b, ann, 'POST', `/api/v3/spaces/block/${block.id}`, { version: 3, type: 'text', data: { tokens: [{ text: '!' }] } }));
      await last;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(idleEvents).toEqual([]);
      console.info(`scale-out (${adapter}): an edit through B reached a client on A ${crossMs} ms after it was sent`);
    });

    test('a version of a page recorded through B (docs/history.md) reaches the client on A: versionRecorded crosses over', async () => {
      const server = { a: a as ServerProcess, b: b as ServerProcess };
      const page = await newPage(server.b, ann, 'История');
      const onA = await connect(server.a, ann);
      await joined(onA, channels.element(page, ann.id));
      await ok(call<WireBlock>(server.b, ann, 'POST', '/api/v3/spaces/block', { pageId: page, type: 'text', data: { tokens: [{ text: 'версия' }] } }), 201);
      const heard = nextEvent<ElementVersionRecorded>(onA, REALTIME_EVENTS.versionRecorded, (e) => e.channel === `element:${page}`);
      const { recorded } = await ok(call<{ recorded: WirePageVersion | null }>(server.b, ann, 'POST', `/api/v3/spaces/element/${page}/versions`));
      expect(recorded).toMatchObject({ kind: 'edit', title: 'История' });
      expect((await heard).version).toEqual(recorded);
    });

    test('presence across processes: members listed from both, with carets; join, position and leave cross over', async () => {
      const server = { a: a as ServerProcess, b: b as ServerProcess };
      const page = await newPage(server.b, ann);
      await ok(call(server.b, ann, 'POST', `/api/v3/spaces/element/${page}/member/add`, [{ userId: bob.id, accessLevel: 'read' }]));
      const channel = channels.online(page);
      const key = `online:${page}`;
      const annOnA = await connect(server.a, ann, 'ann-on-a-0001');
      await joined(annOnA, channel);
      const caret = { anchor: { blockId: 'b1', offset: 1 }, focus: { blockId: 'b1', offset: 4 } };
      expect((await request(annOnA, 'position', { channel, caret })).ok).toBe(true);

      const joinSeen = nextEvent<PresenceJoin>(annOnA, 'join', (e) => e.channel === key);
      const bobOnB = await connect(server.b, bob, 'bob-on-b-0001');
      const answer = await joined<{ members: PresenceMember[] }>(bobOnB, channel);
      expect(answer.members.map((m) => [m.clientId, m.userId, m.caret]).sort()).toEqual(
        [
          ['ann-on-a-0001', ann.id, caret],
          ['bob-on-b-0001', bob.id, null],
        ].sort(),
      );
      expect(await joinSeen).toMatchObject({ pageId: page, member: { clientId: 'bob-on-b-0001', userId: bob.id } });

      const moved = nextEvent<PresencePosition>(annOnA, 'position', (e) => e.channel === key);
      const bobCaret = { anchor: { blockId: 'b2', offset: 0 }, focus: { blockId: 'b2', offset: 3 } };
      expect((await request(bobOnB, 'position', { channel, caret: bobCaret })).ok).toBe(true);
      expect(await moved).toEqual({ channel: key, pageId: page, clientId: 'bob-on-b-0001', caret: bobCaret });

      // A third connection on A lists both, bob's caret included (read from process B).
      const third = await connect(server.a, ann, 'ann-on-a-0002');
      const all = await joined<{ members: PresenceMember[] }>(third, channel);
      expect(Object.fromEntries(all.members.map((m) => [m.clientId, m.caret]))).toEqual({
        'ann-on-a-0001': caret,
        'bob-on-b-0001': bobCaret,
        'ann-on-a-0002': null,
      });

      const left = nextEvent<PresenceLeave>(annOnA, 'leave', (e) => e.channel === key);
      bobOnB.close();
      expect(await left).toEqual({ channel: key, pageId: page, clientId: 'bob-on-b-0001' });
    });

    test('a grant removed through B drops the client on A from the page (107), and nothing more reaches it', async () => {
      const server = { a: a as ServerProcess, b: b as ServerProcess };
      const page = await newPage(server.b, ann);
      const block = await ok(
        call<WireBlock>(server.b, ann, 'POST', '/api/v3/spaces/block', { pageId: page, type: 'text', data: { tokens: [{ text: 'x' }] } }),
        201,
      );
      const bobOnA = await connect(server.a, bob);
      const invited = nextEvent<NotificationAdded>(bobOnA, 'add', (e) => e.channel === NOTIFICATIONS_CHANNEL);
      await ok(call(server.b, ann, 'POST', `/api/v3/spaces/element/${page}/member/add`, [{ userId: bob.id, accessLevel: 'edit' }]));
      // The invitation made on B is heard on A.
      expect(await invited).toMatchObject({ channel: NOTIFICATIONS_CHANNEL, workspaceId: ann.workspaceId });
      await joined(bobOnA, channels.element(page, bob.id));
      await joined(bobOnA, channels.online(page));
      const errors = collect<RealtimeErrorBody>(bobOnA, 'error');

      const started = Date.now();
      await ok(call(server.b, ann, 'POST', `/api/v3/spaces/element/${page}/member/remove`, { userId: bob.id }));
      await until(() => errors.length >= 2, 10_000, 'two 107 errors on A');
      const revokedMs = Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(errors.map((e) => [e.code, e.channel]).sort()).toEqual(
        [
          [REALTIME_ERRORS.accessRevoked, channels.element(page, bob.id)],
          [REALTIME_ERRORS.accessRevoked, channels.online(page)],
        ].sort(),
      );
      // Writes through either process no longer reach him.
      const annOnA = await connect(server.a, ann);
      await joined(annOnA, channels.element(page, ann.id));
      const edited = nextEvent<ElementEdit>(annOnA, 'edit', (e) => e.channel === `element:${page}`);
      await ok(call(server.b, ann, 'POST', `/api/v3/spaces/block/${block.id}`, { version: 1, type: 'text', data: { tokens: [{ text: 'xy' }] } }));
      await edited;
      await noEvent(bobOnA, 'edit');
      const again = (await request(bobOnA, 'join', { channel: channels.element(page, bob.id) })) as RealtimeAck;
      expect(again.ok ? null : again.error.code).toBe(REALTIME_ERRORS.forbidden);
      console.info(`scale-out (${adapter}): access taken away through B reached the client on A in ${revokedMs} ms`);
    });

    test('a grant removed through B: writes through A and B 1 ms after its answer never reach the reader on A (issue 33)', async () => {
      const server = { a: a as ServerProcess, b: b as ServerProcess };
      for (let round = 0; round < 3; round++) {
        const page = await newPage(server.b, ann);
        const block = await ok(
          call<WireBlock>(server.b, ann, 'POST', '/api/v3/spaces/block', { pageId: page, type: 'text', data: { tokens: [{ text: 'x' }] } }),
          201,
        );
        await ok(call(server.b, ann, 'POST', `/api/v3/spaces/element/${page}/member/add`, [{ userId: bob.id, accessLevel: 'read' }]));
        const bobOnA = await connect(server.a, bob);
        await joined(bobOnA, channels.element(page, bob.id));
        await joined(bobOnA, channels.online(page));
        const annOnA = await connect(server.a, ann);
        const annOnB = await connect(server.b, ann);
        await joined(annOnA, channels.element(page, ann.id));
        await joined(annOnB, channels.online(page));

        const started = Date.now();
        await ok(call(server.b, ann, 'POST', `/api/v3/spaces/element/${page}/member/remove`, { userId: bob.id }));
        const answeredMs = Date.now() - started;
        const heard: string[] = [];
        bobOnA.onAny((event: string) => {
          if (event !== 'error') heard.push(event);
        });
        await new Promise((resolve) => setTimeout(resolve, 1));
        const key = `element:${page}`;
        const seen = nextEvent<ElementEdit>(annOnA, 'edit', (e) => e.channel === key && e.block.version === 3);
        await Promise.all([
          ok(call(server.b, ann, 'POST', `/api/v3/spaces/block/${block.id}`, { version: 1, type: 'text', data: { tokens: [{ text: 'B' }] } })),
          request(annOnB, 'position', { channel: channels.online(page), caret: null }),
        ]);
        await ok(call(server.a, ann, 'POST', `/api/v3/spaces/block/${block.id}`, { version: 2, type: 'text', data: { tokens: [{ text: 'A' }] } }));
        await seen;
        await new Promise((resolve) => setTimeout(resolve, 250));
        expect(heard).toEqual([]);
        console.info(`scale-out (${adapter}): a removal through B answered in ${answeredMs} ms (the reader on A checked before it)`);
        for (const socket of sockets.splice(0)) socket.close();
      }
    });

    test('the AI assistant: asked through B, its stream reaches the owner on A in order; the owner gone from A stops it on B', async () => {
      const server = { a: a as ServerProcess, b: b as ServerProcess };
      const fake = model as OpenAiServer;
      const socket = await connect(server.a, ann);
      const id = crypto.randomUUID();
      await joined(socket, channels.aiproxy(id));
      const pieces = Array.from({ length: 30 }, (_, i) => `${i} `);
      fake.enqueue({ kind: 'stream', pieces, delayMs: 0 });
      const deltas = collect<AiDelta>(socket, 'add');
      const result = nextEvent<AiResult>(socket, 'edit', (e) => e.channel === channels.aiproxy(id), 10_000);
      await ok(call(server.b, ann, 'POST', '/api/ai/continue', { websocket_id: id, text: 'Раз, два, три', context: '' }), 202);
      expect((await result).text).toBe(pieces.join('').trimEnd());
      // Pieces sent back to back by B crossed over the adapter one after another, none after the end.
      expect(deltas.map((d) => d.delta)).toEqual(pieces);

      // The owner's connection on A closes: B's job is given up after the 10 s grace.
      const index = fake.requests.length;
      fake.enqueue({ kind: 'stream', pieces: Array.from({ length: 100 }, (_, i) => `${i} `), delayMs: 300 });
      const again = crypto.randomUUID();
      await joined(socket, channels.aiproxy(again));
      await ok(call(server.b, ann, 'POST', '/api/ai/continue', { websocket_id: again, text: 'Долгий рассказ', context: '' }), 202);
      const upstream = await fake.requestAt(index);
      socket.close();
      const gone = Date.now();
      await fake.closed(upstream, 20_000);
      expect(upstream.abandoned).toBe(true);
      expect(Date.now() - gone).toBeGreaterThan(9_000);
      console.info(`scale-out (${adapter}): an AI job on B stopped ${Date.now() - gone} ms after its owner's connection on A closed`);
    }, 40_000);

    test('signing out through B closes the connection on A (100)', async () => {
      const server = { a: a as ServerProcess, b: b as ServerProcess };
      const session = await signInVia(server.b, 'ann@example.com');
      const socket = await connect(server.a, session);
      const errors = collect<RealtimeErrorBody>(socket, 'error');
      const gone = disconnected(socket, 10_000);
      await ok(call(server.b, session, 'GET', '/api/auth/logout'));
      expect(await gone).toBe('io server disconnect');
      expect(errors.map((e) => e.code)).toEqual([REALTIME_ERRORS.unauthorized]);
    });
  });
});
