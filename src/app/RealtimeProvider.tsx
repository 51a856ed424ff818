import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { CLIENT_ID } from './api';
import { RealtimeConnection, type RealtimeStatus } from './realtimeConnection';
import { useAppSelector } from './store';

const RealtimeContext = createContext<RealtimeConnection | null>(null);
/** Whether the app is to have a connection (it may not be made yet: it is made by an effect). */
const RealtimeExpectedContext = createContext(false);

/**
 * The app's one realtime connection (docs/realtime.md): open while someone is signed in and a
 * workspace is active (spec: realtime connection states), closed otherwise. Switching workspace
 * keeps it (channels are per page, not per workspace).
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const signedIn = useAppSelector((state) => state.auth.status === 'signedIn');
  const userId = useAppSelector((state) => state.auth.user?.id ?? null);
  const hasWorkspace = useAppSelector((state) => state.workspaces.activeId !== null);
  const [connection, setConnection] = useState<RealtimeConnection | null>(null);
  const open = signedIn && hasWorkspace && userId !== null;

  useEffect(() => {
    if (!open) return;
    const next = new RealtimeConnection({ clientId: CLIENT_ID });
    next.connect();
    setConnection(next);
    return () => {
      next.close();
      setConnection(null);
    };
  }, [open, userId]);

  return (
    <RealtimeExpectedContext.Provider value={open}>
      <RealtimeContext.Provider value={connection}>{children}</RealtimeContext.Provider>
    </RealtimeExpectedContext.Provider>
  );
}

/** True while a connection is open or about to be (signed in, a workspace active): lists it will read need not be read before. */
export function useRealtimeExpected(): boolean {
  return useContext(RealtimeExpectedContext);
}

/** The realtime connection, or null while there is none (signed out, no workspace). */
export function useRealtime(): RealtimeConnection | null {
  return useContext(RealtimeContext);
}

const offline = () => () => undefined;

/** 'online', 'connecting' or 'offline' ('offline' too when there is no connection). */
export function useRealtimeStatus(): RealtimeStatus {
  const connection = useRealtime();
  return useSyncExternalStore(connection ? (notify) => connection.onStatus(notify) : offline, () => connection?.status ?? 'offline');
}
