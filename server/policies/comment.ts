import type { Kysely } from 'kysely';
import type { AccessLevel } from '../../schema/constants';
import type { Database, PageRow } from '../db/types';
import type { CommentRow } from '../repositories/comments';
import { forbidden } from '../errors';
import { allows, pageAccessLevel } from './page';

/**
 * read: list comments and replies. comment: write a comment or a reply. react: add or remove
 * one's own reaction. edit: change a comment. delete: remove a comment.
 */
export type CommentAction = 'read' | 'comment' | 'react' | 'edit' | 'delete';

/**
 * May a user with this page level do this? Everything needs read access on the page (a reader
 * may comment and react); editing is the author's alone; deleting is the author's or, for
 * anybody's comment, someone with full access on the page.
 */
export function commentAllows(level: AccessLevel, action: CommentAction, userId: string, comment?: Pick<CommentRow, 'author_id'>): boolean {
  if (!allows(level, 'read')) return false;
  if (action === 'edit') return comment !== undefined && comment.author_id === userId;
  if (action === 'delete') return comment !== undefined && (comment.author_id === userId || allows(level, 'share'));
  return true;
}

/** Throws 403 unless the user may do the action (on the comment, for edit and delete); returns their page level. */
export async function authorizeComment(
  db: Kysely<Database>,
  userId: string,
  page: PageRow,
  action: CommentAction,
  comment?: Pick<CommentRow, 'author_id'>,
): Promise<AccessLevel> {
  const level = await pageAccessLevel(db, userId, page);
  if (!commentAllows(level, action, userId, comment)) throw forbidden(action === 'read' || action === 'comment' || action === 'react' ? 'this page' : 'this comment');
  return level;
}
