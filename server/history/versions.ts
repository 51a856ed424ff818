import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/types';
import { nowIso } from '../time';
import { notFound } from '../errors';

/**
 * Page history (issue 18, docs/history.md): versions of a page that keep only the blocks they
 * changed (`page_version_blocks`), and the page at any version rebuilt from them.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** A block as a version keeps it. */
export interface BlockState {
  type: string;
  data: unknown;
  parentId: string | null;
  sortKey: string;
}

/** A block at a version, with its id. */
export interface VersionBlock extends BlockState {
  id: string;
}

const placeOf = (parentId: string | null, sortKey: string) => `${parentId ?? ''}|${sortKey}`;

/** For each block of the page the history knows, its row in the latest version at or before `upTo` (all versions: no bound). */
async function latestRows(
  db: Db,
  pageId: string,
  upTo?: number,
): Promise<Array<{ block_id: string; version_id: number; block_version: number; place: string | null; state: string | null }>> {
  const bound = upTo === undefined ? sql`` : sql` and x.version_id <= ${upTo}`;
  const rows = await sql<{ block_id: string; version_id: number; block_version: number; place: string | null; state: string | null }>`
    select b.block_id, b.version_id, b.block_version, b.place, b.state from page_version_blocks b
    where b.page_id = ${pageId}
      and b.version_id = (select max(x.version_id) from page_version_blocks x where x.page_id = b.page_id and x.block_id = b.block_id${bound})`.execute(db);
  return rows.rows.map((r) => ({ ...r, version_id: Number(r.version_id), block_version: Number(r.block_version) }));
}

/**
 * Records a version of the page if it changed since its last one (or always, for a restore): the
 * blocks made, changed, moved or deleted since, and its title. A database row's page only when a
 * block of its body changed (its title is a cell, in the row's cell history). Answers the new version's id, or
 * null when nothing changed (or the page is gone).
 */
export async function recordVersion(
  db: Db,
  pageId: string,
  options: { kind: 'edit' | 'restore'; restoredFrom?: number; authors?: string[] } = { kind: 'edit' },
): Promise<number | null> {
  const page = await db.selectFrom('pages').select(['title', 'updated_by', 'database_id']).where('id', '=', pageId).executeTakeFirst();
  if (!page) return null;
  const blocks = await db
    .selectFrom('blocks')
    .select(['id', 'version', 'type', 'data', 'parent_id', 'sort_key', 'deleted_at', 'updated_by'])
    .where('page_id', '=', pageId)
    .execute();
  const recorded = new Map((await latestRows(db, pageId)).map((r) => [r.block_id, r]));
  const changes: Array<{ block_id: string; block_version: number; place: string | null; state: string | null }> = [];
  const authors = new Set<string>(options.authors ?? []);
  const seen = new Set<string>();
  for (const block of blocks) {
    seen.add(block.id);
    const was = recorded.get(block.id);
    const live = block.deleted_at === null;
    const place = placeOf(block.parent_id, block.sort_key);
    if (live && (!was || was.state === null || was.block_version !== block.version || was.place !== place)) {
      const state: BlockState = { type: block.type, data: JSON.parse(block.data) as unknown, parentId: block.parent_id, sortKey: block.sort_key };
      changes.push({ block_id: block.id, block_version: block.version, place, state: JSON.stringify(state) });
      authors.add(block.updated_by);
    } else if (!live && was && was.state !== null) {
      changes.push({ block_id: block.id, block_version: block.version, place: null, state: null });
      authors.add(block.updated_by);
    }
  }
  // Blocks deleted for good since.
  for (const [id, was] of recorded)
    if (!seen.has(id) && was.state !== null) changes.push({ block_id: id, block_version: was.block_version, place: null, state: null });
  const last = await db.selectFrom('page_versions').select(['id', 'title']).where('page_id', '=', pageId).orderBy('id', 'desc').limit(1).executeTakeFirst();
  // Nothing changed since the last version; or, for a database row, nothing of its body: its title
  // is a cell, whose changes the row's cell history keeps (a version of no block would read
  // «Изменено 0 блоков» beside them).
  if (options.kind === 'edit' && changes.length === 0 && (page.database_id !== null || (last && last.title === page.title))) return null;
  if (authors.size === 0 && page.updated_by) authors.add(page.updated_by);
  const inserted = await db
    .insertInto('page_versions')
    .values({
      page_id: pageId,
      created_at: nowIso(),
      title: page.title,
      authors: JSON.stringify([...authors]),
      kind: options.kind,
      restored_from: options.restoredFrom ?? null,
      changed: changes.length,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const versionId = Number(inserted.id);
  for (let at = 0; at < changes.length; at += 200) {
    await db
      .insertInto('page_version_blocks')
      .values(changes.slice(at, at + 200).map((c) => ({ ...c, page_id: pageId, version_id: versionId })))
      .execute();
  }
  return versionId;
}

/** A page's versions, newest first, at most `limit`; with `before`, only those older than that version. */
export function listVersions(db: Db, pageId: string, limit: number, before?: number) {
  return db
    .selectFrom('page_versions')
    .selectAll()
    .where('page_id', '=', pageId)
    .$if(before !== undefined, (qb) => qb.where('id', '<', before!))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Versions by id, oldest first. */
export function findVersionsByIds(db: Db, ids: readonly number[]) {
  return db.selectFrom('page_versions').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

/** A version of the page (404 when there is none of that id on it). */
export async function findVersion(db: Db, pageId: string, versionId: number) {
  const row = await db.selectFrom('page_versions').selectAll().where('page_id', '=', pageId).where('id', '=', versionId).executeTakeFirst();
  if (!row) throw notFound('version');
  return row;
}

/** The page's blocks at a version, in document order (each parent's children by sort key). */
export async function blocksAt(db: Db, pageId: string, versionId: number): Promise<VersionBlock[]> {
  const live = (await latestRows(db, pageId, versionId)).flatMap((r) => (r.state === null ? [] : [{ id: r.block_id, ...(JSON.parse(r.state) as BlockState) }]));
  return documentOrder(live);
}

/** Blocks in document order: depth first, siblings by sort key; blocks whose parent is not there come last. */
export function documentOrder(blocks: readonly VersionBlock[]): VersionBlock[] {
  const children = new Map<string | null, VersionBlock[]>();
  const ids = new Set(blocks.map((b) => b.id));
  for (const block of blocks) {
    const parent = block.parentId !== null && ids.has(block.parentId) ? block.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), block]);
  }
  for (const list of children.values()) list.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : a.id < b.id ? -1 : 1));
  const ordered: VersionBlock[] = [];
  const walk = (parent: string | null) => {
    for (const block of children.get(parent) ?? []) {
      ordered.push(block);
      walk(block.id);
    }
  };
  walk(null);
  return ordered;
}

/** What a version changed since the version before it: blocks added, changed (with their state before) and removed (with their state before). */
export async function versionChanges(
  db: Db,
  pageId: string,
  versionId: number,
): Promise<Array<{ blockId: string; kind: 'added' | 'changed' | 'removed'; before: BlockState | null }>> {
  const own = await db
    .selectFrom('page_version_blocks')
    .select(['block_id', 'state'])
    .where('page_id', '=', pageId)
    .where('version_id', '=', versionId)
    .execute();
  if (own.length === 0) return [];
  const previous = await db
    .selectFrom('page_versions')
    .select('id')
    .where('page_id', '=', pageId)
    .where('id', '<', versionId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const before = new Map(
    previous ? (await latestRows(db, pageId, Number(previous.id))).map((r) => [r.block_id, r.state === null ? null : (JSON.parse(r.state) as BlockState)]) : [],
  );
  return own.map((row) => {
    const was = before.get(row.block_id) ?? null;
    const kind = row.state === null ? 'removed' : was === null ? 'added' : 'changed';
    return { blockId: row.block_id, kind, before: was };
  });
}

/** Pages edited lately (the search indexer tells, as it takes their changes): the historian records them after a pause. */
export async function noteEdited(db: Db, pageIds: Iterable<string>): Promise<void> {
  const now = nowIso();
  for (const pageId of new Set(pageIds)) {
    await db
      .insertInto('history_queue')
      .values({ page_id: pageId, first_at: now, last_at: now })
      .onConflict((oc) => oc.column('page_id').doUpdateSet({ last_at: now }))
      .execute();
  }
}
