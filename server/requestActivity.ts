import type { FastifyInstance } from 'fastify';

/** How long after its last request a server process still counts as in use (a page's opening is a burst of requests with gaps of up to a few hundred ms). */
export const ACTIVE_QUIET_MS = 1_000;

/**
 * Whether people are using this server process now: a request in flight, or one that came or was
 * answered within `quietMs`. Background work that can wait — the search indexer's backlog after
 * an import — paces itself by it, so that it takes a small share of the machine while people
 * use the server and all of it when nobody does (docs/search.md «A backlog»).
 */
export class RequestActivity {
  private inFlight = 0;
  private lastAt = -Infinity;

  constructor(
    private readonly quietMs = ACTIVE_QUIET_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  started(): void {
    this.inFlight += 1;
    this.lastAt = this.now();
  }

  ended(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.lastAt = this.now();
  }

  /** A request in flight, or one within the last `quietMs`. */
  busy(): boolean {
    return this.inFlight > 0 || this.now() - this.lastAt < this.quietMs;
  }
}

/** Counts every HTTP request of the app (its hooks, at the root: every route, the web app's files too). */
export function trackRequests(app: FastifyInstance, activity = new RequestActivity()): RequestActivity {
  // A request aborted by its client may be answered still: each ends once.
  const ended = new WeakSet<object>();
  const end = async (request: object) => {
    if (ended.has(request)) return;
    ended.add(request);
    activity.ended();
  };
  app.addHook('onRequest', async () => activity.started());
  app.addHook('onResponse', end);
  app.addHook('onRequestAbort', end);
  return activity;
}
