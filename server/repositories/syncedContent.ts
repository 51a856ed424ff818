/* Synced blocks (docs/api/blocks.md «Synced blocks»): what a `synced` block may name, and where a synced block's content shows. */
import type { Kysely } from 'kysely';
import { ERROR_CODES } from '../../schema/errors';
import { SYNCED_CONTENT, type Database, type PageRow } from '../db/types';
import { AppError } from '../errors';
import { inChunks } from '../db/inChunks';
import { findPages } from './pages';

/** A block about to be written: its page, its type, its data (as stored, JSON text, or as an object). */
export interface WrittenSynced {
  pageId: string;
  type: string;
  data: unknown;
}

/** A stored block row as the check reads it. */
export const storedSynced = (row: { page_id: string; type: string; data: string }): WrittenSynced => ({ pageId: row.page_id, type: row.type, data: row.data });

/** Why a synced block cannot be written where it is: it sits in synced content, or names no synced content of its page's workspace. */
export type SyncedRefusal = 'nested' | 'unknown';

/** The page a `synced` block's data names (null: not a synced block, or data without one). */
export function syncedPageIdOf(type: string, data: unknown): string | null {
  if (type !== 'synced') return null;
  const value = typeof data === 'string' ? (JSON.parse(data) as unknown) : data;
  const pageId = (value as { pageId?: unknown } | null)?.pageId;
  return typeof pageId === 'string' ? pageId : null;
}

/**
 * Each written block judged (null: fine). A `synced` block must name a synced-content page of the
 * workspace of the page it is written into (`unknown` otherwise: no such page, a page of another
 * kind, or of another workspace), and must not be written into synced content itself (`nested`:
 * no synced block in a synced block, so no cycle either). Blocks of other types cost nothing; the
 * pages are read once for all the synced ones.
 */
export async function judgeSyncedBlocks(db: Kysely<Database>, blocks: readonly WrittenSynced[]): Promise<Array<SyncedRefusal | null>> {
  const named = blocks.map((block) => (block.type === 'synced' ? (syncedPageIdOf(block.type, block.data) ?? '') : null));
  if (named.every((id) => id === null)) return named.map(() => null);
  const ids = blocks.flatMap((block, at) => (named[at] === null ? [] : [block.pageId, named[at]!].filter((id) => id !== '')));
  const pages = new Map((await findPages(db, ids)).map((page) => [page.id, page]));
  return blocks.map((block, at) => {
    if (named[at] === null) return null;
    const page = pages.get(block.pageId);
    const target = pages.get(named[at]!);
    if (page?.in_trash === SYNCED_CONTENT) return 'nested';
    if (!page || !target || target.in_trash !== SYNCED_CONTENT || target.workspace_id !== page.workspace_id) return 'unknown';
    return null;
  });
}

/** The error of a synced block refused (`judgeSyncedBlocks`): 422 block.synced_nested or block.synced_unknown. */
export function syncedRefused(refusal: SyncedRefusal): AppError {
  return refusal === 'nested'
    ? new AppError(422, ERROR_CODES.blockSyncedNested, 'a synced block cannot be put in the content of a synced block')
    : new AppError(422, ERROR_CODES.blockSyncedUnknown, "a synced block must name a synced block's content in the same workspace (POST element/{id}/synced)");
}

/**
 * The check every write of block data makes (the repository's writes call it before they write:
 * created, revived, updated, restored, copied, imported): 422 when a synced block among them is
 * refused (`judgeSyncedBlocks`), and nothing is written.
 */
export async function assertSyncedBlocks(db: Kysely<Database>, blocks: readonly WrittenSynced[]): Promise<void> {
  if (!blocks.some((block) => block.type === 'synced')) return;
  const refusal = (await judgeSyncedBlocks(db, blocks)).find((judged) => judged !== null);
  if (refusal) throw syncedRefused(refusal);
}

/** The page a page's blocks show in: a synced block's content in its holder (the page the synced block was made on), any other page in itself. */
export function shownPageOf(page: Pick<PageRow, 'id' | 'in_trash' | 'parent_id'>): string {
  return page.in_trash === SYNCED_CONTENT && page.parent_id !== null ? page.parent_id : page.id;
}

/**
 * The synced-content pages the live synced blocks of `pageIds` name, each with the first of those
 * pages (in their order) naming it.
 */
export async function syncedContentNamedBy(db: Kysely<Database>, pageIds: readonly string[]): Promise<Array<{ content: PageRow; namedOn: string }>> {
  const blocks: Array<{ page_id: string; data: string }> = [];
  for (const chunk of inChunks([...new Set(pageIds)]))
    blocks.push(
      ...(await db
        .selectFrom('blocks')
        .select(['page_id', 'data'])
        .where('page_id', 'in', chunk)
        .where('type', '=', 'synced')
        .where('deleted_at', 'is', null)
        .execute()),
    );
  const order = new Map(pageIds.map((id, at) => [id, at]));
  const namedOn = new Map<string, string>();
  for (const block of blocks.sort((a, b) => order.get(a.page_id)! - order.get(b.page_id)!)) {
    const named = syncedPageIdOf('synced', block.data);
    if (named !== null && !namedOn.has(named)) namedOn.set(named, block.page_id);
  }
  const pages = await findPages(db, [...namedOn.keys()]);
  return pages.filter((page) => page.in_trash === SYNCED_CONTENT).map((content) => ({ content, namedOn: namedOn.get(content.id)! }));
}
