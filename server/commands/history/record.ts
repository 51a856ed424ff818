import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { lockBlocks } from '../../db/locks';
import { recordVersion } from '../../history/versions';
import { authorizePage } from '../../policies/page';
import { loadPage } from '../../repositories/pages';

/**
 * Records the page as it is now if it changed since its last version (`POST element/{id}/versions`:
 * the history panel opens on today's page; readers). Under the page's block lock, as the
 * historian and a restore record; `whileLocked` is called there (the announcements' turn).
 * Answers the new version's id, or null when nothing changed.
 */
export async function recordPageNow(db: Kysely<Database>, userId: string, pageId: string, whileLocked: () => void = () => undefined): Promise<number | null> {
  const page = await loadPage(db, pageId);
  await authorizePage(db, userId, page, 'read');
  return db.transaction().execute(async (trx) => {
    await lockBlocks(trx, page.id);
    whileLocked();
    return recordVersion(trx, page.id, { kind: 'edit' });
  });
}
