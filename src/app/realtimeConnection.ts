import { io, type Socket } from 'socket.io-client';
import { newId } from '../../schema/ids';
import { REALTIME_EVENTS, REALTIME_LIMITS, REALTIME_PATH, type Caret, type RealtimeAck, type RealtimeErrorBody } from '../../schema/realtime';

export type RealtimeStatus = 'connecting' | 'online' | 'offline';

/** What a subscription to one channel does with what arrives. */
export interface ChannelHandlers {
  /** `since` for element channels: asked at every (re)join. */
  since?(): string | undefined;
  /** The join's answer (members of an online channel, the history of an element channel). */
  onJoined?(answer: Record<string, unknown> & { at: string }): void;
  /** An event of this channel: edit, add, remove, join, leave, position, database (rows and cells of a database on the page), versionRecorded (a version of the page: docs/history.md). */
  onEvent(event: string, payload: Record<string, unknown>): void;
  /** The join was refused, or an error about this channel arrived (107: access taken away). */
  onError?(error: RealtimeErrorBody): void;
}

export interface RealtimeConnectionOptions {
  /** The server (default: this page's origin). */
  url?: string;
  /** One per open app (tab); sent with block writes as X-Client-Id too. */
  clientId?: string;
  /** Node clients (tests, benchmarks): cookie header or Bearer token. The browser sends its cookie itself. */
  cookie?: string;
  token?: string;
  /** Reconnection delays (socket.io's own backoff): first and largest, ms. */
  reconnectDelayMs?: number;
  reconnectDelayMaxMs?: number;
}

/** The events a server sends (and `history`, a client's request): any other is unknown. */
const KNOWN_EVENTS: ReadonlySet<string> = new Set(Object.values(REALTIME_EVENTS));

/** The key events of a channel arrive under: the name without its `#user` part. */
export const channelKey = (name: string) => name.split('#')[0];

/**
 * The web app's realtime connection (docs/realtime.md): one socket, any number of channel
 * subscriptions, joined again after every reconnect (with a fresh `since`), and carets sent at
 * most every 50 ms. No React and no Redux here: the app's provider, the editor and the test
 * clients all use this class.
 */
export class RealtimeConnection {
  readonly clientId: string;
  private readonly socket: Socket;
  private readonly subscriptions = new Map<string, Set<ChannelHandlers>>();
  private readonly statusListeners = new Set<(status: RealtimeStatus) => void>();
  private readonly errorListeners = new Set<(error: RealtimeErrorBody) => void>();
  private readonly notificationListeners = new Set<(payload: { id: string; workspaceId: string }) => void>();
  private readonly unknownEventListeners = new Set<(event: string, payload: unknown) => void>();
  private readonly carets = new Map<string, { caret: Caret; timer: ReturnType<typeof setTimeout> | null; sentAt: number }>();
  private currentStatus: RealtimeStatus = 'connecting';

  constructor(options: RealtimeConnectionOptions = {}) {
    this.clientId = options.clientId ?? newId();
    this.socket = io(options.url ?? '', {
      path: REALTIME_PATH,
      transports: ['websocket'],
      autoConnect: false,
      reconnectionDelay: options.reconnectDelayMs ?? 500,
      reconnectionDelayMax: options.reconnectDelayMaxMs ?? 5000,
      auth: { clientId: this.clientId, ...(options.token ? { token: options.token } : {}) },
      ...(options.cookie ? { extraHeaders: { cookie: options.cookie } } : {}),
    });
    this.socket.on('connect', () => {
      this.setStatus('online');
      for (const name of this.subscriptions.keys()) void this.join(name);
    });
    this.socket.on('disconnect', () => this.setStatus('offline'));
    this.socket.on('connect_error', (error: Error & { data?: RealtimeErrorBody }) => {
      this.setStatus('offline');
      if (error.data) for (const listener of this.errorListeners) listener(error.data);
    });
    // An event of no name the protocol has (a newer server, a typo): not routed, told to the listeners (reported by the app).
    this.socket.onAny((event: string, payload: unknown) => {
      if (!KNOWN_EVENTS.has(event)) this.unknownEvent(event, payload);
    });
    for (const event of [
      REALTIME_EVENTS.edit,
      REALTIME_EVENTS.add,
      REALTIME_EVENTS.remove,
      REALTIME_EVENTS.join,
      REALTIME_EVENTS.leave,
      REALTIME_EVENTS.position,
      REALTIME_EVENTS.database,
      REALTIME_EVENTS.versionRecorded,
    ]) {
      this.socket.on(event, (payload: Record<string, unknown>) => this.route(event, payload));
    }
    this.socket.on(REALTIME_EVENTS.error, (error: RealtimeErrorBody) => {
      // An error that is a channel's own message (the AI assistant's failure on aiproxy, which
      // carries a reason, not a realtime code) is that channel's event, not a connection error.
      if (typeof error.code !== 'number') {
        this.route(REALTIME_EVENTS.error, error as unknown as Record<string, unknown>);
        return;
      }
      for (const listener of this.errorListeners) listener(error);
      if (!error.channel) return;
      for (const handlers of this.subscriptions.get(error.channel) ?? []) handlers.onError?.(error);
      // Access taken away: the server has dropped us from the channel; do not join it again.
      if (error.code === 107) this.subscriptions.delete(error.channel);
    });
  }

  get status(): RealtimeStatus {
    return this.currentStatus;
  }

  connect(): void {
    this.socket.connect();
  }

  close(): void {
    this.socket.close();
    for (const entry of this.carets.values()) if (entry.timer) clearTimeout(entry.timer);
    this.setStatus('offline');
  }

  onStatus(listener: (status: RealtimeStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /**
   * Every realtime error, whatever brought it: an `error` event, a refused connection, a refused
   * or unanswered acknowledgement (a join's, a history request's…). The app reports them all.
   */
  onError(listener: (error: RealtimeErrorBody) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /** Events the client does not know: a name outside the protocol, or a notification of no known kind. */
  onUnknownEvent(listener: (event: string, payload: unknown) => void): () => void {
    this.unknownEventListeners.add(listener);
    return () => this.unknownEventListeners.delete(listener);
  }

  /** New notifications of the signed-in user. */
  onNotification(listener: (payload: { id: string; workspaceId: string }) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  /**
   * Joins `name` (now if connected, else on connecting) and again after every reconnect, until
   * the returned function is called; the channel is left when its last subscription goes.
   */
  subscribe(name: string, handlers: ChannelHandlers): () => void {
    let set = this.subscriptions.get(name);
    const first = !set;
    if (!set) this.subscriptions.set(name, (set = new Set()));
    set.add(handlers);
    if (this.socket.connected) {
      if (first) void this.join(name);
      else void this.join(name, handlers);
    }
    return () => {
      const current = this.subscriptions.get(name);
      if (!current?.delete(handlers) || current.size > 0) return;
      this.subscriptions.delete(name);
      if (this.socket.connected) void this.request(REALTIME_EVENTS.leave, { channel: name });
    };
  }

  /** A message with an acknowledgement; a lost connection answers error 111 after the timeout. */
  async request<T = Record<string, unknown>>(event: string, message: unknown, timeoutMs = 10_000): Promise<RealtimeAck<T>> {
    let answer: RealtimeAck<T>;
    try {
      answer = (await this.socket.timeout(timeoutMs).emitWithAck(event, message)) as RealtimeAck<T>;
    } catch {
      answer = { ok: false, error: { code: 111, message: 'no answer' } };
    }
    if (!answer.ok) {
      const channel = (message as { channel?: unknown } | null)?.channel;
      const error = { ...answer.error, ...(typeof channel === 'string' && !answer.error.channel ? { channel } : {}) };
      for (const listener of this.errorListeners) listener(error);
    }
    return answer;
  }

  /** The caret on a page (online channel), sent at most every REALTIME_LIMITS.positionIntervalMs. */
  sendCaret(pageId: string, caret: Caret): void {
    const channel = `online:${pageId}`;
    let entry = this.carets.get(channel);
    if (!entry) this.carets.set(channel, (entry = { caret, timer: null, sentAt: 0 }));
    entry.caret = caret;
    if (entry.timer) return;
    const wait = Math.max(0, entry.sentAt + REALTIME_LIMITS.positionIntervalMs - Date.now());
    const send = () => {
      const current = this.carets.get(channel);
      if (!current) return;
      current.timer = null;
      current.sentAt = Date.now();
      if (this.socket.connected && this.subscriptions.has(channel)) this.socket.emit(REALTIME_EVENTS.position, { channel, caret: current.caret });
    };
    if (wait === 0) send();
    else entry.timer = setTimeout(send, wait);
  }

  private async join(name: string, only?: ChannelHandlers): Promise<void> {
    const targets = only ? [only] : [...(this.subscriptions.get(name) ?? [])];
    const since = targets.map((h) => h.since?.()).find((s): s is string => typeof s === 'string');
    const answer = await this.request<{ at: string }>(REALTIME_EVENTS.join, { channel: name, ...(since ? { since } : {}) });
    if (!this.subscriptions.has(name)) return;
    for (const handlers of targets) {
      if (answer.ok) handlers.onJoined?.(answer as unknown as Record<string, unknown> & { at: string });
      else handlers.onError?.({ ...answer.error, channel: name });
    }
    // A caret set before the join goes out now.
    const caret = this.carets.get(name);
    if (answer.ok && caret) this.socket.emit(REALTIME_EVENTS.position, { channel: name, caret: caret.caret });
  }

  private route(event: string, payload: Record<string, unknown>): void {
    const key = payload.channel;
    if (typeof key !== 'string') return;
    if (key === 'notifications') {
      if (event === REALTIME_EVENTS.add) for (const listener of this.notificationListeners) listener(payload as { id: string; workspaceId: string });
      else this.unknownEvent(event, payload);
      return;
    }
    for (const [name, set] of this.subscriptions) {
      if (channelKey(name) !== key) continue;
      for (const handlers of set) handlers.onEvent(event, payload);
    }
  }

  private unknownEvent(event: string, payload: unknown): void {
    for (const listener of this.unknownEventListeners) listener(event, payload);
  }

  private setStatus(status: RealtimeStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    for (const listener of this.statusListeners) listener(status);
  }
}
