import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import { rateLimited, type AppError } from '../errors';
import { deleteEndedRateLimits, hitRateLimit } from '../repositories/rateLimits';

/** How often (at most) a process deletes the rows of ended windows, on the next hit. */
const CLEANUP_EVERY_MS = 60_000;

/**
 * @fastify/rate-limit's store in the database (`rate_limits`): every server process on the same
 * database — PostgreSQL, or one SQLite file — counts into the same rows, so a limit holds for
 * all of them together. Fixed windows; the rows of ended windows are deleted at most once a
 * minute per process, on a hit.
 */
class DatabaseStore implements FastifyRateLimitStore {
  private cleanedAt = 0;

  constructor(private readonly db: Kysely<Database>) {}

  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
    this.count(key, timeWindow).then(
      (result) => callback(null, result),
      (error: Error) => callback(error),
    );
  }

  private async count(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    const now = Date.now();
    if (now - this.cleanedAt >= CLEANUP_EVERY_MS) {
      this.cleanedAt = now;
      await deleteEndedRateLimits(this.db, now);
    }
    const { hits, resetAt } = await hitRateLimit(this.db, key, windowMs, now);
    return { current: hits, ttl: resetAt - now };
  }

  /** One store for every limit: their keys start with the limit's name (createLimit). */
  child(): FastifyRateLimitStore {
    return this;
  }
}

/**
 * @fastify/rate-limit with the database store, for the limits routes take with `createLimit`
 * (none on every route: `global: false`). Registered after the database.
 */
export const rateLimitPlugin = fp(async (app) => {
  const db = app.db;
  await app.register(rateLimit, {
    global: false,
    store: class extends DatabaseStore {
      constructor() {
        super(db);
      }
    },
  });
});

export interface Limit {
  /** The limit's name; its rows' keys start with it (`register:…`). */
  name: string;
  max: number;
  windowMs: number;
  /** Whose hits are counted together: the client's address, a user id. */
  key: (request: FastifyRequest) => string;
  /** The 429 answered beyond the limit (server/errors.ts `rateLimited`), given the seconds until the window ends. */
  refusal: (retryAfterSeconds: number) => AppError;
}

/**
 * A limit a route takes where its own checks have passed (so refused calls do not count): the
 * returned function counts the request and, beyond `max` hits of its key in the window, sets
 * `Retry-After` and throws the limit's refusal.
 */
export function createLimit(app: FastifyInstance, limit: Limit): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const check = app.createRateLimit({ max: limit.max, timeWindow: limit.windowMs, keyGenerator: (request) => `${limit.name}:${limit.key(request)}` });
  return async (request, reply) => {
    const verdict = await check(request);
    if (verdict.isAllowed || !verdict.isExceeded) return;
    const retryAfterSeconds = Math.max(1, verdict.ttlInSeconds);
    reply.header('retry-after', String(retryAfterSeconds));
    throw limit.refusal(retryAfterSeconds);
  };
}

/**
 * A per-user limit of an expensive call (docs/security.md «Request limits»): at most `max` calls
 * by one user in `windowMs`, for all processes together; beyond, 429 `rate_limited` with
 * `Retry-After` and `details.retryAfter` (the seconds to wait). `max` 0: no limit.
 */
export function userLimit(
  app: FastifyInstance,
  name: string,
  max: number,
  windowMs: number,
  userOf: (request: FastifyRequest) => { id: string },
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  if (max <= 0) return async () => {};
  return createLimit(app, {
    name,
    max,
    windowMs,
    key: (request) => userOf(request).id,
    refusal: (retryAfter) => rateLimited(`too many ${name} requests; try again in ${retryAfter} s`, { retryAfter }),
  });
}

/**
 * At most `max` calls of one user — and `total` of everybody's — running at once in this process
 * (0: no cap): `run` answers 429 `rate_limited` with `Retry-After` (`retryAfterSeconds`) while the
 * user has `max` running or the process `total`. Held in memory: with several processes behind a
 * balancer a user may run `max` in each (the database-counted rate above bounds them all together).
 */
export function concurrencyCap(max: number, retryAfterSeconds: number, total = 0) {
  const running = new Map<string, number>();
  let all = 0;
  return async <T>(userId: string, reply: FastifyReply, run: () => Promise<T>): Promise<T> => {
    const now = running.get(userId) ?? 0;
    const refuse = (why: string) => {
      reply.header('retry-after', String(retryAfterSeconds));
      return rateLimited(`${why}; try again in ${retryAfterSeconds} s`, { retryAfter: retryAfterSeconds });
    };
    if (max > 0 && now >= max) throw refuse(`at most ${max} of these at once`);
    if (total > 0 && all >= total) throw refuse(`the server runs ${total} of these at once already`);
    running.set(userId, now + 1);
    all += 1;
    try {
      return await run();
    } finally {
      all -= 1;
      const left = (running.get(userId) ?? 1) - 1;
      if (left > 0) running.set(userId, left);
      else running.delete(userId);
    }
  };
}
