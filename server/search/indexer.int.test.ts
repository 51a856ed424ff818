import { generateNKeysBetween } from 'fractional-indexing';
import { api, body, createTestApp, jsonQueryString, testDb, type TestApp } from '../../test/helpers/testApp';
import { actor, createPage, expectStatus, type Actor } from '../../test/helpers/pages';
import type { BlockRow } from '../db/types';
import type { WireSearchHit } from '../../schema/search';
import { connectionWanted } from '../db/connect';
import { indexRound, searchIndexer, SQLITE_ROUND_MS } from './indexer';

/*
 * The server's indexer loop (`searchIndexer`) catching up with a backlog, as after an import or an
 * upgrade: every target is indexed, in rounds (on SQLite short ones, sized to SQLITE_ROUND_MS),
 * and the end of the backlog is logged with its count.
 */

let t: TestApp;
let owner: Actor;

beforeAll(async () => {
  // The app's own indexer runs once at start and then not for the length of the test: the loop
  // under test is the only one taking the queue.
  t = await createTestApp({ searchIndexIntervalMs: 1_000_000_000 });
  owner = await actor(t, 'indexer-owner@example.com');
});
afterAll(async () => {
  await t.close();
});

/** Writes `count` text blocks on the page straight into the database, as an import does: the triggers queue every one in the write's transaction. */
async function importBlocks(pageId: string, count: number, text: (i: number) => string): Promise<void> {
  const now = new Date().toISOString();
  const keys = generateNKeysBetween(null, null, count);
  const rows: BlockRow[] = keys.map((sort_key, i) => ({
    id: crypto.randomUUID(),
    page_id: pageId,
    parent_id: null,
    sort_key,
    type: 'text',
    data: JSON.stringify({ tokens: [{ text: text(i) }] }),
    version: 1,
    created_at: now,
    updated_at: now,
    updated_by: owner.id,
    deleted_at: null,
    origin: null,
    origin_since: null,
  }));
  await t.app.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 250)
      await trx
        .insertInto('blocks')
        .values(rows.slice(i, i + 250))
        .execute();
  });
}

/** A loop's log, kept: what it said, at any level. */
function recordingLog() {
  const logged: Array<{ obj: unknown; msg: string }> = [];
  const keep = (obj: unknown, msg: string) => void logged.push({ obj, msg });
  return { log: { info: keep, warn: keep, error: keep }, logged };
}

const queueLength = async () =>
  Number(
    (
      await t.app.db
        .selectFrom('search_queue')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const BLOCKS = 1_500;

test('a backlog of 1,500 blocks is indexed by the loop and its end logged', async () => {
  const page = await createPage(t, owner, { title: 'Импорт' });
  await importBlocks(page.id, BLOCKS, (i) => `строка ${i} ${i === BLOCKS - 1 ? 'последняязапись' : 'обычная'}`);
  const queued = await t.app.db
    .selectFrom('search_queue')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  expect(Number(queued.n)).toBeGreaterThanOrEqual(BLOCKS);

  const { log, logged } = recordingLog();
  const indexer = searchIndexer(t.app.db, log, 20);
  indexer.start();
  try {
    const deadline = Date.now() + 60_000;
    while (!logged.some((l) => l.msg === 'search index caught up')) {
      if (Date.now() > deadline) throw new Error(`not caught up in 60 s: ${JSON.stringify(logged)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await indexer.stop();
  }
  expect(logged.filter((l) => l.msg !== 'search index caught up')).toEqual([]);
  const caughtUp = logged.find((l) => l.msg === 'search index caught up')!.obj as { targets: number; seconds: number };
  // The log counts the backlog from the first round that found the queue behind (not the very first round).
  expect(caughtUp.targets).toBeGreaterThan(BLOCKS / 2);
  expect(caughtUp.targets).toBeLessThanOrEqual(Number(queued.n));
  expect(caughtUp.seconds).toBeGreaterThan(0);

  expect(await t.app.db.selectFrom('search_queue').select('target').executeTakeFirst()).toBeUndefined();
  const entries = await t.app.db
    .selectFrom('search_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('page_id', '=', page.id)
    .where('kind', '=', 'block')
    .executeTakeFirstOrThrow();
  expect(Number(entries.n)).toBe(BLOCKS);
  const res = await api(t, owner.cookie, 'GET', `/api/v3/spaces/search/text?${jsonQueryString({ q: 'последняязапись' })}`, undefined, {
    'x-workspace-id': owner.workspaceId,
  });
  expect(body<WireSearchHit[]>(expectStatus(res, 200)).data.map((hit) => hit.page.id)).toEqual([page.id]);
}, 90_000);

test('a burst of 100 blocks is indexed at once, not a short round every interval, and is not logged as a backlog', async () => {
  const page = await createPage(t, owner, { title: 'Вставка' });
  await importBlocks(page.id, 100, (i) => `вставка ${i}`);
  const { log, logged } = recordingLog();
  // An interval far longer than the test: only rounds that go on one after another can index it all.
  const indexer = searchIndexer(t.app.db, log, 10_000);
  const started = Date.now();
  indexer.start();
  try {
    while ((await queueLength()) > 0) {
      if (Date.now() - started > 5_000) throw new Error(`${await queueLength()} targets left after 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await indexer.stop();
  }
  expect(logged.map((l) => l.msg)).toEqual([]);
});

const sqliteOnly = testDb() === 'sqlite' ? test : test.skip;

sqliteOnly('SQLite: a query waiting for the one connection is seen as wanting it, until it has it', async () => {
  const wanted = connectionWanted(t.app.db);
  expect(wanted()).toBe(false);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let inside!: () => void;
  const entered = new Promise<void>((resolve) => (inside = resolve));
  const transaction = t.app.db.transaction().execute(async (trx) => {
    await trx.selectFrom('pages').select('id').limit(1).execute();
    inside();
    await held;
  });
  await entered;
  expect(wanted()).toBe(false);
  const query = t.app.db.selectFrom('users').select('id').execute();
  await new Promise((resolve) => setImmediate(resolve));
  expect(wanted()).toBe(true);
  release();
  await transaction;
  await query;
  expect(wanted()).toBe(false);
});

sqliteOnly('SQLite: a round of a backlog gives way after a chunk when someone waits, else runs for its time', async () => {
  const page = await createPage(t, owner, { title: 'Раунды' });
  await importBlocks(page.id, 600, (i) => `раунд ${i}`);
  const before = await queueLength();

  const givingWay = await indexRound(t.app.db, 200, () => true);
  expect(givingWay).toMatchObject({ taken: 8, drained: false, gaveWay: true });
  expect(await queueLength()).toBe(before - 8);

  // Nobody waits: chunk after chunk until the round's time is up or it took its limit.
  const alone = await indexRound(t.app.db, 200, () => false);
  expect(alone.gaveWay).toBe(false);
  expect(alone.drained).toBe(false);
  expect(alone.taken === 200 || alone.workMs >= SQLITE_ROUND_MS).toBe(true);
  expect(alone.taken % 8).toBe(0);
  expect(await queueLength()).toBe(before - 8 - alone.taken);
});
