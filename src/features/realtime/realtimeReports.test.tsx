import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { REALTIME_ERRORS, type RealtimeAck } from '../../../schema/realtime';
import { RealtimeConnection } from '../../app/realtimeConnection';
import { createStore } from '../../app/store';
import { useRealtimeErrors } from './liveShell';

/*
 * Client-side reporting of the realtime connection's problems (spec §8, api-contract §8): every
 * error code 100–112, whatever brings it — an error event, a refused connection, a refused or
 * unanswered join — is reported once as `realtime` (reason serverError); an event the client does
 * not know is reported as `realtimeEvent`, not routed and not shown.
 */

/** socket.io's client as the connection uses it, driven by the test: `serverSends` is the server. */
class FakeSocket {
  connected = false;
  readonly handlers = new Map<string, ((...args: unknown[]) => void)[]>();
  readonly anyHandlers: ((event: string, ...args: unknown[]) => void)[] = [];
  /** The answer to the next acknowledged message, by event name (default: ok). */
  acks: Record<string, RealtimeAck<Record<string, unknown>> | 'none'> = {};
  on(event: string, handler: (...args: unknown[]) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }
  onAny(handler: (event: string, ...args: unknown[]) => void) {
    this.anyHandlers.push(handler);
    return this;
  }
  connect() {
    this.connected = true;
    this.fire('connect');
    return this;
  }
  close() {
    this.connected = false;
    return this;
  }
  emit() {
    return this;
  }
  timeout() {
    return {
      emitWithAck: async (event: string) => {
        const ack = this.acks[event] ?? { ok: true, at: '2026-01-01T00:00:00.000Z' };
        if (ack === 'none') throw new Error('operation has timed out');
        return ack;
      },
    };
  }
  /** Socket.io's own events (connect, connect_error) reach `on` handlers only. */
  fire(event: string, ...args: unknown[]) {
    for (const handler of this.handlers.get(event) ?? []) handler(...args);
  }
  /** An event from the server: `onAny` sees it, then its own handlers. */
  serverSends(event: string, payload: unknown) {
    for (const handler of this.anyHandlers) handler(event, payload);
    this.fire(event, payload);
  }
}

let socket: FakeSocket;
jest.mock('socket.io-client', () => ({ io: () => socket }));

let lines: { level: string; line: string; details: Record<string, unknown> }[];
beforeEach(() => {
  socket = new FakeSocket();
  lines = [];
  for (const level of ['error', 'warn', 'info'] as const) {
    jest
      .spyOn(console, level)
      .mockImplementation((...[line, details]: unknown[]) => void lines.push({ level, line: String(line), details: details as Record<string, unknown> }));
  }
  // Code 100 asks who is signed in: answered «still signed in».
  globalThis.fetch = (async () =>
    ({
      ok: true,
      status: 200,
      statusText: '',
      json: async () => ({ data: { id: 'u1', anonymous: false }, included: [], meta: {}, errors: [] }),
    }) as Response) as typeof fetch;
});
afterEach(() => jest.restoreAllMocks());

function watch() {
  const connection = new RealtimeConnection({ clientId: 'c1' });
  const store = createStore();
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
  const hook = renderHook(() => useRealtimeErrors(connection), { wrapper });
  connection.connect();
  return { connection, hook };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const realtime = () => lines.filter((l) => l.line.startsWith('realtime: '));

test('every error code 100–112 of an error event is reported once, with its reason, code, channel and message', () => {
  watch();
  const codes = Object.values(REALTIME_ERRORS);
  expect(codes).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112]);
  for (const code of codes) socket.serverSends('error', { code, message: `problem ${code}`, channel: `online:${code}` });
  expect(realtime().map((l) => [l.level, l.line])).toEqual(
    codes.map((code) => ['warn', `realtime: serverError (code ${code}) on online:${code}: problem ${code}`]),
  );
  expect(realtime()[3].details).toEqual({ reason: 'serverError', code: 103, channel: 'online:103' });
  // None of it reaches the person: nothing but the reports happened.
  expect(lines.filter((l) => !l.line.startsWith('realtime: '))).toEqual([]);
});

test('a refused join and an unanswered one are reported (once each), and the channel still hears of its refusal', async () => {
  const { connection } = watch();
  socket.acks.join = { ok: false, error: { code: REALTIME_ERRORS.forbidden, message: 'no access' } };
  const refused: number[] = [];
  connection.subscribe('online:p1', { onEvent: () => undefined, onError: (error) => void refused.push(error.code) });
  await settle();
  socket.acks.join = 'none';
  connection.subscribe('online:p2', { onEvent: () => undefined });
  await settle();
  expect(realtime().map((l) => l.line)).toEqual([
    'realtime: serverError (code 103) on online:p1: no access',
    'realtime: serverError (code 111) on online:p2: no answer',
  ]);
  expect(refused).toEqual([103]);
});

test('a refused connection (100) is reported, and the session asked about', async () => {
  const asked: string[] = [];
  const answer = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    asked.push(String(input));
    return answer(input, init);
  }) as typeof fetch;
  watch();
  socket.fire('connect_error', Object.assign(new Error('refused'), { data: { code: REALTIME_ERRORS.unauthorized, message: 'not signed in' } }));
  await settle();
  expect(realtime().map((l) => l.line)).toEqual(['realtime: serverError (code 100): not signed in']);
  expect(asked).toEqual(['/api/user/current']);
});

test('an unknown event is reported, not routed; known events are not reported', () => {
  const { connection } = watch();
  const heard: string[] = [];
  connection.subscribe('online:p1', { onEvent: (event) => void heard.push(event) });
  socket.serverSends('position', { channel: 'online:p1', caret: null });
  socket.serverSends('teleport', { channel: 'online:p1', to: 'mars' });
  socket.serverSends('ping', 42);
  expect(heard).toEqual(['position']);
  expect(lines.map((l) => [l.level, l.line])).toEqual([
    ['error', 'realtimeEvent: unknown event «teleport» on online:p1'],
    ['error', 'realtimeEvent: unknown event «ping»'],
  ]);
  expect(lines[0].details).toEqual({ event: 'teleport', channel: 'online:p1' });
});

test('a notification of an unknown kind is reported; a new one goes to its listeners', () => {
  const { connection } = watch();
  const notified: unknown[] = [];
  connection.onNotification((payload) => void notified.push(payload));
  socket.serverSends('add', { channel: 'notifications', id: 'n1', workspaceId: 'w1' });
  socket.serverSends('remove', { channel: 'notifications', id: 'n1' });
  expect(notified).toEqual([{ channel: 'notifications', id: 'n1', workspaceId: 'w1' }]);
  expect(lines.map((l) => l.line)).toEqual(['realtimeEvent: unknown event «remove» on notifications']);
});

test('once the shell is gone, nothing more is reported by it', () => {
  const { hook } = watch();
  hook.unmount();
  socket.serverSends('error', { code: 109, message: 'slow down' });
  socket.serverSends('teleport', {});
  expect(lines).toEqual([]);
});
