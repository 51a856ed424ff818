import type { Kysely, Transaction } from 'kysely';
import { newId } from '../../../schema/ids';
import type { DatabaseConfig } from '../../../schema/blocks/database';
import type { FormulaProgress } from '../../../schema/database';
import { BackgroundLoop, type LoopLog } from '../../background';
import { lockPageRows } from '../../db/locks';
import type { Database, FormulaJobTable } from '../../db/types';
import type { DomainEvent, EventOf } from '../../events/events';
import type { CellChange } from '../../repositories/databases';
import { nowIso } from '../../time';
import { liveConfig } from './database';
import { recomputeFormulas } from './formulas';

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
): Promise<{ computed: number } | { queued: FormulaProgress }> {
  const { n } = await trx
    .selectFrom('pages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('database_id', '=', databaseId)
    .executeTakeFirstOrThrow();
  const total = Number(n);
  if (total <= inlineRows) return { computed: (await recomputeFormulas(trx, databaseId, config, 'all', userId)).length };
  const fieldIds = Object.entries(config.fields)
    .filter(([, field]) => field.type === 'formula')
    .map(([id]) => id);
  const job = { holder_id: holderId, user_id: userId, token: newId(), field_ids: JSON.stringify(fieldIds), done: 0, total };
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
  const job = await db.selectFrom('formula_jobs').select(['field_ids', 'done', 'total']).where('database_id', '=', databaseId).executeTakeFirst();
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
export async function runFormulaJob(db: Kysely<Database>, claimed: JobRow, dispatch: (events: DomainEvent[]) => Promise<void>): Promise<void> {
  let job = claimed;
  let after = '';
  let done = 0;
  let told = 0;
  const tell = (change: EventOf<'rowsChanged'>['change']) =>
    dispatch([{ kind: 'rowsChanged', holderId: job.holder_id, databaseId: job.database_id, change, at: nowIso() }]);
  for (;;) {
    const chunk = await db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('formula_jobs').selectAll().where('database_id', '=', job.database_id).executeTakeFirst();
      // Gone: the database's job was done by another process that took it as stale (this one was too slow to beat).
      if (!current) return null;
      if (current.token !== job.token) {
        job = current;
        after = '';
        done = 0;
      }
      const ids = (
        await trx.selectFrom('pages').select('id').where('database_id', '=', job.database_id).where('id', '>', after).orderBy('id').limit(CHUNK_ROWS).execute()
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
      await recomputeFormulas(trx, job.database_id, config, ids, job.user_id, changes);
      after = ids[ids.length - 1];
      done = Math.min(job.total, done + ids.length);
      await trx
        .updateTable('formula_jobs')
        .set({ done, heartbeat_at: nowIso() })
        .where('database_id', '=', job.database_id)
        .where('token', '=', job.token)
        .execute();
      return { changes };
    });
    if (chunk === null) return;
    if ('restart' in chunk) {
      after = '';
      done = 0;
      const again = await db.selectFrom('formula_jobs').selectAll().where('database_id', '=', job.database_id).executeTakeFirst();
      if (!again) return;
      job = again;
      continue;
    }
    if ('finished' in chunk) {
      // Every view reads its rows again, with the values all there.
      await tell({ kind: 'reset' });
      return;
    }
    // The kept orders learn the rows written (no realtime message per cell: the views read again as the progress comes).
    if (chunk.changes.length > 0)
      await dispatch([{ kind: 'cellsWritten', holderId: job.holder_id, databaseId: job.database_id, rows: new Map(), written: [], changes: chunk.changes }]);
    if (Date.now() - told >= PROGRESS_EVERY_MS) {
      told = Date.now();
      await tell({ kind: 'computing', ...progressOf({ ...job, done }) });
    }
  }
}

/** The formula worker of a server process: a job at a time, woken by a change here or finding one within TICK_MS. */
class FormulaWorker extends BackgroundLoop {
  private readonly wakeUp = () => this.wake();

  constructor(db: Kysely<Database>, log: LoopLog, dispatch: (events: DomainEvent[]) => Promise<void>) {
    super(
      async () => {
        if (held > 0) return TICK_MS;
        const job = await claimFormulaJob(db);
        if (!job) return TICK_MS;
        try {
          await runFormulaJob(db, job, dispatch);
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
      },
      log,
      'computing formulas failed; trying again',
      TICK_MS * 5,
    );
  }

  start(): void {
    wakers.add(this.wakeUp);
    super.start();
  }

  async stop(): Promise<void> {
    wakers.delete(this.wakeUp);
    await super.stop();
  }
}

export function formulaWorker(db: Kysely<Database>, log: LoopLog, dispatch: (events: DomainEvent[]) => Promise<void>): BackgroundLoop {
  return new FormulaWorker(db, log, dispatch);
}
