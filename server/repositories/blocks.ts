import { generateKeyBetween } from 'fractional-indexing';
import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import type { BlockData, WireBlock } from '../../schema/block';
import { valuesFitting, type BlockWireType, type DatabaseConfig, type RowValue } from '../../schema/blocks';
import { newId } from '../../schema/ids';
import { presentBlockRow } from '../presenters';
import type { BlockRow, Database, PageRow } from '../db/types';
import { isPostgres } from '../db/connect';
import { inChunks } from '../db/inChunks';
import { bumpRevisions, ROWS_REVISION } from './databaseRevisions';
import { syncDatabaseLayouts, withFreshLayoutUids } from './databaseLayouts';
import { cloneDatabaseRows } from './databases';
import { remapBlockData } from './clonePages';
import { precompiled } from '../db/precompiled';
import { nowIso } from '../time';
import { holdsReminder, noteReminders, writtenBlock } from '../reminders/note';
import { assertSyncedBlocks, storedSynced } from './syncedContent';

/** Types whose blocks keep their type for life: a database and its rows are made as such. */
export const FIXED_BLOCK_TYPES: readonly BlockWireType[] = ['database', 'databaseRow'];

/** A block by id, deleted or not. */
export function findBlock(db: Kysely<Database>, id: string): Promise<BlockRow | undefined> {
  return db.selectFrom('blocks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Blocks by id (those that exist, live or not). */
export async function findBlocks(db: Kysely<Database>, ids: readonly string[]): Promise<BlockRow[]> {
  return ids.length === 0 ? [] : db.selectFrom('blocks').selectAll().where('id', 'in', ids).execute();
}

/** A block by id, unless it is deleted. */
export function findLiveBlock(db: Kysely<Database>, id: string): Promise<BlockRow | undefined> {
  return db.selectFrom('blocks').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** The columns a block shows on the wire. */
const WIRE_COLUMNS = ['id', 'page_id', 'parent_id', 'type', 'version', 'data'] as const;
type WireColumns = Pick<BlockRow, (typeof WIRE_COLUMNS)[number]>;

/** Rows grouped by parent, keeping their order (the query sorts siblings by sort_key, id). */
function childrenByParent<R extends Pick<BlockRow, 'parent_id'>>(rows: readonly R[]): Map<string | null, R[]> {
  const children = new Map<string | null, R[]>();
  for (const row of rows) {
    const siblings = children.get(row.parent_id);
    if (siblings) siblings.push(row);
    else children.set(row.parent_id, [row]);
  }
  return children;
}

/** Rows a page listing reads at a time: one slice is a few milliseconds of work on either database. */
export const LIST_SLICE_ROWS = 1000;

/** Lets other requests run between two slices of a long read or write-out (the event loop turns once). */
export const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A block in document order: its row and its previous live sibling. */
export interface PlacedRow {
  row: WireColumns;
  placeAfter: string | null;
}

/**
 * The live rows of a page, read in slices of LIST_SLICE_ROWS in the order of the (page_id,
 * parent_id, sort_key) index, the top-level blocks first, with the event loop free between two
 * slices: a page of 20,000 blocks does not hold up every other request while it is read (on
 * SQLite a read is synchronous). The slices are not one snapshot: a block moved between two
 * slices may be read twice (the first copy is kept) or not at all. Callers hand out the time taken
 * before the read (`meta.at`), and the history since then holds every such block.
 */
async function readPageRows(db: Kysely<Database>, pageId: string, afterSlice?: () => Promise<void>): Promise<WireColumns[]> {
  const rows: WireColumns[] = [];
  const seen = new Set<string>();
  const keep = (slice: WireColumns[]) => {
    for (const row of slice) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      rows.push(row);
    }
  };
  // Top-level blocks: parent_id IS NULL, by (sort_key, id).
  let last: { sort_key: string; id: string } | null = null;
  for (;;) {
    let query = db
      .selectFrom('blocks')
      .select([...WIRE_COLUMNS, 'sort_key'])
      .where('page_id', '=', pageId)
      .where('parent_id', 'is', null)
      .where('deleted_at', 'is', null);
    if (last) {
      const after = last;
      query = query.where((eb) => eb(eb.refTuple('sort_key', 'id'), '>', eb.tuple(after.sort_key, after.id)));
    }
    const slice = await query.orderBy('parent_id').orderBy('sort_key').orderBy('id').limit(LIST_SLICE_ROWS).execute();
    keep(slice);
    await afterSlice?.();
    if (slice.length < LIST_SLICE_ROWS) break;
    last = slice[slice.length - 1];
    await yieldToOthers();
  }
  // Nested blocks, by (parent_id, sort_key, id).
  let lastNested: { parent_id: string; sort_key: string; id: string } | null = null;
  for (;;) {
    let query = db
      .selectFrom('blocks')
      .select([...WIRE_COLUMNS, 'sort_key'])
      .where('page_id', '=', pageId)
      .where('parent_id', 'is not', null)
      .where('deleted_at', 'is', null);
    if (lastNested) {
      const after = lastNested;
      query = query.where((eb) => eb(eb.refTuple('parent_id', 'sort_key', 'id'), '>', eb.tuple(after.parent_id, after.sort_key, after.id)));
    }
    const slice = await query.orderBy('parent_id').orderBy('sort_key').orderBy('id').limit(LIST_SLICE_ROWS).execute();
    keep(slice);
    await afterSlice?.();
    if (slice.length < LIST_SLICE_ROWS) break;
    const end = slice[slice.length - 1];
    lastNested = { parent_id: end.parent_id as string, sort_key: end.sort_key, id: end.id };
    await yieldToOthers();
  }
  // A block moved while the slices were read may have been missed; its children (unchanged, so
  // not in the realtime history either) would go with it. Parents not read are read now, by id,
  // until every read block's parent is there (or is gone: deleted, its children with it).
  for (let round = 0; round < 64; round++) {
    const missing = [...new Set(rows.flatMap((row) => (row.parent_id !== null && !seen.has(row.parent_id) ? [row.parent_id] : [])))];
    if (missing.length === 0) break;
    let found = 0;
    for (let at = 0; at < missing.length; at += 500) {
      const parents = await db
        .selectFrom('blocks')
        .select([...WIRE_COLUMNS, 'sort_key'])
        .where('page_id', '=', pageId)
        .where('id', 'in', missing.slice(at, at + 500))
        .where('deleted_at', 'is', null)
        .execute();
      found += parents.length;
      keep(parents);
    }
    if (found === 0) break;
  }
  return rows;
}

/** Rows in document order (depth first from the top level), each with its previous sibling; rows whose parent is not among them are left out. */
function placeInOrder(rows: readonly WireColumns[], limit = Infinity): PlacedRow[] {
  const children = childrenByParent(rows);
  const out: PlacedRow[] = [];
  const visited = new Set<string>();
  const walk = (parentId: string | null) => {
    let previous: string | null = null;
    for (const row of children.get(parentId) ?? []) {
      if (out.length >= limit) return;
      if (visited.has(row.id)) continue;
      visited.add(row.id);
      out.push({ row, placeAfter: previous });
      previous = row.id;
      walk(row.id);
    }
  };
  walk(null);
  return out;
}

/** The live blocks of a page in document order (depth first), each with its parent and previous sibling. */
export async function listPageBlockRows(
  db: Kysely<Database>,
  pageId: string,
  options: { /** Tests: runs after each slice is read (another writer's turn). */ afterSlice?: () => Promise<void> } = {},
): Promise<PlacedRow[]> {
  return placeInOrder(await readPageRows(db, pageId, options.afterSlice));
}

/**
 * The first `limit` live blocks of a page in document order (the top of a page, shown while the
 * rest loads), and whether there are more: the first limit + 1 top-level blocks and, level by
 * level, their descendants.
 */
export async function listPageHead(db: Kysely<Database>, pageId: string, limit: number): Promise<{ blocks: PlacedRow[]; hasMore: boolean }> {
  const roots = await db
    .selectFrom('blocks')
    .select(WIRE_COLUMNS)
    .where('page_id', '=', pageId)
    .where('parent_id', 'is', null)
    .where('deleted_at', 'is', null)
    .orderBy('parent_id')
    .orderBy('sort_key')
    .orderBy('id')
    .limit(limit + 1)
    .execute();
  const rows: WireColumns[] = [...roots];
  let parents = roots.map((r) => r.id);
  while (parents.length > 0 && rows.length <= limit * 4) {
    const level: WireColumns[] = [];
    for (let at = 0; at < parents.length; at += 500) {
      level.push(
        ...(await db
          .selectFrom('blocks')
          .select(WIRE_COLUMNS)
          .where('page_id', '=', pageId)
          .where('parent_id', 'in', parents.slice(at, at + 500))
          .where('deleted_at', 'is', null)
          .orderBy('parent_id')
          .orderBy('sort_key')
          .orderBy('id')
          .execute()),
      );
    }
    rows.push(...level);
    parents = level.map((r) => r.id);
  }
  const placed = placeInOrder(rows, limit + 1);
  return { blocks: placed.slice(0, limit), hasMore: placed.length > limit };
}

/** A placed row as the wire shows it. */
export function presentPlacedRow({ row, placeAfter }: PlacedRow): WireBlock {
  return presentBlockRow(row, placeAfter);
}

/**
 * A placed row as the wire's JSON text, without parsing the stored data (it is JSON the server
 * wrote). Same fields, same order as presentBlockRow.
 */
export function placedRowJson({ row, placeAfter }: PlacedRow): string {
  return `{"id":${JSON.stringify(row.id)},"contentType":"Block","pageId":${JSON.stringify(row.page_id)},"type":${JSON.stringify(row.type)},"version":${row.version},"parentId":${JSON.stringify(row.parent_id)},"placeAfter":${JSON.stringify(placeAfter)},"data":${row.data}}`;
}

/** The live blocks of a page in document order (depth first), each with its parent and previous sibling. */
export async function listPageBlocks(db: Kysely<Database>, pageId: string): Promise<WireBlock[]> {
  return (await listPageBlockRows(db, pageId)).map(presentPlacedRow);
}

/** A live block and its live descendants, in document order. */
export async function listSubtree(db: Kysely<Database>, block: BlockRow): Promise<WireBlock[]> {
  const all = await listPageBlocks(db, block.page_id);
  const start = all.findIndex((b) => b.id === block.id);
  if (start < 0) return [];
  const inTree = new Set([block.id]);
  const out = [all[start]];
  for (const b of all.slice(start + 1)) {
    if (b.parentId === null || !inTree.has(b.parentId)) break;
    inTree.add(b.id);
    out.push(b);
  }
  return out;
}

/** One block as the wire shows it, with its previous live sibling computed. */
export async function presentBlock(db: Kysely<Database>, row: BlockRow): Promise<WireBlock> {
  let query = db
    .selectFrom('blocks')
    .select('id')
    .where('page_id', '=', row.page_id)
    .where('deleted_at', 'is', null)
    // A row-value comparison walks the (page, parent, sort_key) index backwards from this block.
    .where((eb) => eb(eb.refTuple('sort_key', 'id'), '<', eb.tuple(row.sort_key, row.id)));
  query = row.parent_id === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', row.parent_id);
  // parent_id leads the order too: PostgreSQL walks the index for `parent_id IS NULL` only when
  // the order names it (else it reads every earlier sibling and sorts them).
  const previous = await query.orderBy('parent_id', 'desc').orderBy('sort_key', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return presentBlockRow(row, previous?.id ?? null);
}

/**
 * The sort key for a block placed right after `placeAfter` (null: first) among a parent's children.
 * Deleted siblings keep their keys, so the new key never equals one a restore brings back.
 */
export async function sortKeyAfter(db: Kysely<Database>, pageId: string, parentId: string | null, placeAfter: BlockRow | null): Promise<string> {
  let next = db.selectFrom('blocks').select(['sort_key', 'id']).where('page_id', '=', pageId);
  next = parentId === null ? next.where('parent_id', 'is', null) : next.where('parent_id', '=', parentId);
  if (placeAfter) {
    const key = placeAfter.sort_key;
    next = next.where((eb) => eb.or([eb('sort_key', '>', key), eb.and([eb('sort_key', '=', key), eb('id', '>', placeAfter.id)])]));
  }
  const following = await next.orderBy('parent_id').orderBy('sort_key').orderBy('id').limit(1).executeTakeFirst();
  const low = placeAfter?.sort_key ?? null;
  const high = following && following.sort_key !== low ? following.sort_key : null;
  if (following && high === null) {
    // Two siblings share a key (concurrent inserts at one spot): place after both, before whatever follows them.
    return sortKeyAfter(db, pageId, parentId, (await findBlock(db, following.id)) ?? null);
  }
  return generateKeyBetween(low, high);
}

export interface InsertBlockInput {
  id: string;
  pageId: string;
  parentId: string | null;
  sortKey: string;
  type: BlockWireType;
  data: BlockData;
  userId: string;
  /** The client that made it (X-Client-Id): its own retries are not conflicts (docs/realtime.md). */
  origin?: string | null;
}

function newBlockRow(input: InsertBlockInput, now: string): BlockRow {
  return {
    id: input.id,
    page_id: input.pageId,
    parent_id: input.parentId,
    sort_key: input.sortKey,
    type: input.type,
    data: JSON.stringify(input.data),
    version: 1,
    created_at: now,
    updated_at: now,
    updated_by: input.userId,
    deleted_at: null,
    origin: input.origin ?? null,
    // The run of writes of its maker starts with the block itself.
    origin_since: input.origin ? 0 : null,
  };
}

export async function insertBlock(db: Kysely<Database>, input: InsertBlockInput, now = nowIso()): Promise<BlockRow> {
  return (await insertBlockRows(db, [input], now))[0];
}

/** A block's reminders noted after a write that knows its id alone (its page read only when it holds one). */
async function noteRemindersOf(db: Kysely<Database>, id: string, data: unknown, userId: string): Promise<void> {
  if (!holdsReminder(data)) return;
  const block = await db.selectFrom('blocks').select('page_id').where('id', '=', id).executeTakeFirst();
  if (block) await noteReminders(db, [{ id, pageId: block.page_id, data, userId }]);
}

/** An update making a block a synced one (or changing the content it names): checked on the block's page (`assertSyncedBlocks`); any other type costs nothing. */
async function assertSyncedUpdate(db: Kysely<Database>, id: string, type: BlockWireType, data: BlockData): Promise<void> {
  if (type !== 'synced') return;
  const block = await db.selectFrom('blocks').select('page_id').where('id', '=', id).executeTakeFirst();
  if (block) await assertSyncedBlocks(db, [{ pageId: block.page_id, type, data }]);
}

/** Blocks made together (an import's page), a few hundred to a statement, parents before their children. */
export async function insertBlockRows(db: Kysely<Database>, inputs: readonly InsertBlockInput[], now = nowIso()): Promise<BlockRow[]> {
  await assertSyncedBlocks(db, inputs);
  const rows = inputs.map((input) => newBlockRow(input, now));
  // 13 columns a row: 200 rows stay well under SQLite's and PostgreSQL's limits on bound parameters.
  for (const chunk of inChunks(rows, 200)) await db.insertInto('blocks').values(chunk).execute();
  for (const [at, row] of rows.entries()) if (row.type === 'database') await syncDatabaseLayouts(db, row.id, inputs[at].data, row.created_at);
  await noteReminders(db, rows.map(writtenBlock));
  return rows;
}

/**
 * A create that names a deleted block of the same page brings that block back with the new
 * content and place (an undo of a delete, or an edit of a block someone else deleted). Its
 * version goes on from the deleted one's. Null when it is not deleted any more (a parallel revive).
 */
export async function reviveBlock(db: Kysely<Database>, deleted: BlockRow, input: Omit<InsertBlockInput, 'id' | 'pageId'>): Promise<BlockRow | null> {
  await assertSyncedBlocks(db, [{ pageId: deleted.page_id, type: input.type, data: input.data }]);
  const now = nowIso();
  const set = {
    parent_id: input.parentId,
    sort_key: input.sortKey,
    type: input.type,
    data: JSON.stringify(input.data),
    version: deleted.version + 1,
    updated_at: now,
    updated_by: input.userId,
    deleted_at: null,
    // Whoever brings it back starts a new run of writes: an older writer's late retry is a conflict now.
    origin: input.origin ?? null,
    origin_since: input.origin ? deleted.version : null,
  };
  const result = await db
    .updateTable('blocks')
    .set(set)
    .where('id', '=', deleted.id)
    .where('version', '=', deleted.version)
    .where('deleted_at', 'is not', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  if (deleted.type === 'database' || input.type === 'database') await syncDatabaseLayouts(db, deleted.id, input.type === 'database' ? input.data : null, now);
  if (deleted.type === 'database' && deleted.deleted_at !== null) await setRowsOfDatabasesTrashed(db, [deleted.id], deleted.deleted_at, false);
  await noteReminders(db, [{ id: deleted.id, pageId: deleted.page_id, data: set.data, userId: input.userId }]);
  return { ...deleted, ...set };
}

/** Deletes one block (not its children) at `at`, by `userId`. */
export async function deleteBlockRow(db: Kysely<Database>, id: string, at: string, userId: string): Promise<void> {
  await db.updateTable('blocks').set({ deleted_at: at, updated_at: at, updated_by: userId }).where('id', '=', id).execute();
}

/**
 * Puts a block (live or deleted) back as a state it had: type, data and place, live, its version
 * raised by one and its run of writes ended (a page history restore: docs/history.md).
 */
export async function rewriteBlock(
  db: Kysely<Database>,
  row: BlockRow,
  state: { type: string; data: unknown; parentId: string | null; sortKey: string },
  at: string,
  userId: string,
): Promise<void> {
  await assertSyncedBlocks(db, [{ pageId: row.page_id, type: state.type, data: state.data }]);
  await db
    .updateTable('blocks')
    .set({
      type: state.type,
      data: JSON.stringify(state.data),
      parent_id: state.parentId,
      sort_key: state.sortKey,
      deleted_at: null,
      version: row.version + 1,
      updated_at: at,
      updated_by: userId,
      origin: null,
      origin_since: null,
    })
    .where('id', '=', row.id)
    .execute();
  await noteReminders(db, [{ id: row.id, pageId: row.page_id, data: state.data, userId }]);
}

/**
 * Optimistic-concurrency update: applies only if the block is live and still at `baseVersion`.
 * Returns the new version, or null when the block moved on (or is gone).
 */
export async function updateBlockIfVersion(
  db: Kysely<Database>,
  id: string,
  baseVersion: number,
  type: BlockWireType,
  data: BlockData,
  userId: string,
  origin: string | null = null,
  now: string = nowIso(),
): Promise<number | null> {
  await assertSyncedUpdate(db, id, type, data);
  const result = await db
    .updateTable('blocks')
    .set((eb) => ({
      type,
      data: JSON.stringify(data),
      version: baseVersion + 1,
      updated_at: now,
      updated_by: userId,
      origin,
      origin_since: eb.case().when('origin', '=', origin).then(eb.ref('origin_since')).else(eb.ref('version')).end(),
    }))
    .where('id', '=', id)
    .where('version', '=', baseVersion)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  // A database's views (added, deleted) are looked up by their uids: kept in the same transaction.
  if (type === 'database') await syncDatabaseLayouts(db, id, data, now);
  await noteRemindersOf(db, id, data, userId);
  return baseVersion + 1;
}

/** The id of the live sibling right before `blocks` (the row of the surrounding statement), null when first. */
function previousSiblingOf(eb: ExpressionBuilder<Database, 'blocks'>, parent: 'null' | 'same') {
  let query = eb
    .selectFrom('blocks as sibling')
    .select('sibling.id')
    .whereRef('sibling.page_id', '=', 'blocks.page_id')
    .where('sibling.deleted_at', 'is', null)
    .where((s) => s(s.refTuple('sibling.sort_key', 'sibling.id'), '<', s.refTuple('blocks.sort_key', 'blocks.id')));
  query = parent === 'null' ? query.where('sibling.parent_id', 'is', null) : query.whereRef('sibling.parent_id', '=', 'blocks.parent_id');
  // parent_id leads the order so PostgreSQL walks the (page, parent, sort_key, id) index
  // backwards for top-level blocks too (`IS NULL` alone makes it read and sort every sibling).
  return query.orderBy('sibling.parent_id', 'desc').orderBy('sibling.sort_key', 'desc').orderBy('sibling.id', 'desc').limit(1);
}

const updateContentStatement = precompiled(
  (db, a: { id: string; baseVersion: number; type: BlockWireType; data: string; now: string; userId: string; origin: string | null }) =>
    db
      .updateTable('blocks')
      .set((eb) => ({
        type: a.type,
        data: a.data,
        version: eb('version', '+', 1),
        updated_at: a.now,
        updated_by: a.userId,
        origin: a.origin,
        // The run of writes of one client starts at the version its first write was based on.
        origin_since: eb.case().when('origin', '=', a.origin).then(eb.ref('origin_since')).else(eb.ref('version')).end(),
      }))
      .where('id', '=', a.id)
      .where((eb) =>
        eb.or([
          eb('version', '=', a.baseVersion),
          // A retry of this client's own write whose answer was lost: based on a version inside its run.
          eb.and([eb('origin', '=', a.origin), eb('origin_since', '<=', a.baseVersion), eb('version', '>=', a.baseVersion)]),
        ]),
      )
      .where('deleted_at', 'is', null)
      .where('type', 'not in', FIXED_BLOCK_TYPES)
      .returning(['id', 'page_id', 'parent_id', 'version'])
      .returning((eb) =>
        eb.case().when('blocks.parent_id', 'is', null).then(previousSiblingOf(eb, 'null')).else(previousSiblingOf(eb, 'same')).end().as('place_after'),
      ),
);

/**
 * The hot path of typing: a live block that is not a database or a row gets new content if its
 * version is still `baseVersion`, in one statement that also returns the block as the wire
 * shows it (the previous sibling is found by the same statement, one round trip on PostgreSQL).
 * A write from `origin` (a client id) based on a version that client itself made since the last
 * write of anyone else is applied too: it is a retry whose answer was lost, and its text replaces
 * the client's own earlier text (docs/realtime.md, idempotent retries). Undefined when nothing
 * changed: the caller finds out why (gone, other type, stale version).
 */
export async function updateContentIfVersion(
  db: Kysely<Database>,
  id: string,
  baseVersion: number,
  type: BlockWireType,
  data: BlockData,
  userId: string,
  origin: string | null = null,
  now: string = nowIso(),
): Promise<WireBlock | undefined> {
  await assertSyncedUpdate(db, id, type, data);
  const text = JSON.stringify(data);
  const [row] = await updateContentStatement(db, { id, baseVersion, type, data: text, now, userId, origin });
  if (!row) return undefined;
  await noteReminders(db, [{ id, pageId: row.page_id, data: text, userId }]);
  return {
    id: row.id,
    contentType: 'Block',
    pageId: row.page_id,
    type,
    version: row.version,
    parentId: row.parent_id,
    placeAfter: row.place_after ?? null,
    data,
  };
}

/** Ids of `rootId` and every block below it among `rows`, walking only through rows that `follow` accepts. */
function subtreeIds(
  rows: ReadonlyArray<Pick<BlockRow, 'id' | 'parent_id' | 'deleted_at'>>,
  rootId: string,
  follow: (row: Pick<BlockRow, 'deleted_at'>) => boolean,
): string[] {
  const ids = [rootId];
  const inTree = new Set(ids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const row of rows) {
      if (row.parent_id && inTree.has(row.parent_id) && !inTree.has(row.id) && follow(row)) {
        inTree.add(row.id);
        ids.push(row.id);
        grew = true;
      }
    }
  }
  return ids;
}

/** True when `candidateId` is `block` itself or lies anywhere below it. */
export async function isInSubtree(db: Kysely<Database>, block: BlockRow, candidateId: string): Promise<boolean> {
  const rows = await db.selectFrom('blocks').select(['id', 'parent_id', 'deleted_at']).where('page_id', '=', block.page_id).execute();
  return subtreeIds(rows, block.id, () => true).includes(candidateId);
}

/**
 * Marks a block and its live descendants deleted. They share one deletion stamp, unique within
 * the page (the page's block lock is held), so a restore brings back exactly what this delete
 * took away (not a child deleted on its own before).
 */
export async function softDeleteBlockTree(
  trx: Transaction<Database>,
  block: BlockRow,
  /** Delete only if the block is still at this version (or a later one of the same client's run): else null, nothing deleted. */
  guard?: { base: number; origin: string | null },
): Promise<Array<{ id: string; version: number }> | null> {
  const [result] = await softDeleteBlockTrees(trx, block.page_id, [{ id: block.id, guard }]);
  return Array.isArray(result) ? result : null;
}

/**
 * Deletes several blocks of one page (each with its live descendants, each with a stamp of its
 * own, as one delete after the other), reading the page's rows once. Per block: the ids and
 * versions removed, `gone` (not a live block of the page) or `conflict` (its guard's version
 * has moved on: nothing of it deleted).
 */
export async function softDeleteBlockTrees(
  trx: Transaction<Database>,
  pageId: string,
  items: ReadonlyArray<{ id: string; guard?: { base: number; origin: string | null } }>,
): Promise<Array<Array<{ id: string; version: number }> | 'gone' | 'conflict'>> {
  const rows = await trx.selectFrom('blocks').select(['id', 'parent_id', 'deleted_at', 'version', 'type']).where('page_id', '=', pageId).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const children = childrenByParent(rows);
  let latest = rows.reduce<string | null>((max, r) => (r.deleted_at && (!max || r.deleted_at > max) ? r.deleted_at : max), null);
  const out = new Array<Array<{ id: string; version: number }> | 'gone' | 'conflict'>(items.length);
  // The deepest first: a block named with its version is checked before an ancestor named too
  // takes it away with its subtree; an ancestor of one refused (someone typed into it) is refused
  // as well, or it would take that text with it.
  const depths = items.map(({ id }) => {
    let d = 0;
    for (let row = byId.get(id); row?.parent_id; row = byId.get(row.parent_id)) d++;
    return d;
  });
  const order = items.map((_, i) => i).sort((a, b) => depths[b] - depths[a]);
  const refusedIds = new Set<string>();
  const holdsRefused = (id: string) => {
    const stack = [id];
    while (stack.length > 0) {
      for (const child of children.get(stack.pop()!) ?? []) {
        if (child.deleted_at !== null) continue;
        if (refusedIds.has(child.id)) return true;
        stack.push(child.id);
      }
    }
    return false;
  };
  for (const at of order) {
    const { id, guard } = items[at];
    const row = byId.get(id);
    if (!row || row.deleted_at !== null) {
      out[at] = 'gone';
      continue;
    }
    if (refusedIds.size > 0 && holdsRefused(id)) {
      refusedIds.add(id);
      out[at] = 'conflict';
      continue;
    }
    let stamp = nowIso();
    if (latest && latest >= stamp) stamp = new Date(Date.parse(latest) + 1).toISOString();
    if (guard) {
      // The version is checked by the same statement that deletes the block: an update committed
      // a moment earlier (the hot path takes no lock) makes this delete a conflict, never lost.
      const { base, origin } = guard;
      const root = await trx
        .updateTable('blocks')
        .set({ deleted_at: stamp })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .where((eb) => eb.or([eb('version', '=', base), eb.and([eb('origin', '=', origin), eb('origin_since', '<=', base), eb('version', '>=', base)])]))
        .executeTakeFirst();
      if (Number(root.numUpdatedRows) !== 1) {
        refusedIds.add(id);
        out[at] = 'conflict';
        continue;
      }
    }
    latest = stamp;
    const subtree = [row];
    for (let i = 0; i < subtree.length; i++) for (const child of children.get(subtree[i].id) ?? []) if (child.deleted_at === null) subtree.push(child);
    const ids = subtree.map((r) => r.id);
    for (let i = 0; i < ids.length; i += 500) {
      await trx
        .updateTable('blocks')
        .set({ deleted_at: stamp })
        .where('id', 'in', ids.slice(i, i + 500))
        .where('deleted_at', 'is', null)
        .execute();
    }
    for (const r of subtree) r.deleted_at = stamp;
    const databases = subtree.filter((r) => r.type === 'database').map((r) => r.id);
    if (databases.length > 0) await setRowsOfDatabasesTrashed(trx, databases, stamp, true);
    out[at] = subtree.map((r) => ({ id: r.id, version: r.version }));
  }
  return out;
}

/** Brings back a deleted block and the descendants deleted together with it; they keep their places (sort keys). */
export async function restoreBlockTree(trx: Transaction<Database>, block: BlockRow): Promise<void> {
  const stamp = block.deleted_at;
  if (stamp === null) return;
  const rows = await trx.selectFrom('blocks').select(['id', 'parent_id', 'deleted_at', 'type']).where('page_id', '=', block.page_id).execute();
  const ids = subtreeIds(rows, block.id, (row) => row.deleted_at === stamp);
  const synced = rows.filter((row) => row.type === 'synced' && ids.includes(row.id)).map((row) => row.id);
  if (synced.length > 0) await assertSyncedBlocks(trx, (await findBlocks(trx, synced)).map(storedSynced));
  // updated_at moves so a realtime history (what changed since) finds the blocks that came back.
  await trx.updateTable('blocks').set({ deleted_at: null, updated_at: nowIso() }).where('id', 'in', ids).where('deleted_at', '=', stamp).execute();
  await setRowsOfDatabasesTrashed(
    trx,
    rows.filter((r) => r.type === 'database' && ids.includes(r.id)).map((r) => r.id),
    stamp,
    false,
  );
}

/**
 * A database block deleted takes its live rows (pages) to the trash, stamped with the block's
 * deletion time; its restore (or revive) brings back exactly those rows, not ones deleted before.
 */
async function setRowsOfDatabasesTrashed(trx: Kysely<Database>, databaseIds: readonly string[], stamp: string, trashed: boolean): Promise<void> {
  if (databaseIds.length === 0) return;
  const query = trx.updateTable('pages').where('database_id', 'in', databaseIds);
  if (trashed) await query.set({ in_trash: 1, trashed_at: stamp, trashed_by: null }).where('in_trash', '=', 0).execute();
  else await query.set({ in_trash: 0, trashed_at: null, trashed_by: null }).where('in_trash', '=', 1).where('trashed_at', '=', stamp).execute();
  for (const databaseId of databaseIds) await bumpRevisions(trx, databaseId, [ROWS_REVISION]);
}

/** Puts a block under another parent at another sort key; only this row changes. */
export async function moveBlockRow(db: Kysely<Database>, id: string, parentId: string | null, sortKey: string, userId: string): Promise<void> {
  await db.updateTable('blocks').set({ parent_id: parentId, sort_key: sortKey, updated_at: nowIso(), updated_by: userId }).where('id', '=', id).execute();
}

/**
 * A deep copy of a live block and its live descendants, placed right after the original: new
 * ids (the root's may be given), version 1, the same data (a database's views get new uids) and
 * relative order. Returns the new root.
 */
export async function cloneBlockTree(trx: Transaction<Database>, block: BlockRow, rootId: string, userId: string): Promise<BlockRow> {
  const rows = await trx.selectFrom('blocks').selectAll().where('page_id', '=', block.page_id).where('deleted_at', 'is', null).execute();
  const ids = subtreeIds(rows, block.id, () => true);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const newIds = new Map(ids.map((id) => [id, id === block.id ? rootId : newId()]));
  const now = nowIso();
  const copies = ids.map((id) => {
    const original = byId.get(id) as BlockRow;
    return newBlockRow(
      {
        id: newIds.get(id) as string,
        pageId: original.page_id,
        parentId: id === block.id ? block.parent_id : (newIds.get(original.parent_id as string) as string),
        sortKey: original.sort_key,
        type: original.type as BlockWireType,
        data: JSON.parse(original.data) as BlockData,
        userId,
      },
      now,
    );
  });
  copies[0].sort_key = await sortKeyAfter(trx, block.page_id, block.parent_id, block);
  await insertCopies(trx, copies, newIds, byId, userId, now);
  return copies[0];
}

/**
 * Block copies stored (parents first): a copied database gets views of its own — a linked view
 * of the original stays on the original — and comes with its live rows (pages with their blocks
 * and cells). `newIds`: each original's copy.
 */
async function insertCopies(
  trx: Transaction<Database>,
  copies: BlockRow[],
  newIds: ReadonlyMap<string, string>,
  originals: ReadonlyMap<string, BlockRow>,
  userId: string,
  now: string,
): Promise<void> {
  const renamedViews = new Map<string, Map<string, string>>();
  for (const copy of copies) {
    if (copy.type !== 'database') continue;
    const fresh = withFreshLayoutUids(copy.data);
    copy.data = fresh.data;
    renamedViews.set(copy.id, fresh.renamed);
  }
  await assertSyncedBlocks(trx, copies.map(storedSynced));
  for (let i = 0; i < copies.length; i += 100)
    await trx
      .insertInto('blocks')
      .values(copies.slice(i, i + 100))
      .execute();
  await noteReminders(trx, copies.map(writtenBlock));
  for (const copy of copies) if (copy.type === 'database') await syncDatabaseLayouts(trx, copy.id, copy.data, now);
  // The copied databases' rows go under the page holding the copy (another page than the original's for a row made from a template).
  const holders = new Map<string, PageRow | undefined>();
  for (const [from, to] of newIds) {
    if (originals.get(from)?.type !== 'database') continue;
    const pageId = copies.find((copy) => copy.id === to)!.page_id;
    if (!holders.has(pageId)) holders.set(pageId, await trx.selectFrom('pages').selectAll().where('id', '=', pageId).executeTakeFirst());
    await cloneDatabaseRows(trx, from, to, userId, renamedViews.get(to), holders.get(pageId));
  }
}

/**
 * A page's content copied onto other pages (rows made from a row template, docs/api/databases.md
 * «Row templates»): its live blocks that hang from the top, for each page new ids, the same
 * order, the ids inside their data remapped (a block naming another copied block names its copy).
 */
export async function copyPageContent(trx: Transaction<Database>, fromPageId: string, toPageIds: readonly string[], userId: string): Promise<void> {
  if (toPageIds.length === 0) return;
  const rows = await trx.selectFrom('blocks').selectAll().where('page_id', '=', fromPageId).where('deleted_at', 'is', null).execute();
  const children = new Map<string | null, BlockRow[]>();
  for (const row of rows) children.set(row.parent_id, [...(children.get(row.parent_id) ?? []), row]);
  // Parents first; a block under a deleted one is not content any more.
  const ordered: BlockRow[] = [];
  const queue: Array<string | null> = [null];
  while (queue.length > 0) {
    for (const row of children.get(queue.shift()!) ?? []) {
      ordered.push(row);
      queue.push(row.id);
    }
  }
  if (ordered.length === 0) return;
  const originals = new Map(ordered.map((row) => [row.id, row]));
  const now = nowIso();
  for (const pageId of toPageIds) {
    const newIds = new Map(ordered.map((row) => [row.id, newId()]));
    const copies = ordered.map((row) =>
      newBlockRow(
        {
          id: newIds.get(row.id)!,
          pageId,
          parentId: row.parent_id === null ? null : newIds.get(row.parent_id)!,
          sortKey: row.sort_key,
          type: row.type as BlockWireType,
          data: JSON.parse(remapBlockData(row.data, newIds)) as BlockData,
          userId,
        },
        now,
      ),
    );
    await insertCopies(trx, copies, newIds, originals, userId, now);
  }
}

/**
 * After a database's fields changed through a whole-block write (POST block/{id}), clears the
 * cells that no longer fit: a removed field's go, a value of a changed type or a removed option is
 * cleared (version + 1, so an edit based on the old value conflicts). Call in the transaction that
 * changed the database. The field API (docs/api/databases.md) converts values instead.
 */
export async function pruneRowValues(trx: Transaction<Database>, databaseId: string, config: DatabaseConfig, userId: string): Promise<void> {
  let after = { row: '', field: '' };
  for (;;) {
    const cells = await trx
      .selectFrom('database_cells')
      .select(['row_id', 'field_id', 'value', 'version'])
      .where('database_id', '=', databaseId)
      .where((eb) => eb(eb.refTuple('row_id', 'field_id'), '>', eb.tuple(after.row, after.field)))
      .orderBy('row_id')
      .orderBy('field_id')
      .limit(1000)
      .execute();
    if (cells.length === 0) return;
    for (const cell of cells) {
      if (cell.field_id === 'MAIN_FIELD') continue;
      const value = JSON.parse(cell.value) as RowValue;
      const fits = Object.keys(valuesFitting(config, { [cell.field_id]: value })).length === 1;
      if (fits) continue;
      if (Object.hasOwn(config.fields, cell.field_id)) {
        await trx
          .updateTable('database_cells')
          .set({ value: 'null', num: null, txt: null, num_end: null, version: cell.version + 1, updated_at: nowIso(), updated_by: userId })
          .where('row_id', '=', cell.row_id)
          .where('field_id', '=', cell.field_id)
          .execute();
      } else {
        await trx.deleteFrom('database_cells').where('row_id', '=', cell.row_id).where('field_id', '=', cell.field_id).execute();
      }
    }
    await bumpRevisions(trx, databaseId, [ROWS_REVISION]);
    if (cells.length < 1000) return;
    after = { row: cells[cells.length - 1].row_id, field: cells[cells.length - 1].field_id };
  }
}

/**
 * What changed on a page after `since` (an ISO time): live blocks written, made, moved or
 * restored since (with their place), and blocks deleted since. Null when more than `limit`
 * blocks changed (the caller loads the page again instead).
 */
export async function listBlockChangesSince(
  db: Kysely<Database>,
  pageId: string,
  since: string,
  limit: number,
  /** The asking client: `own` lists the changed blocks whose shown version it wrote itself. */
  clientId: string | null = null,
): Promise<{ blocks: WireBlock[]; removed: string[]; removedVersions: number[]; own: string[] } | null> {
  const rows = await db
    .selectFrom('blocks')
    .select(['id', 'deleted_at', 'version', 'origin'])
    .where('page_id', '=', pageId)
    .where((eb) => eb.or([eb('updated_at', '>', since), eb('deleted_at', '>', since)]))
    .limit(limit + 1)
    .execute();
  if (rows.length > limit) return null;
  const gone = rows.filter((r) => r.deleted_at !== null);
  const removed = gone.map((r) => r.id);
  const removedVersions = gone.map((r) => r.version);
  const changed = new Map(rows.filter((r) => r.deleted_at === null).map((r) => [r.id, r]));
  const blocks = changed.size === 0 ? [] : (await listPageBlocks(db, pageId)).filter((b) => changed.has(b.id));
  // Ours only at the version read with its writer: one someone else wrote in between is not.
  const own =
    clientId === null
      ? []
      : blocks
          .filter((b) => {
            const row = changed.get(b.id);
            return row?.origin === clientId && row.version === b.version;
          })
          .map((b) => b.id);
  return { blocks, removed, removedVersions, own };
}

/** Every block of a page, deleted ones too (a version's restore compares them all). */
export function listAllPageBlockRows(db: Kysely<Database>, pageId: string): Promise<BlockRow[]> {
  return db.selectFrom('blocks').selectAll().where('page_id', '=', pageId).execute();
}

/**
 * A block held for update on PostgreSQL until the transaction ends (SQLite's one writer holds
 * everything already): a database's fields and views are changed on the block as read here.
 */
export function findBlockForUpdate(trx: Transaction<Database>, id: string): Promise<BlockRow | undefined> {
  const read = trx.selectFrom('blocks').selectAll().where('id', '=', id);
  return (isPostgres(trx) ? read.forUpdate() : read).executeTakeFirst();
}

/** The live blocks of a page whose data holds `text` (a file's id: no LIKE wildcards in it), with their data. */
export function listBlocksMentioning(db: Kysely<Database>, pageId: string, text: string): Promise<Array<Pick<BlockRow, 'data'>>> {
  return db.selectFrom('blocks').select('data').where('page_id', '=', pageId).where('deleted_at', 'is', null).where('data', 'like', `%${text}%`).execute();
}
