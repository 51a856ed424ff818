import { z } from 'zod';
import type { WireBlock } from './block';
import type { WirePageVersion } from './history';

/**
 * The realtime protocol (docs/realtime.md): socket.io at REALTIME_PATH, the four channel kinds,
 * the event names, the error codes 100–112 and the payloads. Shared by the server, the web app
 * and the test clients; no socket imports here.
 */
export const REALTIME_PATH = '/api/connection/websocket';

/** Every event name, client → server and server → client. */
export const REALTIME_EVENTS = {
  join: 'join',
  leave: 'leave',
  position: 'position',
  history: 'history',
  edit: 'edit',
  add: 'add',
  remove: 'remove',
  /** Rows and cells of a database changed (server → client; docs/api/databases.md). */
  database: 'database',
  /** A version of the page was recorded (server → client; docs/history.md). */
  versionRecorded: 'versionRecorded',
  error: 'error',
} as const;
export type RealtimeEvent = (typeof REALTIME_EVENTS)[keyof typeof REALTIME_EVENTS];

/** Error codes of `error` events and of refused acknowledgements. */
export const REALTIME_ERRORS = {
  /** No session or access token, or it ended (signed out): the connection closes. */
  unauthorized: 100,
  /** A message that does not fit its schema. */
  badMessage: 101,
  /** A channel name that is none of the four kinds. */
  unknownChannel: 102,
  /** The user may not read the page (or is not a member of the workspace). */
  forbidden: 103,
  /** No such page or workspace. */
  notFound: 104,
  /** The `#user` part of the channel is someone else. */
  wrongUser: 105,
  /** A message for a channel this connection has not joined. */
  notJoined: 106,
  /** Access was taken away (or the page deleted for good): the connection left the channel. */
  accessRevoked: 107,
  /** More channels than MAX_CHANNELS_PER_CONNECTION at once. */
  tooManyChannels: 108,
  /** Messages sent faster than the limit: the message was dropped. */
  rateLimited: 109,
  /** History from that far back is more than one answer: load the page again. */
  historyTooLarge: 110,
  /** The server failed to handle the message. */
  serverError: 111,
  /** This aiproxy channel belongs to another connection. */
  channelTaken: 112,
} as const;
export type RealtimeErrorCode = (typeof REALTIME_ERRORS)[keyof typeof REALTIME_ERRORS];

export const REALTIME_LIMITS = {
  /** Channels one connection may have joined at once. */
  maxChannelsPerConnection: 200,
  /** Messages one connection may send per second (position updates included). */
  messagesPerSecond: 60,
  /** A history answer holds at most this many changed blocks; beyond that: error 110. */
  maxHistoryBlocks: 2000,
  /**
   * History is asked "since" a server time; changes are looked up from this much earlier, so a
   * change committed a moment after a later one (another process) is never skipped. Blocks sent
   * twice are harmless: a client applies a version only once.
   */
  historyOverlapMs: 10_000,
  /** How often a client sends its caret at most. */
  positionIntervalMs: 50,
} as const;

/** Header the web app sends with every block write: its connection's client id (echoes are told apart by it). */
export const CLIENT_ID_HEADER = 'x-client-id';

export type ChannelKind = 'element' | 'elementChildren' | 'online' | 'aiproxy';
export interface ParsedChannel {
  kind: ChannelKind;
  /** A page id (element, online, elementChildren of a page), a workspace id (elementChildren of the top level) or an AI request id. */
  id: string;
  /** The user part (`#user`) of element and elementChildren channels. */
  user?: string;
}

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const CHANNEL = new RegExp(`^(?:(element|elementChildren):(${UUID})#(${UUID})|(online|aiproxy):(${UUID}))$`);

/** A channel name taken apart, or null when it is none of the four kinds. */
export function parseChannel(name: string): ParsedChannel | null {
  const match = CHANNEL.exec(name);
  if (!match) return null;
  if (match[1]) return { kind: match[1] as ChannelKind, id: match[2].toLowerCase(), user: match[3].toLowerCase() };
  return { kind: match[4] as ChannelKind, id: match[5].toLowerCase() };
}

export const channels = {
  element: (pageId: string, userId: string) => `element:${pageId}#${userId}`,
  elementChildren: (parentId: string, userId: string) => `elementChildren:${parentId}#${userId}`,
  online: (pageId: string) => `online:${pageId}`,
  aiproxy: (id: string) => `aiproxy:${id}`,
};

/** A place in the page: a block and a character offset in its text. */
export const caretPointSchema = z.strictObject({ blockId: z.string().min(1).max(64), offset: z.number().int().min(0).max(1_000_000) });
export type CaretPoint = z.infer<typeof caretPointSchema>;
/** A caret or selection in the page (null: not in the page any more). */
export const caretSchema = z.strictObject({ anchor: caretPointSchema, focus: caretPointSchema }).nullable();
export type Caret = z.infer<typeof caretSchema>;

export const joinMessageSchema = z.strictObject({
  channel: z.string().max(200),
  /** element channels: a server time (`at` of the page load or of the last event seen); the answer's history holds what changed after it. */
  since: z.string().datetime().optional(),
});
export const leaveMessageSchema = z.strictObject({ channel: z.string().max(200) });
export const positionMessageSchema = z.strictObject({ channel: z.string().max(200), caret: caretSchema });
export const historyMessageSchema = z.strictObject({ channel: z.string().max(200), since: z.string().datetime() });

/** Someone on a page (online channel). */
export interface PresenceMember {
  /** The connection (one person may have the page open twice). */
  clientId: string;
  userId: string;
  name: string;
  avatar: string | null;
  /** The colour of their avatar ring and caret (one of a fixed palette, by user). */
  color: string;
  /** Their caret when they last sent one. */
  caret: Caret;
}

/** The acknowledgement of a client message. */
export type RealtimeAck<T = Record<string, never>> = ({ ok: true } & T) | { ok: false; error: RealtimeErrorBody };
export interface RealtimeErrorBody {
  code: RealtimeErrorCode;
  message: string;
  channel?: string;
}

/** What changed on a page since a time: live blocks changed (or made) since, and blocks deleted since. */
export interface BlockHistory {
  /** The channel it belongs to, without the user part: `element:<page>`, `elementChildren:<parent>`, `online:<page>`. */
  channel: string;
  pageId: string;
  /** Server time this history is complete up to: the next `since`. */
  at: string;
  blocks: WireBlock[];
  removed: string[];
  /** The versions of the removed blocks when deleted (same order). */
  removedVersions: number[];
  /**
   * Blocks of `blocks` whose version shown was written by the asking client itself (its
   * `clientId`): a write whose answer it lost. Its editor holds that text already, and what was
   * typed since; it is not someone else's change to merge (docs/realtime.md).
   */
  own?: string[];
}

/** Server → client payloads, by channel kind and event. */
export interface ElementEdit {
  /** The channel it belongs to, without the user part: `element:<page>`, `elementChildren:<parent>`, `online:<page>`. */
  channel: string;
  pageId: string;
  /** The connection whose request made the change (null: not from a realtime client). */
  origin: string | null;
  at: string;
  block: WireBlock;
}
export interface ElementAdd {
  /** The channel it belongs to, without the user part: `element:<page>`, `elementChildren:<parent>`, `online:<page>`. */
  channel: string;
  pageId: string;
  origin: string | null;
  at: string;
  /** New or revived blocks in document order (a restored subtree, a clone). */
  blocks: WireBlock[];
}
export interface ElementRemove {
  /** The channel it belongs to, without the user part: `element:<page>`, `elementChildren:<parent>`, `online:<page>`. */
  channel: string;
  pageId: string;
  origin: string | null;
  at: string;
  /** The deleted block and every block deleted with it. */
  ids: string[];
  /** Their versions when deleted (same order): a copy newer than that (brought back since) stays. */
  versions: number[];
}
/** A page's own fields changed (title, icon, cover): sent on its element channel. */
export interface ElementPageEdit {
  channel: string;
  pageId: string;
  origin: string | null;
  at: string;
  page: { id: string; title: string; icon: string | null; cover: unknown };
}
/** A version of a page was recorded (by the historian, the history panel opening, or a restore): sent on its element channel. */
export interface ElementVersionRecorded {
  channel: string;
  pageId: string;
  /** Server time of the event. */
  at: string;
  /** As `GET element/{id}/versions` lists it. */
  version: WirePageVersion;
}
/** elementChildren: the children of `parentId` (a page, or a workspace's top level) changed; `pageId` is the page that changed. */
export interface ChildrenChange {
  /** The channel it belongs to, without the user part: `element:<page>`, `elementChildren:<parent>`, `online:<page>`. */
  channel: string;
  parentId: string;
  pageId: string;
}
export interface PresenceJoin {
  /** The channel it belongs to, without the user part: `element:<page>`, `elementChildren:<parent>`, `online:<page>`. */
  channel: string;
  pageId: string;
  member: PresenceMember;
}
export interface PresenceLeave {
  /** The channel it belongs to, without the user part: `element:<page>`, `elementChildren:<parent>`, `online:<page>`. */
  channel: string;
  pageId: string;
  clientId: string;
}
export interface PresencePosition {
  /** The channel it belongs to, without the user part: `element:<page>`, `elementChildren:<parent>`, `online:<page>`. */
  channel: string;
  pageId: string;
  clientId: string;
  caret: Caret;
}

/** A notification was made for the connection's user (their private channel, joined on connect). */
export interface NotificationAdded {
  channel: typeof NOTIFICATIONS_CHANNEL;
  id: string;
  workspaceId: string;
}
/** The private channel every connection is in: its user's new notifications (`add`). */
export const NOTIFICATIONS_CHANNEL = 'notifications';

/** Server → client channel keys (no user part): what the web app routes events by. */
export const channelKeys = {
  element: (pageId: string) => `element:${pageId}`,
  elementChildren: (parentId: string) => `elementChildren:${parentId}`,
  online: (pageId: string) => `online:${pageId}`,
};

/** Avatar and caret colours, picked by user id so one person keeps one colour everywhere. */
export const PRESENCE_COLORS = ['#e5484d', '#f76b15', '#ffb224', '#30a46c', '#12a594', '#0090ff', '#6e56cf', '#d6409f', '#8e4ec6', '#3e63dd'] as const;
export function presenceColor(userId: string): string {
  let hash = 0;
  for (let i = 0; i < userId.length; i++) hash = (hash * 31 + userId.charCodeAt(i)) >>> 0;
  return PRESENCE_COLORS[hash % PRESENCE_COLORS.length];
}
