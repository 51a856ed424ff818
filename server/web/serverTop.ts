import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PageTop, PageTopInput, ReadAnswer } from '../../schema/pageTop';
import { PAGE_HEAD_BLOCKS } from '../../schema/constants';
import { escapeHtml } from '../../schema/html';
import { allows, canEdit } from '../../schema/policies/page';
import { SESSION_COOKIE } from '../auth/sessions';
import { loadPublicPage, presentPublicElement, publishedPlacedRow } from '../commands/pages/read';
import { pageAccessLevel } from '../policies/page';
import { presentElement } from '../presenters';
import { listPageHead, presentPlacedRow } from '../repositories/blocks';
import { findPageByIdOrAlias } from '../repositories/pages';
import { readUserSettings } from '../repositories/users';
import { SERVER_TOP_STYLES, type ServerTopStyles } from './topStyles';
import type { ApiResponse } from '../../schema/envelope';

/**
 * The first screen from the server (issue 35 §5; docs/web-app.md «The first screen from the
 * server»): on a page's address, index.html comes with the page's top already drawn in it — for
 * a signed-in reader who may read the page, and for anyone on a published page — so the browser
 * shows it before the app's code has come and run. The app draws its own page under it and takes
 * over (src/app/serverTop.ts).
 *
 * Drawn by the app's own components (src/ssr/pageTop.tsx, built into dist-ssr/pageTop.mjs beside
 * the web build). A page the caller may not read gets nothing of it: the plain index.html.
 */

type RenderPageTop = (input: PageTopInput, read: ReadAnswer) => Promise<PageTop | null>;

/** Where the top's renderer is: beside the web build (dist → dist-ssr). */
export function pageTopFile(webDir: string): string {
  return path.join(path.dirname(webDir), `${path.basename(webDir)}-ssr`, 'pageTop.mjs');
}

/** The renderer of the build beside `webDir`, or null when it is not built (the plain index.html is served). */
export async function loadPageTopRenderer(webDir: string): Promise<RenderPageTop | null> {
  const file = pageTopFile(webDir);
  if (!fs.existsSync(file)) return null;
  const module = (await import(pathToFileURL(file).href)) as { renderPageTop: RenderPageTop };
  return module.renderPageTop;
}

/** A page's address: `/{uid}` (the page screen) or `/public/{uid}` (a published page). Not the app's other addresses. */
const PAGE_ADDRESS = /^\/(public\/)?([A-Za-z0-9_-]+)\/?$/;
const NOT_PAGES = new Set(['login', 'new-workspace', 'version', 'public', 'clone', 'oauth', 'search']);

export function pageOfAddress(pathname: string): { uid: string; published: boolean } | null {
  const match = PAGE_ADDRESS.exec(pathname);
  if (!match) return null;
  const published = match[1] !== undefined;
  if (!published && NOT_PAGES.has(match[2])) return null;
  return { uid: match[2], published };
}

/**
 * What to draw for this request, or null: the signed-in reader's page on `/{uid}`; a published
 * page on `/public/{uid}`, and on `/{uid}` for a visitor who is not signed in (the app shows
 * them the public page there).
 */
export async function pageTopInput(app: FastifyInstance, request: FastifyRequest, pathname: string): Promise<PageTopInput | null> {
  const address = pageOfAddress(pathname);
  if (!address) return null;
  const token = request.cookies[SESSION_COOKIE];
  const user = !address.published && token ? await app.sessionUser(token) : null;
  if (user) {
    const row = await findPageByIdOrAlias(app.db, address.uid);
    // The page screen opens a page by its id; an alias, another's page or a trashed one is the app's to say.
    if (!row || row.id !== address.uid) return null;
    const level = await pageAccessLevel(app.db, user.id, row);
    if (!allows(level, 'read')) return null;
    // The drawing needs no favourites (the app's `GET element` reads them): one query fewer on every page's load.
    const [head, settings] = await Promise.all([listPageHead(app.db, row.id, PAGE_HEAD_BLOCKS), readUserSettings(app.db, user.id)]);
    return {
      page: presentElement(row, level),
      blocks: head.blocks.map(presentPlacedRow),
      editable: canEdit(level) && row.in_trash === 0,
      tree: { open: settings.treeOpen, width: settings.treeWidth },
      published: false,
    };
  }
  const row = await loadPublicPage(app.db, address.uid).catch(() => null);
  if (!row) return null;
  const [page, head] = await Promise.all([presentPublicElement(app.db, row), listPageHead(app.db, row.id, PAGE_HEAD_BLOCKS)]);
  return {
    page,
    blocks: head.blocks.map((placed) => presentPlacedRow(publishedPlacedRow(placed))),
    editable: false,
    tree: { open: false, width: 0 },
    published: true,
  };
}

/**
 * What the drawing reads beyond its input (its first database's first rows, when it draws one):
 * through the API's own routes, as the app reads them — with the caller's cookie, none for a
 * published page's visitor — so who may read which rows and cells is decided in one place.
 */
export function topReader(app: FastifyInstance, request: FastifyRequest, input: PageTopInput): ReadAnswer {
  const cookie = input.published ? undefined : request.headers.cookie;
  return async (path) => {
    const answer = await app.inject({ method: 'GET', url: path, headers: { 'x-app-type': 'Web', ...(cookie ? { cookie } : {}) } });
    return answer.statusCode === 200 ? answer.json<ApiResponse<unknown>>() : null;
  };
}

/** index.html's early script (a plain script right after the title; the `async` one before it stays). */
const EARLY_SCRIPT = /<script src="[^"]+"><\/script>/;
/** index.html's app code: its module script and the modules it preloads. */
const APP_CODE = /<script type="module"[^>]*><\/script>|<link rel="modulepreload"[^>]*>/g;
/** index.html's own style sheet links (the entry's). */
const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g;

/** index.html made ready once for a drawn top: the document for a top, by its kind. */
export type TopDocuments = (top: PageTop, published: boolean) => string;

/**
 * index.html prepared for a drawn top, or null in a build without the list of the top's style
 * sheets (server/web/earlyStart.ts writes it). The style sheets the top is drawn with — the
 * entry's and the lazily loaded screen's, KaTeX's for a formula, the data tables' for a database
 * page (its full-width layout) — are in the document
 * itself (a `<style>`; the CSP allows inline styles, docs/security.md): linked, the browser
 * would paint nothing until each had come, over connections the app's code and first requests
 * also want. index.html's own links move to the end of the body, where they hold nothing up and
 * the app's code still finds them (it adds a screen's link only where there is none).
 */
export function topDocuments(webDir: string, indexHtml: string): TopDocuments | null {
  const list = path.join(webDir, SERVER_TOP_STYLES);
  if (!fs.existsSync(list)) return null;
  const styles = JSON.parse(fs.readFileSync(list, 'utf8')) as ServerTopStyles;
  const links = [...indexHtml.matchAll(STYLESHEET_LINK)];
  const css = (hrefs: readonly string[]) =>
    hrefs
      .map((href) => fs.readFileSync(path.join(webDir, href.replace(/^\//, '')), 'utf8'))
      .join('\n')
      .replace(/<\/style/gi, '<\\/style');
  const entry = links.map((link) => link[1]);
  // The early script (server/web/earlyStart.ts) stays in the head, `defer`red: asked for at once,
  // it holds the parser nowhere and runs once the document is read, before the app's module
  // (deferred scripts and modules run in the document's order). As a plain script — in the head
  // the parser waited for it before reading the top; at the end of the body, for its coming and
  // running (≈ 40 ms of the first paint in a trace) — it held the first paint back. The theme is
  // index.html's inline script, so nothing painted waits for a file; the first click and keys are
  // kept by its `async` script.
  const plain = EARLY_SCRIPT.exec(indexHtml)?.[0] ?? '';
  const early = plain.replace('<script ', '<script defer ');
  const code = [...indexHtml.matchAll(APP_CODE)].map((tag) => tag[0]);
  const bare = [...links.map((link) => link[0]), plain, ...code].reduce((html, tag) => (tag ? html.replace(tag, '') : html), indexHtml);
  const document = (hrefs: readonly string[]) => {
    const head = `${early}<style>${css([...entry, ...hrefs.filter((href) => !entry.includes(href))])}</style>`;
    const [before, after] = bare.replace('</head>', () => `${head}</head>`).split('<div id="root"></div>');
    return (top: PageTop) =>
      `${before.replace(/<title>([^<]*)<\/title>/, (_, product: string) => `<title>${escapeHtml(top.title)} — ${product}</title>`)}<div id="server-top" class="server-top">${top.html}</div><div id="root"></div>${code.join('')}${links.map((link) => link[0]).join('')}${after}`;
  };
  // One document for each set of style sheets a top may need, made when first needed.
  const made = new Map<string, (top: PageTop) => string>();
  return (top, published) => {
    const hrefs = [...(published ? styles.published : styles.page), ...(top.formulas ? styles.formulas : []), ...(top.database ? styles.database : [])];
    const key = hrefs.join(' ');
    let forStyles = made.get(key);
    if (!forStyles) made.set(key, (forStyles = document(hrefs)));
    return forStyles(top);
  };
}
