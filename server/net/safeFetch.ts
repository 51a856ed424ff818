import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { isPublicAddress } from '../webhooks/targets';

/*
 * A GET of a URL someone else chose (a pasted link's preview, issue 39 §2), safe against SSRF
 * (docs/security.md «Fetching links»): http and https only, no user or password in the URL; the
 * host's every address checked public (not private, loopback, link-local — 169.254.169.254 —,
 * unique-local, multicast or reserved, IPv4-mapped ones as their IPv4) *after* DNS, and the
 * connection made to that checked address (a name cannot answer another address between the
 * check and the connection); each redirect checked the same way (at most MAX_REDIRECTS); the
 * whole exchange within a time limit and the body cut at a size limit; no cookies or credentials
 * sent, none kept.
 */

export const SAFE_FETCH_DEFAULTS = { timeoutMs: 5_000, maxBytes: 1_000_000, maxRedirects: 5 } as const;

export type SafeFetchRefusal = 'scheme' | 'credentials' | 'address' | 'no_address' | 'redirects' | 'timeout' | 'network';

export class SafeFetchError extends Error {
  constructor(
    readonly reason: SafeFetchRefusal,
    message: string,
  ) {
    super(message);
  }
}

export interface SafeFetchOptions {
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Whether the server may connect to this address and port (default: a public address, any port). Tests widen it to their own server. */
  allow?(address: string, port: number): boolean;
  /** The host's addresses (default: the system's DNS, every answer). */
  resolve?(host: string): Promise<string[]>;
  /** Request headers (no cookies, no authorization: they are dropped). */
  headers?: Record<string, string>;
  /** GET (default) or POST with `body` (a webhook delivery). */
  method?: 'GET' | 'POST';
  body?: string;
  /** Whether redirects are followed (default); otherwise a 3xx is the answer. */
  followRedirects?: boolean;
}

export interface SafeFetchResult {
  /** The address of the page answered, after redirects. */
  url: URL;
  status: number;
  contentType: string;
  body: Buffer;
  /** The body was cut at `maxBytes`. */
  truncated: boolean;
}

const systemResolve = async (host: string) =>
  dnsLookup(host, { all: true }).then(
    (found) => found.map((a) => a.address),
    () => [],
  );

/** The address to connect to for `url`: its host's, every one checked; the first one. */
async function checkedAddress(url: URL, options: SafeFetchOptions): Promise<string> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SafeFetchError('scheme', `${url.protocol} is not http or https`);
  if (url.username || url.password) throw new SafeFetchError('credentials', 'no user or password in a fetched URL');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = ipaddr.isValid(host) ? [host] : await (options.resolve ?? systemResolve)(host);
  if (addresses.length === 0) throw new SafeFetchError('no_address', `${host} has no address`);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const allow = options.allow ?? ((address: string) => isPublicAddress(address));
  // Every address, not only the one used: a name answering a private address among public ones is refused.
  const refused = addresses.find((address) => !allow(address, port));
  if (refused !== undefined) throw new SafeFetchError('address', `${host} answers ${refused}, which is not a public address`);
  return addresses[0];
}

/** One request to the checked address (no redirect followed). */
function requestOnce(url: URL, address: string, options: SafeFetchOptions, deadline: number): Promise<SafeFetchResult & { location: string | null }> {
  const maxBytes = options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
  const family = ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4;
  // The connection goes to the address checked, whatever the name would answer now.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all)
      (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const headers: Record<string, string> = {
    accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
    'user-agent': 'StranitsyLinkPreview/1.0',
    ...options.headers,
  };
  for (const name of Object.keys(headers)) if (/^(cookie|authorization|proxy-authorization)$/i.test(name)) delete headers[name];
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new SafeFetchError('timeout', 'took too long'));
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      { method: options.method ?? 'GET', headers, lookup: pinned, agent: false, timeout: remaining },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = status >= 300 && status < 400 && options.followRedirects !== false ? (response.headers.location ?? null) : null;
        if (location !== null) {
          clearTimeout(timer);
          response.resume();
          resolve({ url, status, contentType: '', body: Buffer.alloc(0), truncated: false, location });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        response.on('data', (chunk: Buffer) => {
          if (truncated) return;
          const room = maxBytes - size;
          if (chunk.length >= room) {
            chunks.push(chunk.subarray(0, room));
            size = maxBytes;
            truncated = true;
            response.destroy();
            finish();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve({ url, status, contentType: String(response.headers['content-type'] ?? ''), body: Buffer.concat(chunks), truncated, location: null });
        };
        response.on('end', finish);
        response.on('error', (error) => {
          clearTimeout(timer);
          if (truncated) finish();
          else reject(error instanceof SafeFetchError ? error : new SafeFetchError('network', error.message));
        });
      },
    );
    // The whole exchange, not only the idle time between packets, has its limit.
    const timer = setTimeout(() => request.destroy(new SafeFetchError('timeout', 'took too long')), remaining);
    request.on('timeout', () => request.destroy(new SafeFetchError('timeout', 'took too long')));
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error instanceof SafeFetchError ? error : new SafeFetchError('network', error.message));
    });
    request.end(options.body);
  });
}

/** GET `target` safely (see the file's comment); a refusal or failure is a SafeFetchError naming why. */
export async function safeFetch(target: string | URL, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const deadline = Date.now() + (options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs);
  const maxRedirects = options.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new SafeFetchError('scheme', 'not a URL');
  }
  for (let hop = 0; ; hop++) {
    const address = await checkedAddress(url, options);
    const answer = await requestOnce(url, address, options, deadline);
    if (answer.location === null) {
      const { location: _location, ...result } = answer;
      return result;
    }
    if (hop >= maxRedirects) throw new SafeFetchError('redirects', `more than ${maxRedirects} redirects`);
    try {
      url = new URL(answer.location, url);
    } catch {
      throw new SafeFetchError('scheme', 'a redirect to something that is not a URL');
    }
  }
}
