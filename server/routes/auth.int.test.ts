import { LOGIN_CODE_MAX_ATTEMPTS } from '../../schema/constants';
import type { WireUser } from '../../schema/user';
import type { WireWorkspace } from '../../schema/workspace';
import {
  api,
  body,
  createTestApp,
  errorCode,
  formData,
  login,
  sendCode,
  sessionCookie,
  signIn,
  urlEncoded,
  type TestApp,
} from '../../test/helpers/testApp';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ sendCodeLimitPerEmail: 3, sendCodeLimitPerIp: 6 });
});
afterEach(async () => {
  await t.close();
});

/** A pin that is surely not the given one. */
const wrongPin = (pin: string) => String((Number(pin) + 1) % 1_000_000).padStart(6, '0');

describe('send_code', () => {
  test('accepts multipart form-data and mails a six-digit code', async () => {
    const form = await formData({ email: 'ann@example.com' });
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/send_code', ...form });
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toEqual({ status: 'success' });
    expect(t.mailer.sent.get('ann@example.com')).toHaveLength(1);
    expect(t.mailer.lastCode('ann@example.com')).toMatch(/^\d{6}$/);
  });

  test('accepts urlencoded form and normalizes the e-mail', async () => {
    const res = await sendCode(t, '  Bob@Example.COM ');
    expect(res.statusCode).toBe(200);
    expect(t.mailer.sent.get('bob@example.com')).toHaveLength(1);
  });

  test.each([['not-an-email'], ['a@b'], ['two words@example.com'], ['']])('rejects e-mail %p with 422', async (email) => {
    const res = await sendCode(t, email);
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
    expect(t.mailer.sent.size).toBe(0);
  });

  test('rejects a missing body with 422', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/send_code' });
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
  });

  test('limits codes per e-mail (429 rate_limited) without limiting other e-mails', async () => {
    for (let i = 0; i < t.config.sendCodeLimitPerEmail; i++) expect((await sendCode(t, 'ann@example.com')).statusCode).toBe(200);
    const limited = await sendCode(t, 'ann@example.com');
    expect(limited.statusCode).toBe(429);
    expect(errorCode(limited)).toBe('rate_limited');
    expect(t.mailer.sent.get('ann@example.com')).toHaveLength(t.config.sendCodeLimitPerEmail);
    expect((await sendCode(t, 'bob@example.com')).statusCode).toBe(200);
  });

  test('limits codes per client address (429 rate_limited) without limiting other addresses', async () => {
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    for (let i = 0; i < t.config.sendCodeLimitPerIp; i++) {
      expect((await sendCode(t, `user${i}@example.com`, from('203.0.113.7'))).statusCode).toBe(200);
    }
    const limited = await sendCode(t, 'late@example.com', from('203.0.113.7'));
    expect(limited.statusCode).toBe(429);
    expect(errorCode(limited)).toBe('rate_limited');
    expect(t.mailer.sent.has('late@example.com')).toBe(false);
    expect((await sendCode(t, 'late@example.com', from('198.51.100.1'))).statusCode).toBe(200);
  });

  test('without TRUST_PROXY a forged X-Forwarded-For does not dodge the per-address limit', async () => {
    const direct = await createTestApp({ sendCodeLimitPerIp: 2, trustProxy: false });
    try {
      const forged = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i}` });
      expect((await sendCode(direct, 'u0@example.com', forged(1))).statusCode).toBe(200);
      expect((await sendCode(direct, 'u1@example.com', forged(2))).statusCode).toBe(200);
      const limited = await sendCode(direct, 'u2@example.com', forged(3));
      expect([limited.statusCode, errorCode(limited)]).toEqual([429, 'rate_limited']);
    } finally {
      await direct.close();
    }
  });

  test('parallel requests cannot get past the limits', async () => {
    const sameEmail = await Promise.all(Array.from({ length: 12 }, () => sendCode(t, 'ann@example.com')));
    expect(sameEmail.filter((r) => r.statusCode === 200)).toHaveLength(t.config.sendCodeLimitPerEmail);
    expect(sameEmail.filter((r) => r.statusCode === 429)).toHaveLength(12 - t.config.sendCodeLimitPerEmail);
    expect(t.mailer.sent.get('ann@example.com')).toHaveLength(t.config.sendCodeLimitPerEmail);
    // Only the newest code is alive.
    const alive = await t.app.db.selectFrom('login_codes').select('id').where('email', '=', 'ann@example.com').where('used_at', 'is', null).execute();
    expect(alive).toHaveLength(1);

    const headers = { 'x-forwarded-for': '203.0.113.9' };
    const sameIp = await Promise.all(Array.from({ length: 12 }, (_, i) => sendCode(t, `p${i}@example.com`, headers)));
    expect(sameIp.filter((r) => r.statusCode === 200)).toHaveLength(t.config.sendCodeLimitPerIp);
  });

  test('a new code replaces the previous one', async () => {
    await sendCode(t, 'ann@example.com');
    const first = t.mailer.lastCode('ann@example.com');
    await sendCode(t, 'ann@example.com');
    const second = t.mailer.lastCode('ann@example.com');
    if (first !== second) {
      const old = await login(t, 'ann@example.com', first);
      expect(old.statusCode).toBe(401);
    }
    expect((await login(t, 'ann@example.com', second)).statusCode).toBe(200);
  });
});

describe('login', () => {
  test('the right pin sets an http-only session cookie and returns the user', async () => {
    await sendCode(t, 'ann@example.com');
    const form = await formData({ email: 'ann@example.com', pin: t.mailer.lastCode('ann@example.com') });
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', ...form });
    expect(res.statusCode).toBe(200);
    const user = body<WireUser>(res).data;
    expect(user).toMatchObject({ email: 'ann@example.com', name: 'ann', anonymous: false, avatar_url: null, telegramId: null });
    expect(typeof user.id).toBe('string');

    const sid = res.cookies.find((c) => c.name === 'sid');
    expect(sid).toBeDefined();
    expect(sid?.httpOnly).toBe(true);
    expect(sid?.path).toBe('/');
    expect(sid?.sameSite).toBe('Lax');
    expect(sid?.secure).toBeFalsy();
    expect(sid?.value.length).toBeGreaterThanOrEqual(32);

    const current = await api(t, sessionCookie(res), 'GET', '/api/user/current');
    expect(current.statusCode).toBe(200);
    expect(body<WireUser>(current).data).toEqual(user);
  });

  test('the first sign-in creates a private workspace where the user is admin; later ones reuse the user', async () => {
    const cookie = await signIn(t, 'ann@example.com');
    const res = await api(t, cookie, 'GET', '/api/v3/spaces/workspace');
    expect(res.statusCode).toBe(200);
    const workspaces = body<WireWorkspace[]>(res);
    expect(workspaces.data).toHaveLength(1);
    expect(workspaces.data[0]).toMatchObject({ role: 'admin', private: true, name: 'ann' });
    expect(workspaces.meta).toMatchObject({ count: 1, hasMoreNext: false });

    const me = body<WireUser>(await api(t, cookie, 'GET', '/api/user/current')).data;
    const again = await signIn(t, 'ann@example.com');
    expect(again).not.toBe(cookie);
    expect(body<WireUser>(await api(t, again, 'GET', '/api/user/current')).data.id).toBe(me.id);
    const after = body<WireWorkspace[]>(await api(t, again, 'GET', '/api/v3/spaces/workspace')).data;
    expect(after.map((w) => w.id)).toEqual([workspaces.data[0].id]);
  });

  test('a code works only once', async () => {
    await sendCode(t, 'ann@example.com');
    const pin = t.mailer.lastCode('ann@example.com');
    expect((await login(t, 'ann@example.com', pin)).statusCode).toBe(200);
    const reuse = await login(t, 'ann@example.com', pin);
    expect(reuse.statusCode).toBe(401);
    expect(errorCode(reuse)).toBe('auth.code_expired');
    expect(reuse.cookies.find((c) => c.name === 'sid')).toBeUndefined();
  });

  test('a code is bound to its e-mail', async () => {
    await sendCode(t, 'ann@example.com');
    await sendCode(t, 'bob@example.com');
    const res = await login(t, 'bob@example.com', t.mailer.lastCode('ann@example.com'));
    if (t.mailer.lastCode('ann@example.com') !== t.mailer.lastCode('bob@example.com')) {
      expect(res.statusCode).toBe(401);
      expect(errorCode(res)).toBe('auth.invalid_pin');
    }
  });

  test('without a code sent → 401 auth.code_expired', async () => {
    const res = await login(t, 'nobody@example.com', '123456');
    expect(res.statusCode).toBe(401);
    expect(errorCode(res)).toBe('auth.code_expired');
  });

  test('a malformed pin → 422 validation_failed', async () => {
    await sendCode(t, 'ann@example.com');
    for (const pin of ['12345', '1234567', 'abcdef', '']) {
      const res = await login(t, 'ann@example.com', pin);
      expect(res.statusCode).toBe(422);
      expect(errorCode(res)).toBe('validation_failed');
    }
    // Malformed pins are not counted as guesses.
    expect((await login(t, 'ann@example.com', t.mailer.lastCode('ann@example.com'))).statusCode).toBe(200);
  });

  test(`wrong pins → 401 auth.invalid_pin, then after ${LOGIN_CODE_MAX_ATTEMPTS} → 429 and the code is dead`, async () => {
    await sendCode(t, 'ann@example.com');
    const pin = t.mailer.lastCode('ann@example.com');
    for (let i = 1; i < LOGIN_CODE_MAX_ATTEMPTS; i++) {
      const res = await login(t, 'ann@example.com', wrongPin(pin));
      expect(res.statusCode).toBe(401);
      expect(errorCode(res)).toBe('auth.invalid_pin');
      expect(body(res).errors[0].details).toEqual({ attemptsLeft: LOGIN_CODE_MAX_ATTEMPTS - i });
    }
    const last = await login(t, 'ann@example.com', wrongPin(pin));
    expect(last.statusCode).toBe(429);
    expect(errorCode(last)).toBe('auth.too_many_attempts');

    const right = await login(t, 'ann@example.com', pin);
    expect(right.statusCode).toBe(429);
    expect(errorCode(right)).toBe('auth.too_many_attempts');
    expect(right.cookies.find((c) => c.name === 'sid')).toBeUndefined();

    // A new code works again.
    await sendCode(t, 'ann@example.com');
    expect((await login(t, 'ann@example.com', t.mailer.lastCode('ann@example.com'))).statusCode).toBe(200);
  });

  test('the right pin after a few wrong ones still works', async () => {
    await sendCode(t, 'ann@example.com');
    const pin = t.mailer.lastCode('ann@example.com');
    for (let i = 1; i < LOGIN_CODE_MAX_ATTEMPTS; i++) await login(t, 'ann@example.com', wrongPin(pin));
    expect((await login(t, 'ann@example.com', pin)).statusCode).toBe(200);
  });

  test('parallel guesses cannot check more pins than the attempt limit allows', async () => {
    await sendCode(t, 'ann@example.com');
    const pin = t.mailer.lastCode('ann@example.com');
    const guesses = Array.from({ length: 30 }, () => wrongPin(pin));
    const responses = await Promise.all([...guesses, pin].map((p) => login(t, 'ann@example.com', p)));
    const right = responses[responses.length - 1];
    // Thirty wrong guesses were sent before the right one: it must not be checked any more.
    expect(right.statusCode).toBe(429);
    expect(responses.filter((r) => r.statusCode === 401)).toHaveLength(LOGIN_CODE_MAX_ATTEMPTS - 1);
    expect(responses.every((r) => r.statusCode === 401 || r.statusCode === 429)).toBe(true);
  });

  test('an expired code → 401 auth.code_expired', async () => {
    await sendCode(t, 'ann@example.com');
    const pin = t.mailer.lastCode('ann@example.com');
    await t.app.db
      .updateTable('login_codes')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('email', '=', 'ann@example.com')
      .execute();
    const res = await login(t, 'ann@example.com', pin);
    expect(res.statusCode).toBe(401);
    expect(errorCode(res)).toBe('auth.code_expired');
  });

  test('urlencoded login works too', async () => {
    await sendCode(t, 'ann@example.com');
    const form = urlEncoded({ email: 'ann@example.com', pin: t.mailer.lastCode('ann@example.com') });
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', ...form });
    expect(res.statusCode).toBe(200);
    expect(sessionCookie(res)).toMatch(/^sid=./);
  });

  test('the cookie is Secure when the public URL is https', async () => {
    const secure = await createTestApp({ publicUrl: 'https://docs.example.com' });
    try {
      await sendCode(secure, 'ann@example.com');
      const res = await login(secure, 'ann@example.com', secure.mailer.lastCode('ann@example.com'));
      expect(res.cookies.find((c) => c.name === 'sid')?.secure).toBe(true);
    } finally {
      await secure.close();
    }
  });
});

describe('session', () => {
  test('GET /api/user/current without a cookie → 401 unauthorized', async () => {
    const res = await api(t, undefined, 'GET', '/api/user/current');
    expect(res.statusCode).toBe(401);
    expect(errorCode(res)).toBe('unauthorized');
    expect(body(res).data).toBeNull();
  });

  test('an unknown session token → 401', async () => {
    const res = await api(t, 'sid=not-a-session', 'GET', '/api/user/current');
    expect(res.statusCode).toBe(401);
    expect(errorCode(res)).toBe('unauthorized');
  });

  test('an expired session → 401', async () => {
    const cookie = await signIn(t, 'ann@example.com');
    await t.app.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).execute();
    expect((await api(t, cookie, 'GET', '/api/user/current')).statusCode).toBe(401);
  });

  test('logout ends the session and clears the cookie; other sessions live on', async () => {
    const cookie = await signIn(t, 'ann@example.com');
    const other = await signIn(t, 'ann@example.com');
    expect((await api(t, cookie, 'GET', '/api/user/current')).statusCode).toBe(200);

    const out = await api(t, cookie, 'GET', '/api/auth/logout');
    expect(out.statusCode).toBe(200);
    expect(body(out).data).toEqual({ status: 'success' });
    const cleared = out.cookies.find((c) => c.name === 'sid');
    expect(cleared?.value).toBe('');
    expect(cleared?.expires?.getTime()).toBeLessThanOrEqual(Date.now());

    const after = await api(t, cookie, 'GET', '/api/user/current');
    expect(after.statusCode).toBe(401);
    expect(errorCode(after)).toBe('unauthorized');
    expect((await api(t, other, 'GET', '/api/user/current')).statusCode).toBe(200);
  });

  test('logout without a session still answers success', async () => {
    const res = await api(t, undefined, 'GET', '/api/auth/logout');
    expect(res.statusCode).toBe(200);
  });
});
