import { z } from 'zod';
import { LIMITS } from './constants';
import type { WireUser } from './user';

/** The levels a share can give (none is "not a member": remove the member instead). */
export const GRANTABLE_LEVELS = ['read', 'edit', 'full'] as const;
export type GrantableLevel = (typeof GRANTABLE_LEVELS)[number];

/** Most people one member/add call may name. */
export const MAX_PAGE_MEMBERS_PER_ADD = 100;

const userIdSchema = z.string().min(1).max(128);

/**
 * One person to share with: an existing member of the page's workspace by `userId`, or anyone by
 * `email` (an unknown address gets an account and an invitation). Exactly one of the two.
 * The e-mail is checked by the server, which skips a bad one instead of failing the batch.
 */
export const memberEntrySchema = z
  .object({
    userId: userIdSchema.optional(),
    email: z.string().max(LIMITS.emailLength * 2).optional(),
    accessLevel: z.enum(GRANTABLE_LEVELS).default('read'),
  })
  .strict()
  .superRefine((entry, ctx) => {
    if ((entry.userId === undefined) === (entry.email === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of userId and email' });
    }
  });
export type MemberEntry = z.infer<typeof memberEntrySchema>;

/** POST element/{id}/member/add: a list of people and the level each gets. */
export const addPageMembersBodySchema = z.array(memberEntrySchema).min(1).max(MAX_PAGE_MEMBERS_PER_ADD);

/** POST element/{id}/member/remove. */
export const removePageMemberBodySchema = z.object({ userId: userIdSchema }).strict();

/** POST element/{id}/member/access: change the level of a member of this page. */
export const memberAccessBodySchema = z.object({ userId: userIdSchema, accessLevel: z.enum(GRANTABLE_LEVELS) }).strict();

/** Why member/add left a person out. */
export const SKIP_REASONS = ['invalid_email', 'self', 'owner'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface SkippedMember {
  userId?: string;
  email?: string;
  reason: SkipReason;
}

/** A person with access to a page through an explicit grant (on the page or an ancestor). */
export interface WireElementMember {
  contentType: 'ElementMember';
  /** The page asked about. */
  page: string;
  /** The member's user id. */
  member: string;
  level: GrantableLevel;
  canEdit: boolean;
  canShare: boolean;
  /** True when the grant is set on an ancestor (change it there). */
  inherited: boolean;
  /** The page the grant is set on. */
  grantedOn: string;
  user: WireUser;
}
