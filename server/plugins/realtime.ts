import fp from 'fastify-plugin';
import { Server } from 'socket.io';
import type { z } from 'zod';
import {
  channelKeys,
  historyMessageSchema,
  joinMessageSchema,
  leaveMessageSchema,
  parseChannel,
  positionMessageSchema,
  REALTIME_ERRORS,
  REALTIME_EVENTS,
  REALTIME_LIMITS,
  REALTIME_PATH,
  type BlockHistory,
  type ParsedChannel,
  type PresenceMember,
  type RealtimeAck,
  type RealtimeErrorBody,
} from '../../schema/realtime';
import type { Config } from '../config';
import { listBlockChangesSince } from '../repositories/blocks';
import { channelAccess } from '../realtime/access';
import { connectAdapter } from '../realtime/adapter';
import { realtimeEmitter, type Realtime } from '../realtime/emitter';
import { accessRechecks } from '../realtime/recheck';
import { signIn } from '../realtime/signIn';
import { aiProxyRoom, CLIENT_ID, fanOutRoom, leaveChannel, member, RealtimeError, userRoom, type AppSocket, type SocketData } from '../realtime/sockets';
import { nowIso } from '../time';

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

/**
 * The realtime server: socket.io on the Fastify HTTP server at /api/connection/websocket.
 * Connections sign in with the session cookie (from this site only) or a Bearer access token;
 * channel joins are authorized by the page policies and checked again whenever access may have
 * changed (a share, a member removed, a sign-out): a connection that lost access leaves the
 * channel at once with error 107. With several processes, events cross over PostgreSQL
 * (LISTEN/NOTIFY, `@socket.io/postgres-adapter`) or Redis when REDIS_URL is set.
 */
export const realtimePlugin = fp<{ config: Config }>(async (app, { config }) => {
  const io = new Server(app.server, {
    path: REALTIME_PATH,
    serveClient: false,
    // The web app is served by this server: no cross-origin clients (cookie sign-in is refused for other origins anyway).
    cors: undefined,
    maxHttpBufferSize: 1e6,
    pingInterval: 25_000,
    pingTimeout: 20_000,
  });
  const adapter = await connectAdapter(io, config, app.log);
  /** Other processes exist only with an adapter (the in-memory one warns on server-side messages). */
  const scaledOut = adapter !== null;

  // ---- Signing in (server/realtime/signIn.ts) ---------------------------------------------------

  io.use((socket, next) => {
    signIn(app, socket as AppSocket).then(
      (signedIn) => {
        if (!signedIn) {
          const error = new Error('sign in first') as Error & { data?: RealtimeErrorBody };
          error.data = { code: REALTIME_ERRORS.unauthorized, message: 'sign in first' };
          next(error);
          return;
        }
        const requested = (socket.handshake.auth as { clientId?: unknown } | undefined)?.clientId;
        const data = socket.data as SocketData;
        data.user = signedIn.user;
        data.credential = signedIn.credential;
        data.clientId = typeof requested === 'string' && CLIENT_ID.test(requested) ? requested : socket.id;
        data.joined = new Map();
        data.carets = {};
        data.window = { start: Date.now(), count: 0 };
        next();
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'realtime: sign-in failed');
        const failure = new Error('server error') as Error & { data?: RealtimeErrorBody };
        failure.data = { code: REALTIME_ERRORS.serverError, message: 'server error' };
        next(failure);
      },
    );
  });

  // ---- Who may be in which channel (server/realtime/access.ts) -----------------------------------

  const authorize = channelAccess(app.db, io);

  // ---- Access taken away (server/realtime/recheck.ts) ---------------------------------------------

  const rechecks = accessRechecks({ io, db: app.db, changes: app.dbChanges, log: app.log, scaledOut, authorize });

  function errorBody(error: unknown, channel?: string): RealtimeErrorBody {
    if (error instanceof RealtimeError) return { code: error.code, message: error.message, ...(channel ? { channel } : {}) };
    app.log.error({ err: error }, 'realtime: a message failed');
    return { code: REALTIME_ERRORS.serverError, message: 'server error', ...(channel ? { channel } : {}) };
  }

  async function membersOf(pageId: string): Promise<PresenceMember[]> {
    const sockets = await io.in(`online:${pageId}`).fetchSockets();
    return sockets
      .map((s) => s.data as SocketData)
      .filter((d) => d?.user)
      .map((d) => member(d, pageId));
  }

  /** What changed on a page since `since`; `own`: the blocks whose shown version `clientId` wrote. */
  async function history(pageId: string, since: string, clientId: string): Promise<BlockHistory> {
    const at = nowIso();
    const from = new Date(Date.parse(since) - REALTIME_LIMITS.historyOverlapMs).toISOString();
    const changes = await listBlockChangesSince(app.db, pageId, from, REALTIME_LIMITS.maxHistoryBlocks, clientId);
    if (!changes) throw new RealtimeError(REALTIME_ERRORS.historyTooLarge, 'too much changed: load the page again');
    return { channel: channelKeys.element(pageId), pageId, at, ...changes };
  }

  // ---- Messages ----------------------------------------------------------------------------------

  io.on('connection', (raw) => {
    const socket = raw as AppSocket;
    const data = socket.data;
    void socket.join(userRoom(data.user.id));

    /** Parses a message; answers the acknowledgement (or an `error` event) when it is refused. */
    function handle<S extends z.ZodType>(event: string, schema: S, work: (message: z.infer<S>) => Promise<unknown>) {
      socket.on(event, (message: unknown, ack?: unknown) => {
        const reply = typeof ack === 'function' ? (ack as (answer: unknown) => void) : null;
        const refuse = (body: RealtimeErrorBody) =>
          reply ? reply({ ok: false, error: body } satisfies RealtimeAck) : socket.emit(REALTIME_EVENTS.error, body);
        const now = Date.now();
        if (now - data.window.start >= 1000) data.window = { start: now, count: 0 };
        if (++data.window.count > REALTIME_LIMITS.messagesPerSecond) return refuse({ code: REALTIME_ERRORS.rateLimited, message: 'too many messages' });
        const parsed = schema.safeParse(message);
        if (!parsed.success) return refuse({ code: REALTIME_ERRORS.badMessage, message: 'the message does not fit its schema' });
        const channelName = (parsed.data as { channel?: string }).channel;
        work(parsed.data).then(
          (answer) => reply?.({ ok: true, ...(answer as object | undefined) }),
          (error: unknown) => refuse(errorBody(error, channelName)),
        );
      });
    }

    function joinedChannel(name: string): ParsedChannel {
      const channel = data.joined.get(name);
      if (!channel) throw new RealtimeError(REALTIME_ERRORS.notJoined, 'join the channel first');
      return channel;
    }

    handle(REALTIME_EVENTS.join, joinMessageSchema, async ({ channel: name, since }) => {
      const channel = parseChannel(name);
      if (!channel) throw new RealtimeError(REALTIME_ERRORS.unknownChannel, 'unknown channel');
      if (!data.joined.has(name) && data.joined.size >= REALTIME_LIMITS.maxChannelsPerConnection) {
        throw new RealtimeError(REALTIME_ERRORS.tooManyChannels, 'too many channels');
      }
      // Authorized again while a removal's check ran meanwhile on this process (accessLost): the
      // first answer may have read the access just before the removal committed, and the check
      // did not see this connection in the channel yet.
      for (let seen = -1; seen !== rechecks.generation;) {
        seen = rechecks.generation;
        await authorize(data.user, channel, socket);
      }
      // From here to socket.join nothing awaits: a check that starts after sees the channel joined.
      const room = fanOutRoom(channel);
      const at = nowIso();
      // History is read after joining: nothing made between the two is missed (at worst sent twice).
      data.joined.set(name, channel);
      await socket.join(channel.kind === 'online' ? [room] : channel.kind === 'aiproxy' ? [room, aiProxyRoom(channel.id, data.user.id)] : [room, name]);
      if (channel.kind === 'online') {
        socket.to(room).emit(REALTIME_EVENTS.join, { channel: room, pageId: channel.id, member: member(data, channel.id) });
        return { at, members: await membersOf(channel.id) };
      }
      if (channel.kind === 'element' && since) {
        try {
          return { at, history: await history(channel.id, since, data.clientId) };
        } catch (error) {
          // A refused join (110: load the page again) leaves nothing joined: no events for a
          // channel the client believes it is not in, and no place taken in its 200.
          await leaveChannel(socket, name, channel);
          throw error;
        }
      }
      return { at };
    });

    handle(REALTIME_EVENTS.leave, leaveMessageSchema, async ({ channel: name }) => {
      const channel = joinedChannel(name);
      await leaveChannel(socket, name, channel);
      if (channel.kind === 'aiproxy') leftAiProxy(channel.id);
    });

    handle(REALTIME_EVENTS.history, historyMessageSchema, async ({ channel: name, since }) => {
      const channel = joinedChannel(name);
      if (channel.kind !== 'element') throw new RealtimeError(REALTIME_ERRORS.unknownChannel, 'history is kept for element channels');
      return { history: await history(channel.id, since, data.clientId) };
    });

    handle(REALTIME_EVENTS.position, positionMessageSchema, async ({ channel: name, caret }) => {
      const channel = joinedChannel(name);
      if (channel.kind !== 'online') throw new RealtimeError(REALTIME_ERRORS.unknownChannel, 'positions go to online channels');
      data.carets[channel.id] = caret;
      socket.to(fanOutRoom(channel)).emit(REALTIME_EVENTS.position, { channel: fanOutRoom(channel), pageId: channel.id, clientId: data.clientId, caret });
    });

    socket.on('disconnect', () => {
      for (const channel of data.joined.values()) {
        if (channel.kind === 'online')
          socket.to(fanOutRoom(channel)).emit(REALTIME_EVENTS.leave, { channel: fanOutRoom(channel), pageId: channel.id, clientId: data.clientId });
      }
      data.joined.clear();
    });
  });

  // ---- Telling clients (server/realtime/emitter.ts) -----------------------------------------------

  const { realtime, leftAiProxy } = realtimeEmitter(io, app.db, app.log, rechecks.accessLost);
  app.decorate('realtime', realtime);

  app.addHook('preClose', async () => {
    rechecks.stop();
    io.disconnectSockets(true);
  });
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => io.close(() => resolve()));
    await adapter?.close().catch(() => undefined);
  });
});
