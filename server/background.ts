import { outsideTokenScope } from './auth/tokenScope';
import { isStorageBusy } from './db/busy';

/** Where a background loop says what went wrong (the app's logger). */
export interface LoopLog {
  info(obj: unknown, msg: string): void;
  error(obj: unknown, msg: string): void;
  warn(obj: unknown, msg: string): void;
}

/**
 * A job a server process runs over and over in the background (the search indexer, the page
 * historian): each round answers how long to wait before the next (0: at once, work is waiting).
 * A failed round is logged and tried again after `retryMs` — a round refused because another
 * process kept the database locked (503 storage.busy for a request) is only a warning: each
 * round's writes are transactions, rolled back whole, so the next round finds its work where it
 * was. Started with the app; stopping waits for a round under way, so the database is not closed
 * under it.
 */
export class BackgroundLoop {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | null = null;
  private stopped = true;
  private woken = false;

  constructor(
    private readonly round: () => Promise<number>,
    private readonly log: LoopLog,
    private readonly failure: string,
    private readonly retryMs: number,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    // Out of the scope of a request that woke it (server/auth/tokenScope.ts): the loop works for everyone.
    this.timer = outsideTokenScope(() =>
      setTimeout(() => {
        this.running = this.tick().finally(() => (this.running = null));
      }, delay),
    );
  }

  private async tick(): Promise<void> {
    let next = this.retryMs;
    this.woken = false;
    try {
      next = await this.round();
    } catch (error) {
      if (isStorageBusy(error)) this.log.warn({ err: error }, `${this.failure} (the database was locked by another process)`);
      else this.log.error({ err: error }, this.failure);
    }
    this.schedule(this.woken ? 0 : next);
  }

  /** Work came up: the next round runs now (or right after the one under way) rather than after its wait. */
  wake(): void {
    if (this.stopped) return;
    this.woken = true;
    if (this.running) return;
    clearTimeout(this.timer);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

/** A background loop that a change in this process wakes through `wakers` (it queued work for it): the formula worker, the webhook sender. */
export class WakeableLoop extends BackgroundLoop {
  private readonly wakeUp = () => this.wake();

  constructor(
    private readonly wakers: Set<() => void>,
    round: () => Promise<number>,
    log: LoopLog,
    failure: string,
    retryMs: number,
  ) {
    super(round, log, failure, retryMs);
  }

  start(): void {
    this.wakers.add(this.wakeUp);
    super.start();
  }

  async stop(): Promise<void> {
    this.wakers.delete(this.wakeUp);
    await super.stop();
  }
}
