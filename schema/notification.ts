import { z } from 'zod';
import { commentTokenSchema } from './comment';
import { jsonQuery, pageQueryShape } from './query';

/** The notification names the server produces (api-contract: notification types). */
export const NOTIFICATION_NAMES = [
  'comments.create',
  'comments.mention_user',
  'comments.replied',
  'comments.reaction',
  'element_members.invite.member',
  'reminders.due',
] as const;
export type NotificationName = (typeof NOTIFICATION_NAMES)[number];

/** Inbox filters (spec: all, read, unread). */
export const NOTIFICATION_FILTERS = ['all', 'read', 'unread'] as const;

/** What a comment notification's `composition` says about the comment: enough to word a line. */
export const commentCompositionSchema = z.object({
  hasText: z.boolean(),
  attachesCount: z.number().int(),
  mentionsCount: z.number().int(),
});

/**
 * Context of comments.create, comments.mention_user and comments.replied.
 * `authorId` wrote the comment; `sourceId` is who acted (the same person here; the reactor for a reaction).
 */
export const commentNotificationContextSchema = z.object({
  elementId: z.string(),
  commentId: z.string(),
  authorId: z.string(),
  sourceId: z.string(),
  content: z.array(commentTokenSchema),
  repliedCommentId: z.string().nullable(),
  composition: commentCompositionSchema,
});
export type CommentNotificationContext = z.infer<typeof commentNotificationContextSchema>;

/** Context of comments.reaction: the comment's fields plus the reaction; `sourceId` is the reactor. */
export const reactionNotificationContextSchema = commentNotificationContextSchema.extend({
  reactionCode: z.string(),
  reactionCount: z.number().int(),
});

export const inviteNotificationContextSchema = z.object({ elementId: z.string(), senderId: z.string() });

/**
 * Context of reminders.due: a date mention's reminder went off (issue 39): the page and block it
 * is in, who set it (`senderId`: the person reminded), its text, its day and time on the
 * writer's clock (`start`) and the instant it was set for.
 */
export const reminderNotificationContextSchema = z.object({
  elementId: z.string(),
  blockId: z.string(),
  senderId: z.string(),
  label: z.string(),
  start: z.string(),
  remindAt: z.string(),
});

const base = { id: z.string(), is_read: z.boolean(), created_at: z.string(), workspace_id: z.string().nullable() };

/** A notification on the wire; the context's fields depend on the name. */
export const wireNotificationSchema = z.discriminatedUnion('name', [
  z.object({ ...base, name: z.literal('comments.create'), context: commentNotificationContextSchema }),
  z.object({ ...base, name: z.literal('comments.mention_user'), context: commentNotificationContextSchema }),
  z.object({ ...base, name: z.literal('comments.replied'), context: commentNotificationContextSchema }),
  z.object({ ...base, name: z.literal('comments.reaction'), context: reactionNotificationContextSchema }),
  z.object({ ...base, name: z.literal('element_members.invite.member'), context: inviteNotificationContextSchema }),
  z.object({ ...base, name: z.literal('reminders.due'), context: reminderNotificationContextSchema }),
]);
export type WireNotification = z.infer<typeof wireNotificationSchema>;

/** GET /api/notifications: filter and isRead both apply when both are given. */
export const notificationListQuerySchema = jsonQuery({
  filter: z.enum(NOTIFICATION_FILTERS).optional(),
  isRead: z.boolean().optional(),
  workspaceId: z.string().min(1).max(128).optional(),
  ...pageQueryShape,
});

/** POST /api/notifications/markIsRead and DELETE /api/notifications/all: optionally one workspace only. */
export const notificationScopeBodySchema = z.object({ workspaceId: z.string().min(1).max(128).optional() }).strict();
export const notificationScopeQuerySchema = jsonQuery({ workspaceId: z.string().min(1).max(128).optional() });

/**
 * Per-page notification settings of one user. `comments`: new comments on the page
 * (comments.create); `replies`: answers to the user's comments (comments.replied); `mentions`:
 * comments.mention_user; `reactions`: comments.reaction. All on by default.
 */
export const notificationSettingsSchema = z.object({
  comments: z.boolean(),
  replies: z.boolean(),
  mentions: z.boolean(),
  reactions: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = { comments: true, replies: true, mentions: true, reactions: true };

/** POST /api/v3/spaces/notifications/{id}/settings: the keys to change; the others keep their value. */
export const notificationSettingsBodySchema = z
  .object({
    contentType: z.literal('ElementNotificationSettings').optional(),
    settings: notificationSettingsSchema.partial().strict(),
  })
  .strict();

export const wireNotificationSettingsSchema = z.object({
  contentType: z.literal('ElementNotificationSettings'),
  elementId: z.string(),
  settings: notificationSettingsSchema,
});
export type WireNotificationSettings = z.infer<typeof wireNotificationSettingsSchema>;
