import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Server, type DefaultEventsMap, type Socket } from 'socket.io';
import type { z } from 'zod';
import type { WireBlock } from '../../schema/block';
import type { WirePageVersion } from '../../schema/history';
import {
  channelKeys,
  channels,
  historyMessageSchema,
  joinMessageSchema,
  leaveMessageSchema,
  NOTIFICATIONS_CHANNEL,
  parseChannel,
  positionMessageSchema,
  presenceColor,
  REALTIME_ERRORS,
  REALTIME_EVENTS,
  REALTIME_LIMITS,
  REALTIME_PATH,
  type BlockHistory,
  type Caret,
  type ChildrenChange,
  type ElementAdd,
  type ElementEdit,
  type ElementPageEdit,
  type ElementRemove,
  type ElementVersionRecorded,
  type NotificationAdded,
  type ParsedChannel,
  type PresenceMember,
  type RealtimeAck,
  type RealtimeErrorBody,
  type RealtimeErrorCode,
} from '../../schema/realtime';
import { findAccessTokenUser } from '../auth/accessTokens';
import { hashSecret } from '../auth/tokens';
import { SESSION_COOKIE, findSessionUser } from '../auth/sessions';
import type { Config } from '../config';
import type { UserRow } from '../db/types';
import { allows } from '../../schema/policies/page';
import { pageAccessLevel } from '../policies/page';
import { listBlockChangesSince } from '../repositories/blocks';
import { findPage } from '../repositories/pages';
import { findMembership, findWorkspace } from '../repositories/workspaces';
import { connectAdapter } from '../realtime/adapter';
import { nowIso } from '../time';
import type { DatabaseChange, DatabaseEvent } from '../../schema/database';

/** What the routes tell the connected clients (docs/realtime.md). Every call is fire-and-forget, after the commit. */
export interface Realtime {
  readonly io: Server;
  /** A block's content or place changed. */
  blockEdited(block: WireBlock, origin: string | null, at: string): void;
  /** Blocks were made, revived, restored or cloned (document order). */
  blocksAdded(pageId: string, blocks: WireBlock[], origin: string | null, at: string): void;
  /** A block was deleted with the blocks under it. */
  blocksRemoved(pageId: string, removed: ReadonlyArray<{ id: string; version: number }>, origin: string | null, at: string): void;
  /** Rows or cells of a database on `pageId` changed (docs/api/databases.md, event `database`). */
  databaseChanged(pageId: string, databaseId: string, change: DatabaseChange, origin: string | null, at: string): void;
  /** A page's title, icon or cover changed: the people who have it open see it. */
  pageEdited(page: ElementPageEdit['page'], origin: string | null, at: string): void;
  /** A version of the page was recorded (docs/history.md): its history panels list it. */
  versionRecorded(pageId: string, version: WirePageVersion): void;
  /** The children of these parents (page ids, or a workspace id for its top level) changed because of `pageId`. */
  childrenChanged(parentIds: ReadonlyArray<string | null>, workspaceId: string, pageId: string): void;
  /** A notification was made for `userId`. */
  notified(userId: string, workspaceId: string, notificationId: string): void;
  /**
   * Sends an event to the connections of `userId` in an aiproxy channel (the AI assistant's
   * results; nobody else's, even one who joined the channel after its owner left). Events to one
   * channel arrive in the order they were sent, also across processes.
   */
  toAiProxy(id: string, userId: string, event: string, payload: object): void;
  /** Whether `aiproxy:{id}` has connections and all of them are `userId`'s (on any process). */
  ownsAiProxy(id: string, userId: string): Promise<boolean>;
  /** Calls `listener` when a connection of this process leaves an aiproxy channel by asking to (not by closing); returns the unsubscribe. */
  onAiProxyLeft(listener: (id: string) => void): () => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

interface SocketData {
  user: UserRow;
  /** The session token (cookie sign-in) or access token id (Bearer) the connection signed in with. */
  credential: { kind: 'session'; token: string } | { kind: 'token'; token: string };
  clientId: string;
  /** Joined channels by name. */
  joined: Map<string, ParsedChannel>;
  /**
   * Last caret per page (online channels). A plain object, not a Map: other processes read it
   * through the adapter (`fetchSockets`), which sends socket data as JSON or msgpack, where a Map
   * arrives as `{}` (remote members' carets were always null).
   */
  carets: Record<string, Caret>;
  /** Messages in the current second (rate limit). */
  window: { start: number; count: number };
}
type AppSocket = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;

const BEARER = /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i;
const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;
/** socket.io room of a user's private channel. */
const userRoom = (userId: string) => `user:${userId}`;
/** socket.io room for the fan-out of element and elementChildren channels (every user's channel name is a room too). */
const fanOutRoom = (channel: ParsedChannel) => `${channel.kind}:${channel.id}`;
/** socket.io room the AI assistant's events go to: the channel's connections of one user. */
const aiProxyRoom = (id: string, userId: string) => `${channels.aiproxy(id)}#${userId}`;

class RealtimeError extends Error {
  constructor(
    readonly code: RealtimeErrorCode,
    message: string,
  ) {
    super(message);
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

  // ---- Signing in ------------------------------------------------------------------------------

  async function signIn(socket: AppSocket): Promise<Pick<SocketData, 'user' | 'credential'> | null> {
    const headers = socket.request.headers;
    const auth = (socket.handshake.auth ?? {}) as { token?: unknown };
    const bearer = typeof auth.token === 'string' ? auth.token : BEARER.exec(headers.authorization ?? '')?.[1];
    if (bearer) {
      const found = await findAccessTokenUser(app.db, bearer, app.log);
      return found ? { user: found.user, credential: { kind: 'token', token: bearer } } : null;
    }
    // A cookie rides along with connections other sites open: only this site's pages count.
    const origin = headers.origin;
    if (origin) {
      try {
        if (new URL(origin).host !== headers.host) return null;
      } catch {
        return null;
      }
    }
    const token = app.parseCookie(headers.cookie ?? '')[SESSION_COOKIE];
    if (!token) return null;
    const user = await findSessionUser(app.db, token);
    return user ? { user, credential: { kind: 'session', token } } : null;
  }

  /**
   * Which of these connections are still signed in: their session (not expired) or access token
   * still exists for the same user. One query per 500 credentials, not one per connection.
   */
  async function stillSignedIn(list: readonly SocketData[]): Promise<Set<SocketData>> {
    const valid = new Set<string>();
    const now = nowIso();
    for (const kind of ['session', 'token'] as const) {
      const hashes = [...new Set(list.filter((d) => d.credential.kind === kind).map((d) => `${hashSecret(d.credential.token)}\n${d.user.id}`))];
      for (let i = 0; i < hashes.length; i += 500) {
        const ids = hashes.slice(i, i + 500).map((key) => key.split('\n')[0]);
        const rows =
          kind === 'session'
            ? await app.db.selectFrom('sessions').select(['id', 'user_id']).where('id', 'in', ids).where('expires_at', '>', now).execute()
            : await app.db.selectFrom('access_tokens').select(['id', 'user_id']).where('id', 'in', ids).execute();
        for (const row of rows) valid.add(`${row.id}\n${row.user_id}`);
      }
    }
    return new Set(list.filter((d) => valid.has(`${hashSecret(d.credential.token)}\n${d.user.id}`)));
  }

  io.use((socket, next) => {
    signIn(socket as AppSocket).then(
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

  // ---- Who may be in which channel -------------------------------------------------------------

  /** Throws a RealtimeError when `user` may not be in `channel`. */
  async function authorize(user: UserRow, channel: ParsedChannel, socket: AppSocket | null): Promise<void> {
    if (channel.user !== undefined && channel.user !== user.id) throw new RealtimeError(REALTIME_ERRORS.wrongUser, 'the channel names another user');
    if (channel.kind === 'aiproxy') {
      // (Two people joining at the same moment, on two processes, could both get in; neither hears
      // the other's results anyway: they go to a room of their user's own, aiProxyRoom.)
      if (socket && (await othersIn(channel, socket, user))) throw new RealtimeError(REALTIME_ERRORS.channelTaken, 'this channel belongs to another connection');
      return;
    }
    const page = await findPage(app.db, channel.id);
    if (page) {
      if (!allows(await pageAccessLevel(app.db, user.id, page), 'read')) throw new RealtimeError(REALTIME_ERRORS.forbidden, 'no access to this page');
      return;
    }
    if (channel.kind === 'elementChildren') {
      // The top level of a workspace: its members.
      if (await findMembership(app.db, channel.id, user.id)) return;
      // A workspace that exists but is not theirs is 103 (docs/realtime.md), as for pages; only
      // an id that names nothing is 104 (this used to answer 104 for both).
      if (await findWorkspace(app.db, channel.id)) throw new RealtimeError(REALTIME_ERRORS.forbidden, 'not a member of this workspace');
    }
    throw new RealtimeError(REALTIME_ERRORS.notFound, 'no such page');
  }

  /** Whether an aiproxy channel has a connection of a user other than `user` (on any process). */
  async function othersIn(channel: ParsedChannel, socket: AppSocket, user: UserRow): Promise<boolean> {
    const inside = await io.in(fanOutRoom(channel)).fetchSockets();
    return inside.some((other) => other.id !== socket.id && (other.data as SocketData).user?.id !== user.id);
  }

  function errorBody(error: unknown, channel?: string): RealtimeErrorBody {
    if (error instanceof RealtimeError) return { code: error.code, message: error.message, ...(channel ? { channel } : {}) };
    app.log.error({ err: error }, 'realtime: a message failed');
    return { code: REALTIME_ERRORS.serverError, message: 'server error', ...(channel ? { channel } : {}) };
  }

  function member(data: SocketData, pageId: string): PresenceMember {
    return {
      clientId: data.clientId,
      userId: data.user.id,
      name: data.user.name,
      avatar: data.user.avatar_url,
      color: presenceColor(data.user.id),
      caret: data.carets[pageId] ?? null,
    };
  }

  async function membersOf(pageId: string): Promise<PresenceMember[]> {
    const sockets = await io.in(`online:${pageId}`).fetchSockets();
    return sockets.map((s) => s.data as SocketData).filter((d) => d?.user).map((d) => ({
      clientId: d.clientId,
      userId: d.user.id,
      name: d.user.name,
      avatar: d.user.avatar_url,
      color: presenceColor(d.user.id),
      caret: d.carets?.[pageId] ?? null,
    }));
  }

  async function history(pageId: string, since: string): Promise<BlockHistory> {
    const at = nowIso();
    const from = new Date(Date.parse(since) - REALTIME_LIMITS.historyOverlapMs).toISOString();
    const changes = await listBlockChangesSince(app.db, pageId, from, REALTIME_LIMITS.maxHistoryBlocks);
    if (!changes) throw new RealtimeError(REALTIME_ERRORS.historyTooLarge, 'too much changed: load the page again');
    return { channel: channelKeys.element(pageId), pageId, at, ...changes };
  }

  async function leaveChannel(socket: AppSocket, name: string, channel: ParsedChannel): Promise<void> {
    const data = socket.data;
    data.joined.delete(name);
    await socket.leave(name);
    const room = fanOutRoom(channel);
    // Another channel of this connection may still need the fan-out room (not for the per-user names).
    if (![...data.joined.values()].some((c) => fanOutRoom(c) === room)) await socket.leave(room);
    if (channel.kind === 'online') {
      delete data.carets[channel.id];
      socket.to(room).emit(REALTIME_EVENTS.leave, { channel: room, pageId: channel.id, clientId: data.clientId });
    }
    if (channel.kind === 'aiproxy') await socket.leave(aiProxyRoom(channel.id, data.user.id));
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
        const refuse = (body: RealtimeErrorBody) => (reply ? reply({ ok: false, error: body } satisfies RealtimeAck) : socket.emit(REALTIME_EVENTS.error, body));
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
      await authorize(data.user, channel, socket);
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
          return { at, history: await history(channel.id, since) };
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
      if (channel.kind === 'aiproxy') for (const listener of aiProxyLeft) listener(channel.id);
    });

    handle(REALTIME_EVENTS.history, historyMessageSchema, async ({ channel: name, since }) => {
      const channel = joinedChannel(name);
      if (channel.kind !== 'element') throw new RealtimeError(REALTIME_ERRORS.unknownChannel, 'history is kept for element channels');
      return { history: await history(channel.id, since) };
    });

    handle(REALTIME_EVENTS.position, positionMessageSchema, async ({ channel: name, caret }) => {
      const channel = joinedChannel(name);
      if (channel.kind !== 'online') throw new RealtimeError(REALTIME_ERRORS.unknownChannel, 'positions go to online channels');
      data.carets[channel.id] = caret;
      socket.to(fanOutRoom(channel)).emit(REALTIME_EVENTS.position, { channel: fanOutRoom(channel), pageId: channel.id, clientId: data.clientId, caret });
    });

    socket.on('disconnect', () => {
      for (const channel of data.joined.values()) {
        if (channel.kind === 'online') socket.to(fanOutRoom(channel)).emit(REALTIME_EVENTS.leave, { channel: fanOutRoom(channel), pageId: channel.id, clientId: data.clientId });
      }
      data.joined.clear();
    });
  });

  // ---- Access taken away ---------------------------------------------------------------------------

  /**
   * Every connection of this process is checked again: still signed in (else error 100 and the
   * connection closes), still allowed in each channel (else error 107 and it leaves). Runs
   * shortly after any write that may change access (the database's change watch), and when
   * another process says it saw one.
   */
  let recheckTimer: ReturnType<typeof setTimeout> | undefined;
  let rechecking: Promise<void> | null = null;
  let again = false;
  async function recheck(): Promise<void> {
    const verdicts = new Map<string, Promise<RealtimeError | null>>();
    const verdict = (user: UserRow, channel: ParsedChannel) => {
      const key = `${user.id}\n${channel.kind}\n${channel.id}`;
      let found = verdicts.get(key);
      if (!found) {
        found = authorize(user, channel, null).then(() => null, (error: unknown) => (error instanceof RealtimeError ? error : null));
        verdicts.set(key, found);
      }
      return found;
    };
    const sockets = [...io.of('/').sockets.values()].map((raw) => raw as AppSocket).filter((socket) => socket.data?.user);
    const signedIn = await stillSignedIn(sockets.map((socket) => socket.data));
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
        socket.emit(REALTIME_EVENTS.error, { code: REALTIME_ERRORS.accessRevoked, message: 'access to this page was taken away', channel: name } satisfies RealtimeErrorBody);
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
        .catch((error: unknown) => app.log.error({ err: error }, 'realtime: access re-check failed'))
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
  const unsubscribe = app.dbChanges.subscribe(() => {
    const now = Date.now();
    if (!burstTimer) burstStart = now;
    clearTimeout(burstTimer);
    burstTimer = setTimeout(() => {
      burstTimer = undefined;
      if (closing) return;
      scheduleRecheck(true);
    }, now - burstStart > 500 ? 0 : 50);
  });
  io.on('recheck', () => scheduleRecheck(false));

  // ---- Telling clients -----------------------------------------------------------------------------

  /** Per aiproxy room: the sending of its last event (toAiProxy keeps their order). */
  const aiProxyQueues = new Map<string, Promise<void>>();
  const aiProxyLeft = new Set<(id: string) => void>();
  const realtime: Realtime = {
    io,
    blockEdited(block, origin, at) {
      const channel = channelKeys.element(block.pageId);
      io.to(channel).emit(REALTIME_EVENTS.edit, { channel, pageId: block.pageId, origin, at, block } satisfies ElementEdit);
    },
    blocksAdded(pageId, blocks, origin, at) {
      if (blocks.length === 0) return;
      const channel = channelKeys.element(pageId);
      io.to(channel).emit(REALTIME_EVENTS.add, { channel, pageId, origin, at, blocks } satisfies ElementAdd);
    },
    blocksRemoved(pageId, removed, origin, at) {
      if (removed.length === 0) return;
      const channel = channelKeys.element(pageId);
      io.to(channel).emit(REALTIME_EVENTS.remove, { channel, pageId, origin, at, ids: removed.map((r) => r.id), versions: removed.map((r) => r.version) } satisfies ElementRemove);
    },
    databaseChanged(pageId, databaseId, change, origin, at) {
      const channel = channelKeys.element(pageId);
      io.to(channel).emit(REALTIME_EVENTS.database, { channel, pageId, databaseId, origin, at, change } satisfies DatabaseEvent);
    },
    pageEdited(page, origin, at) {
      const channel = channelKeys.element(page.id);
      io.to(channel).emit(REALTIME_EVENTS.edit, { channel, pageId: page.id, origin, at, page } satisfies ElementPageEdit);
    },
    versionRecorded(pageId, version) {
      const channel = channelKeys.element(pageId);
      io.to(channel).emit(REALTIME_EVENTS.versionRecorded, { channel, pageId, at: nowIso(), version } satisfies ElementVersionRecorded);
    },
    childrenChanged(parentIds, workspaceId, pageId) {
      for (const parentId of new Set(parentIds.map((id) => id ?? workspaceId))) {
        const channel = channelKeys.elementChildren(parentId);
        io.to(channel).emit(REALTIME_EVENTS.edit, { channel, parentId, pageId } satisfies ChildrenChange);
      }
      // People the page is shared with directly may not read its parent (a guest sees it in
      // «Доступные мне»): their own channel hears it as a change of the workspace's top level.
      const top = channelKeys.elementChildren(workspaceId);
      app.db
        .selectFrom('page_members')
        .select('user_id')
        .where('page_id', '=', pageId)
        .execute()
        .then(
          (rows) => {
            for (const { user_id: userId } of rows) io.to(userRoom(userId)).emit(REALTIME_EVENTS.edit, { channel: top, parentId: workspaceId, pageId } satisfies ChildrenChange);
          },
          (error: unknown) => app.log.warn({ err: error }, 'realtime: members of a changed page'),
        );
    },
    notified(userId, workspaceId, notificationId) {
      io.to(userRoom(userId)).emit(REALTIME_EVENTS.add, { channel: NOTIFICATIONS_CHANNEL, id: notificationId, workspaceId } satisfies NotificationAdded);
    },
    toAiProxy(id, userId, event, payload) {
      // Not io.to().emit(), which does not wait: over PostgreSQL the adapter publishes each event
      // with a query of its own (on a pool of connections) and emits it locally only after, so
      // events sent back to back could overtake each other (a piece after the final text). Each
      // event is handed to the adapter once the one before it was; in memory that is at once.
      const room = channels.aiproxy(id);
      const packet = { type: 2 /* an event */, data: [event, { channel: room, ...payload }], nsp: '/' };
      const sent = (aiProxyQueues.get(room) ?? Promise.resolve())
        .then(() => io.of('/').adapter.broadcast(packet, { rooms: new Set([aiProxyRoom(id, userId)]), except: new Set(), flags: {} }))
        .catch((error: unknown) => app.log.warn({ err: error }, 'realtime: an aiproxy event could not be sent'));
      aiProxyQueues.set(room, sent);
      void sent.then(() => {
        if (aiProxyQueues.get(room) === sent) aiProxyQueues.delete(room);
      });
    },
    async ownsAiProxy(id, userId) {
      const sockets = await io.in(channels.aiproxy(id)).fetchSockets();
      return sockets.length > 0 && sockets.every((socket) => (socket.data as SocketData).user?.id === userId);
    },
    onAiProxyLeft(listener) {
      aiProxyLeft.add(listener);
      return () => aiProxyLeft.delete(listener);
    },
  };
  app.decorate('realtime', realtime);

  app.addHook('preClose', async () => {
    closing = true;
    unsubscribe();
    clearTimeout(recheckTimer);
    clearTimeout(burstTimer);
    io.disconnectSockets(true);
  });
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => io.close(() => resolve()));
    await adapter?.close().catch(() => undefined);
  });
});

/** The client id a request names (X-Client-Id), if it is well-formed. */
export function requestOrigin(header: string | string[] | undefined): string | null {
  return typeof header === 'string' && CLIENT_ID.test(header) ? header : null;
}

export type { FastifyInstance };
