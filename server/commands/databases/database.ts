import type { Kysely, Transaction } from 'kysely';
import {
  COMPUTED_FIELD_TYPES,
  foreignRelations,
  cellProblem,
  checkRowValues,
  fieldOf,
  type DatabaseData,
  type DatabaseField,
  type RowValue,
} from '../../../schema/blocks/database';
import { ERROR_CODES } from '../../../schema/errors';
import type { PageAction } from '../../../schema/policies/page';
import { lockBlocks } from '../../db/locks';
import type { BlockRow, Database, PageRow } from '../../db/types';
import { AppError, invalid, notFound } from '../../errors';
import { assertNotInTrash, authorizePage, writablePage } from '../../policies/page';
import { databaseData, findDatabaseBlock, findRowPage, type CellChange, type WrittenCell } from '../../repositories/databases';
import type { DomainEvent } from '../../events/events';
import { findPage } from '../../repositories/pages';
import { foreignOriginals } from './rollups';

/*
 * What the database commands share (docs/api/databases.md): the database or row a call names,
 * authorized on the page holding it (a row on its own page, which inherits and may have its own
 * grants), values checked against the fields, and the lock rows change under.
 */

/** A database block, the page holding it, and its data (fields and views). */
export interface AuthorizedDatabase {
  block: BlockRow;
  holder: PageRow;
  data: DatabaseData;
}

/** The live database block `id` and the page holding it, authorized there for the action (a change: not in the trash). */
export async function authorizedDatabase(db: Kysely<Database>, userId: string, id: string, action: PageAction): Promise<AuthorizedDatabase> {
  const block = await findDatabaseBlock(db, id);
  if (!block) throw notFound('database');
  const holder = await findPage(db, block.page_id);
  if (!holder) throw notFound('database');
  await authorizePage(db, userId, holder, action);
  if (action !== 'read') assertNotInTrash(holder);
  return { block, holder, data: databaseData(block) };
}

/** A row (its page), authorized on the row page itself; a change: neither it nor its database's page in the trash. */
export async function authorizedRow(db: Kysely<Database>, userId: string, id: string, action: PageAction): Promise<AuthorizedDatabase & { row: PageRow }> {
  const row = await findRowPage(db, id);
  if (!row) throw notFound('row');
  await authorizePage(db, userId, row, action);
  const block = await findDatabaseBlock(db, row.database_id!);
  const holder = block ? await findPage(db, block.page_id) : undefined;
  if (!block || !holder) throw notFound('row');
  if (action !== 'read') {
    assertNotInTrash(holder);
    assertNotInTrash(row);
  }
  return { row, block, holder, data: databaseData(block) };
}

/** Each row a change writes a cell of may be written by the caller: a row is a page with its own grants. */
export async function authorizeRowEdits(db: Kysely<Database>, userId: string, rows: Iterable<PageRow>): Promise<void> {
  for (const row of rows) {
    await authorizePage(db, userId, row, 'edit');
    assertNotInTrash(row);
  }
}

/** Values checked against the fields: computed fields refused, each value fitting its type (422 at `path`). */
export function checkValues(data: DatabaseData, values: Record<string, RowValue>, path = 'values'): void {
  const problems = checkRowValues(data.config, values).map((p) => ({ ...p, path: p.path.replace('data.values', path) }));
  if (problems.length > 0) throw invalid('the values do not fit the database fields', problems);
}

/** A cell's new value checked against its field: 404 no such field, 422 a computed one or a value that does not fit. */
export function checkedCell(config: DatabaseData['config'], fieldId: string, value: RowValue, path = 'value'): DatabaseField {
  const field = fieldOf(config, fieldId);
  if (!field) throw notFound('field');
  if (COMPUTED_FIELD_TYPES.has(field.type))
    throw new AppError(422, ERROR_CODES.databaseFieldComputed, 'this field is computed from the row and cannot be written');
  const problem = cellProblem(fieldId, field, value);
  if (problem) throw invalid('the value does not fit the field', [{ path, message: problem }]);
  return field;
}

/** The fields as they are now in the transaction (a retype or an option removed since the first check). */
export async function liveConfig(trx: Transaction<Database>, databaseId: string): Promise<DatabaseData['config']> {
  const live = await findDatabaseBlock(trx, databaseId, true);
  return live ? databaseData(live).config : { fields: {} };
}

/**
 * A change of a database's rows, in one transaction holding the holding page's block lock, with
 * the page read again there (404 gone, 409 in the trash): the rows' places and the fields they
 * are checked against do not move meanwhile (docs/adr/0003-concurrency.md).
 */
export function rowsChange<T>(db: Kysely<Database>, holder: PageRow, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lockBlocks(trx, holder.id);
    await writablePage(trx, holder.id);
    return work(trx);
  });
}

/** Cells written on rows of a database (their changes count also where a conflict wrote nothing: the caches hear of them). */
export function cellsWritten(
  { block, holder }: Pick<AuthorizedDatabase, 'block' | 'holder'>,
  rows: ReadonlyMap<string, PageRow>,
  written: readonly WrittenCell[],
  changes: readonly CellChange[],
  /** The database's fields as the caller read them (its relations to another database go out per reader). */
  config: DatabaseData['config'],
): DomainEvent[] {
  const perReader = new Set([...foreignRelations(config, block.id).keys(), ...foreignOriginals(block.id, config).keys()]);
  return [{ kind: 'cellsWritten', holderId: holder.id, databaseId: block.id, rows, written, changes, ...(perReader.size > 0 ? { perReader } : {}) }];
}
