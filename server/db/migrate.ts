import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as initial from './migrations/2026-11-21-0001-initial';
import * as sortKeyCollation from './migrations/2026-11-22-0001-sort-key-collation';
import * as mainApi from './migrations/2026-11-22-0002-main-api';
import * as memberInvitedBy from './migrations/2026-11-22-0003-member-invited-by';
import * as blockOrderIndex from './migrations/2026-11-22-0004-block-order-index';
import * as blockUpdateRoom from './migrations/2026-11-22-0005-block-update-room';
import * as retentionGoals from './migrations/2026-11-23-0001-retention-goals';
import * as realtime from './migrations/2026-11-23-0002-realtime';
import * as dataTables from './migrations/2026-11-25-0001-data-tables';
import * as databaseLayouts from './migrations/2026-11-26-0001-database-layouts';
import * as dateEnds from './migrations/2026-11-26-0002-date-ends';
import * as search from './migrations/2026-11-26-0003-search';
import * as pageHistory from './migrations/2026-11-26-0004-page-history';
import * as exportJobs from './migrations/2026-11-26-0005-export-jobs';
import * as searchSpeed from './migrations/2026-11-26-0006-search-speed';
import * as searchQueueLight from './migrations/2026-11-26-0007-search-queue-light';
import * as rateLimits from './migrations/2026-11-27-0001-rate-limits';
import * as searchPageIds from './migrations/2026-11-27-0002-search-page-ids';
import * as searchQueueOrder from './migrations/2026-11-27-0003-search-queue-order';
import * as viewOrder from './migrations/2026-12-02-0001-view-order';
import * as cellHistory from './migrations/2026-12-02-0002-cell-history';
import * as searchPageStems from './migrations/2026-12-03-0001-search-page-stems';
import * as searchComments from './migrations/2026-12-03-0002-search-comments';
import * as userEmailTyped from './migrations/2026-12-03-0003-user-email-typed';
import * as searchPageDays from './migrations/2026-12-04-0001-search-page-days';
import * as formulaJobs from './migrations/2026-12-05-0001-formula-jobs';
import * as rowLinks from './migrations/2026-12-05-0002-row-links';
import * as webhooks from './migrations/2026-12-05-0003-webhooks';
import * as scopedTokens from './migrations/2026-12-05-0004-scoped-tokens';
import * as blockFolds from './migrations/2026-12-05-0005-block-folds';
import * as linkPreviews from './migrations/2026-12-06-0001-link-previews';
import * as reminders from './migrations/2026-12-06-0002-reminders';
import type { Database } from './types';

/** Every migration, by its frozen date-prefixed name, in order. */
export const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21-0001-initial': initial,
  '2026-11-22-0001-sort-key-collation': sortKeyCollation,
  '2026-11-22-0002-main-api': mainApi,
  '2026-11-22-0003-member-invited-by': memberInvitedBy,
  '2026-11-22-0004-block-order-index': blockOrderIndex,
  '2026-11-22-0005-block-update-room': blockUpdateRoom,
  '2026-11-23-0001-retention-goals': retentionGoals,
  '2026-11-23-0002-realtime': realtime,
  '2026-11-25-0001-data-tables': dataTables,
  '2026-11-26-0001-database-layouts': databaseLayouts,
  '2026-11-26-0002-date-ends': dateEnds,
  '2026-11-26-0003-search': search,
  '2026-11-26-0004-page-history': pageHistory,
  '2026-11-26-0005-export-jobs': exportJobs,
  '2026-11-26-0006-search-speed': searchSpeed,
  '2026-11-26-0007-search-queue-light': searchQueueLight,
  '2026-11-27-0001-rate-limits': rateLimits,
  '2026-11-27-0002-search-page-ids': searchPageIds,
  '2026-11-27-0003-search-queue-order': searchQueueOrder,
  '2026-12-02-0001-view-order': viewOrder,
  '2026-12-02-0002-cell-history': cellHistory,
  '2026-12-03-0001-search-page-stems': searchPageStems,
  '2026-12-03-0002-search-comments': searchComments,
  '2026-12-03-0003-user-email-typed': userEmailTyped,
  '2026-12-04-0001-search-page-days': searchPageDays,
  '2026-12-05-0001-formula-jobs': formulaJobs,
  '2026-12-05-0002-row-links': rowLinks,
  '2026-12-05-0003-webhooks': webhooks,
  '2026-12-05-0004-scoped-tokens': scopedTokens,
  '2026-12-05-0005-block-folds': blockFolds,
  '2026-12-06-0001-link-previews': linkPreviews,
  '2026-12-06-0002-reminders': reminders,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Brings the database up to the latest schema; throws if a migration fails. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
