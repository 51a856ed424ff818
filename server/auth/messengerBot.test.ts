import type { FastifyBaseLogger } from 'fastify';
import { botUsername, messengerDeepLink } from './messengerBot';

const log = { warn: jest.fn() } as unknown as FastifyBaseLogger;
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** A Bot API whose getMe answers what `answers` says next (an Error: unreachable), counting the calls. */
function fakeBotApi(answers: Array<{ ok: boolean; result?: { username?: unknown } } | Error>) {
  const calls: string[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    calls.push(String(input));
    const next = answers.shift();
    if (!next || next instanceof Error) throw next ?? new Error('no answer');
    return { status: next.ok ? 200 : 401, json: async () => next } as Response;
  }) as typeof fetch;
  return calls;
}

test('the deep link carries the token as the start parameter', () => {
  expect(messengerDeepLink('pages_bot', 'Ab_-09')).toBe('https://t.me/pages_bot?start=Ab_-09');
});

test('the name is asked once and kept; callers at the same moment share the request', async () => {
  const calls = fakeBotApi([{ ok: true, result: { username: 'pages_bot' } }]);
  const name = botUsername({ apiUrl: 'http://bot.test', botToken: '1:abc', log });
  expect(await Promise.all([name(), name()])).toEqual(['pages_bot', 'pages_bot']);
  expect(await name()).toBe('pages_bot');
  expect(calls).toEqual(['http://bot.test/bot1:abc/getMe']);
});

test('unreachable or no username: null, asked again only a minute later', async () => {
  let clock = 0;
  const calls = fakeBotApi([new Error('ECONNREFUSED'), { ok: true, result: { username: 'not a name!' } }, { ok: true, result: { username: 'pages_bot' } }]);
  const name = botUsername({ apiUrl: 'http://bot.test', botToken: '1:abc', log, now: () => clock });
  expect(await name()).toBeNull();
  clock = 59_999;
  expect(await name()).toBeNull();
  expect(calls).toHaveLength(1);
  clock = 60_000;
  expect(await name()).toBeNull();
  clock = 120_000;
  expect(await name()).toBe('pages_bot');
  expect(calls).toHaveLength(3);
});
