import { embedUrlSchema } from '../../../plugins/blocks/embed/block';

/*
 * The address an Iframe page shows (docs/web-app.md, «Iframe pages»). Any http(s) page may be
 * framed (unlike the embed block in a document, which frames only its allow-list of hosts): the
 * page type exists to show a page of another site. Not this app's own origin: a frame of the
 * same origin with scripts allowed could lift its own sandbox and act as the reader.
 */

/** Why an address cannot be used: a key of `pageTypes.iframe.errors`. */
export type IframeUrlProblem = 'empty' | 'scheme' | 'invalid' | 'credentials' | 'tooLong' | 'sameOrigin';

/** The sandbox of the frame: scripts, its own origin, popups and forms; never the top page's navigation. */
export const IFRAME_SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-forms';

/** The address as typed, made whole (`example.com/x` → `https://example.com/x`), or why it cannot be framed. */
export function readIframeUrl(typed: string, appOrigin: string): { url: string } | { problem: IframeUrlProblem } {
  const text = typed.trim();
  if (text === '') return { problem: 'empty' };
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(text);
  if (hasScheme && !/^https?:\/\//i.test(text)) return { problem: 'scheme' };
  const candidate = hasScheme ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { problem: 'invalid' };
  }
  if (!url.hostname || (!hasScheme && !url.hostname.includes('.'))) return { problem: 'invalid' };
  if (url.username || url.password) return { problem: 'credentials' };
  if (url.origin === appOrigin) return { problem: 'sameOrigin' };
  if (!embedUrlSchema.safeParse(url.href).success) return { problem: 'tooLong' };
  return { url: url.href };
}
