import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { LOGIN_CODE_MAX_ATTEMPTS } from '../../schema/constants';
import { channels } from '../../schema/realtime';
import { startOAuthProvider, type OAuthProvider } from '../../test/helpers/oauthProvider';
import { connectRealtime, request } from '../../test/helpers/realtimeClient';
import { signInToProcess, startServerProcess, type ServerProcess } from '../../test/helpers/serverProcess';
import { createPostgresDatabase, testDb } from '../../test/helpers/testApp';
import { connectDatabase } from '../db/connect';
import { migrateToLatest } from '../db/migrate';
import { FEEDBACK_LIMIT_PER_IP } from '../routes/feedback';
import { SQLITE_FILE } from './db';

/**
 * The request limits hold for all server processes together (docs/security.md «Request limits»):
 * two real server processes on one database — one PostgreSQL database, or one SQLite file in a
 * shared DATA_DIR — behind a pretend load balancer (TRUST_PROXY=1, the client's address in
 * X-Forwarded-For). Requests alternating between them are refused once the configured total is
 * reached, not twice it. The sign-in codes' limits were in the database before; they are checked
 * here the same way.
 */

jest.setTimeout(60_000);

/** SEND_CODE_LIMIT_PER_IP: sign-in codes, register and OAuth starts per address. */
const PER_ADDRESS = 4;
const PER_EMAIL = 3;
const AI_PER_MINUTE = 3;
/** SEARCH_LIMIT_PER_10_S: the per-user limits of expensive calls (server/plugins/userLimits.int.test.ts) share the store. */
const SEARCHES = 4;

let database: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
let provider: OAuthProvider | undefined;
let dataDir: string;
let a: ServerProcess | undefined;
let b: ServerProcess | undefined;
const sockets: Socket[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'limits-'));
  if (testDb() === 'postgres') database = await createPostgresDatabase();
  // Migrated here, so both processes start at once.
  const handle = connectDatabase({ databaseUrl: database?.url, sqliteFile: path.join(dataDir, SQLITE_FILE) });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.db.destroy();
  }
  provider = await startOAuthProvider();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ...(database ? { DATABASE_URL: database.url } : {}),
    TRUST_PROXY: '1',
    LOG_REQUESTS: 'false',
    SEND_CODE_LIMIT_PER_IP: String(PER_ADDRESS),
    SEND_CODE_LIMIT_PER_EMAIL: String(PER_EMAIL),
    AI_RATE_LIMIT_PER_MINUTE: String(AI_PER_MINUTE),
    SEARCH_LIMIT_PER_10_S: String(SEARCHES),
    AI_SPELLCHECK: 'false',
    OAUTH_ISSUER_URL: provider.issuerUrl,
    OAUTH_CLIENT_ID: 'limits-client',
    OAUTH_CLIENT_SECRET: 'limits-secret',
    OAUTH_SERVICE_NAME: 'mock',
  };
  [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
}, 90_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await Promise.all([a?.stop(), b?.stop()]);
  await provider?.stop();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A and B in turn, starting with A. */
const servers = () => [a as ServerProcess, b as ServerProcess];
const inTurn = (i: number) => servers()[i % 2];

/** A POST as a browser's form (or JSON when `json`), from `address` through the load balancer. */
function post(server: ServerProcess, url: string, fields: Record<string, string>, options: { address: string; cookie?: string; json?: boolean }) {
  return fetch(`${server.url}${url}`, {
    method: 'POST',
    headers: {
      'x-forwarded-for': options.address,
      'content-type': options.json ? 'application/json' : 'application/x-www-form-urlencoded',
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: options.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
  });
}

/** `count` calls alternating between the processes; answers their statuses. */
async function alternate(count: number, call: (server: ServerProcess, i: number) => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await call(inTurn(i), i)).status);
  return statuses;
}

/** Both processes refuse the next call: 429 rate_limited with Retry-After within the window. */
async function expectRefusedByBoth(call: (server: ServerProcess) => Promise<Response>, windowSeconds: number) {
  for (const server of servers()) {
    const res = await call(server);
    const answer = (await res.json()) as { errors: Array<{ code: string; details?: { retryAfter?: number } }> };
    expect([res.status, answer.errors[0]?.code]).toEqual([429, 'rate_limited']);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(windowSeconds - 30);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  }
}

test(`feedback: ${FEEDBACK_LIMIT_PER_IP} messages an hour per address over both processes, not ${FEEDBACK_LIMIT_PER_IP} each`, async () => {
  const message = { username: 'Ева', text: 'Спасибо', email: 'eva@example.com' };
  const send = (server: ServerProcess) => post(server, '/api/email/hello', message, { address: '203.0.113.1', json: true });
  expect(await alternate(FEEDBACK_LIMIT_PER_IP, send)).toEqual(Array(FEEDBACK_LIMIT_PER_IP).fill(200));
  await expectRefusedByBoth(send, 3600);
  // Another address is not limited.
  expect((await post(inTurn(1), '/api/email/hello', message, { address: '203.0.113.2', json: true })).status).toBe(200);
});

test(`register: SEND_CODE_LIMIT_PER_IP (${PER_ADDRESS}) accounts per address in 10 minutes over both processes`, async () => {
  const cookie = await signInToProcess(inTurn(0), 'register-ann@example.com');
  const register = (server: ServerProcess, i = 99) =>
    post(server, '/api/auth/register', { email: `person${i}@example.com` }, { address: '203.0.113.3', cookie });
  expect(await alternate(PER_ADDRESS, register)).toEqual(Array(PER_ADDRESS).fill(200));
  await expectRefusedByBoth(register, 600);
});

test(`OAuth start: SEND_CODE_LIMIT_PER_IP (${PER_ADDRESS}) per address in 10 minutes over both processes`, async () => {
  const start = (server: ServerProcess) => post(server, '/api/auth/oauth', { service: 'mock' }, { address: '203.0.113.4' });
  expect(await alternate(PER_ADDRESS, start)).toEqual(Array(PER_ADDRESS).fill(200));
  await expectRefusedByBoth(start, 600);
});

test(`AI: AI_RATE_LIMIT_PER_MINUTE (${AI_PER_MINUTE}) per user over both processes; another user is not limited`, async () => {
  const [ann, bob] = [await signInToProcess(inTurn(0), 'ai-ann@example.com'), await signInToProcess(inTurn(1), 'ai-bob@example.com')];
  /** The aiproxy channel of a connection to each process (results go to a connection of that process). */
  const channelsOf = async (cookie: string) =>
    Promise.all(
      servers().map(async (server) => {
        const socket = await connectRealtime(server.url, { cookie });
        sockets.push(socket);
        const id = crypto.randomUUID();
        const joined = await request(socket, 'join', { channel: channels.aiproxy(id) });
        if (!joined.ok) throw new Error(`join refused: ${JSON.stringify(joined.error)}`);
        return id;
      }),
    );
  const [annIds, bobIds] = [await channelsOf(ann), await channelsOf(bob)];
  const improve = (cookie: string, ids: string[]) => (server: ServerProcess) =>
    post(
      server,
      '/api/ai/improve',
      { websocket_id: ids[servers().indexOf(server)], text: 'привет ,мир', context: '' },
      { address: '203.0.113.5', cookie, json: true },
    );
  expect(await alternate(AI_PER_MINUTE, improve(ann, annIds))).toEqual(Array(AI_PER_MINUTE).fill(202));
  await expectRefusedByBoth(improve(ann, annIds), 60);
  expect((await improve(bob, bobIds)(inTurn(1))).status).toBe(202);
});

test(`search: SEARCH_LIMIT_PER_10_S (${SEARCHES}) per user over both processes; another user is not limited`, async () => {
  // Signed in from an address of their own (the sign-ins above used up 127.0.0.1's few codes).
  const signInFrom = async (server: ServerProcess, email: string) => {
    await post(server, '/api/auth/send_code', { email }, { address: '203.0.113.60' });
    const res = await post(server, '/api/auth/login', { email, pin: await server.waitForCode(email) }, { address: '203.0.113.60' });
    return res.headers.get('set-cookie')?.split(';')[0] ?? '';
  };
  const [ann, bob] = [await signInFrom(inTurn(0), 'search-ann@example.com'), await signInFrom(inTurn(1), 'search-bob@example.com')];
  const search = (cookie: string) => (server: ServerProcess) =>
    fetch(`${server.url}/api/v3/spaces/search/text?q=${encodeURIComponent('"отчёт"')}`, { headers: { cookie, 'x-forwarded-for': '203.0.113.6' } });
  expect(await alternate(SEARCHES, search(ann))).toEqual(Array(SEARCHES).fill(200));
  for (const server of servers()) {
    const res = await search(ann)(server);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(11);
  }
  expect((await search(bob)(inTurn(1))).status).toBe(200);
});

test('sign-in codes (in the database before): per e-mail and per address over both processes; wrong pins per code', async () => {
  const sendCode = (email: string, address: string) => (server: ServerProcess) => post(server, '/api/auth/send_code', { email }, { address });
  // Per e-mail, from addresses of their own.
  expect(await alternate(PER_EMAIL, (server, i) => sendCode('codes-ann@example.com', `198.51.100.${i}`)(server))).toEqual(Array(PER_EMAIL).fill(200));
  expect((await sendCode('codes-ann@example.com', '198.51.100.99')(inTurn(PER_EMAIL))).status).toBe(429);
  // Per address, for e-mails of their own.
  expect(await alternate(PER_ADDRESS, (server, i) => sendCode(`codes-${i}@example.com`, '198.51.100.200')(server))).toEqual(Array(PER_ADDRESS).fill(200));
  expect((await sendCode('codes-late@example.com', '198.51.100.200')(inTurn(PER_ADDRESS))).status).toBe(429);
  // Wrong pins: the code is dead after LOGIN_CODE_MAX_ATTEMPTS, whichever process they reached.
  const wrong = (server: ServerProcess) => post(server, '/api/auth/login', { email: 'codes-0@example.com', pin: '000000' }, { address: '198.51.100.201' });
  expect(await alternate(LOGIN_CODE_MAX_ATTEMPTS, wrong)).toEqual([...Array(LOGIN_CODE_MAX_ATTEMPTS - 1).fill(401), 429]);
});
