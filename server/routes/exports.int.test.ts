import { strFromU8, unzipSync, zipSync } from 'fflate';
import type { WireBlock } from '../../schema/block';
import type { WireRow } from '../../schema/database';
import { BLOCK_DEFINITIONS, codeBlock, type BlockUpgrade } from '../../schema/blocks';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import { newId } from '../../schema/ids';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString, type TestApp } from '../../test/helpers/testApp';
import { actor, createPage, share, type Actor } from '../../test/helpers/pages';
import { postImport } from '../../test/helpers/imports';
import type { JsonExport } from '../export/pageExport';
import { readExport } from '../export/readExport';
import { importAt, importPlace } from '../commands/export/exports';

/*
 * Export (issue 18) on SQLite and PostgreSQL: a page with its subpages as a zip of Markdown (its
 * picture beside it, links relative), HTML and JSON (the blocks exactly as the API gives them);
 * subpages the caller may not read are left out; who may export.
 */

let t: TestApp;
let owner: Actor;
let reader: Actor;
let outsider: Actor;
const S = '/api/v3/spaces';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  t = await createTestApp({ sendCodeLimitPerIp: 10_000 });
  owner = await actor(t, 'export-owner@example.com');
  reader = await actor(t, 'export-reader@example.com');
  outsider = await actor(t, 'export-outsider@example.com');
});
afterAll(async () => {
  await t.close();
});

async function upload(pageId: string): Promise<string> {
  const id = newId();
  const form = new FormData();
  form.append('pageId', pageId);
  form.append('id', id);
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'схема.png');
  const request = new Request('http://test.invalid/', { method: 'POST', body: form });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/file/page',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '', cookie: owner.cookie },
  });
  expect(res.statusCode).toBe(200);
  return id;
}

const add = async (pageId: string, type: string, data: Record<string, unknown>, placeAfter: string | null = null) =>
  expectOk<WireBlock>(await api(t, owner.cookie, 'POST', `${S}/block`, { pageId, type, data, placeAfter }), 201);

async function exported(pageId: string, params: Record<string, unknown>, who: Actor = owner) {
  const res = await api(t, who.cookie, 'GET', `${S}/element/${pageId}/export?${jsonQueryString(params)}`);
  return res;
}
const unzip = (raw: Buffer | string) => unzipSync(new Uint8Array(Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'binary')));

const importJson = (bytes: Uint8Array | Buffer, fields: Record<string, string>, who: Actor = owner, name = 'export.zip') =>
  postImport(t, who.cookie, bytes, fields, name);

let root: { id: string };
let child: { id: string };

beforeAll(async () => {
  root = await createPage(t, owner, { title: 'Отчёт: итоги' });
  child = await createPage(t, owner, { title: 'Приложение', parentId: root.id });
  const secret = await createPage(t, owner, { title: 'Черновик', parentId: root.id });
  const fileId = await upload(root.id);
  const h = await add(root.id, 'heading1', { tokens: [{ text: 'Итоги' }] });
  const p = await add(
    root.id,
    'text',
    { tokens: [{ text: 'Выручка ' }, { text: 'выросла', bold: true }, { text: ', см. ' }, { text: '↗', link: { href: `/${child.id}`, pageId: child.id } }] },
    h.id,
  );
  const img = await add(
    root.id,
    'image',
    { remoteData: { fileId, title: 'схема.png', size: PNG.length, mimeType: 'image/png' }, crop: null, scale: 1, align: 'center' },
    p.id,
  );
  await add(root.id, 'bulletList', { tokens: [{ text: 'пункт' }] }, img.id);
  await add(child.id, 'text', { tokens: [{ text: 'Таблицы и графики' }] });
  await add(secret.id, 'text', { tokens: [{ text: 'не для всех' }] });
  // The reader may read the appendix only (shared with them), not the report.
  await share(t, owner, child.id, [{ userId: reader.id, accessLevel: 'read' }]);
});

test('Markdown with subpages: a file per page under its parent, the picture beside it, links relative', async () => {
  const res = await exported(root.id, { format: 'markdown', subpages: true });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  expect(res.headers['content-disposition']).toBe(`attachment; filename="_____ _____.zip"; filename*=UTF-8''${encodeURIComponent('Отчёт итоги.zip')}`);
  const files = unzip(res.rawPayload);
  const names = Object.keys(files).sort();
  expect(names.filter((n) => n.endsWith('.md'))).toEqual(['Отчёт итоги.md', 'Отчёт итоги/Приложение.md', 'Отчёт итоги/Черновик.md']);
  const md = strFromU8(files['Отчёт итоги.md']);
  expect(md).toContain('# Отчёт: итоги\n\n# Итоги\n\nВыручка **выросла**, см. [↗](Отчёт%20итоги/Приложение.md)');
  const picture = /!\[схема\.png\]\(([^)]+)\)/.exec(md)![1];
  expect(Buffer.from(files[decodeURIComponent(picture)])).toEqual(PNG);
  expect(md).toContain('- пункт');
  expect(strFromU8(files['Отчёт итоги/Приложение.md'])).toBe('# Приложение\n\nТаблицы и графики\n');
  // Without subpages: the page alone.
  const alone = unzip((await exported(root.id, { format: 'markdown' })).rawPayload);
  expect(Object.keys(alone).filter((n) => n.endsWith('.md'))).toEqual(['Отчёт итоги.md']);
});

test('who may: a reader of a subpage exports it, not the page above it; an outsider nothing; a bad format 422', async () => {
  const files = unzip((await exported(child.id, { format: 'markdown', subpages: true }, reader)).rawPayload);
  expect(Object.keys(files)).toEqual(['Приложение.md']);
  expect((await exported(root.id, { format: 'markdown', subpages: true }, reader)).statusCode).toBe(403);
  expect((await exported(root.id, { format: 'markdown' }, outsider)).statusCode).toBe(403);
  expect((await exported(root.id, { format: 'pdf' })).statusCode).toBe(422);
  expect((await exported(newId(), {})).statusCode).toBe(404);
});

test('JSON: every page with its blocks exactly as the API gives them, and the files; HTML: a document per page', async () => {
  const files = unzip((await exported(root.id, { format: 'json', subpages: true })).rawPayload);
  const document = JSON.parse(strFromU8(files['export.json'])) as JsonExport;
  expect(document).toMatchObject({ format: 'blocknote-export', version: 1 });
  // Each block type's data version (all at 1 today): what an import after a shape change reads.
  expect(document.dataVersions).toEqual(Object.fromEntries(BLOCK_DEFINITIONS.map((definition) => [definition.wireType, 1])));
  expect(document.pages.map((p) => [p.title, p.parentId])).toEqual([
    ['Отчёт: итоги', null],
    ['Приложение', root.id],
    ['Черновик', root.id],
  ]);
  const api_ = body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${root.id}/blocks`)).data;
  expect(document.pages[0].blocks).toEqual(api_.map((b) => ({ id: b.id, type: b.type, data: b.data, parentId: b.parentId })));
  expect(document.files).toHaveLength(1);
  expect(Buffer.from(files[document.files[0].path])).toEqual(PNG);

  const html = unzip((await exported(root.id, { format: 'html', subpages: true })).rawPayload);
  const page = strFromU8(html['Отчёт итоги.html']);
  expect(page).toContain('<h1>Отчёт: итоги</h1>');
  expect(page).toContain('href="Отчёт итоги/Приложение.html"');
  expect(page).toMatch(/src="files\/[^"]+\/схема\.png"/);
});

describe('importing our JSON export', () => {
  /** A page's blocks with ids made positional (new ids on import): types, data, who is whose parent. */
  const shape = (blocks: WireBlock[], fileIds: Map<string, string>, pageIds: Map<string, string>) => {
    const index = new Map(blocks.map((b, i) => [b.id, i]));
    return blocks.map((b) => ({
      type: b.type,
      parent: b.parentId === null ? null : index.get(b.parentId),
      data: JSON.parse(
        JSON.stringify(b.data).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => fileIds.get(id) ?? pageIds.get(id) ?? id),
      ) as unknown,
    }));
  };

  test('round trip: exported as JSON and imported, the same pages and the same blocks (new ids, links and files following them); the files readable', async () => {
    const zip = (await exported(root.id, { format: 'json', subpages: true })).rawPayload;
    const target = await createPage(t, owner, { title: 'Архив' });
    const res = await importJson(zip, { parentId: target.id });
    expect(res.statusCode).toBe(201);
    const answer = body<{ page: { id: string; title: string }; pages: number; blocks: number; files: number; problems: unknown[] }>(res).data;
    expect([answer.pages, answer.files, answer.problems]).toEqual([3, 1, []]);
    expect(answer.page.title).toBe('Отчёт: итоги');
    const before = JSON.parse(strFromU8(unzip(zip)['export.json'])) as JsonExport;
    const after = JSON.parse(strFromU8(unzip((await exported(answer.page.id, { format: 'json', subpages: true })).rawPayload)['export.json'])) as JsonExport;
    expect(after.pages.map((p) => p.title)).toEqual(before.pages.map((p) => p.title));
    // Ids: old → new, by position.
    const pageIds = new Map(after.pages.map((p, i) => [p.id, before.pages[i].id]));
    const fileIds = new Map(after.files.map((f, i) => [f.id, before.files[i].id]));
    for (const [i, page] of after.pages.entries()) {
      expect(shape(page.blocks as WireBlock[], fileIds, pageIds)).toEqual(shape(before.pages[i].blocks as WireBlock[], new Map(), new Map()));
    }
    // The page link points at the imported appendix, not the original.
    expect(JSON.stringify(after.pages[0].blocks)).toContain(after.pages[1].id);
    expect(JSON.stringify(after.pages[0].blocks)).not.toContain(child.id);
    const file = await api(t, owner.cookie, 'GET', `/api/file/${after.files[0].id}`);
    expect([file.statusCode, Buffer.from(file.rawPayload).equals(PNG)]).toEqual([200, true]);
  });

  test('what is not our export is refused (422) and nothing is made; who may not edit the place may not import there', async () => {
    const before = await t.app.db
      .selectFrom('pages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const bad of [Buffer.from('not json'), Buffer.from(JSON.stringify({ format: 'other' })), Buffer.from('PK\u0003\u0004broken')]) {
      const res = await importJson(bad, { section: 'private' });
      expect(res.statusCode).toBe(422);
    }
    const after = await t.app.db
      .selectFrom('pages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const zip = (await exported(root.id, { format: 'json' })).rawPayload;
    expect((await importJson(zip, { parentId: child.id }, reader)).statusCode).toBe(403);
    expect((await importJson(zip, { parentId: root.id }, outsider)).statusCode).toBe(403);
    // Into the importer's own private section: fine.
    expect((await importJson(zip, { section: 'private' }, outsider)).statusCode).toBe(201);
  });

  test('an export from before a block type changed shape: its blocks come in at today’s shape (dataVersions, absent: 1); from a newer server: reported, not stored', async () => {
    // Code blocks given a step, as a later change would ship: they once kept their text as a string.
    const fromText: BlockUpgrade = {
      name: 'code: text → tokens',
      up: ({ text, ...rest }) => ({ ...rest, tokens: typeof text === 'string' && text !== '' ? [{ text }] : [] }),
    };
    const before = codeBlock.upgrades;
    Object.assign(codeBlock, { upgrades: [fromText] });
    try {
      const exportOf = (dataVersions?: Record<string, number>) => {
        const blocks = [
          { id: 'b', type: 'code', data: { text: 'print(1)', language: 'python' }, parentId: null },
          { id: 'c', type: 'text', data: { tokens: [{ text: 'рядом' }] }, parentId: null },
        ];
        return Buffer.from(
          JSON.stringify({
            format: 'blocknote-export',
            version: 1,
            dataVersions,
            pages: [{ id: 'a', parentId: null, type: 'Note', title: 'Старый код', blocks }],
          }),
        );
      };
      // Read here, not through the route: its worker thread loads the block types as they ship, without the step given above.
      const importJsonHere = async (bytes: Buffer) => {
        const read = await readExport(new Uint8Array(bytes), 'export.json');
        const place = await importPlace(t.app.db, owner.id, { parentId: null, section: 'private', workspaceId: owner.workspaceId });
        const report = await importAt(t.app.db, owner.id, place, read, { store: t.app.fileStore });
        return { page: report.pages[0], problems: [...read.problems, ...report.problems] };
      };
      for (const versions of [{ code: 1, text: 1 }, undefined]) {
        const answer = await importJsonHere(exportOf(versions));
        const blocks = body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${answer.page.id}/blocks`)).data;
        expect(blocks.map((b) => [b.type, b.data])).toEqual([
          ['code', { tokens: [{ text: 'print(1)' }], language: 'python' }],
          ['text', { tokens: [{ text: 'рядом' }] }],
        ]);
        expect(answer.problems).toEqual([]);
      }
      const newer = await importJsonHere(exportOf({ code: 2 }));
      // At version 2 (today's) its old-shaped data does not fit: reported, and the text block still comes.
      expect(newer.problems).toHaveLength(1);
      const kept = body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${newer.page.id}/blocks`)).data;
      expect(kept.map((b) => b.type)).toEqual(['text']);
      const future = await importJsonHere(exportOf({ code: 3 }));
      expect(future.problems).toHaveLength(1);
    } finally {
      Object.assign(codeBlock, { upgrades: before });
    }
  });
});

/** `POST import` of a file named `name` (Markdown, HTML: read by its name). */
async function importNamed(bytes: Uint8Array | Buffer, fields: Record<string, string>, name: string, who: Actor = owner) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const request = new Request('http://test.invalid/', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: `${S}/import`,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '', cookie: who.cookie },
  });
}

describe('importing Markdown', () => {
  const importFile = importNamed;
  const sameFiles = (text: string) => text.replace(/files\/[0-9a-f-]{36}\//g, 'files/ID/');

  test('round trip: our Markdown zip imported and exported again gives the same text structure — pages, subpages, the picture, the link', async () => {
    const first = unzip((await exported(root.id, { format: 'markdown', subpages: true })).rawPayload);
    const zip = (await exported(root.id, { format: 'markdown', subpages: true })).rawPayload;
    const target = await createPage(t, owner, { title: 'Из Markdown' });
    const res = await importFile(zip, { parentId: target.id }, 'Отчёт итоги.zip');
    expect(res.statusCode).toBe(201);
    const answer = body<{ page: { id: string; title: string }; pages: number; files: number; problems: unknown[] }>(res).data;
    expect([answer.page.title, answer.pages, answer.files, answer.problems]).toEqual(['Отчёт: итоги', 3, 1, []]);
    const again = unzip((await exported(answer.page.id, { format: 'markdown', subpages: true })).rawPayload);
    const md = (files: Record<string, Uint8Array>) =>
      Object.fromEntries(
        Object.entries(files)
          .filter(([n]) => n.endsWith('.md'))
          .map(([n, bytes]) => [n, sameFiles(strFromU8(bytes))]),
      );
    expect(md(again)).toEqual(md(first));
  });

  test('one .md file: its name is the title when it has no heading; what it cannot take is reported', async () => {
    const text = 'Список:\n\n- [x] молоко\n- [ ] хлеб\n\n![фото](photo.png)\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n';
    const res = await importFile(Buffer.from(text), { section: 'private' }, 'Заметки.md');
    expect(res.statusCode).toBe(201);
    const answer = body<{ page: { id: string; title: string }; problems: Array<{ message: string }> }>(res).data;
    expect(answer.page.title).toBe('Заметки');
    expect(answer.problems.map((p) => p.message)).toEqual(['a picture not in the import (photo.png) is left out']);
    const blocks = body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${answer.page.id}/blocks`)).data;
    expect(blocks.map((b) => b.type)).toEqual(['text', 'checkbox', 'checkbox', 'table']);
    expect(blocks[1].data).toMatchObject({ checked: true, tokens: [{ text: 'молоко' }] });
  });

  test('text a file holds that cannot be stored (NUL, a lone surrogate) is made storable, on both databases: the import is not refused', async () => {
    const res = await importFile(Buffer.from('# Ноль\u0000 и одна\n\nтекст\u0000 с нулём 😀\n'), { section: 'private' }, 'Ноль.md');
    expect(res.statusCode).toBe(201);
    const answer = body<{ page: { id: string; title: string } }>(res).data;
    expect(answer.page.title).toBe('Ноль и одна');
    const blocks = body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${answer.page.id}/blocks`)).data;
    expect(blocks[0].data).toMatchObject({ tokens: [{ text: 'текст с нулём 😀' }] });
    // A lone surrogate can only come escaped in JSON: it becomes U+FFFD.
    const json =
      '{"format":"blocknote-export","version":1,"pages":[{"id":"a","parentId":null,"type":"Note","title":"по\\ud800ловина","blocks":[{"id":"b","type":"text","data":{"tokens":[{"text":"x\\udc00y\\u0000"}]},"parentId":null}]}],"files":[]}';
    const half = body<{ page: { id: string; title: string } }>(await importFile(Buffer.from(json), { section: 'private' }, 'export.json')).data;
    expect(half.page.title).toBe('по\ufffdловина');
    const halfBlocks = body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${half.page.id}/blocks`)).data;
    expect(halfBlocks[0].data).toMatchObject({ tokens: [{ text: 'x\ufffdy' }] });
  });
});

describe('importing HTML', () => {
  const importFile = importNamed;
  type Answer = { page: { id: string; title: string }; pages: number; blocks: number; files: number; problems: Array<{ page: string; message: string }> };
  const blocksOf = async (pageId: string) => body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${pageId}/blocks`)).data;
  /** Blocks with their ids made positional and the ids in their data (files, pages) mapped by `ids`. */
  const shape = (blocks: ReadonlyArray<Pick<WireBlock, 'id' | 'type' | 'data' | 'parentId'>>, ids: Map<string, string>) => {
    const index = new Map(blocks.map((b, i) => [b.id, i]));
    return blocks.map((b) => ({
      type: b.type,
      parent: b.parentId === null ? null : index.get(b.parentId),
      data: JSON.parse(JSON.stringify(b.data).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => ids.get(id) ?? id)) as unknown,
    }));
  };

  test('round trip: our HTML export of a page (headings, nested lists, to-dos, quote, code, table, picture, a link to its subpage) imported gives the same pages and blocks', async () => {
    const page = await createPage(t, owner, { title: 'Квартал: HTML' });
    const sub = await createPage(t, owner, { title: 'Подробности', parentId: page.id });
    const fileId = await upload(page.id);
    let last: string | null = null;
    const put = async (type: string, data: Record<string, unknown>, parentId: string | null = null) => {
      const block = expectOk<WireBlock>(
        await api(t, owner.cookie, 'POST', `${S}/block`, { pageId: page.id, type, data, parentId, placeAfter: parentId ? null : last }),
        201,
      );
      if (!parentId) last = block.id;
      return block;
    };
    await put('heading1', { tokens: [{ text: 'Итоги' }] });
    await put('heading2', { tokens: [{ text: 'Выручка' }] });
    await put('text', {
      tokens: [
        { text: 'Выросла ' },
        { text: 'на 10%', bold: true },
        { text: ', ' },
        { text: 'курсив', italic: true },
        { text: ', см. ' },
        { text: '↗', link: { href: `/${sub.id}`, pageId: sub.id } },
        { text: ' и ' },
        { text: 'сайт', link: { href: 'https://example.com/' } },
      ],
    });
    const item = await put('bulletList', { tokens: [{ text: 'Пункт' }] });
    await put('bulletList', { tokens: [{ text: 'Подпункт' }] }, item.id);
    await put('orderedList', { tokens: [{ text: 'Первый' }] });
    await put('orderedList', { tokens: [{ text: 'Второй' }] });
    await put('checkbox', { tokens: [{ text: 'Сделано' }], checked: true });
    await put('checkbox', { tokens: [{ text: 'Не сделано' }], checked: false });
    await put('quote', { tokens: [{ text: 'Цитата' }] });
    await put('code', { tokens: [{ text: 'const a = 1;\nconsole.log(a);' }], language: 'typescript' });
    await put('table', {
      tokens: [
        { text: 'Ключ', tableAddress: { x: 0, y: 0 } },
        { text: 'Значение', tableAddress: { x: 1, y: 0 } },
        { text: 'a', tableAddress: { x: 0, y: 1 } },
        { text: 'b', tableAddress: { x: 1, y: 1 } },
      ],
      tableLayout: { columns: 2, rows: 2, columnSizes: [120, 120] },
      headerRow: true,
      headerColumn: false,
    });
    await put('image', { remoteData: { fileId, title: 'схема.png', size: PNG.length, mimeType: 'image/png' }, crop: null, scale: 0.5, align: 'left' });
    await put('divider', {});
    expectOk(await api(t, owner.cookie, 'POST', `${S}/block`, { pageId: sub.id, type: 'text', data: { tokens: [{ text: 'Таблицы и графики' }] } }), 201);

    const html = unzip((await exported(page.id, { format: 'html', subpages: true })).rawPayload);
    expect(
      Object.keys(html)
        .filter((n) => n.endsWith('.html'))
        .sort(),
    ).toEqual(['Квартал HTML.html', 'Квартал HTML/Подробности.html']);
    const zip = zipSync(html);
    const target = await createPage(t, owner, { title: 'Из HTML' });
    const res = await importFile(zip, { parentId: target.id }, 'Квартал HTML.zip');
    expect(res.statusCode).toBe(201);
    const answer = body<Answer>(res).data;
    expect([answer.page.title, answer.pages, answer.files, answer.problems]).toEqual(['Квартал: HTML', 2, 1, []]);
    const before = JSON.parse(strFromU8(unzip((await exported(page.id, { format: 'json', subpages: true })).rawPayload)['export.json'])) as JsonExport;
    const after = JSON.parse(strFromU8(unzip((await exported(answer.page.id, { format: 'json', subpages: true })).rawPayload)['export.json'])) as JsonExport;
    expect(after.pages.map((p) => [p.title, p.parentId === null ? null : after.pages.findIndex((q) => q.id === p.parentId)])).toEqual([
      ['Квартал: HTML', null],
      ['Подробности', 0],
    ]);
    const ids = new Map([...after.pages.map((p, i) => [p.id, before.pages[i].id] as const), ...after.files.map((f, i) => [f.id, before.files[i].id] as const)]);
    for (const [i, copy] of after.pages.entries()) expect(shape(copy.blocks, ids)).toEqual(shape(before.pages[i].blocks, new Map()));
    // The link points at the imported subpage; the picture is a new file with the same bytes.
    expect(JSON.stringify(after.pages[0].blocks)).toContain(`"pageId":"${after.pages[1].id}"`);
    expect(after.files[0].id).not.toBe(fileId);
    const file = await api(t, owner.cookie, 'GET', `/api/file/${after.files[0].id}`);
    expect([file.statusCode, Buffer.from(file.rawPayload).equals(PNG)]).toEqual([200, true]);
  });

  test('one .html file: sanitized (no script or handler stored), what it cannot take reported; nothing readable 422; who may not edit the place 403 before it is read', async () => {
    const html =
      '<!doctype html><html><head><title>Опасная страница</title><script>alert("head")</script></head><body>' +
      '<h2 onclick="alert(\'h\')">Заголовок</h2><p>Текст <img src="https://example.com/x.png" onerror="alert(\'img\')" alt="картинка"> <a href="javascript:alert(\'a\')">ссылка</a></p>' +
      '<script>alert("body")</script><img src="missing.png"></body></html>';
    const res = await importFile(Buffer.from(html), { section: 'private' }, 'страница.html');
    expect(res.statusCode).toBe(201);
    const answer = body<Answer>(res).data;
    expect(answer.page.title).toBe('Опасная страница');
    expect(answer.problems).toEqual([
      { page: 'Опасная страница', code: 'pictureMissing', params: { src: 'missing.png' }, message: 'a picture not in the import (missing.png) is left out' },
    ]);
    const blocks = await blocksOf(answer.page.id);
    expect(JSON.stringify(blocks)).not.toMatch(/alert|script|onerror|onclick|javascript/i);
    expect(blocks.map((b) => [b.type, b.data])).toEqual([
      ['heading2', { tokens: [{ text: 'Заголовок' }] }],
      ['text', { tokens: [{ text: 'Текст ' }, { text: 'картинка', link: { href: 'https://example.com/x.png' } }, { text: ' ссылка' }] }],
    ]);

    const count = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('pages')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const pagesBefore = await count();
    const empty = await importFile(Buffer.from('<html><body><script>alert(1)</script>  </body></html>'), { section: 'private' }, 'пусто.html');
    expect([empty.statusCode, errorCode(empty)]).toEqual([422, 'validation_failed']);
    expect(
      (await importFile(zipSync({ 'a.html': new Uint8Array([0, 1, 2]), 'b.htm': Buffer.from('<p> </p>') }), { section: 'private' }, 'a.zip')).statusCode,
    ).toBe(422);
    expect(await count()).toBe(pagesBefore);
    // A reader of the page may not import under it; an outsider not at all: refused before the file is read (an unreadable one too).
    expect((await importFile(Buffer.from(html), { parentId: child.id }, 'x.html', reader)).statusCode).toBe(403);
    expect((await importFile(Buffer.from('<p> </p>'), { parentId: root.id }, 'x.html', outsider)).statusCode).toBe(403);
  });
});

test('a database page: its rows as CSV beside it, and each row a page with its fields and blocks', async () => {
  const holder = await createPage(t, owner, { title: 'Клиенты', type: 'Database' });
  const [database] = body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${holder.id}/blocks`)).data;
  expectOk(await api(t, owner.cookie, 'POST', `${S}/database/${database.id}/fields`, { id: 'city', field: { name: 'Город', type: 'text' } }));
  const rows = expectOk<Array<{ id: string }>>(
    await api(t, owner.cookie, 'POST', `${S}/database/${database.id}/rows`, {
      rows: [
        { title: 'Ромашка', values: { city: 'Казань' } },
        { title: 'Лютик', values: {} },
      ],
    }),
    201,
  );
  await add(rows[0].id, 'text', { tokens: [{ text: 'Звонить по вторникам' }] });
  const files = unzip((await exported(holder.id, { format: 'markdown' })).rawPayload);
  expect(Object.keys(files).sort()).toEqual(['Клиенты.csv', 'Клиенты.md', 'Клиенты/Лютик.md', 'Клиенты/Ромашка.md']);
  // With a byte-order mark, for spreadsheets (a decoder drops it).
  expect([...files['Клиенты.csv'].slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(strFromU8(files['Клиенты.csv'])).toBe('Название,Город\r\nРомашка,Казань\r\nЛютик,\r\n');
  expect(strFromU8(files['Клиенты/Ромашка.md'])).toBe('# Ромашка\n\n- **Город**: Казань\n\nЗвонить по вторникам\n');
});

test('JSON round trip of a database page: fields, views, rows in order with their values and blocks; relations follow the new rows, people outside the workspace are reported', async () => {
  const holder = await createPage(t, owner, { title: 'Задачи', type: 'Database' });
  const [database] = body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${holder.id}/blocks`)).data;
  const field = async (id: string, definition: Record<string, unknown>) =>
    expectOk(await api(t, owner.cookie, 'POST', `${S}/database/${database.id}/fields`, { id, field: definition }));
  await field('stage', {
    name: 'Этап',
    type: 'select',
    options: [
      { id: 'a', name: 'План' },
      { id: 'b', name: 'Готово' },
    ],
  });
  await field('cost', { name: 'Стоимость', type: 'number' });
  await field('due', { name: 'Срок', type: 'date' });
  await field('who', { name: 'Кто', type: 'person' });
  await field('after', { name: 'После', type: 'relation' });
  await field('docs', { name: 'Файлы', type: 'files' });
  // A formula: its values are computed again where it is imported, never refused as written values.
  await field('vat', { name: 'С НДС', type: 'formula', expression: 'round(prop("cost") * 1.2, 2)' });
  // A unique ID: its numbers travel and the imported database goes on after the highest.
  await field('num', { name: 'Номер', type: 'uniqueId', prefix: 'ЗАДАЧА' });
  const [first, second, third] = expectOk<Array<{ id: string }>>(
    await api(t, owner.cookie, 'POST', `${S}/database/${database.id}/rows`, {
      rows: [
        { title: 'Смета', values: { stage: 'b', cost: 1200.5, due: '2026-12-01', who: [owner.id] } },
        { title: 'Закупка', values: { stage: 'a', due: { start: '2026-12-02', end: '2026-12-05' } } },
        { title: 'Монтаж', values: {} },
      ],
    }),
    201,
  );
  expectOk(await api(t, owner.cookie, 'POST', `${S}/row/${second.id}/cells/after`, { value: [first.id], version: 0 }));
  const fileId = await upload(third.id);
  expectOk(await api(t, owner.cookie, 'POST', `${S}/row/${third.id}/cells/docs`, { value: [{ id: fileId, name: 'схема.png' }], version: 0 }));
  expectOk(await api(t, owner.cookie, 'POST', `${S}/row/${third.id}/cells/after`, { value: [first.id, second.id], version: 0 }));
  await add(second.id, 'text', { tokens: [{ text: 'Сначала ' }, { text: 'смета', link: { href: `/${first.id}`, pageId: first.id } }] });
  const zip = (await exported(holder.id, { format: 'json' })).rawPayload;
  const before = JSON.parse(strFromU8(unzip(zip)['export.json'])) as JsonExport;
  expect(before.pages[0].databases?.[0].rows.map((r) => r.title)).toEqual(['Смета', 'Закупка', 'Монтаж']);

  // Into the reader's own workspace: the owner is no member there, so «Кто» keeps nobody and says so.
  const res = await importJson(zip, { section: 'private' }, reader);
  expect(res.statusCode).toBe(201);
  const answer = body<{ page: { id: string; type: string }; problems: Array<{ message: string }> }>(res).data;
  expect(answer.page.type).toBe('Database');
  expect(answer.problems.map((p) => p.message)).toEqual(['person fields named 1 people who are not members of this workspace: left out']);
  const after = JSON.parse(strFromU8(unzip((await exported(answer.page.id, { format: 'json' }, reader)).rawPayload)['export.json'])) as JsonExport;
  const [copy] = after.pages[0].blocks;
  expect(copy.type).toBe('database');
  expect(copy.data).toEqual(before.pages[0].blocks[0].data);
  const rows = after.pages[0].databases![0].rows;
  expect(rows.map((r) => r.title)).toEqual(['Смета', 'Закупка', 'Монтаж']);
  expect(rows.every((r) => ![first.id, second.id, third.id].includes(r.id))).toBe(true);
  // A formula's values are not in the export (computed: the importer computes them); unique IDs are.
  expect(rows[0].values).toEqual({ stage: 'b', cost: 1200.5, due: '2026-12-01', num: 1 });
  expect(rows[1].values).toEqual({ stage: 'a', due: { start: '2026-12-02', end: '2026-12-05' }, after: [rows[0].id], num: 2 });
  expect(rows[2].values).toEqual({ after: [rows[0].id, rows[1].id], docs: [{ id: after.files[0].id, name: 'схема.png' }], num: 3 });
  // The row's file is a new one, the row's, with the same bytes.
  expect(after.files[0].id).not.toBe(fileId);
  const file = await api(t, reader.cookie, 'GET', `/api/file/${after.files[0].id}`);
  expect([file.statusCode, Buffer.from(file.rawPayload).equals(PNG)]).toEqual([200, true]);
  // The row's own blocks came too, its link following the copied row.
  expect(rows[1].blocks).toHaveLength(1);
  expect(rows[1].blocks[0].data).toMatchObject({ tokens: [{ text: 'Сначала ' }, { text: 'смета', link: { href: `/${rows[0].id}`, pageId: rows[0].id } }] });
  // The rows are real rows of the new database: the rows API reads them.
  const listed = body<Array<{ data: { title: string; values: Record<string, unknown> } }>>(
    await api(t, reader.cookie, 'GET', `${S}/database/${copy.id}/rows?${jsonQueryString({ limit: 10 })}`),
  ).data;
  expect(listed.map((r) => r.data.title)).toEqual(['Смета', 'Закупка', 'Монтаж']);
  expect(listed.map((r) => r.data.values.vat ?? null)).toEqual([1440.6, null, null]);
  // A row made in the copy: the next number.
  const made = expectOk<Array<{ data: { values: Record<string, unknown> } }>>(
    await api(t, reader.cookie, 'POST', `${S}/database/${copy.id}/rows`, { rows: [{ title: 'Сдача' }] }),
    201,
  );
  expect(made[0].data.values.num).toBe(4);
  // Imported into the owner's own workspace the people stay.
  const again = body<{ page: { id: string }; problems: unknown[] }>(await importJson(zip, { section: 'private' })).data;
  expect(again.problems).toEqual([]);
  const kept = JSON.parse(strFromU8(unzip((await exported(again.page.id, { format: 'json' })).rawPayload)['export.json'])) as JsonExport;
  expect(kept.pages[0].databases![0].rows[0].values.who).toEqual([owner.id]);
});

test('JSON round trip of two databases related both ways with a rollup: the relation names the copy of the other database, its cells the copied rows, the rollup computed there; a relation to a database left out names none', async () => {
  const folder = await createPage(t, owner, { title: 'Проекты и задачи' });
  const made = async (title: string) => {
    const holder = await createPage(t, owner, { title, type: 'Database', parentId: folder.id });
    return body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${holder.id}/blocks`)).data[0].id;
  };
  const tasks = await made('Задачи');
  const projects = await made('Проекты');
  expectOk(await api(t, owner.cookie, 'POST', `${S}/database/${tasks}/fields`, { id: 'hours', field: { name: 'Часы', type: 'number' } }));
  const taskRows = expectOk<Array<{ id: string }>>(
    await api(t, owner.cookie, 'POST', `${S}/database/${tasks}/rows`, {
      rows: [
        { title: 'А', values: { hours: 2 } },
        { title: 'Б', values: { hours: 5 } },
      ],
    }),
    201,
  );
  expectOk(
    await api(t, owner.cookie, 'POST', `${S}/database/${projects}/fields`, {
      id: 'tasks',
      field: { name: 'Задачи', type: 'relation', databaseId: tasks, twoWay: { fieldId: 'project' } },
    }),
  );
  expectOk<Array<{ id: string }>>(
    await api(t, owner.cookie, 'POST', `${S}/database/${projects}/rows`, { rows: [{ title: 'Сайт', values: { tasks: taskRows.map((r) => r.id) } }] }),
    201,
  );
  expectOk(
    await api(t, owner.cookie, 'POST', `${S}/database/${projects}/fields`, {
      id: 'sum',
      field: { name: 'Часов', type: 'rollup', relationFieldId: 'tasks', targetFieldId: 'hours', calculation: 'sum' },
    }),
  );
  const zip = (await exported(folder.id, { format: 'json', subpages: true })).rawPayload;
  const answer = body<{ page: { id: string }; problems: unknown[] }>(await importJson(zip, { section: 'private' })).data;
  expect(answer.problems).toEqual([]);
  const copied = JSON.parse(strFromU8(unzip((await exported(answer.page.id, { format: 'json', subpages: true })).rawPayload)['export.json'])) as JsonExport;
  const databaseOf = (title: string) => {
    const page = copied.pages.find((p) => p.title === title)!;
    return { block: page.blocks.find((b) => b.type === 'database')!, rows: page.databases![0].rows };
  };
  const newTasks = databaseOf('Задачи');
  const newProjects = databaseOf('Проекты');
  expect([newTasks.block.id, newProjects.block.id]).not.toContain(tasks);
  const fields = (block: { data: unknown }) => (block.data as DatabaseData).config.fields as Record<string, Record<string, unknown>>;
  expect(fields(newProjects.block).tasks).toMatchObject({ databaseId: newTasks.block.id, twoWay: { fieldId: 'project' } });
  expect(fields(newTasks.block).project).toMatchObject({ databaseId: newProjects.block.id, twoWay: { fieldId: 'tasks' } });
  expect(newProjects.rows[0].values.tasks).toEqual(newTasks.rows.map((r) => r.id));
  expect(newTasks.rows.map((r) => r.values.project)).toEqual([[newProjects.rows[0].id], [newProjects.rows[0].id]]);
  const listed = body<Array<{ data: { values: Record<string, unknown> } }>>(
    await api(t, owner.cookie, 'GET', `${S}/database/${newProjects.block.id}/rows?${jsonQueryString({ limit: 10 })}`),
  ).data;
  expect(listed[0].data.values.sum).toBe(7);
  // The copy's rollup follows the copy's tasks, not the original's.
  const version = body<{ versions: Record<string, number> }>(await api(t, owner.cookie, 'GET', `${S}/row/${newTasks.rows[0].id}`)).data.versions.hours;
  expectOk(await api(t, owner.cookie, 'POST', `${S}/row/${newTasks.rows[0].id}/cells/hours`, { value: 10, version }));
  const again = body<Array<{ data: { values: Record<string, unknown> } }>>(
    await api(t, owner.cookie, 'GET', `${S}/database/${newProjects.block.id}/rows?${jsonQueryString({ limit: 10 })}`),
  ).data;
  expect(again[0].data.values.sum).toBe(15);

  // The projects alone: their relation names no other database (the tasks are not here), its cells are empty.
  const alone = (await exported(body<WireBlock>(await api(t, owner.cookie, 'GET', `${S}/block/${projects}`)).data.pageId, { format: 'json' })).rawPayload;
  const lone = body<{ page: { id: string } }>(await importJson(alone, { section: 'private' })).data;
  const loneExport = JSON.parse(strFromU8(unzip((await exported(lone.page.id, { format: 'json' })).rawPayload)['export.json'])) as JsonExport;
  const loneBlock = loneExport.pages[0].blocks.find((b) => b.type === 'database')!;
  expect(fields(loneBlock).tasks.databaseId).toBeUndefined();
  expect(fields(loneBlock).tasks.twoWay).toBeUndefined();
  expect(loneExport.pages[0].databases![0].rows[0].values.tasks).toBeUndefined();
});

test('JSON round trip of a database’s row templates: their values, titles and content come back as templates, the default one still the default, none a row', async () => {
  const holder = await createPage(t, owner, { title: 'Встречи', type: 'Database' });
  const db = body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${holder.id}/blocks`)).data[0].id;
  expectOk(await api(t, owner.cookie, 'POST', `${S}/database/${db}/fields`, { id: 'place', field: { name: 'Место', type: 'text' } }));
  expectOk(await api(t, owner.cookie, 'POST', `${S}/database/${db}/fields`, { id: 'num', field: { name: 'Номер', type: 'uniqueId' } }));
  expectOk(await api(t, owner.cookie, 'POST', `${S}/database/${db}/rows`, { rows: [{ title: 'Планёрка' }] }), 201);
  const template = expectOk<{ id: string }>(
    await api(t, owner.cookie, 'POST', `${S}/database/${db}/templates`, { title: 'Созвон', icon: '📞', values: { place: 'Zoom' } }),
    201,
  );
  expectOk(await api(t, owner.cookie, 'POST', `${S}/block`, { pageId: template.id, type: 'text', data: { tokens: [{ text: 'Повестка' }] } }), 201);
  expectOk(await api(t, owner.cookie, 'POST', `${S}/database/${db}/templates/default`, { templateId: template.id }));

  const zip = (await exported(holder.id, { format: 'json' })).rawPayload;
  const answer = body<{ page: { id: string }; problems: unknown[] }>(await importJson(zip, { section: 'private' })).data;
  expect(answer.problems).toEqual([]);
  const copy = body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${answer.page.id}/blocks`)).data[0].id;
  const templates = body<Array<{ id: string; title: string; icon: string | null; isDefault: boolean }>>(
    await api(t, owner.cookie, 'GET', `${S}/database/${copy}/templates`),
  ).data;
  expect(templates.map((x) => [x.title, x.icon, x.isDefault])).toEqual([['Созвон', '📞', true]]);
  expect(templates[0].id).not.toBe(template.id);
  const blocks = body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${templates[0].id}/blocks`)).data;
  expect(blocks.map((b) => (b.data as { tokens: Array<{ text: string }> }).tokens[0].text)).toEqual(['Повестка']);
  // Only the row is a row; a row made from the copied template takes its value and the next number.
  const listed = body<WireRow[]>(await api(t, owner.cookie, 'GET', `${S}/database/${copy}/rows?${jsonQueryString({ limit: 10 })}`)).data;
  expect(listed.map((r) => [r.data.title, r.data.values.num])).toEqual([['Планёрка', 1]]);
  const [fromTemplate] = expectOk<WireRow[]>(
    await api(t, owner.cookie, 'POST', `${S}/database/${copy}/rows`, { rows: [{ templateId: templates[0].id }] }),
    201,
  );
  expect([fromTemplate.data.title, fromTemplate.data.values.place, fromTemplate.data.values.num]).toEqual(['Созвон', 'Zoom', 2]);
});

test("JSON with comments: threads, times and files come back; another's comments are the importer's, starting with their author's name and date, reported", async () => {
  const page = await createPage(t, owner, { title: 'Обсуждение' });
  const fileId = await upload(page.id);
  const top = expectOk<{ id: string }>(
    await api(t, owner.cookie, 'POST', `${S}/element/${page.id}/comments`, {
      content: [{ text: 'Проверьте цифры' }],
      attaches: [{ id: fileId, name: 'схема.png', extension: 'png' }],
    }),
    201,
  );
  expectOk(await api(t, owner.cookie, 'POST', `${S}/element/${page.id}/comments`, { content: [{ text: 'Проверил' }], repliedComment: top.id }), 201);
  const deleted = expectOk<{ id: string }>(await api(t, owner.cookie, 'POST', `${S}/element/${page.id}/comments`, { content: [{ text: 'лишнее' }] }), 201);
  expect((await api(t, owner.cookie, 'DELETE', `${S}/element/${page.id}/comments/${deleted.id}`)).statusCode).toBeLessThan(300);
  // Without `comments` the export carries none.
  const plain = JSON.parse(strFromU8(unzip((await exported(page.id, { format: 'json' })).rawPayload)['export.json'])) as JsonExport;
  expect(plain.pages[0].comments).toBeUndefined();
  const zip = (await exported(page.id, { format: 'json', comments: true })).rawPayload;
  const before = JSON.parse(strFromU8(unzip(zip)['export.json'])) as JsonExport;
  expect(before.pages[0].comments?.map((c) => [c.content[0].text, c.repliedTo === null])).toEqual([
    ['Проверьте цифры', true],
    ['Проверил', false],
  ]);

  type Listed = { id: string; content: Array<{ text: string }>; author: { id: string }; attaches: Array<{ id: string }>; createdAt: string };
  const mine = body<{ page: { id: string }; problems: unknown[] }>(await importJson(zip, { section: 'private' })).data;
  expect(mine.problems).toEqual([]);
  const comments = body<Listed[]>(await api(t, owner.cookie, 'GET', `${S}/element/${mine.page.id}/comments`)).data;
  expect(comments.map((c) => [c.content[0].text, c.author.id, c.createdAt])).toEqual([['Проверьте цифры', owner.id, before.pages[0].comments![0].createdAt]]);
  expect(comments[0].attaches[0].id).not.toBe(fileId);
  expect((await api(t, owner.cookie, 'GET', `/api/file/${comments[0].attaches[0].id}`)).statusCode).toBe(200);
  const replies = body<Listed[]>(await api(t, owner.cookie, 'GET', `${S}/comment/${comments[0].id}/comments`)).data;
  expect(replies.map((c) => c.content[0].text)).toEqual(['Проверил']);

  const theirs = body<{ page: { id: string }; problems: Array<{ message: string }> }>(await importJson(zip, { section: 'private' }, reader)).data;
  expect(theirs.problems.map((p) => p.message)).toEqual(["2 comments by other people are now the importer's, each starting with its author's name and date"]);
  const adopted = body<Listed[]>(await api(t, reader.cookie, 'GET', `${S}/element/${theirs.page.id}/comments`)).data;
  const day = (iso: string) => iso.slice(0, 10).split('-').reverse().join('.');
  // The owner is named by the local part of their e-mail (their name when they signed in).
  const line = `export-owner, ${day(before.pages[0].comments![0].createdAt)}: `;
  expect(adopted.map((c) => [c.author.id, c.content.map((token) => token.text)])).toEqual([[reader.id, [line, 'Проверьте цифры']]]);
});

test('a page holding a database: in its Markdown and HTML, the first view as a table (its fields, filter and order; the titles linking to the rows’ files) and a link to the CSV', async () => {
  const page = await createPage(t, owner, { title: 'Поставки' });
  const before = await add(page.id, 'text', { tokens: [{ text: 'Перед таблицей' }] });
  const database = await add(
    page.id,
    'database',
    {
      title: 'Заказы',
      config: {
        fields: {
          [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
          sum: { name: 'Сумма', type: 'number', format: 'plain' },
          note: { name: 'Заметка', type: 'text' },
          hidden: { name: 'Скрыто --><img src=x>', type: 'text' },
        },
      },
      view: {
        layouts: [
          {
            uid: 'v1',
            type: 'table',
            name: 'Крупные',
            orderedFields: [
              { fieldId: MAIN_FIELD_ID, isWrap: false },
              { fieldId: 'sum', isWrap: false },
              { fieldId: 'note', isWrap: false },
            ],
            filter: { op: 'and', rules: [{ fieldId: 'sum', condition: 'gt', value: 10 }] },
            sorts: [{ fieldId: 'sum', direction: 'desc' }],
          },
        ],
      },
    },
    before.id,
  );
  expectOk(
    await api(t, owner.cookie, 'POST', `${S}/database/${database.id}/rows`, {
      rows: [
        { title: 'Мелкий', values: { sum: 5, note: 'не виден', hidden: 'x' } },
        { title: 'Средний', values: { sum: 50, note: 'строка | с чертой' } },
        { title: 'Крупный', values: { sum: 500, hidden: 'y' } },
      ],
    }),
    201,
  );
  const files = unzip((await exported(page.id, { format: 'markdown' })).rawPayload);
  expect(Object.keys(files).sort()).toEqual([
    'Поставки.md',
    'Поставки/Поставки.csv',
    'Поставки/Поставки/Крупный.md',
    'Поставки/Поставки/Мелкий.md',
    'Поставки/Поставки/Средний.md',
  ]);
  const text = strFromU8(files['Поставки.md']);
  const [, after] = text.split('Перед таблицей\n\n');
  expect(after.replace(/<!-- stranitsy-database .* -->/, '<!-- marker -->')).toBe(
    [
      '<!-- marker -->',
      '',
      '| Название | Сумма | Заметка |',
      '| --- | --- | --- |',
      '| [Крупный](Поставки/Поставки/Крупный.md) | 500 |   |',
      '| [Средний](Поставки/Поставки/Средний.md) | 50 | строка \\| с чертой |',
      '',
      '[Поставки.csv](Поставки/Поставки.csv)',
      '',
    ].join('\n'),
  );
  // The marker holds the database's fields (read back on import); nothing in a name ends the
  // comment or opens a tag.
  const marker = /<!-- stranitsy-database (.*) -->/.exec(text)![1];
  expect(marker).not.toMatch(/[<>&]/);
  const { fields } = JSON.parse(marker) as { fields: Record<string, { name: string }> };
  expect(Object.keys(fields).sort()).toEqual(['hidden', MAIN_FIELD_ID, 'note', 'sum'].sort());
  expect(fields.hidden.name).toBe('Скрыто --><img src=x>');
  // The links lead to files of the export.
  expect(files['Поставки/Поставки/Крупный.md']).toBeDefined();
  expect(files['Поставки/Поставки.csv']).toBeDefined();
  // HTML: a table in the same place, then the link.
  const html = strFromU8(unzip((await exported(page.id, { format: 'html' })).rawPayload)['Поставки.html']);
  expect(html).toContain(
    '<table><tr><th>Название</th><th>Сумма</th><th>Заметка</th></tr><tr><td><a href="Поставки/Поставки/Крупный.html">Крупный</a></td><td>500</td><td></td></tr>',
  );
  expect(html.indexOf('Перед таблицей')).toBeLessThan(html.indexOf('<table>'));
  expect(html).toContain('<a href="Поставки/Поставки.csv">Поставки.csv</a>');
});
