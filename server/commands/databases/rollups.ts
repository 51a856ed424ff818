import type { Kysely, Transaction } from 'kysely';
import { fieldOf, type DatabaseConfig, type DatabaseField } from '../../../schema/blocks/database';
import { rowValue, type WireRow } from '../../../schema/database';
import { computedValueOfCell, formulaTypeOfField, formulaValueOfCell } from '../../../schema/formula/cells';
import { formulaPlanOf } from '../../../schema/formula/field';
import { relationsReadByRollups, relationTarget, rollupFieldsOf, rollupFits, rollupValue, type RollupField } from '../../../schema/formula/rollup';
export { foreignOriginals, relationTarget, rollupFieldsOf } from '../../../schema/formula/rollup';
import type { FormulaType, FormulaValue } from '../../../schema/formula/values';
import { inChunks } from '../../db/inChunks';
import { lockPageRows } from '../../db/locks';
import type { Database } from '../../db/types';
import type { DomainEvent } from '../../events/events';
import { AppError, invalid } from '../../errors';
import { ERROR_CODES } from '../../../schema/errors';
import { authorizedDatabase } from './database';
import { databaseData, findDatabaseBlock, findRowPages, presentRows, type CellChange } from '../../repositories/databases';
import { findPage } from '../../repositories/pages';

/*
 * Rollups (docs/relations.md «Rollups»): a field reading one field of the rows a relation names,
 * rolled up into one value per row (schema/formula/rollup.ts). Computed with the row's formulas
 * (formulas.ts `recomputeFormulas`, before them: a formula may read a rollup) and stored like a
 * formula's cell. Kept current through `row_links`, the relation cells indexed the other way:
 * a change of a row computes again the rollups of the rows naming it (`recomputeDependents`), a
 * change of a database's fields those of every database reading it (`recomputeReaders`).
 */

/**
 * The links of these rows rewritten from their relation cells as they are now (`rows`: read in
 * the transaction that changed them): what `recomputeDependents` finds the rows naming a row by.
 */
export async function relinkRows(trx: Kysely<Database>, databaseId: string, config: DatabaseConfig, rows: readonly WireRow[]): Promise<void> {
  const relations = Object.entries(config.fields).filter(([, field]) => field.type === 'relation');
  if (rows.length === 0) return;
  for (const chunk of inChunks(rows.map((row) => row.id))) await trx.deleteFrom('row_links').where('from_row', 'in', chunk).execute();
  if (relations.length === 0) return;
  const links = rows.flatMap((row) =>
    relations.flatMap(([fieldId, field]) => {
      const value = row.data.values[fieldId];
      if (!Array.isArray(value)) return [];
      const to = relationTarget(databaseId, field)!;
      return [...new Set(value as string[])].map((id) => ({ field_id: fieldId, from_row: row.id, to_row: id, database_id: databaseId, to_database_id: to }));
    }),
  );
  for (const chunk of inChunks(links, 100)) await trx.insertInto('row_links').values(chunk).execute();
}

/** A database's config as rollups read it (its rows' values), or null when it is gone. */
async function configOf(trx: Kysely<Database>, databaseId: string): Promise<DatabaseConfig | null> {
  const block = await findDatabaseBlock(trx, databaseId);
  return block ? databaseData(block).config : null;
}

/** A field's type as a rollup reads it: a formula's by its plan, any other as formulas see it. */
export function targetType(config: DatabaseConfig, fieldId: string): FormulaType | null {
  const field = fieldOf(config, fieldId);
  if (!field) return null;
  if (field.type === 'formula') return formulaPlanOf(config.fields).order.find((p) => p.fieldId === fieldId)?.formula.type ?? 'any';
  return formulaTypeOfField(field);
}

/** A related row's value of the rollup's field, as the calculation reads it (people by name; a formula's by the type it gives, `type`). */
function targetValue(config: DatabaseConfig, fieldId: string, type: FormulaType | null, row: WireRow, names: Map<string, string>): FormulaValue {
  const field = fieldOf(config, fieldId);
  if (!field) return null;
  const value = rowValue(row, fieldId, field);
  if (field.type === 'formula') return computedValueOfCell(type ?? 'any', value);
  return formulaValueOfCell(field, value, { personName: (id) => names.get(id) });
}

/**
 * The rollups of `rows` (their ids → field → value): the related rows (live, in their database)
 * read once for all the rows, per database they are in.
 */
export async function rollupValues(
  trx: Kysely<Database>,
  databaseId: string,
  config: DatabaseConfig,
  rows: readonly WireRow[],
  timeZone: string,
): Promise<Map<string, Map<string, FormulaValue>>> {
  const out = new Map<string, Map<string, FormulaValue>>();
  const rollups = rollupFieldsOf(config);
  if (rollups.length === 0 || rows.length === 0) return out;
  // The related rows, by the database they are in.
  const wanted = new Map<string, Set<string>>();
  for (const [, rollup] of rollups) {
    const target = relationTarget(databaseId, fieldOf(config, rollup.relationFieldId));
    if (!target) continue;
    const ids = wanted.get(target) ?? wanted.set(target, new Set()).get(target)!;
    for (const row of rows) {
      const value = row.data.values[rollup.relationFieldId];
      if (Array.isArray(value)) for (const id of value as string[]) ids.add(id);
    }
  }
  const related = new Map<string, { config: DatabaseConfig; rows: Map<string, WireRow>; names: Map<string, string> }>();
  for (const [target, ids] of wanted) {
    const targetConfig = target === databaseId ? config : await configOf(trx, target);
    if (!targetConfig) continue;
    const pages = (await findRowPages(trx, target, [...ids])).filter((page) => page.in_trash === 0);
    const fields = [...new Set(rollups.map(([, r]) => r.targetFieldId))];
    const read = await presentRows(trx, pages, fields);
    const people = new Set<string>();
    for (const row of read) {
      for (const fieldId of fields) {
        const field = fieldOf(targetConfig, fieldId);
        const value = field ? rowValue(row, fieldId, field) : null;
        if ((field?.type === 'person' || field?.type === 'createdBy' || field?.type === 'editedBy') && value !== null)
          for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'string') people.add(id);
      }
    }
    const names = new Map<string, string>();
    for (const chunk of inChunks([...people]))
      for (const user of await trx.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', chunk).execute())
        names.set(user.id, user.name || user.email);
    related.set(target, { config: targetConfig, rows: new Map(read.map((row) => [row.id, row])), names });
  }
  for (const row of rows) {
    const values = new Map<string, FormulaValue>();
    for (const [fieldId, rollup] of rollups) {
      const target = relationTarget(databaseId, fieldOf(config, rollup.relationFieldId));
      const side = target ? related.get(target) : undefined;
      const ids = row.data.values[rollup.relationFieldId];
      if (!side || !Array.isArray(ids) || !fieldOf(side.config, rollup.targetFieldId)) {
        values.set(fieldId, rollupValue(rollup.calculation, [], timeZone));
        continue;
      }
      const type = targetType(side.config, rollup.targetFieldId);
      const inputs = (ids as string[]).flatMap((id) => {
        const linked = side.rows.get(id);
        return linked ? [targetValue(side.config, rollup.targetFieldId, type, linked, side.names)] : [];
      });
      values.set(fieldId, rollupValue(rollup.calculation, inputs, timeZone));
    }
    out.set(row.id, values);
  }
  return out;
}

/**
 * A rollup field checked where it is added or changed (422 at `field.…`): its relation is a
 * relation of this database, its field one of the related database, its calculation one that
 * reads that field's type.
 */
export async function checkedRollupField(
  db: Kysely<Database>,
  userId: string,
  databaseId: string,
  config: DatabaseConfig,
  field: DatabaseField,
): Promise<void> {
  if (field.type !== 'rollup') return;
  const target = relationTarget(databaseId, fieldOf(config, field.relationFieldId));
  if (!target) throw invalid('a rollup reads a relation of this database', [{ path: 'field.relationFieldId', message: 'Сводка читает связь этой базы' }]);
  // Its figures go to every reader of this database: made only by one who may read the other (as its relation was).
  if (
    target !== databaseId &&
    !(await authorizedDatabase(db, userId, target, 'read').then(
      () => true,
      () => false,
    ))
  )
    throw new AppError(422, ERROR_CODES.databaseRelationUnknown, 'no database of this workspace you can read', [
      { path: 'field.relationFieldId', message: 'the related database is not one you can read' },
    ]);
  const targetConfig = target === databaseId ? config : await configOf(db, target);
  const type = targetConfig ? targetType(targetConfig, field.targetFieldId) : null;
  if (type === null) throw invalid('no such field in the related database', [{ path: 'field.targetFieldId', message: 'В связанной базе нет такого свойства' }]);
  if (!rollupFits(field.calculation, type))
    throw invalid('the calculation does not read this field', [{ path: 'field.calculation', message: `Этот расчёт не подходит свойству типа «${type}»` }]);
}

/** The rollups of this config reading a relation field (a relation read by one is not deleted or retyped). */
export function rollupsReading(config: DatabaseConfig, relationFieldId: string): string[] {
  return rollupFieldsOf(config)
    .filter(([, rollup]) => rollup.relationFieldId === relationFieldId)
    .map(([id]) => id);
}

/** What `recomputeDependents` is told of a database whose rows it computed: written by the caller's `cellsWritten`. */
export type Recompute = (
  trx: Transaction<Database>,
  databaseId: string,
  config: DatabaseConfig,
  rowIds: readonly string[],
  changes: CellChange[],
) => Promise<{ events: DomainEvent[]; changedRows: string[]; changedFields: string[] }>;

/** How deep a change goes through rollups reading rollups (A reads B reads C …): a circle stops here. */
const MAX_DEPTH = 4;

/**
 * After rows changed (cells, titles, trash): the rows of every database whose
 * rollups read them (`row_links`), locked in one order and computed again in this transaction —
 * so a second viewer hears the new figures with the change — and those rows' own readers after
 * them. `compute` is formulas.ts's (rollups and formulas of rows, their events).
 */
export async function recomputeDependents(
  trx: Transaction<Database>,
  rowIds: readonly string[],
  compute: Recompute,
  /** The fields that changed on those rows; absent: any (a title, the trash, a new row). A rollup reading none of them is left as it is. */
  fieldIds?: readonly string[],
  depth = 0,
): Promise<DomainEvent[]> {
  if (rowIds.length === 0 || depth >= MAX_DEPTH) return [];
  const changed = fieldIds === undefined ? null : new Set(fieldIds);
  const targets = new Map<string, DatabaseConfig | null>();
  /** Whether a rollup reads what changed: its field, or the row's «edited» (which every change moves). */
  const reads = async (readerId: string, readerConfig: DatabaseConfig, rollup: RollupField) => {
    if (changed === null || changed.has(rollup.targetFieldId)) return true;
    const target = relationTarget(readerId, fieldOf(readerConfig, rollup.relationFieldId));
    if (!target) return false;
    if (!targets.has(target)) targets.set(target, target === readerId ? readerConfig : await configOf(trx, target));
    const type = fieldOf(targets.get(target) ?? { fields: {} }, rollup.targetFieldId)?.type;
    return type === 'editedTime' || type === 'editedBy';
  };
  const naming = new Map<string, { fields: Set<string>; rows: Map<string, Set<string>> }>();
  for (const chunk of inChunks([...new Set(rowIds)])) {
    for (const link of await trx.selectFrom('row_links').select(['database_id', 'field_id', 'from_row']).where('to_row', 'in', chunk).execute()) {
      const entry = naming.get(link.database_id) ?? naming.set(link.database_id, { fields: new Set(), rows: new Map() }).get(link.database_id)!;
      entry.fields.add(link.field_id);
      (entry.rows.get(link.field_id) ?? entry.rows.set(link.field_id, new Set()).get(link.field_id)!).add(link.from_row);
    }
  }
  const events: DomainEvent[] = [];
  for (const [readerId, { rows }] of [...naming].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const readerConfig = await configOf(trx, readerId);
    if (!readerConfig) continue;
    const read = new Set<string>();
    for (const [, rollup] of rollupFieldsOf(readerConfig)) if (await reads(readerId, readerConfig, rollup)) read.add(rollup.relationFieldId);
    const ids = [...new Set([...rows].flatMap(([fieldId, from]) => (read.has(fieldId) ? [...from] : [])))];
    if (ids.length === 0) continue;
    await lockPageRows(trx, ids);
    const done = await compute(trx, readerId, readerConfig, ids, []);
    events.push(...done.events);
    events.push(...(await recomputeDependents(trx, done.changedRows, compute, done.changedFields, depth + 1)));
  }
  return events;
}

/** The databases whose rollups read `databaseId` (a change of its fields computes theirs again). */
export async function databasesReading(db: Kysely<Database>, databaseId: string): Promise<string[]> {
  const found = await db.selectFrom('row_links').select('database_id').distinct().where('to_database_id', '=', databaseId).execute();
  const out: string[] = [];
  for (const { database_id: id } of found) {
    if (id === databaseId) continue;
    const config = await configOf(db, id);
    if (config && rollupFieldsOf(config).some(([, rollup]) => relationTarget(id, fieldOf(config, rollup.relationFieldId)) === databaseId)) out.push(id);
  }
  return out;
}

/** The page holding a database (its channel hears the events of its rows). */
export async function holderOf(db: Kysely<Database>, databaseId: string) {
  const block = await findDatabaseBlock(db, databaseId);
  const holder = block ? await findPage(db, block.page_id) : undefined;
  return block && holder ? { block, holder } : null;
}

/** Past this many rows naming a write's rows, they are not locked with it (their database computes in the background: formulaJobs.ts READERS_INLINE). */
const LOCKED_READERS = 1_000;

/**
 * The rows whose rollups read `rowIds` (rows naming them through a relation a rollup reads), to
 * be locked with the written rows in one sorted lock before the write (PostgreSQL): two writes on
 * both sides of rollups reading each other then wait for each other in one order instead of each
 * holding its rows and waiting for the other's. Read before the write's transaction: a link made
 * since is found by `recomputeDependents` inside it (and its rows locked then).
 */
export async function readerRowIds(db: Kysely<Database>, rowIds: readonly string[]): Promise<string[]> {
  const read = new Map<string, Set<string>>();
  const found = new Set<string>();
  // Their readers' readers too, as deep as `recomputeDependents` goes: all of them locked at once.
  let next = [...new Set(rowIds)];
  for (let depth = 0; depth < MAX_DEPTH && next.length > 0; depth++) {
    const links: Array<{ database_id: string; field_id: string; from_row: string }> = [];
    for (const chunk of inChunks(next))
      links.push(...(await db.selectFrom('row_links').select(['database_id', 'field_id', 'from_row']).where('to_row', 'in', chunk).execute()));
    for (const databaseId of new Set(links.map((link) => link.database_id)))
      if (!read.has(databaseId)) {
        const config = await configOf(db, databaseId);
        read.set(databaseId, config ? relationsReadByRollups(config) : new Set<string>());
      }
    next = [];
    for (const link of links)
      if (read.get(link.database_id)!.has(link.field_id) && !found.has(link.from_row)) {
        found.add(link.from_row);
        next.push(link.from_row);
      }
    if (found.size > LOCKED_READERS) return [];
  }
  return [...found];
}
