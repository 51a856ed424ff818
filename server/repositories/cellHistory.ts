import type { Kysely, Selectable, Transaction } from 'kysely';
import type { RowValue } from '../../schema/blocks/database';
import type { CellHistoryTable, Database } from '../db/types';

/*
 * A row's property changes (issue 34 §2, docs/history.md «A row's property changes»): each cell
 * write made by a person (a cell, a batch or a paste, a title, a card moved to a board's column)
 * is an entry — field, value before and after, who, when. A burst of one person's changes of one
 * cell is one entry (`setCellHistoryBurst`); a row keeps its newest `CELL_HISTORY_PER_ROW`.
 */

export type CellHistoryRow = Selectable<CellHistoryTable>;

/**
 * Changes of a cell by the same person this close to the entry's last one (and within
 * CELL_HISTORY_BURST_MAX_MS of its first) update that entry: HISTORY_CELL_BURST_MS, default
 * 60 s, set once as the server starts (`setCellHistoryBurst`).
 */
let burstMs = 60_000;
export const CELL_HISTORY_BURST_MAX_MS = 10 * 60_000;

/** The burst window (config `historyCellBurstMs`); 0: every change its own entry. */
export function setCellHistoryBurst(ms: number): void {
  burstMs = ms;
}
/** Entries a row keeps (its newest); older ones are forgotten as new ones come. */
export const CELL_HISTORY_PER_ROW = 500;

const json = (value: RowValue): string => JSON.stringify(value ?? null);

export interface RecordedChange {
  rowId: string;
  databaseId: string;
  fieldId: string;
  fieldType: string;
  from: RowValue;
  to: RowValue;
  userId: string;
  at: string;
  /** A restore of this entry: an entry of its own, never joining a burst. */
  restoredFrom?: number;
}

/**
 * Records a change of a cell, in the write's transaction: the cell's newest entry is updated when
 * it is the same person's, made within the burst window (its «from» stays, its «to» becomes this
 * value; an entry that ends where it began goes); otherwise a new entry — and the row's entries
 * beyond the cap go. A write that left the value as it was records nothing.
 */
export async function recordCellChange(trx: Transaction<Database>, change: RecordedChange): Promise<void> {
  const to = json(change.to);
  const from = json(change.from);
  const last = await trx
    .selectFrom('cell_history')
    .select(['id', 'user_id', 'field_type', 'old_value', 'started_at', 'at', 'restored_from'])
    .where('row_id', '=', change.rowId)
    .where('field_id', '=', change.fieldId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const now = Date.parse(change.at);
  const burst =
    change.restoredFrom === undefined &&
    last &&
    last.restored_from === null &&
    last.user_id === change.userId &&
    last.field_type === change.fieldType &&
    burstMs > 0 &&
    now - Date.parse(last.at) <= burstMs &&
    now - Date.parse(last.started_at) <= CELL_HISTORY_BURST_MAX_MS;
  if (burst) {
    // Back where the burst began: nothing changed after all.
    if (last.old_value === to) await trx.deleteFrom('cell_history').where('id', '=', last.id).execute();
    else await trx.updateTable('cell_history').set({ new_value: to, at: change.at }).where('id', '=', last.id).execute();
    return;
  }
  if (from === to && change.restoredFrom === undefined) return;
  await trx
    .insertInto('cell_history')
    .values({
      row_id: change.rowId,
      database_id: change.databaseId,
      field_id: change.fieldId,
      field_type: change.fieldType,
      old_value: from,
      new_value: to,
      user_id: change.userId,
      started_at: change.at,
      at: change.at,
      restored_from: change.restoredFrom ?? null,
    })
    .execute();
  // The row's entries beyond the cap (its oldest) go.
  const cutoff = await trx
    .selectFrom('cell_history')
    .select('id')
    .where('row_id', '=', change.rowId)
    .orderBy('id', 'desc')
    .offset(CELL_HISTORY_PER_ROW)
    .limit(1)
    .executeTakeFirst();
  if (cutoff) await trx.deleteFrom('cell_history').where('row_id', '=', change.rowId).where('id', '<=', cutoff.id).execute();
}

/** A row's entries of these fields, newest first: `limit` of them, older than entry `before` when given. */
export function listCellHistory(db: Kysely<Database>, rowId: string, fieldIds: readonly string[], limit: number, before?: number): Promise<CellHistoryRow[]> {
  if (fieldIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('cell_history')
    .selectAll()
    .where('row_id', '=', rowId)
    .where('field_id', 'in', fieldIds)
    .$if(before !== undefined, (q) => q.where('id', '<', before!))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** One entry of a row (undefined: none of this row). */
export function findCellHistoryEntry(db: Kysely<Database>, rowId: string, id: number): Promise<CellHistoryRow | undefined> {
  return db.selectFrom('cell_history').selectAll().where('row_id', '=', rowId).where('id', '=', id).executeTakeFirst();
}

/** Entries older than `days` (by their last change), and those of rows deleted for good, go; answers how many went. A slice at a time. */
export async function forgetOldCellHistory(db: Kysely<Database>, days: number, now = Date.now()): Promise<number> {
  const before = new Date(now - days * 86_400_000).toISOString();
  let forgotten = 0;
  for (;;) {
    const old = await db.selectFrom('cell_history').select('id').where('at', '<', before).limit(1000).execute();
    if (old.length === 0) break;
    const gone = await db
      .deleteFrom('cell_history')
      .where(
        'id',
        'in',
        old.map((r) => r.id),
      )
      .executeTakeFirst();
    forgotten += Number(gone.numDeletedRows);
  }
  const orphans = await db
    .selectFrom('cell_history')
    .select('row_id')
    .distinct()
    .where((eb) => eb.not(eb.exists(eb.selectFrom('pages').select('pages.id').whereRef('pages.id', '=', 'cell_history.row_id'))))
    .limit(200)
    .execute();
  for (const { row_id: rowId } of orphans) {
    const gone = await db.deleteFrom('cell_history').where('row_id', '=', rowId).executeTakeFirst();
    forgotten += Number(gone.numDeletedRows);
  }
  return forgotten;
}

/** A stored value read back. */
export const storedValue = (text: string): RowValue => JSON.parse(text) as RowValue;
