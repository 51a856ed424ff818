import type { DefaultEventsMap, Socket } from 'socket.io';
import { channels, presenceColor, REALTIME_EVENTS, type Caret, type ParsedChannel, type PresenceMember, type RealtimeErrorCode } from '../../schema/realtime';
import type { UserRow } from '../db/types';

/*
 * A realtime connection's state and the rooms it is in (docs/realtime.md): shared by the
 * plugin (server/plugins/realtime.ts), the sign-in, the access checks and the re-checks.
 */

export interface SocketData {
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
export type AppSocket = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;

export const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;
/** socket.io room of a user's private channel. */
export const userRoom = (userId: string) => `user:${userId}`;
/** socket.io room for the fan-out of element and elementChildren channels (every user's channel name is a room too). */
export const fanOutRoom = (channel: ParsedChannel) => `${channel.kind}:${channel.id}`;
/** socket.io room the AI assistant's events go to: the channel's connections of one user. */
export const aiProxyRoom = (id: string, userId: string) => `${channels.aiproxy(id)}#${userId}`;

export class RealtimeError extends Error {
  constructor(
    readonly code: RealtimeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The client id a request names (X-Client-Id), if it is well-formed. */
export function requestOrigin(header: string | string[] | undefined): string | null {
  return typeof header === 'string' && CLIENT_ID.test(header) ? header : null;
}

/** A connection as the others in a page's online channel see it. */
export function member(data: SocketData, pageId: string): PresenceMember {
  return {
    clientId: data.clientId,
    userId: data.user.id,
    name: data.user.name,
    avatar: data.user.avatar_url,
    color: presenceColor(data.user.id),
    // Another process's connection arrives through the adapter as plain data: its carets may be missing.
    caret: data.carets?.[pageId] ?? null,
  };
}

/** Takes a connection out of a channel (and its fan-out room once no other channel needs it); the others online hear it left. */
export async function leaveChannel(socket: AppSocket, name: string, channel: ParsedChannel): Promise<void> {
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
