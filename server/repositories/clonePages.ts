/* Deep copies of page trees with their blocks (ids remapped inside block data). */
import type { Transaction } from 'kysely';
import { newId } from '../../schema/ids';
import { ROW_TEMPLATE, SYNCED_CONTENT, type BlockRow, type Database, type PageRow } from '../db/types';
import { copySequences } from './databaseRevisions';
import { copyRowLinks } from './databases';
import { nowIso } from '../time';
import { noteReminders, writtenBlock } from '../reminders/note';
import { cloneViewKeys, syncDatabaseLayouts, withFreshLayoutUids } from './databaseLayouts';
import { childPath, FRESH_PAGE_STATE, listPagesAt, pagePath, type PagePlace } from './pages';
import { inChunks } from '../db/inChunks';
import { sortKeyAtEnd } from './pageOrder';
import { assertSyncedBlocks, storedSynced, syncedPageIdOf } from './syncedContent';

/**
 * Block data of a copy: every string that is a copied page's or block's id becomes the copy's id
 * (a document block's page, a row's database), and tokens lose their comment links, since
 * comments are not copied.
 */
export function remapBlockData(data: string, ids: ReadonlyMap<string, string>): string {
  const walk = (value: unknown, key: string | null): unknown => {
    if (typeof value === 'string') return ids.get(value) ?? value;
    if (Array.isArray(value)) {
      return value.map((item) => {
        const copy = walk(item, null);
        if (key === 'tokens' && copy !== null && typeof copy === 'object') delete (copy as Record<string, unknown>).comments;
        return copy;
      });
    }
    if (value !== null && typeof value === 'object') {
      // Parsed JSON: own keys only, written back onto the same object (never through a prototype).
      const object = value as Record<string, unknown>;
      for (const field of Object.keys(object)) object[field] = walk(object[field], field);
      return object;
    }
    return value;
  };
  return JSON.stringify(walk(JSON.parse(data) as unknown, null));
}

export interface CloneInput {
  /**
   * The pages to copy, root first: the source root and the descendants the caller may read. Into
   * another workspace also the synced blocks' content they show (`syncedContentToCopy`), each
   * under the page it is copied with.
   */
  pages: PageRow[];
  newRootId: string;
  workspaceId: string;
  parent: PageRow | null;
  userId: string;
}

/**
 * Copies a page tree with new ids: pages (same titles, icons, covers, types, order), their live
 * blocks (new ids, parents remapped, same order; database rows are blocks too). The copy is
 * private to nobody: it is not public, has no alias, no members but the cloner's grant on a new
 * section root, no comments and no favourites. The root goes last in its new place. Call in a
 * transaction holding the tree lock of the target workspace, with the parent read after taking it.
 */
export async function clonePageTree(trx: Transaction<Database>, input: CloneInput): Promise<PageRow> {
  const [source] = input.pages;
  const liveDatabases = new Set<string>();
  const ids = new Map<string, string>([[source.id, input.newRootId]]);
  for (const page of input.pages.slice(1)) ids.set(page.id, newId());
  // Into another workspace a synced block names the copy of its content (copied along), or is left
  // out: content of this workspace cannot be named there (docs/api/blocks.md «Synced blocks»).
  const crossWorkspace = source.workspace_id !== input.workspaceId;
  const leftOut = (block: BlockRow) => {
    const named = crossWorkspace ? syncedPageIdOf(block.type, block.data) : null;
    return named !== null && !ids.has(named);
  };
  const blocks: BlockRow[] = [];
  for (const chunk of inChunks(input.pages.map((p) => p.id))) {
    blocks.push(...(await trx.selectFrom('blocks').selectAll().where('page_id', 'in', chunk).where('deleted_at', 'is', null).execute()));
  }
  // Blocks under a deleted block are not part of the document any more: keep what hangs from the top.
  const byParent = new Map<string | null, BlockRow[]>();
  for (const block of blocks) byParent.set(block.parent_id, [...(byParent.get(block.parent_id) ?? []), block]);
  const kept: BlockRow[] = [];
  const queue: Array<string | null> = [null];
  const seen = new Set<string>();
  while (queue.length > 0) {
    for (const block of byParent.get(queue.shift() as string | null) ?? []) {
      if (seen.has(block.id) || leftOut(block)) continue;
      seen.add(block.id);
      kept.push(block);
      queue.push(block.id);
    }
  }
  for (const block of kept) {
    ids.set(block.id, newId());
    if (block.type === 'database') liveDatabases.add(block.id);
  }
  // Rows of a database come along with it (the live ones of a database still on the page), and its
  // row templates (still templates); trashed rows do not.
  const pages = input.pages.filter(
    (page) => page.database_id === null || (liveDatabases.has(page.database_id) && (page.in_trash === 0 || page.in_trash === ROW_TEMPLATE)),
  );
  const keptPages = new Set(pages.map((p) => p.id));

  const place: PagePlace = input.parent ? { parent: input.parent } : { workspaceId: input.workspaceId, section: 'private' };
  const now = nowIso();
  const rootPath = childPath(input.parent);
  const copies: PageRow[] = pages.map((page) => {
    const isRoot = page.id === source.id;
    const below = isRoot ? [] : pagePath(page).slice(pagePath(page).indexOf(source.id));
    return {
      ...page,
      id: ids.get(page.id) as string,
      workspace_id: input.workspaceId,
      parent_id: isRoot ? (input.parent?.id ?? null) : (ids.get(page.parent_id as string) as string),
      section: isRoot ? (input.parent ? null : 'private') : null,
      path: JSON.stringify([...rootPath, ...below.map((id) => ids.get(id) as string)]),
      is_public: 0,
      // A row template stays one, a synced block's content stays hidden; every other page is live.
      in_trash: page.in_trash === ROW_TEMPLATE || page.in_trash === SYNCED_CONTENT ? page.in_trash : 0,
      created_by: input.userId,
      created_at: now,
      updated_at: now,
      ...FRESH_PAGE_STATE,
      database_id: page.database_id === null ? null : (ids.get(page.database_id) as string),
      updated_by: input.userId,
    };
  });
  // A copied database gets views of its own; a data or linked-view page copied along follows it,
  // one naming a view outside the copy keeps naming that view.
  const layoutUids = new Map<string, string>();
  /** Per database copied (its original id), its views' uids: old → new. */
  const viewsOf = new Map<string, Map<string, string>>();
  const blockCopies: BlockRow[] = kept
    .filter((block) => keptPages.has(block.page_id))
    .map((block) => {
      let data = remapBlockData(block.data, ids);
      if (block.type === 'database') {
        const fresh = withFreshLayoutUids(data);
        data = fresh.data;
        for (const [from, to] of fresh.renamed) layoutUids.set(from, to);
        viewsOf.set(block.id, fresh.renamed);
      }
      return {
        ...block,
        id: ids.get(block.id) as string,
        page_id: ids.get(block.page_id) as string,
        parent_id: block.parent_id === null ? null : (ids.get(block.parent_id) as string),
        data,
        version: 1,
        created_at: now,
        updated_at: now,
        updated_by: input.userId,
        deleted_at: null,
      };
    });
  for (const copy of copies) {
    if (copy.default_layout_id !== null) copy.default_layout_id = layoutUids.get(copy.default_layout_id) ?? copy.default_layout_id;
  }
  copies[0].sort_key = sortKeyAtEnd(await listPagesAt(trx, place));
  for (const chunk of inChunks(copies, 200)) await trx.insertInto('pages').values(chunk).execute();
  if (!input.parent) {
    await trx.insertInto('page_members').values({ page_id: input.newRootId, user_id: input.userId, level: 'full', created_at: now }).execute();
  }
  await assertSyncedBlocks(trx, blockCopies.map(storedSynced));
  for (const chunk of inChunks(blockCopies, 200)) await trx.insertInto('blocks').values(chunk).execute();
  await noteReminders(trx, blockCopies.map(writtenBlock));
  for (const copy of blockCopies) if (copy.type === 'database') await syncDatabaseLayouts(trx, copy.id, copy.data, now);
  const rowIds = pages.filter((p) => p.database_id !== null).map((p) => p.id);
  for (const chunk of inChunks(rowIds)) {
    const cells = await trx.selectFrom('database_cells').selectAll().where('row_id', 'in', chunk).execute();
    const cellCopies = cells.map((cell) => ({
      ...cell,
      row_id: ids.get(cell.row_id) as string,
      database_id: ids.get(cell.database_id) as string,
      version: 1,
      updated_at: now,
      updated_by: input.userId,
    }));
    for (const part of inChunks(cellCopies, 100)) await trx.insertInto('database_cells').values(part).execute();
    await copyRowLinks(trx, chunk, ids, (databaseId) => ids.get(databaseId) as string);
  }
  // The counters of unique IDs come along with the numbers (docs/api/databases.md «Unique ID»).
  for (const databaseId of viewsOf.keys()) await copySequences(trx, databaseId, ids.get(databaseId) as string);
  // The views' own orders come along, under the copies' views and rows (docs/api/databases.md «Order per view»).
  for (const [databaseId, views] of viewsOf) {
    const rows = new Map(pages.filter((p) => p.database_id === databaseId).map((p) => [p.id, ids.get(p.id) as string]));
    await cloneViewKeys(trx, databaseId, ids.get(databaseId) as string, views, rows);
  }
  return copies[0];
}
