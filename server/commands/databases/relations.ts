import type { Kysely } from 'kysely';
import { fieldOf, foreignRelations, type DatabaseConfig, type DatabaseField, type RowValue } from '../../../schema/blocks/database';
import { foldText, type DatabaseChoice, type WireRow } from '../../../schema/database';
import { ERROR_CODES } from '../../../schema/errors';
import { allows } from '../../../schema/policies/page';
import { inChunks } from '../../db/inChunks';
import type { Database, PageRow } from '../../db/types';
import { AppError } from '../../errors';
import { pageAccessLevels } from '../../policies/page';
import { databaseData, findRowPages } from '../../repositories/databases';
import { authorizedDatabase } from './database';

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
export async function checkedRelationField(db: Kysely<Database>, userId: string, ownDatabaseId: string, field: DatabaseField): Promise<DatabaseField> {
  if (field.type !== 'relation' || field.databaseId === undefined) return field;
  if (field.databaseId === ownDatabaseId) {
    const { databaseId: _own, ...rest } = field;
    return rest;
  }
  const own = await authorizedDatabase(db, userId, ownDatabaseId, 'edit');
  const target = await authorizedDatabase(db, userId, field.databaseId, 'read').catch(() => null);
  if (!target || target.holder.workspace_id !== own.holder.workspace_id || target.holder.in_trash === 1)
    throw unknown('no database of this workspace you can read', [{ path: 'field.databaseId', message: 'no database of this workspace you can read' }]);
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
  const foreign = [...foreignRelations(config, databaseId).keys()];
  if (foreign.length === 0 || rows.length === 0) return rows;
  const cells = rows.flatMap((row) => foreign.map((fieldId) => ({ rowId: row.id, fieldId, value: row.data.values[fieldId] ?? null })));
  const readable = new Map((await withReadableCells(db, viewerId, databaseId, config, cells)).map((cell) => [`${cell.rowId} ${cell.fieldId}`, cell.value]));
  return rows.map((row) => {
    let values = row.data.values;
    for (const fieldId of foreign) {
      const value = readable.get(`${row.id} ${fieldId}`);
      if (Array.isArray(value) && value.length !== (values[fieldId] as unknown[]).length) values = { ...values, [fieldId]: value };
    }
    return values === row.data.values ? row : { ...row, data: { ...row.data, values } };
  });
}

/** Whether a field is a relation to another database than `databaseId` (its cells go out per reader). */
export function isForeignRelation(config: DatabaseConfig, databaseId: string, fieldId: string): boolean {
  const field = fieldOf(config, fieldId);
  return field?.type === 'relation' && field.databaseId !== undefined && field.databaseId !== databaseId;
}

/**
 * Rows as everyone in a database's channel may hear them: without the cells of relations to
 * another database (value and version: a view keeps what it has and reads the row for its own).
 */
export function forEveryone(config: DatabaseConfig, databaseId: string, rows: WireRow[]): WireRow[] {
  const foreign = foreignRelations(config, databaseId);
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
  const foreign = foreignRelations(config, databaseId);
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
