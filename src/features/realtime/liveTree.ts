import { createContext, useContext, useEffect, useMemo, useRef } from 'react';
import { useStore } from 'react-redux';
import type { SectionId } from '../../../schema/constants';
import { channels, REALTIME_EVENTS } from '../../../schema/realtime';
import { useRealtime } from '../../app/RealtimeProvider';
import { useAppDispatch, useAppSelector, type RootState } from '../../app/store';
import { loadChildren, loadSection } from '../pages/pagesSlice';
import { createRefreshQueue, type RefreshQueue } from './refreshQueue';

/*
 * The live page tree (docs/realtime.md, elementChildren channels): the sidebar listens to the
 * workspace's top level and to the children of every page expanded in it, and reads a list again
 * when the server says it changed (a page made, renamed, moved, trashed or restored by anyone).
 * Every (re)join reads the list again too: what changed while the connection was down (or before
 * the join was in place) is caught up.
 */

/** What the tree rows use: listen to a page's children while it is expanded. */
export interface LiveTree {
  /** Listens to the children of `pageId` until the returned function is called. */
  watchChildren(pageId: string): () => void;
}

export const LiveTreeContext = createContext<LiveTree | null>(null);

const sectionKey = (section: SectionId) => `section:${section}`;
const childrenKey = (pageId: string) => `children:${pageId}`;
/** Sections that list pages from anywhere in the tree (their rows are links, not a level of it). */
const LINK_SECTIONS: readonly SectionId[] = ['favorite', 'shared'];
/** How long the sidebar's first lists wait for the live tree's join before they are read anyway. */
export const TOP_JOIN_WAIT_MS = 2000;

/**
 * The sidebar's live tree for the active workspace: subscribes to the top level now and gives the
 * rows `watchChildren`. `sections` are the sections the sidebar shows.
 */
export function useLiveTree(workspaceId: string | undefined, sections: readonly SectionId[]): LiveTree | null {
  const connection = useRealtime();
  const userId = useAppSelector((state) => state.auth.user?.id);
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const shown = useRef(sections);
  shown.current = sections;

  const live = useMemo(() => {
    if (!connection || !workspaceId || !userId) return null;
    const run = async (key: string) => {
      // Another workspace by now: its own tree reads its own lists.
      if (store.getState().workspaces.activeId !== workspaceId) return;
      const [kind, id] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
      if (kind === 'section') {
        if (shown.current.includes(id as SectionId)) await dispatch(loadSection(id as SectionId));
      } else await dispatch(loadChildren(id));
    };
    // Made by the effect below and dropped by its cleanup (so it works again after a remount).
    let current: RefreshQueue | null = null;
    const queue = { schedule: (key: string) => current?.schedule(key) };
    const refreshSections = (only?: (section: SectionId) => boolean) => {
      for (const section of shown.current) if (!only || only(section)) queue.schedule(sectionKey(section));
    };
    /** A favourite or shared page changed (renamed, trashed…): those sections show it as a row. */
    const refreshLinksTo = (pageId: string) => {
      const lists = store.getState().pages.sections;
      refreshSections((section) => LINK_SECTIONS.includes(section) && (lists[section] ?? []).includes(pageId));
    };
    const changed = (payload: Record<string, unknown>) => {
      if (typeof payload.parentId !== 'string') return;
      if (payload.parentId === workspaceId) refreshSections();
      else queue.schedule(childrenKey(payload.parentId));
      if (typeof payload.pageId === 'string') refreshLinksTo(payload.pageId);
    };
    const subscribe = (channel: string, onJoined: () => void) =>
      connection.subscribe(channel, {
        onJoined,
        onEvent: (event, payload) => event === REALTIME_EVENTS.edit && changed(payload),
        onError: (error) => {
          // Reported by the app, as every realtime error is (the connection's `onError`: a refused join too).
          // Access taken away (107): the list is read again and says what is left.
          if (error.code === 107) onJoined();
        },
      });
    return {
      start: () => {
        current = createRefreshQueue(run);
        return () => {
          current?.dispose();
          current = null;
        };
      },
      /**
       * The top level. The first join reads the sections at once: the sidebar leaves that to it
       * (read before the join, a change in between would be missed, and read twice). Should the
       * join not come, they are read anyway after TOP_JOIN_WAIT_MS; every later join catches up.
       */
      top: () => {
        let joined = false;
        const readNow = () => {
          for (const section of shown.current) void dispatch(loadSection(section));
        };
        const fallback = setTimeout(readNow, TOP_JOIN_WAIT_MS);
        const leave = subscribe(channels.elementChildren(workspaceId, userId), () => {
          clearTimeout(fallback);
          if (joined) refreshSections();
          else readNow();
          joined = true;
        });
        return () => {
          clearTimeout(fallback);
          leave();
        };
      },
      /** A page shared with us makes a notification: «Доступные мне» may have a new page. */
      notifications: () =>
        connection.onNotification((payload) => {
          if (payload.workspaceId === workspaceId) refreshSections((section) => section === 'shared');
        }),
      tree: {
        watchChildren: (pageId: string) => subscribe(channels.elementChildren(pageId, userId), () => queue.schedule(childrenKey(pageId))),
      } satisfies LiveTree,
    };
  }, [connection, workspaceId, userId, dispatch, store]);

  useEffect(() => {
    if (!live) return;
    const stop = live.start();
    const leaveTop = live.top();
    const stopNotifications = live.notifications();
    return () => {
      leaveTop();
      stopNotifications();
      stop();
    };
  }, [live]);

  return live?.tree ?? null;
}

/** A tree row: listens to its page's children while it is expanded (and shown). */
export function useLiveChildren(pageId: string, expanded: boolean): void {
  const live = useContext(LiveTreeContext);
  useEffect(() => (live && expanded ? live.watchChildren(pageId) : undefined), [live, expanded, pageId]);
}
