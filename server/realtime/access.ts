import type { Kysely } from 'kysely';
import type { Server } from 'socket.io';
import { REALTIME_ERRORS, type ParsedChannel } from '../../schema/realtime';
import type { Database, UserRow } from '../db/types';
import { allows } from '../../schema/policies/page';
import { pageAccessLevel } from '../policies/page';
import { findPage } from '../repositories/pages';
import { findMembership, findWorkspace } from '../repositories/workspaces';
import { fanOutRoom, RealtimeError, type AppSocket, type SocketData } from './sockets';

/** Throws a RealtimeError when `user` may not be in `channel`; `socket` is the connection asking (null for a re-check). */
export type ChannelAccess = (user: UserRow, channel: ParsedChannel, socket: AppSocket | null) => Promise<void>;

/**
 * Who may be in which channel: a page's channels by the page policies (read access), a
 * workspace's top level by membership, an aiproxy channel by one user at a time.
 */
export function channelAccess(db: Kysely<Database>, io: Server): ChannelAccess {
  async function authorize(user: UserRow, channel: ParsedChannel, socket: AppSocket | null): Promise<void> {
    if (channel.user !== undefined && channel.user !== user.id) throw new RealtimeError(REALTIME_ERRORS.wrongUser, 'the channel names another user');
    if (channel.kind === 'aiproxy') {
      // (Two people joining at the same moment, on two processes, could both get in; neither hears
      // the other's results anyway: they go to a room of their user's own, aiProxyRoom.)
      if (socket && (await othersIn(channel, socket, user)))
        throw new RealtimeError(REALTIME_ERRORS.channelTaken, 'this channel belongs to another connection');
      return;
    }
    const page = await findPage(db, channel.id);
    if (page) {
      if (!allows(await pageAccessLevel(db, user.id, page), 'read')) throw new RealtimeError(REALTIME_ERRORS.forbidden, 'no access to this page');
      return;
    }
    if (channel.kind === 'elementChildren') {
      // The top level of a workspace: its members.
      if (await findMembership(db, channel.id, user.id)) return;
      // A workspace that exists but is not theirs is 103 (docs/realtime.md), as for pages; only
      // an id that names nothing is 104 (this used to answer 104 for both).
      if (await findWorkspace(db, channel.id)) throw new RealtimeError(REALTIME_ERRORS.forbidden, 'not a member of this workspace');
    }
    throw new RealtimeError(REALTIME_ERRORS.notFound, 'no such page');
  }

  /** Whether an aiproxy channel has a connection of a user other than `user` (on any process). */
  async function othersIn(channel: ParsedChannel, socket: AppSocket, user: UserRow): Promise<boolean> {
    const inside = await io.in(fanOutRoom(channel)).fetchSockets();
    return inside.some((other) => other.id !== socket.id && (other.data as SocketData).user?.id !== user.id);
  }

  return authorize;
}
