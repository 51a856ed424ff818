import { generateNKeysBetween } from 'fractional-indexing';
import { api, body, createTestApp, jsonQueryString, testDb, type TestApp } from '../../test/helpers/testApp';
import { actor, createPage, expectStatus, type Actor } from '../../test/helpers/pages';
import type { BlockRow } from '../db/types';
import type { WireSearchHit } from '../../schema/search';
import path from 'node:path';
import { connectDatabase, connectionWanted } from '../db/connect';
import { SQLITE_FILE } from '../plugins/db';
import { ENTRY_SPAN, indexAll, indexRound, searchIndexer, SQLITE_ROUND_MS } from './indexer';

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

/** How many block entries the page has in the index. */
async function blockEntries(pageId: string): Promise<number> {
  const entries = await t.app.db
    .selectFrom('search_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('page_id', '=', pageId)
    .where('kind', '=', 'block')
    .executeTakeFirstOrThrow();
  return Number(entries.n);
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
  expect(await blockEntries(page.id)).toBe(BLOCKS);
  const res = await api(t, owner.cookie, 'GET', `/api/v3/spaces/search/text?${jsonQueryString({ q: 'последняязапись' })}`, undefined, {
    'x-workspace-id': owner.workspaceId,
  });
  expect(body<WireSearchHit[]>(expectStatus(res, 200)).data.map((hit) => hit.page.id)).toEqual([page.id]);
}, 90_000);

test('while people use the server all along (every round then paced to a fifth of the time; on PostgreSQL rounds of 20), a backlog of 600 blocks is still caught up', async () => {
  const page = await createPage(t, owner, { title: 'Импорт при людях' });
  await importBlocks(page.id, 600, (i) => `занятый ${i}`);
  const { log, logged } = recordingLog();
  // Always in use: every round of the backlog is followed by four times its length.
  let asked = 0;
  const indexer = searchIndexer(t.app.db, log, 20, () => {
    asked += 1;
    return true;
  });
  const started = Date.now();
  indexer.start();
  try {
    while ((await queueLength()) > 0) {
      if (Date.now() - started > 60_000) throw new Error(`${await queueLength()} targets left after 60 s: ${JSON.stringify(logged)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await indexer.stop();
  }
  expect(asked).toBeGreaterThan(0);
  expect(logged.filter((l) => l.msg !== 'search index caught up')).toEqual([]);
  expect(await blockEntries(page.id)).toBe(600);
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

test("indexAll answers only once a round already under way in the process has indexed what it took (the server's own indexer racing a rebuild)", async () => {
  const page = await createPage(t, owner, { title: 'Гонка с индексатором' });
  await importBlocks(page.id, 400, (i) => `запись ${i} гонкаиндекса`);
  // A round of the server's loop takes its batch first; indexAll, called right after, finds the queue empty.
  const background = indexRound(t.app.db, 1_000);
  await indexAll(t.app.db);
  expect(await blockEntries(page.id)).toBe(400);
  await background;
});

test('two indexers on one database (two pools, as two processes) racing over the same pages: no deadlock, no duplicate entry, every entry right', async () => {
  // Twelve pages of 60 blocks; the queue in sweeps of one block per page, every other sweep in the
  // pages' reverse order, taken 12 at a time: two rounds at once write the same twelve pages, in
  // opposite orders (the old rounds locked pages as their targets came: deadlock detected). A
  // writer meanwhile writes blocks just taken again and puts them first in the queue, so a block
  // can be in two rounds at once (the old read then insert: duplicate key … search_entries_unit).
  const PAGES = 12;
  const BLOCKS_PER_PAGE = 60;
  const pages: string[] = [];
  for (let i = 0; i < PAGES; i++) {
    const page = await createPage(t, owner, { title: `Гонка ${i}` });
    await importBlocks(page.id, BLOCKS_PER_PAGE, (n) => `гонка ${i} блок ${n}`);
    pages.push(page.id);
  }
  const blocksOf = new Map<string, string[]>();
  for (const pageId of pages)
    blocksOf.set(
      pageId,
      (await t.app.db.selectFrom('blocks').select('id').where('page_id', '=', pageId).orderBy('sort_key').execute()).map((b) => b.id),
    );
  const order: string[] = [];
  for (let sweep = 0; sweep < BLOCKS_PER_PAGE; sweep++) {
    const sweepPages = sweep % 2 === 0 ? pages : [...pages].reverse();
    if (sweep === 0) order.push(...sweepPages.map((id) => `p:${id}`));
    order.push(...sweepPages.map((id) => `b:${(blocksOf.get(id) as string[])[sweep]}`));
  }
  // Queue times as the database's own triggers write them, a day back (later writes come after).
  const base = Date.now() - 86_400_000;
  const stamp = (i: number) => {
    const iso = new Date(base + i).toISOString();
    return testDb() === 'postgres' ? `${iso.slice(0, 10)} ${iso.slice(11, 23)}000+00` : iso.slice(0, 23);
  };
  await t.app.db.deleteFrom('search_queue').execute();
  await t.app.db
    .insertInto('search_queue')
    .values(order.map((target, i) => ({ target, queued_at: stamp(i) })))
    .execute();

  const handles = [0, 1].map(() =>
    connectDatabase({ databaseUrl: t.config.databaseUrl, sqliteFile: path.join(t.config.dataDir, SQLITE_FILE), busyTimeoutMs: 30_000 }),
  );
  const failures: string[] = [];
  let writing = true;
  const indexer = async (db: (typeof handles)[number]['db']) => {
    for (;;) {
      const round = await indexRound(db, PAGES).catch((error: unknown) => {
        failures.push(error instanceof Error ? error.message : String(error));
        return null;
      });
      if (round && round.taken === 0 && !writing) return;
      if (round && round.taken === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const writer = async () => {
    try {
      for (let n = 0; n < 60; n++) {
        // A block just taken (likely in a round under way), written again and put first in the queue:
        // the next round takes it while the first may still index it.
        const oldest = await t.app.db
          .selectFrom('search_queue')
          .select('target')
          .where('queued_at', '>=', stamp(0))
          .orderBy('queued_at')
          .limit(1)
          .executeTakeFirst();
        const at = oldest ? order.indexOf(oldest.target) : order.length;
        const target = order[Math.max(0, at - 1 - (n % PAGES))];
        if (target.startsWith('b:')) {
          await t.app.db
            .updateTable('blocks')
            .set({ data: JSON.stringify({ tokens: [{ text: `переписан ${n}` }] }) })
            .where('id', '=', target.slice(2))
            .execute();
          await t.app.db
            .updateTable('search_queue')
            .set({ queued_at: stamp(-1000 + n) })
            .where('target', '=', target)
            .execute();
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    } finally {
      writing = false;
    }
  };
  try {
    await Promise.all([indexer(handles[0].db), indexer(handles[1].db), writer()]);
  } finally {
    await Promise.all(handles.map((handle) => handle.db.destroy()));
  }
  expect(failures).toEqual([]);
  // Whatever a failed round would have put back (none): the queue is empty and nothing is left to index.
  expect(await indexAll(t.app.db)).toBe(0);

  const seqs = new Map(
    (await t.app.db.selectFrom('search_pages').select(['page_id', 'seq']).where('page_id', 'in', pages).execute()).map((r) => [r.page_id, Number(r.seq)]),
  );
  for (const [i, pageId] of pages.entries()) {
    const entries = await t.app.db.selectFrom('search_entries').select(['id', 'unit', 'text']).where('page_id', '=', pageId).execute();
    const blocks = await t.app.db.selectFrom('blocks').select(['id', 'data']).where('page_id', '=', pageId).execute();
    const expected = new Map<string, string>([['title', `Гонка ${i}`]]);
    for (const block of blocks) expected.set(block.id, (JSON.parse(block.data) as { tokens: Array<{ text: string }> }).tokens[0].text);
    expect(new Map(entries.map((e) => [e.unit, e.text]))).toEqual(expected);
    expect(entries).toHaveLength(BLOCKS_PER_PAGE + 1);
    // Every entry numbered in its page's range, the title first.
    const seq = seqs.get(pageId) as number;
    for (const entry of entries) {
      expect(Number(entry.id)).toBeGreaterThanOrEqual(seq * ENTRY_SPAN);
      expect(Number(entry.id)).toBeLessThan((seq + 1) * ENTRY_SPAN);
    }
    expect(Number(entries.find((e) => e.unit === 'title')?.id)).toBe(seq * ENTRY_SPAN);
  }
}, 120_000);

/** A page's index as the indexer leaves it: its entries (without their numbers, which depend on the order they came in) and its title's trigrams. */
async function indexOf(pageIds: string[]) {
  const entries = await t.app.db
    .selectFrom('search_entries')
    .select(['page_id', 'unit', 'kind', 'text', 'terms'])
    .where('page_id', 'in', pageIds)
    .orderBy('page_id')
    .orderBy('unit')
    .execute();
  const grams = await t.app.db.selectFrom('search_trigrams').selectAll().where('page_id', 'in', pageIds).orderBy('page_id').orderBy('trigram').execute();
  // Every entry numbered in its page's range, once; the title first.
  const seqs = new Map(
    (await t.app.db.selectFrom('search_pages').select(['page_id', 'seq']).where('page_id', 'in', pageIds).execute()).map((r) => [r.page_id, Number(r.seq)]),
  );
  const numbered = await t.app.db.selectFrom('search_entries').select(['id', 'page_id', 'unit']).where('page_id', 'in', pageIds).execute();
  for (const entry of numbered) {
    const base = (seqs.get(entry.page_id) as number) * ENTRY_SPAN;
    expect(Number(entry.id) - base).toBeGreaterThanOrEqual(0);
    expect(Number(entry.id) - base).toBeLessThan(ENTRY_SPAN);
    expect(Number(entry.id) === base).toBe(entry.unit === 'title');
  }
  return { entries, grams };
}

/** The index of these pages as it is (entries with their ids, numbers, trigrams) and the queue: to be put back as they were. */
async function savedIndex(pageIds: string[]) {
  const db = t.app.db;
  const saved = {
    entries: await db.selectFrom('search_entries').selectAll().where('page_id', 'in', pageIds).execute(),
    pages: await db.selectFrom('search_pages').selectAll().where('page_id', 'in', pageIds).execute(),
    grams: await db.selectFrom('search_trigrams').selectAll().where('page_id', 'in', pageIds).execute(),
    queue: await db.selectFrom('search_queue').selectAll().execute(),
  };
  return async () => {
    await db.deleteFrom('search_entries').where('page_id', 'in', pageIds).execute();
    await db.deleteFrom('search_pages').where('page_id', 'in', pageIds).execute();
    await db.deleteFrom('search_trigrams').where('page_id', 'in', pageIds).execute();
    await db.deleteFrom('search_queue').execute();
    for (const [table, rows] of [
      ['search_pages', saved.pages],
      ['search_entries', saved.entries],
      ['search_trigrams', saved.grams],
      ['search_queue', saved.queue],
    ] as const)
      for (let i = 0; i < rows.length; i += 100)
        await db
          .insertInto(table)
          .values(rows.slice(i, i + 100) as never)
          .execute();
  };
}

/** Indexes the queue one target a round. */
async function indexOneByOne(): Promise<void> {
  while ((await indexRound(t.app.db, 1)).taken > 0);
}

test('rounds of 200 targets index as one target at a time does: every entry and trigram alike, for new rows, cells and blocks, and after edits, moves and deletions', async () => {
  await t.app.db.deleteFrom('search_queue').execute();
  const S = '/api/v3/spaces';
  const database = expectStatus(await api(t, owner.cookie, 'POST', `${S}/section/private`, { type: 'Database', title: 'Сверка' }), 201);
  const databasePage = body<{ id: string }>(database).data.id;
  const dbBlock = body<Array<{ id: string; type: string }>>(expectStatus(await api(t, owner.cookie, 'GET', `${S}/note/${databasePage}/blocks`), 200)).data.find(
    (b) => b.type === 'database',
  )!.id;
  const fields = { note: 'text', qty: 'number', site: 'url', mail: 'email', phone: 'phone' } as const;
  for (const [id, type] of Object.entries(fields))
    expectStatus(await api(t, owner.cookie, 'POST', `${S}/database/${dbBlock}/fields`, { id, field: { name: id, type } }), 200);
  const ROWS = 60;
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    title: i % 7 === 0 ? '' : `Строка ${i} сверки`,
    values: {
      note: i % 5 === 0 ? '' : `заметка ${i}`,
      qty: i,
      site: `https://example.com/${i}`,
      mail: `u${i}@example.com`,
      ...(i % 3 === 0 ? {} : { phone: `+7 900 ${i}` }),
    },
  }));
  expectStatus(await api(t, owner.cookie, 'POST', `${S}/database/${dbBlock}/rows`, { rows }), 201);
  const doc = await createPage(t, owner, { title: 'Сверка документа' });
  const other = await createPage(t, owner, { title: 'Сверка другого' });
  await importBlocks(doc.id, 150, (i) => (i % 10 === 0 ? ' ' : `абзац ${i} сверки`));
  const rowIds = (await t.app.db.selectFrom('pages').select('id').where('database_id', '=', dbBlock).execute()).map((r) => r.id);
  expect(rowIds).toHaveLength(ROWS);
  const pageIds = [databasePage, doc.id, other.id, ...rowIds];
  expect(await queueLength()).toBeGreaterThan(400);

  // New: one target at a time, then the same queue again in rounds of 200.
  const fresh = await savedIndex(pageIds);
  await indexOneByOne();
  const oneByOne = await indexOf(pageIds);
  // Titles (but the empty ones) of the pages and rows and the rows' title cells, the text cells with text, the blocks with text.
  const titled = rows.filter((r) => r.title).length;
  const texts = 2 * titled + rows.filter((r) => r.values.note).length + 2 * ROWS + rows.filter((r) => 'phone' in r.values).length;
  expect(oneByOne.entries).toHaveLength(3 + texts + 135);
  await fresh();
  expect(await indexAll(t.app.db)).toBeGreaterThan(400);
  expect(await indexOf(pageIds)).toEqual(oneByOne);

  // Edits: cells rewritten, emptied and deleted, a row renamed, blocks rewritten, deleted and moved to another page.
  const [b0, b1, b2, b3] = (await t.app.db.selectFrom('blocks').select('id').where('page_id', '=', doc.id).orderBy('sort_key').limit(4).execute()).map(
    (b) => b.id,
  );
  await t.app.db.transaction().execute(async (trx) => {
    const setCells = (ids: string[], field: string, value: string) =>
      trx
        .updateTable('database_cells')
        .set({ value: JSON.stringify(value) })
        .where('row_id', 'in', ids)
        .where('field_id', '=', field)
        .execute();
    await setCells(rowIds.slice(0, 20), 'note', 'переписана');
    await setCells(rowIds.slice(20, 30), 'mail', '  ');
    await trx.deleteFrom('database_cells').where('row_id', 'in', rowIds.slice(30, 40)).where('field_id', '=', 'site').execute();
    await trx.updateTable('pages').set({ title: 'Переименована' }).where('id', 'in', rowIds.slice(0, 10)).execute();
    await trx
      .updateTable('blocks')
      .set({ data: JSON.stringify({ tokens: [{ text: 'новый текст' }] }) })
      .where('id', 'in', [b0, b1])
      .execute();
    await trx.updateTable('blocks').set({ deleted_at: new Date().toISOString() }).where('id', '=', b2).execute();
    await trx.updateTable('blocks').set({ page_id: other.id }).where('id', '=', b3).execute();
  });
  const edited = await savedIndex(pageIds);
  await indexAll(t.app.db);
  const batched = await indexOf(pageIds);
  await edited();
  await indexOneByOne();
  expect(batched).toEqual(await indexOf(pageIds));
  expect(batched.entries.filter((e) => e.text === 'переписана')).toHaveLength(20);
  expect(batched.entries.filter((e) => e.text === 'Переименована')).toHaveLength(10);
  expect(batched.entries.find((e) => e.unit === b3)?.page_id).toBe(other.id);
  expect(batched.entries.filter((e) => e.unit === b2)).toEqual([]);
  // Less the emptied and deleted cells and the deleted block; more what was rewritten with text and had none (renamed rows, notes, the first block).
  const had = (pages: string[], units: string[]) => pages.filter((id) => oneByOne.entries.some((e) => e.page_id === id && units.includes(e.unit))).length;
  const gained = 10 - had(rowIds.slice(0, 10), ['title']) + 20 - had(rowIds.slice(0, 20), ['c:note']) + 2 - had([doc.id], [b0]) - had([doc.id], [b1]);
  expect(batched.entries).toHaveLength(oneByOne.entries.length - 10 - 10 - 1 + gained);
}, 120_000);
