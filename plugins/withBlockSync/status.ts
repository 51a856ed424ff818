/** What the page's sync note shows (docs/sync.md): all saved, edits on their way, no connection, or an edit refused. */
export type SyncStatus = 'saved' | 'pending' | 'offline' | 'error';

const STATUS_ORDER: readonly SyncStatus[] = ['saved', 'pending', 'offline', 'error'];

/** The worst of several statuses: a page shows «Сохранено» only when its title, its blocks and the synced blocks in it are saved. */
export function worstStatus(...statuses: SyncStatus[]): SyncStatus {
  return statuses.reduce((worst, s) => (STATUS_ORDER.indexOf(s) > STATUS_ORDER.indexOf(worst) ? s : worst), 'saved');
}

/** How long the status keeps saying an edit was refused (and reverted). */
export const REFUSAL_NOTICE_MS = 10_000;

/** What the status is read from; the queue answers at each refresh. */
export interface SyncFacts {
  /** Some block's last request was refused for good and the block has not been saved since. */
  refused: boolean;
  /** Requests are failing on the network (or with 5xx) and wait for their retry. */
  offline: boolean;
  /** Something waits: a debounce window, a request in flight, a retry. */
  pending: boolean;
}

/**
 * Refused edits win over a lost connection, which wins over work in progress. A refusal less
 * than REFUSAL_NOTICE_MS ago counts as refused even once its block was reverted.
 */
export function syncStatusOf(facts: SyncFacts, recentlyRefused: boolean): SyncStatus {
  if (facts.refused || recentlyRefused) return 'error';
  if (facts.offline) return 'offline';
  return facts.pending ? 'pending' : 'saved';
}

/**
 * The queue's status: kept here, told to `onStatus` only when it changes. `refusal()` starts
 * the notice of a refused edit; `accepted()` (a request that went through) ends it early.
 */
export function createSyncStatus(facts: () => SyncFacts, onStatus?: (status: SyncStatus) => void) {
  let status: SyncStatus = 'saved';
  /** When the server last refused an edit. */
  let refusedAt = -Infinity;

  function refresh(): void {
    const next = syncStatusOf(facts(), Date.now() - refusedAt < REFUSAL_NOTICE_MS);
    if (next !== status) {
      status = next;
      onStatus?.(next);
    }
  }

  return {
    current: (): SyncStatus => status,
    refresh,
    /** The server refused an edit for good: the status says so now and for REFUSAL_NOTICE_MS. */
    refusal(): void {
      refusedAt = Date.now();
      setTimeout(refresh, REFUSAL_NOTICE_MS);
      refresh();
    },
    /** A request went through: an earlier refusal's notice ends. */
    accepted(): void {
      refusedAt = -Infinity;
    },
  };
}
