/* Toggle folds per person (docs/api/blocks.md «Toggle folds (per person)»): `block_folds`. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/types';

/** The ids of the page's toggles the user has open (rows with open = 1; no row is folded). */
export async function listOpenFolds(db: Kysely<Database>, userId: string, pageId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('block_folds')
    .select('block_id')
    .where('user_id', '=', userId)
    .where('page_id', '=', pageId)
    .where('open', '=', 1)
    .orderBy('block_id')
    .execute();
  return rows.map((row) => row.block_id);
}

/** Keeps whether the user has a toggle open: one row per user and block, made or replaced. */
export async function saveFold(db: Kysely<Database>, fold: { userId: string; pageId: string; blockId: string; open: boolean; at: string }): Promise<void> {
  const open = fold.open ? 1 : 0;
  await db
    .insertInto('block_folds')
    .values({ user_id: fold.userId, page_id: fold.pageId, block_id: fold.blockId, open, updated_at: fold.at })
    .onConflict((oc) => oc.columns(['user_id', 'block_id']).doUpdateSet({ page_id: fold.pageId, open, updated_at: fold.at }))
    .execute();
}
