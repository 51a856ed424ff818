import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { LOGIN_CODE_MAX_ATTEMPTS } from '../../schema/constants';
import type { AccessTokenAnswer, WireUser } from '../../schema/user';
import type { WireWorkspace } from '../../schema/workspace';
import { api, body, createTestApp, errorCode, formData, login, sendCode, sessionCookie, signIn, urlEncoded, type TestApp } from '../../test/helpers/testApp';
import { startOAuthProvider, type NextTokenResponse, type OAuthProvider } from '../../test/helpers/oauthProvider';
import { freePort } from '../../test/helpers/serverProcess';
import { hashSecret } from '../auth/tokens';

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

  test('a team of 100 behind one address signs in on its first day (the default per-address ceiling)', async () => {
    const office = await createTestApp();
    try {
      const from = { 'x-forwarded-for': '203.0.113.77' };
      for (let i = 0; i < 100; i++) {
        const person = `colleague${i}@example.com`;
        expect((await sendCode(office, person, from)).statusCode).toBe(200);
        const form = urlEncoded({ email: person, pin: office.mailer.lastCode(person) });
        const res = await office.app.inject({ method: 'POST', url: '/api/auth/login', payload: form.payload, headers: { ...form.headers, ...from } });
        expect(res.statusCode).toBe(200);
      }
    } finally {
      await office.close();
    }
  });

  test('one address cannot take all of an e-mail’s codes: SEND_CODE_LIMIT_PER_IP_EMAIL per (address, e-mail), then per e-mail from anywhere', async () => {
    const limited = await createTestApp({ sendCodeLimitPerEmail: 4, sendCodeLimitPerIpEmail: 2 });
    try {
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      for (let i = 0; i < 2; i++) expect((await sendCode(limited, 'eve@example.com', from('203.0.113.80'))).statusCode).toBe(200);
      const third = await sendCode(limited, 'eve@example.com', from('203.0.113.80'));
      expect([third.statusCode, errorCode(third)]).toEqual([429, 'rate_limited']);
      // The address goes on for other e-mails; the e-mail from another address…
      expect((await sendCode(limited, 'other@example.com', from('203.0.113.80'))).statusCode).toBe(200);
      expect((await sendCode(limited, 'eve@example.com', from('198.51.100.80'))).statusCode).toBe(200);
      expect((await sendCode(limited, 'eve@example.com', from('198.51.100.81'))).statusCode).toBe(200);
      // …until the e-mail's own ceiling, whatever the address.
      const fifth = await sendCode(limited, 'eve@example.com', from('198.51.100.82'));
      expect([fifth.statusCode, errorCode(fifth)]).toEqual([429, 'rate_limited']);
      expect(limited.mailer.sent.get('eve@example.com')).toHaveLength(4);
    } finally {
      await limited.close();
    }
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

  test('the e-mail is shown as the person typed it when signing in; matched in any case (one account, one code)', async () => {
    await sendCode(t, 'Ivan.Petrov@Example.RU');
    const code = t.mailer.lastCode('ivan.petrov@example.ru');
    const form = await formData({ email: ' Ivan.Petrov@Example.RU ', pin: code });
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', ...form });
    expect(res.statusCode).toBe(200);
    const user = body<WireUser>(res).data;
    expect(user.email).toBe('Ivan.Petrov@Example.RU');
    const cookie = sessionCookie(res);
    expect(body<WireUser>(await api(t, cookie, 'GET', '/api/user/current')).data.email).toBe('Ivan.Petrov@Example.RU');
    // Others see it so too (the workspace's members).
    const [workspace] = body<WireWorkspace[]>(await api(t, cookie, 'GET', '/api/v3/spaces/workspace')).data;
    const members = body<Array<{ user: WireUser }>>(await api(t, cookie, 'GET', `/api/v3/spaces/workspace/${workspace.id}/members`)).data;
    expect(members.map((m) => m.user.email)).toEqual(['Ivan.Petrov@Example.RU']);
    // Signing in again in lower case: the same account, now shown as typed this time.
    const again = await signIn(t, 'ivan.petrov@example.ru');
    const me = body<WireUser>(await api(t, again, 'GET', '/api/user/current')).data;
    expect([me.id, me.email]).toEqual([user.id, 'ivan.petrov@example.ru']);
    expect(
      Number(
        (
          await t.app.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(1);
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
    await t.app.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
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

/** Signs in through accesstoken/get and answers the bearer token. */
async function getAccessToken(app: TestApp, email: string): Promise<{ res: LightMyRequestResponse; token: string }> {
  await sendCode(app, email);
  const form = urlEncoded({ email, pin: app.mailer.lastCode(email) });
  const res = await app.app.inject({ method: 'POST', url: '/api/auth/accesstoken/get', ...form });
  return { res, token: res.statusCode === 200 ? body<AccessTokenAnswer>(res).data.access_token : '' };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('access tokens', () => {
  test('accesstoken/get answers a bearer token (no cookie) that signs API calls in', async () => {
    const { res, token } = await getAccessToken(t, 'ann@example.com');
    expect(res.statusCode).toBe(200);
    const answer = body<AccessTokenAnswer>(res).data;
    expect(answer).toMatchObject({ token_type: 'Bearer', user: { email: 'ann@example.com', anonymous: false } });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    // Stored as a hash only.
    const row = await t.app.db.selectFrom('access_tokens').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ id: hashSecret(token), user_id: answer.user.id, last_used_at: null });

    const current = await api(t, undefined, 'GET', '/api/user/current', undefined, bearer(token));
    expect(current.statusCode).toBe(200);
    expect(body<WireUser>(current).data.id).toBe(answer.user.id);
    const workspaces = await api(t, undefined, 'GET', '/api/v3/spaces/workspace', undefined, { authorization: `bearer   ${token}` });
    expect(workspaces.statusCode).toBe(200);
  });

  test('it needs the right code, like login', async () => {
    await sendCode(t, 'ann@example.com');
    const pin = t.mailer.lastCode('ann@example.com');
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/accesstoken/get', ...urlEncoded({ email: 'ann@example.com', pin: wrongPin(pin) }) });
    expect([wrong.statusCode, errorCode(wrong)]).toEqual([401, 'auth.invalid_pin']);
    const none = await t.app.inject({ method: 'POST', url: '/api/auth/accesstoken/get', ...urlEncoded({ email: 'bob@example.com', pin: '123456' }) });
    expect([none.statusCode, errorCode(none)]).toEqual([401, 'auth.code_expired']);
    const malformed = await t.app.inject({ method: 'POST', url: '/api/auth/accesstoken/get', ...urlEncoded({ email: 'ann@example.com', pin: '12' }) });
    expect(malformed.statusCode).toBe(422);
    expect(await t.app.db.selectFrom('access_tokens').selectAll().execute()).toEqual([]);
    // The same code then works for a login (a wrong try only counts an attempt).
    expect((await login(t, 'ann@example.com', pin)).statusCode).toBe(200);
  });

  test('last_used_at is written on use, then at most once a minute', async () => {
    const { token } = await getAccessToken(t, 'ann@example.com');
    const lastUsed = async () => (await t.app.db.selectFrom('access_tokens').select('last_used_at').executeTakeFirstOrThrow()).last_used_at;
    await api(t, undefined, 'GET', '/api/user/current', undefined, bearer(token));
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await api(t, undefined, 'GET', '/api/user/current', undefined, bearer(token));
    expect(await lastUsed()).toBe(first);
    const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
    await t.app.db.updateTable('access_tokens').set({ last_used_at: twoMinutesAgo }).execute();
    await api(t, undefined, 'GET', '/api/user/current', undefined, bearer(token));
    expect(((await lastUsed()) as string) > twoMinutesAgo).toBe(true);
  });

  test('accesstoken/remove revokes the token of that request only', async () => {
    const one = await getAccessToken(t, 'ann@example.com');
    const two = await getAccessToken(t, 'ann@example.com');
    const res = await api(t, undefined, 'POST', '/api/auth/accesstoken/remove', undefined, bearer(one.token));
    expect([res.statusCode, body(res).data]).toEqual([200, { status: 'success' }]);
    const after = await api(t, undefined, 'GET', '/api/user/current', undefined, bearer(one.token));
    expect([after.statusCode, errorCode(after)]).toEqual([401, 'unauthorized']);
    expect((await api(t, undefined, 'GET', '/api/user/current', undefined, bearer(two.token))).statusCode).toBe(200);
    const again = await api(t, undefined, 'POST', '/api/auth/accesstoken/remove', undefined, bearer(one.token));
    expect(again.statusCode).toBe(401);
  });

  test('accesstoken/remove needs a bearer token: with only a cookie, or nothing, it is 401 and removes nothing', async () => {
    const { token } = await getAccessToken(t, 'ann@example.com');
    const cookie = await signIn(t, 'ann@example.com');
    const withCookie = await api(t, cookie, 'POST', '/api/auth/accesstoken/remove');
    expect([withCookie.statusCode, errorCode(withCookie)]).toEqual([401, 'unauthorized']);
    expect((await api(t, undefined, 'POST', '/api/auth/accesstoken/remove')).statusCode).toBe(401);
    expect((await api(t, undefined, 'GET', '/api/user/current', undefined, bearer(token))).statusCode).toBe(200);
  });

  test('a bad bearer token makes the request anonymous even with a good cookie; other schemes leave the cookie alone', async () => {
    const cookie = await signIn(t, 'ann@example.com');
    for (const authorization of ['Bearer nope', 'Bearer', 'Bearer a b']) {
      expect((await api(t, cookie, 'GET', '/api/user/current', undefined, { authorization })).statusCode).toBe(401);
    }
    const basic = await api(t, cookie, 'GET', '/api/user/current', undefined, { authorization: 'Basic YWRtaW46cGFzcw==' });
    expect(basic.statusCode).toBe(200);
  });

  test('a deleted user’s token stops working', async () => {
    const { token, res } = await getAccessToken(t, 'ann@example.com');
    await t.app.db.deleteFrom('users').where('id', '=', body<AccessTokenAnswer>(res).data.user.id).execute();
    expect((await api(t, undefined, 'GET', '/api/user/current', undefined, bearer(token))).statusCode).toBe(401);
  });
});

describe('register', () => {
  const register = (cookie: string | undefined, email: string, headers: Record<string, string> = {}) => {
    const form = urlEncoded({ email });
    return t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: form.payload,
      headers: { ...form.headers, ...headers, ...(cookie ? { cookie } : {}) },
    });
  };

  test('answers the user id for an e-mail: a new account (with its workspace), then the same id', async () => {
    const cookie = await signIn(t, 'ann@example.com');
    const res = await register(cookie, '  New.Person@Example.com ');
    expect(res.statusCode).toBe(200);
    const { user_id: userId } = body<{ user_id: string }>(res).data;
    const row = await t.app.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(row.email).toBe('new.person@example.com');
    expect(await t.app.db.selectFrom('workspace_members').select('role').where('user_id', '=', userId).execute()).toEqual([{ role: 'admin' }]);
    expect(body<{ user_id: string }>(await register(cookie, 'new.person@example.com')).data.user_id).toBe(userId);
    // An existing user: their id.
    const me = body<WireUser>(await api(t, cookie, 'GET', '/api/user/current')).data;
    expect(body<{ user_id: string }>(await register(cookie, 'ann@example.com')).data.user_id).toBe(me.id);
    // The new person signs in to the same account.
    const theirs = await signIn(t, 'new.person@example.com');
    expect(body<WireUser>(await api(t, theirs, 'GET', '/api/user/current')).data.id).toBe(userId);
  });

  test('JSON bodies work too; a bad e-mail is 400 auth.invalid_email (the client reads it as "no user id")', async () => {
    const cookie = await signIn(t, 'ann@example.com');
    expect((await api(t, cookie, 'POST', '/api/auth/register', { email: 'json@example.com' })).statusCode).toBe(200);
    const users = await t.app.db.selectFrom('users').select('id').execute();
    for (const email of ['not-an-email', 'a@b', 'two words@example.com', '']) {
      const res = await register(cookie, email);
      expect([email, res.statusCode, errorCode(res)]).toEqual([email, 400, 'auth.invalid_email']);
    }
    expect(await t.app.db.selectFrom('users').select('id').execute()).toHaveLength(users.length);
  });

  test('anonymous callers are refused (401) and nothing is created', async () => {
    const res = await register(undefined, 'someone@example.com');
    expect([res.statusCode, errorCode(res)]).toEqual([401, 'unauthorized']);
    expect(await t.app.db.selectFrom('users').select('id').where('email', '=', 'someone@example.com').executeTakeFirst()).toBeUndefined();
  });

  test('limited per client address like send_code (429), other addresses go on', async () => {
    const cookie = await signIn(t, 'ann@example.com');
    const from = { 'x-forwarded-for': '203.0.113.50' };
    for (let i = 0; i < t.config.sendCodeLimitPerIp; i++) expect((await register(cookie, `p${i}@example.com`, from)).statusCode).toBe(200);
    const limited = await register(cookie, 'late@example.com', from);
    expect([limited.statusCode, errorCode(limited)]).toEqual([429, 'rate_limited']);
    expect(await t.app.db.selectFrom('users').select('id').where('email', '=', 'late@example.com').executeTakeFirst()).toBeUndefined();
    expect((await register(cookie, 'late@example.com', { 'x-forwarded-for': '203.0.113.51' })).statusCode).toBe(200);
  });

  test('parallel registrations of one e-mail make one user', async () => {
    const cookie = await signIn(t, 'ann@example.com');
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => register(cookie, 'race@example.com', { 'x-forwarded-for': `192.0.2.${i}` })));
    const ids = new Set(results.map((r) => body<{ user_id: string }>(r).data.user_id));
    expect(ids.size).toBe(1);
    expect(await t.app.db.selectFrom('users').select('id').where('email', '=', 'race@example.com').execute()).toHaveLength(1);
  });
});

describe('OAuth / OpenID Connect sign-in', () => {
  let provider: OAuthProvider;
  let o: TestApp;
  const CLIENT_ID = 'workspace-app';

  beforeAll(async () => {
    provider = await startOAuthProvider();
  });
  afterAll(async () => {
    await provider.stop();
  });
  beforeEach(async () => {
    o = await createTestApp({
      publicUrl: 'http://docs.test',
      oauth: { issuerUrl: provider.issuerUrl, clientId: CLIENT_ID, clientSecret: 'client-secret', serviceName: 'mock', scopes: 'openid email profile' },
    });
    await provider.setProfile({ email: 'Olga@Example.com', email_verified: true, name: 'Ольга Петрова' });
  });
  afterEach(async () => {
    await o.close();
  });

  const startOAuth = (app: TestApp, service = 'mock') => app.app.inject({ method: 'POST', url: '/api/auth/oauth', ...urlEncoded({ service }) });

  /** What a browser does: start, follow the provider's authorize URL, come back with code and state. */
  async function authorize(app: TestApp = o): Promise<{ state: string; code: string; cookie: string; url: URL }> {
    const started = await startOAuth(app);
    expect(started.statusCode).toBe(200);
    const url = new URL(body<{ url: string }>(started).data.url);
    const stateCookie = started.cookies.find((c) => c.name === 'oauth_state');
    expect(stateCookie).toMatchObject({ httpOnly: true, path: '/api/auth/oauth', sameSite: 'Lax' });
    const atProvider = await fetch(url, { redirect: 'manual' });
    expect(atProvider.status).toBe(302);
    const back = new URL(atProvider.headers.get('location') as string);
    expect(`${back.origin}${back.pathname}`).toBe('http://docs.test/oauth/callback');
    return { state: back.searchParams.get('state') as string, code: back.searchParams.get('code') as string, cookie: `oauth_state=${stateCookie?.value}`, url };
  }

  const finish = (cookie: string | undefined, state: string, code: string, app: TestApp = o) =>
    app.app.inject({
      method: 'POST',
      url: '/api/auth/oauth/code',
      ...urlEncoded({ state, code }),
      ...(cookie ? { cookies: Object.fromEntries([cookie.split('=') as [string, string]]) } : {}),
    });

  const userCount = async (app: TestApp = o) => (await app.app.db.selectFrom('users').select('id').execute()).length;

  test('GET /api/auth/oauth tells anyone the service to ask for and the name for the button', async () => {
    const res = await o.app.inject({ method: 'GET', url: '/api/auth/oauth' });
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toEqual({ enabled: true, service: 'mock', name: null });
    const named = await createTestApp({
      oauth: { issuerUrl: provider.issuerUrl, clientId: CLIENT_ID, clientSecret: 's', serviceName: 'kc', scopes: 'openid email', displayName: 'Keycloak' },
    });
    try {
      expect(body(await named.app.inject({ method: 'GET', url: '/api/auth/oauth' })).data).toEqual({ enabled: true, service: 'kc', name: 'Keycloak' });
    } finally {
      await named.close();
    }
  });

  test('the authorize URL carries code flow, PKCE S256, state, nonce and our callback', async () => {
    const started = await startOAuth(o);
    const url = new URL(body<{ url: string }>(started).data.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuerUrl}/authorize`);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: 'http://docs.test/oauth/callback',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(params.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await o.app.db.selectFrom('oauth_states').selectAll().executeTakeFirstOrThrow();
    // The state is stored hashed; the PKCE verifier matches the challenge.
    expect(row.id).toBe(hashSecret(params.state));
    expect(crypto.createHash('sha256').update(row.code_verifier).digest('base64url')).toBe(params.code_challenge);
    expect(row.nonce).toBe(params.nonce);
  });

  test('end to end: a new user is created from the verified e-mail, gets a session cookie', async () => {
    const { state, code, cookie } = await authorize();
    const res = await finish(cookie, state, code);
    expect(res.statusCode).toBe(200);
    const user = body<WireUser>(res).data;
    expect(user).toMatchObject({ email: 'olga@example.com', name: 'Ольга Петрова', anonymous: false });
    const current = await api(o, sessionCookie(res), 'GET', '/api/user/current');
    expect(body<WireUser>(current).data.id).toBe(user.id);
    const workspaces = body<WireWorkspace[]>(await api(o, sessionCookie(res), 'GET', '/api/v3/spaces/workspace')).data;
    expect(workspaces).toHaveLength(1);
    const cleared = res.cookies.find((c) => c.name === 'oauth_state');
    expect(cleared?.value).toBe('');
    expect(await o.app.db.selectFrom('oauth_states').selectAll().execute()).toEqual([]);
  });

  test('an existing user (same e-mail) signs in to their account; the name is not overwritten', async () => {
    const cookie = await signIn(o, 'olga@example.com');
    const me = body<WireUser>(await api(o, cookie, 'GET', '/api/user/current')).data;
    const flow = await authorize();
    const res = await finish(flow.cookie, flow.state, flow.code);
    expect(body<WireUser>(res).data).toMatchObject({ id: me.id, name: 'olga' });
  });

  test('a replayed state is refused (401 auth.oauth_state_invalid), even with a fresh code', async () => {
    const flow = await authorize();
    expect((await finish(flow.cookie, flow.state, flow.code)).statusCode).toBe(200);
    const users = await userCount();
    const replay = await finish(flow.cookie, flow.state, flow.code);
    expect([replay.statusCode, errorCode(replay)]).toEqual([401, 'auth.oauth_state_invalid']);
    const fresh = await fetch(flow.url, { redirect: 'manual' });
    const freshCode = new URL(fresh.headers.get('location') as string).searchParams.get('code') as string;
    const replayFresh = await finish(flow.cookie, flow.state, freshCode);
    expect([replayFresh.statusCode, errorCode(replayFresh)]).toEqual([401, 'auth.oauth_state_invalid']);
    expect(replay.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    expect(await userCount()).toBe(users);
  });

  test('a tampered state is refused: forged in body and cookie alike, or differing from the cookie', async () => {
    const flow = await authorize();
    const forged = `${flow.state.slice(0, -2)}xx`;
    const both = await finish(`oauth_state=${forged}`, forged, flow.code);
    expect([both.statusCode, errorCode(both)]).toEqual([401, 'auth.oauth_state_invalid']);
    const mismatch = await finish(flow.cookie, forged, flow.code);
    expect([mismatch.statusCode, errorCode(mismatch)]).toEqual([401, 'auth.oauth_state_invalid']);
    // A state started in another browser (login CSRF): no cookie.
    const noCookie = await finish(undefined, flow.state, flow.code);
    expect([noCookie.statusCode, errorCode(noCookie)]).toEqual([401, 'auth.oauth_state_invalid']);
    expect(await userCount()).toBe(0);
    // None of these used the real sign-in up.
    expect((await finish(flow.cookie, flow.state, flow.code)).statusCode).toBe(200);
  });

  test('an expired state is refused', async () => {
    const flow = await authorize();
    await o.app.db
      .updateTable('oauth_states')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const res = await finish(flow.cookie, flow.state, flow.code);
    expect([res.statusCode, errorCode(res)]).toEqual([401, 'auth.oauth_state_invalid']);
  });

  test.each<[string, NextTokenResponse, string, RegExp]>([
    ['a wrong nonce', { claims: { nonce: 'someone-elses-nonce' } }, 'auth.oauth_failed', /nonce/],
    ['no nonce', { claims: { nonce: null } }, 'auth.oauth_failed', /nonce/],
    ['a tampered id_token (signature)', { tamperIdToken: { email: 'admin@example.com' } }, 'auth.oauth_failed', /signature/],
    ['another audience', { claims: { aud: 'another-client' } }, 'auth.oauth_failed', /another client/],
    ['another issuer', { claims: { iss: 'https://evil.example' } }, 'auth.oauth_failed', /issued by someone else/],
    ['an expired id_token', { claims: { exp: Math.floor(Date.now() / 1000) - 3600 } }, 'auth.oauth_failed', /expired/],
    ['an unverified e-mail', { claims: { email_verified: false } }, 'auth.oauth_email_unverified', /not verified/],
    ['a code the provider refuses', { tokenError: true }, 'auth.oauth_failed', /did not accept/],
    [
      'no e-mail in the id_token, user info about another subject',
      { claims: { email: null }, userinfo: { claims: { sub: 'someone-else' } } },
      'auth.oauth_failed',
      /another subject/,
    ],
    ['no e-mail in the id_token, user info refused', { claims: { email: null }, userinfo: { status: 401 } }, 'auth.oauth_failed', /refused the user info/],
  ])('%s → 401, no user, no session', async (_name, next, code, message) => {
    const flow = await authorize();
    await provider.setNext(next);
    const res = await finish(flow.cookie, flow.state, flow.code);
    expect([res.statusCode, errorCode(res)]).toEqual([401, code]);
    expect(body(res).errors[0].message).toMatch(message);
    expect(res.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    expect(await userCount()).toBe(0);
  });

  test('no e-mail in the id_token: it comes from the userinfo endpoint, for the same subject', async () => {
    const flow = await authorize();
    await provider.setNext({ claims: { email: null, email_verified: null, name: null } });
    const res = await finish(flow.cookie, flow.state, flow.code);
    expect(res.statusCode).toBe(200);
    expect(body<WireUser>(res).data).toMatchObject({ email: 'olga@example.com', name: 'Ольга Петрова' });
  });

  test('the issuer as configured may end with a slash the provider does not write; another issuer → 502', async () => {
    // A provider whose issuer has a path (as Keycloak's realms): its metadata names it without the final slash.
    const metadata = (await (await fetch(`${provider.issuerUrl}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    let issuer = '';
    const discovery = http.createServer((req, res) => {
      if (req.url !== '/realms/x/.well-known/openid-configuration') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...metadata, issuer }));
    });
    await new Promise<void>((resolve) => discovery.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(discovery.address() as AddressInfo).port}/realms/x`;
    const app = await createTestApp({ oauth: { issuerUrl: `${base}/`, clientId: CLIENT_ID, clientSecret: 's', serviceName: 'mock', scopes: 'openid email' } });
    try {
      issuer = base;
      const started = await startOAuth(app);
      expect(started.statusCode).toBe(200);
      expect(body<{ url: string }>(started).data.url).toMatch(new RegExp(`^${provider.issuerUrl}/authorize\\?`));
      const other = await createTestApp({
        oauth: { issuerUrl: `${base}/`, clientId: CLIENT_ID, clientSecret: 's', serviceName: 'mock', scopes: 'openid email' },
      });
      try {
        issuer = 'https://evil.example/realms/x';
        const res = await startOAuth(other);
        expect([res.statusCode, errorCode(res)]).toEqual([502, 'auth.oauth_provider_unavailable']);
        expect(body(res).errors[0].message).toMatch(/different issuer/);
      } finally {
        await other.close();
      }
    } finally {
      await app.close();
      discovery.closeAllConnections();
      await new Promise((resolve) => discovery.close(resolve));
    }
  });

  test('OAuth not configured → 404 auth.oauth_disabled; an unknown service → 404 auth.oauth_unknown_service', async () => {
    const unknown = await startOAuth(o, 'github');
    expect([unknown.statusCode, errorCode(unknown)]).toEqual([404, 'auth.oauth_unknown_service']);
    const plain = await createTestApp();
    try {
      // The sign-in page asks first, and shows no provider button.
      const asked = await plain.app.inject({ method: 'GET', url: '/api/auth/oauth' });
      expect(body(asked).data).toEqual({ enabled: false, service: null, name: null });
      const start = await startOAuth(plain);
      expect([start.statusCode, errorCode(start)]).toEqual([404, 'auth.oauth_disabled']);
      const finishOff = await finish('oauth_state=x', 'x', 'y', plain);
      expect([finishOff.statusCode, errorCode(finishOff)]).toEqual([404, 'auth.oauth_disabled']);
    } finally {
      await plain.close();
    }
  });

  test('a provider that cannot be reached → 502 auth.oauth_provider_unavailable', async () => {
    const port = await freePort();
    const down = await createTestApp({
      oauth: { issuerUrl: `http://127.0.0.1:${port}`, clientId: 'x', clientSecret: 'y', serviceName: 'mock', scopes: 'openid email' },
    });
    try {
      const res = await startOAuth(down);
      expect([res.statusCode, errorCode(res)]).toEqual([502, 'auth.oauth_provider_unavailable']);
    } finally {
      await down.close();
    }
  });

  test('bad bodies → 422', async () => {
    for (const payload of [{}, { service: '' }]) {
      const res = await o.app.inject({ method: 'POST', url: '/api/auth/oauth', payload });
      expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    }
    const res = await o.app.inject({ method: 'POST', url: '/api/auth/oauth/code', payload: { state: 'x' } });
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
  });
});
