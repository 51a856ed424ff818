import type { Kysely } from 'kysely';
import { fieldOf, type DatabaseField, type RowValue } from '../../../schema/blocks/database';
import { valueToText } from '../../../schema/database';
import { ERROR_CODES } from '../../../schema/errors';
import type { WireCellChange } from '../../../schema/history';
import type { Database } from '../../db/types';
import { AppError, notFound } from '../../errors';
import { findCellHistoryEntry, listCellHistory, storedValue, type CellHistoryRow } from '../../repositories/cellHistory';
import { findRowPages, readCell } from '../../repositories/databases';
import { writeCell, type CellOutcome } from './cells';
import { authorizedRow } from './database';
import { peopleNamesFor } from './people';
import { withReadableCells } from './relations';

/*
 * A row's property changes (issue 34 §2, docs/history.md «A row's property changes»): listed for
 * whoever may read the row, a change's earlier value brought back by whoever may edit it — as a
 * cell write like any other (versions, conflicts, realtime, and an entry of its own).
 */

/** Ids a value names (people, related rows). */
const idsOf = (value: RowValue): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** A row's changes, newest first (`limit`, older than `before`), of the fields there are now; `more` when older ones remain. */
export async function listRowHistory(
  db: Kysely<Database>,
  userId: string,
  rowId: string,
  { limit, before }: { limit: number; before?: number },
): Promise<{ entries: WireCellChange[]; more: boolean }> {
  const { row, block, data } = await authorizedRow(db, userId, rowId, 'read');
  const fields = Object.keys(data.config.fields);
  // A deleted field's entries are not listed: its name and options went with it.
  const rows = await listCellHistory(db, row.id, fields, limit + 1, before);
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  // Each change's values as this reader may be given them (a relation to another database: its rows they may read).
  const [olds, news] = await Promise.all(
    (['old_value', 'new_value'] as const).map((key) =>
      withReadableCells(
        db,
        userId,
        block.id,
        data.config,
        shown.map((r) => ({ rowId: r.row_id, fieldId: r.field_id, value: storedValue(r[key]) })),
      ),
    ),
  );
  const values = [...olds, ...news].map((cell) => ({ field: data.config.fields[cell.fieldId], value: cell.value }));
  const people = values.filter((v) => v.field.type === 'person').flatMap((v) => idsOf(v.value));
  const names = await peopleNamesFor(db, userId)([...people, ...shown.map((r) => r.user_id)]);
  // Related rows' titles, from the database each relation names.
  const titles = new Map<string, string>();
  for (const v of values) {
    if (v.field.type !== 'relation') continue;
    const ids = idsOf(v.value).filter((id) => !titles.has(id));
    if (ids.length > 0) for (const p of await findRowPages(db, v.field.databaseId ?? block.id, ids)) if (p.in_trash === 0) titles.set(p.id, p.title);
  }
  const text = (field: DatabaseField, value: RowValue) => valueToText(field, value, { userName: (id) => names.get(id), rowTitle: (id) => titles.get(id) });
  const entries = shown.map((r, i): WireCellChange => {
    const field = fieldOf(data.config, r.field_id)!;
    const from = olds[i].value;
    const to = news[i].value;
    return {
      id: Number(r.id),
      rowId: r.row_id,
      fieldId: r.field_id,
      field,
      fieldType: r.field_type,
      from,
      to,
      fromText: text(field, from),
      toText: text(field, to),
      author: { id: r.user_id, name: names.get(r.user_id)! },
      startedAt: r.started_at,
      at: r.at,
      restorable: r.field_type === field.type,
      restoredFrom: r.restored_from === null ? null : Number(r.restored_from),
    };
  });
  return { entries, more };
}

/** 409 database.history_field_changed: the entry's field was deleted or retyped since. */
const fieldChanged = (entry: CellHistoryRow) =>
  new AppError(409, ERROR_CODES.databaseHistoryFieldChanged, 'the field of this change was deleted or retyped since', undefined, {
    fieldId: entry.field_id,
  });

/**
 * Brings an entry's earlier value back into its cell (edit on the row; 404 an entry of another
 * row; 409 database.history_field_changed for a field deleted or retyped since; a value that no
 * longer fits the field, as an option removed since, is 422 like any cell write). Written over
 * the cell as it is now: a write made meanwhile is a conflict (422 database.cell_conflict).
 */
export async function restoreCellEntry(db: Kysely<Database>, userId: string, rowId: string, entryId: number): Promise<CellOutcome & { fieldId: string }> {
  const { row, data } = await authorizedRow(db, userId, rowId, 'edit');
  const entry = await findCellHistoryEntry(db, row.id, entryId);
  if (!entry) throw notFound('history entry');
  const field = fieldOf(data.config, entry.field_id);
  if (!field || field.type !== entry.field_type) throw fieldChanged(entry);
  const { version } = await readCell(db, row.id, entry.field_id);
  const outcome = await writeCell(db, userId, row.id, entry.field_id, { value: storedValue(entry.old_value), version }, Number(entry.id));
  return { ...outcome, fieldId: entry.field_id };
}
