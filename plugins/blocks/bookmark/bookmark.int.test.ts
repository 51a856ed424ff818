import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import type { WireBlock } from '../../../schema/block';
import type { WireLinkPreview } from '../../../schema/linkPreview';
import { postImport } from '../../../test/helpers/imports';
import { actor, createPage, share, type Actor } from '../../../test/helpers/pages';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString, type TestApp } from '../../../test/helpers/testApp';

/*
 * Bookmarks through the real server, on SQLite and PostgreSQL (issue 39 §2): `POST link/preview`
 * reads a real page on a loopback HTTP server (the app here allows private addresses, as
 * LINK_PREVIEW_ALLOW_PRIVATE does) and keeps it; a server with the default rule refuses loopback,
 * link-local and private addresses and other schemes; a bookmark block is checked, stored,
 * exported and imported through its definition.
 */

let t: TestApp;
let guarded: TestApp;
let owner: Actor;
let reader: Actor;
let stranger: Actor;
const S = '/api/v3/spaces';

let site: http.Server;
let siteUrl: string;
const hits: string[] = [];

const ARTICLE = `<!doctype html><html><head><meta charset="utf-8">
<title>Запасной заголовок</title>
<meta property="og:title" content="Как мы ускорили редактор">
<meta property="og:description" content="Двадцать тысяч блоков без задержек">
<meta property="og:image" content="/cover.png">
<meta property="og:site_name" content="Блог Страниц">
<link rel="icon" href="/favicon.svg">
</head><body><p>Текст статьи</p></body></html>`;

beforeAll(async () => {
  site = http.createServer((request, response) => {
    hits.push(request.url ?? '');
    if (request.url?.startsWith('/article')) {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(ARTICLE);
    } else if (request.url === '/moved') {
      response.statusCode = 302;
      response.setHeader('location', '/article?from=moved');
      response.end();
    } else if (request.url === '/file.pdf') {
      response.setHeader('content-type', 'application/pdf');
      response.end('%PDF-1.4');
    } else if (request.url === '/slow') {
      // Never answers: the fetch's time limit (shortened by nothing here: 5 s) ends it.
    } else {
      response.statusCode = 404;
      response.end('нет');
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  [t, guarded] = await Promise.all([createTestApp({ sendCodeLimitPerIp: 10_000, linkPreviewAllowPrivate: true }), createTestApp()]);
  owner = await actor(t, 'bookmark-owner@example.com');
  reader = await actor(t, 'bookmark-reader@example.com');
  stranger = await actor(guarded, 'bookmark-stranger@example.com');
});
afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
  await Promise.all([t.close(), guarded.close()]);
});

const preview = (app: TestApp, who: Actor, url: unknown) => api(app, who.cookie, 'POST', `${S}/link/preview`, { url });

test("reads the page's Open Graph card, absolute addresses, once a day: a second ask is answered from what was kept", async () => {
  const url = `${siteUrl}/article?a=1#part`;
  const first = expectOk<WireLinkPreview>(await preview(t, owner, url));
  expect(first).toEqual({
    url,
    finalUrl: `${siteUrl}/article?a=1`,
    title: 'Как мы ускорили редактор',
    description: 'Двадцать тысяч блоков без задержек',
    image: `${siteUrl}/cover.png`,
    icon: `${siteUrl}/favicon.svg`,
    siteName: 'Блог Страниц',
    fetchedAt: expect.any(String),
  });
  const asked = hits.filter((h) => h === '/article?a=1').length;
  expect(asked).toBe(1);
  // Another person, the same address without the fragment: the kept answer, the page not read again.
  const again = expectOk<WireLinkPreview>(await preview(t, reader, `${siteUrl}/article?a=1`));
  expect(again).toMatchObject({ title: first.title, fetchedAt: first.fetchedAt, url: `${siteUrl}/article?a=1` });
  expect(hits.filter((h) => h === '/article?a=1').length).toBe(asked);
  // «Обновить превью»: read again.
  const fresh = expectOk<WireLinkPreview>(await api(t, owner.cookie, 'POST', `${S}/link/preview`, { url, fresh: true }));
  expect(fresh.fetchedAt >= first.fetchedAt).toBe(true);
  expect(hits.filter((h) => h === '/article?a=1').length).toBe(asked + 1);
});

test('a redirect is followed to the page it names; a page that is no HTML or an error page gives its address alone', async () => {
  expect(expectOk<WireLinkPreview>(await preview(t, owner, `${siteUrl}/moved`))).toMatchObject({
    finalUrl: `${siteUrl}/article?from=moved`,
    title: 'Как мы ускорили редактор',
  });
  for (const path of ['/file.pdf', '/missing']) {
    expect(expectOk<WireLinkPreview>(await preview(t, owner, `${siteUrl}${path}`))).toMatchObject({
      title: null,
      description: null,
      image: null,
      icon: null,
      siteName: null,
    });
  }
});

test('a page that cannot be read is 502 link.unreachable, and is not asked again for minutes', async () => {
  // A port nobody listens on.
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const res = await preview(t, owner, `http://127.0.0.1:${port}/`);
  expect([res.statusCode, errorCode(res)]).toEqual([502, 'link.unreachable']);

  const slow = await preview(t, owner, `${siteUrl}/slow`);
  expect([slow.statusCode, errorCode(slow)]).toEqual([502, 'link.unreachable']);
  const before = hits.filter((h) => h === '/slow').length;
  const again = await preview(t, owner, `${siteUrl}/slow`);
  expect([again.statusCode, errorCode(again)]).toEqual([502, 'link.unreachable']);
  expect(hits.filter((h) => h === '/slow').length).toBe(before);
}, 20_000);

test('the default rule: loopback, link-local, private and IPv6 loopback addresses and other schemes are refused, nothing fetched', async () => {
  const before = hits.length;
  for (const url of [
    `${siteUrl}/article`,
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.5/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://localhost/',
    'file:///etc/passwd',
    'ftp://example.com/',
    'http://user:secret@example.com/',
  ]) {
    const res = await preview(guarded, stranger, url);
    expect([url, res.statusCode, errorCode(res)]).toEqual([url, 422, 'link.address_refused']);
  }
  expect(hits.length).toBe(before);
  for (const bad of ['', 'not an address', 'x'.repeat(3000), 42]) {
    const res = await preview(guarded, stranger, bad);
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
  }
});

test('signed-in people only, and a person asks at most 30 a minute', async () => {
  const anonymous = await api(t, undefined, 'POST', `${S}/link/preview`, { url: `${siteUrl}/article` });
  expect(anonymous.statusCode).toBe(401);
  const busy = await actor(t, 'bookmark-busy@example.com');
  const codes: number[] = [];
  for (let i = 0; i < 31; i++) codes.push((await preview(t, busy, `${siteUrl}/article?a=1`)).statusCode);
  expect(codes.slice(0, 30).every((code) => code === 200)).toBe(true);
  expect(codes[30]).toBe(429);
});

const bookmarksOf = (blocks: WireBlock[]) => blocks.filter((b) => b.type === 'bookmark').map((b) => b.data);
const card = {
  title: 'Как мы ускорили редактор',
  description: 'Двадцать тысяч блоков без задержек',
  image: 'https://example.com/cover.png',
  icon: 'https://example.com/favicon.svg',
  siteName: 'Блог Страниц',
};

test('a bookmark block: its data checked by its schema, stored in canonical form; a reader may not write it', async () => {
  const page = await createPage(t, owner, { title: 'Закладки' });
  const made = expectOk<WireBlock>(
    await api(t, owner.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'bookmark', data: { url: 'https://example.com/post', preview: card } }),
    201,
  );
  expect(made.data).toEqual({ url: 'https://example.com/post', preview: card });
  // A page read that gave nothing (all null) is kept as such: it was read.
  const bare = expectOk<WireBlock>(
    await api(t, owner.cookie, 'POST', `${S}/block`, {
      pageId: page.id,
      type: 'bookmark',
      data: { url: 'https://example.com/bare', preview: { title: null, description: null, image: null, icon: null, siteName: null } },
      placeAfter: made.id,
    }),
    201,
  );
  expect(bare.data).toEqual({ url: 'https://example.com/bare', preview: { title: null, description: null, image: null, icon: null, siteName: null } });
  for (const bad of [
    { url: 'javascript:alert(1)', preview: null },
    { url: 'https://example.com', preview: { ...card, image: 'javascript:alert(1)' } },
    { url: 'https://example.com', preview: { ...card, title: 'x'.repeat(301) } },
    { url: 'https://example.com', preview: { ...card, extra: 1 } },
    { url: 'https://example.com' },
  ]) {
    const res = await api(t, owner.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'bookmark', data: bad });
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
  }
  // Search finds it by its card's title.
  const started = Date.now();
  for (;;) {
    const res = await api(t, owner.cookie, 'GET', `${S}/search/text?${jsonQueryString({ q: 'ускорили' })}`, undefined, { 'x-workspace-id': owner.workspaceId });
    if (body<{ page: { id: string } }[]>(res).data.some((hit) => hit.page.id === page.id)) break;
    if (Date.now() - started > 5_000) throw new Error('the bookmark was not found by its title');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await share(t, owner, page.id, [{ userId: reader.id, accessLevel: 'read' }]);
  expect(bookmarksOf(body<WireBlock[]>(await api(t, reader.cookie, 'GET', `${S}/note/${page.id}/blocks`)).data)).toEqual([made.data, bare.data]);
  const refused = await api(t, reader.cookie, 'POST', `${S}/block/${made.id}`, {
    version: made.version,
    type: 'bookmark',
    data: { url: 'https://evil.example', preview: null },
  });
  expect(refused.statusCode).toBe(403);
});

const unzip = (raw: Buffer | string) => unzipSync(new Uint8Array(Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'binary')));
const exported = async (pageId: string, format: string) =>
  unzip((await api(t, owner.cookie, 'GET', `${S}/element/${pageId}/export?${jsonQueryString({ format })}`)).rawPayload);

test('exports: Markdown a titled link and its description; JSON and HTML whole, read back by the import', async () => {
  const page = await createPage(t, owner, { title: 'Экспорт закладок' });
  const data = { url: 'https://example.com/post?x=(1)', preview: card };
  expectOk(await api(t, owner.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'bookmark', data }), 201);

  const markdown = strFromU8((await exported(page.id, 'markdown'))['Экспорт закладок.md']);
  expect(markdown).toContain('[Как мы ускорили редактор](https://example.com/post?x=%281%29)');
  expect(markdown).toContain('Двадцать тысяч блоков без задержек');

  const fromJson = body<{ page: { id: string } }>(await postImport(t, owner.cookie, zipSync(await exported(page.id, 'json')), { parentId: page.id })).data.page;
  expect(bookmarksOf(body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${fromJson.id}/blocks`)).data)).toEqual([data]);

  const html = await exported(page.id, 'html');
  const htmlName = Object.keys(html).find((name) => name.endsWith('.html'))!;
  expect(strFromU8(html[htmlName])).toContain('<figure data-bookmark');
  const res = await postImport(t, owner.cookie, zipSync(html), { parentId: page.id }, 'Экспорт закладок.zip');
  expect(res.statusCode).toBe(201);
  const fromHtml = body<{ page: { id: string } }>(res).data.page;
  expect(bookmarksOf(body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${fromHtml.id}/blocks`)).data)).toEqual([data]);
});
