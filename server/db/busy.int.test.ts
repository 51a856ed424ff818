import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { WireBlock } from '../../schema/block';
import type { WireElement } from '../../schema/element';
import type { WireSearchHit } from '../../schema/search';
import type { WireWorkspace } from '../../schema/workspace';
import { newId } from '../../schema/ids';
import { holdWriteLock, writeFromAnotherProcess } from '../../test/helpers/sqliteLock';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString, signIn, testDb, type TestApp } from '../../test/helpers/testApp';
import { newExportJob, runExportJob } from '../export/exportJobs';
import { SQLITE_FILE } from '../plugins/db';
import { indexQueued } from '../search/indexer';
import { nowIso } from '../time';

/**
 * Another process holding SQLite's write lock (a second server on the file, a maintenance script)
 * never stops the server: reads answer at once, a write waits for the lock without blocking the
 * event loop and goes in once it is free, and a write still locked out after DB_BUSY_TIMEOUT_MS
 * is refused whole with 503 storage.busy and Retry-After (docs/ARCHITECTURE.md «Storage»).
 *
 * SQLite only: PostgreSQL has no file lock; its writers wait for row and advisory locks in the
 * database server, asynchronously, and the event loop never waits with them.
 */
const describeSqlite = testDb() === 'sqlite' ? describe : describe.skip;

const S = '/api/v3/spaces';
const TOTAL_WAIT_MS = 2000;
/** A read or /version must answer this fast while the lock is held (the lock lasts seconds). */
const QUICK_MS = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value: string) => ({ tokens: [{ text: value }] });

/**
 * Runs `requests` one after another every `everyMs` for `times` rounds, each round due at a fixed
 * time from the start; answers the worst lateness of an answer: how long it took, plus how late
 * its round began. A blocked event loop makes the round due while it was blocked late by as long
 * as it stayed blocked, wherever the block fell; a blocked read takes as long itself. (Each answer
 * on its own: a busy machine slowing three answers a little does not add up to one slow one.)
 */
async function worstLateness(times: number, everyMs: number, requests: ReadonlyArray<() => Promise<LightMyRequestResponse>>): Promise<number> {
  const start = performance.now();
  let worst = 0;
  for (let i = 0; i < times; i += 1) {
    const due = start + i * everyMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const late = Math.max(0, performance.now() - due);
    for (const request of requests) {
      const asked = performance.now();
      const response = await request();
      expect(response.statusCode).toBe(200);
      worst = Math.max(worst, late + performance.now() - asked);
    }
  }
  return worst;
}

function expectBusy(response: LightMyRequestResponse): void {
  expect([response.statusCode, errorCode(response)]).toEqual([503, 'storage.busy']);
  expect(Number(response.headers['retry-after'])).toBe(Math.ceil(TOTAL_WAIT_MS / 1000));
}

/** The refusal a write gets after waiting out DB_BUSY_TIMEOUT_MS (StorageBusyError). */
const refusedBusy = (error: unknown) => (error as { code?: unknown } | null)?.code === 'storage.busy';

describeSqlite('SQLite: another process holds the write lock', () => {
  let t: TestApp;
  let ann: string;
  let workspaceId: string;
  let pageId: string;
  let block: WireBlock;
  const file = () => path.join(t.config.dataDir, SQLITE_FILE);
  const readBlock = async (id: string) => api(t, ann, 'GET', `${S}/block/${id}`);
  const pageTitles = async () => (await t.app.db.selectFrom('pages').select('title').where('workspace_id', '=', workspaceId).execute()).map((p) => p.title);

  beforeAll(async () => {
    // The app's own indexer stays out of the way: the test runs it where it wants it.
    t = await createTestApp({ dbBusyTimeoutMs: TOTAL_WAIT_MS, searchIndexIntervalMs: 600_000 });
    ann = await signIn(t, 'busy-ann@example.com');
    workspaceId = body<WireWorkspace[]>(await api(t, ann, 'GET', `${S}/workspace`)).data[0].id;
    pageId = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/private`, { title: 'Заметки' }), 201).id;
    block = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId, type: 'text', data: text('до блокировки') }), 201);
  });
  afterAll(async () => {
    await t?.close();
  });

  test('reads answer at once while a write waits for the lock; the write goes in when the lock is let go', async () => {
    const lock = await holdWriteLock(file(), 1200);
    const lockedAt = nowIso();
    const started = performance.now();
    const write = api(t, ann, 'POST', `${S}/block/${block.id}`, { type: 'text', data: text('после блокировки'), version: block.version });
    // /version, a read of the database, and opening the page (which notes the visit for recents,
    // a write) round after round while the write waits.
    const lateness = await worstLateness(8, 100, [
      () => t.app.inject({ method: 'GET', url: '/version' }),
      () => api(t, ann, 'GET', `${S}/note/${pageId}/blocks`),
      () => api(t, ann, 'GET', `${S}/element/${pageId}`),
    ]);
    const written = await write;
    const took = performance.now() - started;
    await lock.released;
    expect(lateness).toBeLessThan(QUICK_MS);
    expect(written.statusCode).toBe(200);
    // It did wait for the lock (not refused, not written past it).
    expect(took).toBeGreaterThan(1000);
    block = expectOk<WireBlock>(written);
    expect(expectOk<WireBlock>(await readBlock(block.id)).data).toEqual(text('после блокировки'));
    // The visits were noted once the lock was free, not dropped.
    const visitedAt = async () =>
      (await t.app.db.selectFrom('page_visits').select('visited_at').where('page_id', '=', pageId).executeTakeFirst())?.visited_at ?? '';
    const deadline = Date.now() + 2000;
    while ((await visitedAt()) < lockedAt && Date.now() < deadline) await sleep(50);
    expect((await visitedAt()) >= lockedAt).toBe(true);
  });

  test('a write while the lock is held past DB_BUSY_TIMEOUT_MS: 503 storage.busy with Retry-After, nothing of it stored', async () => {
    // The block as it is (whatever the test before did to it).
    block = expectOk<WireBlock>(await readBlock(block.id));
    const lock = await holdWriteLock(file(), 3000);
    const started = performance.now();
    const newBlockId = newId();
    const [edit, created, page] = await Promise.all([
      // The typing hot path (one statement, run directly when the lock is free)…
      api(t, ann, 'POST', `${S}/block/${block.id}`, { type: 'text', data: text('не сохранится'), version: block.version }),
      // …a block created in a transaction under the page's block lock…
      api(t, ann, 'POST', `${S}/block`, { id: newBlockId, pageId, type: 'text', data: text('новый') }),
      // …and a page: a transaction on the workspace's tree.
      api(t, ann, 'POST', `${S}/section/private`, { title: 'Не появится' }),
    ]);
    const took = performance.now() - started;
    await lock.released;
    for (const refused of [edit, created, page]) expectBusy(refused);
    // Refused once the total wait was over, before the lock was let go.
    expect(took).toBeGreaterThanOrEqual(TOTAL_WAIT_MS - 100);
    expect(took).toBeLessThan(3000);
    const kept = expectOk<WireBlock>(await readBlock(block.id));
    expect([kept.data, kept.version]).toEqual([block.data, block.version]);
    expect((await readBlock(newBlockId)).statusCode).toBe(404);
    expect(await pageTitles()).not.toContain('Не появится');
    // And the same writes go in now.
    expect((await api(t, ann, 'POST', `${S}/block/${block.id}`, { type: 'text', data: text('теперь можно'), version: block.version })).statusCode).toBe(200);
    expect((await api(t, ann, 'POST', `${S}/section/private`, { title: 'Появится' })).statusCode).toBe(201);
    expect(await pageTitles()).toContain('Появится');
  });

  test("a transaction holds the write lock from its start: another process's commit cannot come between its read and its write", async () => {
    const title = `Прочитано ${newId()}`;
    let other: { written: boolean; code?: string } | undefined;
    await t.app.db.transaction().execute(async (trx) => {
      await trx.selectFrom('pages').select('id').where('id', '=', pageId).executeTakeFirstOrThrow();
      // Another process tries to write meanwhile, waiting for the lock no longer than 300 ms.
      other = await writeFromAnotherProcess(file(), `UPDATE pages SET title = 'чужое' WHERE id = '${pageId}'`, 300);
      // A transaction that began DEFERRED would only now want the write lock, find the file
      // changed since its read (SQLITE_BUSY_SNAPSHOT) and fail; no waiting would ever help.
      await trx.updateTable('pages').set({ title }).where('id', '=', pageId).execute();
    });
    expect(other).toEqual({ written: false, code: 'SQLITE_BUSY' });
    expect(expectOk<WireElement>(await api(t, ann, 'GET', `${S}/element/${pageId}`)).title).toBe(title);
  });

  test('background work survives a long lock: the indexer keeps its queue, an export job is queued again, not failed', async () => {
    const word = `гиппопотам${Date.now()}`;
    expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId, type: 'text', data: text(word) }), 201);
    const queued = async () => (await t.app.db.selectFrom('search_queue').select('target').execute()).map((r) => r.target).sort();
    const waiting = await queued();
    expect(waiting.length).toBeGreaterThan(0);
    const job = newExportJob({
      user_id: (await t.app.db.selectFrom('users').select('id').where('email', '=', 'busy-ann@example.com').executeTakeFirstOrThrow()).id,
      workspace_id: workspaceId,
      root_id: pageId,
      title: 'Заметки',
      subpages: 1,
      format: 'markdown',
      comments: 0,
      // Taken by a worker (this test) just now: the app's worker leaves it alone.
      status: 'running',
      heartbeat_at: nowIso(),
    });
    await t.app.db.insertInto('export_jobs').values(job).execute();

    const lock = await holdWriteLock(file(), 3000);
    const [indexing, exporting] = await Promise.allSettled([indexQueued(t.app.db), runExportJob(t.app.db, t.app.fileStore, job)]);
    await lock.released;
    expect(indexing.status === 'rejected' && refusedBusy(indexing.reason)).toBe(true);
    expect(exporting.status === 'rejected' && refusedBusy(exporting.reason)).toBe(true);
    // Nothing the indexer took is lost…
    expect(await queued()).toEqual(waiting);
    await indexQueued(t.app.db);
    const hits = body<WireSearchHit[]>(
      await api(t, ann, 'GET', `${S}/search/text?${jsonQueryString({ q: word })}`, undefined, { 'x-workspace-id': workspaceId }),
    ).data;
    expect(hits.map((h) => h.page.id)).toEqual([pageId]);
    // …and the export waits for a worker again, which makes it.
    const status = async () => (await t.app.db.selectFrom('export_jobs').select('status').where('id', '=', job.id).executeTakeFirstOrThrow()).status;
    expect(['queued', 'running', 'done']).toContain(await status());
    const deadline = Date.now() + 10_000;
    while ((await status()) !== 'done' && Date.now() < deadline) await sleep(100);
    expect(await status()).toBe('done');
  });
});
