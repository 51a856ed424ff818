import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Server } from 'socket.io';
import { inOrderByKey } from '../inOrder';
import type { WireBlock } from '../../schema/block';
import type { DatabaseChange, DatabaseEvent } from '../../schema/database';
import type { WirePageVersion } from '../../schema/history';
import {
  channelKeys,
  channels,
  NOTIFICATIONS_CHANNEL,
  REALTIME_EVENTS,
  type ChildrenChange,
  type ElementAdd,
  type ElementEdit,
  type ElementPageEdit,
  type ElementRemove,
  type ElementVersionRecorded,
  type NotificationAdded,
} from '../../schema/realtime';
import type { Database, PageRow } from '../db/types';
import { listGranteeIds } from '../repositories/pageMembers';
import { nowIso } from '../time';
import { aiProxyRoom, userRoom, type SocketData } from './sockets';

/** What the routes tell the connected clients (docs/realtime.md), after the commit: each page channel's events in the order sent. Fire-and-forget, but for versionRecorded. */
export interface Realtime {
  /** A block's content or place changed. */
  blockEdited(block: WireBlock, origin: string | null, at: string): void;
  /** Blocks were made, revived, restored or cloned (document order). */
  blocksAdded(pageId: string, blocks: WireBlock[], origin: string | null, at: string): void;
  /** A block was deleted with the blocks under it. */
  blocksRemoved(pageId: string, removed: ReadonlyArray<{ id: string; version: number }>, origin: string | null, at: string): void;
  /** Rows or cells of a database on `pageId` changed (docs/api/databases.md, event `database`). */
  databaseChanged(pageId: string, databaseId: string, change: DatabaseChange, origin: string | null, at: string): void;
  /** A page's title, icon or cover changed (the page as stored): the people who have it open see it. */
  pageEdited(page: Pick<PageRow, 'id' | 'title' | 'icon' | 'cover'>, origin: string | null, at: string): void;
  /**
   * A version of the page was recorded (docs/history.md): its history panels list it. Settles once
   * the adapter has it (and this process's sockets): the next one, sent after, cannot overtake it.
   */
  versionRecorded(pageId: string, version: WirePageVersion): Promise<void>;
  /** The children of these parents (page ids, or a workspace id for its top level) changed because of `pageId`. */
  childrenChanged(parentIds: ReadonlyArray<string | null>, workspaceId: string, pageId: string): void;
  /**
   * `userId` may have lost access (a page grant removed, removed from a workspace, a lower role):
   * settles once none of their connections, on any process, is in a room they may no longer be in
   * (docs/realtime.md, «Access taken away»). The route awaits it before it answers.
   */
  accessLost(userId: string): Promise<void>;
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

/**
 * The realtime events the routes send (docs/realtime.md), and the AI assistant's ordered
 * emitter. `leftAiProxy` tells `onAiProxyLeft`'s listeners that a connection of this process left
 * an aiproxy channel by asking to (the plugin calls it).
 */
export function realtimeEmitter(
  io: Server,
  db: Kysely<Database>,
  log: FastifyBaseLogger,
  accessLost: (userId: string) => Promise<void>,
): { realtime: Realtime; leftAiProxy(id: string): void } {
  /** Per aiproxy room, its events in order (toAiProxy). */
  const aiProxyInOrder = inOrderByKey();
  /**
   * Sends an event to a room and settles once the adapter has it. Not io.to().emit(), which does
   * not wait: over PostgreSQL the adapter publishes each event with a query of its own (on a pool
   * of connections) and emits it locally only after, so events sent back to back could overtake
   * each other. Awaiting this before the next send keeps them in order; in memory it is at once.
   */
  const broadcast = async (room: string, event: string, payload: object): Promise<void> => {
    const packet = { type: 2 /* an event */, data: [event, payload], nsp: '/' };
    await io.of('/').adapter.broadcast(packet, { rooms: new Set([room]), except: new Set(), flags: {} });
  };
  /**
   * A page's channel hears its events in the order they were sent, also over PostgreSQL (each
   * waits until the adapter has the one before): a block's versions 2 and 3, sent back to back,
   * could otherwise arrive as 3, 2. Answers once the adapter has it.
   */
  const channelInOrder = inOrderByKey();
  const toChannel = (channel: string, event: string, payload: object): Promise<void> => channelInOrder(channel, () => broadcast(channel, event, payload));
  /** The same, for events nobody waits for: a failure is logged. */
  const tell = (channel: string, event: string, payload: object): void =>
    void toChannel(channel, event, payload).catch((error: unknown) => log.warn({ err: error, event }, 'realtime: an event could not be sent'));
  const aiProxyLeft = new Set<(id: string) => void>();
  const realtime: Realtime = {
    blockEdited(block, origin, at) {
      const channel = channelKeys.element(block.pageId);
      tell(channel, REALTIME_EVENTS.edit, { channel, pageId: block.pageId, origin, at, block } satisfies ElementEdit);
    },
    blocksAdded(pageId, blocks, origin, at) {
      if (blocks.length === 0) return;
      const channel = channelKeys.element(pageId);
      tell(channel, REALTIME_EVENTS.add, { channel, pageId, origin, at, blocks } satisfies ElementAdd);
    },
    blocksRemoved(pageId, removed, origin, at) {
      if (removed.length === 0) return;
      const channel = channelKeys.element(pageId);
      tell(channel, REALTIME_EVENTS.remove, {
        channel,
        pageId,
        origin,
        at,
        ids: removed.map((r) => r.id),
        versions: removed.map((r) => r.version),
      } satisfies ElementRemove);
    },
    databaseChanged(pageId, databaseId, change, origin, at) {
      const channel = channelKeys.element(pageId);
      tell(channel, REALTIME_EVENTS.database, { channel, pageId, databaseId, origin, at, change } satisfies DatabaseEvent);
    },
    pageEdited({ id, title, icon, cover }, origin, at) {
      const channel = channelKeys.element(id);
      const page = { id, title, icon, cover: cover ? (JSON.parse(cover) as unknown) : null };
      tell(channel, REALTIME_EVENTS.edit, { channel, pageId: id, origin, at, page } satisfies ElementPageEdit);
    },
    versionRecorded(pageId, version) {
      const channel = channelKeys.element(pageId);
      return toChannel(channel, REALTIME_EVENTS.versionRecorded, { channel, pageId, at: nowIso(), version } satisfies ElementVersionRecorded);
    },
    childrenChanged(parentIds, workspaceId, pageId) {
      for (const parentId of new Set(parentIds.map((id) => id ?? workspaceId))) {
        const channel = channelKeys.elementChildren(parentId);
        io.to(channel).emit(REALTIME_EVENTS.edit, { channel, parentId, pageId } satisfies ChildrenChange);
      }
      // People the page is shared with directly may not read its parent (a guest sees it in
      // «Доступные мне»): their own channel hears it as a change of the workspace's top level.
      const top = channelKeys.elementChildren(workspaceId);
      listGranteeIds(db, pageId).then(
        (userIds) => {
          for (const userId of userIds)
            io.to(userRoom(userId)).emit(REALTIME_EVENTS.edit, { channel: top, parentId: workspaceId, pageId } satisfies ChildrenChange);
        },
        (error: unknown) => log.warn({ err: error }, 'realtime: members of a changed page'),
      );
    },
    accessLost,
    notified(userId, workspaceId, notificationId) {
      io.to(userRoom(userId)).emit(REALTIME_EVENTS.add, { channel: NOTIFICATIONS_CHANNEL, id: notificationId, workspaceId } satisfies NotificationAdded);
    },
    toAiProxy(id, userId, event, payload) {
      // Each event is handed to the adapter once the one before it was (never a piece after the final text).
      const room = channels.aiproxy(id);
      aiProxyInOrder(room, () => broadcast(aiProxyRoom(id, userId), event, { channel: room, ...payload })).catch((error: unknown) =>
        log.warn({ err: error }, 'realtime: an aiproxy event could not be sent'),
      );
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
  return { realtime, leftAiProxy: (id) => aiProxyLeft.forEach((listener) => listener(id)) };
}
