import type { FastifyInstance } from 'fastify';
import { BackgroundLoop } from '../background';
import type { Config } from '../config';
import { clockSweeper, formulaWorker } from '../commands/databases/formulaJobs';
import { exportWorker } from '../export/exportJobs';
import type { VersionAnnouncer } from '../history/announcements';
import { historian } from '../history/historian';
import { PREVIEW_KEPT_MS } from '../commands/links/preview';
import { sweepAbandonedUploads } from '../repositories/files';
import { sweepLinkPreviews } from '../repositories/linkPreviews';
import type { RequestActivity } from '../requestActivity';
import { searchIndexer } from '../search/indexer';
import { webhookWorker } from '../webhooks/deliver';
import type { Mailer } from '../mail';
import { reminderWorker } from '../reminders/send';

/** How often abandoned uploads are swept away. */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * The jobs every server process runs in the background (issue 35: in one place, not started by
 * the routes they serve), each a `BackgroundLoop` started when the app is ready and stopped —
 * waiting for a round under way — before it closes:
 *
 * - the search indexer (server/search/indexer.ts): the queue of changed pages, rows and blocks;
 *   it backs off while people use the server (`activity`);
 * - the historian (server/history/historian.ts): records page versions as people pause, and
 *   forgets old ones; its versions are announced in order with the routes' (`announcer`);
 * - the export worker (server/export/exportJobs.ts): writes queued export zips;
 * - the formula worker (server/commands/databases/formulaJobs.ts): a big database's formulas
 *   computed again in the background after a change of its fields; and the clock sweeper, which
 *   queues the databases whose formulas read now() or today() every half hour;
 * - the webhook sender (server/webhooks/deliver.ts): the workspaces' webhook deliveries, tried again with backoff;
 * - the reminder worker (server/reminders/send.ts): date mentions' reminders told when due, in the
 *   inbox and by e-mail (each taken by one process);
 * - the upload sweeper: upload URLs never used and uploads never finished, rows and bytes; and
 *   link previews older than the day they are given for (server/commands/links/preview.ts).
 *
 * Several processes on one PostgreSQL share the work (each target or job is taken by one).
 */
export async function backgroundWorkers(
  app: FastifyInstance,
  { config, activity, announcer, mailer }: { config: Config; activity?: RequestActivity; announcer: VersionAnnouncer; mailer: Mailer },
): Promise<void> {
  const loops = [
    searchIndexer(app.db, app.log, config.searchIndexIntervalMs, activity ? () => activity.busy() : undefined),
    historian(app.db, { pauseMs: config.historyPauseMs, maxMs: config.historyMaxMs, days: config.historyDays }, app.log, (pageId) =>
      announcer.recorded(pageId),
    ),
    exportWorker(app.db, app.fileStore, app.log),
    formulaWorker(app.db, app.log, (events) => app.events.dispatch(events, null)),
    clockSweeper(app.db, app.log),
    webhookWorker(app.db, app.log),
    reminderWorker(app.db, { mailer, publicUrl: config.publicUrl, dispatch: (events) => app.events.dispatch(events, null), log: app.log }),
    new BackgroundLoop(
      async () => {
        await sweepLinkPreviews(app.db, new Date(Date.now() - PREVIEW_KEPT_MS).toISOString());
        return (await sweepAbandonedUploads(app.db, app.fileStore)) > 0 ? 0 : SWEEP_EVERY_MS;
      },
      app.log,
      'sweeping abandoned uploads or old link previews failed; trying again',
      SWEEP_EVERY_MS,
    ),
  ];
  app.addHook('onReady', async () => loops.forEach((loop) => loop.start()));
  app.addHook('preClose', async () => void (await Promise.all(loops.map((loop) => loop.stop()))));
}
