import { strFromU8, unzipSync, zipSync } from 'fflate';
import type { WireBlock } from '../../../schema/block';
import { postImport } from '../../../test/helpers/imports';
import { actor, createPage, type Actor } from '../../../test/helpers/pages';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString, type TestApp } from '../../../test/helpers/testApp';

/*
 * Columns through the real server, on SQLite and PostgreSQL (issue 39 §2): a column list with
 * its columns and their blocks is made as nested blocks (parentId), checked by the types'
 * schemas, and exported — Markdown writes the columns' blocks one after the other, unindented;
 * HTML writes flex boxes the HTML import reads back as the same columns; JSON keeps them whole.
 */

let t: TestApp;
let owner: Actor;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp({ sendCodeLimitPerIp: 10_000 });
  owner = await actor(t, 'columns-owner@example.com');
});
afterAll(async () => {
  await t.close();
});

const make = async (pageId: string, type: string, data: unknown, parentId: string | null = null, placeAfter: string | null = null) =>
  expectOk<WireBlock>(await api(t, owner.cookie, 'POST', `${S}/block`, { pageId, type, data, parentId, placeAfter }), 201);
const unzip = (raw: Buffer | string) => unzipSync(new Uint8Array(Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'binary')));
const exported = async (pageId: string, format: string) =>
  unzip((await api(t, owner.cookie, 'GET', `${S}/element/${pageId}/export?${jsonQueryString({ format })}`)).rawPayload);
const shapeOf = (blocks: WireBlock[]) => {
  const depth = new Map<string, number>();
  return blocks.map((b) => {
    const d = b.parentId ? depth.get(b.parentId)! + 1 : 0;
    depth.set(b.id, d);
    const text = (b.data as { tokens?: { text: string }[] }).tokens?.map((x) => x.text).join('') ?? '';
    return `${'  '.repeat(d)}${b.type}${b.type === 'column' ? `:${(b.data as { width: number | null }).width}` : ''}${text ? ` ${text}` : ''}`;
  });
};

test('made as nested blocks, checked, exported as Markdown, HTML and JSON and imported back', async () => {
  const page = await createPage(t, owner, { title: 'Сравнение' });
  const list = await make(page.id, 'columnList', {});
  const left = await make(page.id, 'column', { width: 0.6 }, list.id);
  await make(page.id, 'text', { tokens: [{ text: 'Плюсы' }] }, left.id);
  const right = await make(page.id, 'column', { width: 0.4 }, list.id, left.id);
  await make(page.id, 'text', { tokens: [{ text: 'Минусы' }] }, right.id);
  await make(page.id, 'text', { tokens: [{ text: 'Итог' }] }, null, list.id);
  for (const bad of [{ width: 0.01 }, { width: 'половина' }, {}]) {
    const res = await api(t, owner.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'column', data: bad, parentId: list.id });
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
  }
  const expected = ['columnList', '  column:0.6', '    text Плюсы', '  column:0.4', '    text Минусы', 'text Итог'];
  expect(shapeOf(body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${page.id}/blocks`)).data)).toEqual(expected);

  const markdown = strFromU8((await exported(page.id, 'markdown'))['Сравнение.md']);
  expect(markdown).toContain('Плюсы\n\nМинусы\n\nИтог');

  const fromJson = body<{ page: { id: string } }>(await postImport(t, owner.cookie, zipSync(await exported(page.id, 'json')), { parentId: page.id })).data.page;
  expect(shapeOf(body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${fromJson.id}/blocks`)).data)).toEqual(expected);

  const html = await exported(page.id, 'html');
  const htmlName = Object.keys(html).find((name) => name.endsWith('.html'))!;
  expect(strFromU8(html[htmlName])).toContain('<div data-columns');
  const res = await postImport(t, owner.cookie, zipSync(html), { parentId: page.id }, 'Сравнение.zip');
  expect(res.statusCode).toBe(201);
  const fromHtml = body<{ page: { id: string } }>(res).data.page;
  expect(shapeOf(body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${fromHtml.id}/blocks`)).data)).toEqual(expected);
});
