import type { Kysely, Transaction } from 'kysely';
import { fieldOf, foreignRelations, type DatabaseConfig, type DatabaseField, type RowValue } from '../../../schema/blocks/database';
import { foldText, type DatabaseChoice, type WireRow } from '../../../schema/database';
import { ERROR_CODES } from '../../../schema/errors';
import { allows } from '../../../schema/policies/page';
import { inChunks } from '../../db/inChunks';
import { lockFor, lockPageRows } from '../../db/locks';
import { ROW_TEMPLATE, type BlockRow, type Database, type PageRow } from '../../db/types';
import { AppError, invalid } from '../../errors';
import { pageAccessLevels } from '../../policies/page';
import type { DomainEvent } from '../../events/events';
import { databaseData, findDatabaseBlock, findRowPages, rowsNaming, writeCellOver, type CellChange, type WrittenCell } from '../../repositories/databases';
import { findPage } from '../../repositories/pages';
import { authorizedDatabase, cellsWritten } from './database';
import { recomputeFormulas } from './formulas';
import { recomputeCellReaders } from './formulaJobs';
import { foreignOriginals } from './rollups';
import { relationsReadByRollups } from '../../../schema/formula/rollup';

/*
 * Relations to another database (docs/relations.md): the field names the database, a cell names
 * rows of it. What a caller is given of such a cell is what they may read: a row of the other
 * database they cannot read is named nowhere in an answer to them — no id, so no count either —
 * and cannot be picked. Relations within one database name rows everyone reading it may read, as
 * before.
 */

const unknown = (message: string, details?: Array<{ path: string; message: string }>) =>
  new AppError(422, ERROR_CODES.databaseRelationUnknown, message, details);

/**
 * A relation field's database: another database of the same workspace that the changer may read
 * (else 422 database.relation_unknown, the same whether it does not exist or may not be read).
 * Naming its own database is stored as naming none. Other fields pass as they are.
 */
export async function checkedRelationField(
  db: Kysely<Database>,
  userId: string,
  ownDatabaseId: string,
  field: DatabaseField,
  /** The field as it is now (a change): a pair it is in already stays as it is. */
  before?: DatabaseField,
): Promise<DatabaseField> {
  if (field.type !== 'relation') return field;
  if (field.twoWay && (field.databaseId === undefined || field.databaseId === ownDatabaseId))
    throw invalid('a two-way relation names another database', [{ path: 'field.twoWay', message: 'a two-way relation names another database' }]);
  if (field.twoWay && field.limit === 'one')
    throw invalid('a two-way relation holds any number of rows', [{ path: 'field.limit', message: 'a two-way relation holds any number of rows (for now)' }]);
  if (field.databaseId === undefined) return field;
  if (field.databaseId === ownDatabaseId) {
    const { databaseId: _own, ...rest } = field;
    return rest;
  }
  const own = await authorizedDatabase(db, userId, ownDatabaseId, 'edit');
  const target = await authorizedDatabase(db, userId, field.databaseId, 'read').catch(() => null);
  if (!target || target.holder.workspace_id !== own.holder.workspace_id || target.holder.in_trash === 1)
    throw unknown('no database of this workspace you can read', [{ path: 'field.databaseId', message: 'no database of this workspace you can read' }]);
  const paired = before?.type === 'relation' && before.databaseId === field.databaseId && before.twoWay?.fieldId === field.twoWay?.fieldId;
  if (field.twoWay && !paired) {
    // Made two-way: its mirror is a new field of the other database, made by this user (edit there: 403 otherwise).
    await authorizedDatabase(db, userId, field.databaseId, 'edit');
    if (fieldOf(target.data.config, field.twoWay.fieldId))
      throw invalid('the mirror is a new field of the other database', [{ path: 'field.twoWay.fieldId', message: 'that database has a field with this id' }]);
  }
  return field;
}

/** A relation cell about to be written: where it is in the request, and its row (absent: a new row). */
export interface RelationWrite {
  path: string;
  fieldId: string;
  value: RowValue;
  rowId?: string;
}

/** Ids of `ids` that are live rows of `databaseId` the user may read. */
async function readableRowsOf(db: Kysely<Database>, userId: string, databaseId: string, ids: readonly string[]): Promise<Set<string>> {
  const pages = (await findRowPages(db, databaseId, ids)).filter((page) => page.in_trash === 0);
  const levels = await pageAccessLevels(db, userId, pages);
  return new Set(pages.filter((page) => allows(levels.get(page.id) ?? 'none', 'read')).map((page) => page.id));
}

/**
 * The values to store for a write's cells (in its order): the rows it adds to relation cells of
 * another database must be live rows of it that the writer may read, else 422
 * database.relation_unknown at the paths naming others (nothing written). Rows the cell named
 * already stay named — one deleted since does not refuse the cell, and those the writer cannot
 * read (and so never saw) are kept: a cell written by someone who sees part of it keeps the rest.
 */
export async function relationValues(
  db: Kysely<Database>,
  userId: string,
  databaseId: string,
  config: DatabaseConfig,
  writes: readonly RelationWrite[],
): Promise<RowValue[]> {
  const foreign = foreignRelations(config, databaseId);
  const relevant = writes.filter((w) => foreign.has(w.fieldId) && (w.value === null || Array.isArray(w.value)));
  if (relevant.length === 0) return writes.map((w) => w.value);
  // What the cells hold now.
  const held = new Map<string, string[]>();
  const rowIds = [...new Set(relevant.flatMap((w) => (w.rowId ? [w.rowId] : [])))];
  for (const chunk of inChunks(rowIds)) {
    const cells = await db
      .selectFrom('database_cells')
      .select(['row_id', 'field_id', 'value'])
      .where('row_id', 'in', chunk)
      .where('field_id', 'in', [...new Set(relevant.map((w) => w.fieldId))])
      .execute();
    for (const cell of cells) {
      const value = JSON.parse(cell.value) as unknown;
      if (Array.isArray(value)) held.set(`${cell.row_id} ${cell.field_id}`, value as string[]);
    }
  }
  const heldBy = (w: RelationWrite) => held.get(`${w.rowId} ${w.fieldId}`) ?? [];
  const asked = (w: RelationWrite) => (Array.isArray(w.value) ? (w.value as string[]) : []);
  const byTarget = new Map<string, Set<string>>();
  for (const w of relevant) {
    const target = foreign.get(w.fieldId)!;
    byTarget.set(target, new Set([...(byTarget.get(target) ?? []), ...asked(w), ...heldBy(w)]));
  }
  const readable = new Map<string, Set<string>>();
  for (const [target, ids] of byTarget) readable.set(target, await readableRowsOf(db, userId, target, [...ids]));
  const canRead = (w: RelationWrite, id: string) => readable.get(foreign.get(w.fieldId)!)!.has(id);
  const refused = relevant.filter((w) => asked(w).some((id) => !heldBy(w).includes(id) && !canRead(w, id)));
  if (refused.length > 0)
    throw unknown(
      'a relation cell names only rows of its database that you can read',
      refused.map((w) => ({ path: w.path, message: 'names a row that is no row of the related database you can read' })),
    );
  return writes.map((w) => {
    if (!relevant.includes(w)) return w.value;
    const hidden = heldBy(w).filter((id) => !canRead(w, id) && !asked(w).includes(id));
    if (hidden.length === 0) return w.value;
    // One row at most, and that one unseen by the writer: it is not replaced by someone who cannot see it.
    if (config.fields[w.fieldId].type === 'relation' && (config.fields[w.fieldId] as { limit?: string }).limit === 'one' && asked(w).length > 0)
      throw unknown('the cell holds a row you cannot read', [{ path: w.path, message: 'holds a row of the related database you cannot read' }]);
    return [...asked(w), ...hidden];
  });
}

/**
 * Rows as `viewerId` may be given them: the relation cells naming another database keep only the
 * rows of it that the viewer may read (a published page's reader, `viewerId` null: none).
 */
export async function withReadableRelations(
  db: Kysely<Database>,
  viewerId: string | null,
  databaseId: string,
  config: DatabaseConfig,
  rows: WireRow[],
): Promise<WireRow[]> {
  const foreign = [...foreignRelations(config, databaseId).keys(), ...foreignOriginals(databaseId, config).keys()];
  if (foreign.length === 0 || rows.length === 0) return rows;
  const cells = rows.flatMap((row) => foreign.map((fieldId) => ({ rowId: row.id, fieldId, value: row.data.values[fieldId] ?? null })));
  const readable = new Map((await withReadableCells(db, viewerId, databaseId, config, cells)).map((cell) => [`${cell.rowId} ${cell.fieldId}`, cell.value]));
  return rows.map((row) => {
    let values = row.data.values;
    for (const fieldId of foreign) {
      const value = readable.get(`${row.id} ${fieldId}`);
      if (value === null && values[fieldId] !== undefined && values[fieldId] !== null) values = { ...values, [fieldId]: null };
      else if (Array.isArray(value) && value.length !== (values[fieldId] as unknown[]).length) values = { ...values, [fieldId]: value };
    }
    return values === row.data.values ? row : { ...row, data: { ...row.data, values } };
  });
}

/**
 * Rows as everyone in a database's channel may hear them: without the cells of relations to
 * another database (value and version: a view keeps what it has and reads the row for its own).
 */
export function forEveryone(config: DatabaseConfig, databaseId: string, rows: WireRow[]): WireRow[] {
  const foreign = new Map([...foreignRelations(config, databaseId), ...foreignOriginals(databaseId, config)]);
  if (foreign.size === 0) return rows;
  return rows.map((row) => {
    const values = { ...row.data.values };
    const versions = { ...row.versions };
    for (const fieldId of foreign.keys()) {
      delete values[fieldId];
      delete versions[fieldId];
    }
    return { ...row, data: { ...row.data, values }, versions };
  });
}

/** Cells (a write's answer, a conflict's copy, a history entry) as `viewerId` may be given them: of a relation to another database, the rows of it they may read (none for a published page's reader). */
export async function withReadableCells<C extends { rowId: string; fieldId: string; value: RowValue }>(
  db: Kysely<Database>,
  viewerId: string | null,
  databaseId: string,
  config: DatabaseConfig,
  cells: C[],
): Promise<C[]> {
  const originals = foreignOriginals(databaseId, config);
  const foreign = foreignRelations(config, databaseId);
  cells = await withReadableOriginals(db, viewerId, originals, cells);
  if (!cells.some((cell) => foreign.has(cell.fieldId) && Array.isArray(cell.value))) return cells;
  const readable = new Map<string, Set<string>>();
  for (const target of new Set(foreign.values())) {
    const ids = cells.flatMap((cell) => (foreign.get(cell.fieldId) === target && Array.isArray(cell.value) ? (cell.value as string[]) : []));
    readable.set(target, viewerId === null ? new Set() : await readableRowsOf(db, viewerId, target, ids));
  }
  return cells.map((cell) => {
    const target = foreign.get(cell.fieldId);
    if (target === undefined || !Array.isArray(cell.value)) return cell;
    return { ...cell, value: (cell.value as string[]).filter((id) => readable.get(target)!.has(id)) };
  });
}

/**
 * Cells of rollups showing originals of another database's rows as `viewerId` may be given them:
 * their values to readers of that database only, empty to others (docs/relations.md «Rollups»).
 */
async function withReadableOriginals<C extends { fieldId: string; value: RowValue }>(
  db: Kysely<Database>,
  viewerId: string | null,
  originals: ReadonlyMap<string, string>,
  cells: C[],
): Promise<C[]> {
  if (!cells.some((cell) => originals.has(cell.fieldId) && cell.value !== null)) return cells;
  const readable = new Map<string, boolean>();
  for (const target of new Set(originals.values()))
    readable.set(
      target,
      viewerId !== null &&
        (await authorizedDatabase(db, viewerId, target, 'read').then(
          () => true,
          () => false,
        )),
    );
  return cells.map((cell) => {
    const target = originals.get(cell.fieldId);
    return target === undefined || readable.get(target) ? cell : { ...cell, value: null };
  });
}

/** At most this many databases in the picker's answer (a search narrows it). */
export const DATABASE_CHOICES = 50;

/**
 * The databases of a workspace the user may read whose title holds `search` (folded, as search
 * does), by title: what a relation field can name. An inline database is titled by its own title,
 * else by its page's.
 */
export async function readableDatabases(db: Kysely<Database>, userId: string, workspaceId: string, search = ''): Promise<DatabaseChoice[]> {
  const found = await db
    .selectFrom('blocks as b')
    .innerJoin('pages as p', 'p.id', 'b.page_id')
    .select(['b.id', 'b.page_id', 'b.data'])
    .where('p.workspace_id', '=', workspaceId)
    .where('p.in_trash', '=', 0)
    .where('b.type', '=', 'database')
    .where('b.deleted_at', 'is', null)
    .execute();
  const holders = new Map<string, PageRow>();
  for (const chunk of inChunks([...new Set(found.map((b) => b.page_id))]))
    for (const page of await db.selectFrom('pages').selectAll().where('id', 'in', chunk).execute()) holders.set(page.id, page);
  const levels = await pageAccessLevels(db, userId, [...holders.values()]);
  const wanted = foldText(search.trim());
  return found
    .filter((b) => allows(levels.get(b.page_id) ?? 'none', 'read'))
    .map((b) => {
      const holder = holders.get(b.page_id)!;
      const own = databaseData(b).title?.trim();
      return { id: b.id, pageId: b.page_id, title: own || holder.title, icon: holder.icon };
    })
    .filter((choice) => wanted === '' || foldText(choice.title).includes(wanted))
    .sort((a, b) => a.title.localeCompare(b.title, 'ru'))
    .slice(0, DATABASE_CHOICES);
}

/** The other side of a two-way relation: its database, the page holding it, its fields, and the mirror field. */
export interface Mirror {
  block: BlockRow;
  holder: PageRow;
  config: DatabaseConfig;
  fieldId: string;
  field: Extract<DatabaseField, { type: 'relation' }>;
}

/**
 * The mirror of a two-way relation field of `databaseId`, when the pair holds: the other
 * database's field names this database and this field back (docs/relations.md «Two-way»). A pair
 * one side of which was deleted or changed since is no pair: nothing is kept in step then.
 */
export async function mirrorOf(db: Kysely<Database>, databaseId: string, fieldId: string, field: DatabaseField | undefined): Promise<Mirror | null> {
  if (field?.type !== 'relation' || !field.twoWay || !field.databaseId || field.databaseId === databaseId) return null;
  const block = await findDatabaseBlock(db, field.databaseId, true);
  const holder = block ? await findPage(db, block.page_id) : undefined;
  if (!block || !holder) return null;
  const config = databaseData(block).config;
  const mirror = fieldOf(config, field.twoWay.fieldId);
  if (mirror?.type !== 'relation' || mirror.databaseId !== databaseId || mirror.twoWay?.fieldId !== fieldId) return null;
  return { block, holder, config, fieldId: field.twoWay.fieldId, field: mirror };
}

const idsIn = (value: RowValue | undefined): string[] => (Array.isArray(value) ? (value as string[]) : []);

/**
 * The rows of other databases a write of two-way relation cells may change (those the cells name
 * now and will name): locked with the written rows in one order, so two people linking the same
 * rows from both sides at once wait for each other instead of deadlocking (PostgreSQL). Those a
 * relation read by a rollup names too: a change of one of them under way is waited for, and the
 * rollup reads it as it is then (docs/relations.md «Rollups»).
 */
export async function mirroredRowIds(db: Kysely<Database>, databaseId: string, config: DatabaseConfig, writes: readonly RelationWrite[]): Promise<string[]> {
  // Relations a rollup reads too: the rows they name are read by the write (a change of one of them at once waits, then is read as it is).
  const rolled = relationsReadByRollups(config);
  const twoWay = writes.filter((w) => {
    const field = fieldOf(config, w.fieldId);
    return (
      field?.type === 'relation' && (rolled.has(w.fieldId) || (field.twoWay !== undefined && field.databaseId !== undefined && field.databaseId !== databaseId))
    );
  });
  const ids = twoWay.flatMap((w) => idsIn(w.value));
  const rowIds = [...new Set(twoWay.flatMap((w) => (w.rowId ? [w.rowId] : [])))];
  for (const chunk of inChunks(rowIds))
    if (chunk.length > 0)
      for (const cell of await db
        .selectFrom('database_cells')
        .select('value')
        .where('row_id', 'in', chunk)
        .where('field_id', 'in', [...new Set(twoWay.map((w) => w.fieldId))])
        .execute())
        ids.push(...idsIn(JSON.parse(cell.value) as RowValue));
  return [...new Set(ids)];
}

/**
 * Taken first by a write of two-way relation cells (PostgreSQL): the databases on both sides, in one
 * order. Such a write bumps this database's revisions and then the other's; one from the other side
 * bumps them the other way round — two of them at once (linking different rows from both sides)
 * would each wait for the other's. With this lock they take turns.
 */
export async function lockTwoWay(trx: Transaction<Database>, databaseId: string, config: DatabaseConfig, fieldIds: Iterable<string>): Promise<void> {
  const ids = new Set<string>();
  for (const fieldId of fieldIds) {
    const field = fieldOf(config, fieldId);
    if (field?.type === 'relation' && field.twoWay && field.databaseId && field.databaseId !== databaseId) ids.add(databaseId).add(field.databaseId);
  }
  for (const id of [...ids].sort()) await lockFor(trx, 'twoWay', id);
}

/**
 * Two-way relations kept in step (docs/relations.md «Two-way»): after cells of `databaseId` were
 * written, each row of the other database that a cell names now has this row in its mirror cell,
 * and each that named it and is no longer named has it no more — written as cells (a version up,
 * the row's history, its formulas), told to the other database's views. Returns those events.
 */
export async function syncMirrors(
  trx: Transaction<Database>,
  userId: string,
  databaseId: string,
  config: DatabaseConfig,
  written: ReadonlyArray<{ rowId: string; fieldId: string; value: RowValue }>,
): Promise<DomainEvent[]> {
  const events: DomainEvent[] = [];
  // A row template names nobody in the other database's mirror (docs/api/databases.md «Row templates»).
  let templates: Set<string> | null = null;
  for (const fieldId of new Set(written.map((cell) => cell.fieldId))) {
    const mirror = await mirrorOf(trx, databaseId, fieldId, fieldOf(config, fieldId));
    if (!mirror) continue;
    templates ??= new Set(
      (
        await findRowPages(
          trx,
          databaseId,
          written.map((cell) => cell.rowId),
        )
      )
        .filter((page) => page.in_trash === ROW_TEMPLATE)
        .map((page) => page.id),
    );
    const cells = written.filter((cell) => cell.fieldId === fieldId && !templates!.has(cell.rowId));
    // The other side's cells to change: row → the rows of ours to add and take out.
    const plan = new Map<string, { add: Set<string>; drop: Set<string> }>();
    const planOf = (id: string) => plan.get(id) ?? plan.set(id, { add: new Set(), drop: new Set() }).get(id)!;
    const naming = await rowsNaming(
      trx,
      mirror.block.id,
      [mirror.fieldId],
      cells.map((cell) => cell.rowId),
    );
    for (const cell of cells) {
      const now = new Set(idsIn(cell.value));
      const before = new Set(naming.get(cell.rowId) ?? []);
      for (const id of now) if (!before.has(id)) planOf(id).add.add(cell.rowId);
      for (const id of before) if (!now.has(id)) planOf(id).drop.add(cell.rowId);
    }
    if (plan.size === 0) continue;
    const rows = new Map((await findRowPages(trx, mirror.block.id, [...plan.keys()])).map((row) => [row.id, row]));
    await lockPageRows(trx, [...rows.keys()]);
    const held = new Map<string, RowValue>();
    for (const chunk of inChunks([...rows.keys()]))
      for (const cell of await trx
        .selectFrom('database_cells')
        .select(['row_id', 'value'])
        .where('row_id', 'in', chunk)
        .where('field_id', '=', mirror.fieldId)
        .execute())
        held.set(cell.row_id, JSON.parse(cell.value) as RowValue);
    const changes: CellChange[] = [];
    const mirrored: WrittenCell[] = [];
    for (const [id, { add, drop }] of plan) {
      const row = rows.get(id);
      if (!row) continue;
      const before = idsIn(held.get(id));
      const after = [...before.filter((x) => !drop.has(x)), ...[...add].filter((x) => !before.includes(x))];
      if (after.length === before.length && after.every((x, i) => x === before[i])) continue;
      mirrored.push(await writeCellOver(trx, row, mirror.field, mirror.fieldId, after.length > 0 ? after : null, userId, changes));
    }
    mirrored.push(...(await recomputeFormulas(trx, mirror.block.id, mirror.config, [...new Set(mirrored.map((c) => c.rowId))], userId, changes)));
    if (mirrored.length > 0) events.push(...cellsWritten({ block: mirror.block, holder: mirror.holder }, rows, mirrored, changes, mirror.config));
    // Rollups reading the other side's rows changed here (their own ones were computed above).
    events.push(...(await recomputeCellReaders(trx, mirrored, userId)));
  }
  return events;
}

/**
 * A database block written whole (PATCH of the block, a new block) does not name another database
 * in a relation, nor change which one a relation names or its pair: that goes through
 * `database/{id}/fields`, where the database is checked and the cells follow (422 otherwise).
 */
export function assertRelationsKept(before: DatabaseConfig | null, after: DatabaseConfig): void {
  for (const [id, field] of Object.entries(after.fields)) {
    // A rollup likewise (checked against the other database and computed by the fields' calls).
    if (field.type === 'rollup') {
      const was = before ? fieldOf(before, id) : undefined;
      if (was?.type === 'rollup' && JSON.stringify({ ...was, name: field.name }) === JSON.stringify(field)) continue;
      throw invalid('a rollup is set through database/{id}/fields', [
        { path: `data.config.fields.${id}`, message: 'set a rollup through database/{id}/fields' },
      ]);
    }
    if (field.type !== 'relation') continue;
    const was = before ? fieldOf(before, id) : undefined;
    const same = was?.type === 'relation' && was.databaseId === field.databaseId && was.twoWay?.fieldId === field.twoWay?.fieldId;
    if (
      same ||
      (field.databaseId === undefined && field.twoWay === undefined && (was === undefined || was.type !== 'relation' || (!was.databaseId && !was.twoWay)))
    )
      continue;
    throw invalid('a relation to another database is set through database/{id}/fields', [
      { path: `data.config.fields.${id}`, message: 'set a relation to another database through database/{id}/fields' },
    ]);
  }
}
