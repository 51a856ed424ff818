/**
 * A stand-in for `socket.io-client` in jsdom tests of the web app's realtime connection
 * (src/app/realtimeConnection.ts), which the tests put in its place:
 *
 *     jest.mock('socket.io-client', () => jest.requireActual('../../test/helpers/fakeSocketIo'));
 *
 * Every socket the app makes is kept in `sockets`, with what it was made with, whether it was
 * told to connect or closed, and what it sent. The test plays the server: `serverConnect`,
 * `serverDisconnect`, `serverSend` an event, and answers the requests (`pending`, `answer`).
 */
type Listener = (...args: unknown[]) => void;

export interface FakeRequest {
  event: string;
  message: Record<string, unknown>;
  answer(reply: unknown): void;
}

export class FakeSocket {
  connected = false;
  /** connect() calls (the app's `connect`; socket.io's reconnects are the test's `serverConnect`). */
  connectCalls = 0;
  closed = false;
  /** Messages sent without an answer (emit). */
  readonly sent: Array<{ event: string; message: unknown }> = [];
  /** Requests waiting for their answer (emitWithAck). */
  readonly pending: FakeRequest[] = [];
  private readonly listeners = new Map<string, Listener[]>();
  private readonly anyListeners: Listener[] = [];

  constructor(
    readonly url: string,
    readonly options: Record<string, unknown>,
  ) {}

  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  /** Every event the server sends (socket.io's own — connect, disconnect, connect_error — are not among them). */
  onAny(listener: Listener): this {
    this.anyListeners.push(listener);
    return this;
  }

  connect(): this {
    this.connectCalls += 1;
    return this;
  }

  close(): this {
    this.closed = true;
    this.connected = false;
    return this;
  }

  emit(event: string, message: unknown): this {
    this.sent.push({ event, message });
    return this;
  }

  timeout(_ms: number) {
    return {
      emitWithAck: (event: string, message: Record<string, unknown>) =>
        new Promise((resolve) => this.pending.push({ event, message, answer: (reply) => resolve(reply) })),
    };
  }

  /* The server's side. */

  serverConnect(): void {
    this.connected = true;
    this.fire('connect');
  }

  serverDisconnect(): void {
    this.connected = false;
    this.fire('disconnect', 'transport close');
  }

  serverSend(event: string, payload: unknown): void {
    if (event !== 'connect_error') for (const listener of this.anyListeners) listener(event, payload);
    this.fire(event, payload);
  }

  /** Answers the oldest waiting request of `event` (and channel, when given); throws when there is none. */
  answer(event: string, reply: unknown, channel?: string): FakeRequest {
    const at = this.pending.findIndex((r) => r.event === event && (channel === undefined || r.message.channel === channel));
    if (at < 0) throw new Error(`no ${event} request${channel ? ` for ${channel}` : ''} is waiting`);
    const [request] = this.pending.splice(at, 1);
    request.answer(reply);
    return request;
  }

  private fire(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
}

/** Every socket made, oldest first. */
export const sockets: FakeSocket[] = [];

export function io(url: string, options: Record<string, unknown> = {}): FakeSocket {
  const socket = new FakeSocket(url, options);
  sockets.push(socket);
  return socket;
}
