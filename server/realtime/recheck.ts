import { outsideTokenScope } from '../auth/tokenScope';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Server } from 'socket.io';
import { REALTIME_ERRORS, REALTIME_EVENTS, type ParsedChannel, type RealtimeErrorBody } from '../../schema/realtime';
import type { ChangeWatch } from '../db/changeWatch';
import type { Database, UserRow } from '../db/types';
import type { ChannelAccess } from './access';
import { stillSignedIn } from './signIn';
import { leaveChannel, RealtimeError, userRoom, type AppSocket } from './sockets';

/**
 * Checks connections again, as they are now in the database: still signed in (else error 100 and
 * the connection closes), still allowed in each channel (else error 107 and it leaves the channel
 * and its rooms). Verdicts are shared among the connections of one call.
 */
async function checkSockets(db: Kysely<Database>, authorize: ChannelAccess, sockets: readonly AppSocket[]): Promise<void> {
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
      // Left already (a leave, or another check): nothing to say twice.
      if (!data.joined.has(name)) continue;
      await leaveChannel(socket, name, channel);
      socket.emit(REALTIME_EVENTS.error, {
        code: REALTIME_ERRORS.accessRevoked,
        message: 'access to this page was taken away',
        channel: name,
      } satisfies RealtimeErrorBody);
    }
  }
}

/** The server-side message (between processes) that says a person's access was taken away. */
const ACCESS_LOST = 'accessLost';

export interface AccessRechecks {
  /**
   * A person's access was taken away (a page grant removed, removed from a workspace, a lower
   * role): their connections on every process are checked now, and those that lost a channel
   * have left its rooms when this settles — so an event sent after it cannot reach them
   * (docs/realtime.md, «Access taken away»). The routes await it before they answer. Another
   * process that does not answer within the adapter's request timeout (5 s) is logged, not
   * waited for.
   */
  accessLost(userId: string): Promise<void>;
  /**
   * Moves when this process starts such a check: a join that was authorized before a move is
   * authorized again before it enters the channel's rooms (it may have read the access just
   * before the change committed).
   */
  readonly generation: number;
  /** Stops the re-checks, for the server's close. */
  stop(): void;
}

/**
 * Access taken away: every connection of this process is checked again (`checkSockets`). Runs
 * shortly after any write that may change access (the database's change watch), and when another
 * process says it saw one (`scaledOut`: the adapter carries the word). A removal that must hold
 * before its answer calls `accessLost` (checks that person's connections on every process at once).
 */
export function accessRechecks(options: {
  io: Server;
  db: Kysely<Database>;
  changes: ChangeWatch;
  log: FastifyBaseLogger;
  scaledOut: boolean;
  authorize: ChannelAccess;
}): AccessRechecks {
  const { io, db, changes, log, scaledOut, authorize } = options;
  let recheckTimer: ReturnType<typeof setTimeout> | undefined;
  let rechecking: Promise<void> | null = null;
  let again = false;
  let generation = 0;
  const appSockets = () => [...io.of('/').sockets.values()].map((raw) => raw as AppSocket).filter((socket) => socket.data?.user);
  const recheck = () => checkSockets(db, authorize, appSockets());
  /** This process's connections of one person, checked now. */
  // Out of a token's scope (server/auth/tokenScope.ts): the person's browser sessions reach all their workspaces.
  const recheckUser = (userId: string): Promise<void> => outsideTokenScope(() => recheckUserNow(userId));
  const recheckUserNow = (userId: string): Promise<void> => {
    generation += 1;
    const ids = io.of('/').adapter.rooms.get(userRoom(userId)) ?? new Set<string>();
    const sockets = [...ids]
      .map((id) => io.of('/').sockets.get(id) as AppSocket | undefined)
      .filter((socket): socket is AppSocket => socket?.data?.user?.id === userId);
    return checkSockets(db, authorize, sockets);
  };
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
  // Another process's removal: answered once this process's connections of that person are checked.
  io.on(ACCESS_LOST, (userId: unknown, done?: unknown) => {
    const answer = () => (typeof done === 'function' ? (done as (reply: unknown) => void)(true) : undefined);
    if (typeof userId !== 'string') return answer();
    recheckUser(userId)
      .catch((error: unknown) => log.error({ err: error }, 'realtime: access re-check failed'))
      .finally(answer);
  });

  return {
    async accessLost(userId) {
      const here = recheckUser(userId).catch((error: unknown) => log.error({ err: error }, 'realtime: access re-check failed'));
      const elsewhere = scaledOut
        ? io.serverSideEmitWithAck(ACCESS_LOST, userId).then(
            () => undefined,
            (error: unknown) => log.warn({ err: error }, 'realtime: a process did not confirm an access re-check in time'),
          )
        : undefined;
      await Promise.all([here, elsewhere]);
    },
    get generation() {
      return generation;
    },
    stop() {
      closing = true;
      unsubscribe();
      clearTimeout(recheckTimer);
      clearTimeout(burstTimer);
    },
  };
}
