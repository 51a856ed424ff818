import { startServerProcess, type ServerProcess } from './serverProcess';
import { createTestApp, signIn, testDb, type TestApp } from './testApp';
import { userIdOf } from './workspaces';

/**
 * Scaffolding of the randomized convergence tests (server/realtime/*convergence.int.test.ts):
 * one signed-in user and the servers clients connect to — the test app listening on SQLite; on
 * PostgreSQL two more server processes on the same database (the test app serves no client), so
 * the clients are split over processes. Registers beforeAll/afterAll; read the fields after.
 */
export function convergenceServers(email = 'ann@example.com') {
  const state = { t: undefined as unknown as TestApp, cookie: '', userId: '', urls: [] as string[] };
  const processes: ServerProcess[] = [];
  beforeAll(async () => {
    state.t = await createTestApp();
    state.cookie = await signIn(state.t, email);
    state.userId = await userIdOf(state.t, email);
    if (testDb() === 'postgres') {
      // No cap on rows made per minute (the test app has none either): a long hunt makes thousands as one user.
      for (let i = 0; i < 2; i++)
        processes.push(await startServerProcess({ DATABASE_URL: state.t.config.databaseUrl as string, LOG_LEVEL: 'warn', ROWS_LIMIT_PER_MINUTE: '0' }));
      state.urls = processes.map((p) => p.url);
    } else {
      state.urls = [await state.t.app.listen({ port: 0, host: '127.0.0.1' })];
    }
  }, 60_000);
  afterAll(async () => {
    for (const p of processes) await p.stop();
    await state.t.close();
  });
  return state;
}

/** A small deterministic PRNG (mulberry32), so a failing seed can be replayed. */
export function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Unique characters (CJK ideographs from a counter, then the private use area): each insert is
 * recognisable in the end text. Never a surrogate (a hunt over hundreds of seeds counts past
 * U+D7FF): they are not characters, and stored text replaces them. Unique within a test; after
 * U+F8FF the count starts again.
 */
let nextChar = 0x4e00;
export const freshChar = () => {
  if (nextChar === 0xd800) nextChar = 0xe000;
  if (nextChar > 0xf8ff) nextChar = 0x4e00;
  return String.fromCodePoint(nextChar++);
};
