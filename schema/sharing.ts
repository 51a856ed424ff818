import { z } from 'zod';
import { emailSchema, type WireUser } from './user';
import type { WireInvitedUser } from './workspace';

/** The levels a share can give (none is "not a member": remove the member instead). */
export const GRANTABLE_LEVELS = ['read', 'edit', 'full'] as const;
export type GrantableLevel = (typeof GRANTABLE_LEVELS)[number];

/** Most people one member/add call may name. */
export const MAX_PAGE_MEMBERS_PER_ADD = 100;

const userIdSchema = z.string().min(1).max(128);

/**
 * One person to share with, by `userId` (an existing user) or by `email` (an address without an
 * account gets one), exactly one of the two. People outside the page's workspace may be named by
 * the workspace's admins only (they join it as guests); see docs/api/sharing.md.
 */
export const memberEntrySchema = z
  .object({
    userId: userIdSchema.optional(),
    email: emailSchema.optional(),
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

/** Why member/add left a person out: the caller, or the owner of the page tree (who keeps full). */
export const SKIP_REASONS = ['self', 'owner'] as const;
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
  /** In a member/add answer, people that call brought into the workspace are a WireInvitedUser. */
  user: WireUser | WireInvitedUser;
}
