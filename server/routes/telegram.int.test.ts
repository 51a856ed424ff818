import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireUser } from '../../schema/user';
import { BOT_REPLIES, telegramWebhookPath } from './telegram';
import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';

const BOT_TOKEN = '123456:test-bot-token';
const SECRET = 'webhook-secret_1';

interface SentMessage {
  path: string;
  body: { chat_id: number; text: string };
}

const BOT_NAME = 'pages_test_bot';

/**
 * A local HTTP server that plays the Bot API: it records sendMessage calls and answers ok; getMe
 * (counted in `askedName`) answers the bot's username.
 */
async function startBotApi(status = 200): Promise<{ url: string; sent: SentMessage[]; askedName: () => number; close(): Promise<void> }> {
  const sent: SentMessage[] = [];
  let askedName = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.url?.endsWith('/getMe')) {
        askedName += 1;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(status === 200 ? { ok: true, result: { id: 1, is_bot: true, first_name: 'Страницы', username: BOT_NAME } } : { ok: false }));
        return;
      }
      sent.push({ path: req.url ?? '', body: JSON.parse(raw) as SentMessage['body'] });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status === 200 ? { ok: true, result: { message_id: sent.length } } : { ok: false, description: 'Bad Request' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, sent, askedName: () => askedName, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A Bot API Update as the platform posts it. */
function update(fromId: number, text: string, updateId = 1) {
  return {
    update_id: updateId,
    message: {
      message_id: 10,
      date: 1_700_000_000,
      chat: { id: fromId, type: 'private', first_name: 'Ann' },
      from: { id: fromId, is_bot: false, first_name: 'Ann', language_code: 'ru' },
      text,
      entities: [{ offset: 0, length: 6, type: 'bot_command' }],
    },
  };
}

let bot: Awaited<ReturnType<typeof startBotApi>>;
let t: TestApp;
const path = telegramWebhookPath(BOT_TOKEN);

beforeAll(async () => {
  bot = await startBotApi();
  t = await createTestApp({ telegramBotToken: BOT_TOKEN, telegramWebhookSecret: SECRET, telegramApiUrl: bot.url });
});
afterAll(async () => {
  await t.close();
  await bot.close();
});
beforeEach(() => {
  bot.sent.length = 0;
});

/** Posts an update to the webhook; `secret` null sends no secret header. */
const hook = (payload: unknown, secret: string | null = SECRET) =>
  t.app.inject({ method: 'POST', url: path, payload: payload as object, headers: secret === null ? {} : { 'x-telegram-bot-api-secret-token': secret } });

async function linkCode(cookie: string): Promise<string> {
  return body<{ token: string }>(await api(t, cookie, 'GET', '/api/user/telegram/code')).data.token;
}

const me = async (cookie: string) => body<WireUser>(await api(t, cookie, 'GET', '/api/user/current')).data;

describe('messenger webhook', () => {
  test('/start <token> links the sender to the user and the bot says so through sendMessage', async () => {
    const cookie = await signIn(t, 'ann@example.com');
    const token = await linkCode(cookie);
    const res = await hook(update(4242001, `/start ${token}`));
    expect(res.statusCode).toBe(200);
    expect((await me(cookie)).telegramId).toBe('4242001');
    expect(bot.sent).toEqual([{ path: `/bot${BOT_TOKEN}/sendMessage`, body: { chat_id: 4242001, text: BOT_REPLIES.linked } }]);
  });

  test("the code comes with the deep link that sends it to the bot in one tap; the bot's name is asked of the Bot API once", async () => {
    const cookie = await signIn(t, 'deep@example.com');
    const asked = bot.askedName();
    const first = body<{ token: string; link: string | null }>(await api(t, cookie, 'GET', '/api/user/telegram/code')).data;
    const second = body<{ token: string; link: string | null }>(await api(t, cookie, 'GET', '/api/user/telegram/code')).data;
    expect(first.link).toBe(`https://t.me/${BOT_NAME}?start=${first.token}`);
    expect(second.link).toBe(`https://t.me/${BOT_NAME}?start=${second.token}`);
    expect(first.token).not.toBe(second.token);
    // Asked once for the process (by this test or an earlier one), not once a code.
    expect(bot.askedName()).toBe(1);
    expect(asked).toBeLessThanOrEqual(1);
    // What the link makes the platform send links the account.
    await hook(update(5151, `/start ${new URL(second.link as string).searchParams.get('start')}`));
    expect((await me(cookie)).telegramId).toBe('5151');
  });

  test('a token works once; a replay from another account links nothing', async () => {
    const cookie = await signIn(t, 'bob@example.com');
    const token = await linkCode(cookie);
    expect((await hook(update(777, `/start ${token}`))).statusCode).toBe(200);
    const replay = await hook(update(888, `/start ${token}`, 2));
    expect(replay.statusCode).toBe(200);
    expect((await me(cookie)).telegramId).toBe('777');
    expect(await t.app.db.selectFrom('users').select('id').where('telegram_id', '=', '888').executeTakeFirst()).toBeUndefined();
    expect(bot.sent.map((m) => m.body.text)).toEqual([BOT_REPLIES.linked, BOT_REPLIES.invalid]);
  });

  test('an expired or made-up token links nothing and the bot says the link is stale', async () => {
    const cookie = await signIn(t, 'eve@example.com');
    const token = await linkCode(cookie);
    await t.app.db
      .updateTable('messenger_link_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    await hook(update(901, `/start ${token}`));
    await hook(update(902, `/start ${'A'.repeat(43)}`, 2));
    await hook(update(903, '/start not/a/token', 3));
    expect((await me(cookie)).telegramId).toBeNull();
    expect(bot.sent.map((m) => [m.body.chat_id, m.body.text])).toEqual([
      [901, BOT_REPLIES.invalid],
      [902, BOT_REPLIES.invalid],
      [903, BOT_REPLIES.invalid],
    ]);
  });

  test('a messenger account belongs to one user: linking it elsewhere moves it', async () => {
    const first = await signIn(t, 'first@example.com');
    const second = await signIn(t, 'second@example.com');
    await hook(update(3131, `/start ${await linkCode(first)}`));
    await hook(update(3131, `/start@my_bot ${await linkCode(second)}`, 2));
    expect((await me(first)).telegramId).toBeNull();
    expect((await me(second)).telegramId).toBe('3131');
  });

  test('/start alone gets instructions; other messages and updates are acknowledged silently', async () => {
    expect((await hook(update(5, '/start'))).statusCode).toBe(200);
    expect((await hook(update(5, 'hello', 2))).statusCode).toBe(200);
    expect((await hook({ update_id: 3, edited_message: { chat: { id: 5 } } })).statusCode).toBe(200);
    expect((await hook({ update_id: 4, message: { message_id: 1, chat: { id: 5, type: 'channel' }, text: '/start x' } })).statusCode).toBe(200);
    expect(bot.sent.map((m) => m.body.text)).toEqual([BOT_REPLIES.howTo]);
  });

  test('the secret header is checked: missing or wrong → 403, nothing linked, nothing sent', async () => {
    const cookie = await signIn(t, 'mallory@example.com');
    const token = await linkCode(cookie);
    for (const secret of [null, 'wrong-secret', `${SECRET}x`, '']) {
      const res = await hook(update(6666, `/start ${token}`), secret);
      expect([res.statusCode, errorCode(res)]).toEqual([403, 'forbidden']);
    }
    expect((await me(cookie)).telegramId).toBeNull();
    expect(bot.sent).toEqual([]);
    // The token is still good for the real platform.
    await hook(update(6666, `/start ${token}`));
    expect((await me(cookie)).telegramId).toBe('6666');
  });

  test('a malformed update → 422; another path → 404', async () => {
    expect((await hook({ message: { text: '/start x' } })).statusCode).toBe(422);
    expect((await hook({ update_id: 'one' })).statusCode).toBe(422);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/telegram/webhook/guess',
      payload: update(1, '/start x'),
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
    });
    expect([other.statusCode, errorCode(other)]).toEqual([404, 'not_found']);
  });

  test('a Bot API failure does not fail the webhook (the platform would resend the update)', async () => {
    const failing = await startBotApi(400);
    const app = await createTestApp({ telegramBotToken: BOT_TOKEN, telegramApiUrl: failing.url });
    try {
      const cookie = await signIn(app, 'zoe@example.com');
      const code = body<{ token: string; link: string | null }>(await api(app, cookie, 'GET', '/api/user/telegram/code')).data;
      // The bot's name is unknown (getMe refused): the code still comes, without a deep link.
      expect(code.link).toBeNull();
      expect(failing.askedName()).toBe(1);
      const token = code.token;
      // No TELEGRAM_WEBHOOK_SECRET on this server: no header needed.
      const res = await app.app.inject({ method: 'POST', url: path, payload: update(99, `/start ${token}`) });
      expect(res.statusCode).toBe(200);
      expect(failing.sent).toHaveLength(1);
      expect(body<WireUser>(await api(app, cookie, 'GET', '/api/user/current')).data.telegramId).toBe('99');
    } finally {
      await app.close();
      await failing.close();
    }
  });

  test('without TELEGRAM_BOT_TOKEN there is no webhook (404)', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.app.inject({ method: 'POST', url: path, payload: update(1, '/start abc') });
      expect([res.statusCode, errorCode(res)]).toEqual([404, 'not_found']);
    } finally {
      await plain.close();
    }
  });
});
