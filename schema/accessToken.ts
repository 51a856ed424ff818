import { z } from 'zod';

/*
 * Workspace tokens (docs/api/auth.md «Workspace tokens»): bearer tokens a member makes for one
 * workspace, for scripts and integrations; they reach that workspace only, and may be read-only.
 */

/** At most this many workspace tokens per person and workspace. */
export const WORKSPACE_TOKENS_PER_MEMBER = 50;

export const createWorkspaceTokenBodySchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    /** Only GET calls (and reading users by id, and removing itself); every other is 403 auth.token_read_only. */
    readOnly: z.boolean().optional(),
  })
  .strict();
export type CreateWorkspaceTokenBody = z.infer<typeof createWorkspaceTokenBodySchema>;

/** A workspace token as listed: never the token itself, which only its making answers (`token`). */
export interface WireWorkspaceToken {
  /** The token's id: the sha256 of the token, which cannot sign anything in. */
  id: string;
  name: string;
  readOnly: boolean;
  workspaceId: string;
  userId: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Only in the answer that made it. */
  token?: string;
}
