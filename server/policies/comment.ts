import type { Kysely } from 'kysely';
import type { AccessLevel } from '../../schema/constants';
import type { Database, PageRow } from '../db/types';
import type { CommentRow } from '../repositories/comments';
import { forbidden } from '../errors';
import { commentAllows, type CommentAction } from '../../schema/policies/comment';
import { pageAccessLevel } from './page';

/** Throws 403 unless the user may do the action (on the comment, for edit and delete); returns their page level. */
export async function authorizeComment(
  db: Kysely<Database>,
  userId: string,
  page: PageRow,
  action: CommentAction,
  comment?: Pick<CommentRow, 'author_id'>,
): Promise<AccessLevel> {
  const level = await pageAccessLevel(db, userId, page);
  if (!commentAllows(level, action, userId, comment && { authorId: comment.author_id }))
    throw forbidden(action === 'read' || action === 'comment' || action === 'react' ? 'this page' : 'this comment');
  return level;
}
