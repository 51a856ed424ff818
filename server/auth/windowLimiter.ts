/**
 * A fixed-window counter per key (a client address, a user), kept in this process's memory.
 * For limits that have no table to count in (register, OAuth starts, feedback). Behind several
 * server processes each process counts on its own, so the effective limit is per process.
 */
export interface WindowLimiter {
  /** Counts one hit for the key; false when the key is over its limit in the current window. */
  take(key: string): boolean;
}

/** Beyond this many keys, expired windows are swept on the next hit. */
const SWEEP_ABOVE_KEYS = 10_000;

export function createWindowLimiter(limit: number, windowMs: number): WindowLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    take(key) {
      const now = Date.now();
      if (windows.size > SWEEP_ABOVE_KEYS) {
        for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
      }
      const current = windows.get(key);
      if (!current || current.resetAt <= now) {
        windows.set(key, { count: 1, resetAt: now + windowMs });
        return limit >= 1;
      }
      current.count += 1;
      return current.count <= limit;
    },
  };
}
