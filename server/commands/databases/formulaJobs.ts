import type { Kysely, Transaction } from 'kysely';
import { newId } from '../../../schema/ids';
import type { DatabaseConfig } from '../../../schema/blocks/database';
import type { FormulaProgress } from '../../../schema/database';
import { BackgroundLoop, WakeableLoop, type LoopLog } from '../../background';
import { isPostgres } from '../../db/connect';
import { lockPageRows } from '../../db/locks';
import type { Database, FormulaJobTable } from '../../db/types';
import type { DomainEvent, EventOf } from '../../events/events';
import type { CellChange } from '../../repositories/databases';
import { nowIso } from '../../time';
import { databaseData } from '../../repositories/databases';
import { liveConfig } from './database';
import { formulaPlan, recomputeFormulas } from './formulas';
import { cellsWritten } from './database';
import { holderOf, recomputeDependents } from './rollups';
import { findRowPages } from '../../repositories/databases';

/*
 * A changed formula over a big database (docs/formulas.md «A changed formula over many rows»):
 * computing 50,000 rows inside the field's change would hold the database (and on SQLite every
 * write) for seconds. Past `inlineRows` rows the change queues a job instead, in its own
 * transaction: a server process takes it and computes the rows in chunks of CHUNK_ROWS, each in a
 * transaction that holds those rows as a cell write does and reads the fields as they are then —
 * a cell written meanwhile is never overwritten by a value computed from before it. The views
 * hear the progress (`computing`) and read their rows again as values land; the rows' answers
 * say it too (`meta.computing`). A job whose formulas changed again under way starts over; one
 * whose process stopped (its heartbeat older than STALE_MS) is taken by another.
 */

/** Rows computed per transaction. */
const CHUNK_ROWS = 500;
/**
 * On SQLite a transaction holds the one connection: every request waits for the chunk under way,
 * and would get one statement in between chunks. So its chunks are smaller, and after each the
 * job pauses for this share of the time it took, in which the requests that waited run.
 */
const SQLITE_CHUNK_ROWS = 400;
const SQLITE_PAUSE = 0.25;
/** A job's progress is told to the views at most this often. */
const PROGRESS_EVERY_MS = 500;
/** A running job beats each chunk; one silent this long is taken again by another process. */
const STALE_MS = 15_000;
/** How often a process looks for a queued job when nobody woke it. */
const TICK_MS = 1_000;

let inlineRows = 2_000;
/** Formulas are computed in the change itself up to this many rows (config `formulaInlineRows`); past it, in the background. */
export function setFormulaInlineRows(rows: number): void {
  inlineRows = rows;
}

/** The workers of this process, woken when a change here queued a job (other processes find it within TICK_MS). */
const wakers = new Set<() => void>();
export function wakeFormulaJobs(): void {
  for (const wake of wakers) wake();
}

let held = 0;
/** Holds this process's formula workers off (they take no job) until the answer is called: a test drives a job by hand meanwhile. */
export function holdFormulaWorkers(): () => void {
  held++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held--;
    wakeFormulaJobs();
  };
}

/**
 * Computes the formulas of every row of a database as a change of its fields asks: at once in
 * `trx` when the database has at most `inlineRows` rows (answers the cells written), else queues
 * (or restarts) its job and answers the progress to tell the views (done 0).
 */
export async function recomputeAllFormulas(
  trx: Transaction<Database>,
  databaseId: string,
  holderId: string,
  config: DatabaseConfig,
  userId: string,
): Promise<{ computed: number; events: DomainEvent[] } | { queued: FormulaProgress }> {
  const { n } = await trx
    .selectFrom('pages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('database_id', '=', databaseId)
    .executeTakeFirstOrThrow();
  const total = Number(n);
  if (total <= inlineRows) {
    // Links stay (no relation cell changed); the rows naming those computed follow.
    const written = await recomputeFormulas(trx, databaseId, config, 'all', userId, undefined, { relink: false });
    return {
      computed: written.length,
      events: await recomputeCellReaders(trx, written, userId),
    };
  }
  const fieldIds = Object.entries(config.fields)
    .filter(([, field]) => field.type === 'formula' || field.type === 'rollup')
    .map(([id]) => id);
  const job = { holder_id: holderId, user_id: userId, token: newId(), reason: 'change' as const, field_ids: JSON.stringify(fieldIds), done: 0, total };
  await trx
    .insertInto('formula_jobs')
    .values({ database_id: databaseId, ...job, created_at: nowIso(), heartbeat_at: null })
    // A job under way sees the new token at its next chunk and starts over (its heartbeat stays: it is still the one running it).
    .onConflict((oc) => oc.column('database_id').doUpdateSet(job))
    .execute();
  return { queued: { fieldIds, done: 0, total } };
}

/** A database's job under way, for the rows' answers (`meta.computing`); undefined when none. */
export async function formulaProgress(db: Kysely<Database>, databaseId: string): Promise<FormulaProgress | undefined> {
  const job = await db
    .selectFrom('formula_jobs')
    .select(['field_ids', 'done', 'total'])
    .where('database_id', '=', databaseId)
    .where('reason', '=', 'change')
    .executeTakeFirst();
  return job ? progressOf(job) : undefined;
}

const progressOf = (job: Pick<FormulaJobTable, 'field_ids' | 'done' | 'total'>): FormulaProgress => ({
  fieldIds: JSON.parse(job.field_ids) as string[],
  done: Number(job.done),
  total: Number(job.total),
});

type JobRow = FormulaJobTable;

/** Takes a queued job (or one whose process stopped beating); null when none waits. Only one process wins a job. */
export async function claimFormulaJob(db: Kysely<Database>): Promise<JobRow | null> {
  const stale = new Date(Date.now() - STALE_MS).toISOString();
  const candidates = await db
    .selectFrom('formula_jobs')
    .selectAll()
    .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', stale)]))
    .orderBy('created_at')
    .limit(5)
    .execute();
  for (const job of candidates) {
    const now = nowIso();
    const taken = await db
      .updateTable('formula_jobs')
      .set({ heartbeat_at: now })
      .where('database_id', '=', job.database_id)
      .where((eb) => (job.heartbeat_at === null ? eb('heartbeat_at', 'is', null) : eb('heartbeat_at', '=', job.heartbeat_at)))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return { ...job, heartbeat_at: now };
  }
  return null;
}

/**
 * Runs a claimed job to its end: chunk after chunk of rows (by id), each computed in its own
 * transaction; starts over when its token changed (the formulas changed again), and ends by
 * removing the job — unless it was asked for again meanwhile, when it runs again.
 */
export async function runFormulaJob(
  db: Kysely<Database>,
  claimed: JobRow,
  dispatch: (events: DomainEvent[]) => Promise<void>,
): Promise<FormulaJobStats | null> {
  let job = claimed;
  const stats: FormulaJobStats = {
    databaseId: claimed.database_id,
    reason: claimed.reason,
    rows: 0,
    chunks: 0,
    startedOver: 0,
    chunkMs: 0,
    computeMs: 0,
    pauseMs: 0,
    tellMs: 0,
    ms: 0,
  };
  const begun = performance.now();
  const ms = (since: number) => performance.now() - since;
  let after = '';
  let done = 0;
  let told = 0;
  const tell = (change: EventOf<'rowsChanged'>['change']) =>
    dispatch([{ kind: 'rowsChanged', holderId: job.holder_id, databaseId: job.database_id, change, at: nowIso() }]);
  const sqlite = !isPostgres(db);
  const size = sqlite ? SQLITE_CHUNK_ROWS : CHUNK_ROWS;
  for (;;) {
    const started = performance.now();
    // When the chunk got the connection (on SQLite it may wait for requests first): the pause is a share of its own time.
    let connected = started;
    const chunk = await db.transaction().execute(async (trx) => {
      connected = performance.now();
      const current = await trx.selectFrom('formula_jobs').selectAll().where('database_id', '=', job.database_id).executeTakeFirst();
      // Gone: the database's job was done by another process that took it as stale (this one was too slow to beat).
      if (!current) return null;
      if (current.token !== job.token) {
        job = current;
        after = '';
        done = 0;
        stats.startedOver++;
      }
      const ids = (
        await trx.selectFrom('pages').select('id').where('database_id', '=', job.database_id).where('id', '>', after).orderBy('id').limit(size).execute()
      ).map((row) => row.id);
      if (ids.length === 0) {
        // Done — unless asked for again between the last chunk and now (its token then differs).
        const removed = await trx.deleteFrom('formula_jobs').where('database_id', '=', job.database_id).where('token', '=', job.token).executeTakeFirst();
        return Number(removed.numDeletedRows) === 1 ? { finished: true as const } : { restart: true as const };
      }
      // Held as a cell write holds them, the fields read as they are now: nothing written meanwhile is computed from before it.
      await lockPageRows(trx, ids);
      const config = await liveConfig(trx, job.database_id);
      const changes: CellChange[] = [];
      const computing = performance.now();
      const written = await recomputeFormulas(trx, job.database_id, config, ids, job.user_id, changes, { relink: false });
      // Rollups of other databases reading the values computed here (docs/relations.md «Rollups»).
      const readers = await recomputeCellReaders(trx, written, job.user_id);
      stats.computeMs += ms(computing);
      stats.rows += ids.length;
      stats.chunks++;
      after = ids[ids.length - 1];
      done = Math.min(job.total, done + ids.length);
      await trx
        .updateTable('formula_jobs')
        .set({ done, heartbeat_at: nowIso() })
        .where('database_id', '=', job.database_id)
        .where('token', '=', job.token)
        .execute();
      return { changes, readers };
    });
    stats.chunkMs += ms(started);
    if (chunk === null) return null;
    // Asked for again at the end: the next chunk finds the new token and starts over (or the job gone).
    if ('restart' in chunk) continue;
    if ('finished' in chunk) {
      // Every view reads its rows again, with the values all there.
      await tell({ kind: 'reset' });
      stats.ms = ms(begun);
      for (const key of ['chunkMs', 'computeMs', 'pauseMs', 'tellMs', 'ms'] as const) stats[key] = Math.round(stats[key]);
      return stats;
    }
    if (sqlite) {
      const pausing = performance.now();
      await new Promise((resolve) => setTimeout(resolve, Math.max(5, (pausing - connected) * SQLITE_PAUSE)));
      stats.pauseMs += ms(pausing);
    }
    const telling = performance.now();
    // The kept orders learn the rows written (no realtime message per cell: the views read again as the progress comes).
    if (chunk.changes.length > 0)
      await dispatch([{ kind: 'cellsWritten', holderId: job.holder_id, databaseId: job.database_id, rows: new Map(), written: [], changes: chunk.changes }]);
    if (chunk.readers.length > 0) await dispatch(chunk.readers);
    // Formulas kept current with the clock are computed quietly: only their end is told.
    if (job.reason === 'change' && Date.now() - told >= PROGRESS_EVERY_MS) {
      told = Date.now();
      await tell({ kind: 'computing', ...progressOf({ ...job, done }) });
    }
    stats.tellMs += ms(telling);
  }
}

/** What a job did, logged when it ends: rows computed (again after a restart), and where the time went. */
export interface FormulaJobStats {
  databaseId: string;
  reason: JobRow['reason'];
  rows: number;
  chunks: number;
  startedOver: number;
  /** In the chunks' transactions, of which computing the rows. */
  chunkMs: number;
  computeMs: number;
  /** Paused between chunks (SQLite: the requests that waited run). */
  pauseMs: number;
  /** Telling the views and the kept orders. */
  tellMs: number;
  ms: number;
}

/** How often formulas reading now() or today() are computed again: their values are at most this old (today() changes within it of midnight). */
export const CLOCK_SWEEP_MS = 30 * 60_000;

/**
 * Queues a quiet job for every database with a formula that reads now() or today() (directly
 * or through another formula), unless one is queued or running already: their values follow the
 * clock (docs/formulas.md «now() and today()»). Answers how many were queued.
 */
export async function queueClockJobs(db: Kysely<Database>): Promise<number> {
  // A cheap look first (the JSON text of the database holds the call), then the plan says.
  const blocks = await db
    .selectFrom('blocks')
    .select(['id', 'page_id', 'data', 'updated_by'])
    .where('type', '=', 'database')
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('data', 'like', '%now(%'), eb('data', 'like', '%today(%')]))
    .execute();
  let queued = 0;
  for (const block of blocks) {
    const { config } = databaseData(block);
    const { order } = formulaPlan(config);
    if (!order.some((p) => p.formula.readsClock)) continue;
    const { n } = await db
      .selectFrom('pages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('database_id', '=', block.id)
      .executeTakeFirstOrThrow();
    const inserted = await db
      .insertInto('formula_jobs')
      .values({
        database_id: block.id,
        holder_id: block.page_id,
        user_id: block.updated_by,
        token: newId(),
        reason: 'clock',
        field_ids: JSON.stringify(order.map((p) => p.fieldId)),
        done: 0,
        total: Number(n),
        created_at: nowIso(),
        heartbeat_at: null,
      })
      .onConflict((oc) => oc.column('database_id').doNothing())
      .executeTakeFirst();
    queued += Number(inserted.numInsertedOrUpdatedRows ?? 0);
  }
  if (queued > 0) wakeFormulaJobs();
  return queued;
}

/** Milliseconds until the next CLOCK_SWEEP_MS boundary of the clock (and a moment more: midnight in a zone of whole or half hours is one). */
export function untilNextSweep(now = Date.now()): number {
  return CLOCK_SWEEP_MS - (now % CLOCK_SWEEP_MS) + 2_000;
}

/** The sweeper of a server process: at start (values may have aged while it was down) and at every CLOCK_SWEEP_MS boundary. */
export function clockSweeper(db: Kysely<Database>, log: LoopLog): BackgroundLoop {
  return new BackgroundLoop(
    async () => {
      await queueClockJobs(db);
      return untilNextSweep();
    },
    log,
    'queueing the formulas that read the clock failed; trying again',
    60_000,
  );
}

/** The formula worker of a server process: a job at a time, woken by a change here or finding one within TICK_MS. */
function formulaRound(db: Kysely<Database>, log: LoopLog, dispatch: (events: DomainEvent[]) => Promise<void>) {
  return async () => {
    if (held > 0) return TICK_MS;
    const job = await claimFormulaJob(db);
    if (!job) return TICK_MS;
    try {
      const stats = await runFormulaJob(db, job, dispatch);
      if (stats) log.info(stats, 'formulas computed');
    } catch (error) {
      // Let go at once (not after STALE_MS): the next round, here or elsewhere, takes it up from the start.
      await db
        .updateTable('formula_jobs')
        .set({ heartbeat_at: null })
        .where('database_id', '=', job.database_id)
        .execute()
        .catch(() => undefined);
      throw error;
    }
    return 0;
  };
}

export function formulaWorker(db: Kysely<Database>, log: LoopLog, dispatch: (events: DomainEvent[]) => Promise<void>): BackgroundLoop {
  return new WakeableLoop(wakers, formulaRound(db, log, dispatch), log, 'computing formulas failed; trying again', TICK_MS * 5);
}

/** Rows naming changed rows computed in the change itself up to this many per database; past it, the database's job (every row). */
const READERS_INLINE = 1_000;

/**
 * After rows changed (a cell, a title, a new row, rows trashed or restored, formulas computed), in
 * the transaction that changed them: the rollups reading those rows, in other databases and this
 * one, computed again with the formulas of their rows (rollups.ts `recomputeDependents`); the
 * events of the cells written, for those databases' views. A database where more than
 * READERS_INLINE rows name them computes in the background instead (its views hear `computing`).
 */
export function recomputeRowReaders(
  trx: Transaction<Database>,
  rowIds: readonly string[],
  userId: string,
  /** The fields that changed on those rows (absent: any — a title, the trash, a new row). */
  fieldIds?: readonly string[],
): Promise<DomainEvent[]> {
  const none = { events: [], changedRows: [], changedFields: [] };
  return recomputeDependents(
    trx,
    rowIds,
    async (tx, databaseId, config, ids, changes) => {
      const target = await holderOf(tx, databaseId);
      if (!target) return none;
      const tell = (change: EventOf<'rowsChanged'>['change']): DomainEvent => ({
        kind: 'rowsChanged',
        holderId: target.holder.id,
        databaseId,
        change,
        at: nowIso(),
      });
      if (ids.length > READERS_INLINE) {
        const all = await recomputeAllFormulas(tx, databaseId, target.holder.id, config, userId);
        if ('queued' in all) {
          wakeFormulaJobs();
          return { ...none, events: [tell({ kind: 'computing', ...all.queued })] };
        }
        return { ...none, events: [...all.events, tell({ kind: 'reset' })] };
      }
      const written = await recomputeFormulas(tx, databaseId, config, ids, userId, changes, { relink: false });
      if (written.length === 0) return none;
      const rows = new Map((await findRowPages(tx, databaseId, ids)).map((row) => [row.id, row]));
      return {
        events: cellsWritten(target, rows, written, changes, config),
        changedRows: [...new Set(written.map((cell) => cell.rowId))],
        changedFields: [...new Set(written.map((cell) => cell.fieldId))],
      };
    },
    fieldIds,
  );
}

/** `recomputeRowReaders` after cells were written: their rows, and the fields they are of. */
export function recomputeCellReaders(
  trx: Transaction<Database>,
  cells: ReadonlyArray<{ rowId: string; fieldId: string }>,
  userId: string,
): Promise<DomainEvent[]> {
  return recomputeRowReaders(trx, [...new Set(cells.map((cell) => cell.rowId))], userId, [...new Set(cells.map((cell) => cell.fieldId))]);
}
