import { io, type Socket } from 'socket.io-client';
import { REALTIME_PATH, type RealtimeAck, type RealtimeErrorBody } from '../../schema/realtime';
import { actor, type Actor } from './pages';
import { createTestApp, type TestApp } from './testApp';

/** How a test client signs in: a session cookie (`sid=…`) or a Bearer access token. */
export type Credential = { cookie: string } | { token: string };

/**
 * A real socket.io client against a listening server (`baseUrl` like http://127.0.0.1:PORT),
 * connected and signed in. Rejects with the server's error body when the sign-in is refused.
 * WebSocket only (no long-polling), as the web app does.
 */
export function connectRealtime(
  baseUrl: string,
  credential: Credential,
  options: { clientId?: string; origin?: string; reconnection?: boolean; headers?: Record<string, string> } = {},
): Promise<Socket> {
  const socket = io(baseUrl, {
    path: REALTIME_PATH,
    transports: ['websocket'],
    reconnection: options.reconnection ?? false,
    forceNew: true,
    auth: { ...('token' in credential ? { token: credential.token } : {}), ...(options.clientId ? { clientId: options.clientId } : {}) },
    extraHeaders: {
      ...('cookie' in credential && credential.cookie ? { cookie: credential.cookie } : {}),
      ...(options.origin ? { origin: options.origin } : {}),
      ...options.headers,
    },
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error: Error & { data?: RealtimeErrorBody }) => {
      socket.close();
      reject(Object.assign(new Error(error.message), { data: error.data }));
    });
  });
}

/** Sends a message with an acknowledgement and resolves with the answer. */
export function request<T = Record<string, unknown>>(socket: Socket, event: string, message: unknown, timeoutMs = 5000): Promise<RealtimeAck<T>> {
  return socket.timeout(timeoutMs).emitWithAck(event, message) as Promise<RealtimeAck<T>>;
}

/** Every payload of `event` the socket receives from now on (a live array). */
export function collect<T = Record<string, unknown>>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (payload: T) => seen.push(payload));
  return seen;
}

/** The next payload of `event` that `accept` takes, or a rejection after `timeoutMs`. */
export function nextEvent<T = Record<string, unknown>>(
  socket: Socket,
  event: string,
  accept: (payload: T) => boolean = () => true,
  timeoutMs = 5000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no ${event} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (payload: T) => {
      if (!accept(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}

/** Resolves when nothing matching arrives within `ms` (for "is not told" checks). */
export async function noEvent(socket: Socket, event: string, accept: (payload: unknown) => boolean = () => true, ms = 300): Promise<void> {
  let seen: unknown;
  const listener = (payload: unknown) => {
    if (accept(payload)) seen = payload;
  };
  socket.on(event, listener);
  await new Promise((resolve) => setTimeout(resolve, ms));
  socket.off(event, listener);
  if (seen !== undefined) throw new Error(`unexpected ${event}: ${JSON.stringify(seen)}`);
}

/** The error body of a refused connection (`connect_error` data), or a failure when it connected. */
export async function refusedConnection(
  baseUrl: string,
  credential: Credential,
  options: Parameters<typeof connectRealtime>[2] = {},
): Promise<RealtimeErrorBody | undefined> {
  try {
    const socket = await connectRealtime(baseUrl, credential, options);
    socket.close();
  } catch (error) {
    return (error as { data?: RealtimeErrorBody }).data;
  }
  throw new Error('the connection was accepted');
}

/** Resolves with the reason once the socket is disconnected, or rejects after `timeoutMs`. */
export function disconnected(socket: Socket, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    if (socket.disconnected) return resolve('already disconnected');
    const timer = setTimeout(() => {
      socket.off('disconnect', listener);
      reject(new Error(`still connected after ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (reason: string) => {
      clearTimeout(timer);
      resolve(reason);
    };
    socket.once('disconnect', listener);
  });
}

/** Waits until `predicate` holds (polled), or rejects after `timeoutMs`. */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * One test app on the project's database, listening on a free port, with people signed in
 * (`emails`, in order) and their realtime clients: registers beforeAll/afterEach/afterAll. Read
 * the parts through the getters (they exist once beforeAll ran). `connect` opens a client closed
 * after the test; `sockets` takes any other client to close then.
 */
export function listeningApp(emails: readonly string[]) {
  let t: TestApp | undefined;
  let people: Actor[] = [];
  let baseUrl = '';
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    for (const email of emails) people.push(await actor(t, email));
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });
  afterAll(async () => {
    await t?.close();
    people = [];
  });
  return {
    t: (): TestApp => t!,
    people: (): Actor[] => people,
    baseUrl: (): string => baseUrl,
    sockets,
    /** A client of `who` (a person, or a cookie), closed after the test. */
    async connect(who: Actor | string, options: Parameters<typeof connectRealtime>[2] = {}): Promise<Socket> {
      const socket = await connectRealtime(baseUrl, { cookie: typeof who === 'string' ? who : who.cookie }, options);
      sockets.push(socket);
      return socket;
    },
  };
}
