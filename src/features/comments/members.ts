import { useEffect, useState } from 'react';
import { wireUserSchema, type WireUser } from '../../../schema/user';
import { api } from '../../app/api';
import { userLookup } from './userLookup';

/** Member lists are reused for a short while (several composers open at once), then read again. */
const TTL_MS = 20_000;
const cache = new Map<string, { at: number; promise: Promise<WireUser[]> }>();

function users(raw: unknown, pick: (item: Record<string, unknown>) => unknown): WireUser[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item) => {
    const parsed = wireUserSchema.safeParse(pick(item as Record<string, unknown>));
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * People who can be mentioned: the workspace's members (`GET workspace/{id}/members`); a guest
 * may not list those (403), so then the people with a grant on the page (`GET element/{id}/members`).
 */
async function fetchMentionable(workspaceId: string | null, pageId: string): Promise<WireUser[]> {
  if (workspaceId) {
    try {
      const all: WireUser[] = [];
      let cursor: string | undefined;
      for (let n = 0; n < 10; n += 1) {
        const answer = await api<unknown>(
          `/api/v3/spaces/workspace/${workspaceId}/members?limit=200${cursor ? `&cursor=${encodeURIComponent(JSON.stringify(cursor))}` : ''}`,
        );
        all.push(...users(answer.data, (m) => m.user));
        cursor = answer.meta.hasMoreNext ? (answer.meta.nextCursor as string | undefined) : undefined;
        if (!cursor) break;
      }
      return all;
    } catch {
      // A guest: fall back on the page's members.
    }
  }
  const answer = await api<unknown>(`/api/v3/spaces/element/${pageId}/members`);
  return users(answer.data, (m) => m.user);
}

/** The mentionable people of a page, loaded once per page while the composer is shown. */
export function useMentionable(workspaceId: string | null, pageId: string, enabled: boolean): WireUser[] {
  const [list, setList] = useState<WireUser[]>([]);
  useEffect(() => {
    if (!enabled) return;
    const key = `${workspaceId}:${pageId}`;
    const cached = cache.get(key);
    let promise = cached && Date.now() - cached.at < TTL_MS ? cached.promise : undefined;
    if (!promise) {
      promise = fetchMentionable(workspaceId, pageId);
      cache.set(key, { at: Date.now(), promise });
      promise.catch(() => cache.delete(key));
    }
    let cancelled = false;
    promise
      .then((found) => {
        if (cancelled) return;
        userLookup.prime(found);
        setList(found);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [workspaceId, pageId, enabled]);
  return list;
}
