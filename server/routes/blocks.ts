import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config';
import { idParams } from '../../schema/params';
import {
  cloneBlockBodySchema,
  createBlockBodySchema,
  createBlocksBodySchema,
  deleteBlocksBodySchema,
  moveBlockBodySchema,
  updateBlockBodySchema,
  type CreateBlockBody,
  type CreateBlocksBody,
  type UpdateBlockBody,
} from '../../schema/block';
import { CLIENT_ID_HEADER } from '../../schema/realtime';
import { authorizedBlock } from '../commands/blocks/blockChange';
import { cloneBlock } from '../commands/blocks/clone';
import { createBlock, createBlocks } from '../commands/blocks/create';
import { moveBlock } from '../commands/blocks/move';
import { deleteBlock, deleteBlocks, restoreBlock } from '../commands/blocks/remove';
import { blockUpdater } from '../commands/blocks/update';
import { streamedEnvelope } from '../jsonStream';
import { requireUser } from '../plugins/auth';
import { requestOrigin } from '../realtime/sockets';
import { authorizePage } from '../policies/page';
import { envelope } from '../presenters';
import { listPageBlockRows, listPageHead, placedRowJson, presentBlock, presentPlacedRow } from '../repositories/blocks';
import { loadPage } from '../repositories/pages';
import { nowIso } from '../time';

/** The web app's connection that sent a write (X-Client-Id): its own realtime echo is skipped by it. */
const originOf = (request: FastifyRequest) => requestOrigin(request.headers[CLIENT_ID_HEADER]);
/** ?limit: only the first blocks in document order (at most 1,000). */
const listBlocksQuerySchema = z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).optional() });
const deleteBlockQuerySchema = z.strictObject({ version: z.coerce.number().int().min(1).optional() });

export async function blockRoutes(server: FastifyInstance, { config }: { config: Config }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const updateBlock = blockUpdater(app.db, app.dbChanges, config.authCacheTtlMs);

  app.get(
    '/api/v3/spaces/note/:id/blocks',
    {
      schema: {
        tags: ['blocks'],
        summary: 'The live blocks of a page, in document order; with ?limit only the first ones (the top of the page, shown while the rest loads)',
        params: idParams,
        querystring: listBlocksQuerySchema,
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const page = await loadPage(app.db, request.params.id);
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
    },
  );

  app.get('/api/v3/spaces/block/:id', { schema: { tags: ['blocks'], summary: 'One block (404 once deleted)', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const block = await authorizedBlock(app.db, user.id, request.params.id, 'read');
    return envelope(await presentBlock(app.db, block));
  });

  app.post(
    '/api/v3/spaces/block',
    { schema: { tags: ['blocks'], summary: 'Create a block (databases and rows too)', body: createBlockBodySchema } },
    async (request, reply) => {
      const user = requireUser(request);
      const { block, events } = await createBlock(app.db, user.id, request.body as CreateBlockBody, originOf(request));
      await app.events.dispatch(events, originOf(request));
      reply.status(201);
      return envelope(block);
    },
  );

  app.post(
    '/api/v3/spaces/blocks/create',
    {
      schema: {
        tags: ['blocks'],
        summary: 'Make several blocks of one page at once, in order, each as POST block would; answers each one’s outcome',
        body: createBlocksBodySchema,
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { pageId, blocks } = request.body as CreateBlocksBody;
      const { outcomes, events, failure } = await createBlocks(
        app.db,
        user.id,
        pageId,
        blocks as Array<Omit<CreateBlockBody, 'pageId'> & { id: string }>,
        originOf(request),
      );
      // The blocks made are told to the others even when a later one failed unexpectedly.
      await app.events.dispatch(events, originOf(request));
      if (failure !== undefined) throw failure;
      return envelope(outcomes);
    },
  );

  app.post(
    '/api/v3/spaces/block/:id',
    { schema: { tags: ['blocks'], summary: 'Update a block (optimistic concurrency on version)', params: idParams, body: updateBlockBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const origin = originOf(request);
      const { block, events } = await updateBlock(user.id, request.params.id, request.body as UpdateBlockBody, origin);
      await app.events.dispatch(events, origin);
      return envelope(block);
    },
  );

  app.delete(
    '/api/v3/spaces/block/:id',
    {
      schema: {
        tags: ['blocks'],
        summary: 'Delete a block and its children (restorable); with ?version, only if the block is still at that version',
        params: idParams,
        querystring: deleteBlockQuerySchema,
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { block, events } = await deleteBlock(app.db, user.id, request.params.id, request.query.version, originOf(request));
      await app.events.dispatch(events, originOf(request));
      return envelope({ id: block.id, status: 'success' });
    },
  );

  app.post(
    '/api/v3/spaces/blocks/delete',
    {
      schema: {
        tags: ['blocks'],
        summary: 'Delete several blocks of one page at once, each as DELETE block/{id}?version would; answers each one’s outcome',
        body: deleteBlocksBodySchema,
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { pageId, blocks } = request.body;
      const { outcomes, events } = await deleteBlocks(app.db, user.id, pageId, blocks, originOf(request));
      await app.events.dispatch(events, originOf(request));
      return envelope(outcomes);
    },
  );

  app.post(
    '/api/v3/spaces/block/:id/restore',
    { schema: { tags: ['blocks'], summary: 'Restore a deleted block and its children in place', params: idParams } },
    async (request) => {
      const user = requireUser(request);
      const { blocks, events } = await restoreBlock(app.db, user.id, request.params.id);
      await app.events.dispatch(events, originOf(request));
      return envelope(blocks, { count: blocks.length, hasMoreNext: false });
    },
  );

  app.post(
    '/api/v3/spaces/block/:id/move',
    { schema: { tags: ['blocks'], summary: 'Move a block (and its children) under a parent, after a sibling', params: idParams, body: moveBlockBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const { block, events } = await moveBlock(app.db, user.id, request.params.id, request.body);
      await app.events.dispatch(events, originOf(request));
      return envelope(block);
    },
  );

  app.post(
    '/api/v3/spaces/block/:id/clone',
    { schema: { tags: ['blocks'], summary: 'Deep-copy a block and its children right after it', params: idParams, body: cloneBlockBodySchema.nullish() } },
    async (request, reply) => {
      const user = requireUser(request);
      const { blocks, events } = await cloneBlock(app.db, user.id, request.params.id, request.body?.id);
      await app.events.dispatch(events, originOf(request));
      reply.status(201);
      return envelope(blocks, { count: blocks.length, hasMoreNext: false });
    },
  );
}
