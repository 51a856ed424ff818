import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import { AI_LIMITS, type AiAccepted, type AiAction, type AiDelta, type AiErrorReason, type AiFailure, type AiResult } from '../../schema/ai';
import { channels } from '../../schema/realtime';
import { loadConfig, type AiConfig } from '../config';
import { actor, type Actor } from '../../test/helpers/pages';
import { startOpenAiServer, type FakeReply, type OpenAiServer } from '../../test/helpers/openaiServer';
import { connectRealtime, noEvent, request } from '../../test/helpers/realtimeClient';
import { api, body, createTestApp, errorCode, type TestApp } from '../../test/helpers/testApp';

/**
 * The AI assistant (docs/ai.md) on a real listening server and the project's database, with real
 * socket.io clients and a local model server speaking the OpenAI streaming protocol
 * (test/helpers/openaiServer.ts): the stream reaches only its channel's owner, in order, then the
 * whole text; every provider failure reaches the spec's reason; stalls time out; the call's own
 * refusals (401, 409, 413, 422, 429, 503); and improve without a model (typography, spelling,
 * 'nothing to change').
 */

/** One server under test: its app, its listening address and its users. */
interface Server {
  t: TestApp;
  baseUrl: string;
  ann: Actor;
  bob: Actor;
}

const TIMEOUT_MS = 1000;
const API_KEY = 'sk-test-key';
let fake: OpenAiServer;
/** With the fake model; no rate limit to speak of. */
let model: Server;
/** No model (offline improve); 3 requests a minute per user. */
let offline: Server;
const sockets: Socket[] = [];

function aiConfig(overrides: Partial<AiConfig>): AiConfig {
  return { ...loadConfig({}).ai, ...overrides };
}

async function startServer(ai: AiConfig): Promise<Server> {
  const t = await createTestApp({ ai });
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, baseUrl, ann: await actor(t, 'ann@example.com'), bob: await actor(t, 'bob@example.com') };
}

beforeAll(async () => {
  fake = await startOpenAiServer({ apiKey: API_KEY });
  [model, offline] = await Promise.all([
    startServer(aiConfig({ baseUrl: fake.url, apiKey: API_KEY, model: 'fake-model', timeoutMs: TIMEOUT_MS, rateLimitPerMinute: 1000 })),
    startServer(aiConfig({ baseUrl: undefined, rateLimitPerMinute: 3 })),
  ]);
}, 60_000);
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await Promise.all([model?.t.close(), offline?.t.close()]);
  await fake?.close();
});

async function connect(server: Server, who: Actor): Promise<Socket> {
  const socket = await connectRealtime(server.baseUrl, { cookie: who.cookie });
  sockets.push(socket);
  return socket;
}

/** A connection of `who` that joined a fresh aiproxy channel: its id. */
async function channelOf(server: Server, who: Actor, socket?: Socket): Promise<{ socket: Socket; id: string }> {
  const connection = socket ?? (await connect(server, who));
  const id = crypto.randomUUID();
  const answer = await request(connection, 'join', { channel: channels.aiproxy(id) });
  if (!answer.ok) throw new Error(`join refused: ${JSON.stringify(answer.error)}`);
  return { socket: connection, id };
}

function ask(server: Server, who: Actor | undefined, action: AiAction, payload: Record<string, unknown>) {
  return api(server.t, who?.cookie, 'POST', `/api/ai/${action}`, payload);
}

type AiEvent = { event: 'add'; payload: AiDelta } | { event: 'edit'; payload: AiResult } | { event: 'error'; payload: AiFailure };

/** Every AI event of a channel the socket gets from now on, in order (a live array). */
function record(socket: Socket, id: string): AiEvent[] {
  const seen: AiEvent[] = [];
  for (const event of ['add', 'edit', 'error'] as const) {
    socket.on(event, (payload: { channel?: string }) => {
      if (payload?.channel === channels.aiproxy(id)) seen.push({ event, payload } as AiEvent);
    });
  }
  return seen;
}

/** Waits for the last event of a request (edit or error) in a recording. */
async function settled(seen: AiEvent[], timeoutMs = 8000): Promise<AiEvent> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = seen.find((e) => e.event === 'edit' || e.event === 'error');
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`no edit or error within ${timeoutMs} ms; got ${JSON.stringify(seen)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Runs one request on the model server against a queued reply; answers its events. */
async function run(reply: FakeReply, action: AiAction = 'continue', text = 'Начало текста') {
  const { socket, id } = await channelOf(model, model.ann);
  const seen = record(socket, id);
  fake.enqueue(reply);
  const res = await ask(model, model.ann, action, { websocket_id: id, text, context: '' });
  expect(res.statusCode).toBe(202);
  const requestId = body<AiAccepted>(res).data.requestId;
  const last = await settled(seen);
  await new Promise((resolve) => setTimeout(resolve, 50)); // nothing after the last event
  return { seen, last, requestId, id };
}

const adds = (seen: AiEvent[]) => seen.filter((e) => e.event === 'add').map((e) => (e.payload as AiDelta).delta);

describe('streaming to the owner', () => {
  test('pieces arrive in order as add events, then edit with the whole text; only on the owner’s channel', async () => {
    const { ann, bob } = model;
    const { socket, id } = await channelOf(model, ann);
    const seen = record(socket, id);
    // The same user's other connection, not in the channel; and another user in a channel of his own.
    const otherTab = await connect(model, ann);
    const stranger = await channelOf(model, bob);
    const quiet = [
      noEvent(otherTab, 'add', undefined, 1500),
      noEvent(otherTab, 'edit', undefined, 1500),
      noEvent(stranger.socket, 'add', undefined, 1500),
      noEvent(stranger.socket, 'edit', undefined, 1500),
    ];
    const pieces = ['Жили-были', ' дед', ' и баба', '. Ёлка — «зелёная»', '…\n\nКонец.'];
    // Every event is written in parts (lines and UTF-8 characters cut) with CRLF line ends.
    fake.enqueue({ kind: 'stream', pieces, delayMs: 40, fragment: true, crlf: true });

    const res = await ask(model, ann, 'continue', { websocket_id: id, text: 'Жили-были', context: 'Сказка о репке.' });
    expect(res.statusCode).toBe(202);
    const accepted = body<AiAccepted>(res).data;
    expect(accepted).toEqual({ requestId: expect.stringMatching(/^[0-9a-f-]{36}$/), websocket_id: id, type: 'continue' });

    const last = await settled(seen);
    expect(seen.map((e) => e.event)).toEqual([...pieces.map(() => 'add'), 'edit']);
    expect(adds(seen)).toEqual(pieces);
    for (const { payload } of seen) expect(payload).toMatchObject({ channel: `aiproxy:${id}`, requestId: accepted.requestId, type: 'continue' });
    expect(last.payload).toEqual({ channel: `aiproxy:${id}`, requestId: accepted.requestId, type: 'continue', text: pieces.join('') });
    await Promise.all(quiet);

    // What the model was asked: the OpenAI protocol, the key, the model, the Russian prompt with the context.
    const asked = fake.requests[fake.requests.length - 1];
    expect(asked.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(asked.body).toMatchObject({ model: 'fake-model', stream: true });
    expect(asked.body?.messages).toEqual([
      { role: 'system', content: expect.stringContaining('Продолжи текст') },
      { role: 'user', content: 'Жили-были' },
    ]);
    expect(asked.body?.messages?.[0].content).toContain('Сказка о репке.');
  });

  test('the owner’s other connection in the same channel gets the stream too; English text gets the English prompt', async () => {
    const { ann } = model;
    const { socket, id } = await channelOf(model, ann);
    const second = await channelOf(model, ann);
    // The second connection joins the first one's channel.
    expect((await request(second.socket, 'join', { channel: channels.aiproxy(id) })).ok).toBe(true);
    const first = record(socket, id);
    const other = record(second.socket, id);
    fake.enqueue({ kind: 'stream', pieces: ['Once', ' upon', ' a time'] });
    expect((await ask(model, ann, 'generate', { websocket_id: id, text: 'Write a fairy tale opening' })).statusCode).toBe(202);
    await settled(first);
    await settled(other);
    expect(adds(other)).toEqual(['Once', ' upon', ' a time']);
    expect(first.at(-1)?.payload).toMatchObject({ text: 'Once upon a time' });
    expect(fake.requests.at(-1)?.body?.messages?.[0].content).toContain('Write the text the user asks for');
  });

  test('pieces sent back to back keep their order (also through the PostgreSQL adapter)', async () => {
    const pieces = Array.from({ length: 40 }, (_, i) => `${i} `);
    const { seen, last } = await run({ kind: 'stream', pieces });
    expect(seen.map((e) => e.event)).toEqual([...pieces.map(() => 'add'), 'edit']);
    expect(adds(seen)).toEqual(pieces);
    expect(last.payload).toMatchObject({ text: pieces.join('').trimEnd() });
  });

  test('a server that ignores stream: true (one JSON completion): one add and the edit', async () => {
    const { seen, last } = await run({ kind: 'json', content: 'Весь ответ сразу.' });
    expect(adds(seen)).toEqual(['Весь ответ сразу.']);
    expect(last.payload).toMatchObject({ text: 'Весь ответ сразу.' });
  });

  test('a reasoning model: its thoughts keep the request alive and are not part of the text', async () => {
    // Five reasoning chunks 300 ms apart outlast the 1 s timeout in all, but never stall for it.
    const { seen, last } = await run({
      kind: 'stream',
      reasoning: ['Думаю', '…', 'ещё', '…', 'готово'],
      pieces: ['<think>план</thi', 'nk>\n\nИтак', ', ответ.'],
      delayMs: 300,
    });
    expect(last.event).toBe('edit');
    expect(adds(seen).join('')).toBe('Итак, ответ.');
    expect(last.payload).toMatchObject({ text: 'Итак, ответ.' });
  });

  test('a new request on the same channel stops the one still running there', async () => {
    const { ann } = model;
    const { socket, id } = await channelOf(model, ann);
    const seen = record(socket, id);
    fake.enqueue({ kind: 'stream', pieces: ['медленно', ' и', ' долго', ' и', ' нудно'], delayMs: 300 });
    const index = fake.requests.length;
    const first = body<AiAccepted>(await ask(model, ann, 'continue', { websocket_id: id, text: 'первый' })).data.requestId;
    const upstream = await fake.requestAt(index);
    await new Promise((resolve) => setTimeout(resolve, 400));
    fake.enqueue({ kind: 'stream', pieces: ['быстро'] });
    const second = body<AiAccepted>(await ask(model, ann, 'continue', { websocket_id: id, text: 'второй' })).data.requestId;
    const last = await settled(seen);
    await fake.closed(upstream);
    expect(upstream.abandoned).toBe(true);
    expect(last.payload).toMatchObject({ requestId: second, text: 'быстро' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    // The first one said at most its first piece, and no end of its own.
    expect(seen.filter((e) => e.payload.requestId === first).map((e) => e.event)).toEqual(['add']);
  });
});

describe('an owner who went away', () => {
  test('the channel left empty for 10 s stops the request and closes the model’s call; nothing is sent', async () => {
    const { ann } = model;
    const { socket, id } = await channelOf(model, ann);
    const index = fake.requests.length;
    fake.enqueue({ kind: 'stream', pieces: Array.from({ length: 40 }, (_, i) => `${i} `), delayMs: 400 });
    expect((await ask(model, ann, 'continue', { websocket_id: id, text: 'Долгий рассказ' })).statusCode).toBe(202);
    const upstream = await fake.requestAt(index);
    socket.close();
    const gone = performance.now();
    await fake.closed(upstream, 14_000);
    const after = performance.now() - gone;
    expect(upstream.abandoned).toBe(true);
    expect(after).toBeGreaterThan(9_500);
    expect(after).toBeLessThan(13_000);
    // Stopped well before its 40 pieces.
    expect(upstream.piecesSentAt.length).toBeLessThan(35);
  }, 20_000);
});

describe('an owner who leaves, and someone else in the channel', () => {
  test('the owner leaving the channel on purpose stops the request at once and closes the model’s call', async () => {
    const { ann } = model;
    const { socket, id } = await channelOf(model, ann);
    const seen = record(socket, id);
    const index = fake.requests.length;
    fake.enqueue({ kind: 'stream', pieces: Array.from({ length: 40 }, (_, i) => `${i} `), delayMs: 200 });
    expect((await ask(model, ann, 'continue', { websocket_id: id, text: 'Долгий рассказ' })).statusCode).toBe(202);
    const upstream = await fake.requestAt(index);
    expect((await request(socket, 'leave', { channel: channels.aiproxy(id) })).ok).toBe(true);
    const left = performance.now();
    await fake.closed(upstream, 3000);
    expect(upstream.abandoned).toBe(true);
    expect(performance.now() - left).toBeLessThan(2000);
    expect(seen.filter((e) => e.event !== 'add')).toEqual([]);
  });

  test('another user who joins the channel after its owner’s connection dropped hears nothing of the owner’s result', async () => {
    const { ann, bob } = model;
    const { socket, id } = await channelOf(model, ann);
    const index = fake.requests.length;
    fake.enqueue({ kind: 'stream', pieces: Array.from({ length: 12 }, (_, i) => `${i} `), delayMs: 150 });
    expect((await ask(model, ann, 'continue', { websocket_id: id, text: 'Секретный рассказ' })).statusCode).toBe(202);
    const upstream = await fake.requestAt(index);
    socket.close();
    // The channel is empty (the owner may come back within 10 s): bob may join it, and is told nothing.
    const intruder = await connect(model, bob);
    const heard: unknown[] = [];
    for (const event of ['add', 'edit', 'error']) intruder.on(event, (payload: unknown) => heard.push(payload));
    // (Until the server has seen the owner's connection close, the channel is still taken: 112.)
    const deadline = Date.now() + 3000;
    while (!(await request(intruder, 'join', { channel: channels.aiproxy(id) })).ok) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await fake.closed(upstream, 6000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The model finished its answer (bob's presence did not stop it), and bob got none of it.
    expect(upstream.piecesSentAt).toHaveLength(12);
    expect(heard).toEqual([]);
  });
});

describe('failures reach the spec’s reason', () => {
  const cases: Array<[string, string, AiErrorReason, FakeReply]> = [
    [
      '429',
      'Rate limit exceeded',
      'rateLimitError',
      { kind: 'error', status: 429, message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
    ],
    ['500', 'Internal server error', 'serverError', { kind: 'error', status: 500, message: 'The server had an error while processing your request.' }],
    ['503', 'Internal server error', 'serverError', { kind: 'error', status: 503, message: 'The engine is currently overloaded' }],
    ['400', 'Bad request', 'unknownError', { kind: 'error', status: 400, message: "'messages' is too long", type: 'invalid_request_error' }],
    [
      '401',
      'Invalid authentication credentials',
      'unknownError',
      { kind: 'error', status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' },
    ],
    ['402', 'Insufficient account balance', 'unknownError', { kind: 'error', status: 402, message: 'Insufficient credits' }],
    ['404', 'Requested resource not found', 'unknownError', { kind: 'error', status: 404, message: 'The model `x` does not exist', code: 'model_not_found' }],
    ['418 (any other status)', 'Unexpected API response', 'unknownError', { kind: 'error', status: 418, message: 'teapot' }],
    [
      'bad JSON in an event',
      'failed to decode',
      'decodeError',
      { kind: 'raw', chunks: ['data: {"choices":[{"delta":{"content":"Нач', '"}}]}\n\n', 'data: {"choices": [oops\n\n'] },
    ],
    [
      'an HTML page instead of a stream',
      'failed to decode',
      'decodeError',
      { kind: 'raw', contentType: 'text/html', chunks: ['<html><body>Bad gateway</body></html>'] },
    ],
    [
      'bytes that are not UTF-8',
      'failed to decode',
      'decodeError',
      { kind: 'raw', chunks: [Buffer.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xff, 0xfe, 0x0a, 0x0a])] },
    ],
    [
      'an error object in the stream, with a status',
      'Rate limit exceeded',
      'rateLimitError',
      { kind: 'streamError', pieces: ['Нача', 'ло'], error: { message: 'Rate limit exceeded: free-models-per-min', code: 429 } },
    ],
    [
      'an error object in the stream, without one',
      'Internal server error',
      'serverError',
      { kind: 'streamError', pieces: ['Нача'], error: { message: 'CUDA out of memory' } },
    ],
    ['a stream cut off before [DONE]', 'Unexpected API response', 'unknownError', { kind: 'stream', pieces: ['Нача', 'ло'], then: 'cut' }],
    ['nothing but whitespace', 'empty answer', 'unknownError', { kind: 'stream', pieces: ['\n', '  '] }],
  ];
  test.each(cases)('%s → %s (%s); nobody else hears it', async (_name, message, reason, reply) => {
    // Another user in a channel of his own, and the owner's other connection (not in the channel).
    const stranger = await channelOf(model, model.bob);
    const otherTab = await connect(model, model.ann);
    const elsewhere: unknown[] = [];
    for (const socket of [stranger.socket, otherTab])
      for (const event of ['add', 'edit', 'error']) socket.on(event, (payload: unknown) => elsewhere.push(payload));
    const { last, requestId, id } = await run(reply);
    expect(last).toEqual({ event: 'error', payload: { channel: `aiproxy:${id}`, requestId, type: 'continue', message, reason } });
    expect(elsewhere).toEqual([]);
  });

  test('the provider’s 429 with Retry-After: the error event says how long to wait', async () => {
    const { last } = await run({ kind: 'error', status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded', retryAfter: '17' });
    expect(last.payload).toMatchObject({ message: 'Rate limit exceeded', reason: 'rateLimitError', retryAfter: 17 });
  });

  test('improve with a model that changes nothing: nothing to change → emptyChangeError', async () => {
    const { last } = await run({ kind: 'stream', pieces: ['Всё ', 'и так хорошо.'] }, 'improve', 'Всё и так хорошо.\n');
    expect(last.payload).toMatchObject({ message: 'nothing to change', reason: 'emptyChangeError', type: 'improve' });
  });

  test('improve with a model that fixes the text: the edit carries it', async () => {
    const { last } = await run({ kind: 'stream', pieces: ['Всё и так ', 'хорошо.'] }, 'improve', 'Всё итак хорошо');
    expect(last).toMatchObject({ event: 'edit', payload: { type: 'improve', text: 'Всё и так хорошо.' } });
    expect(fake.requests.at(-1)?.body?.messages?.[0].content).toContain('Исправь в тексте пользователя орфографию');
  });
});

describe('a model that stalls', () => {
  test('no first token within the timeout: timeout context → timeoutError, and the upstream call is given up', async () => {
    const index = fake.requests.length;
    const started = Date.now();
    const { seen, last } = await run({ kind: 'stall' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(seen).toHaveLength(1);
    expect(last.payload).toMatchObject({ message: 'timeout context', reason: 'timeoutError' });
    const upstream = await fake.requestAt(index);
    await fake.closed(upstream);
    expect(upstream.abandoned).toBe(true);
  });

  test('a stall mid-stream: the pieces so far, then timeout context', async () => {
    const { seen, last } = await run({ kind: 'stream', pieces: ['Раз', ', два'], delayMs: 50, then: 'stall' });
    expect(seen.map((e) => e.event)).toEqual(['add', 'add', 'error']);
    expect(last.payload).toMatchObject({ message: 'timeout context', reason: 'timeoutError' });
  });

  test('slow but steady (each token within the timeout, all of them beyond it) is no stall', async () => {
    const { last } = await run({ kind: 'stream', pieces: ['а', 'б', 'в', 'г'], delayMs: TIMEOUT_MS / 2 });
    expect(last).toMatchObject({ event: 'edit', payload: { text: 'абвг' } });
  });
});

describe('what the call itself refuses', () => {
  test('401 for an anonymous caller', async () => {
    const res = await ask(model, undefined, 'generate', { websocket_id: crypto.randomUUID(), text: 'Привет' });
    expect(res.statusCode).toBe(401);
    expect(errorCode(res)).toBe('unauthorized');
  });

  test('422 for a body off the schema (no uuid, empty text, unknown fields)', async () => {
    const { id } = await channelOf(model, model.ann);
    for (const payload of [
      { websocket_id: 'nope', text: 'x' },
      { websocket_id: id, text: '' },
      { websocket_id: id, text: 'x', extra: 1 },
    ]) {
      const res = await ask(model, model.ann, 'improve', payload);
      expect(res.statusCode).toBe(422);
      expect(errorCode(res)).toBe('validation_failed');
    }
  });

  test('413 ai.too_large beyond AI_LIMITS (text or context); at the limit it is accepted', async () => {
    const { socket, id } = await channelOf(model, model.ann);
    const seen = record(socket, id);
    const big = 'а'.repeat(AI_LIMITS.text + 1);
    for (const payload of [
      { websocket_id: id, text: big },
      { websocket_id: id, text: 'Привет', context: 'б'.repeat(AI_LIMITS.context + 1) },
    ]) {
      const res = await ask(model, model.ann, 'continue', payload);
      expect(res.statusCode).toBe(413);
      expect(errorCode(res)).toBe('ai.too_large');
    }
    fake.enqueue({ kind: 'stream', pieces: ['ок'] });
    const res = await ask(model, model.ann, 'continue', { websocket_id: id, text: 'а'.repeat(AI_LIMITS.text), context: 'б'.repeat(AI_LIMITS.context) });
    expect(res.statusCode).toBe(202);
    expect((await settled(seen)).event).toBe('edit');
  });

  test('409 ai.channel_not_joined: nobody in the channel, another user’s channel, a channel the caller left', async () => {
    const { ann, bob } = model;
    const before = fake.requests.length;
    const nobody = await ask(model, ann, 'generate', { websocket_id: crypto.randomUUID(), text: 'Привет' });
    expect(nobody.statusCode).toBe(409);
    expect(errorCode(nobody)).toBe('ai.channel_not_joined');

    const bobs = await channelOf(model, bob);
    const taken = await ask(model, ann, 'generate', { websocket_id: bobs.id, text: 'Привет' });
    expect(taken.statusCode).toBe(409);
    expect(errorCode(taken)).toBe('ai.channel_not_joined');

    const left = await channelOf(model, ann);
    await request(left.socket, 'leave', { channel: channels.aiproxy(left.id) });
    expect((await ask(model, ann, 'generate', { websocket_id: left.id, text: 'Привет' })).statusCode).toBe(409);
    // None of them reached the model.
    expect(fake.requests.length).toBe(before);
  });
});

describe('without a model', () => {
  test('generate and continue: 503 ai.not_configured, saying how to configure one', async () => {
    const { socket, id } = await channelOf(offline, offline.ann);
    for (const action of ['generate', 'continue'] as const) {
      const res = await ask(offline, offline.ann, action, { websocket_id: id, text: 'Напиши план' });
      expect(res.statusCode).toBe(503);
      expect(errorCode(res)).toBe('ai.not_configured');
      const message = body(res).errors[0].message;
      expect(message).toContain('AI_BASE_URL');
      expect(message).toContain('AI_MODEL');
      expect(message).toContain('http://localhost:11434/v1');
    }
    await noEvent(socket, 'error', (payload) => (payload as { channel?: string }).channel === channels.aiproxy(id), 100);
  });

  test('improve works offline: typography (quotes, dashes, ellipsis, spaces) and a misspelling; one add, then the edit', async () => {
    const { ann } = offline;
    const { socket, id } = await channelOf(offline, ann);
    const seen = record(socket, id);
    const text = 'Он сказал "я програмист" - и ушёл ... Код `a - b` и ссылка https://example.com/a-b остались ,как были.';
    const res = await ask(offline, ann, 'improve', { websocket_id: id, text, context: 'Рассказ.' });
    expect(res.statusCode).toBe(202);
    const requestId = body<AiAccepted>(res).data.requestId;
    const last = await settled(seen, 20_000);
    const improved = 'Он сказал «я программист» — и ушёл… Код `a - b` и ссылка https://example.com/a-b остались, как были.';
    expect(seen).toEqual([
      { event: 'add', payload: { channel: `aiproxy:${id}`, requestId, type: 'improve', delta: improved } },
      { event: 'edit', payload: { channel: `aiproxy:${id}`, requestId, type: 'improve', text: improved } },
    ]);
    expect(last.payload).not.toHaveProperty('message');
    expect(improved).not.toMatch(/\u00a0/); // no invisible non-breaking spaces
  }, 30_000);

  test('improve of a text with nothing to fix: error nothing to change → emptyChangeError, and no add', async () => {
    const { bob } = offline;
    const { socket, id } = await channelOf(offline, bob);
    const seen = record(socket, id);
    // Names and unknown words with capitals are left alone; so is a list's dash.
    const res = await ask(offline, bob, 'improve', { websocket_id: id, text: '- Иваненко пришёл в «Ромашку» — всё хорошо.\n' });
    expect(res.statusCode).toBe(202);
    const requestId = body<AiAccepted>(res).data.requestId;
    await settled(seen, 20_000);
    expect(seen).toEqual([
      { event: 'error', payload: { channel: `aiproxy:${id}`, requestId, type: 'improve', message: 'nothing to change', reason: 'emptyChangeError' } },
    ]);
  }, 30_000);

  test('429 with Retry-After beyond AI_RATE_LIMIT_PER_MINUTE per user; other users are not affected', async () => {
    const rita = await actor(offline.t, 'rita@example.com');
    const { id } = await channelOf(offline, rita);
    for (let i = 0; i < 3; i++) expect((await ask(offline, rita, 'improve', { websocket_id: id, text: `Текст номер ${i}.` })).statusCode).toBe(202);
    const limited = await ask(offline, rita, 'improve', { websocket_id: id, text: 'Ещё один.' });
    expect(limited.statusCode).toBe(429);
    expect(errorCode(limited)).toBe('rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(55);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(body(limited).errors[0]).toMatchObject({ details: { retryAfter }, message: expect.stringContaining(`try again in ${retryAfter} s`) });
    // Someone else still may.
    const sam = await actor(offline.t, 'sam@example.com');
    const theirs = await channelOf(offline, sam);
    expect((await ask(offline, sam, 'improve', { websocket_id: theirs.id, text: 'Мой текст.' })).statusCode).toBe(202);
  }, 30_000);
});
