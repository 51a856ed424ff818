import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import { PAGE_HEAD_BLOCKS } from '../../schema/constants';
import { actor, createPage, share, type Actor } from '../../test/helpers/pages';
import { api, body, createTestApp, type TestApp } from '../../test/helpers/testApp';
import { pageTopFile } from './serverTop';

/*
 * The page's top drawn into index.html by the server (issue 35 §5; docs/web-app.md «The first
 * screen from the server»), against the real build (dist/ and dist-ssr/, made by `npm test`).
 */

const WEB_DIR = path.resolve('dist');

let t: TestApp;
let owner: Actor;
let reader: Actor;
let outsider: Actor;

beforeAll(async () => {
  if (!fs.existsSync(path.join(WEB_DIR, 'index.html')) || !fs.existsSync(pageTopFile(WEB_DIR))) {
    throw new Error('no web build: run `node server/build/ensureBuilt.mjs` (npm test does)');
  }
  t = await createTestApp({ webDir: WEB_DIR });
  owner = await actor(t, 'owner@top.example');
  reader = await actor(t, 'reader@top.example');
  outsider = await actor(t, 'outsider@top.example');
  // The app loads the page top's server build (dist-ssr) at start: past 20 s once on a loaded run.
}, 60_000);
afterAll(async () => {
  await t.close();
});

/** A page of the owner's with `count` paragraphs «Абзац N …». */
async function pageWith(title: string, count: number, text = (n: number) => `Абзац ${n} <script>alert(${n})</script> & «кавычки»`) {
  const page = await createPage(t, owner, { title });
  let after: string | null = null;
  for (let n = 1; n <= count; n++) {
    const res = await api(t, owner.cookie, 'POST', '/api/v3/spaces/block', {
      pageId: page.id,
      type: 'text',
      placeAfter: after,
      data: { tokens: [{ text: text(n) }] },
    });
    expect(res.statusCode).toBe(201);
    after = body<{ id: string }>(res).data.id;
  }
  return page;
}

const open = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(cookie ? { cookie } : {}), ...headers } });

/** The drawn top of an answer, or null when it has none. */
function topOf(res: LightMyRequestResponse): string | null {
  const start = res.body.indexOf('<div id="server-top"');
  if (start < 0) return null;
  return res.body.slice(start, res.body.indexOf('<div id="root">', start));
}

test('a reader of the page gets its title and first blocks drawn in index.html, escaped, never cached; no script file holds the parser', async () => {
  const page = await pageWith('Заметки <b>о</b> проекте', 3);
  const res = await open(`/${page.id}`, owner.cookie);
  expect([res.statusCode, res.headers['content-type'], res.headers['cache-control'], res.headers.vary]).toEqual([
    200,
    'text/html; charset=utf-8',
    'private, no-store',
    'cookie',
  ]);
  expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
  expect(res.body).toContain('<title>Заметки &lt;b&gt;о&lt;/b&gt; проекте — Страницы</title>');
  const top = topOf(res);
  expect(top).not.toBeNull();
  expect(top).toContain('Заметки &lt;b&gt;о&lt;/b&gt; проекте');
  for (const n of [1, 2, 3]) expect(top).toContain(`Абзац ${n} &lt;script&gt;alert(${n})&lt;/script&gt; &amp; «кавычки»`);
  // Nothing typed in a page becomes markup.
  expect(res.body).not.toMatch(/<script>alert/);
  expect(res.body).not.toMatch(/<b>о<\/b>/);
  // The app's own editor markup, read-only, its editor and blocks named as the top's (not found as the live editor's).
  expect(top).toMatch(/data-top-editor="true"[^>]*contentEditable="false"/);
  expect(top).toContain(`data-top-block="pageHeading_${page.id}"`);
  expect(top).not.toMatch(/data-slate-editor|data-block-id/);
  // The style sheets are in the document, the early script deferred in the head (no script file
  // holds the parser; the inline one is the theme's, allowed by its hash), the app's code and the
  // links after the top.
  expect(res.body.indexOf('<style>')).toBeLessThan(res.body.indexOf('<div id="server-top"'));
  expect(res.body.indexOf('<script defer src="/assets/early-')).toBeGreaterThan(0);
  expect(res.body.indexOf('<script defer src="/assets/early-')).toBeLessThan(res.body.indexOf('</head>'));
  expect(res.body.match(/<script (?!defer|async|type="module")[^>]*>/g)).toBeNull();
  const inline = [...res.body.matchAll(/<script>([^<]*)<\/script>/g)].map((script) => script[1]);
  expect(inline).toHaveLength(1);
  expect(inline[0]).toContain('dataset.theme');
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain(`'sha256-${createHash('sha256').update(inline[0]).digest('base64')}'`);
  expect(csp).toMatch(/script-src 'self' 'sha256-[^']+'(;|$)/);
  expect(res.body.indexOf('<script type="module"')).toBeGreaterThan(res.body.indexOf('<div id="root">'));
  expect(res.body.indexOf('<link rel="stylesheet"')).toBeGreaterThan(res.body.indexOf('<div id="root">'));
});

test(`only the top is drawn: the first ${PAGE_HEAD_BLOCKS} blocks`, async () => {
  const page = await pageWith('Длинная', PAGE_HEAD_BLOCKS + 5, (n) => `Строка №${n}.`);
  const top = topOf(await open(`/${page.id}`, owner.cookie)) ?? '';
  expect(top).toContain(`Строка №${PAGE_HEAD_BLOCKS}.`);
  expect(top).not.toContain(`Строка №${PAGE_HEAD_BLOCKS + 1}.`);
  expect(top.match(/data-top-block="/g)).toHaveLength(PAGE_HEAD_BLOCKS + 1);
});

test('someone who may not read the page gets the plain index.html: nothing of the page, not even its title', async () => {
  const page = await pageWith('Тайный план', 2, (n) => `Секрет ${n}`);
  for (const [who, cookie] of [
    ['another user', outsider.cookie],
    ['nobody signed in', undefined],
    ['a made-up session', 'session=forged-token-value'],
  ] as const) {
    const res = await open(`/${page.id}`, cookie);
    expect([who, res.statusCode, res.headers['cache-control']]).toEqual([who, 200, 'no-cache']);
    expect([who, topOf(res)]).toEqual([who, null]);
    expect([who, res.body.includes('Тайный план') || res.body.includes('Секрет')]).toEqual([who, false]);
  }
  // The same answer for a page that does not exist.
  expect(topOf(await open('/0b7c1d2e-no-such-page', owner.cookie))).toBeNull();
});

test('a shared reader gets the top without the editing room; an editor with it', async () => {
  const page = await pageWith('Общая', 1);
  await share(t, owner, page.id, [{ userId: reader.id, accessLevel: 'read' }]);
  const read = topOf(await open(`/${page.id}`, reader.cookie)) ?? '';
  expect(read).toContain('Абзац 1');
  expect(read).not.toContain('page-header-add');
  expect(topOf(await open(`/${page.id}`, owner.cookie))).toContain('page-header-add');
  // Access taken back: nothing drawn any more.
  expect((await api(t, owner.cookie, 'POST', `/api/v3/spaces/element/${page.id}/member/remove`, { userId: reader.id })).statusCode).toBeLessThan(300);
  expect(topOf(await open(`/${page.id}`, reader.cookie))).toBeNull();
});

test('a published page is drawn for anyone, in the public frame, at /public/{id} and (signed out) at /{id}', async () => {
  const page = await pageWith('Открытая', 2, (n) => `Публичный ${n}`);
  expect((await api(t, owner.cookie, 'PATCH', `/api/v3/spaces/element/${page.id}`, { isPublic: true })).statusCode).toBe(200);
  for (const [url, cookie] of [
    [`/public/${page.id}`, undefined],
    [`/public/${page.id}`, outsider.cookie],
    [`/${page.id}`, undefined],
  ] as const) {
    const top = topOf(await open(url, cookie));
    expect([url, top?.includes('public-page'), top?.includes('Публичный 2'), top?.includes('class="shell')]).toEqual([url, true, true, false]);
  }
  // Signed in without access, the app shows the public page inside its own frame: nothing is drawn for that.
  expect(topOf(await open(`/${page.id}`, outsider.cookie))).toBeNull();
  // Unpublished: gone for everyone but its readers.
  expect((await api(t, owner.cookie, 'PATCH', `/api/v3/spaces/element/${page.id}`, { isPublic: false })).statusCode).toBe(200);
  expect(topOf(await open(`/public/${page.id}`))).toBeNull();
  expect(topOf(await open(`/${page.id}`))).toBeNull();
});

test('a database page: its table with the first rows as the reader may read them (escaped); a board is the app’s; a folder, a row page and a trashed page get nothing', async () => {
  const database = await createPage(t, owner, { title: 'Проекты', type: 'Database' });
  const block = body<Array<{ id: string; data: { view: { layouts: Array<{ uid: string }> } } }>>(
    await api(t, owner.cookie, 'GET', `/api/v3/spaces/note/${database.id}/blocks`),
  ).data[0];
  const rows = body<Array<{ id: string }>>(
    await api(t, owner.cookie, 'POST', `/api/v3/spaces/database/${block.id}/rows`, {
      rows: [{ title: 'Строка <b>1</b> & «кавычки»' }, { title: 'Строка 2' }, { title: 'Скрытая' }],
    }),
  ).data;
  let res = await open(`/${database.id}`, owner.cookie);
  let top = topOf(res) ?? '';
  expect(top).toContain('page is-database');
  expect(top).toContain('Проекты');
  // The grid is drawn by the Table view, with the rows the app's first read gets (its text escaped).
  expect(top).toContain('database-block');
  expect(top).toContain('db-table is-fill');
  expect(top).toContain('Строка &lt;b&gt;1&lt;/b&gt; &amp; «кавычки»');
  expect(top).not.toContain('<b>1</b>');
  expect(top).toContain('Строка 2');
  // Its full-width layout is the data tables' style sheet's.
  expect(res.body).toMatch(/\.page\.is-database \.document-editor/);
  // A reader sees what the route lets them read: the view's filter holds for the drawing too.
  const viewId = block.data.view.layouts[0].uid;
  const filter = { op: 'and', rules: [{ fieldId: MAIN_FIELD_ID, condition: 'notContains', value: 'Скрытая' }] };
  expect((await api(t, owner.cookie, 'POST', `/api/v3/spaces/database/${block.id}/views/${viewId}`, { layout: { filter } })).statusCode).toBe(200);
  top = topOf(await open(`/${database.id}`, owner.cookie)) ?? '';
  expect([top.includes('Строка 2'), top.includes('Скрытая')]).toEqual([true, false]);
  // Nobody else: nothing at all (the page's read check comes first).
  expect(topOf(await open(`/${database.id}`, outsider.cookie))).toBeNull();
  // Published: its visitors get the same table.
  expect((await api(t, owner.cookie, 'PATCH', `/api/v3/spaces/element/${database.id}`, { isPublic: true })).statusCode).toBe(200);
  top = topOf(await open(`/public/${database.id}`)) ?? '';
  expect([top.includes('public-page'), top.includes('Строка 2'), top.includes('Скрытая')]).toEqual([true, true, false]);
  // A board (or any view but a table) is left to the app: the drawing stops before the database.
  expect((await api(t, owner.cookie, 'POST', `/api/v3/spaces/database/${block.id}/views/${viewId}`, { layout: { type: 'board' } })).statusCode).toBe(200);
  res = await open(`/${database.id}`, owner.cookie);
  top = topOf(res) ?? '';
  expect([top.includes('Проекты'), top.includes('database-block'), top.includes('Строка 2')]).toEqual([true, false, false]);
  const folder = await createPage(t, owner, { title: 'Папка', type: 'Space' });
  expect(topOf(await open(`/${folder.id}`, owner.cookie))).toBeNull();
  // A row page (its fields under the title are the app's) and a trashed page (its banner) are the app's to draw.
  expect(topOf(await open(`/${rows[0].id}`, owner.cookie))).toBeNull();
  const trashed = await pageWith('В корзине', 1);
  expect((await api(t, owner.cookie, 'DELETE', `/api/v3/spaces/element/${trashed.id}`)).statusCode).toBeLessThan(300);
  expect(topOf(await open(`/${trashed.id}`, owner.cookie))).toBeNull();
});

test('X-Server-Top: off gets the plain file (bench:open compares the two)', async () => {
  const page = await pageWith('Без верха', 1);
  const res = await open(`/${page.id}`, owner.cookie, { 'x-server-top': 'off' });
  expect([res.statusCode, topOf(res), res.headers['cache-control']]).toEqual([200, null, 'no-cache']);
});

test('every kind of block is drawn as the app draws it — a child page, a page link, a formula, code, a table, media — and the top carries what it needs', async () => {
  const page = await createPage(t, owner, { title: 'Всё сразу' });
  const child = await createPage(t, owner, { title: 'Дочерняя', parentId: page.id });
  const linked = await createPage(t, owner, { title: 'Связанная' });
  const blocks = body<Array<{ type: string }>>(await api(t, owner.cookie, 'GET', `/api/v3/spaces/note/${page.id}/blocks`)).data;
  let after: string | null = blocks.length > 0 ? (blocks[blocks.length - 1] as unknown as { id: string }).id : null;
  const add = async (type: string, data: unknown) => {
    const res = await api(t, owner.cookie, 'POST', '/api/v3/spaces/block', { pageId: page.id, type, placeAfter: after, data });
    expect([type, res.statusCode]).toEqual([type, 201]);
    after = body<{ id: string }>(res).data.id;
  };
  const tokens = (text: string) => ({ tokens: [{ text }] });
  await add('text', {
    tokens: [
      { text: 'См. ' },
      { text: '↗', link: { href: `/${linked.id}`, pageId: linked.id } },
      { text: ' и ' },
      { text: 'сайт', link: { href: 'https://example.com/' } },
    ],
  });
  for (const type of ['heading1', 'heading2', 'heading3', 'bulletList', 'orderedList', 'quote']) await add(type, tokens(`Блок ${type}`));
  await add('checkbox', { ...tokens('Задача'), checked: true });
  await add('callout', { ...tokens('Заметка'), icon: '💡' });
  await add('code', { tokens: [{ text: 'const x = 1;' }], language: 'typescript' });
  await add('latex', { formula: 'x^2 + y^2 = z^2' });
  await add('divider', {});
  await add('table', {
    tableLayout: { columns: 2, rows: 1, columnSizes: [120, 120] },
    headerRow: true,
    headerColumn: false,
    tokens: [
      { text: 'А', tableAddress: { x: 0, y: 0 } },
      { text: 'Б', tableAddress: { x: 1, y: 0 } },
    ],
  });
  await add('image', { remoteData: null, crop: null, scale: 1, align: 'center' });
  await add('file', { remoteData: null });
  await add('embed', { url: null, scale: 1, align: 'center' });
  await add('document', { pageId: child.id });
  const res = await open(`/${page.id}`, owner.cookie);
  const top = topOf(res) ?? '';
  expect(top).toContain('Всё сразу');
  // The child page's block and the page link, as the app's first drawing has them (their titles come with the app).
  expect(top).toMatch(new RegExp(`class="document-link"[^>]*href="/${child.id}"`));
  expect(top).toContain(`data-page-id="${linked.id}"`);
  expect(top).toContain('href="https://example.com/"');
  for (const type of ['heading1', 'heading3', 'orderedList', 'quote']) expect(top).toContain(`Блок ${type}`);
  // The formula drawn by KaTeX (its style sheet with it), the code highlighted.
  expect(top).toContain('class="katex"');
  expect(res.body).toMatch(/\.katex\s*\{/);
  expect(top).toMatch(/class="token keyword"/);
  expect(top).toContain('block-tableBlock');
  expect(top).toContain('block-imageBlock');
  expect(top).toContain('block-fileBlock');
  expect(top).toContain('block-embedBlock');
});
