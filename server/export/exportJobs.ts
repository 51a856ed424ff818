import type { Kysely } from 'kysely';
import type { ExportFormat, WireExportJob } from '../../schema/exportJob';
import { BackgroundLoop, type LoopLog } from '../background';
import { isStorageBusy } from '../db/busy';
import type { Database, ExportJobTable, PageRow } from '../db/types';
import type { FileStore } from '../files/store';
import { allows } from '../../schema/policies/page';
import { pageAccessLevel } from '../policies/page';
import { nowIso } from '../time';
import { newId } from '../../schema/ids';
import { exportZip, pagesToExport, workspacePagesToExport } from './pageExport';

/**
 * Exports as background jobs (issue 18, docs/import-export.md «Export jobs»): a page with its
 * subpages or a whole workspace can take minutes, so the zip is written by a server process in the
 * background while the person watches its progress — or leaves and downloads it later. Any
 * process takes queued jobs (one at a time); a job whose process stops beating is taken again.
 */

/** An export job as stored. */
export type ExportJobRow = { [K in keyof ExportJobTable]: ExportJobTable[K] };
type JobRow = ExportJobRow;

/** A new job as queued (or as `rest` says: a test's running job), nothing of it done yet. */
export function newExportJob(
  fields: Pick<ExportJobRow, 'user_id' | 'workspace_id' | 'root_id' | 'title' | 'subpages' | 'format' | 'comments'> & Partial<ExportJobRow>,
): ExportJobRow {
  return {
    id: newId(),
    status: 'queued',
    pages_done: 0,
    pages_total: 0,
    size: null,
    storage_key: null,
    error: null,
    created_at: nowIso(),
    heartbeat_at: null,
    finished_at: null,
    ...fields,
  };
}

export async function insertExportJob(db: Kysely<Database>, job: ExportJobRow): Promise<void> {
  await db.insertInto('export_jobs').values(job).execute();
}

/** A user's latest exports of a workspace, newest first. */
export function listRecentExportJobs(db: Kysely<Database>, userId: string, workspaceId: string, limit: number): Promise<ExportJobRow[]> {
  return db
    .selectFrom('export_jobs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

export function findExportJob(db: Kysely<Database>, id: string): Promise<ExportJobRow | undefined> {
  return db.selectFrom('export_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** How long a finished export's zip is kept. */
export const EXPORT_KEEP_MS = 24 * 60 * 60 * 1000;
/** A running job beats this often; one silent for three beats is taken again by another process. */
const HEARTBEAT_MS = 5_000;
const STALE_MS = 3 * HEARTBEAT_MS;
const TICK_MS = 1_000;
const SWEEP_EVERY_MS = 10 * 60 * 1000;
const UNTITLED = 'Без названия';

export function presentExportJob(job: JobRow): WireExportJob {
  return {
    id: job.id,
    workspaceId: job.workspace_id,
    pageId: job.root_id,
    format: job.format as ExportFormat,
    subpages: job.subpages === 1,
    comments: job.comments === 1,
    title: job.title,
    status: job.status,
    done: job.pages_done,
    total: job.pages_total,
    size: job.size === null ? null : Number(job.size),
    error: job.error,
    createdAt: job.created_at,
    finishedAt: job.finished_at,
    downloadUrl: job.status === 'done' ? `/api/v3/spaces/exports/${encodeURIComponent(job.id)}/download` : null,
  };
}

/** Takes the oldest queued job (or one whose process stopped beating); null when none waits. Only one process wins a job. */
export async function claimExportJob(db: Kysely<Database>): Promise<JobRow | null> {
  const stale = new Date(Date.now() - STALE_MS).toISOString();
  const candidates = await db
    .selectFrom('export_jobs')
    .selectAll()
    .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('heartbeat_at', '<', stale)])]))
    .orderBy('created_at')
    .limit(5)
    .execute();
  for (const job of candidates) {
    const now = nowIso();
    const taken = await db
      .updateTable('export_jobs')
      .set({ status: 'running', heartbeat_at: now })
      .where('id', '=', job.id)
      .where('status', '=', job.status)
      .where((eb) => (job.heartbeat_at === null ? eb('heartbeat_at', 'is', null) : eb('heartbeat_at', '=', job.heartbeat_at)))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return { ...job, status: 'running', heartbeat_at: now };
  }
  return null;
}

/** The pages a job exports, as its starter may read them now; null when the page is gone, in the trash, or no longer theirs to read. */
async function jobPages(db: Kysely<Database>, job: JobRow): Promise<PageRow[] | null> {
  if (job.root_id === null) return workspacePagesToExport(db, job.user_id, job.workspace_id);
  const root = await db.selectFrom('pages').selectAll().where('id', '=', job.root_id).executeTakeFirst();
  if (!root || root.in_trash === 1 || !allows(await pageAccessLevel(db, job.user_id, root), 'read')) return null;
  return pagesToExport(db, job.user_id, root, job.subpages === 1);
}

/** Writes a claimed job's zip into the file store (any process can send it then), beating and noting its progress as it goes; marks it done or failed, or queues it again when the database was too busy. */
export async function runExportJob(db: Kysely<Database>, store: FileStore, job: JobRow): Promise<void> {
  const key = `exports/${job.id}.zip`;
  try {
    const pages = await jobPages(db, job);
    if (!pages) throw new ExportGone('the page is gone, in the trash, or no longer yours to read');
    await db.updateTable('export_jobs').set({ pages_total: pages.length, storage_key: key }).where('id', '=', job.id).execute();
    let done = 0;
    let noted = 0;
    let writes = Promise.resolve();
    let noteFailed: { error: unknown } | undefined;
    const note = (force: boolean) => {
      if (!force && Date.now() - noted < 500 && done < pages.length) return;
      noted = Date.now();
      const at = done;
      writes = writes
        .then(async () => {
          await db.updateTable('export_jobs').set({ pages_done: at, heartbeat_at: nowIso() }).where('id', '=', job.id).execute();
        })
        // Never left rejected while the zip is written (an unhandled rejection ends the process):
        // a note the database was too busy to take is skipped, the next says more; any other
        // failure ends the job once the zip is done.
        .catch((error: unknown) => {
          if (!isStorageBusy(error)) noteFailed ??= { error };
        });
    };
    const progress = (n: number) => {
      done = n;
      note(false);
    };
    // Beat while the zip's files are written too (reading pages notes progress; the files that follow may take long).
    const beat = setInterval(() => note(true), HEARTBEAT_MS);
    let size: number;
    try {
      size = await store.put(
        key,
        exportZip(db, store, pages, {
          format: job.format as ExportFormat,
          untitled: UNTITLED,
          comments: job.comments === 1,
          onProgress: progress,
          viewerId: job.user_id,
        }),
        'application/zip',
      );
    } finally {
      clearInterval(beat);
      await writes;
    }
    if (noteFailed) throw noteFailed.error;
    await db
      .updateTable('export_jobs')
      .set({ status: 'done', pages_done: pages.length, size, finished_at: nowIso(), heartbeat_at: nowIso() })
      .where('id', '=', job.id)
      .execute();
  } catch (error) {
    // A zip the store could not remove either is left to the bucket's care; the job's failure is what matters.
    await store.delete(key).catch(() => undefined);
    if (isStorageBusy(error)) {
      // The database stayed locked by another process: not the export's failure. The job waits
      // for a worker again; if even that is refused, its heartbeat goes stale and a worker takes
      // it up then (claimExportJob).
      await db
        .updateTable('export_jobs')
        .set({ status: 'queued', heartbeat_at: null, storage_key: null, pages_done: 0 })
        .where('id', '=', job.id)
        .execute()
        .catch(() => undefined);
      throw error;
    }
    const message = error instanceof ExportGone ? error.message : 'the export failed; try again';
    await db.updateTable('export_jobs').set({ status: 'failed', error: message, storage_key: null, finished_at: nowIso() }).where('id', '=', job.id).execute();
    if (!(error instanceof ExportGone)) throw error;
  }
}

class ExportGone extends Error {}

/** Forgets finished exports older than EXPORT_KEEP_MS, their zips with them. */
export async function sweepExportJobs(db: Kysely<Database>, store: FileStore, keepMs = EXPORT_KEEP_MS): Promise<number> {
  const before = new Date(Date.now() - keepMs).toISOString();
  const old = await db
    .selectFrom('export_jobs')
    .select(['id', 'storage_key'])
    .where('status', 'in', ['done', 'failed'])
    .where('finished_at', '<', before)
    .limit(500)
    .execute();
  for (const job of old) {
    if (job.storage_key) await store.delete(job.storage_key);
    await db.deleteFrom('export_jobs').where('id', '=', job.id).execute();
  }
  return old.length;
}

/** The export worker of a server process: a job at a time, looking for one every second; sweeps old exports every ten minutes. */
export function exportWorker(db: Kysely<Database>, store: FileStore, log: LoopLog): BackgroundLoop {
  let lastSweep = 0;
  return new BackgroundLoop(
    async () => {
      if (Date.now() - lastSweep >= SWEEP_EVERY_MS) {
        lastSweep = Date.now();
        await sweepExportJobs(db, store);
      }
      const job = await claimExportJob(db);
      if (!job) return TICK_MS;
      await runExportJob(db, store, job);
      return 0;
    },
    log,
    'export job failed',
    TICK_MS * 5,
  );
}
