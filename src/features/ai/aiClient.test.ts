import { ApiRequestError } from '../../app/api';
import { DEFAULT_AI, aiInstallationNow, loadAiInstallation, noteAiModelMissing, resetAppLinks } from '../../app/appConfig';
import type { ChannelHandlers, RealtimeStatus } from '../../app/realtimeConnection';
import type { AiAction } from '../../../schema/ai';
import { SILENCE_MARGIN_MS, startAiCall, type AiCallFailure, type AiCallOptions } from './aiClient';

/*
 * One call of the assistant (startAiCall) without a server: a fake realtime connection (joins
 * when the test says, delivers the events the test sends, goes offline and back) and a fake POST.
 * The client's own logic: when it posts, its timeouts, what it reports, and that it reports once.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

class FakeConnection {
  readonly channels = new Map<string, ChannelHandlers>();
  readonly left: string[] = [];
  readonly statusListeners = new Set<(status: RealtimeStatus) => void>();

  subscribe(name: string, handlers: ChannelHandlers): () => void {
    this.channels.set(name, handlers);
    return () => {
      this.left.push(name);
      this.channels.delete(name);
    };
  }
  onStatus(listener: (status: RealtimeStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }
  /** The one channel subscribed to. */
  get name(): string {
    expect(this.channels.size).toBe(1);
    return [...this.channels.keys()][0];
  }
  private get handlers(): ChannelHandlers {
    return this.channels.get(this.name)!;
  }
  /** The server's answer to the join (again after a reconnect). */
  joined(): void {
    this.handlers.onJoined?.({ at: new Date().toISOString() });
  }
  /** An event on the channel, as the server sends it. */
  send(event: 'add' | 'edit' | 'error', payload: Record<string, unknown>): void {
    this.handlers.onEvent(event, { channel: this.name, requestId: 'r1', type: 'continue', ...payload });
  }
  status(status: RealtimeStatus): void {
    for (const listener of [...this.statusListeners]) listener(status);
  }
}

interface Post {
  path: string;
  body: { websocket_id: string; text: string; context: string };
  resolve(): void;
  reject(error: unknown): void;
}

/** A call with a fake connection and POST; records what the handlers heard, in order. */
function call(options: AiCallOptions = {}, action: AiAction = 'continue') {
  const connection = new FakeConnection();
  const posts: Post[] = [];
  const heard: string[] = [];
  const failures: AiCallFailure[] = [];
  const cancel = startAiCall(
    connection,
    action,
    { text: 'Мы едем на Байкал.', context: 'Поездка' },
    {
      onAccepted: () => heard.push('accepted'),
      onDelta: (delta, text) => heard.push(`delta:${delta}|${text}`),
      onResult: (text) => heard.push(`result:${text}`),
      onError: (failure) => {
        heard.push(`error:${failure.reason}`);
        failures.push(failure);
      },
    },
    {
      post: (path, body) =>
        new Promise((resolve, reject) => {
          posts.push({ path, body: body as Post['body'], resolve: () => resolve({ data: {} }), reject });
        }),
      ...options,
    },
  );
  return { connection, posts, heard, failures, cancel };
}

/** Lets promise callbacks and microtasks (the channel is left in one) run. */
const settle = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

let warn: jest.SpyInstance;

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick'] });
  resetAppLinks();
  warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  jest.useRealTimers();
  warn.mockRestore();
});

it('joins a fresh aiproxy channel first, posts once joined, streams the pieces, ends with the whole text and leaves', async () => {
  const { connection, posts, heard } = call();
  const name = connection.name;
  expect(name).toMatch(/^aiproxy:/);
  expect(name.slice('aiproxy:'.length)).toMatch(UUID);
  // Nothing is posted before the join is answered.
  await settle();
  expect(posts).toHaveLength(0);

  connection.joined();
  expect(posts).toHaveLength(1);
  expect(posts[0].path).toBe('/api/ai/continue');
  expect(posts[0].body).toEqual({ websocket_id: name.slice('aiproxy:'.length), text: 'Мы едем на Байкал.', context: 'Поездка' });
  posts[0].resolve();
  await settle();

  connection.send('add', { delta: 'Лёд ' });
  connection.send('add', { delta: 'прозрачный' });
  connection.send('edit', { text: 'Лёд прозрачный.' });
  expect(heard).toEqual(['accepted', 'delta:Лёд |Лёд ', 'delta:прозрачный|Лёд прозрачный', 'result:Лёд прозрачный.']);
  await settle();
  expect(connection.left).toEqual([name]);
  expect(connection.statusListeners.size).toBe(0);
});

it('a channel not joined within 10 s: fetchError, nothing posted', async () => {
  const { connection, posts, heard, failures } = call();
  jest.advanceTimersByTime(9_999);
  expect(heard).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(heard).toEqual(['error:fetchError']);
  expect(failures[0].message).toMatch(/not joined/);
  await settle();
  expect(connection.left).toHaveLength(1);
  expect(posts).toHaveLength(0);
});

describe('silence: the server timeout (GET /api/config ai.timeoutMs) and a margin', () => {
  it('waits the configured server timeout + 30 s from the last sign of life, then timeoutError', async () => {
    const { connection, posts, heard } = call({ serverTimeoutMs: 120_000 });
    connection.joined();
    posts[0].resolve();
    await settle();
    // 150 s without anything: a slow model (120 s on the server) is not cut short.
    jest.advanceTimersByTime(120_000 + SILENCE_MARGIN_MS - 1);
    expect(heard).toEqual(['accepted']);
    // A piece restarts the wait.
    connection.send('add', { delta: 'Медленно' });
    jest.advanceTimersByTime(149_999);
    expect(heard).toEqual(['accepted', 'delta:Медленно|Медленно']);
    jest.advanceTimersByTime(1);
    expect(heard).toEqual(['accepted', 'delta:Медленно|Медленно', 'error:timeoutError']);
    // Later events change nothing.
    connection.send('edit', { text: 'Медленно.' });
    expect(heard).toHaveLength(3);
  });

  it('without an option: what /api/config said; before it answered, the default (60 s + 30 s)', async () => {
    const before = call();
    before.connection.joined();
    jest.advanceTimersByTime(DEFAULT_AI.timeoutMs + SILENCE_MARGIN_MS - 1);
    expect(before.heard).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(before.heard).toEqual(['error:timeoutError']);

    globalThis.fetch = (async (url: string) => {
      expect(url).toBe('/api/config');
      return {
        ok: true,
        status: 200,
        statusText: '',
        json: async () => ({ data: { links: {}, defaultHost: null, ai: { model: true, timeoutMs: 200_000 } }, errors: [] }),
      } as Response;
    }) as unknown as typeof fetch;
    await expect(loadAiInstallation()).resolves.toEqual({ model: true, timeoutMs: 200_000 });
    const after = call();
    after.connection.joined();
    jest.advanceTimersByTime(200_000 + SILENCE_MARGIN_MS - 1);
    expect(after.heard).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(after.heard).toEqual(['error:timeoutError']);
  });
});

describe('the connection going offline', () => {
  it('down for 12 s during the call: fetchError (repeated "offline" does not restart the wait)', async () => {
    const { connection, posts, heard, failures } = call();
    connection.joined();
    posts[0].resolve();
    await settle();
    connection.status('offline');
    jest.advanceTimersByTime(6_000);
    // A failed reconnect attempt says offline again.
    connection.status('offline');
    jest.advanceTimersByTime(5_999);
    expect(heard).toEqual(['accepted']);
    jest.advanceTimersByTime(1);
    expect(heard).toEqual(['accepted', 'error:fetchError']);
    expect(failures[0].message).toMatch(/connection was lost/);
  });

  it('back within 12 s: no timeout; the join answered again does not post again; the result still comes', async () => {
    const { connection, posts, heard } = call();
    connection.joined();
    posts[0].resolve();
    await settle();
    connection.send('add', { delta: 'Раз' });
    connection.status('offline');
    jest.advanceTimersByTime(11_000);
    connection.status('online');
    // The subscription is joined again after the reconnect.
    connection.joined();
    jest.advanceTimersByTime(30_000);
    expect(posts).toHaveLength(1);
    expect(heard).toEqual(['accepted', 'delta:Раз|Раз']);
    connection.send('edit', { text: 'Раз, два.' });
    expect(heard).toEqual(['accepted', 'delta:Раз|Раз', 'result:Раз, два.']);
  });
});

it('cancelled: later events, answers and timeouts are ignored, and the channel is left', async () => {
  const { connection, posts, heard, cancel } = call();
  const name = connection.name;
  connection.joined();
  connection.send('add', { delta: 'Раз' });
  cancel();
  connection.send('add', { delta: ' два' });
  connection.send('edit', { text: 'Раз два' });
  connection.send('error', { message: 'Internal server error', reason: 'serverError' });
  posts[0].resolve();
  await settle();
  connection.status('offline');
  jest.advanceTimersByTime(10 * 60_000);
  expect(heard).toEqual(['delta:Раз|Раз']);
  expect(connection.left).toEqual([name]);
  expect(connection.statusListeners.size).toBe(0);
});

describe('exactly one of onResult and onError', () => {
  it('edit, then error (and a failed POST): the result only', async () => {
    const { connection, posts, heard } = call();
    connection.joined();
    connection.send('edit', { text: 'Готово.' });
    connection.send('error', { message: 'timeout context', reason: 'timeoutError' });
    posts[0].reject(new ApiRequestError(500, 'internal', 'boom'));
    await settle();
    jest.advanceTimersByTime(10 * 60_000);
    expect(heard).toEqual(['result:Готово.']);
  });

  it('error, then edit: the error only', async () => {
    const { connection, heard, failures } = call();
    connection.joined();
    connection.send('error', { message: 'Internal server error', reason: 'serverError' });
    connection.send('edit', { text: 'Готово.' });
    connection.send('error', { message: 'failed to decode', reason: 'decodeError' });
    expect(heard).toEqual(['error:serverError']);
    expect(failures[0]).toEqual({ reason: 'serverError', message: 'Internal server error' });
  });
});

describe('rate limits: a warning in the console and the wait, both kinds', () => {
  it('our own 429 (POST /api/ai/*): rateLimitError with details.retryAfter', async () => {
    const { connection, posts, failures } = call();
    connection.joined();
    posts[0].reject(new ApiRequestError(429, 'rate_limited', 'at most 20 AI requests a minute; try again in 42 s', null, { retryAfter: 42 }));
    await settle();
    expect(failures).toEqual([{ reason: 'rateLimitError', message: 'at most 20 AI requests a minute; try again in 42 s', retryAfter: 42 }]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/^ai: rateLimitError .*retry after 42 s/);
  });

  it('our own 429 without details: the wait read from the message', async () => {
    const { connection, posts, failures } = call();
    connection.joined();
    posts[0].reject(new ApiRequestError(429, 'rate_limited', 'try again in 7 s'));
    await settle();
    expect(failures[0].retryAfter).toBe(7);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('the model provider’s 429 (an error event with retryAfter): rateLimitError with the wait, warned', async () => {
    const { connection, posts, failures } = call();
    connection.joined();
    posts[0].resolve();
    await settle();
    connection.send('error', { message: 'Rate limit exceeded', reason: 'rateLimitError', retryAfter: 16.2 });
    expect(failures).toEqual([{ reason: 'rateLimitError', message: 'Rate limit exceeded', retryAfter: 17 }]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/^ai: rateLimitError \(Rate limit exceeded\), retry after 17 s/);
  });

  it('the provider’s 429 without a wait: rateLimitError, no retryAfter, warned; other failures are not warned', async () => {
    const first = call();
    first.connection.joined();
    first.connection.send('error', { message: 'Rate limit exceeded' });
    expect(first.failures).toEqual([{ reason: 'rateLimitError', message: 'Rate limit exceeded' }]);
    expect(warn).toHaveBeenCalledTimes(1);
    const second = call();
    second.connection.joined();
    second.connection.send('error', { message: 'Internal server error', reason: 'serverError', retryAfter: 5 });
    expect(second.failures).toEqual([{ reason: 'serverError', message: 'Internal server error' }]);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

it('503 ai.not_configured: the notConfigured hint (generate and continue need a model)', async () => {
  const { connection, posts, failures } = call({}, 'generate');
  connection.joined();
  expect(posts[0].path).toBe('/api/ai/generate');
  posts[0].reject(new ApiRequestError(503, 'ai.not_configured', 'no AI model is configured: set AI_BASE_URL'));
  await settle();
  expect(failures[0]).toMatchObject({ hint: 'notConfigured' });
});

it('a refused join or no connection at all: fetchError', async () => {
  const refused = call();
  refused.connection.channels.get(refused.connection.name)!.onError?.({ code: 112, message: 'taken', channel: refused.connection.name });
  expect(refused.heard).toEqual(['error:fetchError']);
  expect(refused.posts).toHaveLength(0);

  const failures: AiCallFailure[] = [];
  startAiCall(null, 'improve', { text: 'x', context: '' }, { onDelta: () => {}, onResult: () => {}, onError: (f) => failures.push(f) });
  await settle();
  expect(failures).toEqual([{ reason: 'fetchError', message: 'no realtime connection' }]);
});

describe('the installation (GET /api/config `ai`)', () => {
  const answer = (data: unknown, ok = true) => {
    globalThis.fetch = (async () =>
      ok
        ? ({ ok: true, status: 200, statusText: '', json: async () => ({ data, errors: [] }) } as Response)
        : Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof fetch;
  };

  it('what the server says; absent or malformed: the default (a model, 60 s)', async () => {
    answer({ links: {}, ai: { model: false, timeoutMs: 300_000 } });
    await expect(loadAiInstallation()).resolves.toEqual({ model: false, timeoutMs: 300_000 });
    expect(aiInstallationNow()).toEqual({ model: false, timeoutMs: 300_000 });
    resetAppLinks();
    answer({ links: {} });
    await expect(loadAiInstallation()).resolves.toEqual({ model: true, timeoutMs: 60_000 });
    resetAppLinks();
    answer({ links: {}, ai: { model: 'yes', timeoutMs: -1 } });
    await expect(loadAiInstallation()).resolves.toEqual({ model: true, timeoutMs: 60_000 });
  });

  it('a failed /api/config: the default; a 503 ai.not_configured learnt later: no model', async () => {
    answer(null, false);
    await expect(loadAiInstallation()).resolves.toEqual({ model: true, timeoutMs: 60_000 });
    noteAiModelMissing();
    expect(aiInstallationNow()).toEqual({ model: false, timeoutMs: 60_000 });
  });
});
