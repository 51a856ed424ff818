import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SCRIPT_HASHES } from './topStyles.ts';

/**
 * The Content-Security-Policy of the app's HTML (index.html on every address the app routes:
 * the signed-in app, /login, public pages). Why each source is there: docs/security.md.
 */
export const CSP_DIRECTIVES: ReadonlyArray<readonly [string, ...string[]]> = [
  ['default-src', "'self'"],
  // The build's own files only (index.html's early scripts are files too, server/web/earlyStart.ts)
  // and the one inline script of index.html, by its hash (`cspFor`: the theme, set before anything
  // is painted); no other inline script, no eval, no other host.
  ['script-src', "'self'"],
  // Inline style attributes: React's style props, KaTeX, FullCalendar and Slate set them.
  ['style-src', "'self'", "'unsafe-inline'"],
  // Uploaded files are ours; page covers and avatars may be any site's pictures (a cover «by
  // link», a sign-in provider's avatar); data: for CSS icons, blob: for pictures being pasted.
  ['img-src', "'self'", 'data:', 'blob:', 'https:', 'http:'],
  ['font-src', "'self'", 'data:'],
  ['media-src', "'self'", 'blob:'],
  // The API and socket.io's WebSocket (CSP 3: 'self' takes ws:/wss: of the same host too).
  ['connect-src', "'self'"],
  // An embed block frames only its allow-list of hosts (plugins/blocks/embed/block.ts, enforced where
  // the frame is drawn), but an Iframe page frames any http(s) address the reader gave
  // (src/features/pageTypes/iframeUrl.ts): a header cannot tell those apart in one document.
  ['frame-src', 'https:', 'http:'],
  ['worker-src', "'self'"],
  ['manifest-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  // Framed by our own pages only (clickjacking); X-Frame-Options says the same to old browsers.
  ['frame-ancestors', "'self'"],
];

/** The CSP with these inline scripts allowed (`'sha256-…'` sources). */
export function cspFor(scriptHashes: readonly string[]): string {
  return CSP_DIRECTIVES.map((directive) => (directive[0] === 'script-src' ? [...directive, ...scriptHashes] : directive).join(' ')).join('; ');
}

/** A script's CSP source: `'sha256-<base64>'` of its text. */
export function scriptHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The hashes of the web build's inline scripts (none without a build: the dev server's index.html has none). */
export function buildScriptHashes(webDir: string): string[] {
  const file = path.join(webDir, SCRIPT_HASHES);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as string[]) : [];
}

/** On every answer. */
const COMMON_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  // The browser's default said out loud: other sites get our origin, never a page's address.
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/**
 * The security headers (docs/security.md): nosniff and Referrer-Policy on every answer; the
 * CSP and X-Frame-Options on HTML. A route that set its own (a file's stricter CSP,
 * server/routes/files.ts) keeps it.
 */
export function securityHeaders(app: FastifyInstance, webDir: string): void {
  /** On HTML answers. */
  const HTML_HEADERS: Record<string, string> = {
    'content-security-policy': cspFor(buildScriptHashes(webDir)),
    'x-frame-options': 'SAMEORIGIN',
  };
  app.addHook('onSend', (_request, reply, payload, done) => {
    const add = (headers: Record<string, string>) => {
      for (const [name, value] of Object.entries(headers)) if (!reply.hasHeader(name)) reply.header(name, value);
    };
    add(COMMON_HEADERS);
    if (/^text\/html\b/i.test(String(reply.getHeader('content-type') ?? ''))) add(HTML_HEADERS);
    done(null, payload);
  });
}
