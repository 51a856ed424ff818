import { setTimeout as sleep } from 'node:timers/promises';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import type { WireBlock } from '../../../schema/block';
import type { WireSearchHit } from '../../../schema/search';
import { actor, createPage, share, type Actor } from '../../../test/helpers/pages';
import { postImport } from '../../../test/helpers/imports';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString, type TestApp } from '../../../test/helpers/testApp';

/*
 * The worked example's block type through the real server, on SQLite and PostgreSQL: nothing in
 * the server names it, yet it is checked, stored, listed, searched, exported and imported through
 * its definition (docs/plugins.md «What the server guarantees»).
 */

let t: TestApp;
let owner: Actor;
let reader: Actor;
const S = '/api/v3/spaces';
const tokens = [{ text: 'Перевод ' }, { text: 'главы 3', bold: true }];

beforeAll(async () => {
  t = await createTestApp({ sendCodeLimitPerIp: 10_000 });
  owner = await actor(t, 'progress-owner@example.com');
  reader = await actor(t, 'progress-reader@example.com');
});
afterAll(async () => {
  await t.close();
});

const unzip = (raw: Buffer | string) => unzipSync(new Uint8Array(Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'binary')));
const exported = async (pageId: string, format: string) =>
  unzip((await api(t, owner.cookie, 'GET', `${S}/element/${pageId}/export?${jsonQueryString({ format })}`)).rawPayload);
const progressOf = (blocks: WireBlock[]) => blocks.filter((b) => b.type === 'progress').map((b) => b.data);

test('made, read, changed and refused as any block: its data checked by its own schema; a reader may not write it', async () => {
  const page = await createPage(t, owner, { title: 'Планы' });
  const made = expectOk<WireBlock>(await api(t, owner.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'progress', data: { tokens, value: 40 } }), 201);
  expect(made).toMatchObject({ type: 'progress', data: { tokens, value: 40 } });

  // Stored in canonical form (tokens joined).
  const split = expectOk<WireBlock>(
    await api(t, owner.cookie, 'POST', `${S}/block`, {
      pageId: page.id,
      type: 'progress',
      data: { tokens: [{ text: 'а' }, { text: 'б' }], value: 0 },
      placeAfter: made.id,
    }),
    201,
  );
  expect(split.data).toEqual({ tokens: [{ text: 'аб' }], value: 0 });

  for (const bad of [{ tokens, value: 101 }, { tokens, value: 2.5 }, { tokens }, { tokens, value: 5, color: 'red' }]) {
    const res = await api(t, owner.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'progress', data: bad });
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
  }

  const changed = expectOk<WireBlock>(
    await api(t, owner.cookie, 'POST', `${S}/block/${made.id}`, { version: made.version, type: 'progress', data: { tokens, value: 75 } }),
  );
  expect(changed.data).toEqual({ tokens, value: 75 });
  const listed = body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${page.id}/blocks`)).data;
  expect(progressOf(listed)).toEqual([
    { tokens, value: 75 },
    { tokens: [{ text: 'аб' }], value: 0 },
  ]);

  await share(t, owner, page.id, [{ userId: reader.id, accessLevel: 'read' }]);
  expect(body<WireBlock[]>(await api(t, reader.cookie, 'GET', `${S}/note/${page.id}/blocks`)).data.length).toBe(listed.length);
  const refused = await api(t, reader.cookie, 'POST', `${S}/block/${made.id}`, { version: changed.version, type: 'progress', data: { tokens, value: 100 } });
  expect(refused.statusCode).toBe(403);
  const refusedNew = await api(t, reader.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'progress', data: { tokens, value: 1 } });
  expect(refusedNew.statusCode).toBe(403);
  expect(progressOf(body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${page.id}/blocks`)).data)[0]).toEqual({ tokens, value: 75 });
});

test('search finds its text', async () => {
  const page = await createPage(t, owner, { title: 'Поиск по прогрессу' });
  expectOk(
    await api(t, owner.cookie, 'POST', `${S}/block`, {
      pageId: page.id,
      type: 'progress',
      data: { tokens: [{ text: 'Проверка квазистатических расчётов' }], value: 10 },
    }),
    201,
  );
  const started = Date.now();
  for (;;) {
    const res = await api(t, owner.cookie, 'GET', `${S}/search/text?${jsonQueryString({ q: 'квазистатических' })}`, undefined, {
      'x-workspace-id': owner.workspaceId,
    });
    const hits = body<WireSearchHit[]>(res).data;
    if (hits.some((h) => h.page.id === page.id)) break;
    if (Date.now() - started > 3_000) throw new Error(`not found: ${JSON.stringify(hits)}`);
    await sleep(25);
  }
});

test('exports: JSON whole and read back by the import; Markdown writes its bar; HTML a <progress>, read back by the HTML import', async () => {
  const page = await createPage(t, owner, { title: 'Экспорт прогресса' });
  expectOk(await api(t, owner.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'progress', data: { tokens, value: 40 } }), 201);

  const markdown = strFromU8((await exported(page.id, 'markdown'))['Экспорт прогресса.md']);
  expect(markdown).toContain('▓▓▓▓░░░░░░ 40 % Перевод **главы 3**');

  const jsonZip = zipSync(await exported(page.id, 'json'));
  const fromJson = body<{ page: { id: string } }>(await postImport(t, owner.cookie, jsonZip, { parentId: page.id })).data.page;
  expect(progressOf(body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${fromJson.id}/blocks`)).data)).toEqual([{ tokens, value: 40 }]);

  const html = await exported(page.id, 'html');
  const htmlName = Object.keys(html).find((name) => name.endsWith('.html'))!;
  expect(strFromU8(html[htmlName])).toContain('<progress value="40" max="100">');
  const res = await postImport(t, owner.cookie, zipSync(html), { parentId: page.id }, 'Экспорт прогресса.zip');
  expect(res.statusCode).toBe(201);
  const fromHtml = body<{ page: { id: string } }>(res).data.page;
  expect(progressOf(body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${fromHtml.id}/blocks`)).data)).toEqual([{ tokens, value: 40 }]);
});
