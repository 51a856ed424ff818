import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WORKSPACE_TOKENS_PER_MEMBER, createWorkspaceTokenBodySchema, type WireWorkspaceToken } from '../../schema/accessToken';
import { ERROR_CODES } from '../../schema/errors';
import { idParams } from '../../schema/params';
import { createAccessToken, deleteAccessToken, listWorkspaceTokens } from '../auth/accessTokens';
import { AppError, forbidden, invalid, notFound } from '../errors';
import { requireUser } from '../plugins/auth';
import { envelope } from '../presenters';
import { findMembership } from '../repositories/workspaces';

type TokenRow = Awaited<ReturnType<typeof listWorkspaceTokens>>[number];

const present = (row: TokenRow): WireWorkspaceToken => ({
  id: row.id,
  name: row.name ?? '',
  readOnly: row.read_only === 1,
  workspaceId: row.workspace_id!,
  userId: row.user_id,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/**
 * Workspace tokens (docs/api/auth.md «Workspace tokens»): a member makes bearer tokens that reach
 * this workspace only, lists them and removes them; an admin lists and removes everyone's. Made
 * and listed from a signed-in session only: a token does not make tokens.
 */
export async function workspaceTokenRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const tokenParams = idParams.extend({ tokenId: z.string().min(1).max(128) });

  /** The caller (signed in with a session) and their role in the workspace: 403 not a member, or signed in with a token. */
  async function memberCalling(request: FastifyRequest, workspaceId: string) {
    const user = requireUser(request);
    if (request.accessTokenId !== null) throw new AppError(403, ERROR_CODES.tokenNotAllowed, 'tokens are made and listed from a signed-in session');
    const membership = await findMembership(app.db, workspaceId, user.id);
    if (!membership) throw forbidden('this workspace');
    return { user, admin: membership.role === 'admin' };
  }

  app.get(
    '/api/v3/spaces/workspace/:id/tokens',
    {
      schema: {
        tags: ['auth'],
        summary: "The workspace's access tokens: the caller's own (an admin: everyone's), never the tokens themselves",
        params: idParams,
      },
    },
    async (request) => {
      const { user, admin } = await memberCalling(request, request.params.id);
      return envelope((await listWorkspaceTokens(app.db, request.params.id, admin ? null : user.id)).map(present));
    },
  );

  app.post(
    '/api/v3/spaces/workspace/:id/tokens',
    {
      schema: {
        tags: ['auth'],
        summary: 'Make an access token reaching this workspace only (read-only if asked); the token is in this answer only',
        params: idParams,
        body: createWorkspaceTokenBodySchema,
      },
    },
    async (request, reply) => {
      const { user } = await memberCalling(request, request.params.id);
      const own = await listWorkspaceTokens(app.db, request.params.id, user.id);
      if (own.length >= WORKSPACE_TOKENS_PER_MEMBER)
        throw invalid(`at most ${WORKSPACE_TOKENS_PER_MEMBER} tokens per person and workspace: remove one first`, [
          { path: 'body', message: 'too many tokens' },
        ]);
      const { name, readOnly = false } = request.body;
      const made = await createAccessToken(app.db, user.id, { workspaceId: request.params.id, name, readOnly });
      reply.code(201);
      return envelope<WireWorkspaceToken>({
        id: made.id,
        name,
        readOnly,
        workspaceId: request.params.id,
        userId: user.id,
        createdAt: made.createdAt,
        lastUsedAt: null,
        token: made.token,
      });
    },
  );

  app.delete(
    '/api/v3/spaces/workspace/:id/tokens/:tokenId',
    { schema: { tags: ['auth'], summary: 'Remove a workspace token: one of the caller’s (an admin: anyone’s)', params: tokenParams } },
    async (request) => {
      const { user, admin } = await memberCalling(request, request.params.id);
      const found = (await listWorkspaceTokens(app.db, request.params.id, admin ? null : user.id)).find((row) => row.id === request.params.tokenId);
      if (!found) throw notFound('token');
      await deleteAccessToken(app.db, found.id);
      return envelope({ id: found.id, status: 'success' });
    },
  );
}
