import { buildApp } from '../app';
import { FEEDBACK_LIMIT_PER_IP } from './feedback';
import { freePort } from '../../test/helpers/serverProcess';
import { mailText, startSmtpSink } from '../../test/helpers/smtpSink';
import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';

const FEEDBACK_TO = 'team@workspace.example';
const message = { username: 'Анна', text: 'Очень нравится редактор!\nНо хочется тёмную тему.', email: 'Anna@Example.com' };
let ipCounter = 0;
/** A fresh client address per call site, so the per-address limit does not leak between tests. */
const fromNewAddress = () => ({ 'x-forwarded-for': `198.51.100.${++ipCounter}` });

describe('POST /api/email/hello', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ feedbackEmail: FEEDBACK_TO });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    t.mailer.messages.length = 0;
  });

  test('anyone may send: mailed to FEEDBACK_EMAIL, reply-to the sender', async () => {
    const res = await api(t, undefined, 'POST', '/api/email/hello', message, fromNewAddress());
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toEqual({ status: 'success' });
    expect(t.mailer.messages).toHaveLength(1);
    const [mail] = t.mailer.messages;
    expect(mail).toMatchObject({ to: FEEDBACK_TO, replyTo: 'anna@example.com', subject: 'Обратная связь: Анна' });
    expect(mail.text).toContain('От: Анна <anna@example.com>');
    expect(mail.text).toContain(message.text);
    expect(mail.text).not.toContain('Аккаунт');
  });

  test('a signed-in sender is named by account too', async () => {
    const cookie = await signIn(t, 'boris@example.com');
    const res = await api(t, cookie, 'POST', '/api/email/hello', { ...message, email: 'boris@example.com' }, fromNewAddress());
    expect(res.statusCode).toBe(200);
    expect(t.mailer.messages[0].text).toMatch(/Аккаунт: boris@example\.com \([0-9a-f-]{36}\)/);
  });

  test('a name cannot add mail headers: the subject stays one line', async () => {
    await api(t, undefined, 'POST', '/api/email/hello', { ...message, username: 'Eve\r\nBcc: victim@example.com' }, fromNewAddress());
    expect(t.mailer.messages[0].subject).toBe('Обратная связь: Eve Bcc: victim@example.com');
  });

  test(`at most ${FEEDBACK_LIMIT_PER_IP} messages per address, then 429; other addresses are not limited`, async () => {
    const headers = fromNewAddress();
    for (let i = 0; i < FEEDBACK_LIMIT_PER_IP; i++) expect((await api(t, undefined, 'POST', '/api/email/hello', message, headers)).statusCode).toBe(200);
    const limited = await api(t, undefined, 'POST', '/api/email/hello', message, headers);
    expect([limited.statusCode, errorCode(limited)]).toEqual([429, 'rate_limited']);
    expect(t.mailer.messages).toHaveLength(FEEDBACK_LIMIT_PER_IP);
    expect((await api(t, undefined, 'POST', '/api/email/hello', message, fromNewAddress())).statusCode).toBe(200);
  });

  test.each([
    [{}],
    [{ ...message, email: 'not-an-email' }],
    [{ ...message, text: '' }],
    [{ ...message, text: '   ' }],
    [{ ...message, text: 'x'.repeat(10_001) }],
    [{ ...message, username: undefined }],
    [{ ...message, extra: 'field' }],
  ])('a bad body %# → 422, nothing sent', async (payload) => {
    const res = await api(t, undefined, 'POST', '/api/email/hello', payload, fromNewAddress());
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    expect(t.mailer.messages).toEqual([]);
  });

  test('malformed JSON → 400, a text body → 415, prototype keys → 400', async () => {
    const send = (payload: string, type: string) =>
      t.app.inject({ method: 'POST', url: '/api/email/hello', payload, headers: { 'content-type': type, ...fromNewAddress() } });
    expect([(await send('{"username":', 'application/json')).statusCode]).toEqual([400]);
    expect((await send('hello', 'text/plain')).statusCode).toBe(415);
    const proto = await send('{"username":"a","text":"b","email":"a@b.cd","__proto__":{"polluted":1}}', 'application/json');
    expect(proto.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(t.mailer.messages).toEqual([]);
  });

  test('without FEEDBACK_EMAIL the message is only logged: success, no mail', async () => {
    const plain = await createTestApp();
    try {
      const res = await api(plain, undefined, 'POST', '/api/email/hello', message);
      expect([res.statusCode, body(res).data]).toEqual([200, { status: 'success' }]);
      expect(plain.mailer.messages).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});

describe('feedback over real SMTP', () => {
  test('SMTP_URL set: the message reaches the SMTP server with Reply-To the sender', async () => {
    const sink = await startSmtpSink();
    const t = await createTestApp({ smtpUrl: sink.url, feedbackEmail: FEEDBACK_TO, mailFrom: 'Страницы <robot@workspace.example>' });
    try {
      // The test app captures mail; restart it on the same database with the real mailer.
      await t.app.close();
      t.app = await buildApp(t.config, { logger: false });
      await t.app.ready();
      const res = await api(t, undefined, 'POST', '/api/email/hello', { ...message, username: 'Eve\r\nBcc: victim@example.com' });
      expect(res.statusCode).toBe(200);
      expect(sink.messages).toHaveLength(1);
      const [mail] = sink.messages;
      expect(mail.to).toEqual([FEEDBACK_TO]);
      expect(mail.from).toBe('robot@workspace.example');
      expect(mail.raw).toMatch(/^Reply-To: anna@example\.com\r?$/m);
      expect(mail.raw).not.toMatch(/^Bcc:/im);
      expect(mailText(mail.raw)).toContain('Но хочется тёмную тему.');
    } finally {
      await t.close();
      await sink.close();
    }
  });

  test('an SMTP server that cannot be reached → 502 feedback.send_failed', async () => {
    const port = await freePort();
    const t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}`, feedbackEmail: FEEDBACK_TO });
    try {
      await t.app.close();
      t.app = await buildApp(t.config, { logger: false });
      await t.app.ready();
      const res = await api(t, undefined, 'POST', '/api/email/hello', message);
      expect([res.statusCode, errorCode(res)]).toEqual([502, 'feedback.send_failed']);
    } finally {
      await t.close();
    }
  });
});
