import type { Kysely } from 'kysely';
import { MAIN_FIELD_ID, type RowValue } from '../../../schema/blocks/database';
import type { WriteCellBody, WriteCellsBody } from '../../../schema/database';
import { ERROR_CODES } from '../../../schema/errors';
import type { Database, PageRow } from '../../db/types';
import { lockPageRows } from '../../db/locks';
import { AppError, invalid } from '../../errors';
import { findRowPages, readCell, writeCellIfVersion, type CellChange, type WrittenCell } from '../../repositories/databases';
import type { DomainEvent } from '../../events/events';
import { recomputeFormulas } from './formulas';
import { recomputeCellReaders } from './formulaJobs';
import { assertPeopleNameable } from './people';
import { lockTwoWay, mirroredRowIds, relationValues, syncMirrors } from './relations';
import { readerRowIds } from './rollups';
import { authorizeRowEdits, authorizedDatabase, authorizedRow, cellsWritten, checkedCell, liveConfig, type AuthorizedDatabase } from './database';

/*
 * Cell writes (docs/api/databases.md «Cells»): each is written only if the cell is still at the
 * version its edit saw; a cell someone changed since is refused with the server's copy. The
 * changes made come back (`changes`) for the views' cached orders (ViewOrders) the handler keeps.
 */

/** A title written as null is stored as the empty title. */
const stored = (fieldId: string, value: RowValue): RowValue => (fieldId === MAIN_FIELD_ID && value === null ? '' : value);

/** 422 database.cell_conflict, carrying the cell as the server has it. */
export async function cellConflict(
  db: Kysely<Database>,
  rowId: string,
  fieldId: string,
  /** The cell as the caller may be given it (a relation to another database: the rows they may read). */
  readable: (cell: WrittenCell) => Promise<WrittenCell> = async (cell) => cell,
): Promise<AppError> {
  return new AppError(
    422,
    ERROR_CODES.databaseCellConflict,
    'the cell changed since this edit was made',
    undefined,
    await readable(await readCell(db, rowId, fieldId)),
  );
}

/** One cell written: the row, its database, the cell as written (null: it changed since `version`), the changes made and the events. */
export interface CellOutcome extends Pick<AuthorizedDatabase, 'block' | 'holder' | 'data'> {
  row: PageRow;
  written: WrittenCell | null;
  changes: CellChange[];
  events: DomainEvent[];
}

/** Writes one cell of a row if it is still at `version` (edit on the row; 404 no such field, 422 computed or not fitting). */
export async function writeCell(
  db: Kysely<Database>,
  userId: string,
  rowId: string,
  fieldId: string,
  { value: asked, version }: WriteCellBody,
  /** A restore of this entry of the row's history (docs/history.md «A row's property changes»). */
  restoredFrom?: number,
): Promise<CellOutcome> {
  const { row, block, holder, data } = await authorizedRow(db, userId, rowId, 'edit');
  checkedCell(data.config, fieldId, asked);
  await assertPeopleNameable(db, holder, data.config, [{ path: 'value', fieldId, value: asked }]);
  // A relation to another database: rows the writer may read only; those of it they cannot see stay.
  const [value] = await relationValues(db, userId, block.id, data.config, [{ path: 'value', fieldId, value: asked, rowId }]);
  // A two-way relation: the other database's rows it names now and will name change too, locked with this one.
  const mirrored = await mirroredRowIds(db, block.id, data.config, [{ path: 'value', fieldId, value, rowId }]);
  // Rows whose rollups read this one: locked with it, in one order (docs/relations.md «Rollups»).
  const naming = await readerRowIds(db, [row.id]);
  const changes: CellChange[] = [];
  const { written, computed, mirrors } = await db.transaction().execute(async (trx) => {
    await lockTwoWay(trx, block.id, data.config, [fieldId]);
    await lockPageRows(trx, [row.id, ...mirrored, ...naming]);
    // A retype or an option removed in between: the value is checked against the field as it is now (a person field's people too).
    const config = await liveConfig(trx, block.id);
    const field = checkedCell(config, fieldId, value);
    await assertPeopleNameable(trx, holder, config, [{ path: 'value', fieldId, value }]);
    const cell = await writeCellIfVersion(trx, row, field, fieldId, stored(fieldId, value), version, userId, changes, restoredFrom);
    // The row's formulas, computed again from what it holds now (docs/formulas.md).
    const computed = cell ? await recomputeFormulas(trx, block.id, config, [row.id], userId, changes) : [];
    const mirrors = cell ? await syncMirrors(trx, userId, block.id, config, [cell]) : [];
    // Rollups reading this row (docs/relations.md «Rollups»), here and in other databases.
    const readers = cell ? await recomputeCellReaders(trx, [cell, ...computed], userId) : [];
    return { written: cell, computed, mirrors: [...mirrors, ...readers] };
  });
  return {
    row,
    block,
    holder,
    data,
    written,
    changes,
    events: [...cellsWritten({ block, holder }, new Map([[row.id, row]]), written ? [written, ...computed] : [], changes, data.config), ...mirrors],
  };
}

/** Several cells written: those written, those refused (changed since their edit), the rows they are on, and the changes made. */
export interface CellsOutcome extends Pick<AuthorizedDatabase, 'block' | 'holder' | 'data'> {
  rows: Map<string, PageRow>;
  written: WrittenCell[];
  refused: Array<{ rowId: string; fieldId: string }>;
  changes: CellChange[];
  events: DomainEvent[];
}

/** Writes several cells of a database, each if it is still at the version its edit saw (edit on each row). */
export async function writeCells(db: Kysely<Database>, userId: string, databaseId: string, cells: WriteCellsBody['cells']): Promise<CellsOutcome> {
  const { block, holder, data } = await authorizedDatabase(db, userId, databaseId, 'edit');
  if (new Set(cells.map((c) => `${c.rowId} ${c.fieldId}`)).size !== cells.length) throw invalid('a cell is named twice');
  cells.forEach((c, i) => checkedCell(data.config, c.fieldId, c.value, `cells.${i}.value`));
  await assertPeopleNameable(
    db,
    holder,
    data.config,
    cells.map((c, i) => ({ path: `cells.${i}.value`, fieldId: c.fieldId, value: c.value })),
  );
  const rows = new Map(
    (
      await findRowPages(
        db,
        block.id,
        cells.map((c) => c.rowId),
      )
    ).map((row) => [row.id, row]),
  );
  const missing = cells.findIndex((c) => !rows.get(c.rowId));
  if (missing >= 0) throw invalid('not a row of this database', [{ path: `cells.${missing}.rowId`, message: 'not a row of this database' }]);
  // Each row is a page with its own grants (it inherits the database's, and may have more or fewer).
  await authorizeRowEdits(db, userId, rows.values());
  const values = await relationValues(
    db,
    userId,
    block.id,
    data.config,
    cells.map((c, i) => ({ path: `cells.${i}.value`, fieldId: c.fieldId, value: c.value, rowId: c.rowId })),
  );
  const mirrored = await mirroredRowIds(
    db,
    block.id,
    data.config,
    cells.map((c, i) => ({ path: `cells.${i}.value`, fieldId: c.fieldId, value: values[i], rowId: c.rowId })),
  );
  const readers = await readerRowIds(db, [...rows.keys()]);
  const changes: CellChange[] = [];
  const outcome = await db.transaction().execute(async (trx) => {
    await lockTwoWay(
      trx,
      block.id,
      data.config,
      cells.map((c) => c.fieldId),
    );
    await lockPageRows(trx, [...rows.keys(), ...mirrored, ...readers]);
    const config = await liveConfig(trx, block.id);
    await assertPeopleNameable(
      trx,
      holder,
      config,
      cells.map((c, i) => ({ path: `cells.${i}.value`, fieldId: c.fieldId, value: c.value })),
    );
    const written: WrittenCell[] = [];
    const refused: Array<{ rowId: string; fieldId: string }> = [];
    for (const [i, c] of cells.entries()) {
      const field = checkedCell(config, c.fieldId, values[i], `cells.${i}.value`);
      const cell = await writeCellIfVersion(trx, rows.get(c.rowId)!, field, c.fieldId, stored(c.fieldId, values[i]), c.version, userId, changes);
      if (cell) written.push(cell);
      else refused.push({ rowId: c.rowId, fieldId: c.fieldId });
    }
    // The rows' formulas, computed again (docs/formulas.md): their cells go out with the others.
    const changedRows = [...new Set(written.map((cell) => cell.rowId))];
    const mirrors = await syncMirrors(trx, userId, block.id, config, written);
    written.push(...(await recomputeFormulas(trx, block.id, config, changedRows, userId, changes)));
    mirrors.push(...(await recomputeCellReaders(trx, written, userId)));
    return { written, refused, mirrors };
  });
  const { mirrors, ...done } = outcome;
  return { block, holder, data, rows, ...done, changes, events: [...cellsWritten({ block, holder }, rows, done.written, changes, data.config), ...mirrors] };
}
