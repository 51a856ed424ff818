import type { Kysely } from 'kysely';
import { newId } from '../../schema/ids';
import type { Database } from '../db/types';
import { nowIso } from '../time';

/** The notification names the server produces (api-contract: notification types). */
export const NOTIFICATION_NAMES = [
  'comments.create',
  'comments.mention_user',
  'comments.replied',
  'comments.reaction',
  'element_members.invite.member',
] as const;
export type NotificationName = (typeof NOTIFICATION_NAMES)[number];

export interface NewNotification {
  userId: string;
  workspaceId: string | null;
  pageId: string | null;
  name: NotificationName;
  /** The context fields for this name (see the contract's table). */
  context: Record<string, unknown>;
}

/**
 * Stores a notification for one recipient. Callers decide who is notified (never the actor,
 * never someone without access); per-page settings are applied by the caller too.
 */
export async function createNotification(db: Kysely<Database>, input: NewNotification): Promise<string> {
  const id = newId();
  await db
    .insertInto('notifications')
    .values({
      id,
      user_id: input.userId,
      workspace_id: input.workspaceId,
      page_id: input.pageId,
      name: input.name,
      context: JSON.stringify(input.context),
      is_read: 0,
      created_at: nowIso(),
    })
    .execute();
  return id;
}
