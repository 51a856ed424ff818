import { AsyncLocalStorage } from 'node:async_hooks';

/*
 * Workspace tokens (docs/api/auth.md «Workspace tokens»): a request signed in with a token made
 * for one workspace runs in that token's scope, and every lookup of its user's workspace
 * memberships made while it runs sees that workspace alone — so every page policy (a page of a
 * workspace one is no member of is no one's but its grants', and those need membership too),
 * every workspace call and every listing by membership denies the others, with no route having to
 * know. The scope binds the token's own user only: what the request works out for others (who
 * hears of a change, who may read a page) is as it is without a token.
 */

export interface TokenScope {
  userId: string;
  workspaceId: string;
}

const scopes = new AsyncLocalStorage<TokenScope>();

/** Runs `work` (a request's handler, and whatever it awaits) in a token's scope. */
export function runInTokenScope<T>(scope: TokenScope, work: () => T): T {
  return scopes.run(scope, work);
}

/**
 * Runs `work` out of any token's scope: what lives on past a request — a background loop's next
 * round, the realtime re-check a write sets off — must not take the scope of the request that
 * happened to wake it (ChangeWatch, WakeableLoop).
 */
export function outsideTokenScope<T>(work: () => T): T {
  return scopes.exit(work);
}

/** The one workspace `userId` may reach now (a request signed in with their workspace token); null: no limit. */
export function scopedWorkspace(userId: string): string | null {
  const scope = scopes.getStore();
  return scope && scope.userId === userId ? scope.workspaceId : null;
}

/** Whether `userId`'s membership of `workspaceId` counts now. */
export function workspaceInScope(userId: string, workspaceId: string): boolean {
  const only = scopedWorkspace(userId);
  return only === null || only === workspaceId;
}

/** The scope as a cache key's part: what a cache keyed by user works out must not pass between scopes. */
export function scopeKey(): string {
  return scopes.getStore()?.workspaceId ?? '';
}
