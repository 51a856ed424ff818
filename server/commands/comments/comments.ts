import type { Kysely, Transaction } from 'kysely';
import { COMMENT_LIMITS, mentionedUserIds, type CommentAttach, type CommentToken } from '../../../schema/comment';
import { newId } from '../../../schema/ids';
import type { CommentNotificationContext, NotificationName } from '../../../schema/notification';
import { commentAllows } from '../../../schema/policies/comment';
import { lockComments } from '../../db/locks';
import type { Database, PageRow } from '../../db/types';
import { AppError, forbidden, invalid, notFound } from '../../errors';
import { ERROR_CODES } from '../../../schema/errors';
import { authorizeComment } from '../../policies/comment';
import {
  addReaction,
  countReactions,
  findComment,
  findFiles,
  insertComment,
  removeComment,
  removeReaction,
  updateComment,
  userReactionCodes,
  type CommentRow,
} from '../../repositories/comments';
import { createNotification, deleteCommentNotifications, pageFollowers, pickNotifications } from '../../repositories/notifications';
import { loadPage } from '../../repositories/pages';
import { assertWritable, writablePage } from '../../policies/page';
import { nowIso } from '../../time';
import type { DomainEvent } from '../../events/events';

/*
 * The comment commands (docs/api/comments.md): write, edit, delete, react. Each authorizes on the
 * comment's page, checks what it can before its transaction, and makes its change under the page's
 * comment lock with what it depends on read again there (docs/adr/0003-concurrency.md). The
 * notifications a change makes come back as `notified` events: their recipients' inboxes hear of
 * them once the change is committed.
 */

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

/**
 * Runs a change of a page's comments in one transaction holding the page's comment lock, with the
 * page read again there (404 when gone, 409 page.in_trash when in the trash). The comments it
 * depends on are read again inside too, by `work`: a reply never lands on a comment deleted
 * meanwhile, a reaction never on a deleted comment. Only `trx` may be used inside: on SQLite the
 * transaction holds the one connection. `note` stores a notification and keeps it for the answer.
 */
async function commentChange<T>(
  db: Kysely<Database>,
  page: PageRow,
  work: (
    trx: Transaction<Database>,
    note: (picks: readonly { userId: string; name: NotificationName }[], context: Record<string, unknown>) => Promise<void>,
  ) => Promise<T>,
): Promise<{ result: T; events: DomainEvent[] }> {
  const events: DomainEvent[] = [];
  const result = await db.transaction().execute(async (trx) => {
    await lockComments(trx, page.id);
    await writablePage(trx, page.id);
    return work(trx, async (picks, context) => {
      for (const pick of picks) {
        const id = await createNotification(trx, { userId: pick.userId, workspaceId: page.workspace_id, pageId: page.id, name: pick.name, context });
        events.push({ kind: 'notified', userId: pick.userId, workspaceId: page.workspace_id, notificationId: id });
      }
    });
  });
  return { result, events };
}

/** A live (not deleted) comment; 404 otherwise, or when it is not on `pageId`. */
async function liveComment(db: Kysely<Database>, id: string, pageId?: string): Promise<CommentRow> {
  const comment = await findComment(db, id);
  if (!comment || comment.deleted_at !== null || (pageId !== undefined && comment.page_id !== pageId)) throw notFound('comment');
  return comment;
}

/** Attached files must be files of this page or ones the author uploaded; unknown ids are refused alike. */
async function checkAttaches(db: Kysely<Database>, attaches: readonly CommentAttach[], page: PageRow, userId: string) {
  const files = new Map(
    (
      await findFiles(
        db,
        attaches.map((a) => a.id),
      )
    ).map((f) => [f.id, f]),
  );
  attaches.forEach((attach, index) => {
    const file = files.get(attach.id);
    if (!file || (file.page_id !== page.id && file.owner_id !== userId)) {
      throw invalid('an attached file is not a file of this page or yours', [{ path: `body.attaches.${index}.id`, message: 'unknown file' }]);
    }
  });
}

/**
 * A comment, or a reply to a live comment of the page, by someone who may comment there (not in
 * the trash). Those it mentions, the author replied to and the page's followers are notified, each
 * once, by the most specific reason their settings allow.
 */
export async function writeComment(
  db: Kysely<Database>,
  userId: string,
  pageId: string,
  body: { content: CommentToken[]; attaches: CommentAttach[]; repliedComment?: string | null },
): Promise<{ comment: CommentRow; events: DomainEvent[] }> {
  const page = await loadPage(db, pageId);
  await authorizeComment(db, userId, page, 'comment');
  await assertWritable(db, page);
  let replied: CommentRow | undefined;
  if (body.repliedComment) {
    replied = await findComment(db, body.repliedComment);
    if (!replied || replied.page_id !== page.id || replied.deleted_at !== null) throw invalid('repliedComment is not a comment of this page');
  }
  await checkAttaches(db, body.attaches, page, userId);

  const candidates = new Map<string, NotificationName[]>();
  addCandidates(candidates, mentionedUserIds(body.content), 'comments.mention_user');
  if (replied) addCandidates(candidates, [replied.author_id], 'comments.replied');
  addCandidates(candidates, await pageFollowers(db, page), 'comments.create');
  const picks = await pickNotifications(db, page, userId, candidates);

  const { result, events } = await commentChange(db, page, async (trx, note) => {
    if (replied) {
      const current = await findComment(trx, replied.id);
      if (!current || current.deleted_at !== null) throw invalid('repliedComment is not a comment of this page');
    }
    const inserted = await insertComment(trx, {
      id: newId(),
      pageId: page.id,
      repliedCommentId: replied?.id ?? null,
      authorId: userId,
      content: body.content,
      attaches: body.attaches,
    });
    await note(picks, { ...commentContext(inserted, body.content, body.attaches, userId) });
    return inserted;
  });
  return { comment: result, events: [...events, { kind: 'commentChanged', pageId: page.id, commentId: result.id, action: 'created', at: nowIso() }] };
}

/** Its author's new text (and files, else the ones it had); only people it mentions for the first time are notified. */
export async function editComment(
  db: Kysely<Database>,
  userId: string,
  pageId: string,
  commentId: string,
  body: { content: CommentToken[]; attaches?: CommentAttach[] },
): Promise<{ comment: CommentRow; events: DomainEvent[] }> {
  const page = await loadPage(db, pageId);
  const level = await authorizeComment(db, userId, page, 'read');
  const comment = await liveComment(db, commentId, page.id);
  if (!commentAllows(level, 'edit', userId, { authorId: comment.author_id })) throw forbidden('this comment');
  await assertWritable(db, page);
  const attaches = body.attaches ?? (JSON.parse(comment.attaches) as CommentAttach[]);
  if (attaches.length === 0 && !body.content.some((t) => t.text.trim() !== '')) throw invalid('a comment needs text or an attached file');
  await checkAttaches(db, attaches, page, userId);

  const before = new Set(mentionedUserIds(JSON.parse(comment.content) as CommentToken[]));
  const candidates = new Map<string, NotificationName[]>();
  addCandidates(
    candidates,
    mentionedUserIds(body.content).filter((id) => !before.has(id)),
    'comments.mention_user',
  );
  const picks = await pickNotifications(db, page, userId, candidates);

  const { result, events } = await commentChange(db, page, async (trx, note) => {
    const updated = await updateComment(trx, await liveComment(trx, comment.id, page.id), body.content, attaches);
    await note(picks, { ...commentContext(updated, body.content, attaches, userId) });
    return updated;
  });
  return { comment: result, events: [...events, { kind: 'commentChanged', pageId: page.id, commentId: result.id, action: 'edited', at: nowIso() }] };
}

/**
 * Deletes a comment (its author, or someone with full access) with its notifications. A comment
 * with replies stays as «deleted» while they are there (`kept`); `removed`: the ids gone.
 */
export async function deleteComment(
  db: Kysely<Database>,
  userId: string,
  pageId: string,
  commentId: string,
): Promise<{ removed: string[]; kept: CommentRow | undefined; events: DomainEvent[] }> {
  const page = await loadPage(db, pageId);
  const level = await authorizeComment(db, userId, page, 'read');
  const comment = await liveComment(db, commentId, page.id);
  if (!commentAllows(level, 'delete', userId, { authorId: comment.author_id })) throw forbidden('this comment');
  await assertWritable(db, page);
  const { result: removed } = await commentChange(db, page, async (trx) => {
    const ids = await removeComment(trx, await liveComment(trx, comment.id, page.id));
    await deleteCommentNotifications(trx, ids);
    return ids;
  });
  const kept = await findComment(db, comment.id);
  return {
    removed: kept ? removed.filter((id) => id !== kept.id) : removed,
    kept,
    events: [{ kind: 'commentChanged', pageId: page.id, commentId: comment.id, action: 'deleted', at: nowIso() }],
  };
}

/** Someone who may react puts a reaction on a live comment (at most COMMENT_LIMITS.reactionsPerUser different ones); its author is notified. */
export async function reactToComment(
  db: Kysely<Database>,
  userId: string,
  commentId: string,
  code: string,
): Promise<{ comment: CommentRow; events: DomainEvent[] }> {
  const comment = await liveComment(db, commentId);
  const page = await loadPage(db, comment.page_id);
  await authorizeComment(db, userId, page, 'react');
  await assertWritable(db, page);
  const tooMany = (codes: readonly string[]) => !codes.includes(code) && codes.length >= COMMENT_LIMITS.reactionsPerUser;
  const limit = () =>
    new AppError(422, ERROR_CODES.commentReactionLimit, `one person may put at most ${COMMENT_LIMITS.reactionsPerUser} different reactions on a comment`);
  if (tooMany(await userReactionCodes(db, comment.id, userId))) throw limit();
  const picks = await pickNotifications(db, page, userId, new Map([[comment.author_id, ['comments.reaction' as const]]]));
  const { result: added, events } = await commentChange(db, page, async (trx, note) => {
    // The comment may have been deleted, and the limit reached, by a parallel call.
    await liveComment(trx, comment.id, page.id);
    if (tooMany(await userReactionCodes(trx, comment.id, userId))) throw limit();
    if (!(await addReaction(trx, comment.id, userId, code))) return false;
    await note(picks, {
      ...commentContext(comment, JSON.parse(comment.content) as CommentToken[], JSON.parse(comment.attaches) as CommentAttach[], userId),
      reactionCode: code,
      reactionCount: await countReactions(trx, comment.id, code),
    });
    return true;
  });
  // The same reaction again changes nothing: nothing to tell.
  return { comment, events: added ? [...events, { kind: 'commentChanged', pageId: page.id, commentId: comment.id, action: 'reacted', at: nowIso() }] : events };
}

/** Takes the caller's reaction off a live comment. */
export async function unreactToComment(db: Kysely<Database>, userId: string, commentId: string, code: string): Promise<CommentRow> {
  const comment = await liveComment(db, commentId);
  const page = await loadPage(db, comment.page_id);
  await authorizeComment(db, userId, page, 'react');
  await assertWritable(db, page);
  await removeReaction(db, comment.id, userId, code);
  return comment;
}
