import { useEffect, useSyncExternalStore } from 'react';
import { wireUserSchema, type WireUser } from '../../../schema/user';
import { api } from '../../app/api';
import { reportError } from '../../app/report';

/** The spec's window: lookups asked within 100 ms go out as one `POST /api/user/list`. */
export const USER_LOOKUP_WINDOW_MS = 100;
/** The most ids one call may carry (docs/api/users.md). */
const MAX_IDS_PER_CALL = 500;

export type FetchUsers = (ids: string[]) => Promise<unknown[]>;

export interface UserLookup {
  /** The user with this id; concurrent lookups within the window share one request. */
  lookup(id: string): Promise<WireUser>;
  /** The user if already known (no request). */
  peek(id: string): WireUser | undefined;
  /** Adds users already known from elsewhere (a comment's author), so nobody asks for them. */
  prime(users: readonly WireUser[]): void;
  subscribe(listener: () => void): () => void;
}

/**
 * A batching user lookup: ids asked for within `windowMs` of the first one are fetched with a
 * single call (split only beyond 500 ids); answers are cached, failures are forgotten so a later
 * lookup tries again.
 */
export function createUserLookup(fetchUsers: FetchUsers, windowMs = USER_LOOKUP_WINDOW_MS): UserLookup {
  const cache = new Map<string, WireUser>();
  const inFlight = new Map<string, Promise<WireUser>>();
  let queue = new Map<string, { resolve(user: WireUser): void; reject(error: unknown): void }[]>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());

  async function flush() {
    timer = null;
    const batch = queue;
    queue = new Map();
    const ids = [...batch.keys()];
    for (let start = 0; start < ids.length; start += MAX_IDS_PER_CALL) {
      const chunk = ids.slice(start, start + MAX_IDS_PER_CALL);
      try {
        const answer = await fetchUsers(chunk);
        for (const raw of answer) {
          const parsed = wireUserSchema.safeParse(raw);
          if (parsed.success) cache.set(parsed.data.id, parsed.data);
          else reportError('validation', { message: 'user lookup: dropped a malformed user', issues: parsed.error.issues });
        }
        notify();
        for (const id of chunk) {
          const user = cache.get(id) ?? { id, email: '', name: '', avatar_url: null, anonymous: true, telegramId: null, createdAt: '' };
          batch.get(id)?.forEach((waiter) => waiter.resolve(user));
        }
      } catch (error) {
        for (const id of chunk) batch.get(id)?.forEach((waiter) => waiter.reject(error));
      } finally {
        for (const id of chunk) inFlight.delete(id);
      }
    }
  }

  return {
    lookup(id) {
      const known = cache.get(id);
      if (known) return Promise.resolve(known);
      const running = inFlight.get(id);
      if (running) return running;
      const promise = new Promise<WireUser>((resolve, reject) => {
        const waiters = queue.get(id) ?? [];
        waiters.push({ resolve, reject });
        queue.set(id, waiters);
      });
      inFlight.set(id, promise);
      timer ??= setTimeout(() => void flush(), windowMs);
      return promise;
    },
    peek: (id) => cache.get(id),
    prime(users) {
      let changed = false;
      for (const user of users) {
        if (user.anonymous && cache.has(user.id)) continue;
        if (cache.get(user.id) !== user) {
          cache.set(user.id, user);
          changed = true;
        }
      }
      if (changed) notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app's lookup, through `POST /api/user/list`. */
export const userLookup = createUserLookup(async (ids) => (await api<unknown[]>('/api/user/list', { method: 'POST', body: { users_id: ids } })).data);

/** The users with these ids as far as known; unknown ones are looked up (batched) and fill in when they arrive. */
export function useUsers(ids: readonly string[], lookup: UserLookup = userLookup): (WireUser | undefined)[] {
  const key = ids.join('|');
  useEffect(() => {
    for (const id of key ? key.split('|') : []) if (!lookup.peek(id)) lookup.lookup(id).catch(() => undefined);
  }, [key, lookup]);
  // A string snapshot keeps useSyncExternalStore stable; the users are read from the cache.
  useSyncExternalStore(lookup.subscribe, () => ids.map((id) => (lookup.peek(id) ? id : '')).join('|'));
  return ids.map((id) => lookup.peek(id));
}

/** The name to show for a user: the name, else the e-mail, else the fallback. */
export function displayName(user: WireUser | undefined, fallback: string): string {
  if (!user || user.anonymous) return fallback;
  return user.name.trim() || user.email || fallback;
}
