import { useEffect, useRef } from 'react';
import { REALTIME_ERRORS, type RealtimeErrorBody } from '../../../schema/realtime';
import type { RealtimeConnection } from '../../app/realtimeConnection';
import { useStore } from 'react-redux';
import { useAppDispatch, useAppSelector, type RootState } from '../../app/store';
import { loadCurrentUser } from '../auth/authSlice';
import { INBOX_PAGE_SIZE, isInboxFilter, loadNotifications, loadUnreadCounts } from '../inbox/inboxSlice';
import { useInboxOpen } from '../inbox/openInbox';
import { useIsPhone } from '../../ui/useIsPhone';
import { createRefreshQueue } from './refreshQueue';
import { reportError, type ErrorReport } from '../../app/report';

/** How often a code 100 makes us ask whether the session is still there, at most. */
const SESSION_CHECK_MS = 10_000;

/** The spec's reason for every realtime error (api-contract §8: realtime errors map to serverError). */
export const REALTIME_ERROR_REASON = 'serverError';

/** A realtime error as it is reported (`realtime`): the reason, the code (100–112), the channel and the message. */
export function reportRealtimeError(error: RealtimeErrorBody): ErrorReport {
  return reportError('realtime', {
    message: `${REALTIME_ERROR_REASON} (code ${error.code})${error.channel ? ` on ${error.channel}` : ''}: ${error.message}`,
    reason: REALTIME_ERROR_REASON,
    code: error.code,
    channel: error.channel,
  });
}

/** A realtime event the client does not know, as it is reported (`realtimeEvent`): never routed, never shown. */
export function reportUnknownEvent(event: string, payload: unknown): ErrorReport {
  const channel = typeof payload === 'object' && payload !== null ? (payload as { channel?: unknown }).channel : undefined;
  return reportError('realtimeEvent', {
    message: `unknown event «${event}»${typeof channel === 'string' ? ` on ${channel}` : ''}`,
    event,
    channel: typeof channel === 'string' ? channel : undefined,
  });
}

/**
 * Reports every realtime error (whatever brought it: an error event, a refused join or request)
 * and every unknown event; on 100 (not signed in / signed out) asks the server who is signed
 * in: nobody → the app goes to the sign-in screen (the shell does that on `signedOut`); still
 * signed in (the socket was refused for another reason) → the connection, which socket.io does
 * not retry after a refusal, is opened again.
 */
export function useRealtimeErrors(connection: RealtimeConnection | null): void {
  const dispatch = useAppDispatch();
  const lastCheck = useRef(0);
  useEffect(() => {
    if (!connection) return;
    const stopUnknown = connection.onUnknownEvent(reportUnknownEvent);
    const stopErrors = connection.onError((error) => {
      reportRealtimeError(error);
      if (error.code !== REALTIME_ERRORS.unauthorized || Date.now() - lastCheck.current < SESSION_CHECK_MS) return;
      lastCheck.current = Date.now();
      void dispatch(loadCurrentUser()).then((result) => {
        if (loadCurrentUser.fulfilled.match(result) && result.payload && connection.status !== 'online') connection.connect();
      });
    });
    return () => {
      stopUnknown();
      stopErrors();
    };
  }, [connection, dispatch]);
}

/**
 * New notifications arrive live (the user's private channel): the unread counts are read again,
 * and so is the inbox list when it is open on the workspace the notification belongs to. A
 * reconnect reads them again too (what arrived while the connection was down).
 */
export function useLiveInbox(connection: RealtimeConnection | null): void {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const open = useInboxOpen();
  const pinned = useAppSelector((state) => state.uiSettings.inboxPanel.pinned);
  const isPhone = useIsPhone();
  // The same rule as InboxHost: open, or pinned (docked) on a wide screen.
  const panelShown = useRef(false);
  panelShown.current = open || (pinned && !isPhone);

  useEffect(() => {
    if (!connection) return;
    const queue = createRefreshQueue(async (key) => {
      if (key === 'counts') {
        await dispatch(loadUnreadCounts());
        return;
      }
      const { listKey, items } = store.getState().inbox;
      if (!panelShown.current || listKey === null) return;
      // The list shown is read again from its first page; one scrolled further stays as it is
      // (the new notification shows at its top the next time the panel opens).
      if (items.length > INBOX_PAGE_SIZE) return;
      const at = listKey.lastIndexOf(':');
      const filter = listKey.slice(at + 1);
      if (isInboxFilter(filter)) await dispatch(loadNotifications({ workspaceId: listKey.slice(0, at) || null, filter }));
    });
    const refresh = () => {
      queue.schedule('counts');
      queue.schedule('list');
    };
    const stopNotifications = connection.onNotification(refresh);
    let wasOnline = connection.status === 'online';
    const stopStatus = connection.onStatus((status) => {
      if (status === 'online' && !wasOnline) refresh();
      wasOnline = status === 'online';
    });
    return () => {
      stopNotifications();
      stopStatus();
      queue.dispose();
    };
  }, [connection, dispatch, store]);
}
