import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  COMMENT_LIMITS,
  commentListQuerySchema,
  commentPathParams,
  createCommentBodySchema,
  editCommentBodySchema,
  mentionedUserIds,
  reactionBodySchema,
  reactionQuerySchema,
  type CommentAttach,
  type CommentToken,
} from '../../schema/comment';
import { newId } from '../../schema/ids';
import type { CommentNotificationContext, NotificationName } from '../../schema/notification';
import { idParams } from '../../schema/params';
import { lockComments } from '../db/locks';
import type { Database, PageRow, UserRow } from '../db/types';
import { forbidden, invalid, notFound } from '../errors';
import { pageOf } from '../pagination';
import { requireUser } from '../plugins/auth';
import { commentAllows } from '../../schema/policies/comment';
import { authorizeComment } from '../policies/comment';
import { envelope } from '../presenters';
import {
  addReaction,
  countReactions,
  findComment,
  findFiles,
  insertComment,
  listThread,
  presentComment,
  presentComments,
  removeComment,
  removeReaction,
  updateComment,
  userReactionCodes,
  type CommentRow,
} from '../repositories/comments';
import { createNotification, deleteCommentNotifications, pageFollowers, pickNotifications } from '../repositories/notifications';
import { assertNotInTrash, loadPage, writablePage } from '../repositories/pages';

/** The notification context of a comment (see docs/api/notifications.md). */
function commentContext(
  comment: Pick<CommentRow, 'id' | 'page_id' | 'author_id' | 'replied_comment_id'>,
  content: CommentToken[],
  attaches: CommentAttach[],
  sourceId: string,
): CommentNotificationContext {
  return {
    elementId: comment.page_id,
    commentId: comment.id,
    authorId: comment.author_id,
    sourceId,
    content,
    repliedCommentId: comment.replied_comment_id,
    composition: {
      hasText: content.some((t) => t.text.trim() !== ''),
      attachesCount: attaches.length,
      mentionsCount: mentionedUserIds(content).length,
    },
  };
}

/** Adds `name` to the candidates of each user (the first added stays the most specific). */
function addCandidates(candidates: Map<string, NotificationName[]>, userIds: readonly string[], name: NotificationName) {
  for (const id of userIds) candidates.set(id, [...(candidates.get(id) ?? []), name]);
}

/** Notifications made inside a comment change, told to their recipients once it commits. */
interface MadeNotification {
  userId: string;
  workspaceId: string;
  id: string;
}
const madeIn = new WeakMap<Kysely<Database>, MadeNotification[]>();

async function storeNotifications(
  db: Kysely<Database>,
  page: PageRow,
  picks: readonly { userId: string; name: NotificationName }[],
  context: Record<string, unknown>,
) {
  for (const pick of picks) {
    const id = await createNotification(db, { userId: pick.userId, workspaceId: page.workspace_id, pageId: page.id, name: pick.name, context });
    madeIn.get(db)?.push({ userId: pick.userId, workspaceId: page.workspace_id, id });
  }
}

export async function commentsRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();

  /** A live (not deleted) comment; 404 otherwise, or when it is not on `pageId`. */
  async function liveComment(id: string, pageId?: string, db: Kysely<Database> = app.db): Promise<CommentRow> {
    const comment = await findComment(db, id);
    if (!comment || comment.deleted_at !== null || (pageId !== undefined && comment.page_id !== pageId)) throw notFound('comment');
    return comment;
  }

  /**
   * Runs a change of a page's comments in one transaction holding the page's comment lock, with
   * the page read again there (404 when gone, 409 page.in_trash when in the trash). The comments
   * it depends on are read again inside too: a reply never lands on a comment deleted meanwhile,
   * a reaction never on a deleted comment (see docs/adr/0003-concurrency.md). Only `trx` may be
   * used inside: on SQLite the transaction holds the one connection.
   */
  async function commentChange<T>(pageId: string, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    const made: MadeNotification[] = [];
    const result = await app.db.transaction().execute(async (trx) => {
      madeIn.set(trx, made);
      await lockComments(trx, pageId);
      await writablePage(trx, pageId);
      return work(trx);
    });
    // Committed: the recipients' inboxes hear of it live.
    for (const note of made) app.realtime.notified(note.userId, note.workspaceId, note.id);
    return result;
  }

  /** Attached files must be files of this page or ones the author uploaded; unknown ids are refused alike. */
  async function checkAttaches(attaches: readonly CommentAttach[], page: PageRow, user: UserRow) {
    const files = new Map(
      (
        await findFiles(
          app.db,
          attaches.map((a) => a.id),
        )
      ).map((f) => [f.id, f]),
    );
    attaches.forEach((attach, index) => {
      const file = files.get(attach.id);
      if (!file || (file.page_id !== page.id && file.owner_id !== user.id)) {
        throw invalid('an attached file is not a file of this page or yours', [{ path: `body.attaches.${index}.id`, message: 'unknown file' }]);
      }
    });
  }

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
      const body = request.body;
      const page = await loadPage(app.db, request.params.id);
      await authorizeComment(app.db, user.id, page, 'comment');
      assertNotInTrash(page);
      let replied: CommentRow | undefined;
      if (body.repliedComment) {
        replied = await findComment(app.db, body.repliedComment);
        if (!replied || replied.page_id !== page.id || replied.deleted_at !== null) throw invalid('repliedComment is not a comment of this page');
      }
      await checkAttaches(body.attaches, page, user);

      const id = newId();
      const candidates = new Map<string, NotificationName[]>();
      addCandidates(candidates, mentionedUserIds(body.content), 'comments.mention_user');
      if (replied) addCandidates(candidates, [replied.author_id], 'comments.replied');
      addCandidates(candidates, await pageFollowers(app.db, page), 'comments.create');
      const picks = await pickNotifications(app.db, page, user.id, candidates);

      const row = await commentChange(page.id, async (trx) => {
        if (replied) {
          const current = await findComment(trx, replied.id);
          if (!current || current.deleted_at !== null) throw invalid('repliedComment is not a comment of this page');
        }
        const inserted = await insertComment(trx, {
          id,
          pageId: page.id,
          repliedCommentId: replied?.id ?? null,
          authorId: user.id,
          content: body.content,
          attaches: body.attaches,
        });
        await storeNotifications(trx, page, picks, { ...commentContext(inserted, body.content, body.attaches, user.id) });
        return inserted;
      });
      reply.status(201);
      return envelope(await presentComment(app.db, row, user.id));
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/comments/:commentId',
    { schema: { tags: ['comments'], summary: 'Edit a comment (its author only)', params: commentPathParams, body: editCommentBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const body = request.body;
      const page = await loadPage(app.db, request.params.id);
      const level = await authorizeComment(app.db, user.id, page, 'read');
      const comment = await liveComment(request.params.commentId, page.id);
      if (!commentAllows(level, 'edit', user.id, { authorId: comment.author_id })) throw forbidden('this comment');
      assertNotInTrash(page);
      const attaches = body.attaches ?? (JSON.parse(comment.attaches) as CommentAttach[]);
      if (attaches.length === 0 && !body.content.some((t) => t.text.trim() !== '')) throw invalid('a comment needs text or an attached file');
      await checkAttaches(attaches, page, user);

      // Only people the edit mentions for the first time hear about it.
      const before = new Set(mentionedUserIds(JSON.parse(comment.content) as CommentToken[]));
      const candidates = new Map<string, NotificationName[]>();
      addCandidates(
        candidates,
        mentionedUserIds(body.content).filter((id) => !before.has(id)),
        'comments.mention_user',
      );
      const picks = await pickNotifications(app.db, page, user.id, candidates);

      const row = await commentChange(page.id, async (trx) => {
        const updated = await updateComment(trx, await liveComment(comment.id, page.id, trx), body.content, attaches);
        await storeNotifications(trx, page, picks, { ...commentContext(updated, body.content, attaches, user.id) });
        return updated;
      });
      return envelope(await presentComment(app.db, row, user.id));
    },
  );

  app.delete(
    '/api/v3/spaces/element/:id/comments/:commentId',
    { schema: { tags: ['comments'], summary: 'Delete a comment (its author, or someone with full access)', params: commentPathParams } },
    async (request) => {
      const user = requireUser(request);
      const page = await loadPage(app.db, request.params.id);
      const level = await authorizeComment(app.db, user.id, page, 'read');
      const comment = await liveComment(request.params.commentId, page.id);
      if (!commentAllows(level, 'delete', user.id, { authorId: comment.author_id })) throw forbidden('this comment');
      assertNotInTrash(page);
      const removed = await commentChange(page.id, async (trx) => {
        const ids = await removeComment(trx, await liveComment(comment.id, page.id, trx));
        await deleteCommentNotifications(trx, ids);
        return ids;
      });
      const kept = await findComment(app.db, comment.id);
      return envelope({
        id: comment.id,
        status: 'success',
        comment: kept ? await presentComment(app.db, kept, user.id) : null,
        removedIds: kept ? removed.filter((id) => id !== kept.id) : removed,
      });
    },
  );

  app.post(
    '/api/v3/spaces/comment/:id/reaction',
    { schema: { tags: ['comments'], summary: 'Add your reaction to a comment', params: idParams, body: reactionBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const { code } = request.body;
      const comment = await liveComment(request.params.id);
      const page = await loadPage(app.db, comment.page_id);
      await authorizeComment(app.db, user.id, page, 'react');
      assertNotInTrash(page);
      const tooMany = (codes: readonly string[]) => !codes.includes(code) && codes.length >= COMMENT_LIMITS.reactionsPerUser;
      const limit = () => invalid(`one person may put at most ${COMMENT_LIMITS.reactionsPerUser} different reactions on a comment`);
      if (tooMany(await userReactionCodes(app.db, comment.id, user.id))) throw limit();
      const picks = await pickNotifications(app.db, page, user.id, new Map([[comment.author_id, ['comments.reaction' as const]]]));
      await commentChange(page.id, async (trx) => {
        // The comment may have been deleted, and the limit reached, by a parallel call.
        await liveComment(comment.id, page.id, trx);
        if (tooMany(await userReactionCodes(trx, comment.id, user.id))) throw limit();
        if (!(await addReaction(trx, comment.id, user.id, code))) return;
        const context = {
          ...commentContext(comment, JSON.parse(comment.content) as CommentToken[], JSON.parse(comment.attaches) as CommentAttach[], user.id),
          reactionCode: code,
          reactionCount: await countReactions(trx, comment.id, code),
        };
        await storeNotifications(trx, page, picks, context);
      });
      return envelope(await presentComment(app.db, comment, user.id));
    },
  );

  app.delete(
    '/api/v3/spaces/comment/:id/reaction',
    { schema: { tags: ['comments'], summary: 'Remove your reaction from a comment', params: idParams, querystring: reactionQuerySchema } },
    async (request) => {
      const user = requireUser(request);
      const comment = await liveComment(request.params.id);
      const page = await loadPage(app.db, comment.page_id);
      await authorizeComment(app.db, user.id, page, 'react');
      assertNotInTrash(page);
      await removeReaction(app.db, comment.id, user.id, request.query.code);
      return envelope(await presentComment(app.db, comment, user.id));
    },
  );
}
