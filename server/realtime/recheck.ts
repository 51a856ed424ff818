import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Server } from 'socket.io';
import { REALTIME_ERRORS, REALTIME_EVENTS, type ParsedChannel, type RealtimeErrorBody } from '../../schema/realtime';
import type { ChangeWatch } from '../db/changeWatch';
import type { Database, UserRow } from '../db/types';
import type { ChannelAccess } from './access';
import { stillSignedIn } from './signIn';
import { leaveChannel, RealtimeError, type AppSocket } from './sockets';

/**
 * Access taken away: every connection of this process is checked again — still signed in (else
 * error 100 and the connection closes), still allowed in each channel (else error 107 and it
 * leaves). Runs shortly after any write that may change access (the database's change watch),
 * and when another process says it saw one (`scaledOut`: the adapter carries the word). Answers
 * the stop, for the server's close.
 */
export function accessRechecks(options: {
  io: Server;
  db: Kysely<Database>;
  changes: ChangeWatch;
  log: FastifyBaseLogger;
  scaledOut: boolean;
  authorize: ChannelAccess;
}): () => void {
  const { io, db, changes, log, scaledOut, authorize } = options;
  let recheckTimer: ReturnType<typeof setTimeout> | undefined;
  let rechecking: Promise<void> | null = null;
  let again = false;
  async function recheck(): Promise<void> {
    const verdicts = new Map<string, Promise<RealtimeError | null>>();
    const verdict = (user: UserRow, channel: ParsedChannel) => {
      const key = `${user.id}\n${channel.kind}\n${channel.id}`;
      let found = verdicts.get(key);
      if (!found) {
        found = authorize(user, channel, null).then(
          () => null,
          (error: unknown) => (error instanceof RealtimeError ? error : null),
        );
        verdicts.set(key, found);
      }
      return found;
    };
    const sockets = [...io.of('/').sockets.values()].map((raw) => raw as AppSocket).filter((socket) => socket.data?.user);
    const signedIn = await stillSignedIn(
      db,
      sockets.map((socket) => socket.data),
    );
    for (const socket of sockets) {
      const data = socket.data;
      if (!signedIn.has(data)) {
        socket.emit(REALTIME_EVENTS.error, { code: REALTIME_ERRORS.unauthorized, message: 'signed out' } satisfies RealtimeErrorBody);
        socket.disconnect(true);
        continue;
      }
      for (const [name, channel] of [...data.joined]) {
        if (channel.kind === 'aiproxy') continue;
        const refused = await verdict(data.user, channel);
        if (!refused || refused.code === REALTIME_ERRORS.serverError) continue;
        await leaveChannel(socket, name, channel);
        socket.emit(REALTIME_EVENTS.error, {
          code: REALTIME_ERRORS.accessRevoked,
          message: 'access to this page was taken away',
          channel: name,
        } satisfies RealtimeErrorBody);
      }
    }
  }
  function scheduleRecheck(tellOthers: boolean) {
    if (tellOthers && scaledOut) io.serverSideEmit('recheck');
    if (recheckTimer) return;
    recheckTimer = setTimeout(() => {
      recheckTimer = undefined;
      if (rechecking) {
        again = true;
        return;
      }
      rechecking = recheck()
        .catch((error: unknown) => log.error({ err: error }, 'realtime: access re-check failed'))
        .finally(() => {
          rechecking = null;
          if (again) {
            again = false;
            scheduleRecheck(false);
          }
        });
    }, 50);
  }
  /**
   * After a burst of writes that may change access has ended (50 ms without another, at most
   * 500 ms after its first): the burst's last move of the watch is its commit, so the re-check —
   * here and, told now, in the other processes — sees the committed state.
   */
  let burstTimer: ReturnType<typeof setTimeout> | undefined;
  let burstStart = 0;
  let closing = false;
  const unsubscribe = changes.subscribe(() => {
    const now = Date.now();
    if (!burstTimer) burstStart = now;
    clearTimeout(burstTimer);
    burstTimer = setTimeout(
      () => {
        burstTimer = undefined;
        if (closing) return;
        scheduleRecheck(true);
      },
      now - burstStart > 500 ? 0 : 50,
    );
  });
  io.on('recheck', () => scheduleRecheck(false));

  return () => {
    closing = true;
    unsubscribe();
    clearTimeout(recheckTimer);
    clearTimeout(burstTimer);
  };
}
