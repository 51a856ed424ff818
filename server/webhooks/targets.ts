import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { ERROR_CODES } from '../../schema/errors';
import { AppError } from '../errors';

/*
 * Where a webhook may send (docs/api/webhooks.md «Targets»): a public http(s) address. A URL
 * naming a private, loopback, link-local, multicast or otherwise reserved address — or a host
 * whose DNS answers one — would let a workspace's admin make the server call inside its own
 * network (SSRF), so it is refused when the webhook is made and checked again before each
 * delivery (a name may come to answer otherwise). `WEBHOOKS_ALLOW_PRIVATE` lifts it for a server
 * that only serves one network.
 */

let allowPrivate = false;
/** Whether webhooks may send to private addresses (config `webhooksAllowPrivate`). */
export function webhooksAllowPrivate(): boolean {
  return allowPrivate;
}

/** Config `webhooksAllowPrivate`. */
export function setWebhooksAllowPrivate(allow: boolean): void {
  allowPrivate = allow;
}

const refused = (message: string) => new AppError(422, ERROR_CODES.webhookTargetRefused, message, [{ path: 'url', message }]);

/** Whether an address is one the public internet routes (unicast), as ipaddr.js ranges them. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/**
 * The URL a webhook sends to, checked (422 webhook.target_refused otherwise): http or https, no
 * user or password in it, and every address its host answers public. Answers the URL as parsed.
 */
export async function checkedTarget(text: string): Promise<URL> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refused('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused('a webhook sends to http or https');
  if (url.username || url.password) throw refused('no user or password in a webhook URL');
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = ipaddr.isValid(host)
    ? [host]
    : await lookup(host, { all: true }).then(
        (found) => found.map((a) => a.address),
        () => [],
      );
  if (addresses.length === 0) throw refused('the host has no address');
  if (!addresses.every(isPublicAddress)) throw refused('a webhook sends to public addresses only');
  return url;
}
