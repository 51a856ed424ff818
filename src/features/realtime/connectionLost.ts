import { useEffect, useRef, useState } from 'react';
import type { RealtimeStatus } from '../../app/realtimeConnection';

/** A connection that never came up is called lost after this long (the first connect may take a moment). */
export const NEVER_CONNECTED_MS = 3_000;
/**
 * A connection that was up is called lost after this long down: socket.io reconnects after
 * 0.5 s, and a blip that short (a server restart, a network switch) is not worth a banner that
 * flashes on and off.
 */
export const DROPPED_MS = 1_000;

/**
 * Whether to tell the user the realtime connection is lost: down for DROPPED_MS after having been
 * online, or not online NEVER_CONNECTED_MS after it was opened. `connection` is the connection
 * object (null while there is none: signed out, no workspace — nothing to report then); a new one
 * starts over.
 */
export function useConnectionLost(connection: object | null, status: RealtimeStatus): boolean {
  const [lost, setLost] = useState(false);
  const seen = useRef<{ connection: object | null; everOnline: boolean; downSince: number }>({ connection: null, everOnline: false, downSince: 0 });

  useEffect(() => {
    const state = seen.current;
    if (state.connection !== connection) {
      seen.current = { connection, everOnline: false, downSince: Date.now() };
    }
    if (!connection || status === 'online') {
      if (connection) seen.current.everOnline = true;
      seen.current.downSince = 0;
      setLost(false);
      return;
    }
    const current = seen.current;
    if (!current.downSince) current.downSince = Date.now();
    const wait = current.downSince + (current.everOnline ? DROPPED_MS : NEVER_CONNECTED_MS) - Date.now();
    if (wait <= 0) {
      setLost(true);
      return;
    }
    const timer = setTimeout(() => setLost(true), wait);
    return () => clearTimeout(timer);
  }, [connection, status]);

  return connection ? lost : false;
}
