/** A sliding-window limit per key: at most `limit` hits within any `windowMs`. */
export interface SlidingLimiter {
  /** Counts a hit when allowed; otherwise says in how many seconds the next one will be. */
  take(key: string): { ok: true } | { ok: false; retryAfterSeconds: number };
}

/** Beyond this many keys, keys without hits in the window are swept on the next hit. */
const SWEEP_ABOVE_KEYS = 10_000;

/**
 * Per-user limit of AI requests (AI_RATE_LIMIT_PER_MINUTE), kept in this process's memory: behind
 * several server processes each counts on its own. `limit` 0 turns it off.
 */
export function createSlidingLimiter(limit: number, windowMs: number): SlidingLimiter {
  const hits = new Map<string, number[]>();
  return {
    take(key) {
      if (limit <= 0) return { ok: true };
      const now = Date.now();
      if (hits.size > SWEEP_ABOVE_KEYS) {
        for (const [k, times] of hits) if (times[times.length - 1] <= now - windowMs) hits.delete(k);
      }
      const times = (hits.get(key) ?? []).filter((time) => time > now - windowMs);
      if (times.length >= limit) {
        hits.set(key, times);
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((times[0] + windowMs - now) / 1000)) };
      }
      times.push(now);
      hits.set(key, times);
      return { ok: true };
    },
  };
}
