import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { VERSION_LABEL } from '../../schema/constants';
import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';

describe('without a web build', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  test('GET /version → the build label as text/plain', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/version' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('v2510.17');
    expect(VERSION_LABEL).toBe('v2510.17');
  });

  test('an unknown /api path → 404 JSON envelope with not_found, for any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/api/nope' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(body(res)).toEqual({ data: null, included: [], meta: {}, errors: [{ code: 'not_found', message: expect.any(String) }] });
    }
    const nested = await t.app.inject({ method: 'GET', url: '/api/v3/spaces/nothing/here?x=1' });
    expect([nested.statusCode, errorCode(nested)]).toEqual([404, 'not_found']);
  });

  test('a path the web app does not route → 302 to /', async () => {
    for (const url of ['/a/b/c', '/a/b/c?x=1', '/some/page/deep', '/login/extra']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([url, res.statusCode, res.headers.location]).toEqual([url, 302, '/']);
    }
  });

  test('a non-GET on a non-API path → 404 JSON', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/a/b/c' });
    expect([res.statusCode, errorCode(res)]).toEqual([404, 'not_found']);
  });

  test('no service worker without a build (404)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sw.js' });
    expect(res.statusCode).toBe(404);
  });

  test('app routes say the web app is not built (503), never crash', async () => {
    for (const url of ['/', '/login', '/oauth/callback', '/0b7c1d2e-page-uid']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 503]);
      expect(res.body).toMatch(/npm run build/);
    }
  });
});

describe('with a web build', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>app</title><script type="module" src="/assets/index-abc123.js"></script>');
    fs.writeFileSync(path.join(webDir, 'index.html.br'), zlib.brotliCompressSync(fs.readFileSync(path.join(webDir, 'index.html'))));
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync('console.log(1)'));
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js.gz'), zlib.gzipSync('console.log(1)'));
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js.map'), '{"version":3}');
    fs.writeFileSync(path.join(webDir, 'assets', 'page-d4e5.css'), 'body{margin:0}');
    fs.writeFileSync(path.join(webDir, 'assets', 'common-f00.json'), '{}');
    fs.writeFileSync(path.join(webDir, 'assets', 'inter-cyrillic-400-normal-x1.woff2'), '');
    fs.writeFileSync(path.join(webDir, 'assets', 'inter-greek-400-normal-x2.woff2'), '');
    fs.writeFileSync(path.join(webDir, 'assets', 'katex-x3.js'), '');
    fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg/>');
    t = await createTestApp({ webDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  test("the app's own routes get index.html, not cached", async () => {
    for (const url of [
      '/',
      '/login',
      '/oauth/callback?code=1',
      '/0b7c1d2e-page-uid',
      '/0b7c1d2e-page-uid?commentId=3',
      '/public/0b7c1d2e-page-uid',
      '/clone/0b7c1d2e-page-uid',
      '/form/0b7c1d2e-database-id/0b7c1d2e-view-uid',
      '/new-workspace',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<title>app</title>');
    }
  });

  test('HTML answers carry the CSP, anti-framing, nosniff and Referrer-Policy: the app, a page, /login, a public page', async () => {
    for (const url of ['/', '/0b7c1d2e-page-uid', '/login', '/public/0b7c1d2e-page-uid']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
      // The build's precompressed copy (server/web/precompress.ts) gets them too.
      expect([url, res.statusCode, res.headers['content-type'], res.headers['content-encoding']]).toEqual([
        url,
        200,
        expect.stringMatching(/^text\/html/),
        'br',
      ]);
      const directives = Object.fromEntries(
        String(res.headers['content-security-policy'])
          .split(/;\s*/)
          .map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1).join(' ')]),
      );
      expect([url, directives]).toEqual([
        url,
        {
          'default-src': "'self'",
          'script-src': "'self'",
          'style-src': "'self' 'unsafe-inline'",
          'img-src': "'self' data: blob: https: http:",
          'font-src': "'self' data:",
          'media-src': "'self' blob:",
          'connect-src': "'self'",
          'frame-src': 'https: http:',
          'worker-src': "'self'",
          'manifest-src': "'self'",
          'object-src': "'none'",
          'base-uri': "'none'",
          'frame-ancestors': "'self'",
        },
      ]);
      expect([url, res.headers['x-frame-options'], res.headers['x-content-type-options'], res.headers['referrer-policy']]).toEqual([
        url,
        'SAMEORIGIN',
        'nosniff',
        'strict-origin-when-cross-origin',
      ]);
    }
  });

  test('other answers: nosniff and Referrer-Policy, no CSP (it is for documents)', async () => {
    for (const url of ['/assets/index-abc123.js', '/assets/index-abc123.js.map', '/favicon.svg', '/sw.js', '/version', '/api/nope', '/api/user/current']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([
        url,
        res.headers['x-content-type-options'],
        res.headers['referrer-policy'],
        res.headers['content-security-policy'],
        res.headers['x-frame-options'],
      ]).toEqual([url, 'nosniff', 'strict-origin-when-cross-origin', undefined, undefined]);
    }
  });

  test('/sw.js: the service worker with this build id and its app shell, never cached by HTTP', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sw.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['service-worker-allowed']).toBe('/');
    expect(res.body).toMatch(/const BUILD = "[0-9a-f]{16}";/);
    // The shell: what index.html loads, the translation files and the Latin/Cyrillic Inter fonts; not lazy chunks.
    expect(res.body).toContain('const PRECACHE = ["/assets/common-f00.json","/assets/index-abc123.js","/assets/inter-cyrillic-400-normal-x1.woff2"];');
    expect(res.body).not.toContain('__BUILD__');
  });

  test('hashed assets are cached for a year; other files are served', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.body).toBe('console.log(1)');
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).not.toMatch(/immutable/);
  });

  test("the start's assets come from memory: br, gzip or as they are by Accept-Encoding, with an etag (304 when it matches); source maps from the disk", async () => {
    const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
    const br = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect([br.statusCode, br.headers['content-encoding'], br.headers['content-type'], br.headers.vary]).toEqual([
      200,
      'br',
      'text/javascript; charset=utf-8',
      'accept-encoding',
    ]);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gzip = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe('console.log(1)');
    for (const accept of ['', 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await get('/assets/index-abc123.js', accept ? { 'accept-encoding': accept } : {});
      expect([accept, plain.headers['content-encoding'], plain.body]).toEqual([accept, undefined, 'console.log(1)']);
    }
    // A file without compressed copies is sent as it is, whatever is accepted.
    const css = await get('/assets/page-d4e5.css', { 'accept-encoding': 'br' });
    expect([css.statusCode, css.headers['content-encoding'], css.headers['content-type'], css.body]).toEqual([
      200,
      undefined,
      'text/css; charset=utf-8',
      'body{margin:0}',
    ]);
    const again = await get('/assets/index-abc123.js', { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect([again.statusCode, again.body]).toEqual([304, '']);
    const changed = await get('/assets/index-abc123.js', { 'accept-encoding': 'br', 'if-none-match': '"other"' });
    expect(changed.statusCode).toBe(200);
    const map = await get('/assets/index-abc123.js.map');
    expect([map.statusCode, map.body, map.headers['cache-control']]).toEqual([200, '{"version":3}', 'public, max-age=31536000, immutable']);
    const font = await get('/assets/inter-cyrillic-400-normal-x1.woff2');
    expect([font.statusCode, font.headers['content-type']]).toEqual([200, 'font/woff2']);
    // Read at start: served even once gone from the disk.
    fs.rmSync(path.join(webDir, 'assets', 'page-d4e5.css'));
    expect((await get('/assets/page-d4e5.css')).body).toBe('body{margin:0}');
  });

  test('a missing asset or a deep path → 302 to /, the API stays JSON', async () => {
    for (const url of ['/public/a/b', '/clone/a/b', '/form/a', '/form/a/b/c', '/trash/x', '/a/b']) {
      const deep = await t.app.inject({ method: 'GET', url });
      expect([url, deep.statusCode, deep.headers.location]).toEqual([url, 302, '/']);
    }
    const missing = await t.app.inject({ method: 'GET', url: '/assets/gone-123.js' });
    expect([missing.statusCode, missing.headers.location]).toEqual([302, '/']);
    const traversal = await t.app.inject({ method: 'GET', url: '/assets/..%2F..%2F..%2Fetc%2Fpasswd' });
    expect(traversal.body).not.toMatch(/root:/);
    const api = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect([api.statusCode, errorCode(api)]).toEqual([404, 'not_found']);
    expect((await t.app.inject({ method: 'GET', url: '/version' })).body).toBe('v2510.17');
  });
});

describe('signing in comes before the body check', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  test('an anonymous call with a bad body to a route that needs a user → 401, not 422', async () => {
    const calls = [
      { method: 'POST' as const, url: '/api/v3/spaces/block', payload: { nonsense: true } },
      { method: 'POST' as const, url: '/api/v3/spaces/block/some-id', payload: { version: 'x' } },
      { method: 'PATCH' as const, url: '/api/v3/spaces/element/some-id', payload: { unknown: 1 } },
      { method: 'POST' as const, url: '/api/v3/spaces/workspace', payload: { name: '' } },
    ];
    for (const call of calls) {
      const res = await t.app.inject(call);
      expect([call.url, res.statusCode, errorCode(res)]).toEqual([call.url, 401, 'unauthorized']);
    }
  });

  test('public routes still check their bodies for anonymous callers (422)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/send_code', payload: { email: 'not-an-email' } });
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
  });
});

describe('requests from other sites', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    cookie = await signIn(t, 'csrf@example.com');
  });
  afterAll(async () => {
    await t.close();
  });

  const pages = async () => (await t.app.db.selectFrom('pages').select('id').execute()).length;
  const create = (headers: Record<string, string>) => api(t, cookie, 'POST', '/api/v3/spaces/section/private', {}, headers);

  test('a cookie request that changes state from another site → 403 cross_site_request, nothing written', async () => {
    const before = await pages();
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of foreign) {
      const res = await create(headers);
      expect([JSON.stringify(headers), res.statusCode, errorCode(res)]).toEqual([JSON.stringify(headers), 403, 'cross_site_request']);
    }
    // Signing someone into the attacker's account from another site (login CSRF) is refused too.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: { email: 'csrf@example.com', pin: '000000' },
    });
    expect([login.statusCode, errorCode(login)]).toEqual([403, 'cross_site_request']);
    expect(await pages()).toBe(before);
  });

  test('our own pages, reads from anywhere, and non-browser clients pass', async () => {
    expect((await create({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(201);
    expect((await create({ origin: 'http://localhost:80', host: 'localhost:80' })).statusCode).toBe(201);
    expect((await create({})).statusCode).toBe(201);
    const read = await api(t, cookie, 'GET', '/api/user/current', undefined, { 'sec-fetch-site': 'cross-site' });
    expect(read.statusCode).toBe(200);
  });

  test('a percent-encoded API path is signed in like the plain one', async () => {
    const res = await api(t, cookie, 'GET', '/%61pi/user/current');
    expect(res.statusCode).toBe(200);
    expect(body<{ email: string }>(res).data.email).toBe('csrf@example.com');
  });
});
