import type { Kysely } from 'kysely';
import { writeAside } from '../db/busy';
import type { Database, UserRow } from '../db/types';
import { nowIso } from '../time';
import { hashSecret, newSecret } from './tokens';

/** An `Authorization: Bearer <token>` header; group 1 is the token (the HTTP API and the realtime sign-in read it alike). */
export const BEARER = /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i;

/** last_used_at is written at most this often per token, so reads do not turn into writes. */
export const ACCESS_TOKEN_TOUCH_INTERVAL_MS = 60_000;

/**
 * Issues a bearer token for a user; only its hash is stored. Tokens live until removed. With
 * `scope`: a workspace token (docs/api/auth.md «Workspace tokens»), named, reaching that workspace
 * only, read-only when asked.
 */
export async function createAccessToken(
  db: Kysely<Database>,
  userId: string,
  scope?: { workspaceId: string; name: string; readOnly: boolean },
): Promise<{ token: string; id: string; createdAt: string }> {
  const token = newSecret();
  const id = hashSecret(token);
  const createdAt = nowIso();
  await db
    .insertInto('access_tokens')
    .values({
      id,
      user_id: userId,
      created_at: createdAt,
      last_used_at: null,
      ...(scope ? { workspace_id: scope.workspaceId, name: scope.name, read_only: scope.readOnly ? 1 : 0 } : {}),
    })
    .execute();
  return { token, id, createdAt };
}

/** A workspace's tokens (of one user, or of everyone), newest first. */
export function listWorkspaceTokens(db: Kysely<Database>, workspaceId: string, userId: string | null) {
  return db
    .selectFrom('access_tokens')
    .select(['id', 'name', 'read_only', 'workspace_id', 'user_id', 'created_at', 'last_used_at'])
    .where('workspace_id', '=', workspaceId)
    .$if(userId !== null, (q) => q.where('user_id', '=', userId!))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/**
 * The user of a bearer token and the token's id (its hash), or undefined for an unknown token.
 * Notes when it was last used, at most once a minute.
 */
export async function findAccessTokenUser(
  db: Kysely<Database>,
  token: string,
  /** Where a last-use note that could not be written is told. */
  log: { warn(obj: unknown, msg: string): void },
): Promise<{ user: UserRow; tokenId: string; workspaceId: string | null; readOnly: boolean } | undefined> {
  const tokenId = hashSecret(token);
  const row = await db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('u')
    .select(['t.last_used_at as token_last_used_at', 't.workspace_id as token_workspace_id', 't.read_only as token_read_only'])
    .where('t.id', '=', tokenId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { token_last_used_at: lastUsedAt, token_workspace_id: workspaceId, token_read_only: readOnly, ...user } = row;
  const staleBefore = new Date(Date.now() - ACCESS_TOKEN_TOUCH_INTERVAL_MS).toISOString();
  if (lastUsedAt === null || lastUsedAt < staleBefore) {
    // Conditional, so parallel requests with one token write once; beside the request, never holding it up.
    await writeAside(
      () =>
        db
          .updateTable('access_tokens')
          .set({ last_used_at: nowIso() })
          .where('id', '=', tokenId)
          .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
          .execute(),
      log,
    );
  }
  return { user, tokenId, workspaceId, readOnly: readOnly === 1 };
}

/** Revokes one token by its id (hash). */
export async function deleteAccessToken(db: Kysely<Database>, tokenId: string): Promise<void> {
  await db.deleteFrom('access_tokens').where('id', '=', tokenId).execute();
}

/** The access tokens among these ids (hashes) that still exist, with their users. */
export function existingAccessTokens(db: Kysely<Database>, ids: readonly string[]): Promise<Array<{ id: string; user_id: string }>> {
  return db.selectFrom('access_tokens').select(['id', 'user_id']).where('id', 'in', ids).execute();
}
