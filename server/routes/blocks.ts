import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import { idParams } from '../../schema/params';
import {
  cloneBlockBodySchema,
  createBlockBodySchema,
  moveBlockBodySchema,
  updateBlockBodySchema,
  type BlockData,
} from '../../schema/block';
import {
  definitionForWireType,
  type BlockWireType,
  type DatabaseData,
} from '../../schema/blocks';
import { ERROR_CODES } from '../../schema/errors';
import { newId } from '../../schema/ids';
import type { Kysely, Transaction } from 'kysely';
import { EpochCache } from '../db/changeWatch';
import { lockBlocks } from '../db/locks';
import type { BlockRow, Database, PageRow } from '../db/types';
import { AppError, isUniqueViolation, notFound } from '../errors';
import { requireUser } from '../plugins/auth';
import { allows, type PageAction } from '../../schema/policies/page';
import { authorizePage, pageAccessLevel } from '../policies/page';
import { envelope } from '../presenters';
import {
  cloneBlockTree,
  FIXED_BLOCK_TYPES,
  findBlock,
  findLiveBlock,
  insertBlock,
  isInSubtree,
  listPageBlockRows,
  listPageHead,
  placedRowJson,
  presentPlacedRow,
  listSubtree,
  moveBlockRow,
  presentBlock,
  pruneRowValues,
  restoreBlockTree,
  reviveBlock,
  softDeleteBlockTree,
  sortKeyAfter,
  updateBlockIfVersion,
  updateContentIfVersion,
} from '../repositories/blocks';
import { assertNotInTrash, findPage, writablePage } from '../repositories/pages';
import { requestOrigin } from '../plugins/realtime';
import { CLIENT_ID_HEADER } from '../../schema/realtime';
import { nowIso } from '../time';
import { streamedEnvelope } from '../jsonStream';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

const FIXED_TYPES: ReadonlySet<string> = new Set(FIXED_BLOCK_TYPES);

const invalid = (message: string, details?: unknown) => new AppError(422, ERROR_CODES.validationFailed, message, details);

/** Stores data in canonical form, so every reader sees what Slate would keep. */
function canonicalData(type: BlockWireType, data: BlockData): BlockData {
  const definition = definitionForWireType(type);
  return definition ? (definition.canonicalize(data) as BlockData) : data;
}

/**
 * Rows of a database are pages now (docs/api/databases.md): a `databaseRow` block is not made
 * any more, and a database block holds no blocks.
 */
function checkPlacement(type: string, _data: BlockData, parent: BlockRow | null): void {
  if (type === 'databaseRow') throw invalid('rows of a database are made with POST database/{id}/rows (docs/api/databases.md)');
  if (parent?.type === 'database') throw invalid('a database holds no blocks: its rows are made with POST database/{id}/rows');
}

/** The web app's connection that sent a write (X-Client-Id): its own realtime echo is skipped by it. */
const originOf = (request: FastifyRequest) => requestOrigin(request.headers[CLIENT_ID_HEADER]);
/** ?limit: only the first blocks in document order (at most 1,000). */
const listBlocksQuerySchema = z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).optional() });
const deleteBlockQuerySchema = z.strictObject({ version: z.coerce.number().int().min(1).optional() });

export async function blockRoutes(server: FastifyInstance, { config }: { config: Config }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const { realtime } = server;
  // The hot path (a debounced keystroke) answers from memory who may edit what; see
  // docs/adr/0004-hot-path-caches.md. A block stays on the page it was made on for life.
  const pageOfBlock = new EpochCache<string, string | undefined>(app.dbChanges, config.authCacheTtlMs);
  const editablePage = new EpochCache<string, boolean>(app.dbChanges, config.authCacheTtlMs);
  const mayEditPage = (userId: string, pageId: string): boolean | Promise<boolean> => {
    const key = `${userId}\n${pageId}`;
    return (
      editablePage.peek(key) ??
      editablePage.get(key, async () => {
        const page = await findPage(app.db, pageId);
        return page !== undefined && page.in_trash === 0 && allows(await pageAccessLevel(app.db, userId, page), 'edit');
      })
    );
  };
  async function pageOf(pageId: string): Promise<PageRow> {
    const page = await findPage(app.db, pageId);
    if (!page) throw notFound('page');
    return page;
  }

  /**
   * The block of the path, authorized on its page for the action. A write into a page in the
   * trash is 409 page.in_trash. A deleted block answers 404 (after the access check, so an
   * outsider learns nothing about it) unless `allowDeleted`.
   */
  async function authorizedBlock(userId: string, id: string, action: PageAction, allowDeleted = false): Promise<BlockRow> {
    const block = await findBlock(app.db, id);
    if (!block) throw notFound('block');
    const page = await pageOf(block.page_id);
    await authorizePage(app.db, userId, page, action);
    if (action !== 'read') assertNotInTrash(page);
    if (block.deleted_at !== null && !allowDeleted) throw notFound('block');
    return block;
  }

  /**
   * Runs a change of a page's blocks in one transaction holding the page's block lock, with the
   * page read again there (404 when gone, 409 page.in_trash when in the trash). Every position,
   * cycle and database check is made inside, on the blocks as they are then (see
   * docs/adr/0003-concurrency.md). Only `trx` may be used inside: on SQLite the transaction holds
   * the one connection.
   */
  function blockChange<T>(pageId: string, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return app.db.transaction().execute(async (trx) => {
      await lockBlocks(trx, pageId);
      await writablePage(trx, pageId);
      return work(trx);
    });
  }

  /** A live block read again inside a block change: it may have been deleted meanwhile (404). */
  async function reloadLive(trx: Transaction<Database>, id: string): Promise<BlockRow> {
    const block = await findLiveBlock(trx, id);
    if (!block) throw notFound('block');
    return block;
  }

  /** A block id named in a body must be a live block of the same page. */
  async function blockInPage(db: Kysely<Database>, id: string, pageId: string, what: string): Promise<BlockRow> {
    const block = await findLiveBlock(db, id);
    if (!block || block.page_id !== pageId) throw invalid(`${what} is not a block of this page`);
    return block;
  }

  /** The parent and the previous sibling named in a body, checked against each other. */
  async function position(db: Kysely<Database>, pageId: string, parentId: string | null, placeAfter: string | null | undefined) {
    const parent = parentId ? await blockInPage(db, parentId, pageId, 'parentId') : null;
    const after = placeAfter ? await blockInPage(db, placeAfter, pageId, 'placeAfter') : null;
    if (after && after.parent_id !== parentId) throw invalid('placeAfter is not a child of parentId');
    return { parent, after };
  }

  /** A taken id: 409 with the server's block when the caller may see it (same page, live). */
  async function blockExists(db: Kysely<Database>, existing: BlockRow, pageId: string): Promise<AppError> {
    const visible = existing.page_id === pageId && existing.deleted_at === null;
    return new AppError(409, ERROR_CODES.blockExists, 'a block with this id exists', undefined,
      visible ? await presentBlock(db, existing) : null);
  }

  /** A parallel create with the same id (on another page, outside this page's lock) got there first. */
  function takenId(id: string, pageId: string) {
    return async (error: unknown): Promise<never> => {
      const winner = isUniqueViolation(error) ? await findBlock(app.db, id) : undefined;
      throw winner ? await blockExists(app.db, winner, pageId) : error;
    };
  }

  app.get('/api/v3/spaces/note/:id/blocks', { schema: { tags: ['blocks'], summary: 'The live blocks of a page, in document order; with ?limit only the first ones (the top of the page, shown while the rest loads)', params: idParams, querystring: listBlocksQuerySchema } }, async (request, reply) => {
    const user = requireUser(request);
    const page = await pageOf(request.params.id);
    await authorizePage(app.db, user.id, page, 'read');
    // Taken before the read: a realtime history since this time holds everything the list might miss.
    const at = nowIso();
    const { limit } = request.query;
    if (limit !== undefined) {
      const head = await listPageHead(app.db, page.id, limit);
      return envelope(head.blocks.map(presentPlacedRow), { count: head.blocks.length, hasMoreNext: head.hasMore, at });
    }
    const blocks = await listPageBlockRows(app.db, page.id);
    // Megabytes for a big page: written out in slices, never held up other requests (docs/api/blocks.md).
    return reply.type('application/json; charset=utf-8').send(streamedEnvelope(blocks, placedRowJson, { count: blocks.length, hasMoreNext: false, at }));
  });

  app.get('/api/v3/spaces/block/:id', { schema: { tags: ['blocks'], summary: 'One block (404 once deleted)', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const block = await authorizedBlock(user.id, request.params.id, 'read');
    return envelope(await presentBlock(app.db, block));
  });

  app.post('/api/v3/spaces/block', { schema: { tags: ['blocks'], summary: 'Create a block (databases and rows too)', body: createBlockBodySchema } }, async (request, reply) => {
    const user = requireUser(request);
    const body = request.body;
    const page = await pageOf(body.pageId);
    await authorizePage(app.db, user.id, page, 'edit');
    assertNotInTrash(page);
    const parentId = body.parentId ?? null;
    const data = canonicalData(body.type, body.data as BlockData);
    const id = body.id ?? newId();
    const row = await blockChange(page.id, async (trx) => {
      const { parent, after } = await position(trx, page.id, parentId, body.placeAfter);
      checkPlacement(body.type, data, parent);
      const existing = await findBlock(trx, id);
      if (existing && existing.page_id === page.id && existing.deleted_at !== null) {
        if (parentId !== null && (await isInSubtree(trx, existing, parentId))) throw invalid('a block cannot sit under its own descendant');
        const sortKey = await sortKeyAfter(trx, page.id, parentId, after);
        const revived = await reviveBlock(trx, existing, { parentId, sortKey, type: body.type, data, userId: user.id, origin: originOf(request) });
        if (!revived) throw await blockExists(trx, (await findBlock(trx, id)) ?? existing, page.id);
        return revived;
      }
      if (existing) throw await blockExists(trx, existing, page.id);
      return insertBlock(trx, {
        id,
        pageId: page.id,
        parentId,
        sortKey: await sortKeyAfter(trx, page.id, parentId, after),
        type: body.type,
        data,
        userId: user.id,
        origin: originOf(request),
      });
    }).catch(takenId(id, page.id));
    reply.status(201);
    const created = await presentBlock(app.db, row);
    realtime.blocksAdded(page.id, [created], originOf(request), row.updated_at);
    return envelope(created);
  });

  app.post('/api/v3/spaces/block/:id', { schema: { tags: ['blocks'], summary: 'Update a block (optimistic concurrency on version)', params: idParams, body: updateBlockBodySchema } }, async (request) => {
    const user = requireUser(request);
    const body = request.body;
    if (!FIXED_TYPES.has(body.type)) {
      // Typing: one statement when the caller may edit and the version is current; anything
      // else (gone, no access, trash, a database, a stale version) takes the path below, which
      // checks everything against the database and answers exactly.
      const id = request.params.id;
      const pageId = pageOfBlock.peek(id) ?? (await pageOfBlock.get(id, async () => (await findBlock(app.db, id))?.page_id, (found) => found !== undefined));
      const may = pageId === undefined ? false : mayEditPage(user.id, pageId);
      if (may === true || (may !== false && (await may))) {
        const at = nowIso();
        const updated = await updateContentIfVersion(app.db, id, body.version, body.type, canonicalData(body.type, body.data as BlockData), user.id, originOf(request), at);
        if (updated) {
          realtime.blockEdited(updated, originOf(request), at);
          return envelope(updated);
        }
      }
    }
    const block = await authorizedBlock(user.id, request.params.id, 'edit');
    if (body.type !== block.type && (FIXED_TYPES.has(body.type) || FIXED_TYPES.has(block.type))) {
      throw invalid(`a ${block.type} block cannot become ${body.type}: databases and rows keep their type`);
    }
    const data = canonicalData(body.type, body.data as BlockData);
    const origin = originOf(request);
    const at = nowIso();
    let version: number | null;
    if (FIXED_TYPES.has(body.type)) {
      // A row's values are checked against its database's fields, and a database's change prunes
      // its rows: both under the page's block lock, so neither judges by a stale copy of the other.
      version = await blockChange(block.page_id, async (trx) => {
        const current = await findBlock(trx, block.id);
        const parentId = current?.parent_id ?? block.parent_id;
        const parent = parentId ? ((await findBlock(trx, parentId)) ?? null) : null;
        checkPlacement(body.type, data, parent);
        const next = await updateBlockIfVersion(trx, block.id, body.version, body.type, data, user.id, origin, at);
        if (next !== null && body.type === 'database') await pruneRowValues(trx, block.id, (data as DatabaseData).config, user.id);
        return next;
      });
    } else {
      // One statement is atomic on its own: the hot path (every debounced keystroke) takes no lock.
      const parent = block.parent_id ? ((await findBlock(app.db, block.parent_id)) ?? null) : null;
      checkPlacement(body.type, data, parent);
      version = await updateBlockIfVersion(app.db, block.id, body.version, body.type, data, user.id, origin, at);
    }
    if (version === null) {
      const current = await findLiveBlock(app.db, block.id);
      if (!current) throw notFound('block');
      throw new AppError(422, ERROR_CODES.blockVersionConflict, 'the block changed since this edit was made', undefined,
        await presentBlock(app.db, current));
    }
    const updated = await presentBlock(app.db, { ...block, type: body.type, data: JSON.stringify(data), version });
    realtime.blockEdited(updated, origin, at);
    // A database's change may have cleared cells of its rows: its views read them again.
    if (body.type === 'database') realtime.databaseChanged(block.page_id, block.id, { kind: 'reset' }, origin, at);
    return envelope(updated);
  });

  app.delete('/api/v3/spaces/block/:id', { schema: { tags: ['blocks'], summary: 'Delete a block and its children (restorable); with ?version, only if the block is still at that version', params: idParams, querystring: deleteBlockQuerySchema } }, async (request) => {
    const user = requireUser(request);
    const block = await authorizedBlock(user.id, request.params.id, 'edit');
    const origin = originOf(request);
    const base = request.query.version;
    const removed = await blockChange(block.page_id, async (trx) => {
      const current = await reloadLive(trx, block.id);
      // Someone changed the block since the deleter saw it (typed into a paragraph being merged
      // away): their text is not thrown away unseen — 422 with the block, as for an update. A
      // retry of the deleter's own later write is not a conflict (docs/realtime.md).
      const deleted = await softDeleteBlockTree(trx, current, base === undefined ? undefined : { base, origin });
      if (deleted) return deleted;
      const now = await reloadLive(trx, block.id);
      throw new AppError(422, ERROR_CODES.blockVersionConflict, 'the block changed since it was deleted here', undefined, await presentBlock(trx, now));
    });
    realtime.blocksRemoved(block.page_id, removed, originOf(request), nowIso());
    return envelope({ id: block.id, status: 'success' });
  });

  app.post('/api/v3/spaces/block/:id/restore', { schema: { tags: ['blocks'], summary: 'Restore a deleted block and its children in place', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const block = await authorizedBlock(user.id, request.params.id, 'edit', true);
    await blockChange(block.page_id, async (trx) => {
      const current = await findBlock(trx, block.id);
      if (!current) throw notFound('block');
      const parent = current.parent_id ? await findBlock(trx, current.parent_id) : null;
      if (parent === undefined || (parent && parent.deleted_at !== null)) throw invalid('the parent block is deleted: restore it first');
      // The parent may have changed type since (a revived id): the block must still fit under it.
      checkPlacement(current.type, JSON.parse(current.data) as BlockData, parent);
      await restoreBlockTree(trx, current);
    });
    const blocks = await listSubtree(app.db, { ...block, deleted_at: null });
    realtime.blocksAdded(block.page_id, blocks, originOf(request), nowIso());
    return envelope(blocks, { count: blocks.length, hasMoreNext: false });
  });

  app.post('/api/v3/spaces/block/:id/move', { schema: { tags: ['blocks'], summary: 'Move a block (and its children) under a parent, after a sibling', params: idParams, body: moveBlockBodySchema } }, async (request) => {
    const user = requireUser(request);
    const body = request.body;
    const block = await authorizedBlock(user.id, request.params.id, 'edit');
    const parentId = body.parentId ?? null;
    // Judged on the blocks as they are inside the lock: of two moves that would each be fine
    // alone (b1 under b2, b2 under b1) the second sees the first and is refused.
    await blockChange(block.page_id, async (trx) => {
      const current = await reloadLive(trx, block.id);
      const { parent, after } = await position(trx, current.page_id, parentId, body.placeAfter);
      if (parentId !== null && (await isInSubtree(trx, current, parentId))) {
        throw invalid('a block cannot move under itself or its own descendant');
      }
      if (after?.id === current.id) throw invalid('a block cannot be placed after itself');
      checkPlacement(current.type, JSON.parse(current.data) as BlockData, parent);
      const sortKey = await sortKeyAfter(trx, current.page_id, parentId, after);
      await moveBlockRow(trx, current.id, parentId, sortKey, user.id);
    });
    const moved = await findLiveBlock(app.db, block.id);
    if (!moved) throw notFound('block');
    const present = await presentBlock(app.db, moved);
    realtime.blockEdited(present, originOf(request), moved.updated_at);
    return envelope(present);
  });

  app.post('/api/v3/spaces/block/:id/clone', { schema: { tags: ['blocks'], summary: 'Deep-copy a block and its children right after it', params: idParams, body: cloneBlockBodySchema.nullish() } }, async (request, reply) => {
    const user = requireUser(request);
    const block = await authorizedBlock(user.id, request.params.id, 'edit');
    const id = request.body?.id ?? newId();
    const root = await blockChange(block.page_id, async (trx) => {
      const existing = await findBlock(trx, id);
      if (existing) throw await blockExists(trx, existing, block.page_id);
      return cloneBlockTree(trx, await reloadLive(trx, block.id), id, user.id);
    }).catch(takenId(id, block.page_id));
    const blocks = await listSubtree(app.db, root);
    realtime.blocksAdded(block.page_id, blocks, originOf(request), root.updated_at);
    reply.status(201);
    return envelope(blocks, { count: blocks.length, hasMoreNext: false });
  });
}
