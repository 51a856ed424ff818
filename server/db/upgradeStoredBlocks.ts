import type { Kysely } from 'kysely';
import type { BlockDefinition } from '../../schema/blocks';

/** Rows read and written at a time. */
const BATCH = 500;

/**
 * For the migration that ships a block type's upgrade step (schema/blocks/versions.ts,
 * docs/api/blocks.md «Data versions»): runs step `step` (the type's data from version `step` to
 * `step + 1`) over what is stored of the type — every block of it, deleted ones too, and every
 * state of one the page history keeps (a block's type may have been another since). A migration
 * names its one step by number, so a database far behind runs each step once, in order, and the
 * data the app reads is always at the current version. Answers how many rows it changed.
 */
export async function upgradeStoredBlocks(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration reads tables as they were when it shipped
  db: Kysely<any>,
  definition: Pick<BlockDefinition, 'wireType' | 'upgrades'>,
  step: number,
): Promise<number> {
  const upgrade = definition.upgrades?.[step - 1];
  if (!upgrade) throw new Error(`${definition.wireType} has no upgrade step ${step}`);
  // All or nothing (SQLite's migrations run outside a transaction): a run cut short and run again
  // must not take some rows up twice.
  if (!db.isTransaction) return db.transaction().execute((trx) => upgradeStoredBlocks(trx, definition, step));
  let changed = 0;

  for (let after = ''; ;) {
    const blocks = (await db
      .selectFrom('blocks')
      .select(['id', 'data'])
      .where('type', '=', definition.wireType)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute()) as Array<{ id: string; data: string }>;
    if (blocks.length === 0) break;
    for (const block of blocks) {
      await db
        .updateTable('blocks')
        .set({ data: JSON.stringify(upgrade.up(JSON.parse(block.data) as Record<string, unknown>)) })
        .where('id', '=', block.id)
        .execute();
    }
    changed += blocks.length;
    after = blocks[blocks.length - 1].id;
  }

  // History states: { type, data, parentId, sortKey }, read in the table's key order.
  let last: [string, string, number] | null = null;
  for (;;) {
    let query = db.selectFrom('page_version_blocks').select(['page_id', 'block_id', 'version_id', 'state']);
    if (last) {
      const [pageId, blockId, versionId] = last;
      query = query.where((eb) => eb(eb.refTuple('page_id', 'block_id', 'version_id'), '>', eb.tuple(pageId, blockId, versionId)));
    }
    const states = (await query.orderBy('page_id').orderBy('block_id').orderBy('version_id').limit(BATCH).execute()) as Array<{
      page_id: string;
      block_id: string;
      version_id: number;
      state: string | null;
    }>;
    if (states.length === 0) break;
    for (const row of states) {
      const state = row.state === null ? null : (JSON.parse(row.state) as { type?: unknown; data?: Record<string, unknown> });
      if (!state || state.type !== definition.wireType || !state.data) continue;
      await db
        .updateTable('page_version_blocks')
        .set({ state: JSON.stringify({ ...state, data: upgrade.up(state.data) }) })
        .where('page_id', '=', row.page_id)
        .where('block_id', '=', row.block_id)
        .where('version_id', '=', row.version_id)
        .execute();
      changed += 1;
    }
    const end = states[states.length - 1];
    last = [end.page_id, end.block_id, end.version_id];
  }
  return changed;
}
