import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import { idParams } from '../../schema/params';
import { createBlockBodySchema, updateBlockBodySchema, type BlockData } from '../../schema/block';
import { ERROR_CODES } from '../../schema/errors';
import { newId } from '../../schema/ids';
import { canonicalTokens } from '../../schema/token';
import type { BlockRow } from '../db/types';
import { AppError, isUniqueViolation, notFound } from '../errors';
import { requireUser } from '../plugins/auth';
import { authorizePage } from '../policies/page';
import { envelope } from '../presenters';
import {
  deleteBlockTree,
  findBlock,
  insertBlock,
  listPageBlocks,
  presentBlock,
  sortKeyAfter,
  updateBlockIfVersion,
} from '../repositories/blocks';
import { findPage } from '../repositories/pages';

/** Stores tokens in canonical form, so every reader sees what Slate would keep. */
function canonicalData(data: BlockData): BlockData {
  return { ...data, tokens: canonicalTokens(data.tokens) };
}

export async function blockRoutes(server: FastifyInstance, { config }: { config: Config }) {
  void config;
  const app = server.withTypeProvider<ZodTypeProvider>();
  async function pageOf(pageId: string) {
    const page = await findPage(app.db, pageId);
    if (!page) throw notFound('page');
    return page;
  }

  async function loadBlock(id: string): Promise<BlockRow> {
    const block = await findBlock(app.db, id);
    if (!block) throw notFound('block');
    return block;
  }

  /** A block id named in a body must be a block of the same page. */
  async function blockInPage(id: string, pageId: string, what: string): Promise<BlockRow> {
    const block = await findBlock(app.db, id);
    if (!block || block.page_id !== pageId) {
      throw new AppError(422, ERROR_CODES.validationFailed, `${what} is not a block of this page`);
    }
    return block;
  }

  app.get('/api/v3/spaces/note/:id/blocks', { schema: { tags: ['blocks'], summary: 'All blocks of a page, in document order', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const page = await pageOf(request.params.id);
    await authorizePage(app.db, user.id, page, 'read');
    const blocks = await listPageBlocks(app.db, page.id);
    return envelope(blocks, { count: blocks.length, hasMoreNext: false });
  });

  app.get('/api/v3/spaces/block/:id', { schema: { tags: ['blocks'], summary: 'One block', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const block = await loadBlock(request.params.id);
    await authorizePage(app.db, user.id, await pageOf(block.page_id), 'read');
    return envelope(await presentBlock(app.db, block));
  });

  app.post('/api/v3/spaces/block', { schema: { tags: ['blocks'], summary: 'Create a block', body: createBlockBodySchema } }, async (request, reply) => {
    const user = requireUser(request);
    const body = request.body;
    const page = await pageOf(body.pageId);
    await authorizePage(app.db, user.id, page, 'edit');
    const parentId = body.parentId ?? null;
    if (parentId) await blockInPage(parentId, page.id, 'parentId');
    const after = body.placeAfter ? await blockInPage(body.placeAfter, page.id, 'placeAfter') : null;
    if (after && after.parent_id !== parentId) {
      throw new AppError(422, ERROR_CODES.validationFailed, 'placeAfter is not a child of parentId');
    }
    const id = body.id ?? newId();
    // A retried create: answer with what the server holds so the client can carry on from it.
    const blockExists = async (existing: BlockRow) =>
      new AppError(409, ERROR_CODES.blockExists, 'a block with this id exists', undefined,
        existing.page_id === page.id ? await presentBlock(app.db, existing) : null);
    const existing = await findBlock(app.db, id);
    if (existing) throw await blockExists(existing);
    const row = await insertBlock(app.db, {
      id,
      pageId: page.id,
      parentId,
      sortKey: await sortKeyAfter(app.db, page.id, parentId, after),
      type: body.type,
      data: canonicalData(body.data as BlockData),
      userId: user.id,
    }).catch(async (error: unknown) => {
      // A parallel create with the same id got there first.
      const winner = isUniqueViolation(error) ? await findBlock(app.db, id) : undefined;
      throw winner ? await blockExists(winner) : error;
    });
    reply.status(201);
    return envelope(await presentBlock(app.db, row));
  });

  app.post('/api/v3/spaces/block/:id', { schema: { tags: ['blocks'], summary: 'Update a block (optimistic concurrency on version)', params: idParams, body: updateBlockBodySchema } }, async (request) => {
    const user = requireUser(request);
    const body = request.body;
    const block = await loadBlock(request.params.id);
    await authorizePage(app.db, user.id, await pageOf(block.page_id), 'edit');
    const data = canonicalData(body.data as BlockData);
    const version = await updateBlockIfVersion(app.db, block.id, body.version, body.type, data, user.id);
    if (version === null) {
      const current = await findBlock(app.db, block.id);
      if (!current) throw notFound('block');
      throw new AppError(422, ERROR_CODES.blockVersionConflict, 'the block changed since this edit was made', undefined,
        await presentBlock(app.db, current));
    }
    return envelope(await presentBlock(app.db, { ...block, type: body.type, data: JSON.stringify(data), version }));
  });

  app.delete('/api/v3/spaces/block/:id', { schema: { tags: ['blocks'], summary: 'Delete a block and its children', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const block = await loadBlock(request.params.id);
    await authorizePage(app.db, user.id, await pageOf(block.page_id), 'edit');
    await deleteBlockTree(app.db, block);
    return envelope({ id: block.id, status: 'success' });
  });
}
