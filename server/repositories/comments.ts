import type { Kysely, Selectable } from 'kysely';
import { COMMENT_LIMITS, type CommentAttach, type CommentToken, type WireComment, type WireReaction } from '../../schema/comment';
import type { WireUser } from '../../schema/user';
import type { CommentTable, Database, UserRow } from '../db/types';
import { presentUser } from '../presenters';
import { nowIso } from '../time';
import { nowAfter, timeAfter } from '../time';

export type CommentRow = Selectable<CommentTable>;

export function findComment(db: Kysely<Database>, id: string): Promise<CommentRow | undefined> {
  return db.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The ids among `ids` that have at least one reply (deleted or not). */
async function idsWithReplies(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('comments').select('replied_comment_id').distinct().where('replied_comment_id', 'in', ids).execute();
  return new Set(rows.map((r) => r.replied_comment_id as string));
}

/**
 * The visible comments of a page (top level) or the visible replies to a comment, oldest first.
 * A deleted comment stays visible while it has replies; one without is hidden.
 */
export async function listThread(db: Kysely<Database>, of: { pageId: string } | { repliedCommentId: string }): Promise<CommentRow[]> {
  let query = db.selectFrom('comments').selectAll();
  query =
    'pageId' in of
      ? query.where('page_id', '=', of.pageId).where('replied_comment_id', 'is', null)
      : query.where('replied_comment_id', '=', of.repliedCommentId);
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  const withReplies = await idsWithReplies(
    db,
    rows.filter((r) => r.deleted_at !== null).map((r) => r.id),
  );
  return rows.filter((r) => r.deleted_at === null || withReplies.has(r.id));
}

/** Visible replies per comment id. */
async function replyCounts(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('comments as c')
    .select(['c.replied_comment_id', (eb) => eb.fn.countAll().as('n')])
    .where('c.replied_comment_id', 'in', ids)
    .where((eb) =>
      eb.or([eb('c.deleted_at', 'is', null), eb.exists(eb.selectFrom('comments as g').select('g.id').whereRef('g.replied_comment_id', '=', 'c.id'))]),
    )
    .groupBy('c.replied_comment_id')
    .execute();
  return new Map(rows.map((r) => [r.replied_comment_id as string, Number(r.n)]));
}

/** Reactions per comment id, in the order each code first appeared. */
async function reactionsOf(db: Kysely<Database>, ids: readonly string[], viewerId: string): Promise<Map<string, WireReaction[]>> {
  const out = new Map<string, WireReaction[]>();
  if (ids.length === 0) return out;
  const rows = await db.selectFrom('comment_reactions').selectAll().where('comment_id', 'in', ids).orderBy('created_at').orderBy('user_id').execute();
  const byComment = new Map<string, Map<string, string[]>>();
  for (const row of rows) {
    const codes = byComment.get(row.comment_id) ?? new Map<string, string[]>();
    codes.set(row.code, [...(codes.get(row.code) ?? []), row.user_id]);
    byComment.set(row.comment_id, codes);
  }
  for (const [commentId, codes] of byComment) {
    out.set(
      commentId,
      [...codes].map(([code, users]) => ({
        code,
        count: users.length,
        meReacted: users.includes(viewerId),
        lastReactors: users.slice(-COMMENT_LIMITS.lastReactors).reverse(),
      })),
    );
  }
  return out;
}

/** The author shown when the author's account is gone: the anonymous placeholder the user API uses too. */
export function defaultAuthor(id: string): WireUser {
  return { id, email: '', name: '', avatar_url: null, anonymous: true, telegramId: null, createdAt: '' };
}

export function presentCommentRow(row: CommentRow, author: UserRow | undefined, reactions: WireReaction[], countReplies: number): WireComment {
  return {
    id: row.id,
    contentType: 'Comment',
    parent: row.replied_comment_id ? { type: 'comment', id: row.replied_comment_id } : { type: 'page', id: row.page_id },
    elementId: row.page_id,
    content: JSON.parse(row.content) as CommentToken[],
    attaches: JSON.parse(row.attaches) as CommentAttach[],
    reactions,
    author: author ? presentUser(author) : defaultAuthor(row.author_id),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    repliedComment: row.replied_comment_id,
    isDeleted: row.deleted_at !== null,
    countReplies,
  };
}

/** Comments on the wire as `viewerId` sees them (meReacted), with authors, reactions and reply counts. */
export async function presentComments(db: Kysely<Database>, rows: readonly CommentRow[], viewerId: string): Promise<WireComment[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const authorIds = [...new Set(rows.map((r) => r.author_id))];
  const [authors, reactions, counts] = await Promise.all([
    db.selectFrom('users').selectAll().where('id', 'in', authorIds).execute(),
    reactionsOf(db, ids, viewerId),
    replyCounts(db, ids),
  ]);
  const authorById = new Map(authors.map((a) => [a.id, a]));
  return rows.map((row) => presentCommentRow(row, authorById.get(row.author_id), reactions.get(row.id) ?? [], counts.get(row.id) ?? 0));
}

export async function presentComment(db: Kysely<Database>, row: CommentRow, viewerId: string): Promise<WireComment> {
  return (await presentComments(db, [row], viewerId))[0];
}

export interface NewComment {
  id: string;
  pageId: string;
  repliedCommentId: string | null;
  authorId: string;
  content: CommentToken[];
  attaches: CommentAttach[];
}

/**
 * Stores a comment. Its time is strictly after the page's newest comment, so the order readers
 * see is the order comments were written in, even within one millisecond.
 */
export async function insertComment(db: Kysely<Database>, input: NewComment): Promise<CommentRow> {
  const last = await db
    .selectFrom('comments')
    .select('created_at')
    .where('page_id', '=', input.pageId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const now = nowAfter(last?.created_at);
  const row: CommentRow = {
    id: input.id,
    page_id: input.pageId,
    replied_comment_id: input.repliedCommentId,
    author_id: input.authorId,
    content: JSON.stringify(input.content),
    attaches: JSON.stringify(input.attaches),
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  await insertCommentRow(db, row);
  return row;
}

/** Stores a comment as it is given, times included (an imported comment keeps its own). */
export async function insertCommentRow(db: Kysely<Database>, row: CommentRow): Promise<void> {
  await db.insertInto('comments').values(row).execute();
}

/** A page's live comments with their authors, oldest first (an export's). */
export function listLiveCommentsWithAuthors(db: Kysely<Database>, pageId: string) {
  return db
    .selectFrom('comments as c')
    .innerJoin('users as u', 'u.id', 'c.author_id')
    .select(['c.id', 'c.replied_comment_id', 'c.content', 'c.attaches', 'c.created_at', 'c.updated_at', 'u.id as author_id', 'u.name', 'u.email'])
    .where('c.page_id', '=', pageId)
    .where('c.deleted_at', 'is', null)
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
}

export async function updateComment(db: Kysely<Database>, row: CommentRow, content: CommentToken[], attaches: CommentAttach[]): Promise<CommentRow> {
  const updated = { content: JSON.stringify(content), attaches: JSON.stringify(attaches), updated_at: nowAfter(row.updated_at) };
  await db.updateTable('comments').set(updated).where('id', '=', row.id).where('deleted_at', 'is', null).execute();
  return { ...row, ...updated };
}

async function hasReplies(db: Kysely<Database>, id: string): Promise<boolean> {
  return (await idsWithReplies(db, [id])).size > 0;
}

/**
 * Deletes a comment (call inside a transaction). With replies it stays as a deleted comment with
 * empty content, attaches and reactions; without, its row goes, and so does every deleted
 * ancestor left without replies. Answers the ids that are gone or emptied.
 */
export async function removeComment(db: Kysely<Database>, comment: CommentRow): Promise<string[]> {
  if (await hasReplies(db, comment.id)) {
    const now = nowIso();
    await db
      .updateTable('comments')
      .set({ deleted_at: now, updated_at: timeAfter(now, comment.updated_at), content: '[]', attaches: '[]' })
      .where('id', '=', comment.id)
      .execute();
    await db.deleteFrom('comment_reactions').where('comment_id', '=', comment.id).execute();
    return [comment.id];
  }
  const removed = [comment.id];
  await db.deleteFrom('comments').where('id', '=', comment.id).execute();
  let parentId = comment.replied_comment_id;
  while (parentId) {
    const parent = await findComment(db, parentId);
    if (!parent || parent.deleted_at === null || (await hasReplies(db, parent.id))) break;
    await db.deleteFrom('comments').where('id', '=', parent.id).execute();
    removed.push(parent.id);
    parentId = parent.replied_comment_id;
  }
  return removed;
}

/** The distinct codes a user has put on a comment. */
export async function userReactionCodes(db: Kysely<Database>, commentId: string, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('comment_reactions').select('code').where('comment_id', '=', commentId).where('user_id', '=', userId).execute();
  return rows.map((r) => r.code);
}

/** Adds a user's reaction; false when it was there already. */
export async function addReaction(db: Kysely<Database>, commentId: string, userId: string, code: string): Promise<boolean> {
  const last = await db
    .selectFrom('comment_reactions')
    .select('created_at')
    .where('comment_id', '=', commentId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  // Strictly after the newest reaction, so "last reactors" follow the order people reacted in.
  const result = await db
    .insertInto('comment_reactions')
    .values({ comment_id: commentId, user_id: userId, code, created_at: nowAfter(last?.created_at) })
    .onConflict((oc) => oc.columns(['comment_id', 'user_id', 'code']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function removeReaction(db: Kysely<Database>, commentId: string, userId: string, code: string): Promise<void> {
  await db.deleteFrom('comment_reactions').where('comment_id', '=', commentId).where('user_id', '=', userId).where('code', '=', code).execute();
}

export async function countReactions(db: Kysely<Database>, commentId: string, code: string): Promise<number> {
  const row = await db
    .selectFrom('comment_reactions')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('comment_id', '=', commentId)
    .where('code', '=', code)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The stored files among `ids`, with who uploaded them and to which page. */
export function findFiles(db: Kysely<Database>, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('files').select(['id', 'owner_id', 'page_id']).where('id', 'in', ids).execute();
}
