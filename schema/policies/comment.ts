import type { AccessLevel } from '../constants';
import { allows } from './page';

/**
 * read: list comments and replies. comment: write a comment or a reply. react: add or remove
 * one's own reaction. edit: change a comment. delete: remove a comment.
 */
export type CommentAction = 'read' | 'comment' | 'react' | 'edit' | 'delete';

/**
 * May a user with this page level do this? Everything needs read access on the page (a reader
 * may comment and react); editing is the author's alone; deleting is the author's or, for
 * anybody's comment, someone with full access on the page. Edit and delete are judged on a
 * comment: without one they are refused.
 */
export function commentAllows(level: AccessLevel, action: CommentAction, userId: string, comment?: { authorId: string }): boolean {
  if (!allows(level, 'read')) return false;
  if (action === 'edit') return comment !== undefined && comment.authorId === userId;
  if (action === 'delete') return comment !== undefined && (comment.authorId === userId || allows(level, 'share'));
  return true;
}
