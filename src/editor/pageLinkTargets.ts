import { createSelector } from '@reduxjs/toolkit';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { wireElementSchema } from '../../schema/element';
import { api } from '../app/api';
import { useAppSelector, type RootState } from '../app/store';
import { selectPageById } from '../features/pages/pagesSlice';

/** What a page link shows: the page's current title and icon, or why it cannot. */
export type PageLinkTarget = { status: 'loading' } | { status: 'ok'; title: string; icon: string | null } | { status: 'noAccess' } | { status: 'deleted' };

/** How long a looked-up title is taken as current before it is asked again (pages outside the sidebar). */
export const PAGE_LINK_REFRESH_MS = 30_000;

interface Entry {
  target: PageLinkTarget;
  at: number;
}

const cache = new Map<string, Entry>();
const listeners = new Set<() => void>();
let wanted = new Set<string>();
let timer: ReturnType<typeof setTimeout> | null = null;

function notify() {
  for (const listener of listeners) listener();
}

/** Asks `GET pageLinks` for every id wanted in this tick (one request for a page full of links). */
function flush() {
  timer = null;
  const ids = [...wanted];
  wanted = new Set();
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    api<Array<{ id: string; status: 'ok' | 'noAccess' | 'deleted'; element?: unknown }>>(
      `/api/v3/spaces/pageLinks?ids=${encodeURIComponent(JSON.stringify(chunk))}`,
    ).then(
      ({ data }) => {
        const at = Date.now();
        for (const item of data) {
          const element = item.status === 'ok' ? wireElementSchema.safeParse(item.element) : null;
          const target: PageLinkTarget = element?.success
            ? { status: 'ok', title: element.data.title, icon: element.data.icon }
            : { status: item.status === 'ok' ? 'noAccess' : item.status };
          cache.set(item.id, { target, at });
        }
        notify();
      },
      // Not signed in (a public page) or refused: no title is shown.
      () => {
        const at = Date.now();
        for (const id of chunk) if (cache.get(id)?.target.status !== 'ok') cache.set(id, { target: { status: 'noAccess' }, at });
        notify();
      },
    );
  }
}

function request(pageId: string) {
  wanted.add(pageId);
  if (!timer) timer = setTimeout(flush, 0);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Forgets every looked-up page (tests; another account signed in). */
export function forgetPageLinkTargets(): void {
  cache.clear();
  notify();
}

// Not asked again when the tab gets the focus back (api-contract: no refetch on window focus):
// a looked-up title is asked again once PAGE_LINK_REFRESH_MS has passed, as a link shows it.

/**
 * The pages the sidebar's tree lists now (sections and loaded children). Only these are taken
 * from the store: an entity can outlive its place in the tree (trashed or unshared elsewhere,
 * the tree read again), and such a page is looked up instead.
 */
const selectListedPageIds = createSelector(
  [(state: RootState) => state.pages.sections, (state: RootState) => state.pages.children],
  (sections, children) => new Set([...Object.values(sections), ...Object.values(children)].flatMap((ids) => ids ?? [])),
);

function listedPage(state: RootState, pageId: string) {
  const page = selectPageById(state, pageId);
  return page && !page.inTrash && selectListedPageIds(state).has(pageId) ? page : undefined;
}

/**
 * The page a page link points at, as the reader may see it. A page the sidebar's tree lists
 * shows its title from the store, so a rename shows at once (the store hears
 * of renames live); any other page is looked up (`GET pageLinks`, batched, cached, asked again
 * after PAGE_LINK_REFRESH_MS — not on the tab's focus).
 */
export function usePageLinkTarget(pageId: string): PageLinkTarget {
  const page = useAppSelector((state) => listedPage(state, pageId));
  // The server's drawing of a page (src/ssr) reads the same, empty there: the link shows as loading, as in the app's first drawing.
  const read = () => cache.get(pageId);
  const entry = useSyncExternalStore(subscribe, read, read);
  const known = page !== undefined;
  // A page that just left the tree (trashed, unshared) is asked again whatever the cache says.
  const wasKnown = useRef(known);
  useEffect(() => {
    const left = wasKnown.current && !known;
    wasKnown.current = known;
    if (known) return;
    if (left || !entry || Date.now() - entry.at > PAGE_LINK_REFRESH_MS) request(pageId);
    const refresh = setInterval(() => request(pageId), PAGE_LINK_REFRESH_MS);
    return () => clearInterval(refresh);
  }, [known, entry, pageId]);
  if (known) return { status: 'ok', title: page.title, icon: page.icon };
  return entry?.target ?? { status: 'loading' };
}

/** A linked page's current title as this reader may see it, or null (copy writes it: plugins/types.ts `pageLinkTitle`). */
export function pageLinkTitleFrom(state: RootState, pageId: string): string | null {
  const page = listedPage(state, pageId);
  if (page) return page.title.trim() || null;
  const entry = cache.get(pageId);
  return entry?.target.status === 'ok' ? entry.target.title.trim() || null : null;
}
