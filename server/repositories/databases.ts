import { generateNKeysBetween } from 'fractional-indexing';
import { sql, type Insertable, type Kysely, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import {
  FILTER_CONDITIONS,
  MAIN_FIELD_ID,
  fieldOf,
  hasOptions,
  type Calculation,
  type DatabaseConfig,
  type DatabaseData,
  type DateGrouping,
  type DatabaseField,
  type FilterGroup,
  type FilterRule,
  type RowValue,
  type ViewSort,
} from '../../schema/blocks/database';
import { cellIndex, dateStartMs, listKeyIds, foldText, parseNumber, type NewRow, type WireGroup, type WireRow } from '../../schema/database';
import { dateBucket, dayNumber, numberBucket } from '../../schema/groupBuckets';
import { asStoredField } from '../../schema/formula/field';
import { foreignOriginals } from '../../schema/formula/rollup';
import { newId } from '../../schema/ids';
import { isPostgres } from '../db/connect';
import { assertSyncedBlocks, storedSynced } from './syncedContent';
import { ROW_TEMPLATE, type BlockRow, type CellRow, type Database, type DatabaseCellTable, type PageRow } from '../db/types';
import { nowIso } from '../time';
import { noteReminders, writtenBlock } from '../reminders/note';
import { bumpRevisions, ROWS_REVISION, viewOrderRevision } from './databaseRevisions';
import { FRESH_PAGE_STATE, childPath } from './pages';
import { inChunks } from '../db/inChunks';
import { remapBlockData } from './clonePages';
import { recordCellChange } from './cellHistory';
import { cloneViewKeys } from './databaseLayouts';

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
 * First and last are first and last in every view too: before (after) every key a view keeps of
 * its own (`database_view_order`, «Order per view»), not only the rows' own keys.
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
    const lastOwn = await viewKeysEnd(db, databaseId, 'last', moving);
    return generateNKeysBetween(maxKey(last?.sort_key ?? null, lastOwn), null, count);
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
  if (low === null) return generateNKeysBetween(null, minKey(following?.sort_key ?? null, await viewKeysEnd(db, databaseId, 'first', moving)), count);
  return apartFromViewKeys(db, databaseId, low, generateNKeysBetween(low, following?.sort_key ?? null, count));
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
  return apartFromViewKeys(db, databaseId, low?.sort_key ?? null, generateNKeysBetween(low?.sort_key ?? null, before.sort_key, count));
}

/**
 * Rows' own keys made between two rows' keys, none equal to a key a view keeps of its own: such a
 * key lies between them in that key space (the same), and a tie would leave a view's order to the
 * rows' ids. Keys met are made again nearer `low` (still between the two).
 */
async function apartFromViewKeys(db: Kysely<Database>, databaseId: string, low: string | null, keys: string[]): Promise<string[]> {
  for (let tries = 0; tries < 32; tries++) {
    let taken = false;
    for (const chunk of inChunks(keys)) {
      const met = await db
        .selectFrom('database_view_order')
        .select('sort_key')
        .where('database_id', '=', databaseId)
        .where('sort_key', 'in', chunk)
        .limit(1)
        .executeTakeFirst();
      if (met) taken = true;
      if (taken) break;
    }
    if (!taken) return keys;
    keys = generateNKeysBetween(low, keys[0], keys.length);
  }
  return keys;
}

function minKey(a: string | null, b: string | null): string | null {
  return a === null ? b : b === null || a < b ? a : b;
}

function maxKey(a: string | null, b: string | null): string | null {
  return a === null ? b : b === null || a > b ? a : b;
}

// ————— Order per view —————
// A view's key of a row is the key the view keeps of its own for it (a row moved in that view),
// else the row's `sort_key`: one fractional key space (docs/api/databases.md «Order per view»).

/** The first or last key any view of the database keeps of its own (rows `moving` left out); null: none. */
async function viewKeysEnd(db: Kysely<Database>, databaseId: string, end: 'first' | 'last', moving: readonly string[]): Promise<string | null> {
  let query = db.selectFrom('database_view_order').select('sort_key').where('database_id', '=', databaseId);
  if (moving.length > 0) query = query.where('row_id', 'not in', moving);
  const row = await query
    .orderBy('sort_key', end === 'first' ? 'asc' : 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.sort_key ?? null;
}

/** The view's key of a row of the database (undefined: no such row). */
async function viewKeyOf(db: Kysely<Database>, databaseId: string, viewUid: string, rowId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('pages as p')
    .leftJoin('database_view_order as vo', (join) => join.onRef('vo.row_id', '=', 'p.id').on('vo.view_uid', '=', viewUid))
    .select(['p.sort_key as shared', 'vo.sort_key as own'])
    .where('p.id', '=', rowId)
    .where('p.database_id', '=', databaseId)
    .executeTakeFirst();
  return row ? (row.own ?? row.shared) : undefined;
}

/**
 * The view's nearest key after `key` ('next') or before it ('previous'), or the view's first
 * (last) key when `key` is null; null when there is none. Rows live or trashed, `moving` passed
 * over. Two index reads: the view's own keys, and the rows' keys of rows without one.
 */
async function viewNeighbour(
  db: Kysely<Database>,
  databaseId: string,
  viewUid: string,
  key: string | null,
  side: 'next' | 'previous',
  moving: readonly string[],
): Promise<string | null> {
  const op = side === 'next' ? '>' : '<';
  const direction = side === 'next' ? 'asc' : 'desc';
  let own = db.selectFrom('database_view_order').select('sort_key').where('database_id', '=', databaseId).where('view_uid', '=', viewUid);
  if (key !== null) own = own.where('sort_key', op, key);
  if (moving.length > 0) own = own.where('row_id', 'not in', moving);
  let shared = db
    .selectFrom('pages as p')
    .select('p.sort_key')
    .where('p.database_id', '=', databaseId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('database_view_order as vo').select('vo.row_id').whereRef('vo.row_id', '=', 'p.id').where('vo.view_uid', '=', viewUid))),
    );
  if (key !== null) shared = shared.where('p.sort_key', op, key);
  if (moving.length > 0) shared = shared.where('p.id', 'not in', moving);
  const a = (await own.orderBy('sort_key', direction).limit(1).executeTakeFirst())?.sort_key ?? null;
  const b = (await shared.orderBy('p.sort_key', direction).limit(1).executeTakeFirst())?.sort_key ?? null;
  return side === 'next' ? minKey(a, b) : maxKey(a, b);
}

/**
 * `count` keys of a view's own order after the row `afterId` in that view (null: first), before
 * the view's next row; rows `moving` passed over. An anchor that is no row of the database: the end.
 */
export async function viewKeysAfter(
  db: Kysely<Database>,
  databaseId: string,
  viewUid: string,
  afterId: string | null,
  count: number,
  moving: readonly string[] = [],
): Promise<string[]> {
  const low = afterId === null ? null : ((await viewKeyOf(db, databaseId, viewUid, afterId)) ?? null);
  if (afterId !== null && low === null) return generateNKeysBetween(await viewNeighbour(db, databaseId, viewUid, null, 'previous', moving), null, count);
  return generateNKeysBetween(low, await viewNeighbour(db, databaseId, viewUid, low, 'next', moving), count);
}

/** `count` keys of a view's own order just before the row `beforeId` in that view, after the view's previous row. */
export async function viewKeysBefore(
  db: Kysely<Database>,
  databaseId: string,
  viewUid: string,
  beforeId: string,
  count: number,
  moving: readonly string[] = [],
): Promise<string[]> {
  const high = await viewKeyOf(db, databaseId, viewUid, beforeId);
  if (high === undefined) throw new Error(`${beforeId} is no row of ${databaseId}`);
  return generateNKeysBetween(await viewNeighbour(db, databaseId, viewUid, high, 'previous', moving), high, count);
}

/** Puts rows (in this order) at keys of one view's own order: the row pages and the other views stay as they are. */
export async function setViewKeys(
  trx: Transaction<Database>,
  databaseId: string,
  viewUid: string,
  ids: readonly string[],
  keys: readonly string[],
): Promise<void> {
  const records = ids.map((rowId, at) => ({ database_id: databaseId, view_uid: viewUid, row_id: rowId, sort_key: keys[at] }));
  for (const chunk of inChunks(records, 200))
    await trx
      .insertInto('database_view_order')
      .values(chunk)
      .onConflict((oc) => oc.columns(['view_uid', 'row_id']).doUpdateSet((eb) => ({ sort_key: eb.ref('excluded.sort_key') })))
      .execute();
  await bumpRevisions(trx, databaseId, [viewOrderRevision(viewUid)]);
}

/** A view's own order given to a new view of the same database (a view duplicated). */
export async function copyViewKeys(trx: Transaction<Database>, databaseId: string, fromUid: string, toUid: string): Promise<void> {
  await trx
    .insertInto('database_view_order')
    .columns(['database_id', 'view_uid', 'row_id', 'sort_key'])
    .expression(
      trx
        .selectFrom('database_view_order')
        .select(['database_id', sql<string>`cast(${toUid} as text)`.as('view_uid'), 'row_id', 'sort_key'])
        .where('database_id', '=', databaseId)
        .where('view_uid', '=', fromUid),
    )
    // Idempotent: a change of the block tried again (another change got in between) copies nothing twice.
    .onConflict((oc) => oc.columns(['view_uid', 'row_id']).doNothing())
    .execute();
  await bumpRevisions(trx, databaseId, [viewOrderRevision(toUid)]);
}

// ————— Writes —————

export interface InsertRowsInput {
  database: BlockRow;
  /** The page holding the database (the rows' parent). */
  holder: PageRow;
  rows: ReadonlyArray<NewRow & { id: string }>;
  sortKeys: readonly string[];
  userId: string;
  /** Row templates of the database, not rows (ROW_TEMPLATE). */
  templates?: boolean;
}

export { ROW_TEMPLATE } from '../db/types';

/** A database's row templates (docs/api/databases.md «Row templates»), in their order. */
export function listTemplatePages(db: Kysely<Database>, databaseId: string): Promise<Array<Pick<PageRow, 'id' | 'title' | 'icon'>>> {
  return db
    .selectFrom('pages')
    .select(['id', 'title', 'icon'])
    .where('database_id', '=', databaseId)
    .where('in_trash', '=', ROW_TEMPLATE)
    .orderBy('sort_key')
    .orderBy('id')
    .execute();
}

/** A template's ids, in their order. */
export async function templateIdsOf(db: Kysely<Database>, databaseId: string): Promise<string[]> {
  return (await listTemplatePages(db, databaseId)).map((page) => page.id);
}

/**
 * A template's values gone for good (its page is deleted by the caller): its cells and the links
 * its relation cells made; the pictures uploaded into it given to `holderId`'s page (rows made
 * from it show them still).
 */
export async function dropTemplateData(trx: Transaction<Database>, templateId: string, holderId: string): Promise<void> {
  await trx.updateTable('files').set({ page_id: holderId }).where('page_id', '=', templateId).execute();
  await trx.deleteFrom('database_cells').where('row_id', '=', templateId).execute();
  await trx.deleteFrom('row_links').where('from_row', '=', templateId).execute();
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
    in_trash: input.templates ? ROW_TEMPLATE : 0,
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
  /** A restore of this history entry (recorded as an entry of its own). */
  restoredFrom?: number,
): Promise<WrittenCell | null> {
  const at = nowIso();
  const cell = newCell(row.id, row.database_id!, fieldId, field, value, version + 1, at, userId);
  let before: RowValue = null;
  if (version === 0) {
    const inserted = await trx
      .insertInto('database_cells')
      .values(cell)
      .onConflict((oc) => oc.columns(['row_id', 'field_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return null;
  } else {
    // The value before, for the row's history (the cell moved on since `version`: a conflict, nothing written).
    const stored = await trx
      .selectFrom('database_cells')
      .select(['value', 'version'])
      .where('row_id', '=', row.id)
      .where('field_id', '=', fieldId)
      .executeTakeFirst();
    if (!stored || stored.version !== version) return null;
    before = parseValue(stored);
    const updated = await trx
      .updateTable('database_cells')
      .set({ value: cell.value, num: cell.num, txt: cell.txt, num_end: cell.num_end, version: cell.version, updated_at: at, updated_by: userId })
      .where('row_id', '=', row.id)
      .where('field_id', '=', fieldId)
      .where('version', '=', version)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return null;
  }
  return cellWritten(trx, row, field, fieldId, before, value, cell.version, at, userId, changes, restoredFrom);
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

/**
 * The rest of a cell write: its field's revision (told to `changes`), the row page's «edited» (and
 * title), and the change in the row's history (`recordCellChange`: a burst of one person's changes
 * of the cell is one entry).
 */
async function cellWritten(
  trx: Transaction<Database>,
  row: PageRow,
  field: DatabaseField,
  fieldId: string,
  before: RowValue,
  value: RowValue,
  version: number,
  at: string,
  userId: string,
  changes?: CellChange[],
  restoredFrom?: number,
): Promise<WrittenCell> {
  const revs = await bumpRevisions(trx, row.database_id!, [fieldId]);
  changes?.push({ fieldId, rev: revs.get(fieldId)!, rowId: row.id });
  const pageFields =
    fieldId === MAIN_FIELD_ID ? { title: typeof value === 'string' ? value : '', updated_at: at, updated_by: userId } : { updated_at: at, updated_by: userId };
  await trx.updateTable('pages').set(pageFields).where('id', '=', row.id).execute();
  await recordCellChange(trx, {
    rowId: row.id,
    databaseId: row.database_id!,
    fieldId,
    fieldType: field.type,
    from: before,
    to: value,
    userId,
    at,
    restoredFrom,
  });
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
  const stored = await trx.selectFrom('database_cells').select('value').where('row_id', '=', row.id).where('field_id', '=', fieldId).executeTakeFirst();
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
  return cellWritten(trx, row, field, fieldId, stored ? parseValue(stored) : null, value, Number(version), at, userId, changes);
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

/** Computed cells written many a statement (a formula's column, unique IDs): made, or put over the cell there, at the versions given. */
export async function upsertCells(trx: Kysely<Database>, cells: readonly Insertable<DatabaseCellTable>[]): Promise<void> {
  for (const batch of inChunks(cells, CELLS_PER_STATEMENT)) {
    await trx
      .insertInto('database_cells')
      .values(batch)
      .onConflict((oc) =>
        oc.columns(['row_id', 'field_id']).doUpdateSet((eb) => ({
          value: eb.ref('excluded.value'),
          num: eb.ref('excluded.num'),
          txt: eb.ref('excluded.txt'),
          num_end: eb.ref('excluded.num_end'),
          version: eb.ref('excluded.version'),
          updated_at: eb.ref('excluded.updated_at'),
          updated_by: eb.ref('excluded.updated_by'),
        })),
      )
      .execute();
  }
}

/** Cells written by one statement (11 parameters each: well under SQLite's and PostgreSQL's limits). */
const CELLS_PER_STATEMENT = 200;

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
  // A relation's links (docs/relations.md «Rollups»).
  await trx.deleteFrom('row_links').where('database_id', '=', databaseId).where('field_id', '=', fieldId).execute();
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
  /** And of one sub-group (a board's swimlane): its field and value, as `groupCounts` gives them for that field. */
  subGroup?: { fieldId: string; value: string | boolean | null };
  /** Only the rows whose date (a date field) meets [from, to) in ms: starting in it, or started before it and ending after its start (a calendar's days). */
  range?: { fieldId: string; from: number; to: number };
  /** Only the rows with no date in this date field (a calendar's «Без даты»). */
  undated?: string;
  /** The view (its uid) whose own order the rows' order is, after the sorts: its keys where it has them, else the rows' own («Order per view»). */
  order?: string;
  /**
   * A table grouped by a list field (a multi-select, a relation to rows of its own database: `splitsRows`):
   * a row once for each value its list holds, in the groups' order (`splitGroupOrder`), each group's
   * rows in the sorts' order; a row holding none of them (or only options deleted, rows in the trash)
   * once in «Без значения», last. The order's `groups` say each entry's group.
   */
  split?: string;
  /**
   * A table grouped (or sub-grouped) by a date's or a number's buckets: the rows ordered by the
   * group's bucket (computed here, as `groupCounts` computes it) in place of its raw value — the
   * first sort — and the sub-group's in place of the second, so each group and sub-group is one
   * run whatever the values (a day without a time among moments, west of UTC). `today`: the day
   * relative buckets count from (0 when none is relative: part of the kept order's key).
   */
  bucket?: { timeZone: string; today: number; group?: BucketBy; sub?: BucketBy };
}

/** A field whose buckets order a table's rows (`RowQuery.bucket`). */
export interface BucketBy {
  fieldId: string;
  by?: DateGrouping;
  step?: number;
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
  if (!fieldOf(config, rule.fieldId)) return null;
  // A formula as the type it gives (its cells keep that type's projections: docs/formulas.md).
  const formula = config.fields[rule.fieldId].type === 'formula' || config.fields[rule.fieldId].type === 'rollup';
  const field = asStoredField(config.fields, rule.fieldId) as DatabaseField;
  if (formula && !FILTER_CONDITIONS[field.type].includes(rule.condition)) return null;
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
  // A formula's list keeps its items' texts folded.
  const needle = formula ? foldText(String(operand)) : String(operand);
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
  /** The values rows are ordered by, each sort's and then the row's own key and id (`compareKeys` orders them as `order` does). */
  keys: Array<RawBuilder<unknown>>;
  /** Per sort, whether it goes down (the keys after the sorts' go up). */
  descending: boolean[];
}

/**
 * Sorts as joins and ORDER BY terms: empty values last either way, then the rows' own order —
 * the view `ownOrder`'s where it keeps keys of its own, else each row's.
 */
function sortPlan(config: DatabaseConfig, sorts: readonly ViewSort[], postgres: boolean, ownOrder?: string): SortPlan {
  const joins: Array<RawBuilder<unknown>> = [];
  const order: Array<RawBuilder<unknown>> = [];
  const keys: Array<RawBuilder<unknown>> = [];
  const descending: boolean[] = [];
  sorts.forEach((sort, at) => {
    if (!fieldOf(config, sort.fieldId)) return;
    const field = asStoredField(config.fields, sort.fieldId) as DatabaseField;
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
      } else if (field.type === 'checkbox') {
        // A box never ticked is an unticked one (as its group and its filter say).
        key = sql`coalesce(${alias}.num, 0)`;
      } else if (['number', 'date'].includes(field.type)) {
        key = sql`${alias}.num`;
      } else {
        key = sql`${alias}.txt`;
      }
    }
    order.push(sql`(${key} is null)`);
    order.push(sql`${key} ${direction}`);
    keys.push(key);
    descending.push(sort.direction === 'desc');
  });
  let manual: RawBuilder<unknown> = sql.raw('p.sort_key');
  if (ownOrder !== undefined) {
    joins.push(sql`left join database_view_order vo on vo.view_uid = ${ownOrder} and vo.row_id = p.id`);
    manual = postgres ? sql`coalesce(vo.sort_key, p.sort_key) collate "C"` : sql`coalesce(vo.sort_key, p.sort_key)`;
  }
  const own = [manual, postgres ? sql.raw('p.id collate "C"') : sql.raw('p.id')];
  order.push(...own);
  keys.push(...own);
  return { joins, order, keys, descending };
}

/** Two texts in code-point order: SQLite's (bytes of UTF-8) and PostgreSQL's `collate "C"`, which the keys sorted on use. */
function codePointOrder(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** Rows' keys (`SortPlan.keys`) in the order SQL gives them: per sort empty last either way, then up or down; then the rows' own key and id. */
export function compareKeys(a: readonly unknown[], b: readonly unknown[], descending: readonly boolean[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === y) continue;
    if (x === null || y === null) return x === null ? 1 : -1;
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : codePointOrder(String(x), String(y));
    if (order !== 0) return (descending[i] ? -order : order) < 0 ? -1 : 1;
  }
  return 0;
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
  if (query.subGroup) parts.push(groupSql(config, query.subGroup.fieldId, query.subGroup.value));
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
 * option id); for a person or multi-select field, the rows whose list includes the value (a
 * row is in each of its people's or options' groups: a board's columns).
 */
function groupSql(config: DatabaseConfig, fieldId: string, value: string | boolean | null): RawBuilder<SqlBool> {
  const cell = (condition: RawBuilder<unknown>) =>
    sql<SqlBool>`exists (select 1 from database_cells c where c.row_id = p.id and c.field_id = ${fieldId} and ${condition})`;
  if (value === true) return cell(sql`c.num = 1`);
  if (value === false) return sql<SqlBool>`not ${cell(sql`c.num = 1`)}`;
  const type = fieldOf(config, fieldId)?.type;
  // A relation's «Без значения»: the rows naming no live row of their database (none, or only rows in the trash: they name no group; `splitGroupOrder`).
  if (value === null && type === 'relation')
    return sql<SqlBool>`not exists (select 1 from row_links l join pages t on t.id = l.to_row
      where l.from_row = p.id and l.field_id = ${fieldId} and t.database_id = p.database_id and t.in_trash = 0)`;
  if (value === null) return sql<SqlBool>`not ${cell(sql`(c.txt is not null or c.num is not null)`)}`;
  if (type === 'person' || type === 'multiSelect' || type === 'relation') return cell(listHas(value));
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

/** A view's rows in its order: their ids, and the values they are ordered by (`SortPlan.keys`), to place a row written since. */
export interface RowOrder {
  ids: string[];
  keys: unknown[][];
  /** Per sort, whether it goes down (`SortPlan.descending`): how `compareKeys` reads `keys`. */
  descending: boolean[];
  /** A split order's (`RowQuery.split`): each entry's group (a value of the list; null: «Без значения»). */
  groups?: Array<string | null>;
}

/** Where `key` goes among `keys` (sorted as their order is): after every key not past it. */
function indexAfter(keys: readonly unknown[][], key: readonly unknown[], descending: readonly boolean[]): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareKeys(keys[mid], key, descending) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The columns of a select that give a row's keys: `k0`, `k1`, … */
function keyColumns(plan: SortPlan): RawBuilder<unknown> {
  return sql.join(plan.keys.map((key, i) => sql`${key} as ${sql.raw(`k${i}`)}`));
}

function keysOf(row: Record<string, unknown>, count: number): unknown[] {
  return Array.from({ length: count }, (_, i) => row[`k${i}`]);
}

/** A view's sort plan: its sorts, then its own order where it keeps keys of its own (`query.order`), else the rows'. */
async function viewSortPlan(db: Kysely<Database>, config: DatabaseConfig, databaseId: string, query: RowQuery): Promise<SortPlan> {
  // A view nobody moved rows in has no keys of its own: its order is the rows', read without a join.
  const own =
    query.order !== undefined &&
    (await db
      .selectFrom('database_view_order')
      .select('row_id')
      .where('database_id', '=', databaseId)
      .where('view_uid', '=', query.order)
      .limit(1)
      .executeTakeFirst()) !== undefined;
  return sortPlan(config, query.sorts ?? [], isPostgres(db), own ? query.order : undefined);
}

/** Every row of a view in the view's order, by id with its keys (one SQL query, never the rows' cells). */
export async function orderedRows(db: Kysely<Database>, config: DatabaseConfig, databaseId: string, query: RowQuery): Promise<RowOrder> {
  const where = whereSql(config, databaseId, query);
  const plan = await viewSortPlan(db, config, databaseId, query);
  const joins = plan.joins.length === 0 ? sql`` : sql.join(plan.joins, sql.raw(' '));
  if (query.split !== undefined) {
    const rows = await sql<Record<string, unknown> & { id: string; gtxt: string | null }>`
      select p.id, g.txt as gtxt, ${keyColumns(plan)} from pages p ${joins}
      left join database_cells g on g.row_id = p.id and g.field_id = ${query.split}
      where ${where} order by ${sql.join(plan.order)}`.execute(db);
    const ordinals = await splitGroupOrder(
      db,
      config,
      databaseId,
      query.split,
      rows.rows.flatMap((row) => (row.gtxt === null ? [] : listKeyIds(row.gtxt))),
    );
    return splitEntries(
      rows.rows.map((row) => ({ id: row.id, txt: row.gtxt, keys: keysOf(row, plan.keys.length) })),
      ordinals,
      plan.descending,
    );
  }
  if (query.bucket !== undefined) {
    const rows = await sql<BucketedRow>`
      select p.id, ${bucketColumns} ${keyColumns(plan)} from pages p ${joins} ${bucketJoins(query.bucket)}
      where ${where} order by ${sql.join(plan.order)}`.execute(db);
    const bucketed = bucketKeys(config, query.bucket, plan.descending);
    const entries = rows.rows.map((row) => ({ id: row.id, keys: bucketed.keys(row, keysOf(row, plan.keys.length)) }));
    entries.sort((a, b) => compareKeys(a.keys, b.keys, bucketed.descending));
    return { ids: entries.map((e) => e.id), keys: entries.map((e) => e.keys), descending: bucketed.descending };
  }
  const rows = await sql<
    Record<string, unknown> & { id: string }
  >`select p.id, ${keyColumns(plan)} from pages p ${joins} where ${where} order by ${sql.join(plan.order)}`.execute(db);
  return { ids: rows.rows.map((r) => r.id), keys: rows.rows.map((r) => keysOf(r, plan.keys.length)), descending: plan.descending };
}

/** A bucketed order's row as read: the group's and the sub-group's cells (`b`, `bs`) beside its keys. */
type BucketedRow = Record<string, unknown> & { id: string; bnum: number | null; bval: string | null; snum: number | null; sval: string | null };

/** The group's and the sub-group's cells a bucketed order reads (`BucketedRow`). */
const bucketColumns = sql`b.num as bnum, b.value as bval, bs.num as snum, bs.value as sval,`;

function bucketJoins(bucket: NonNullable<RowQuery['bucket']>): RawBuilder<unknown> {
  // A field not bucketed joins nothing (a cell of no field).
  return sql`left join database_cells b on b.row_id = p.id and b.field_id = ${bucket.group?.fieldId ?? ''}
    left join database_cells bs on bs.row_id = p.id and bs.field_id = ${bucket.sub?.fieldId ?? ''}`;
}

/**
 * A bucketed order's keys (`RowQuery.bucket`): the group's bucket's place in place of its raw
 * value (the first key), the sub-group's in place of the second (null: no value, last).
 */
function bucketKeys(config: DatabaseConfig, bucket: NonNullable<RowQuery['bucket']>, descending: readonly boolean[]) {
  const placeOf = (by: BucketBy | undefined) => {
    if (!by) return null;
    const field = asStoredField(config.fields, by.fieldId) as DatabaseField;
    const bucketing: Bucketing = { by: by.by, step: by.step, timeZone: bucket.timeZone, today: bucket.today };
    return (num: number | string | null, value: string | null) =>
      num === null ? null : (cellGroup(field, { txt: null, num: Number(num), sample: value, n: 0 }, bucketing).order ?? 0);
  };
  const group = placeOf(bucket.group);
  const sub = placeOf(bucket.sub);
  return {
    descending: descending.map((down, at) => ((at === 0 && group) || (at === 1 && sub) ? false : down)),
    keys(row: Pick<BucketedRow, 'bnum' | 'bval' | 'snum' | 'sval'>, keys: unknown[]): unknown[] {
      const out = [...keys];
      if (group) out[0] = group(row.bnum, row.bval);
      if (sub) out[1] = sub(row.snum, row.sval);
      return out;
    },
  };
}

/**
 * The groups a list field splits rows into, each with its place: a multi-select's options in
 * their order; a relation's live related rows among `named` (rows in the trash and templates
 * name no group) by title, then id — as a board's columns by it.
 */
async function splitGroupOrder(
  db: Kysely<Database>,
  config: DatabaseConfig,
  databaseId: string,
  fieldId: string,
  named: readonly string[],
): Promise<Map<string, number>> {
  const field = fieldOf(config, fieldId);
  if (field?.type === 'multiSelect') return new Map(field.options.map((option, at) => [option.id, at]));
  return new Map((await liveRelatedRows(db, databaseId, [...new Set(named)])).map((page, at) => [page.id, at]));
}

/** Which of `ids` are live rows of the database (not in the trash, no template), by title, then id: a relation's groups in order. */
async function liveRelatedRows(db: Kysely<Database>, databaseId: string, ids: readonly string[]): Promise<PageRow[]> {
  const live = (await findRowPages(db, databaseId, ids)).filter((page) => page.in_trash === 0);
  return live.sort((a, b) => a.title.localeCompare(b.title, 'ru') || codePointOrder(a.id, b.id));
}

/** A row's entries in a split order: a group's place for each value of its list that is a group, else one without (null: «Без значения»). */
function splitPlaces(txt: string | null, ordinals: ReadonlyMap<string, number>): Array<[string | null, number | null]> {
  const places = (txt === null ? [] : listKeyIds(txt)).flatMap((value): Array<[string, number]> => {
    const at = ordinals.get(value);
    return at === undefined ? [] : [[value, at]];
  });
  return places.length > 0 ? places : [[null, null]];
}

/** Rows in the sorts' order as a split order: the groups in their places, each group's rows in that order, «Без значения» last. */
function splitEntries(
  rows: ReadonlyArray<{ id: string; txt: string | null; keys: unknown[] }>,
  ordinals: ReadonlyMap<string, number>,
  descending: boolean[],
): RowOrder {
  const byPlace = new Map<number | null, Array<{ id: string; keys: unknown[]; group: string | null }>>();
  for (const row of rows)
    for (const [group, at] of splitPlaces(row.txt, ordinals)) {
      const entries = byPlace.get(at) ?? [];
      byPlace.set(at, entries);
      // The group's place is the first key: entries compare by it, then by the row's keys (`compareKeys`; null last).
      entries.push({ id: row.id, keys: [at, ...row.keys], group });
    }
  const places = [...byPlace.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b));
  const entries = places.flatMap((at) => byPlace.get(at)!);
  return { ids: entries.map((e) => e.id), keys: entries.map((e) => e.keys), groups: entries.map((e) => e.group), descending: [false, ...descending] };
}

/**
 * A split order's cursor (its entry's keys, then its group) as keys of the order now: the group's
 * place where it is now (the place the cursor had when the group is gone).
 */
function splitCursorKeys(order: RowOrder, cursor: readonly unknown[]): unknown[] {
  const keys = cursor.slice(0, -1);
  const group = cursor[cursor.length - 1] ?? null;
  const at = order.groups!.indexOf(group as string | null);
  if (at >= 0) keys[0] = order.keys[at][0];
  return keys;
}

/** A split order's groups in order with their counts: its runs of entries. */
function splitRuns(order: Pick<RowOrder, 'groups'>): Array<{ value: string | null; count: number }> {
  const runs: Array<{ value: string | null; count: number }> = [];
  for (const group of order.groups ?? []) {
    const last = runs[runs.length - 1];
    if (last && last.value === group) last.count += 1;
    else runs.push({ value: group, count: 1 });
  }
  return runs;
}

/**
 * A kept order brought up to date after the cells of `rowIds` were written (by this process): those
 * rows are taken out, and those the view still holds are put back where their keys now place them
 * (read in one query), so a write in a sorted or filtered field costs a read of its rows, not a sort
 * of every row. The kept order is left as it was (a new one is made).
 */
export async function reorderRows(
  db: Kysely<Database>,
  config: DatabaseConfig,
  databaseId: string,
  query: RowQuery,
  kept: RowOrder,
  rowIds: readonly string[],
): Promise<RowOrder> {
  // Split by a relation: its groups are ordered by the related rows' titles, which any write may move.
  const split = query.split;
  if (split !== undefined && fieldOf(config, split)?.type !== 'multiSelect') return orderedRows(db, config, databaseId, query);
  const where = whereSql(config, databaseId, query);
  const plan = await viewSortPlan(db, config, databaseId, query);
  const joins = plan.joins.length === 0 ? sql`` : sql.join(plan.joins, sql.raw(' '));
  const group = split === undefined ? sql`` : sql`left join database_cells g on g.row_id = p.id and g.field_id = ${split}`;
  const bucket = query.bucket;
  const read = await sql<Partial<BucketedRow> & { id: string; hit: number | string; gtxt?: string | null }>`
    select p.id, case when ${where} then 1 else 0 end as hit, ${split === undefined ? sql`` : sql`g.txt as gtxt, `}${bucket === undefined ? sql`` : bucketColumns} ${keyColumns(plan)}
    from pages p ${joins} ${group} ${bucket === undefined ? sql`` : bucketJoins(bucket)} where p.id in (${sql.join(rowIds)})`.execute(db);
  const bucketed = bucket === undefined ? null : bucketKeys(config, bucket, plan.descending);
  const moved = new Set(rowIds);
  const ids: string[] = [];
  const keys: unknown[][] = [];
  const groups: Array<string | null> = [];
  kept.ids.forEach((id, i) => {
    if (moved.has(id)) return;
    ids.push(id);
    keys.push(kept.keys[i]);
    if (kept.groups) groups.push(kept.groups[i]);
  });
  // A multi-select's groups are its options: in the block's version, which the kept order was read at.
  const ordinals = split === undefined ? null : await splitGroupOrder(db, config, databaseId, split, []);
  const descending = ordinals ? [false, ...plan.descending] : bucketed ? bucketed.descending : plan.descending;
  for (const row of read.rows) {
    if (Number(row.hit) !== 1) continue;
    const raw = keysOf(row, plan.keys.length);
    const key = bucketed ? bucketed.keys({ bnum: row.bnum ?? null, bval: row.bval ?? null, snum: row.snum ?? null, sval: row.sval ?? null }, raw) : raw;
    for (const [value, place] of ordinals ? splitPlaces(row.gtxt ?? null, ordinals) : [[null, null] as const]) {
      const entry = ordinals ? [place, ...key] : key;
      // Keys end with the row's id (a split entry's start with its group): no two entries' are equal.
      const at = indexAfter(keys, entry, descending);
      ids.splice(at, 0, row.id);
      keys.splice(at, 0, entry);
      if (ordinals) groups.splice(at, 0, value);
    }
  }
  return ordinals ? { ids, keys, descending, groups } : { ids, keys, descending };
}

/** The fields whose cells a query reads (null: every field, for «edited time/by»). */
export function queryFields(config: DatabaseConfig, query: RowQuery): string[] | null {
  const fields = new Set<string>();
  for (const rule of query.filter?.rules ?? []) for (const r of 'op' in rule ? rule.rules : [rule]) fields.add(r.fieldId);
  for (const sort of query.sorts ?? []) fields.add(sort.fieldId);
  if (query.search) fields.add(MAIN_FIELD_ID);
  if (query.group) fields.add(query.group.fieldId);
  if (query.subGroup) fields.add(query.subGroup.fieldId);
  if (query.range) fields.add(query.range.fieldId);
  if (query.undated) fields.add(query.undated);
  if (query.split !== undefined) {
    fields.add(query.split);
    // A relation's groups are ordered by the related rows' titles.
    if (fieldOf(config, query.split)?.type === 'relation') fields.add(MAIN_FIELD_ID);
  }
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
 * revisions of the rows, of the fields the view filters and sorts by, and of the view's own order
 * (`viewOrderRevision`: a move in another view leaves it) — so typing into other columns keeps it. Bounded: the least recently used entries go past MAX_ENTRIES or MAX_IDS.
 * Footers and charts' groups are kept the same way, apart (`kept`).
 */
export class ViewOrders {
  private readonly orders: KeptValues<RowOrder>;
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

  /**
   * A window of a view's rows: at `offset`, or just after the place `after` (the sort values of
   * the row a previous window ended with, `RowOrder.keys`) — the rows after it now, whatever was
   * made or moved before it since. Answers the ids, the count, where the window starts, and the
   * keys of its last row (for the next cursor).
   */
  async window(
    db: Kysely<Database>,
    database: Pick<BlockRow, 'id' | 'version'>,
    config: DatabaseConfig,
    query: RowQuery,
    window: { offset: number; limit: number; after?: readonly unknown[] },
  ): Promise<{ ids: string[]; count: number; offset: number; lastKeys: unknown[] | null }> {
    const order = await this.order(db, database, config, query);
    // After the cursor's place: the first row whose keys come after its (the order is sorted by them).
    const after = window.after && order.groups ? splitCursorKeys(order, window.after) : window.after;
    const start = after ? indexAfter(order.keys, after, order.descending) : window.offset;
    const ids = order.ids.slice(start, start + window.limit);
    const last = ids.length > 0 ? start + ids.length - 1 : -1;
    // A split order's cursor names its group too: a group's place moves when a related row is renamed or an option moved.
    const lastKeys = last < 0 ? null : order.groups ? [...order.keys[last], order.groups[last]] : order.keys[last];
    return { ids, count: order.ids.length, offset: start, lastKeys };
  }

  /** A view's rows in its order, each once (a split order's row at its first entry). */
  async ids(db: Kysely<Database>, database: Pick<BlockRow, 'id' | 'version'>, config: DatabaseConfig, query: RowQuery): Promise<string[]> {
    const { ids, groups } = await this.order(db, database, config, query);
    return groups ? [...new Set(ids)] : ids;
  }

  /** A split order's groups (`RowQuery.split`) in order with their counts — the runs its entries make —, a related row's named by its title. */
  async splitGroups(db: Kysely<Database>, database: Pick<BlockRow, 'id' | 'version'>, config: DatabaseConfig, query: RowQuery): Promise<WireGroup[]> {
    const runs = splitRuns(await this.order(db, database, config, query));
    if (query.split === undefined || fieldOf(config, query.split)?.type !== 'relation') return runs;
    const named = runs.flatMap((run) => (run.value === null ? [] : [run.value]));
    const titles = new Map((await findRowPages(db, database.id, named)).map((page) => [page.id, page.title]));
    return runs.map((run) => (run.value === null ? run : { ...run, label: titles.get(run.value) ?? '' }));
  }

  /** A view's every row in order, with their keys: kept while the rows and the fields it reads stay. */
  private async order(db: Kysely<Database>, database: Pick<BlockRow, 'id' | 'version'>, config: DatabaseConfig, query: RowQuery): Promise<RowOrder> {
    const key = `${database.id}\n${JSON.stringify([query.filter ?? null, query.sorts ?? [], query.search ?? '', query.inTrash === true, query.group ?? null, query.range ?? null, query.undated ?? null, query.order ?? null, query.split ?? null, query.subGroup ?? null, query.bucket ?? null])}`;
    // A view's own order has a counter of its own: a move in one view leaves the others' orders kept.
    const fields = queryFields(config, query);
    const order = await this.keep(
      this.orders,
      db,
      database,
      key,
      fields && query.order !== undefined ? [...fields, viewOrderRevision(query.order)] : fields,
      () => orderedRows(db, config, database.id, query),
      // The ids and their keys (and a split order's groups).
      (kept) => kept.ids.length * (kept.groups ? 3 : 2),
      (kept, rowIds) => reorderRows(db, config, database.id, query, kept, rowIds),
    );
    return order;
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

/** Fields grouped by their text as stored (folded). */
const TEXT_GROUPED: ReadonlySet<string> = new Set(['text', 'url', 'email', 'phone']);

/**
 * The groups of a view by a field, in the field's order (options' order; empty last), with their
 * counts. With `people` (a board's columns by a person or multi-select field), a list is split:
 * each user or option is a group (a row counts in each of its people's or options'), people
 * ordered by `people`'s names, then id; without it each list stored is a group (a table by a
 * person field: its runs of rows; by a multi-select, `ViewOrders.splitGroups`). With `sub` (a table's), each group has its own groups
 * by that field: runs within its run, the rows being sorted by both.
 */
export async function groupCounts(
  db: Kysely<Database>,
  config: DatabaseConfig,
  databaseId: string,
  query: RowQuery,
  fieldId: string,
  people?: (ids: string[]) => Promise<Map<string, string>>,
  /** A date field's or a number field's buckets (the view's groupBy), the zone days are counted in, and now. */
  buckets: { by?: DateGrouping; step?: number; timeZone?: string; now?: number } = {},
  /** A table's sub-groups: each group's rows grouped again by this field (with its own buckets). */
  sub?: { fieldId: string; by?: DateGrouping; step?: number },
): Promise<WireGroup[]> {
  const field = groupingField(config, databaseId, fieldId);
  if (!field) return [];
  const timeZone = buckets.timeZone ?? 'UTC';
  const today = dayNumber(buckets.now ?? Date.now(), timeZone);
  const bucketing: Bucketing = { by: buckets.by, step: buckets.step, timeZone, today };
  const where = whereSql(config, databaseId, query);
  const subField = sub && sub.fieldId !== fieldId && people === undefined ? groupingField(config, databaseId, sub.fieldId) : undefined;
  if (sub && subField) {
    // Both fields' cells of every row, counted by the pair: the groups, then each group's own.
    const rows = await sql<{
      txt: string | null;
      num: number | null;
      sample: string | null;
      stxt: string | null;
      snum: number | null;
      ssample: string | null;
      n: number | string;
    }>`
      select c.txt as txt, c.num as num, min(c.value) as sample, s.txt as stxt, s.num as snum, min(s.value) as ssample, count(*) as n
      from pages p
      left join database_cells c on c.row_id = p.id and c.field_id = ${fieldId}
      left join database_cells s on s.row_id = p.id and s.field_id = ${sub.fieldId}
      where ${where} group by c.txt, c.num, s.txt, s.num`.execute(db);
    const subBucketing: Bucketing = { by: sub.by, step: sub.step, timeZone, today };
    const groups = foldGroups(
      field,
      rows.rows.map((row) => ({ txt: row.txt, num: row.num, sample: row.sample, n: Number(row.n) })),
      bucketing,
    );
    // Each pair's group worked out once.
    const groupOf = rows.rows.map((row) => cellGroup(field, { txt: row.txt, num: row.num, sample: row.sample, n: 0 }, bucketing).value);
    return groups.map((group) => {
      const inGroup = rows.rows.filter((_row, at) => groupOf[at] === group.value);
      const groups = foldGroups(
        subField,
        inGroup.map((row) => ({ txt: row.stxt, num: row.snum, sample: row.ssample, n: Number(row.n) })),
        subBucketing,
      );
      return { ...group, groups };
    });
  }
  const rows = await sql<{ txt: string | null; num: number | null; n: number | string; sample: string | null }>`
    select c.txt as txt, c.num as num, count(*) as n, min(c.value) as sample
    from pages p left join database_cells c on c.row_id = p.id and c.field_id = ${fieldId}
    where ${where} group by c.txt, c.num`.execute(db);
  const cells = rows.rows.map((row) => ({ txt: row.txt, num: row.num, sample: row.sample, n: Number(row.n) }));
  // A board's columns by a person or multi-select field: a card in each of its people's or options' columns (a relation's: `ViewOrders.splitGroups`).
  if (people !== undefined && (field.type === 'person' || field.type === 'multiSelect')) {
    const counts = new Map<string | null, number>();
    for (const cell of cells) for (const one of cell.txt === null ? [null] : listKeyIds(cell.txt)) counts.set(one, (counts.get(one) ?? 0) + cell.n);
    if (field.type === 'multiSelect')
      return sortGroups(
        field,
        [...counts.entries()].map(([value, count]) => ({ value, count })),
      );
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
  return foldGroups(field, cells, bucketing);
}

/** The field a view's rows group by, as the type of its values (a formula's, a rollup's: `asStoredField`); none when its groups would tell a reader what they may not read. */
function groupingField(config: DatabaseConfig, databaseId: string, fieldId: string): DatabaseField | undefined {
  const own = fieldOf(config, fieldId);
  // No groups by a relation to another database: its rows' ids would reach readers who may not read it (docs/relations.md).
  // Nor by a rollup showing another database's originals (its values go to that database's readers only).
  if (!own || (own.type === 'relation' && own.databaseId !== undefined && own.databaseId !== databaseId) || foreignOriginals(databaseId, config).has(fieldId))
    return undefined;
  // A formula or a rollup groups as the type of its values (a number's ranges, a date's buckets, a
  // text, a box), as it sorts and filters; a unique ID as its number.
  return asStoredField(config.fields, fieldId) as DatabaseField;
}

/** A group field's cells as the database counted them: by value, how many rows, one of the values as stored (a text as typed). */
interface GroupCell {
  txt: string | null;
  num: number | null;
  sample: string | null;
  n: number;
}

/** How a date's or a number's rows fall into buckets (schema/groupBuckets.ts), days counted in the formulas' zone. */
interface Bucketing {
  by?: DateGrouping;
  step?: number;
  timeZone: string;
  today: number;
}

/** The group a cell falls in: its value (a bucket's key, a text as stored, an option, a box), and for a bucket its label and place, for a text as typed. */
function cellGroup(field: DatabaseField, cell: GroupCell, bucketing: Bucketing): { value: string | boolean | null; label?: string; order?: number } {
  if (field.type === 'date' || field.type === 'number') {
    if (cell.num === null) return { value: null };
    // A date without a time is that day wherever one is (stored at its UTC midnight): its day is
    // read in UTC, else a zone west of UTC would put it a day early; a moment's, in the zone.
    const bucket =
      field.type === 'date'
        ? dateBucket(Number(cell.num), bucketing.by ?? 'relative', dateOnly(cell.sample) ? 'UTC' : bucketing.timeZone, bucketing.today)
        : numberBucket(Number(cell.num), bucketing.step ?? 10);
    return { value: bucket.key, label: bucket.label, order: bucket.order };
  }
  // Texts as stored (folded: «Москва» and «москва» are one group); named as one of them was typed.
  if (TEXT_GROUPED.has(field.type))
    return cell.txt === null ? { value: null } : { value: cell.txt, label: cell.sample === null ? cell.txt : String(JSON.parse(cell.sample)) };
  if (field.type === 'checkbox') return { value: cell.num === 1 };
  return { value: cell.txt === null && cell.num === null ? null : (cell.txt ?? String(cell.num)) };
}

/** Whether a date cell's value as stored (`{ start, end }` JSON) is a day without a time. */
function dateOnly(sample: string | null): boolean {
  if (sample === null) return false;
  try {
    const value = JSON.parse(sample) as unknown;
    const start = typeof value === 'string' ? value : (value as { start?: unknown } | null)?.start;
    return typeof start === 'string' && !start.includes('T');
  } catch {
    return false;
  }
}

/** Cells into groups in the order the rows sorted by the field run: buckets ascending, texts by code point, options in their order; «Без значения» last. */
function foldGroups(field: DatabaseField, cells: readonly GroupCell[], bucketing: Bucketing): WireGroup[] {
  const found = new Map<string | boolean | null, { group: WireGroup; order: number; sample: string | null }>();
  for (const cell of cells) {
    const { value, label, order = 0 } = cellGroup(field, cell, bucketing);
    const known = found.get(value);
    if (!known) {
      found.set(value, { group: { value, ...(label !== undefined ? { label } : {}), count: cell.n }, order, sample: cell.sample });
      continue;
    }
    known.group.count += cell.n;
    // The same text in several cells (a sub-group's rows): named by the first as stored, as one read would.
    if (TEXT_GROUPED.has(field.type) && cell.sample !== null && (known.sample === null || cell.sample < known.sample)) {
      known.sample = cell.sample;
      known.group.label = String(JSON.parse(cell.sample));
    }
  }
  const all = [...found.values()];
  const empty = all.filter((entry) => entry.group.value === null).map((entry) => entry.group);
  const some = all.filter((entry) => entry.group.value !== null);
  if (field.type === 'date' || field.type === 'number') return [...some.sort((a, b) => a.order - b.order).map((entry) => entry.group), ...empty];
  if (TEXT_GROUPED.has(field.type)) return [...some.map((entry) => entry.group).sort((a, b) => codePointOrder(String(a.value), String(b.value))), ...empty];
  return sortGroups(
    field,
    all.map((entry) => entry.group),
  );
}

/** Groups by an option's place among the field's options (others after them), else by value; «Без значения» last. */
function sortGroups(field: DatabaseField, groups: WireGroup[]): WireGroup[] {
  const order = (value: string | boolean | null): number => {
    if (value === null) return Number.MAX_SAFE_INTEGER;
    if (hasOptions(field) && typeof value === 'string') {
      const at = field.options.findIndex((o) => o.id === value);
      return at < 0 ? Number.MAX_SAFE_INTEGER - 1 : at;
    }
    return 0;
  };
  return groups.sort((a, b) => order(a.value) - order(b.value) || String(a.value).localeCompare(String(b.value)));
}

/**
 * The live rows of a database copied into another (a block clone of the database): each row a
 * new page at the same place and order, with its blocks and its cells (version 1). Rows in the
 * trash stay behind; a row's own sub-pages and comments are not copied. The views' own orders come
 * along under the copy's views (`views`: old uid → new). Call in the transaction that made the copy's block.
 */
export async function cloneDatabaseRows(
  trx: Transaction<Database>,
  fromId: string,
  toId: string,
  userId: string,
  views: ReadonlyMap<string, string> = new Map(),
  /** The page holding the copy, when another than the original's (a row made from a template): the rows go under it. */
  holder?: PageRow,
): Promise<number> {
  const now = nowIso();
  let copied = 0;
  let after = '';
  // The row templates come along (still templates): the copy's default is the copy of the original's.
  const templates = new Map<string, string>();
  for (;;) {
    const rows = await trx
      .selectFrom('pages')
      .selectAll()
      .where('database_id', '=', fromId)
      .where('in_trash', 'in', [0, ROW_TEMPLATE])
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute();
    if (rows.length === 0) {
      if (templates.size > 0) await defaultTemplateCopied(trx, fromId, toId, templates);
      return copied;
    }
    after = rows[rows.length - 1].id;
    const ids = new Map<string, string>([[fromId, toId], ...rows.map((row) => [row.id, newId()] as [string, string])]);
    for (const row of rows) if (row.in_trash === ROW_TEMPLATE) templates.set(row.id, ids.get(row.id)!);
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
      ...(holder ? { parent_id: holder.id, path: JSON.stringify(childPath(holder)), workspace_id: holder.workspace_id } : {}),
      is_public: 0,
      in_trash: row.in_trash === ROW_TEMPLATE ? ROW_TEMPLATE : 0,
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
    await assertSyncedBlocks(trx, blockCopies.map(storedSynced));
    for (const chunk of inChunks(blockCopies, 200)) await trx.insertInto('blocks').values(chunk).execute();
    await noteReminders(trx, blockCopies.map(writtenBlock));
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
    await copyRowLinks(
      trx,
      rows.map((row) => row.id),
      ids,
      () => toId,
    );
    await cloneViewKeys(trx, fromId, toId, views, new Map(rows.map((row) => [row.id, ids.get(row.id)!])));
    copied += rows.filter((row) => row.in_trash === 0).length;
  }
}

/** A copied database's default row template: the copy of the original's (`copies`: template → its copy), else none. */
async function defaultTemplateCopied(trx: Transaction<Database>, fromId: string, toId: string, copies: ReadonlyMap<string, string>): Promise<void> {
  const [original, copy] = await Promise.all([findDatabaseBlock(trx, fromId), findDatabaseBlock(trx, toId)]);
  if (!original || !copy) return;
  const data = databaseData(copy);
  const wanted = databaseData(original).defaultTemplate;
  const defaultTemplate = typeof wanted === 'string' ? (copies.get(wanted) ?? null) : null;
  if ((data.defaultTemplate ?? null) === defaultTemplate) return;
  await trx
    .updateTable('blocks')
    .set({ data: JSON.stringify({ ...data, defaultTemplate }) })
    .where('id', '=', toId)
    .execute();
}

/**
 * The links of copied rows (docs/relations.md «Rollups»), as their cells are copied: from the
 * copies (`ids`: original → copy) in their database (`databaseOf`: the original's → the copy's),
 * to the rows the cells name.
 */
export async function copyRowLinks(
  trx: Kysely<Database>,
  rowIds: readonly string[],
  ids: ReadonlyMap<string, string>,
  databaseOf: (databaseId: string) => string,
): Promise<void> {
  for (const chunk of inChunks(rowIds)) {
    const links = await trx.selectFrom('row_links').selectAll().where('from_row', 'in', chunk).execute();
    const copies = links.flatMap((link) => {
      const from = ids.get(link.from_row);
      return from ? [{ ...link, from_row: from, database_id: databaseOf(link.database_id) }] : [];
    });
    for (const part of inChunks(copies, 100)) await trx.insertInto('row_links').values(part).execute();
  }
}

/** PostgreSQL's statistics of the rows' tables brought up to date (after a big import: the next reads plan with the rows there). */
export async function analyzeRowTables(db: Kysely<Database>): Promise<void> {
  await sql`analyze pages, database_cells`.execute(db);
}
