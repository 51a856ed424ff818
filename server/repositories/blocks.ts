import { generateKeyBetween } from 'fractional-indexing';
import type { Kysely } from 'kysely';
import type { BlockData, WireBlock } from '../../schema/block';
import type { BlockWireType } from '../../schema/blocks';
import { presentBlockRow } from '../presenters';
import type { BlockRow, Database } from '../db/types';
import { nowIso } from '../time';

export function findBlock(db: Kysely<Database>, id: string): Promise<BlockRow | undefined> {
  return db.selectFrom('blocks').selectAll().where('id', '=', id).executeTakeFirst();
}

function bySortKey(a: BlockRow, b: BlockRow): number {
  if (a.sort_key !== b.sort_key) return a.sort_key < b.sort_key ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** All blocks of a page in document order (depth first), each with its parent and previous sibling. */
export async function listPageBlocks(db: Kysely<Database>, pageId: string): Promise<WireBlock[]> {
  const rows = await db.selectFrom('blocks').selectAll().where('page_id', '=', pageId).execute();
  const children = new Map<string | null, BlockRow[]>();
  for (const row of rows) {
    const siblings = children.get(row.parent_id) ?? [];
    siblings.push(row);
    children.set(row.parent_id, siblings);
  }
  const out: WireBlock[] = [];
  const walk = (parentId: string | null) => {
    const siblings = (children.get(parentId) ?? []).sort(bySortKey);
    let previous: string | null = null;
    for (const row of siblings) {
      out.push(presentBlockRow(row, previous));
      previous = row.id;
      walk(row.id);
    }
  };
  walk(null);
  return out;
}

/** One block as the wire shows it, with its previous sibling computed. */
export async function presentBlock(db: Kysely<Database>, row: BlockRow): Promise<WireBlock> {
  let query = db
    .selectFrom('blocks')
    .select('id')
    .where('page_id', '=', row.page_id)
    .where((eb) =>
      eb.or([eb('sort_key', '<', row.sort_key), eb.and([eb('sort_key', '=', row.sort_key), eb('id', '<', row.id)])]),
    );
  query = row.parent_id === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', row.parent_id);
  const previous = await query.orderBy('sort_key', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return presentBlockRow(row, previous?.id ?? null);
}

/** The sort key for a block placed right after `placeAfter` (null: first) among a parent's children. */
export async function sortKeyAfter(
  db: Kysely<Database>,
  pageId: string,
  parentId: string | null,
  placeAfter: BlockRow | null,
): Promise<string> {
  let next = db.selectFrom('blocks').select(['sort_key', 'id']).where('page_id', '=', pageId);
  next = parentId === null ? next.where('parent_id', 'is', null) : next.where('parent_id', '=', parentId);
  if (placeAfter) {
    const key = placeAfter.sort_key;
    next = next.where((eb) => eb.or([eb('sort_key', '>', key), eb.and([eb('sort_key', '=', key), eb('id', '>', placeAfter.id)])]));
  }
  const following = await next.orderBy('sort_key').orderBy('id').limit(1).executeTakeFirst();
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
}

export async function insertBlock(db: Kysely<Database>, input: InsertBlockInput): Promise<BlockRow> {
  const now = nowIso();
  const row: BlockRow = {
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
  };
  await db.insertInto('blocks').values(row).execute();
  return row;
}

/**
 * Optimistic-concurrency update: applies only if the block is still at `baseVersion`.
 * Returns the new version, or null when the block moved on (or is gone).
 */
export async function updateBlockIfVersion(
  db: Kysely<Database>,
  id: string,
  baseVersion: number,
  type: BlockWireType,
  data: BlockData,
  userId: string,
): Promise<number | null> {
  const result = await db
    .updateTable('blocks')
    .set({ type, data: JSON.stringify(data), version: baseVersion + 1, updated_at: nowIso(), updated_by: userId })
    .where('id', '=', id)
    .where('version', '=', baseVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? baseVersion + 1 : null;
}

/** Deletes a block and everything nested under it. */
export async function deleteBlockTree(db: Kysely<Database>, block: BlockRow): Promise<void> {
  const rows = await db.selectFrom('blocks').select(['id', 'parent_id']).where('page_id', '=', block.page_id).execute();
  const doomed = new Set([block.id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const row of rows) {
      if (row.parent_id && doomed.has(row.parent_id) && !doomed.has(row.id)) {
        doomed.add(row.id);
        grew = true;
      }
    }
  }
  await db.deleteFrom('blocks').where('id', 'in', [...doomed]).execute();
}
