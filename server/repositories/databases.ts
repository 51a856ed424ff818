import { generateNKeysBetween } from 'fractional-indexing';
import { sql, type Kysely, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import {
  MAIN_FIELD_ID,
  fieldOf,
  hasOptions,
  type Calculation,
  type DatabaseConfig,
  type DatabaseData,
  type DatabaseField,
  type FilterGroup,
  type FilterRule,
  type RowValue,
  type ViewSort,
} from '../../schema/blocks/database';
import { cellIndex, dateStartMs, listKeyIds, foldText, parseNumber, type NewRow, type WireRow } from '../../schema/database';
import { newId } from '../../schema/ids';
import { isPostgres } from '../db/connect';
import type { BlockRow, CellRow, Database, PageRow } from '../db/types';
import { nowIso } from '../time';
import { bumpRevisions, ROWS_REVISION } from './databaseRevisions';
import { FRESH_PAGE_STATE, childPath } from './pages';
import { inChunks } from '../db/inChunks';
import { remapBlockData } from './clonePages';

/**
 * Rows and cells of data tables (docs/api/databases.md, ADR 7). A row is a page whose
 * `database_id` is its database block; a cell is a `database_cells` record with its own version.
 * Queries only: the routes authorize, and run writes that must not interleave in transactions.
 */

export function databaseData(block: Pick<BlockRow, 'data'>): DatabaseData {
  return JSON.parse(block.data) as DatabaseData;
}

/**
 * A live database block. `share`: on PostgreSQL hold it (FOR SHARE) until the transaction ends,
 * so a field change (which updates the block) waits for a cell write checked against the fields,
 * and a cell write started during a field change reads the fields it left.
 */
export function findDatabaseBlock(db: Kysely<Database>, id: string, share = false): Promise<BlockRow | undefined> {
  const query = db.selectFrom('blocks').selectAll().where('id', '=', id).where('type', '=', 'database').where('deleted_at', 'is', null);
  return (share && isPostgres(db) ? query.forShare() : query).executeTakeFirst();
}

/** A row's page (trash included); undefined when the id is no row. */
export function findRowPage(db: Kysely<Database>, id: string): Promise<PageRow | undefined> {
  return db.selectFrom('pages').selectAll().where('id', '=', id).where('database_id', 'is not', null).executeTakeFirst();
}

/** The rows' pages of a database among `ids` (others are left out). */
export async function findRowPages(db: Kysely<Database>, databaseId: string, ids: readonly string[]): Promise<PageRow[]> {
  const found: PageRow[] = [];
  for (const chunk of inChunks([...new Set(ids)])) {
    // By primary key, the database checked here: with `database_id = ?` in the query SQLite walks
    // the database's index (every row of it) instead of looking the ids up.
    const pages = await db.selectFrom('pages').selectAll().where('id', 'in', chunk).execute();
    found.push(...pages.filter((p) => p.database_id === databaseId));
  }
  return found;
}

/** The live rows of a database. */
export async function countRows(db: Kysely<Database>, databaseId: string): Promise<number> {
  const row = await db
    .selectFrom('pages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('database_id', '=', databaseId)
    .where('in_trash', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function parseValue(cell: Pick<CellRow, 'value'>): RowValue {
  return JSON.parse(cell.value) as RowValue;
}

/**
 * Rows as the wire shows them, in the order of `pages`; `fields`: only those fields' cells (the
 * title always). The title is its cell's value where the row has one (else the page's): the
 * cells are read after the pages, and a title written in between must not show its new version
 * with the page's older title — a copy holding that pair keeps it (same version) for good.
 */
export async function presentRows(db: Kysely<Database>, pages: readonly PageRow[], fields?: readonly string[]): Promise<WireRow[]> {
  const cells = new Map<string, CellRow[]>();
  for (const chunk of inChunks(pages.map((p) => p.id))) {
    let query = db.selectFrom('database_cells').selectAll().where('row_id', 'in', chunk);
    if (fields) query = query.where('field_id', 'in', [MAIN_FIELD_ID, ...fields]);
    const rows = await query.execute();
    for (const cell of rows) {
      const list = cells.get(cell.row_id);
      if (list) list.push(cell);
      else cells.set(cell.row_id, [cell]);
    }
  }
  return pages.map((page) => {
    const values: Record<string, RowValue> = {};
    const versions: Record<string, number> = {};
    let title = page.title;
    for (const cell of cells.get(page.id) ?? []) {
      versions[cell.field_id] = cell.version;
      const value = parseValue(cell);
      if (cell.field_id === MAIN_FIELD_ID) title = typeof value === 'string' ? value : '';
      else if (value !== null) values[cell.field_id] = value;
    }
    return {
      id: page.id,
      contentType: 'Row',
      databaseId: page.database_id!,
      pageId: page.parent_id!,
      sortKey: page.sort_key,
      data: { title, icon: page.icon, values },
      versions,
      inTrash: page.in_trash === 1,
      createdAt: page.created_at,
      createdBy: page.created_by,
      updatedAt: page.updated_at,
      updatedBy: page.updated_by,
    } satisfies WireRow;
  });
}

/** Rows by id, in the order of `ids` (missing ones left out); `fields`: only those fields' cells. */
export async function readRows(db: Kysely<Database>, databaseId: string, ids: readonly string[], fields?: readonly string[]): Promise<WireRow[]> {
  const pages = new Map((await findRowPages(db, databaseId, ids)).map((p) => [p.id, p]));
  return presentRows(
    db,
    ids.map((id) => pages.get(id)).filter((p): p is PageRow => p !== undefined),
    fields,
  );
}

// ————— Order —————

/**
 * `count` sort keys after the row `afterId` (null: first; undefined: at the end), before the next
 * row (live or trashed, so a restore never lands on a taken key). Rows in `moving` are passed over.
 */
export async function rowKeysAfter(
  db: Kysely<Database>,
  databaseId: string,
  afterId: string | null | undefined,
  count: number,
  moving: readonly string[] = [],
): Promise<string[]> {
  const others = () => {
    let query = db.selectFrom('pages').select('sort_key').where('database_id', '=', databaseId);
    if (moving.length > 0) query = query.where('id', 'not in', moving);
    return query;
  };
  if (afterId === undefined) {
    const last = await others().orderBy('sort_key', 'desc').limit(1).executeTakeFirst();
    return generateNKeysBetween(last?.sort_key ?? null, null, count);
  }
  let low: string | null = null;
  if (afterId !== null) {
    const after = await db.selectFrom('pages').select('sort_key').where('id', '=', afterId).where('database_id', '=', databaseId).executeTakeFirst();
    if (!after) return rowKeysAfter(db, databaseId, undefined, count, moving);
    low = after.sort_key;
  }
  let next = others();
  if (low !== null) next = next.where('sort_key', '>', low);
  const following = await next.orderBy('sort_key').limit(1).executeTakeFirst();
  return generateNKeysBetween(low, following?.sort_key ?? null, count);
}

/** `count` sort keys in a row just before `beforeId` (the rows `moving` left out of the count of what is there). */
export async function rowKeysBefore(
  db: Kysely<Database>,
  databaseId: string,
  beforeId: string,
  count: number,
  moving: readonly string[] = [],
): Promise<string[]> {
  const before = await db.selectFrom('pages').select('sort_key').where('id', '=', beforeId).where('database_id', '=', databaseId).executeTakeFirstOrThrow();
  let previous = db.selectFrom('pages').select('sort_key').where('database_id', '=', databaseId).where('sort_key', '<', before.sort_key);
  if (moving.length > 0) previous = previous.where('id', 'not in', moving);
  const low = await previous.orderBy('sort_key', 'desc').limit(1).executeTakeFirst();
  return generateNKeysBetween(low?.sort_key ?? null, before.sort_key, count);
}

// ————— Writes —————

export interface InsertRowsInput {
  database: BlockRow;
  /** The page holding the database (the rows' parent). */
  holder: PageRow;
  rows: ReadonlyArray<NewRow & { id: string }>;
  sortKeys: readonly string[];
  userId: string;
}

/** Row pages and their cells; values must have been checked against the fields. */
export async function insertRows(trx: Transaction<Database>, input: InsertRowsInput): Promise<PageRow[]> {
  const now = nowIso();
  const config = databaseData(input.database).config;
  const path = JSON.stringify(childPath(input.holder));
  const pages: PageRow[] = input.rows.map((row, at) => ({
    id: row.id,
    workspace_id: input.holder.workspace_id,
    parent_id: input.holder.id,
    section: null,
    path,
    type: 'Note',
    title: row.title ?? '',
    icon: row.icon ?? null,
    cover: null,
    is_public: 0,
    in_trash: 0,
    default_layout_id: null,
    sort_key: input.sortKeys[at],
    created_by: input.userId,
    created_at: now,
    updated_at: now,
    ...FRESH_PAGE_STATE,
    database_id: input.database.id,
    updated_by: input.userId,
  }));
  for (const chunk of inChunks(pages, 200)) await trx.insertInto('pages').values(chunk).execute();
  const cells: CellRow[] = [];
  for (const row of input.rows) {
    const entries: Array<[string, RowValue]> = Object.entries(row.values ?? {});
    if (row.title) entries.push([MAIN_FIELD_ID, row.title]);
    for (const [fieldId, value] of entries) {
      const field = fieldOf(config, fieldId);
      if (!field || value === null) continue;
      cells.push(newCell(row.id, input.database.id, fieldId, field, value, 1, now, input.userId));
    }
  }
  for (const chunk of inChunks(cells, 100)) await trx.insertInto('database_cells').values(chunk).execute();
  await bumpRevisions(trx, input.database.id, [ROWS_REVISION]);
  return pages;
}

function newCell(
  rowId: string,
  databaseId: string,
  fieldId: string,
  field: DatabaseField,
  value: RowValue,
  version: number,
  at: string,
  userId: string,
): CellRow {
  const { num, txt, end = null } = cellIndex(field, value);
  return {
    row_id: rowId,
    field_id: fieldId,
    database_id: databaseId,
    value: JSON.stringify(value),
    num,
    txt,
    num_end: end,
    version,
    updated_at: at,
    updated_by: userId,
  };
}

export interface WrittenCell {
  rowId: string;
  fieldId: string;
  value: RowValue;
  version: number;
  updatedAt: string;
  updatedBy: string;
}

/** The cell as stored (version 0, null when never written). */
export async function readCell(db: Kysely<Database>, rowId: string, fieldId: string): Promise<WrittenCell> {
  const cell = await db.selectFrom('database_cells').selectAll().where('row_id', '=', rowId).where('field_id', '=', fieldId).executeTakeFirst();
  if (!cell) return { rowId, fieldId, value: null, version: 0, updatedAt: '', updatedBy: '' };
  return { rowId, fieldId, value: parseValue(cell), version: cell.version, updatedAt: cell.updated_at, updatedBy: cell.updated_by };
}

/**
 * Writes one cell if it is still at `version` (0: never written): the new version is one more.
 * Null when it moved on (a conflict). A title (MAIN_FIELD) is written to the row's page too.
 * Run in a transaction: the page's updated_at/by and the title go with the cell. `changes`: see CellChange.
 */
export async function writeCellIfVersion(
  trx: Transaction<Database>,
  row: PageRow,
  field: DatabaseField,
  fieldId: string,
  value: RowValue,
  version: number,
  userId: string,
  changes?: CellChange[],
): Promise<WrittenCell | null> {
  const at = nowIso();
  const cell = newCell(row.id, row.database_id!, fieldId, field, value, version + 1, at, userId);
  if (version === 0) {
    const inserted = await trx
      .insertInto('database_cells')
      .values(cell)
      .onConflict((oc) => oc.columns(['row_id', 'field_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return null;
  } else {
    const updated = await trx
      .updateTable('database_cells')
      .set({ value: cell.value, num: cell.num, txt: cell.txt, num_end: cell.num_end, version: cell.version, updated_at: at, updated_by: userId })
      .where('row_id', '=', row.id)
      .where('field_id', '=', fieldId)
      .where('version', '=', version)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return null;
  }
  return cellWritten(trx, row, fieldId, value, cell.version, at, userId, changes);
}

/**
 * Which row a cell write changed, at which revision of its field (`bumpRevisions`): told to
 * `ViewOrders.cellsChanged` once the write's transaction is committed, so that a chart kept in
 * this process reads that row again instead of every row.
 */
export interface CellChange {
  fieldId: string;
  rev: number;
  rowId: string;
}

/** The rest of a cell write: its field's revision (told to `changes`), the row page's «edited» (and title). */
async function cellWritten(
  trx: Transaction<Database>,
  row: PageRow,
  fieldId: string,
  value: RowValue,
  version: number,
  at: string,
  userId: string,
  changes?: CellChange[],
): Promise<WrittenCell> {
  const revs = await bumpRevisions(trx, row.database_id!, [fieldId]);
  changes?.push({ fieldId, rev: revs.get(fieldId)!, rowId: row.id });
  const pageFields =
    fieldId === MAIN_FIELD_ID ? { title: typeof value === 'string' ? value : '', updated_at: at, updated_by: userId } : { updated_at: at, updated_by: userId };
  await trx.updateTable('pages').set(pageFields).where('id', '=', row.id).execute();
  return { rowId: row.id, fieldId, value, version, updatedAt: at, updatedBy: userId };
}

/**
 * Writes a cell whatever its version, to the version after the one stored (version + 1 in the
 * same statement: two of these at once make two versions): a row page's title changed through the
 * page (PATCH element), a card moved to a board's column. The value must fit the field.
 */
export async function writeCellOver(
  trx: Transaction<Database>,
  row: PageRow,
  field: DatabaseField,
  fieldId: string,
  value: RowValue,
  userId: string,
  changes?: CellChange[],
): Promise<WrittenCell> {
  const at = nowIso();
  const cell = newCell(row.id, row.database_id!, fieldId, field, value, 1, at, userId);
  const { version } = await trx
    .insertInto('database_cells')
    .values(cell)
    .onConflict((oc) =>
      oc.columns(['row_id', 'field_id']).doUpdateSet((eb) => ({
        value: cell.value,
        txt: cell.txt,
        num: cell.num,
        num_end: cell.num_end,
        version: eb('database_cells.version', '+', 1),
        updated_at: at,
        updated_by: userId,
      })),
    )
    .returning('version')
    .executeTakeFirstOrThrow();
  return cellWritten(trx, row, fieldId, value, Number(version), at, userId, changes);
}

/** Moves rows of a database (in this order) to sort keys. */
export async function setRowKeys(
  trx: Transaction<Database>,
  databaseId: string,
  ids: readonly string[],
  keys: readonly string[],
  userId: string,
): Promise<void> {
  const at = nowIso();
  for (let i = 0; i < ids.length; i++) {
    await trx.updateTable('pages').set({ sort_key: keys[i], updated_at: at, updated_by: userId }).where('id', '=', ids[i]).execute();
  }
  await bumpRevisions(trx, databaseId, [ROWS_REVISION]);
}

/** Rows of a database into the trash, one batch (a restore of the batch brings them all back). */
export async function trashRows(trx: Transaction<Database>, databaseId: string, ids: readonly string[], userId: string): Promise<string> {
  const at = nowIso();
  for (const chunk of inChunks(ids)) {
    await trx.updateTable('pages').set({ in_trash: 1, trashed_at: at, trashed_by: userId }).where('id', 'in', chunk).where('in_trash', '=', 0).execute();
  }
  await bumpRevisions(trx, databaseId, [ROWS_REVISION]);
  return at;
}

export async function restoreRows(trx: Transaction<Database>, databaseId: string, ids: readonly string[]): Promise<void> {
  for (const chunk of inChunks(ids)) {
    await trx.updateTable('pages').set({ in_trash: 0, trashed_at: null, trashed_by: null }).where('id', 'in', chunk).execute();
  }
  await bumpRevisions(trx, databaseId, [ROWS_REVISION]);
}

/** Every cell of a field (for a retype), a slice at a time. */
export async function* cellsOfField(db: Kysely<Database>, databaseId: string, fieldId: string): AsyncGenerator<CellRow[]> {
  let after = '';
  for (;;) {
    const slice = await db
      .selectFrom('database_cells')
      .selectAll()
      .where('database_id', '=', databaseId)
      .where('field_id', '=', fieldId)
      .where('row_id', '>', after)
      .orderBy('row_id')
      .limit(1000)
      .execute();
    if (slice.length === 0) return;
    yield slice;
    after = slice[slice.length - 1].row_id;
  }
}

/** Rewrites cells of a field after a retype: each to its converted value (null clears), version + 1. */
export async function rewriteCells(
  trx: Transaction<Database>,
  field: DatabaseField,
  cells: ReadonlyArray<{ cell: CellRow; value: RowValue }>,
  userId: string,
): Promise<void> {
  const at = nowIso();
  for (const { cell, value } of cells) {
    const index = cellIndex(field, value);
    await trx
      .updateTable('database_cells')
      .set({
        value: JSON.stringify(value),
        num: index.num,
        txt: index.txt,
        num_end: index.end ?? null,
        version: cell.version + 1,
        updated_at: at,
        updated_by: userId,
      })
      .where('row_id', '=', cell.row_id)
      .where('field_id', '=', cell.field_id)
      .execute();
  }
  for (const databaseId of new Set(cells.map((c) => c.cell.database_id))) await bumpRevisions(trx, databaseId, [...new Set(cells.map((c) => c.cell.field_id))]);
}

/** A field deleted: its cells go. */
export async function deleteCellsOfField(trx: Transaction<Database>, databaseId: string, fieldId: string): Promise<void> {
  await trx.deleteFrom('database_cells').where('database_id', '=', databaseId).where('field_id', '=', fieldId).execute();
  await bumpRevisions(trx, databaseId, [fieldId]);
}

// ————— Reading a view: filter and sort in SQL —————

export interface RowQuery {
  filter?: FilterGroup | null;
  sorts?: readonly ViewSort[];
  search?: string;
  inTrash?: boolean;
  /** Only the rows of one group (a board's column): the group field and its value, as `groupCounts` gives them. */
  group?: { fieldId: string; value: string | boolean | null };
  /** Only the rows whose date (a date field) meets [from, to) in ms: starting in it, or started before it and ending after its start (a calendar's days). */
  range?: { fieldId: string; from: number; to: number };
  /** Only the rows with no date in this date field (a calendar's «Без даты»). */
  undated?: string;
}

/** The page column a computed field reads. */
export const COMPUTED_COLUMNS = { createdTime: 'p.created_at', editedTime: 'p.updated_at', createdBy: 'p.created_by', editedBy: 'p.updated_by' } as const;

function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A cell `c` of a list (people, options: `|a|b|`) that holds `id`. */
function listHas(id: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`c.txt like ${`%|${likeEscape(id)}|%`} escape '\\'`;
}

/*
 * Cells are reached from their row by the primary key (row_id, field_id) only. Naming
 * `database_id` too lets a planner with stale statistics (PostgreSQL right after a big import)
 * pick the per-field index instead and scan a whole column for every row: 235 s for a first
 * window of 50,000 rows, measured, against 0.3 s by the key.
 */

/** One rule as SQL over the row page `p`. */
function ruleSql(config: DatabaseConfig, rule: FilterRule): RawBuilder<SqlBool> | null {
  const field = fieldOf(config, rule.fieldId);
  if (!field) return null;
  const operand = rule.value;
  const unfinished = rule.condition !== 'isEmpty' && rule.condition !== 'isNotEmpty' && (operand === undefined || operand === null || operand === '');
  if (unfinished) return null;

  if (field.type === 'createdTime' || field.type === 'editedTime' || field.type === 'createdBy' || field.type === 'editedBy') {
    const column = sql.raw(COMPUTED_COLUMNS[field.type]);
    if (rule.condition === 'isEmpty') return sql<SqlBool>`${column} is null`;
    if (rule.condition === 'isNotEmpty') return sql<SqlBool>`${column} is not null`;
    if (field.type === 'createdBy' || field.type === 'editedBy') {
      const has = sql<SqlBool>`${column} = ${String(operand)}`;
      return rule.condition === 'contains' ? has : sql<SqlBool>`(${column} is null or not (${has}))`;
    }
    const ms = typeof operand === 'number' ? operand : dateStartMs(String(operand));
    if (ms === null) return null;
    const iso = new Date(ms).toISOString();
    return orderedSql(rule.condition, column, iso);
  }

  const cell = (condition: RawBuilder<SqlBool>) =>
    sql<SqlBool>`exists (select 1 from database_cells c where c.row_id = p.id and c.field_id = ${rule.fieldId} and ${condition})`;
  const filled = sql<SqlBool>`(c.num is not null or c.txt is not null)`;
  if (rule.condition === 'isEmpty') return sql<SqlBool>`not ${cell(filled)}`;
  if (rule.condition === 'isNotEmpty') return cell(filled);
  if (field.type === 'checkbox') return operand === true ? cell(sql<SqlBool>`c.num = 1`) : sql<SqlBool>`not ${cell(sql<SqlBool>`c.num = 1`)}`;
  if (field.type === 'number' || field.type === 'date') {
    const target = typeof operand === 'number' ? operand : field.type === 'number' ? parseNumber(String(operand)) : dateStartMs(String(operand));
    if (target === null) return null;
    if (rule.condition === 'isNot') return sql<SqlBool>`not ${cell(sql<SqlBool>`c.num = ${target}`)}`;
    const inner = orderedSql(rule.condition, sql.raw('c.num'), target);
    return inner ? cell(inner) : null;
  }
  const needle = String(operand);
  if (hasOptions(field) || field.type === 'person' || field.type === 'relation') {
    const has = field.type === 'select' || field.type === 'status' ? cell(sql<SqlBool>`c.txt = ${needle}`) : cell(listHas(needle));
    return rule.condition === 'is' || rule.condition === 'contains' ? has : sql<SqlBool>`not ${has}`;
  }
  const folded = foldText(needle);
  const pattern = likeEscape(folded);
  switch (rule.condition) {
    case 'is':
      return cell(sql<SqlBool>`c.txt = ${folded}`);
    case 'isNot':
      return sql<SqlBool>`not ${cell(sql<SqlBool>`c.txt = ${folded}`)}`;
    case 'contains':
      return cell(sql<SqlBool>`c.txt like ${`%${pattern}%`} escape '\\'`);
    case 'notContains':
      return sql<SqlBool>`not ${cell(sql<SqlBool>`c.txt like ${`%${pattern}%`} escape '\\'`)}`;
    case 'startsWith':
      return cell(sql<SqlBool>`c.txt like ${`${pattern}%`} escape '\\'`);
    case 'endsWith':
      return cell(sql<SqlBool>`c.txt like ${`%${pattern}`} escape '\\'`);
    default:
      return null;
  }
}

function orderedSql(condition: FilterRule['condition'], column: RawBuilder<unknown>, target: number | string): RawBuilder<SqlBool> | null {
  switch (condition) {
    case 'is':
      return sql<SqlBool>`${column} = ${target}`;
    case 'isNot':
      return sql<SqlBool>`(${column} is null or ${column} <> ${target})`;
    case 'gt':
      return sql<SqlBool>`${column} > ${target}`;
    case 'gte':
      return sql<SqlBool>`${column} >= ${target}`;
    case 'lt':
      return sql<SqlBool>`${column} < ${target}`;
    case 'lte':
      return sql<SqlBool>`${column} <= ${target}`;
    default:
      return null;
  }
}

function joinAll(parts: Array<RawBuilder<SqlBool>>, op: 'and' | 'or'): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.join(parts, sql.raw(op === 'and' ? ' and ' : ' or '))})`;
}

/** A filter as SQL (null: everything passes). */
export function filterSql(config: DatabaseConfig, filter: FilterGroup | null | undefined): RawBuilder<SqlBool> | null {
  if (!filter) return null;
  const parts: Array<RawBuilder<SqlBool>> = [];
  for (const rule of filter.rules) {
    if ('op' in rule) {
      const inner = rule.rules.map((r) => ruleSql(config, r)).filter((r): r is RawBuilder<SqlBool> => r !== null);
      if (inner.length > 0) parts.push(joinAll(inner, rule.op));
    } else {
      const one = ruleSql(config, rule);
      if (one) parts.push(one);
    }
  }
  return parts.length === 0 ? null : joinAll(parts, filter.op);
}

interface SortPlan {
  joins: Array<RawBuilder<unknown>>;
  order: Array<RawBuilder<unknown>>;
}

/** Sorts as joins and ORDER BY terms: empty values last either way, then the rows' own order. */
function sortPlan(config: DatabaseConfig, sorts: readonly ViewSort[], postgres: boolean): SortPlan {
  const joins: Array<RawBuilder<unknown>> = [];
  const order: Array<RawBuilder<unknown>> = [];
  sorts.forEach((sort, at) => {
    const field = fieldOf(config, sort.fieldId);
    if (!field) return;
    const direction = sql.raw(sort.direction === 'desc' ? 'desc' : 'asc');
    let key: RawBuilder<unknown>;
    if (field.type in COMPUTED_COLUMNS) {
      key = sql.raw(COMPUTED_COLUMNS[field.type as keyof typeof COMPUTED_COLUMNS]);
    } else {
      const alias = sql.raw(`s${at}`);
      joins.push(sql`left join database_cells ${alias} on ${alias}.row_id = p.id and ${alias}.field_id = ${sort.fieldId}`);
      if (field.type === 'select' || field.type === 'status') {
        const options = hasOptions(field) ? field.options : [];
        key =
          options.length === 0
            ? sql`null`
            : sql`(case ${alias}.txt ${sql.join(
                options.map((o, i) => sql`when ${o.id} then ${i}`),
                sql.raw(' '),
              )} else null end)`;
      } else if (['number', 'checkbox', 'date'].includes(field.type)) {
        key = sql`${alias}.num`;
      } else {
        key = sql`${alias}.txt`;
      }
    }
    order.push(sql`(${key} is null)`);
    order.push(sql`${key} ${direction}`);
  });
  order.push(sql.raw('p.sort_key'));
  order.push(postgres ? sql.raw('p.id collate "C"') : sql.raw('p.id'));
  return { joins, order };
}

/** Which rows a view reads (its database, live or trashed, its filter and search) as SQL over the row page `p`. */
export function whereSql(config: DatabaseConfig, databaseId: string, query: RowQuery): RawBuilder<SqlBool> {
  const parts: Array<RawBuilder<SqlBool>> = [sql<SqlBool>`p.database_id = ${databaseId}`, sql<SqlBool>`p.in_trash = ${query.inTrash ? 1 : 0}`];
  const filter = filterSql(config, query.filter);
  if (filter) parts.push(filter);
  if (query.search) {
    parts.push(
      sql<SqlBool>`exists (select 1 from database_cells c where c.row_id = p.id and c.field_id = ${MAIN_FIELD_ID} and c.txt like ${`%${likeEscape(foldText(query.search))}%`} escape '\\')`,
    );
  }
  if (query.group) parts.push(groupSql(config, query.group.fieldId, query.group.value));
  if (query.range) parts.push(rangeSql(databaseId, query.range));
  if (query.undated)
    parts.push(sql<SqlBool>`not exists (select 1 from database_cells c where c.row_id = p.id and c.field_id = ${query.undated} and c.num is not null)`);
  return joinAll(parts, 'and');
}

/**
 * The rows whose date meets [from, to): two index ranges, those starting in it (`num`) and those
 * started before it that end after its start (`num_end`, where a day or a range ends, exclusive;
 * null for a moment alone).
 */
function rangeSql(databaseId: string, { fieldId, from, to }: { fieldId: string; from: number; to: number }): RawBuilder<SqlBool> {
  return sql<SqlBool>`p.id in (
    select c.row_id from database_cells c where c.database_id = ${databaseId} and c.field_id = ${fieldId} and c.num >= ${from} and c.num < ${to}
    union all
    select c.row_id from database_cells c where c.database_id = ${databaseId} and c.field_id = ${fieldId} and c.num_end > ${from} and c.num < ${from})`;
}

/**
 * The rows of one group, as `groupCounts` counts them: checked or not; no value; the value (an
 * option id); for a person field, the rows whose people include the user (a row is in each of its people's groups).
 */
function groupSql(config: DatabaseConfig, fieldId: string, value: string | boolean | null): RawBuilder<SqlBool> {
  const cell = (condition: RawBuilder<unknown>) =>
    sql<SqlBool>`exists (select 1 from database_cells c where c.row_id = p.id and c.field_id = ${fieldId} and ${condition})`;
  if (value === true) return cell(sql`c.num = 1`);
  if (value === false) return sql<SqlBool>`not ${cell(sql`c.num = 1`)}`;
  if (value === null) return sql<SqlBool>`not ${cell(sql`(c.txt is not null or c.num is not null)`)}`;
  if (fieldOf(config, fieldId)?.type === 'person') return cell(listHas(value));
  return cell(sql`c.txt = ${value}`);
}

/**
 * Which of `ids` the cells of `fieldIds` (relation fields) name, and on which rows: id → the rows
 * naming it. 50 ids a query.
 */
export async function rowsNaming(
  db: Kysely<Database>,
  databaseId: string,
  fieldIds: readonly string[],
  ids: readonly string[],
): Promise<Map<string, string[]>> {
  const naming = new Map<string, string[]>();
  if (fieldIds.length === 0) return naming;
  for (const chunk of inChunks(ids, 50)) {
    const any = joinAll(
      chunk.map((id) => listHas(id)),
      'or',
    );
    const cells = await sql<{ row_id: string; value: string | null }>`
      select c.row_id, c.value from database_cells c
      where c.database_id = ${databaseId} and c.field_id in (${sql.join(fieldIds)}) and (${any})`.execute(db);
    for (const cell of cells.rows) {
      const value = cell.value === null ? null : (JSON.parse(cell.value) as unknown);
      if (!Array.isArray(value)) continue;
      for (const id of chunk) if (value.includes(id)) naming.set(id, [...(naming.get(id) ?? []), cell.row_id]);
    }
  }
  return naming;
}

/** Every id of a view's rows in the view's order (one SQL query; ids only, never the rows). */
export async function orderedRowIds(db: Kysely<Database>, config: DatabaseConfig, databaseId: string, query: RowQuery): Promise<string[]> {
  const postgres = isPostgres(db);
  const where = whereSql(config, databaseId, query);
  const plan = sortPlan(config, query.sorts ?? [], postgres);
  const joins = plan.joins.length === 0 ? sql`` : sql.join(plan.joins, sql.raw(' '));
  const rows = await sql<{ id: string }>`select p.id from pages p ${joins} where ${where} order by ${sql.join(plan.order)}`.execute(db);
  return rows.rows.map((r) => r.id);
}

/** The fields whose cells a query reads (null: every field, for «edited time/by»). */
export function queryFields(config: DatabaseConfig, query: RowQuery): string[] | null {
  const fields = new Set<string>();
  for (const rule of query.filter?.rules ?? []) for (const r of 'op' in rule ? rule.rules : [rule]) fields.add(r.fieldId);
  for (const sort of query.sorts ?? []) fields.add(sort.fieldId);
  if (query.search) fields.add(MAIN_FIELD_ID);
  if (query.group) fields.add(query.group.fieldId);
  if (query.range) fields.add(query.range.fieldId);
  if (query.undated) fields.add(query.undated);
  for (const id of fields) {
    const type = fieldOf(config, id)?.type;
    if (type === 'editedTime' || type === 'editedBy') return null;
  }
  return [...fields].sort();
}

/** The revision counters a kept value was computed at: the database block's version, and each counter by field ('' the rows'). */
interface Revisions {
  version: number;
  revs: ReadonlyMap<string, number>;
}

interface Kept<T> {
  signature: string;
  revisions: Revisions;
  value: T;
  size: number;
}

/** Values kept under a key with the revisions they were computed at; the least recently used go past `maxEntries` entries or a total `maxSize`. */
class KeptValues<T> {
  private readonly entries = new Map<string, Kept<T>>();
  private total = 0;
  constructor(
    private readonly maxEntries: number,
    private readonly maxSize: number,
  ) {}

  /** What is kept under `key`, whatever its revisions (it becomes the most recently used). */
  lookup(key: string): Kept<T> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  keep(key: string, entry: Kept<T>): void {
    this.forget(key);
    this.entries.set(key, entry);
    this.total += entry.size;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.total <= this.maxSize) break;
      if (oldest === key) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.total -= entry.size;
    this.entries.delete(key);
  }
}

/** Past this many rows written since a value was kept, it is computed again rather than brought up to date. */
const MAX_ROWS_AGAIN = 1000;
/** Cell writes remembered per database and field (`cellsChanged`). */
const MAX_WRITES = 4096;

/**
 * The ordered ids of the views people look at, per process: a window is a slice of them, so
 * scrolling anywhere in 50,000 rows costs a read of 100 rows, not a sort of 50,000. An entry is
 * used while its signature holds — the database block's version (fields, options) and the
 * revisions of the rows and of the fields the view filters and sorts by — so typing into other
 * columns keeps it. Bounded: the least recently used entries go past MAX_ENTRIES or MAX_IDS.
 * Footers and charts' groups are kept the same way, apart (`kept`).
 */
export class ViewOrders {
  private readonly orders: KeptValues<string[]>;
  private readonly results: KeptValues<unknown>;
  /** Cell writes of this process, committed: by database, field and revision, the row written. */
  private readonly writes = new Map<string, Map<string, Map<number, string>>>();
  constructor(
    private readonly maxEntries = 64,
    maxIds = 500_000,
  ) {
    this.orders = new KeptValues(maxEntries, maxIds);
    this.results = new KeptValues(maxEntries, maxIds);
  }

  /** Ids of a window of a view and how many rows the view has. */
  async window(
    db: Kysely<Database>,
    database: Pick<BlockRow, 'id' | 'version'>,
    config: DatabaseConfig,
    query: RowQuery,
    window: { offset: number; limit: number },
  ): Promise<{ ids: string[]; count: number }> {
    const ids = await this.ids(db, database, config, query);
    return { ids: ids.slice(window.offset, window.offset + window.limit), count: ids.length };
  }

  ids(db: Kysely<Database>, database: Pick<BlockRow, 'id' | 'version'>, config: DatabaseConfig, query: RowQuery): Promise<string[]> {
    const key = `${database.id}\n${JSON.stringify([query.filter ?? null, query.sorts ?? [], query.search ?? '', query.inTrash === true, query.group ?? null, query.range ?? null, query.undated ?? null])}`;
    return this.keep(
      this.orders,
      db,
      database,
      key,
      queryFields(config, query),
      () => orderedRowIds(db, config, database.id, query),
      (ids) => ids.length,
    );
  }

  /** A view's footer, kept like its order: while the rows and the fields it filters, sorts and sums by stay. */
  figures(
    db: Kysely<Database>,
    database: Pick<BlockRow, 'id' | 'version'>,
    config: DatabaseConfig,
    query: RowQuery,
    calculations: Record<string, Calculation>,
  ): Promise<Record<string, number | null>> {
    const key = `${database.id}\n${JSON.stringify([query.filter ?? null, query.search ?? '', query.inTrash === true, calculations])}`;
    const used = queryFields(config, { ...query, sorts: Object.keys(calculations).map((fieldId) => ({ fieldId, direction: 'asc' as const })) });
    return this.kept(db, database, `footer\n${key}`, used, () => calculate(db, config, database.id, query, calculations));
  }

  /**
   * What a read of a view computes (a footer, a chart's groups) under `key`, kept while the
   * database's rows and `fields` (null: every field) stay; `size` counts against MAX_IDS. With
   * `again`, a value made of rows: when the only changes since it was kept are cells this process
   * wrote (`cellsChanged`, at most MAX_ROWS_AGAIN rows), `again` brings it up to date from those
   * rows' ids instead of `compute` reading every row.
   */
  kept<T>(
    db: Kysely<Database>,
    database: Pick<BlockRow, 'id' | 'version'>,
    key: string,
    fields: string[] | null,
    compute: () => Promise<T>,
    size: (value: T) => number = () => 1,
    again?: (value: T, rowIds: string[]) => Promise<T>,
  ): Promise<T> {
    return this.keep(this.results as KeptValues<T>, db, database, key, fields, compute, size, again);
  }

  /**
   * Cells written by this process, once their transaction is committed (`CellChange`): which
   * row each revision of a field changed. A counter that moved without a write told here (another
   * process, rows made or moved, a field changed) makes values be computed again.
   */
  cellsChanged(databaseId: string, changes: readonly CellChange[]): void {
    if (changes.length === 0) return;
    const fields = this.writes.get(databaseId) ?? new Map<string, Map<number, string>>();
    this.writes.delete(databaseId);
    this.writes.set(databaseId, fields);
    for (const [oldest] of this.writes) {
      if (this.writes.size <= this.maxEntries) break;
      this.writes.delete(oldest);
    }
    for (const change of changes) {
      const revs = fields.get(change.fieldId) ?? new Map<number, string>();
      fields.set(change.fieldId, revs);
      revs.set(change.rev, change.rowId);
      for (const [oldest] of revs) {
        if (revs.size <= MAX_WRITES) break;
        revs.delete(oldest);
      }
    }
  }

  private async keep<T>(
    store: KeptValues<T>,
    db: Kysely<Database>,
    database: Pick<BlockRow, 'id' | 'version'>,
    key: string,
    fields: string[] | null,
    compute: () => Promise<T>,
    size: (value: T) => number,
    again?: (value: T, rowIds: string[]) => Promise<T>,
  ): Promise<T> {
    // Read before the value: a write landing in between makes the next request read it again, never the reverse.
    const revisions = await this.revisions(db, database, fields);
    const signature = signatureOf(revisions);
    const kept = store.lookup(key);
    if (kept?.signature === signature) return kept.value;
    const rowIds = kept && again ? this.rowsWritten(database.id, kept.revisions, revisions) : null;
    const value = rowIds ? await again!(kept!.value, rowIds) : await compute();
    store.keep(key, { signature, revisions, value, size: size(value) });
    return value;
  }

  private async revisions(db: Kysely<Database>, database: Pick<BlockRow, 'id' | 'version'>, fields: string[] | null): Promise<Revisions> {
    let query = db.selectFrom('database_revisions').select(['field_id', 'rev']).where('database_id', '=', database.id);
    if (fields !== null) query = query.where('field_id', 'in', [ROWS_REVISION, ...fields]);
    const revs = await query.execute();
    return { version: database.version, revs: new Map(revs.map((r) => [r.field_id, Number(r.rev)])) };
  }

  /**
   * The rows whose cells changed from revisions `from` to `to`, when every step of every counter
   * between them is a cell this process wrote (and told); null otherwise, or past MAX_ROWS_AGAIN.
   */
  private rowsWritten(databaseId: string, from: Revisions, to: Revisions): string[] | null {
    if (from.version !== to.version || (from.revs.get(ROWS_REVISION) ?? 0) !== (to.revs.get(ROWS_REVISION) ?? 0)) return null;
    if ([...from.revs.keys()].some((fieldId) => !to.revs.has(fieldId))) return null;
    const written = this.writes.get(databaseId);
    const rows = new Set<string>();
    for (const [fieldId, rev] of to.revs) {
      const byRev = written?.get(fieldId);
      const since = from.revs.get(fieldId) ?? 0;
      if (rev < since) return null; // read before the value kept was computed: compute again
      for (let step = since + 1; step <= rev; step++) {
        const rowId = byRev?.get(step);
        if (rowId === undefined || rows.add(rowId).size > MAX_ROWS_AGAIN) return null;
      }
    }
    return [...rows];
  }
}

/** Revisions as a string that differs when any counter or the block's version does. */
function signatureOf(revisions: Revisions): string {
  return JSON.stringify([revisions.version, [...revisions.revs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
}

// ————— Footer calculations and groups —————

/** The footer of a view: per field, its calculation over the view's rows (filtered), in SQL. */
export async function calculate(
  db: Kysely<Database>,
  config: DatabaseConfig,
  databaseId: string,
  query: RowQuery,
  calculations: Record<string, Calculation>,
): Promise<Record<string, number | null>> {
  const where = whereSql(config, databaseId, query);
  const out: Record<string, number | null> = {};
  for (const [fieldId, calculation] of Object.entries(calculations)) {
    const field = fieldOf(config, fieldId);
    if (!field) continue;
    if (field.type in COMPUTED_COLUMNS) {
      out[fieldId] =
        calculation === 'count'
          ? Number((await sql<{ n: number | string }>`select count(*) as n from pages p where ${where}`.execute(db)).rows[0]?.n ?? 0)
          : null;
      continue;
    }
    const result = await sql<{
      total: number | string;
      filled: number | string;
      uniq: number | string;
      s: number | null;
      a: number | null;
      lo: number | null;
      hi: number | null;
    }>`
      select count(*) as total, count(c.row_id) as filled, count(distinct coalesce(c.txt, cast(c.num as text))) as uniq,
             sum(c.num) as s, avg(c.num) as a, min(c.num) as lo, max(c.num) as hi
      from pages p left join database_cells c on c.row_id = p.id and c.field_id = ${fieldId} and (c.num is not null or c.txt is not null)
      where ${where}`.execute(db);
    const row = result.rows[0];
    const total = Number(row?.total ?? 0);
    const filled = Number(row?.filled ?? 0);
    const numeric = (value: number | string | null | undefined) => (value === null || value === undefined ? null : Number(value));
    out[fieldId] = {
      count: total,
      empty: total - filled,
      filled,
      unique: Number(row?.uniq ?? 0),
      sum: numeric(row?.s),
      average: numeric(row?.a),
      min: numeric(row?.lo),
      max: numeric(row?.hi),
    }[calculation];
  }
  return out;
}

/**
 * The groups of a view by a field, in the field's order (options' order; empty last), with their
 * counts. With `people` (a board's columns by a person field), a list of people is split: each
 * user is a group (a row counts in each of its people's), ordered by `people`'s names, then id;
 * without it each list stored is a group (a table shows a row once, its groups being runs of rows).
 */
export async function groupCounts(
  db: Kysely<Database>,
  config: DatabaseConfig,
  databaseId: string,
  query: RowQuery,
  fieldId: string,
  people?: (ids: string[]) => Promise<Map<string, string>>,
): Promise<Array<{ value: string | boolean | null; count: number }>> {
  const field = fieldOf(config, fieldId);
  if (!field) return [];
  const split = people !== undefined && field.type === 'person';
  const where = whereSql(config, databaseId, query);
  const rows = await sql<{ txt: string | null; num: number | null; n: number | string }>`
    select c.txt as txt, c.num as num, count(*) as n
    from pages p left join database_cells c on c.row_id = p.id and c.field_id = ${fieldId}
    where ${where} group by c.txt, c.num`.execute(db);
  const counts = new Map<string | boolean | null, number>();
  for (const row of rows.rows) {
    const value = field.type === 'checkbox' ? row.num === 1 : row.txt === null && row.num === null ? null : (row.txt ?? String(row.num));
    const values = split && typeof value === 'string' ? listKeyIds(value) : [value];
    for (const one of values) counts.set(one, (counts.get(one) ?? 0) + Number(row.n));
  }
  if (split) {
    const ids = [...counts.keys()].filter((value): value is string => typeof value === 'string');
    const names = await people(ids);
    const name = (value: string | boolean | null) => (typeof value === 'string' ? (names.get(value) ?? value) : '');
    return [...counts.entries()]
      .map(([value, count]) => ({ value, count }))
      .sort(
        (a, b) =>
          (a.value === null ? 1 : 0) - (b.value === null ? 1 : 0) ||
          name(a.value).localeCompare(name(b.value), 'ru') ||
          String(a.value).localeCompare(String(b.value)),
      );
  }
  const order = (value: string | boolean | null): number => {
    if (value === null) return Number.MAX_SAFE_INTEGER;
    if (hasOptions(field) && typeof value === 'string') {
      const at = field.options.findIndex((o) => o.id === value);
      return at < 0 ? Number.MAX_SAFE_INTEGER - 1 : at;
    }
    return 0;
  };
  return [...counts.entries()]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => order(a.value) - order(b.value) || String(a.value).localeCompare(String(b.value)));
}

/**
 * The live rows of a database copied into another (a block clone of the database): each row a
 * new page at the same place and order, with its blocks and its cells (version 1). Rows in the
 * trash stay behind; a row's own sub-pages and comments are not copied. Call in the transaction
 * that made the copy's block.
 */
export async function cloneDatabaseRows(trx: Transaction<Database>, fromId: string, toId: string, userId: string): Promise<number> {
  const now = nowIso();
  let copied = 0;
  let after = '';
  for (;;) {
    const rows = await trx
      .selectFrom('pages')
      .selectAll()
      .where('database_id', '=', fromId)
      .where('in_trash', '=', 0)
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute();
    if (rows.length === 0) return copied;
    after = rows[rows.length - 1].id;
    const ids = new Map<string, string>([[fromId, toId], ...rows.map((row) => [row.id, newId()] as [string, string])]);
    const live = await trx
      .selectFrom('blocks')
      .selectAll()
      .where(
        'page_id',
        'in',
        rows.map((row) => row.id),
      )
      .where('deleted_at', 'is', null)
      .execute();
    // What hangs from the top of each row's page (a block under a deleted one is not part of it any more).
    const blocks = live.filter((block) => block.parent_id === null);
    for (let at = 0, kept = new Set(blocks.map((b) => b.id)); at < blocks.length; at++) {
      for (const child of live) {
        if (child.parent_id !== blocks[at].id || kept.has(child.id)) continue;
        kept.add(child.id);
        blocks.push(child);
      }
    }
    for (const block of blocks) ids.set(block.id, newId());
    const pages: PageRow[] = rows.map((row) => ({
      ...row,
      ...FRESH_PAGE_STATE,
      id: ids.get(row.id)!,
      database_id: toId,
      is_public: 0,
      created_by: userId,
      created_at: now,
      updated_at: now,
      updated_by: userId,
    }));
    for (const chunk of inChunks(pages, 200)) await trx.insertInto('pages').values(chunk).execute();
    const blockCopies: BlockRow[] = blocks.map((block) => ({
      ...block,
      id: ids.get(block.id)!,
      page_id: ids.get(block.page_id)!,
      parent_id: block.parent_id === null ? null : ids.get(block.parent_id)!,
      data: remapBlockData(block.data, ids),
      version: 1,
      created_at: now,
      updated_at: now,
      updated_by: userId,
      deleted_at: null,
    }));
    for (const chunk of inChunks(blockCopies, 200)) await trx.insertInto('blocks').values(chunk).execute();
    const cells = await trx
      .selectFrom('database_cells')
      .selectAll()
      .where(
        'row_id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    const cellCopies: CellRow[] = cells.map((cell) => ({
      ...cell,
      row_id: ids.get(cell.row_id)!,
      database_id: toId,
      version: 1,
      updated_at: now,
      updated_by: userId,
    }));
    for (const chunk of inChunks(cellCopies, 100)) await trx.insertInto('database_cells').values(chunk).execute();
    copied += rows.length;
  }
}
