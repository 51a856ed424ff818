import zlib from 'node:zlib';
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { WireBlock } from '../../schema/block';
import type { WireElement } from '../../schema/element';
import { newId } from '../../schema/ids';
import { LIST_SLICE_ROWS, listPageBlockRows } from '../repositories/blocks';
import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';

/*
 * GET note/{id}/blocks for big pages (issue 15): read in slices, written out as a stream,
 * compressed when the client accepts it, and `?limit` for the top of a page.
 */

let t: TestApp;
let ann: string;
let bob: string;

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t, 'ann-list@example.com');
  bob = await signIn(t, 'bob-list@example.com');
});
afterAll(async () => {
  await t.close();
});

async function newPage(): Promise<string> {
  const res = await api(t, ann, 'POST', '/api/v3/spaces/section/private', { title: 'Большая' });
  expect(res.statusCode).toBe(201);
  return body<WireElement>(res).data.id;
}

async function createBlock(pageId: string, text: string, position: { parentId?: string | null; placeAfter?: string | null } = {}): Promise<WireBlock> {
  const res = await api(t, ann, 'POST', '/api/v3/spaces/block', { pageId, type: 'text', data: { tokens: [{ text }] }, ...position });
  expect(res.statusCode).toBe(201);
  return body<WireBlock>(res).data;
}

/**
 * `count` paragraphs after `after` at the top level, written straight into the database (through
 * the API this would take minutes): copies of a real block's row with their own ids, keys and text.
 */
async function seedParagraphs(pageId: string, after: WireBlock, count: number, label = 'Абзац'): Promise<void> {
  const row = await t.app.db.selectFrom('blocks').selectAll().where('id', '=', after.id).executeTakeFirstOrThrow();
  const keys = generateNKeysBetween(row.sort_key, null, count);
  const rows = keys.map((sort_key, i) => ({ ...row, id: newId(), sort_key, data: JSON.stringify({ tokens: [{ text: `${label} ${i + 1}` }] }) }));
  for (let at = 0; at < rows.length; at += 200)
    await t.app.db
      .insertInto('blocks')
      .values(rows.slice(at, at + 200))
      .execute();
  void pageId;
}

const textOf = (block: WireBlock) => (block.data as { tokens: { text: string }[] }).tokens.map((x) => x.text).join('');

test('a page bigger than several slices lists every block once, in document order, nested blocks in place', async () => {
  const pageId = await newPage();
  const first = await createBlock(pageId, 'Первый');
  const count = LIST_SLICE_ROWS * 2 + 17;
  await seedParagraphs(pageId, first, count);
  // Nested blocks under the first paragraph and under a seeded one far down.
  const child1 = await createBlock(pageId, 'Вложенный 1', { parentId: first.id });
  await createBlock(pageId, 'Вложенный 2', { parentId: first.id, placeAfter: child1.id });
  const full = await api(t, ann, 'GET', `/api/v3/spaces/note/${pageId}/blocks`);
  expect(full.statusCode).toBe(200);
  expect(full.headers['content-type']).toMatch(/^application\/json/);
  const listed = body<WireBlock[]>(full);
  expect(listed.meta).toMatchObject({ count: count + 3, hasMoreNext: false });
  expect(typeof listed.meta.at).toBe('string');
  expect(listed.included).toEqual([]);
  expect(listed.errors).toEqual([]);
  const blocks = listed.data;
  expect(blocks).toHaveLength(count + 3);
  expect(new Set(blocks.map((b) => b.id)).size).toBe(blocks.length);
  expect(blocks.slice(0, 4).map(textOf)).toEqual(['Первый', 'Вложенный 1', 'Вложенный 2', 'Абзац 1']);
  expect(blocks[1]).toMatchObject({ parentId: first.id, placeAfter: null, contentType: 'Block', pageId, type: 'text', version: 1 });
  expect(blocks[2]).toMatchObject({ parentId: first.id, placeAfter: child1.id });
  expect(blocks[3]).toMatchObject({ parentId: null, placeAfter: first.id });
  expect(blocks.slice(3).map(textOf)).toEqual(Array.from({ length: count }, (_, i) => `Абзац ${i + 1}`));
  // Each top-level block is placed after the one before it.
  const top = blocks.filter((b) => b.parentId === null);
  top.forEach((b, i) => expect(b.placeAfter).toBe(i === 0 ? null : top[i - 1].id));
  // The streamed text is exactly what the presenter would have given.
  const one = await api(t, ann, 'GET', `/api/v3/spaces/block/${blocks[10].id}`);
  expect(body<WireBlock>(one).data).toEqual(blocks[10]);
});

test('?limit gives the top of the page in document order (nested blocks counted) and whether there is more', async () => {
  const pageId = await newPage();
  const first = await createBlock(pageId, 'Первый');
  await createBlock(pageId, 'Вложенный', { parentId: first.id });
  await seedParagraphs(pageId, first, 150);
  const all = body<WireBlock[]>(await api(t, ann, 'GET', `/api/v3/spaces/note/${pageId}/blocks`)).data;

  const head = await api(t, ann, 'GET', `/api/v3/spaces/note/${pageId}/blocks?limit=100`);
  expect(head.statusCode).toBe(200);
  const top = body<WireBlock[]>(head);
  expect(top.data).toEqual(all.slice(0, 100));
  expect(top.meta).toMatchObject({ count: 100, hasMoreNext: true });
  expect(typeof top.meta.at).toBe('string');

  const exact = body<WireBlock[]>(await api(t, ann, 'GET', `/api/v3/spaces/note/${pageId}/blocks?limit=${all.length}`));
  expect(exact.data).toEqual(all);
  expect(exact.meta.hasMoreNext).toBe(false);
  const more = body<WireBlock[]>(await api(t, ann, 'GET', `/api/v3/spaces/note/${pageId}/blocks?limit=1000`));
  expect(more.data).toEqual(all);
  expect(more.meta.hasMoreNext).toBe(false);
  // Cut inside a block's children: the parent's first child is the second block.
  const two = body<WireBlock[]>(await api(t, ann, 'GET', `/api/v3/spaces/note/${pageId}/blocks?limit=2`));
  expect(two.data.map(textOf)).toEqual(['Первый', 'Вложенный']);
  expect(two.meta.hasMoreNext).toBe(true);
});

test('?limit outside 1…1000 or not a number → 422 validation_failed', async () => {
  const pageId = await newPage();
  for (const limit of ['0', '1001', 'abc', '-5', '2.5']) {
    const res = await api(t, ann, 'GET', `/api/v3/spaces/note/${pageId}/blocks?limit=${limit}`);
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
  }
});

test('someone without access gets 403 for the list and for its top; a missing page 404', async () => {
  const pageId = await newPage();
  await createBlock(pageId, 'Секрет');
  for (const path of [`/api/v3/spaces/note/${pageId}/blocks`, `/api/v3/spaces/note/${pageId}/blocks?limit=10`]) {
    const res = await api(t, bob, 'GET', path);
    expect(res.statusCode).toBe(403);
    expect(JSON.stringify(res.json())).not.toContain('Секрет');
    expect((await api(t, undefined, 'GET', path)).statusCode).toBe(401);
  }
  expect((await api(t, ann, 'GET', `/api/v3/spaces/note/${newId()}/blocks?limit=10`)).statusCode).toBe(404);
});

test('answers are compressed as the client accepts: brotli, else gzip; small ones and clients that accept none are not', async () => {
  const pageId = await newPage();
  const first = await createBlock(pageId, 'Первый');
  await seedParagraphs(pageId, first, 300);
  const url = `/api/v3/spaces/note/${pageId}/blocks`;
  const plain = await t.app.inject({ method: 'GET', url, headers: { cookie: ann } });
  expect(plain.headers['content-encoding']).toBeUndefined();
  const expected = plain.json().data;

  const br = await t.app.inject({ method: 'GET', url, headers: { cookie: ann, 'accept-encoding': 'gzip, deflate, br' } });
  expect(br.statusCode).toBe(200);
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
  expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString('utf8')).data).toEqual(expected);

  const gz = await t.app.inject({ method: 'GET', url, headers: { cookie: ann, 'accept-encoding': 'gzip' } });
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString('utf8')).data).toEqual(expected);

  // Under the 1 KiB threshold: as it is.
  const small = await t.app.inject({ method: 'GET', url: '/api/user/current', headers: { cookie: ann, 'accept-encoding': 'br' } });
  expect(small.statusCode).toBe(200);
  expect(small.headers['content-encoding']).toBeUndefined();
  // An error answer is compressed or not by the same rule, and stays the error envelope.
  const denied = await t.app.inject({ method: 'GET', url, headers: { cookie: bob, 'accept-encoding': 'br' } });
  expect(denied.statusCode).toBe(403);
  expect(denied.headers['content-encoding']).toBeUndefined();
  expect(denied.json().errors[0].code).toBeDefined();
});

test('a long listing leaves the event loop free between its slices (reading and writing out)', async () => {
  const pageId = await newPage();
  const first = await createBlock(pageId, 'Первый');
  const rows = LIST_SLICE_ROWS * 4;
  await seedParagraphs(pageId, first, rows);
  // Counts the turns of the event loop while the listing runs: other requests are served in them.
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  const res = await api(t, ann, 'GET', `/api/v3/spaces/note/${pageId}/blocks`);
  running = false;
  expect(res.statusCode).toBe(200);
  expect(body<WireBlock[]>(res).data).toHaveLength(rows + 1);
  // At least one turn per slice read (4) and per 500 blocks written out (8).
  expect(turns).toBeGreaterThanOrEqual(4 + rows / 500);
});

test('a big public page is written out the same way: anonymously, its blocks in order, then its public children', async () => {
  const pageId = await newPage();
  const first = await createBlock(pageId, 'Первый');
  const count = LIST_SLICE_ROWS + 5;
  await seedParagraphs(pageId, first, count);
  const child = await api(t, ann, 'POST', `/api/v3/spaces/element/${pageId}/children`, { title: 'Дочерняя' });
  expect([200, 201]).toContain(child.statusCode);
  const childId = body<WireElement>(child).data.id;
  expect((await api(t, ann, 'PATCH', `/api/v3/spaces/element/${childId}`, { isPublic: true })).statusCode).toBe(200);
  expect((await api(t, ann, 'PATCH', `/api/v3/spaces/element/${pageId}`, { isPublic: true })).statusCode).toBe(200);

  const own = body<WireBlock[]>(await api(t, ann, 'GET', `/api/v3/spaces/note/${pageId}/blocks`)).data;
  const res = await t.app.inject({ method: 'GET', url: `/api/v3/spaces/element/public/${pageId}`, headers: { 'accept-encoding': 'br' } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-encoding']).toBe('br');
  const answer = JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString('utf8')) as {
    data: WireElement;
    included: { id: string; contentType: string }[];
    meta: object;
    errors: unknown[];
  };
  expect(answer.data).toMatchObject({ id: pageId, isPublic: true });
  const blocks = answer.included.filter((x) => x.contentType === 'Block');
  expect(blocks).toEqual(own);
  expect(answer.included.slice(blocks.length).map((x) => x.id)).toContain(childId);
  expect(answer.errors).toEqual([]);
  // Not published: 404 for anyone without access, as before.
  expect((await api(t, ann, 'PATCH', `/api/v3/spaces/element/${pageId}`, { isPublic: false })).statusCode).toBe(200);
  expect((await api(t, undefined, 'GET', `/api/v3/spaces/element/public/${pageId}`)).statusCode).toBe(404);
});

test('a block moved while the page is read in slices keeps its children in the list (its parent is read again by id)', async () => {
  const pageId = await newPage();
  const first = await createBlock(pageId, 'Первый');
  await seedParagraphs(pageId, first, LIST_SLICE_ROWS + 10);
  const holder = await createBlock(pageId, 'Держатель', { parentId: first.id });
  const moved = await createBlock(pageId, 'Переезжает', { parentId: holder.id });
  const child1 = await createBlock(pageId, 'Ребёнок 1', { parentId: moved.id });
  await createBlock(pageId, 'Ребёнок 2', { parentId: moved.id, placeAfter: child1.id });
  let slices = 0;
  const listed = await listPageBlockRows(t.app.db, pageId, {
    // After the first slice of top-level blocks, another writer moves the block to the very top:
    // the top-level pass is past it, and the nested pass no longer finds it under its old parent.
    afterSlice: async () => {
      slices += 1;
      if (slices !== 1) return;
      const top = await t.app.db
        .selectFrom('blocks')
        .select('sort_key')
        .where('page_id', '=', pageId)
        .where('parent_id', 'is', null)
        .orderBy('sort_key')
        .limit(1)
        .executeTakeFirstOrThrow();
      await t.app.db
        .updateTable('blocks')
        .set({ parent_id: null, sort_key: generateKeyBetween(null, top.sort_key) })
        .where('id', '=', moved.id)
        .execute();
    },
  });
  const texts = listed.map(({ row }) => (JSON.parse(row.data) as { tokens: { text: string }[] }).tokens[0].text);
  expect(texts).toContain('Переезжает');
  expect(texts).toContain('Ребёнок 1');
  expect(texts).toContain('Ребёнок 2');
  expect(new Set(listed.map(({ row }) => row.id)).size).toBe(listed.length);
  // The children follow their parent, in order.
  const at = texts.indexOf('Переезжает');
  expect(texts.slice(at, at + 3)).toEqual(['Переезжает', 'Ребёнок 1', 'Ребёнок 2']);
});
