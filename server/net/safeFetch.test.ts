import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPublicAddress } from '../webhooks/targets';
import { safeFetch, SafeFetchError, type SafeFetchOptions } from './safeFetch';

/*
 * The SSRF-guarded fetcher (issue 39 §2, bookmarks) against real local HTTP servers: "the web"
 * is one server the test lets the fetcher reach (127.0.0.1 on its own port); it redirects to
 * loopback (another port of 127.0.0.1: an internal service, which counts every request it gets),
 * to the cloud metadata address 169.254.169.254, to [::1], and to a name that resolves to a
 * private address — each refused before any connection is made.
 */

let web: http.Server;
let internal: http.Server;
let webPort: number;
let internalPort: number;
let internalHits = 0;
const cookiesSeen: (string | undefined)[] = [];

const listen = (server: http.Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

beforeAll(async () => {
  internal = http.createServer((_request, response) => {
    internalHits += 1;
    response.end('secret');
  });
  internalPort = await listen(internal);
  web = http.createServer((request, response) => {
    const redirect = (to: string) => {
      response.writeHead(302, { location: to });
      response.end();
    };
    cookiesSeen.push(request.headers.cookie);
    switch (request.url) {
      case '/ok':
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return response.end('<html><head><title>Привет</title></head></html>');
      case '/to-loopback':
        return redirect(`http://127.0.0.1:${internalPort}/secret`);
      case '/to-metadata':
        return redirect('http://169.254.169.254/latest/meta-data/');
      case '/to-ipv6-loopback':
        return redirect(`http://[::1]:${internalPort}/secret`);
      case '/to-internal-name':
        return redirect(`http://intranet.example:${internalPort}/secret`);
      case '/to-mapped':
        return redirect(`http://[::ffff:127.0.0.1]:${internalPort}/secret`);
      case '/to-file':
        return redirect('file:///etc/passwd');
      case '/relative':
        return redirect('/ok');
      case '/loop':
        return redirect('/loop');
      case '/set-cookie':
        response.writeHead(302, { location: '/ok', 'set-cookie': 'session=abc; Path=/' });
        return response.end();
      case '/big':
        response.writeHead(200, { 'content-type': 'text/html' });
        return response.end('x'.repeat(3_000_000));
      case '/echo': {
        let sent = '';
        request.on('data', (chunk: Buffer) => (sent += chunk.toString()));
        request.on('end', () => {
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.end(`${request.method} ${request.headers['content-type']} ${sent}`);
        });
        return;
      }
      case '/slow':
        response.writeHead(200, { 'content-type': 'text/html' });
        response.write('<html>');
        return; // never ends
      default:
        response.writeHead(404);
        return response.end();
    }
  });
  webPort = await listen(web);
});

afterAll(async () => {
  web.closeAllConnections();
  await new Promise((resolve) => web.close(resolve));
  await new Promise((resolve) => internal.close(resolve));
});

/** The fetcher as the server runs it, except that "the web" is the test's own server. */
const options = (more: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({
  allow: (address, port) => (address === '127.0.0.1' && port === webPort) || isPublicAddress(address),
  resolve: async (host) => ({ 'intranet.example': ['10.0.0.5'], 'mixed.example': ['93.184.216.34', '192.168.1.10'] })[host] ?? [],
  ...more,
});
const at = (path: string) => `http://127.0.0.1:${webPort}${path}`;

async function refusal(target: string, more: Partial<SafeFetchOptions> = {}): Promise<string> {
  try {
    await safeFetch(target, options(more));
  } catch (error) {
    if (error instanceof SafeFetchError) return error.reason;
    throw error;
  }
  return 'fetched';
}

describe('safeFetch', () => {
  test('POSTs a body (a webhook delivery); with redirects not followed, a 3xx is the answer', async () => {
    const posted = await safeFetch(at('/echo'), options({ method: 'POST', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } }));
    expect(posted.body.toString()).toBe('POST application/json {"a":1}');
    const before = internalHits;
    const redirect = await safeFetch(at('/to-loopback'), options({ followRedirects: false }));
    expect(redirect.status).toBe(302);
    expect(internalHits).toBe(before);
  });

  test('fetches a page, following a relative redirect', async () => {
    const page = await safeFetch(at('/relative'), options());
    expect(page.status).toBe(200);
    expect(page.url.pathname).toBe('/ok');
    expect(page.contentType).toMatch(/text\/html/);
    expect(page.body.toString('utf8')).toContain('Привет');
  });

  test('redirects to loopback, 169.254.169.254, [::1], an IPv4-mapped loopback and a name resolving to a private address are refused, and nothing reaches them', async () => {
    const before = internalHits;
    expect(await refusal(at('/to-loopback'))).toBe('address');
    expect(await refusal(at('/to-metadata'))).toBe('address');
    expect(await refusal(at('/to-ipv6-loopback'))).toBe('address');
    expect(await refusal(at('/to-mapped'))).toBe('address');
    expect(await refusal(at('/to-internal-name'))).toBe('address');
    expect(internalHits).toBe(before);
  });

  test('the same addresses asked for directly are refused by the default rule (no test allowance)', async () => {
    for (const target of [
      `http://127.0.0.1:${internalPort}/`,
      'http://169.254.169.254/',
      'http://[::1]/',
      'http://10.1.2.3/',
      'http://[fd00::1]/',
      'http://0.0.0.0/',
    ]) {
      expect({ target, reason: await refusal(target, { allow: undefined }) }).toEqual({ target, reason: 'address' });
    }
    // A name with a private address among public ones: refused (the private one could be the one used).
    expect(await refusal('http://mixed.example/')).toBe('address');
    expect(await refusal('http://nowhere.example/')).toBe('no_address');
    expect(internalHits).toBe(0);
  });

  test('only http and https; no user or password; a redirect to file: is refused', async () => {
    expect(await refusal('file:///etc/passwd')).toBe('scheme');
    expect(await refusal('ftp://example.org/')).toBe('scheme');
    expect(await refusal('javascript:alert(1)')).toBe('scheme');
    expect(await refusal(`http://user:secret@127.0.0.1:${webPort}/ok`)).toBe('credentials');
    expect(await refusal(at('/to-file'))).toBe('scheme');
    expect(await refusal('not a url')).toBe('scheme');
  });

  test('limits: redirects, size, time', async () => {
    expect(await refusal(at('/loop'))).toBe('redirects');
    const big = await safeFetch(at('/big'), options({ maxBytes: 100_000 }));
    expect([big.body.length, big.truncated]).toEqual([100_000, true]);
    const started = Date.now();
    expect(await refusal(at('/slow'), { timeoutMs: 300 })).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('no cookies sent (not even when asked to) and none kept across a redirect', async () => {
    cookiesSeen.length = 0;
    await safeFetch(at('/set-cookie'), options({ headers: { Cookie: 'session=mine', Authorization: 'Bearer x' } }));
    expect(cookiesSeen).toEqual([undefined, undefined]);
  });
});
