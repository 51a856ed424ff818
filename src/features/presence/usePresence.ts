import { useCallback, useContext, useEffect, useSyncExternalStore } from 'react';
import { ReactReduxContext } from 'react-redux';
import { channels, type Caret, type PresenceMember } from '../../../schema/realtime';
import { useRealtime } from '../../app/RealtimeProvider';
import type { AppStore } from '../../app/store';
import {
  caretMoved,
  memberJoined,
  memberLeft,
  presenceCleared,
  presenceJoined,
  presenceLeft,
  selectPresenceMembers,
  validMember,
  validMembers,
} from './presenceSlice';

/**
 * Joins `online:{pageId}` while the page is open and keeps its members in the store: the join
 * answer (again after every reconnect), then join, leave and position events. Mounted once per
 * open page (by the page's avatars).
 */
export function usePagePresence(pageId: string): void {
  const connection = useRealtime();
  const store = useContext(ReactReduxContext)?.store as AppStore | undefined;

  useEffect(() => {
    if (!connection || !store) return;
    const { dispatch } = store;
    const self = connection.clientId;
    // A join answered after the page closed (or StrictMode's second mount) changes nothing.
    let live = true;
    const unsubscribe = connection.subscribe(channels.online(pageId), {
      onJoined: (answer) => {
        if (live) dispatch(presenceJoined({ pageId, members: validMembers(answer.members), self }));
      },
      onEvent: (event, payload) => {
        if (!live) return;
        if (event === 'join') {
          const member = validMember(payload.member);
          if (member) dispatch(memberJoined({ pageId, member, self }));
        } else if (event === 'leave') dispatch(memberLeft({ pageId, clientId: payload.clientId as string }));
        else if (event === 'position') dispatch(caretMoved({ pageId, clientId: payload.clientId as string, caret: (payload.caret as Caret) ?? null }));
      },
      // Refused or taken away (107): nobody to show.
      onError: () => live && dispatch(presenceCleared({ pageId })),
    });
    // While the connection is down the list may be stale; the join after reconnecting refills it.
    const stopWatching = connection.onStatus((status) => {
      if (live && status !== 'online') dispatch(presenceCleared({ pageId }));
    });
    return () => {
      live = false;
      stopWatching();
      unsubscribe();
      dispatch(presenceLeft({ pageId }));
    };
  }, [connection, store, pageId]);
}

const never = () => () => undefined;

/**
 * The other connections on a page, from the store — or none when there is no store (the editor
 * benchmark renders the editor alone), so the editor's caret layer works anywhere.
 */
export function usePresenceMembers(pageId: string): PresenceMember[] {
  const store = useContext(ReactReduxContext)?.store as AppStore | undefined;
  const subscribe = useCallback((notify: () => void) => (store ? store.subscribe(notify) : never()), [store]);
  return useSyncExternalStore(subscribe, () => (store ? selectPresenceMembers(store.getState(), pageId) : NOBODY));
}
const NOBODY: PresenceMember[] = [];

/** This tab's own caret goes out through the connection (throttled there to one every 50 ms). */
export function useCaretSender(pageId: string): (caret: Caret) => void {
  const connection = useRealtime();
  return useCallback((caret: Caret) => connection?.sendCaret(pageId, caret), [connection, pageId]);
}
