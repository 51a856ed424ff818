import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  commentListQuerySchema,
  commentPathParams,
  createCommentBodySchema,
  editCommentBodySchema,
  reactionBodySchema,
  reactionQuerySchema,
} from '../../schema/comment';
import { idParams } from '../../schema/params';
import { deleteComment, editComment, reactToComment, unreactToComment, writeComment } from '../commands/comments/comments';
import { notFound } from '../errors';
import { pageOf } from '../pagination';
import { requireUser } from '../plugins/auth';
import { authorizeComment } from '../policies/comment';
import { envelope } from '../presenters';
import { findComment, listThread, presentComment, presentComments } from '../repositories/comments';
import { loadPage } from '../repositories/pages';

/*
 * Comments (docs/api/comments.md): reading threads here; writing, editing, deleting and reacting
 * are commands (server/commands/comments/), whose notifications are told live once committed.
 */

export async function commentsRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/v3/spaces/element/:id/comments',
    { schema: { tags: ['comments'], summary: 'Comments of a page (top level), oldest first', params: idParams, querystring: commentListQuerySchema } },
    async (request) => {
      const user = requireUser(request);
      const page = await loadPage(app.db, request.params.id);
      await authorizeComment(app.db, user.id, page, 'read');
      const slice = pageOf(await listThread(app.db, { pageId: page.id }), 'Comment', request.query.cursor, request.query.limit);
      return envelope(await presentComments(app.db, slice.data, user.id), slice.meta);
    },
  );

  app.get(
    '/api/v3/spaces/comment/:id/comments',
    { schema: { tags: ['comments'], summary: 'Replies to a comment, oldest first', params: idParams, querystring: commentListQuerySchema } },
    async (request) => {
      const user = requireUser(request);
      const comment = await findComment(app.db, request.params.id);
      if (!comment) throw notFound('comment');
      await authorizeComment(app.db, user.id, await loadPage(app.db, comment.page_id), 'read');
      const replies = await listThread(app.db, { repliedCommentId: comment.id });
      // A deleted comment is only there while it has replies.
      if (comment.deleted_at !== null && replies.length === 0) throw notFound('comment');
      const slice = pageOf(replies, 'Comment', request.query.cursor, request.query.limit);
      return envelope(await presentComments(app.db, slice.data, user.id), slice.meta);
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/comments',
    { schema: { tags: ['comments'], summary: 'Write a comment or a reply on a page', params: idParams, body: createCommentBodySchema } },
    async (request, reply) => {
      const user = requireUser(request);
      const { comment, events } = await writeComment(app.db, user.id, request.params.id, request.body);
      await app.events.dispatch(events, null);
      reply.status(201);
      return envelope(await presentComment(app.db, comment, user.id));
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/comments/:commentId',
    { schema: { tags: ['comments'], summary: 'Edit a comment (its author only)', params: commentPathParams, body: editCommentBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const { comment, events } = await editComment(app.db, user.id, request.params.id, request.params.commentId, request.body);
      await app.events.dispatch(events, null);
      return envelope(await presentComment(app.db, comment, user.id));
    },
  );

  app.delete(
    '/api/v3/spaces/element/:id/comments/:commentId',
    { schema: { tags: ['comments'], summary: 'Delete a comment (its author, or someone with full access)', params: commentPathParams } },
    async (request) => {
      const user = requireUser(request);
      const { removed, kept, events } = await deleteComment(app.db, user.id, request.params.id, request.params.commentId);
      await app.events.dispatch(events, null);
      return envelope({
        id: request.params.commentId,
        status: 'success',
        comment: kept ? await presentComment(app.db, kept, user.id) : null,
        removedIds: removed,
      });
    },
  );

  app.post(
    '/api/v3/spaces/comment/:id/reaction',
    { schema: { tags: ['comments'], summary: 'Add your reaction to a comment', params: idParams, body: reactionBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const { comment, events } = await reactToComment(app.db, user.id, request.params.id, request.body.code);
      await app.events.dispatch(events, null);
      return envelope(await presentComment(app.db, comment, user.id));
    },
  );

  app.delete(
    '/api/v3/spaces/comment/:id/reaction',
    { schema: { tags: ['comments'], summary: 'Remove your reaction from a comment', params: idParams, querystring: reactionQuerySchema } },
    async (request) => {
      const user = requireUser(request);
      const comment = await unreactToComment(app.db, user.id, request.params.id, request.query.code);
      return envelope(await presentComment(app.db, comment, user.id));
    },
  );
}
