import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import SQLite from 'better-sqlite3';
import { strFromU8, unzipSync } from 'fflate';
import { sql, type ColumnNode, type KyselyPlugin, type OperationNode, type TableNode, type UpdateQueryNode } from 'kysely';
import type { WireExportJob } from '../../schema/exportJob';
import { newId } from '../../schema/ids';
import { api, body, createTestApp, expectOk, jsonQueryString, testDb, type TestApp } from '../../test/helpers/testApp';
import { actor, createPage, joinWorkspace, makeTeamWorkspace, type Actor } from '../../test/helpers/pages';
import { claimExportJob, runExportJob, sweepExportJobs } from '../export/exportJobs';
import type { JsonExport } from '../export/pageExport';
import { SQLITE_FILE } from '../plugins/db';

/*
 * Exports as background jobs (issue 18, docs/import-export.md «Export jobs») on SQLite and
 * PostgreSQL: a page with its subpages and a whole workspace, written by the server's worker while
 * the starter follows the progress; only what the starter may read goes in; a job is its
 * starter's alone; a job whose process died is taken again; old ones are swept.
 */

let t: TestApp;
let admin: Actor;
let member: Actor;
let guest: Actor;
let stranger: Actor;
let workspaceId: string;
const S = '/api/v3/spaces';
const BUSY_WAIT_MS = 300;

beforeAll(async () => {
  // A write locked out by another process is refused after a short wait (the busy progress note below).
  // The app's own search indexer stays out of the way: the busy note's test takes the write lock with no wait.
  t = await createTestApp({ sendCodeLimitPerIp: 10_000, dbBusyTimeoutMs: BUSY_WAIT_MS, searchIndexIntervalMs: 600_000 });
  admin = await actor(t, 'jobs-admin@example.com');
  member = await actor(t, 'jobs-member@example.com');
  guest = await actor(t, 'jobs-guest@example.com');
  stranger = await actor(t, 'jobs-stranger@example.com');
  workspaceId = admin.workspaceId;
  await makeTeamWorkspace(t, workspaceId);
  await joinWorkspace(t, workspaceId, member.id, 'participant');
  await joinWorkspace(t, workspaceId, guest.id, 'guest');
});
afterAll(async () => {
  await t.close();
});

const start = async (who: Actor, payload: Record<string, unknown>) => api(t, who.cookie, 'POST', `${S}/exports`, payload);

/** Follows a job until it ends (the worker looks every second), as the dialog does. */
async function finished(who: Actor, id: string): Promise<WireExportJob> {
  for (let i = 0; i < 200; i++) {
    const job = expectOk<WireExportJob>(await api(t, who.cookie, 'GET', `${S}/exports/${id}`));
    if (job.status === 'done' || job.status === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the export did not end');
}

const unzip = (raw: Buffer) => unzipSync(new Uint8Array(raw));

/** A job as a worker would hold it (running, beating at `beat`), put straight into the table. */
async function insertRunningJob(pageId: string, beat: string): Promise<string> {
  const id = newId();
  await t.app.db
    .insertInto('export_jobs')
    .values({
      id,
      workspace_id: workspaceId,
      user_id: admin.id,
      root_id: pageId,
      format: 'markdown',
      subpages: 1,
      comments: 0,
      title: 'Задание',
      status: 'running',
      pages_done: 0,
      pages_total: 0,
      size: null,
      storage_key: null,
      error: null,
      created_at: beat,
      heartbeat_at: beat,
      finished_at: null,
    })
    .execute();
  return id;
}

const zipOf = (id: string) => path.join(t.config.filesDir, `exports/${id}.zip`);

test('a page with its subpages: queued (202), written in the background with its progress, downloaded by its starter as a zip', async () => {
  const root = await createPage(t, admin, { title: 'Годовой отчёт', section: 'all', workspaceId });
  await createPage(t, admin, { title: 'Приложение', parentId: root.id });
  const res = await start(admin, { pageId: root.id, format: 'markdown', subpages: true });
  expect(res.statusCode).toBe(202);
  const queued = body<WireExportJob>(res).data;
  expect(queued).toMatchObject({
    status: 'queued',
    pageId: root.id,
    workspaceId,
    format: 'markdown',
    subpages: true,
    title: 'Годовой отчёт',
    downloadUrl: null,
  });
  const job = await finished(admin, queued.id);
  expect(job).toMatchObject({ status: 'done', done: 2, total: 2, error: null });
  expect(job.size).toBeGreaterThan(0);
  const download = await api(t, admin.cookie, 'GET', job.downloadUrl!);
  expect(download.statusCode).toBe(200);
  expect(String(download.headers['content-disposition'])).toContain(encodeURIComponent('Годовой отчёт.zip'));
  expect(Number(download.headers['content-length'])).toBe(job.size);
  expect(Object.keys(unzip(download.rawPayload)).sort()).toEqual(['Годовой отчёт.md', 'Годовой отчёт/Приложение.md']);
  // Listed among the starter's exports of the workspace; nobody else's.
  const listed = expectOk<WireExportJob[]>(await api(t, admin.cookie, 'GET', `${S}/exports?${jsonQueryString({ workspaceId })}`));
  expect(listed.map((j) => j.id)).toContain(job.id);
  expect(expectOk<WireExportJob[]>(await api(t, member.cookie, 'GET', `${S}/exports?${jsonQueryString({ workspaceId })}`)).map((j) => j.id)).not.toContain(
    job.id,
  );
});

test('a whole workspace: every page the starter may read, as trees; another member’s private pages stay out', async () => {
  const shared = await createPage(t, admin, { title: 'Общая', section: 'all', workspaceId });
  await createPage(t, admin, { title: 'Подстраница', parentId: shared.id });
  await createPage(t, admin, { title: 'Моя личная', section: 'private', workspaceId });
  await createPage(t, member, { title: 'Личная участника', section: 'private', workspaceId });
  const job = await finished(member, body<WireExportJob>(await start(member, { workspaceId, format: 'json' })).data.id);
  expect(job).toMatchObject({ status: 'done', pageId: null });
  const document = JSON.parse(strFromU8(unzip((await api(t, member.cookie, 'GET', job.downloadUrl!)).rawPayload)['export.json'])) as JsonExport;
  const titles = document.pages.map((p) => p.title);
  expect(titles).toEqual(expect.arrayContaining(['Общая', 'Подстраница', 'Личная участника', 'Годовой отчёт']));
  expect(titles).not.toContain('Моя личная');
  // Parents before children, each under its parent.
  const index = new Map(document.pages.map((p, i) => [p.id, i]));
  for (const [i, page] of document.pages.entries()) if (page.parentId) expect(index.get(page.parentId)).toBeLessThan(i);
  expect(job.total).toBe(document.pages.length);
});

test('who may: guests and strangers may not export the workspace, nor read pages they cannot; a job is its starter’s alone; bad input 422', async () => {
  const page = await createPage(t, admin, { title: 'Секрет', section: 'private', workspaceId });
  expect((await start(guest, { workspaceId, format: 'markdown' })).statusCode).toBe(403);
  expect((await start(stranger, { workspaceId, format: 'markdown' })).statusCode).toBe(403);
  expect((await start(member, { pageId: page.id, format: 'markdown' })).statusCode).toBe(403);
  expect((await start(admin, { pageId: newId(), format: 'markdown' })).statusCode).toBe(404);
  expect((await start(admin, { format: 'markdown' })).statusCode).toBe(422);
  expect((await start(admin, { pageId: page.id, workspaceId, format: 'markdown' })).statusCode).toBe(422);
  expect((await start(admin, { pageId: page.id, format: 'pdf' })).statusCode).toBe(422);
  const job = await finished(admin, body<WireExportJob>(await start(admin, { pageId: page.id, format: 'html' })).data.id);
  expect((await api(t, member.cookie, 'GET', `${S}/exports/${job.id}`)).statusCode).toBe(404);
  expect((await api(t, member.cookie, 'GET', `${S}/exports/${job.id}/download`)).statusCode).toBe(404);
  expect((await api(t, stranger.cookie, 'GET', job.downloadUrl!)).statusCode).toBe(404);
  expect((await api(t, admin.cookie, 'GET', job.downloadUrl!)).statusCode).toBe(200);
});

test('not finished: 409 export.not_ready; a page trashed before its export runs fails with a reason', async () => {
  const page = await createPage(t, admin, { title: 'Скоро в корзину', section: 'all', workspaceId });
  // A job a stopped worker would hold: running, beating now.
  const id = await insertRunningJob(page.id, new Date().toISOString());
  const early = await api(t, admin.cookie, 'GET', `${S}/exports/${id}/download`);
  expect([early.statusCode, body(early).errors?.[0]?.code]).toEqual([409, 'export.not_ready']);
  await t.app.db.deleteFrom('export_jobs').where('id', '=', id).execute();

  const queued = body<WireExportJob>(await start(admin, { pageId: page.id, format: 'markdown' })).data;
  await t.app.db.updateTable('pages').set({ in_trash: 1 }).where('id', '=', page.id).execute();
  const job = await finished(admin, queued.id);
  expect(job).toMatchObject({ status: 'failed', error: 'the page is gone, in the trash, or no longer yours to read', downloadUrl: null });
  expect((await api(t, admin.cookie, 'GET', `${S}/exports/${job.id}/download`)).statusCode).toBe(409);
});

test('a job whose process stopped beating is taken again, by one process only; finished exports are swept with their zips', async () => {
  const page = await createPage(t, admin, { title: 'Осиротевший', section: 'all', workspaceId });
  const long = new Date(Date.now() - 60_000).toISOString();
  const id = await insertRunningJob(page.id, long);
  const job = await finished(admin, id);
  expect(job.status).toBe('done');
  // Claims are exclusive: a job already taken is not taken twice.
  const other = await insertRunningJob(page.id, long);
  const claims = await Promise.all([claimExportJob(t.app.db), claimExportJob(t.app.db)]);
  const mine = claims.filter((c) => c?.id === other);
  expect(mine.length).toBeLessThanOrEqual(1);
  const claimed = mine[0] ?? (await t.app.db.selectFrom('export_jobs').selectAll().where('id', '=', other).executeTakeFirstOrThrow());
  if (mine[0]) await runExportJob(t.app.db, t.app.fileStore, claimed);

  const zip = zipOf(id);
  expect(fs.existsSync(zip)).toBe(true);
  await t.app.db
    .updateTable('export_jobs')
    .set({ finished_at: new Date(Date.now() - 2 * 24 * 60 * 60 * 1000).toISOString() })
    .where('id', '=', id)
    .execute();
  expect(await sweepExportJobs(t.app.db, t.app.fileStore)).toBeGreaterThanOrEqual(1);
  expect(fs.existsSync(zip)).toBe(false);
  expect((await api(t, admin.cookie, 'GET', `${S}/exports/${id}`)).statusCode).toBe(404);
});

/*
 * The job's progress notes (`pages_done`, written on a promise chain while the zip is written)
 * must never leave that chain rejected: an unhandled rejection ends a Node process (issue 19).
 */

/** Node's own process: Jest gives a test file a copy whose events are its own, never the real ones. */
const realProcess = vm.runInThisContext('process') as NodeJS.Process;

/** The unhandled rejections of the process while `run` runs. */
async function unhandledRejectionsDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  realProcess.on('unhandledRejection', listener);
  try {
    await run();
  } finally {
    realProcess.off('unhandledRejection', listener);
  }
  return seen;
}

/** A page with `n` subpages; its id. */
async function pageWithSubpages(title: string, n: number): Promise<string> {
  const root = await createPage(t, admin, { title, section: 'all', workspaceId });
  for (let i = 1; i <= n; i++) await createPage(t, admin, { title: `${title} ${i}`, parentId: root.id });
  return root.id;
}

/** The columns an update sets, when it is one of export_jobs. */
function exportJobColumnsSet(node: OperationNode): string[] {
  if (node.kind !== 'UpdateQueryNode') return [];
  const update = node as UpdateQueryNode;
  if (update.table?.kind !== 'TableNode' || (update.table as TableNode).table.identifier.name !== 'export_jobs') return [];
  return (update.updates ?? []).map((u) => (u.column as ColumnNode).column.name);
}

const onSqlite = testDb() === 'sqlite' ? test : test.skip;

onSqlite('SQLite: a progress note refused as busy (another process held the lock past DB_BUSY_TIMEOUT_MS) is skipped; the job still ends done', async () => {
  const rootId = await pageWithSubpages('Занятая заметка', 3);
  // Taken by a worker (this test) just now: the app's worker leaves it alone.
  const id = await insertRunningJob(rootId, new Date().toISOString());
  const job = await t.app.db.selectFrom('export_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  // Another connection on the file — another process, for SQLite's locks — takes the write lock
  // just as the first progress note is about to be written, and lets it go when the job writes
  // next (the last page's note, waiting behind the first on its chain): the first note waits out
  // DB_BUSY_TIMEOUT_MS and is refused as busy; nothing is left to timing.
  const other = new SQLite(path.join(t.config.dataDir, SQLITE_FILE), { timeout: 0 });
  let locked = false;
  let lockedAtFirstNote = false;
  let releasedByNextWrite = false;
  const lockingAtFirstNote: KyselyPlugin = {
    transformQuery: ({ node }) => {
      const columns = exportJobColumnsSet(node);
      if (locked && columns.length > 0) {
        other.exec('ROLLBACK');
        locked = false;
        releasedByNextWrite = true;
      } else if (!lockedAtFirstNote && columns.includes('pages_done') && !columns.includes('status')) {
        other.exec('BEGIN IMMEDIATE');
        locked = lockedAtFirstNote = true;
      }
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const started = performance.now();
  try {
    const unhandled = await unhandledRejectionsDuring(() => runExportJob(t.app.db.withPlugin(lockingAtFirstNote), t.app.fileStore, job));
    expect(unhandled).toEqual([]);
  } finally {
    if (locked) other.exec('ROLLBACK');
    other.close();
  }
  expect([lockedAtFirstNote, releasedByNextWrite]).toEqual([true, true]);
  // The first note did wait for the lock before it was refused.
  expect(performance.now() - started).toBeGreaterThanOrEqual(BUSY_WAIT_MS);
  const done = expectOk<WireExportJob>(await api(t, admin.cookie, 'GET', `${S}/exports/${id}`));
  expect(done).toMatchObject({ status: 'done', done: 4, total: 4, error: null });
  expect(Object.keys(unzip((await api(t, admin.cookie, 'GET', done.downloadUrl!)).rawPayload))).toHaveLength(4);
});

test('a progress note the database refuses fails the job once its zip is written, with its stable message, no zip kept and no unhandled rejection', async () => {
  const rootId = await pageWithSubpages('Отказ базы', 3);
  // A database fault on every progress note: `update … set pages_done` with pages done is refused
  // while the job runs (the update that ends it `done` would go in: the notes alone fail it).
  const [create, drop] =
    testDb() === 'sqlite'
      ? [
          [
            sql`create trigger refuse_export_progress before update of pages_done on export_jobs when new.pages_done > 0 and new.status = 'running' begin select raise(abort, 'the test refuses export progress'); end`,
          ],
          [sql`drop trigger if exists refuse_export_progress`],
        ]
      : [
          [
            sql`create function refuse_export_progress() returns trigger language plpgsql as $$ begin raise exception 'the test refuses export progress'; end $$`,
            sql`create trigger refuse_export_progress before update of pages_done on export_jobs for each row when (new.pages_done > 0 and new.status = 'running') execute function refuse_export_progress()`,
          ],
          [sql`drop trigger if exists refuse_export_progress on export_jobs`, sql`drop function if exists refuse_export_progress()`],
        ];
  for (const statement of create) await statement.execute(t.app.db);
  let job: WireExportJob | undefined;
  let unhandled: unknown[];
  try {
    unhandled = await unhandledRejectionsDuring(async () => {
      const queued = body<WireExportJob>(await start(admin, { pageId: rootId, format: 'markdown', subpages: true })).data;
      job = await finished(admin, queued.id);
    });
  } finally {
    for (const statement of drop) await statement.execute(t.app.db);
  }
  expect(unhandled).toEqual([]);
  expect(job).toMatchObject({ status: 'failed', error: 'the export failed; try again', downloadUrl: null, size: null });
  expect(fs.existsSync(zipOf(job!.id))).toBe(false);
  expect((await api(t, admin.cookie, 'GET', `${S}/exports/${job!.id}/download`)).statusCode).toBe(409);
});
