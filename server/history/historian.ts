import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import { lockBlocks } from '../db/locks';
import { nowIso } from '../time';
import { recordVersion } from './versions';
import { BackgroundLoop, type LoopLog } from '../background';
import { forgetOldCellHistory } from '../repositories/cellHistory';

/** When versions are recorded and how long they are kept (docs/history.md «When a version is made»). */
export interface HistoryTiming {
  /** A version once a page has not been edited for this long (HISTORY_PAUSE_MS). */
  pauseMs: number;
  /** …or while editing goes on, once this long has passed since its first unrecorded edit (HISTORY_MAX_MS). */
  maxMs: number;
  /** Versions older than this many days are forgotten, a page's newest always kept (HISTORY_DAYS). */
  days: number;
}

/** Pages recorded in one round at most. */
const ROUND = 20;

/**
 * Told of each version as it is recorded (the realtime `versionRecorded`: docs/history.md): called
 * inside the transaction, under the page's lock, so the announcement takes its place in the
 * page's order there; what it answers is told the version's id after the commit (null: nothing
 * was recorded, or the transaction failed).
 */
export type OnRecording = (pageId: string) => (versionId: number | null) => void;

/** Records the versions that are due (a pause, or editing for too long); answers how many pages were looked at. */
export async function recordDue(db: Kysely<Database>, timing: HistoryTiming, now = Date.now(), onRecording?: OnRecording): Promise<number> {
  const paused = new Date(now - timing.pauseMs).toISOString();
  const long = new Date(now - timing.maxMs).toISOString();
  const due = await db
    .selectFrom('history_queue')
    .selectAll()
    .where((eb) => eb.or([eb('last_at', '<=', paused), eb('first_at', '<=', long)]))
    .orderBy('last_at')
    .limit(ROUND)
    .execute();
  for (const entry of due) {
    let tell: ((versionId: number | null) => void) | undefined;
    let recorded: number | null = null;
    try {
      recorded = await db.transaction().execute(async (trx) => {
        // One version at a time per page (a restore records under the same lock).
        await lockBlocks(trx, entry.page_id);
        tell ??= onRecording?.(entry.page_id);
        const id = await recordVersion(trx, entry.page_id, { kind: 'edit' });
        // Edited again since it was read: it stays queued, from now.
        const taken = await trx.deleteFrom('history_queue').where('page_id', '=', entry.page_id).where('last_at', '=', entry.last_at).executeTakeFirst();
        if (Number(taken.numDeletedRows) === 0)
          await trx.updateTable('history_queue').set({ first_at: nowIso() }).where('page_id', '=', entry.page_id).execute();
        return id;
      });
    } finally {
      tell?.(recorded);
    }
  }
  return due.length;
}

/**
 * Forgets versions older than `days` (a page's newest is always kept): the oldest version kept
 * takes over the blocks it did not change from the versions forgotten, so the page at it is the
 * same as before. Versions of pages deleted for good go too. Answers how many versions went.
 */
export async function forgetOld(db: Kysely<Database>, days: number, now = Date.now()): Promise<number> {
  const before = new Date(now - days * 86_400_000).toISOString();
  let forgotten = 0;
  const pages = await db.selectFrom('page_versions').select('page_id').distinct().where('created_at', '<', before).limit(200).execute();
  for (const { page_id: pageId } of pages) {
    forgotten += await db.transaction().execute(async (trx) => {
      await lockBlocks(trx, pageId);
      const versions = await trx.selectFrom('page_versions').select(['id', 'created_at']).where('page_id', '=', pageId).orderBy('id').execute();
      if (versions.length === 0) return 0;
      const kept = versions.find((v) => v.created_at >= before) ?? versions[versions.length - 1];
      const keptId = Number(kept.id);
      const dropped = versions.filter((v) => Number(v.id) < keptId);
      if (dropped.length === 0) return 0;
      // Blocks the kept version did not change: their latest older row moves into it.
      const own = new Set(
        (await trx.selectFrom('page_version_blocks').select('block_id').where('page_id', '=', pageId).where('version_id', '=', keptId).execute()).map(
          (r) => r.block_id,
        ),
      );
      const older = await trx
        .selectFrom('page_version_blocks')
        .select(['block_id', 'version_id', 'state'])
        .where('page_id', '=', pageId)
        .where('version_id', '<', keptId)
        .orderBy('version_id', 'desc')
        .execute();
      const moved = new Set<string>();
      for (const row of older) {
        if (own.has(row.block_id) || moved.has(row.block_id)) continue;
        moved.add(row.block_id);
        if (row.state === null) continue;
        await trx
          .updateTable('page_version_blocks')
          .set({ version_id: keptId })
          .where('page_id', '=', pageId)
          .where('block_id', '=', row.block_id)
          .where('version_id', '=', row.version_id)
          .execute();
      }
      await trx.deleteFrom('page_version_blocks').where('page_id', '=', pageId).where('version_id', '<', keptId).execute();
      await trx.deleteFrom('page_versions').where('page_id', '=', pageId).where('id', '<', keptId).execute();
      const count = await trx
        .selectFrom('page_version_blocks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('page_id', '=', pageId)
        .where('version_id', '=', keptId)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('page_versions')
        .set({ changed: Number(count.n) })
        .where('id', '=', keptId)
        .execute();
      return dropped.length;
    });
  }
  // Pages deleted for good take their history with them.
  const orphans = await db
    .selectFrom('page_versions')
    .select('page_id')
    .distinct()
    .where((eb) => eb.not(eb.exists(eb.selectFrom('pages').select('pages.id').whereRef('pages.id', '=', 'page_versions.page_id'))))
    .limit(200)
    .execute();
  for (const { page_id: pageId } of orphans) {
    await db.deleteFrom('page_version_blocks').where('page_id', '=', pageId).execute();
    const gone = await db.deleteFrom('page_versions').where('page_id', '=', pageId).executeTakeFirst();
    forgotten += Number(gone.numDeletedRows);
  }
  return forgotten;
}

/** How often the historian looks for due versions, and forgets old ones. */
const TICK_MS = 1_000;
const FORGET_EVERY_MS = 60 * 60 * 1000;

/**
 * The historian of a server process: records due versions every second (`onRecording` told of
 * each), forgets old ones every hour (and at start) — versions and rows' property changes.
 */
export function historian(db: Kysely<Database>, timing: HistoryTiming, log: LoopLog, onRecording?: OnRecording): BackgroundLoop {
  let lastForget = 0;
  return new BackgroundLoop(
    async () => {
      const busy = (await recordDue(db, timing, Date.now(), onRecording)) >= ROUND;
      if (Date.now() - lastForget >= FORGET_EVERY_MS) {
        lastForget = Date.now();
        await forgetOld(db, timing.days);
        // A row's property changes are kept as long (docs/history.md «A row's property changes»).
        await forgetOldCellHistory(db, timing.days);
      }
      return busy ? 0 : TICK_MS;
    },
    log,
    'page history failed; trying again',
    TICK_MS * 5,
  );
}
