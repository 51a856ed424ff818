import { z } from 'zod';
import { jsonQuery, pageQueryShape } from './query';
import { tokenSchema } from './token';
import { wireUserSchema } from './user';

/** Size limits of one comment. */
export const COMMENT_LIMITS = {
  textLength: 10_000,
  tokens: 1_000,
  attaches: 20,
  attachNameLength: 255,
  attachExtensionLength: 32,
  reactionCodeLength: 64,
  /** Different reaction codes one user may put on one comment. */
  reactionsPerUser: 20,
  /** How many of the newest reactors a reaction lists. */
  lastReactors: 3,
} as const;

const idSchema = z.string().min(1).max(128);

/** A mention inside a comment: the token's text is what readers see (`@Анна`), the user id is who is meant. */
export const mentionSchema = z.object({ userId: idSchema }).strict();

/**
 * A run of comment text: the block token's modifiers (bold, italic, underline, struckOut, code,
 * link) plus an optional mention. Table addresses and comment lists belong to blocks only.
 */
export const commentTokenSchema = tokenSchema
  .omit({ tableAddress: true, comments: true })
  .extend({ text: z.string().min(1).max(COMMENT_LIMITS.textLength), mention: mentionSchema.optional() })
  .strict();
export type CommentToken = z.infer<typeof commentTokenSchema>;

export const commentContentSchema = z
  .array(commentTokenSchema)
  .max(COMMENT_LIMITS.tokens)
  .refine((tokens) => tokens.reduce((n, t) => n + t.text.length, 0) <= COMMENT_LIMITS.textLength, {
    message: `a comment holds at most ${COMMENT_LIMITS.textLength} characters`,
  });

/** An attached file: the id of a file of the page (or one the author uploaded), its name and extension. */
export const commentAttachSchema = z
  .object({
    id: idSchema,
    name: z.string().min(1).max(COMMENT_LIMITS.attachNameLength),
    extension: z.string().max(COMMENT_LIMITS.attachExtensionLength),
  })
  .strict();
export type CommentAttach = z.infer<typeof commentAttachSchema>;

const attachesSchema = z
  .array(commentAttachSchema)
  .max(COMMENT_LIMITS.attaches)
  .refine((attaches) => new Set(attaches.map((a) => a.id)).size === attaches.length, { message: 'a file is attached twice' });

/** The user ids a comment mentions, each once, in order of appearance. */
export function mentionedUserIds(content: readonly CommentToken[]): string[] {
  return [...new Set(content.flatMap((t) => (t.mention ? [t.mention.userId] : [])))];
}

/** True when the comment says something: visible text or at least one file. */
function hasSubstance(content: readonly CommentToken[], attaches: readonly CommentAttach[]): boolean {
  return attaches.length > 0 || content.some((t) => t.text.trim() !== '');
}
const emptyComment = { message: 'a comment needs text or an attached file', path: ['content'] };

/** POST element/{id}/comments. */
export const createCommentBodySchema = z
  .object({
    content: commentContentSchema,
    attaches: attachesSchema.default([]),
    /** A comment of the same page this one answers. */
    repliedComment: idSchema.nullable().optional(),
  })
  .strict()
  .refine((body) => hasSubstance(body.content, body.attaches), emptyComment);
export type CreateCommentBody = z.infer<typeof createCommentBodySchema>;

/** POST element/{id}/comments/{commentId}: new content; attaches stay as they are when absent. */
export const editCommentBodySchema = z.object({ content: commentContentSchema, attaches: attachesSchema.optional() }).strict();

/** A reaction code: an emoji or a short name such as `+1`. */
export const reactionCodeSchema = z.string().trim().min(1).max(COMMENT_LIMITS.reactionCodeLength);

/** POST comment/{id}/reaction. */
export const reactionBodySchema = z.object({ code: reactionCodeSchema }).strict();
/** DELETE comment/{id}/reaction?code="…". */
export const reactionQuerySchema = jsonQuery({ code: reactionCodeSchema });

/** GET element/{id}/comments and comment/{id}/comments. */
export const commentListQuerySchema = jsonQuery({ ...pageQueryShape });

export const commentPathParams = z.object({ id: idSchema, commentId: idSchema });

export const wireReactionSchema = z.object({
  code: z.string(),
  count: z.number().int(),
  meReacted: z.boolean(),
  /** Ids of the newest reactors, newest first (at most COMMENT_LIMITS.lastReactors). */
  lastReactors: z.array(z.string()),
});
export type WireReaction = z.infer<typeof wireReactionSchema>;

/** A comment on the wire. */
export const wireCommentSchema = z.object({
  id: z.string(),
  contentType: z.literal('Comment'),
  /** The page for a top-level comment, the answered comment for a reply. */
  parent: z.object({ type: z.enum(['page', 'comment']), id: z.string() }),
  elementId: z.string(),
  content: z.array(commentTokenSchema),
  attaches: z.array(commentAttachSchema),
  reactions: z.array(wireReactionSchema),
  author: wireUserSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  repliedComment: z.string().nullable(),
  isDeleted: z.boolean(),
  countReplies: z.number().int(),
});
export type WireComment = z.infer<typeof wireCommentSchema>;
