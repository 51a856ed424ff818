import { z } from 'zod';
import { WORKSPACE_ROLES } from './constants';
import { pageQueryShape } from './query';
import { isSafeHref } from './token';
import { emailSchema, wireUserSchema } from './user';

/** A workspace on the wire, with the caller's role in it. */
export const wireWorkspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  alias: z.string().nullable(),
  role: z.enum(WORKSPACE_ROLES),
  private: z.boolean(),
});
export type WireWorkspace = z.infer<typeof wireWorkspaceSchema>;

/** Spec: a workspace name has at least 3 characters (after trimming). */
export const WORKSPACE_NAME_MIN = 3;
export const WORKSPACE_NAME_MAX = 100;
/** Members named in one members/add call. */
export const MAX_WORKSPACE_MEMBERS_PER_ADD = 100;

export const workspaceNameSchema = z.string().trim().min(WORKSPACE_NAME_MIN).max(WORKSPACE_NAME_MAX);

/** An uploaded file of ours (/api/file/…), or an http(s) link; never javascript:, data: and the like. */
export function isAvatarRef(value: string): boolean {
  if (value.startsWith('/')) return /^\/api\/file\/[A-Za-z0-9_-][A-Za-z0-9._/-]*$/.test(value) && !value.includes('..');
  return isSafeHref(value);
}

export const workspaceAvatarSchema = z.string().max(2048).refine(isAvatarRef, { message: 'an avatar is an http(s) link or an /api/file/… path' }).nullable();

/** POST /api/v3/spaces/workspace: create; the caller becomes its admin. */
export const createWorkspaceBodySchema = z
  .object({
    name: workspaceNameSchema,
    avatar: workspaceAvatarSchema.optional(),
    private: z.boolean().optional(),
  })
  .strict();

/** POST /api/v3/spaces/workspace/{id}: change any of name, avatar, private. */
export const updateWorkspaceBodySchema = z
  .object({
    name: workspaceNameSchema.optional(),
    avatar: workspaceAvatarSchema.optional(),
    private: z.boolean().optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'name, avatar or private is required' });

/**
 * Someone a call has just brought into the workspace, as the inviter sees them in that call's
 * answer: only what they named (the id, the e-mail). Their profile (name, avatar, dates) is not
 * shown there, so the answer is the same whether the address had an account before or not.
 */
export const wireInvitedUserSchema = z.object({ id: z.string(), email: z.string() });
export type WireInvitedUser = z.infer<typeof wireInvitedUserSchema>;

/** A workspace member on the wire; `id` is the user's id (cursor: `id::WorkspaceMember`). */
export const wireWorkspaceMemberSchema = z.object({
  id: z.string(),
  contentType: z.literal('WorkspaceMember'),
  /** The user; in a members/add answer, people that call added are a WireInvitedUser. */
  user: z.union([wireUserSchema, wireInvitedUserSchema]),
  role: z.enum(WORKSPACE_ROLES),
  createdAt: z.string(),
});
export type WireWorkspaceMember = z.infer<typeof wireWorkspaceMemberSchema>;
export const WORKSPACE_MEMBER_CONTENT_TYPE = 'WorkspaceMember';

/** GET workspace/{id}/members?roles=["admin"]&cursor="…"&limit=50 (JSON-encoded values). */
export const workspaceMembersQuerySchema = {
  roles: z.array(z.enum(WORKSPACE_ROLES)).min(1).max(WORKSPACE_ROLES.length).optional(),
  ...pageQueryShape,
};

const userIdSchema = z.string().min(1).max(128);

/**
 * One member to add: an existing user by id, or anyone by e-mail (an address without an account
 * gets one). An unknown id, or a person named twice, is 422 for the whole call.
 */
export const newMemberSchema = z
  .object({ userId: userIdSchema.optional(), email: emailSchema.optional(), role: z.enum(WORKSPACE_ROLES) })
  .strict()
  .superRefine((entry, ctx) => {
    if ((entry.userId === undefined) === (entry.email === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of userId and email' });
    }
  });
export type NewMember = z.infer<typeof newMemberSchema>;

/** POST workspace/{id}/members/add. */
export const addWorkspaceMembersBodySchema = z.object({ members: z.array(newMemberSchema).min(1).max(MAX_WORKSPACE_MEMBERS_PER_ADD) }).strict();

/**
 * E-mails named in one members/add_list call: a team of a few hundred in one go (the inviter's
 * quota, INVITE_LIMIT_PER_10_MIN, still bounds how many of them may be new to the workspace).
 */
export const MAX_WORKSPACE_MEMBERS_PER_LIST = 500;

/**
 * POST workspace/{id}/members/add_list: addresses as a person pasted or uploaded them (the
 * server judges each: one that is not an e-mail is reported, not a reason to refuse the rest).
 */
export const addWorkspaceMemberListBodySchema = z
  .object({
    emails: z.array(z.string().max(1_000)).min(1).max(MAX_WORKSPACE_MEMBERS_PER_LIST),
    role: z.enum(WORKSPACE_ROLES),
  })
  .strict();

/** members/add_list's answer: who was added, who was a member already, what was not an e-mail. */
export interface MemberListOutcome {
  added: WireInvitedUser[];
  alreadyMembers: WireInvitedUser[];
  invalid: string[];
}

/**
 * The e-mails in a pasted list or a CSV file (the members/add_list dialog's preview; the server
 * judges them again): each line is split at commas, semicolons and tabs, a cell holding `@` is an
 * address (quotes, `Имя <a@b.ru>` and `mailto:` taken off), other cells (names, a header) are
 * passed over. Found addresses come lower-cased and once each, in order; cells with `@` that are
 * no e-mail are `invalid`, as written.
 */
export function emailsInList(text: string): { emails: string[]; invalid: string[] } {
  const emails: string[] = [];
  const seen = new Set<string>();
  const invalid: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    for (const raw of line.split(/[,;\t]/)) {
      let cell = raw
        .trim()
        .replace(/^"+|"+$/g, '')
        .trim();
      if (!cell.includes('@')) continue;
      const angled = /<([^<>]*)>\s*$/.exec(cell);
      if (angled) cell = angled[1].trim();
      cell = cell.replace(/^mailto:/i, '');
      const parsed = emailSchema.safeParse(cell);
      if (!parsed.success) {
        invalid.push(raw.trim());
        continue;
      }
      if (seen.has(parsed.data)) continue;
      seen.add(parsed.data);
      emails.push(parsed.data);
    }
  }
  return { emails, invalid };
}

/** POST workspace/{id}/member/role. */
export const memberRoleBodySchema = z.object({ userId: userIdSchema, role: z.enum(WORKSPACE_ROLES) }).strict();

/** POST workspace/{id}/members/remove. */
export const removeWorkspaceMemberBodySchema = z.object({ userId: userIdSchema }).strict();
