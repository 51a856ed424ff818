import { reportError } from '../../app/report';

/**
 * Refetches of lists (a sidebar section, a page's children) asked for by realtime events,
 * coalesced per list: the first request starts a wait of `delayMs`, and every request during it
 * joins that one refetch (so a burst of events is one GET, and a steady stream still refetches
 * every `delayMs` instead of never). A request while that list's refetch is running runs it once
 * more when it ends, so the list never stays older than the last event.
 */
export interface RefreshQueue {
  /** Refetches `key` soon (see above). */
  schedule(key: string): void;
  /** Whether `key` is waiting or being fetched. */
  busy(key: string): boolean;
  /** Drops whatever waits; running fetches finish but are not repeated. */
  dispose(): void;
}

export const REFRESH_DELAY_MS = 150;

export function createRefreshQueue(run: (key: string) => Promise<unknown>, delayMs = REFRESH_DELAY_MS): RefreshQueue {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const running = new Set<string>();
  const again = new Set<string>();
  let disposed = false;

  const start = (key: string) => {
    if (disposed) return;
    if (running.has(key)) {
      again.add(key);
      return;
    }
    running.add(key);
    Promise.resolve()
      .then(() => run(key))
      .catch((error: unknown) => reportError('refetch', { message: `refetching ${key} failed`, error, key }))
      .finally(() => {
        running.delete(key);
        if (again.delete(key)) schedule(key);
      });
  };

  const schedule = (key: string) => {
    if (disposed || timers.has(key)) return;
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        start(key);
      }, delayMs),
    );
  };

  return {
    schedule,
    busy: (key) => timers.has(key) || running.has(key),
    dispose() {
      disposed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      again.clear();
    },
  };
}
