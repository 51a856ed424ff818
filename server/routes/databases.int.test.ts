import crypto from 'node:crypto';
import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData, type FilterGroup, type ViewSort } from '../../schema/blocks/database';
import { compareRows, rowMatches, type RetypeReport, type WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { seeded } from '../../test/helpers/races';
import { buildApp } from '../app';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString as q, signIn, type TestApp } from '../../test/helpers/testApp';
import { addMembersAs, createWorkspaceAs, userIdOf } from '../../test/helpers/workspaces';

/** Data tables (docs/api/databases.md) on a real server and the project's database (SQLite or PostgreSQL). */

let t: TestApp;
let ann: string;
let bob: string;
let eve: string;

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t, 'ann@example.com');
  bob = await signIn(t, 'bob@example.com');
  eve = await signIn(t, 'eve@example.com');
});
afterAll(async () => {
  await t.close();
});

const S = '/api/v3/spaces';

const FIELDS = {
  [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
  price: { name: 'Цена', type: 'number', format: 'rub' },
  done: { name: 'Готово', type: 'checkbox' },
  stage: {
    name: 'Этап',
    type: 'select',
    options: [
      { id: 'todo', name: 'Сделать' },
      { id: 'doing', name: 'В работе' },
      { id: 'done', name: 'Готово' },
    ],
  },
  tags: {
    name: 'Метки',
    type: 'multiSelect',
    options: [
      { id: 'a', name: 'Альфа' },
      { id: 'b', name: 'Бета' },
    ],
  },
  due: { name: 'Срок', type: 'date' },
  note: { name: 'Заметка', type: 'text' },
  created: { name: 'Создано', type: 'createdTime' },
} as const;

function databaseBody(): DatabaseData {
  return {
    config: { fields: structuredClone(FIELDS) as unknown as DatabaseData['config']['fields'] },
    view: { layouts: [{ uid: 'v1', type: 'table', name: 'Таблица', orderedFields: Object.keys(FIELDS).map((fieldId) => ({ fieldId, isWrap: false })) }] },
  };
}

/** A page with a database on it; returns both. */
async function newDatabase(cookie = ann, headers: Record<string, string> = {}): Promise<{ pageId: string; db: WireBlock }> {
  const page = expectOk<WireElement>(await api(t, cookie, 'POST', `${S}/section/private`, { title: 'Задачи' }, headers), 201);
  const db = expectOk<WireBlock>(await api(t, cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data: databaseBody() }), 201);
  return { pageId: page.id, db };
}

type NewRowBody = { id?: string; title?: string; values?: Record<string, unknown> };

async function addRows(databaseId: string, rows: NewRowBody[], placeAfter?: string | null, cookie = ann): Promise<WireRow[]> {
  return expectOk<WireRow[]>(
    await api(t, cookie, 'POST', `${S}/database/${databaseId}/rows`, { rows, ...(placeAfter !== undefined ? { placeAfter } : {}) }),
    201,
  );
}

async function window(databaseId: string, params: Record<string, unknown> = {}, cookie = ann) {
  const res = await api(t, cookie, 'GET', `${S}/database/${databaseId}/rows?${q(params)}`);
  expect([res.statusCode, res.statusCode === 200 ? '' : res.body]).toEqual([200, '']);
  const b = body<WireRow[]>(res);
  return { rows: b.data, count: b.meta.count as number, hasMoreNext: b.meta.hasMoreNext as boolean };
}

const titles = (rows: WireRow[]) => rows.map((r) => r.data.title);

function writeCell(rowId: string, fieldId: string, value: unknown, version: number, cookie = ann) {
  return api(t, cookie, 'POST', `${S}/row/${rowId}/cells/${fieldId}`, { value, version });
}

describe('pages and blocks', () => {
  test('a page of type Database holds one database block with a title field and a Table view', async () => {
    const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/private`, { type: 'Database', title: 'Проекты' }), 201);
    expect(page.type).toBe('Database');
    const blocks = expectOk<WireBlock[]>(await api(t, ann, 'GET', `${S}/note/${page.id}/blocks`));
    expect(blocks.map((b) => b.type)).toEqual(['database']);
    const data = blocks[0].data as DatabaseData;
    expect(data.config.fields[MAIN_FIELD_ID]).toEqual({ name: 'Название', type: 'text' });
    expect(data.view.layouts).toEqual([
      { uid: expect.any(String), type: 'table', name: 'Таблица', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] },
    ]);
    const got = await api(t, ann, 'GET', `${S}/database/${blocks[0].id}`);
    expect(body(got).meta.rowCount).toBe(0);
  });

  test('rows are pages: they open, have blocks and comments, but are no children of the page', async () => {
    const { pageId, db } = await newDatabase();
    const [row] = await addRows(db.id, [{ title: 'Купить хлеб', values: { price: 50 } }]);
    expect(row).toMatchObject({
      contentType: 'Row',
      databaseId: db.id,
      pageId,
      data: { title: 'Купить хлеб', icon: null, values: { price: 50 } },
      versions: { [MAIN_FIELD_ID]: 1, price: 1 },
      inTrash: false,
    });
    const element = expectOk<WireElement>(await api(t, ann, 'GET', `${S}/element/${row.id}`));
    expect(element).toMatchObject({ id: row.id, title: 'Купить хлеб', path: [pageId], accessLevel: 'full' });
    expectOk(await api(t, ann, 'POST', `${S}/block`, { pageId: row.id, type: 'text', data: { tokens: [{ text: 'Описание' }] } }), 201);
    expectOk(await api(t, ann, 'POST', `${S}/element/${row.id}/comments`, { content: [{ text: 'Когда?' }] }), 201);
    expect(expectOk<WireElement[]>(await api(t, ann, 'GET', `${S}/element/${pageId}/children`))).toEqual([]);
    // A child page made after the rows sorts among the children only.
    const child = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/element/${pageId}/children`, { title: 'Подстраница' }), 201);
    expect(expectOk<WireElement[]>(await api(t, ann, 'GET', `${S}/element/${pageId}/children`)).map((p) => p.id)).toEqual([child.id]);
  });

  test("renaming a row's page is a write of its title cell (version + 1); the title cell renames the page", async () => {
    const { db } = await newDatabase();
    const [row] = await addRows(db.id, [{ title: 'Старое' }]);
    expectOk(await api(t, ann, 'PATCH', `${S}/element/${row.id}`, { title: 'Новое' }));
    const stale = await writeCell(row.id, MAIN_FIELD_ID, 'Моё', 1);
    expect([stale.statusCode, errorCode(stale)]).toEqual([422, 'database.cell_conflict']);
    expect(body(stale).data).toMatchObject({ value: 'Новое', version: 2 });
    expectOk(await writeCell(row.id, MAIN_FIELD_ID, 'Третье', 2));
    expect(expectOk<WireElement>(await api(t, ann, 'GET', `${S}/element/${row.id}`)).title).toBe('Третье');
  });
});

describe('rows and order', () => {
  test('rows go at the end, first, or after a row, in the order given', async () => {
    const { db } = await newDatabase();
    const [a, b] = await addRows(db.id, [{ title: 'a' }, { title: 'b' }]);
    await addRows(db.id, [{ title: 'first' }], null);
    await addRows(db.id, [{ title: 'a1' }, { title: 'a2' }], a.id);
    await addRows(db.id, [{ title: 'last' }]);
    const { rows, count } = await window(db.id);
    expect(titles(rows)).toEqual(['first', 'a', 'a1', 'a2', 'b', 'last']);
    expect(count).toBe(6);
    expect(b.id).toBe(rows[4].id);
  });

  test('windows: offset and limit page through the view with its count', async () => {
    const { db } = await newDatabase();
    await addRows(
      db.id,
      Array.from({ length: 25 }, (_, i) => ({ title: `r${String(i).padStart(2, '0')}` })),
    );
    const w = await window(db.id, { offset: 10, limit: 10 });
    expect(titles(w.rows)).toEqual(Array.from({ length: 10 }, (_, i) => `r${String(i + 10).padStart(2, '0')}`));
    expect([w.count, w.hasMoreNext]).toEqual([25, true]);
    const last = await window(db.id, { offset: 20, limit: 10 });
    expect([last.rows.length, last.hasMoreNext]).toEqual([5, false]);
  });

  test('moving rows: after a row or first; two people moving at once never lose or double a row', async () => {
    const { db } = await newDatabase();
    const rows = await addRows(
      db.id,
      ['a', 'b', 'c', 'd', 'e'].map((title) => ({ title })),
    );
    const [a, b, c, d, e] = rows;
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [d.id, e.id], placeAfter: a.id }));
    expect(titles((await window(db.id)).rows)).toEqual(['a', 'd', 'e', 'b', 'c']);
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [c.id], placeAfter: null }));
    expect(titles((await window(db.id)).rows)).toEqual(['c', 'a', 'd', 'e', 'b']);
    // Two at once, to the same spot and crossing.
    const moves = await Promise.all([
      api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [b.id], placeAfter: c.id }),
      api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [e.id], placeAfter: c.id }),
      api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [c.id], placeAfter: b.id }),
    ]);
    expect(moves.map((m) => m.statusCode)).toEqual([200, 200, 200]);
    const after = (await window(db.id)).rows;
    expect(after.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(new Set(after.map((r) => r.sortKey)).size).toBe(5);
    const bad = await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [a.id], placeAfter: a.id });
    expect([bad.statusCode, errorCode(bad)]).toEqual([422, 'validation_failed']);
  });

  test("a card moved on a board: before a row or after one, with the column's value written on each row moved, in one call", async () => {
    const { db } = await newDatabase();
    const rows = await addRows(db.id, [
      { title: 'a', values: { stage: 'todo' } },
      { title: 'b', values: { stage: 'todo' } },
      { title: 'c', values: { stage: 'doing' } },
      { title: 'd', values: { stage: 'doing' } },
    ]);
    const [a, b, c, d] = rows;
    const move = (body: Record<string, unknown>, cookie = ann) => api(t, cookie, 'POST', `${S}/database/${db.id}/rows/move`, body);
    // «a» to the top of the «doing» column (before «c»), now «doing»: one call, one version more.
    const moved = expectOk<WireRow[]>(await move({ ids: [a.id], placeBefore: c.id, set: { fieldId: 'stage', value: 'doing' } }));
    expect([moved[0].data.values.stage, moved[0].versions.stage]).toEqual(['doing', 2]);
    let now = (await window(db.id)).rows;
    expect(now.map((r) => [r.data.title, r.data.values.stage])).toEqual([
      ['b', 'todo'],
      ['a', 'doing'],
      ['c', 'doing'],
      ['d', 'doing'],
    ]);
    // «c» and «d» after «b» and back to «todo»; the column's value may also be emptied («Без значения»).
    expectOk(await move({ ids: [d.id, c.id], placeAfter: b.id, set: { fieldId: 'stage', value: 'todo' } }));
    expectOk(await move({ ids: [b.id], placeBefore: a.id, set: { fieldId: 'stage', value: null } }));
    now = (await window(db.id)).rows;
    expect(now.map((r) => [r.data.title, r.data.values.stage ?? null, r.versions.stage])).toEqual([
      ['d', 'todo', 2],
      ['c', 'todo', 2],
      ['b', null, 2],
      ['a', 'doing', 2],
    ]);
    // Before the first row: first.
    expectOk(await move({ ids: [a.id], placeBefore: d.id }));
    expect(titles((await window(db.id)).rows)).toEqual(['a', 'd', 'c', 'b']);

    // Bad moves change nothing: a value not of the field, an unknown or computed field, both
    // places or none, a place among the rows moved or not of this database.
    const bad = await Promise.all([
      move({ ids: [a.id], placeAfter: null, set: { fieldId: 'stage', value: 'nope' } }),
      move({ ids: [a.id], placeAfter: null, set: { fieldId: 'ghost', value: 'x' } }),
      move({ ids: [a.id], placeAfter: null, set: { fieldId: 'created', value: null } }),
      move({ ids: [a.id], placeAfter: null, placeBefore: b.id }),
      move({ ids: [a.id] }),
      move({ ids: [a.id, b.id], placeBefore: b.id }),
      move({ ids: [a.id], placeBefore: 'not-a-row' }),
    ]);
    expect(bad.map((r) => [r.statusCode, errorCode(r)])).toEqual([
      [422, 'validation_failed'],
      [404, 'not_found'],
      [422, 'database.field_computed'],
      [422, 'validation_failed'],
      [422, 'validation_failed'],
      [422, 'validation_failed'],
      [422, 'validation_failed'],
    ]);
    expect((await window(db.id)).rows.map((r) => [r.data.title, r.data.values.stage ?? null])).toEqual([
      ['a', 'doing'],
      ['d', 'todo'],
      ['c', 'todo'],
      ['b', null],
    ]);
  });

  test('two people move the same cards to different columns at once: each card is there once, in one column, its value and version one of the moves', async () => {
    const { db } = await newDatabase();
    const rows = await addRows(
      db.id,
      ['a', 'b', 'c', 'd', 'e', 'f'].map((title) => ({ title, values: { stage: 'todo' } })),
    );
    const [a, b, c, d, e, f] = rows;
    const move = (body: Record<string, unknown>) => api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, body);
    const answers = await Promise.all([
      move({ ids: [a.id, b.id], placeBefore: f.id, set: { fieldId: 'stage', value: 'doing' } }),
      move({ ids: [b.id, a.id], placeAfter: c.id, set: { fieldId: 'stage', value: 'done' } }),
      move({ ids: [e.id], placeBefore: a.id, set: { fieldId: 'stage', value: 'done' } }),
      move({ ids: [a.id], placeAfter: d.id }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const after = (await window(db.id)).rows;
    expect(after.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(new Set(after.map((r) => r.sortKey)).size).toBe(6);
    const byId = new Map(after.map((r) => [r.id, r]));
    // «a» and «b» went together both times: they end in the same column; each was written twice (version 3).
    expect(byId.get(a.id)!.data.values.stage).toBe(byId.get(b.id)!.data.values.stage);
    expect(['doing', 'done']).toContain(byId.get(a.id)!.data.values.stage);
    expect([byId.get(a.id)!.versions.stage, byId.get(b.id)!.versions.stage, byId.get(e.id)!.versions.stage]).toEqual([3, 3, 2]);
    void f;
  });

  test('delete and restore rows as one batch; a deleted row is in the trash window only', async () => {
    const { db } = await newDatabase();
    const [a, b, c] = await addRows(db.id, [{ title: 'a' }, { title: 'b' }, { title: 'c' }]);
    expect(expectOk<{ ids: string[] }>(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/delete`, { ids: [a.id, c.id] })).ids.sort()).toEqual(
      [a.id, c.id].sort(),
    );
    expect(titles((await window(db.id)).rows)).toEqual(['b']);
    expect(titles((await window(db.id, { inTrash: true })).rows)).toEqual(['a', 'c']);
    const stale = await writeCell(a.id, 'note', 'x', 0);
    expect([stale.statusCode, errorCode(stale)]).toEqual([409, 'page.in_trash']);
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/restore`, { ids: [a.id, c.id] }));
    expect(titles((await window(db.id)).rows)).toEqual(['a', 'b', 'c']);
    void b;
  });

  test('deleting the database block takes its rows to the trash; its restore and an undo (revive) bring back those rows only', async () => {
    const { pageId, db } = await newDatabase();
    const [a, b] = await addRows(db.id, [{ title: 'a' }, { title: 'b' }]);
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/delete`, { ids: [a.id] }));
    expectOk(await api(t, ann, 'DELETE', `${S}/block/${db.id}`));
    expect(await api(t, ann, 'GET', `${S}/database/${db.id}/rows`).then((r) => r.statusCode)).toBe(404);
    const rowPage = await t.app.db.selectFrom('pages').select(['in_trash']).where('id', '=', b.id).executeTakeFirstOrThrow();
    expect(rowPage.in_trash).toBe(1);
    expectOk(await api(t, ann, 'POST', `${S}/block/${db.id}/restore`, {}));
    expect(titles((await window(db.id)).rows)).toEqual(['b']);
    // Undo of a delete re-creates the block with its id (a revive).
    const deleted = expectOk<unknown>(await api(t, ann, 'DELETE', `${S}/block/${db.id}`));
    void deleted;
    expectOk(await api(t, ann, 'POST', `${S}/block`, { id: db.id, pageId, type: 'database', data: databaseBody() }), 201);
    expect(titles((await window(db.id)).rows)).toEqual(['b']);
  });

  test('a clone of the database block copies its live rows in order, with their cells and blocks; trashed rows stay behind', async () => {
    const { pageId, db } = await newDatabase();
    const [a, b, gone] = await addRows(db.id, [
      { title: 'Первая', values: { price: 1, tags: ['a'] } },
      { title: 'Вторая', values: { note: 'текст' } },
      { title: 'Удалённая' },
    ]);
    expectOk(await writeCell(a.id, 'price', 2, 1));
    expectOk(await api(t, ann, 'POST', `${S}/block`, { pageId: b.id, type: 'text', data: { tokens: [{ text: 'внутри строки' }] } }), 201);
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/delete`, { ids: [gone.id] }));
    const copies = expectOk<WireBlock[]>(await api(t, ann, 'POST', `${S}/block/${db.id}/clone`, {}), 201);
    const copy = copies[0];
    expect(copy).toMatchObject({ type: 'database', pageId });
    const rows = (await window(copy.id)).rows;
    expect(rows.map((r) => [r.data.title, r.data.values])).toEqual([
      ['Первая', { price: 2, tags: ['a'] }],
      ['Вторая', { note: 'текст' }],
    ]);
    expect(rows.map((r) => r.databaseId)).toEqual([copy.id, copy.id]);
    expect(rows.some((r) => [a.id, b.id].includes(r.id))).toBe(false);
    expect(rows[0].versions).toMatchObject({ price: 1 });
    const inside = expectOk<WireBlock[]>(await api(t, ann, 'GET', `${S}/note/${rows[1].id}/blocks`));
    expect(inside.map((block) => (block.data as { tokens: Array<{ text: string }> }).tokens[0].text)).toEqual(['внутри строки']);
    // The original is as it was, and the copy's rows are its own.
    expectOk(await writeCell(rows[0].id, 'price', 3, 1));
    expect((await window(db.id)).rows.map((r) => [r.data.title, r.data.values.price ?? null])).toEqual([
      ['Первая', 2],
      ['Вторая', null],
    ]);
    // Rows are not the page's children, copied or not.
    const children = expectOk<WireElement[]>(await api(t, ann, 'GET', `${S}/element/${pageId}/children`));
    expect(children).toEqual([]);
  });

  test('the trash lists a row deleted alone (and restores it into its database), not the rows that went with their database block', async () => {
    const { db } = await newDatabase();
    const [a, b] = await addRows(db.id, [{ title: 'Одна' }, { title: 'С базой' }]);
    expectOk(await api(t, ann, 'DELETE', `${S}/element/${a.id}`));
    const listed = async () => expectOk<WireElement[]>(await api(t, ann, 'GET', `${S}/trash`)).map((p) => p.id);
    expect(await listed()).toContain(a.id);
    expect(titles((await window(db.id)).rows)).toEqual(['С базой']);
    expectOk(await api(t, ann, 'POST', `${S}/trash/${a.id}/restore`, {}));
    expect(titles((await window(db.id)).rows)).toEqual(['Одна', 'С базой']);
    expectOk(await api(t, ann, 'DELETE', `${S}/block/${db.id}`));
    const after = await listed();
    expect([after.includes(a.id), after.includes(b.id)]).toEqual([false, false]);
  });

  test('bad rows: values that do not fit, computed fields, repeated or taken ids → 422/409, nothing made', async () => {
    const { db } = await newDatabase();
    const cases: Array<[NewRowBody[], number, string]> = [
      [[{ values: { price: '12' } }], 422, 'validation_failed'],
      [[{ values: { stage: 'archived' } }], 422, 'validation_failed'],
      [[{ values: { tags: ['a', 'a'] } }], 422, 'validation_failed'],
      [[{ values: { created: '2026-01-01' } }], 422, 'validation_failed'],
      [[{ values: { nope: 1 } }], 422, 'validation_failed'],
      [[{ values: { due: '2026-02-30' } }], 422, 'validation_failed'],
    ];
    for (const [rows, status, code] of cases) {
      const res = await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, { rows });
      expect([JSON.stringify(rows), res.statusCode, errorCode(res)]).toEqual([JSON.stringify(rows), status, code]);
    }
    const id = crypto.randomUUID();
    expect((await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, { rows: [{ id }, { id }] })).statusCode).toBe(422);
    await addRows(db.id, [{ id }]);
    const taken = await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, { rows: [{ id }] });
    expect([taken.statusCode, errorCode(taken)]).toEqual([409, 'page.already_exists']);
    expect((await window(db.id)).count).toBe(1);
    const tooMany = await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, { rows: Array.from({ length: 1001 }, () => ({})) });
    expect([tooMany.statusCode, errorCode(tooMany)]).toEqual([422, 'validation_failed']);
  });
});

describe('cells', () => {
  test('each cell has its own version: two people editing two cells of one row both keep their edits', async () => {
    const { db } = await newDatabase();
    const [row] = await addRows(db.id, [{ title: 'Строка' }]);
    const [x, y] = await Promise.all([writeCell(row.id, 'price', 10, 0), writeCell(row.id, 'note', 'текст', 0)]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    const [read] = (await window(db.id)).rows;
    expect(read.data.values).toEqual({ price: 10, note: 'текст' });
    expect(read.versions).toMatchObject({ price: 1, note: 1 });
  });

  test('the same cell from an old version → 422 database.cell_conflict with the server copy; nothing overwritten', async () => {
    const { db } = await newDatabase();
    const [row] = await addRows(db.id, [{ title: 'r', values: { note: 'база' } }]);
    const results = await Promise.all([writeCell(row.id, 'note', 'Анна', 1), writeCell(row.id, 'note', 'Борис', 1)]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 422]);
    const lost = results.find((r) => r.statusCode === 422)!;
    const won = results.find((r) => r.statusCode === 200)!;
    expect(errorCode(lost)).toBe('database.cell_conflict');
    expect(body(lost).data).toMatchObject({ rowId: row.id, fieldId: 'note', value: body<{ value: string }>(won).data.value, version: 2 });
    const [read] = (await window(db.id)).rows;
    expect(read.data.values.note).toBe(body<{ value: string }>(won).data.value);
    // A first write of a cell never written is at version 0; a second one from 0 conflicts.
    expectOk(await writeCell(row.id, 'price', 1, 0));
    expect(errorCode(await writeCell(row.id, 'price', 2, 0))).toBe('database.cell_conflict');
  });

  test('bad cell writes: unknown field 404, computed 422, value of another type 422, unknown row 404', async () => {
    const { db } = await newDatabase();
    const [row] = await addRows(db.id, [{ title: 'r' }]);
    expect((await writeCell(row.id, 'nope', 1, 0)).statusCode).toBe(404);
    expect(errorCode(await writeCell(row.id, 'created', '2026-01-01', 0))).toBe('database.field_computed');
    expect(errorCode(await writeCell(row.id, 'price', 'много', 0))).toBe('validation_failed');
    expect(errorCode(await writeCell(row.id, MAIN_FIELD_ID, 5, 1))).toBe('validation_failed');
    expect((await writeCell(crypto.randomUUID(), 'price', 1, 0)).statusCode).toBe(404);
    // A text page is no row.
    const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/private`, {}), 201);
    expect((await writeCell(page.id, 'price', 1, 0)).statusCode).toBe(404);
  });
});

describe('several cells at once (POST database/{id}/cells)', () => {
  const writeCells = (databaseId: string, cells: unknown[], cookie = ann) => api(t, cookie, 'POST', `${S}/database/${databaseId}/cells`, { cells });

  test('cells of several rows in one call; a cell changed meanwhile comes back as a conflict, the others are written', async () => {
    const { db } = await newDatabase();
    const [a, b] = await addRows(db.id, [{ title: 'a', values: { note: 'старое' } }, { title: 'b' }]);
    expectOk(await writeCell(a.id, 'note', 'чужое', 1));
    const answer = expectOk<{
      written: Array<{ rowId: string; fieldId: string; version: number }>;
      conflicts: Array<{ rowId: string; fieldId: string; value: unknown; version: number }>;
    }>(
      await writeCells(db.id, [
        { rowId: a.id, fieldId: 'price', value: 5, version: 0 },
        { rowId: a.id, fieldId: 'note', value: 'моё', version: 1 },
        { rowId: b.id, fieldId: 'price', value: 7, version: 0 },
        { rowId: b.id, fieldId: MAIN_FIELD_ID, value: 'Бэ', version: 1 },
      ]),
    );
    expect(answer.written.map((c) => [c.rowId, c.fieldId, c.version])).toEqual([
      [a.id, 'price', 1],
      [b.id, 'price', 1],
      [b.id, MAIN_FIELD_ID, 2],
    ]);
    expect(answer.conflicts).toEqual([expect.objectContaining({ rowId: a.id, fieldId: 'note', value: 'чужое', version: 2 })]);
    const rows = (await window(db.id)).rows;
    expect(rows.map((r) => [r.data.title, r.data.values])).toEqual([
      ['a', { note: 'чужое', price: 5 }],
      ['Бэ', { price: 7 }],
    ]);
    // The title cell renamed the row's page.
    expect(expectOk<WireElement>(await api(t, ann, 'GET', `${S}/element/${b.id}`)).title).toBe('Бэ');
  });

  test('bad batches are refused whole: a cell named twice, a row of another database, a value that does not fit, a computed field', async () => {
    const { db } = await newDatabase();
    const other = await newDatabase();
    const [row] = await addRows(db.id, [{ title: 'r' }]);
    const [foreign] = await addRows(other.db.id, [{ title: 'x' }]);
    const twice = await writeCells(db.id, [
      { rowId: row.id, fieldId: 'price', value: 1, version: 0 },
      { rowId: row.id, fieldId: 'price', value: 2, version: 0 },
    ]);
    expect([twice.statusCode, errorCode(twice)]).toEqual([422, 'validation_failed']);
    const elsewhere = await writeCells(db.id, [
      { rowId: row.id, fieldId: 'price', value: 1, version: 0 },
      { rowId: foreign.id, fieldId: 'price', value: 2, version: 0 },
    ]);
    expect([elsewhere.statusCode, errorCode(elsewhere)]).toEqual([422, 'validation_failed']);
    expect(JSON.stringify(body(elsewhere))).toContain('cells.1.rowId');
    const misfit = await writeCells(db.id, [
      { rowId: row.id, fieldId: 'note', value: 'ok', version: 0 },
      { rowId: row.id, fieldId: 'price', value: 'много', version: 0 },
    ]);
    expect([misfit.statusCode, errorCode(misfit)]).toEqual([422, 'validation_failed']);
    expect(errorCode(await writeCells(db.id, [{ rowId: row.id, fieldId: 'created', value: '2026-01-01', version: 0 }]))).toBe('database.field_computed');
    expect((await writeCells(db.id, [{ rowId: row.id, fieldId: 'nope', value: 1, version: 0 }])).statusCode).toBe(404);
    expect((await writeCells(db.id, [])).statusCode).toBe(422);
    const [after] = (await window(db.id)).rows;
    expect(after.data.values).toEqual({});
    expect((await window(other.db.id)).rows[0].data.values).toEqual({});
  });

  test('denied: a reader of the database, an outsider, and a row shared read-only with an editor of the database', async () => {
    const workspace = await createWorkspaceAs(t, ann, 'Пакеты');
    const bobId = await userIdOf(t, 'bob@example.com');
    await addMembersAs(t, ann, workspace.id, [{ userId: bobId, role: 'participant' }]);
    const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/all`, { title: 'Общая' }, { 'x-workspace-id': workspace.id }), 201);
    const db = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data: databaseBody() }), 201);
    const [open, closed] = await addRows(db.id, [{ title: 'open' }, { title: 'closed' }]);
    expectOk(await api(t, ann, 'POST', `${S}/element/${page.id}/member/add`, [{ userId: bobId, accessLevel: 'read' }]));
    const cells = [{ rowId: open.id, fieldId: 'price', value: 1, version: 0 }];
    expect([(await writeCells(db.id, cells, bob)).statusCode, (await writeCells(db.id, cells, eve)).statusCode]).toEqual([403, 403]);
    // Bob may edit the database, but one row is his to read only: a batch naming it is refused whole.
    expectOk(await api(t, ann, 'POST', `${S}/element/${page.id}/member/add`, [{ userId: bobId, accessLevel: 'edit' }]));
    expectOk(await api(t, ann, 'POST', `${S}/element/${closed.id}/member/add`, [{ userId: bobId, accessLevel: 'read' }]));
    expectOk(await writeCells(db.id, cells, bob));
    const mixed = await writeCells(
      db.id,
      [
        { rowId: open.id, fieldId: 'price', value: 2, version: 1 },
        { rowId: closed.id, fieldId: 'price', value: 2, version: 0 },
      ],
      bob,
    );
    expect([mixed.statusCode, errorCode(mixed)]).toEqual([403, 'forbidden']);
    const rows = (await window(db.id)).rows;
    expect(rows.map((r) => r.data.values)).toEqual([{ price: 1 }, {}]);
    // The same for a card moved to a board's column: the row he may only read is not written, nor moved.
    const onBoard = await api(t, bob, 'POST', `${S}/database/${db.id}/rows/move`, {
      ids: [closed.id],
      placeAfter: null,
      set: { fieldId: 'stage', value: 'done' },
    });
    expect([onBoard.statusCode, errorCode(onBoard)]).toEqual([403, 'forbidden']);
    expect((await window(db.id)).rows.map((r) => [r.data.title, r.data.values.stage ?? null])).toEqual([
      ['open', null],
      ['closed', null],
    ]);
    // A reader moves nothing.
    expectOk(await api(t, ann, 'POST', `${S}/element/${page.id}/member/add`, [{ userId: bobId, accessLevel: 'read' }]));
    const reader = await api(t, bob, 'POST', `${S}/database/${db.id}/rows/move`, {
      ids: [open.id],
      placeBefore: closed.id,
      set: { fieldId: 'stage', value: 'done' },
    });
    const outsider = await api(t, eve, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [open.id], placeBefore: closed.id });
    expect([reader.statusCode, outsider.statusCode]).toEqual([403, 403]);
  });

  test('cells written across many rows while the same rows are trashed and moved in the other order: every call is answered, none fails (a lock-order deadlock on PostgreSQL)', async () => {
    const { db } = await newDatabase();
    for (let round = 0; round < 6; round++) {
      const ids = (
        await addRows(
          db.id,
          Array.from({ length: 40 }, (_, i) => ({ title: `r${i}` })),
        )
      )
        .map((row) => row.id)
        .sort();
      const down = [...ids].reverse();
      const answers = await Promise.all([
        writeCells(
          db.id,
          down.map((rowId) => ({ rowId, fieldId: 'price', value: round, version: 0 })),
        ),
        api(t, ann, 'POST', `${S}/database/${db.id}/rows/delete`, { ids }),
        writeCells(
          db.id,
          ids.map((rowId) => ({ rowId, fieldId: 'note', value: `n${round}`, version: 0 })),
        ),
        api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, { ids: down, placeAfter: null }),
        writeCells(
          db.id,
          down.map((rowId) => ({ rowId, fieldId: MAIN_FIELD_ID, value: `t${round}`, version: 1 })),
        ),
      ]);
      const [prices, trash, notes, move, titles] = answers;
      expect([trash.statusCode, move.statusCode].filter((status) => status >= 500)).toEqual([]);
      // Each batch of cells is written whole, or refused whole when its rows went to the trash first.
      for (const cells of [prices, notes, titles])
        expect([[200], [409, 'page.in_trash']]).toContainEqual(cells.statusCode === 200 ? [200] : [cells.statusCode, errorCode(cells)]);
      // The rows are all in the trash and each cell holds what its batch wrote, whatever order they ran in.
      const pages = await t.app.db.selectFrom('pages').select(['id', 'in_trash', 'title']).where('id', 'in', ids).orderBy('id').execute();
      expect(pages.map((page) => page.in_trash)).toEqual(ids.map(() => 1));
      const cells = await t.app.db
        .selectFrom('database_cells')
        .select(['field_id', 'value'])
        .where('row_id', 'in', ids)
        .where('field_id', 'in', ['price', 'note'])
        .execute();
      const valuesOf = (fieldId: string) => cells.filter((cell) => cell.field_id === fieldId).map((cell) => JSON.parse(cell.value) as unknown);
      expect(valuesOf('price')).toEqual(prices.statusCode === 200 ? ids.map(() => round) : []);
      expect(valuesOf('note')).toEqual(notes.statusCode === 200 ? ids.map(() => `n${round}`) : []);
      expect(new Set(pages.map((page) => page.title.startsWith('r')))).toEqual(new Set([titles.statusCode !== 200]));
    }
    // A deadlock would be refused within a second (PostgreSQL's deadlock_timeout), a hang not at all:
    // the time allowed is for a machine loaded by other suites (it takes 3 s alone).
  }, 60_000);
});

describe('fields and views', () => {
  test('add a field after another: it shows in every view at that place', async () => {
    const { db } = await newDatabase();
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views`, {
        layout: {
          uid: 'v2',
          type: 'board',
          orderedFields: [
            { fieldId: MAIN_FIELD_ID, isWrap: false },
            { fieldId: 'price', isWrap: false },
          ],
        },
      }),
    );
    const res = await api(t, ann, 'POST', `${S}/database/${db.id}/fields`, {
      id: 'owner',
      field: { name: 'Ответственный', type: 'person' },
      placeAfter: MAIN_FIELD_ID,
    });
    const block = expectOk<WireBlock>(res);
    const data = block.data as DatabaseData;
    expect(data.config.fields.owner).toEqual({ name: 'Ответственный', type: 'person' });
    expect(data.view.layouts.map((l) => l.orderedFields.map((f) => f.fieldId).slice(0, 2))).toEqual([
      [MAIN_FIELD_ID, 'owner'],
      [MAIN_FIELD_ID, 'owner'],
    ]);
    expect(block.version).toBe(db.version + 2);
    expect(errorCode(await api(t, ann, 'POST', `${S}/database/${db.id}/fields`, { id: 'owner', field: { name: 'x', type: 'text' } }))).toBe(
      'validation_failed',
    );
    expect(errorCode(await api(t, ann, 'POST', `${S}/database/${db.id}/fields`, { id: MAIN_FIELD_ID, field: { name: 'x', type: 'text' } }))).toBe(
      'database.main_field',
    );
  });

  test('a number field may fix its digits after the comma (0–6); more is refused, and the values are kept as they are', async () => {
    const { db } = await newDatabase();
    const [row] = await addRows(db.id, [{ title: 'a', values: { price: 9156.3 } }]);
    const block = expectOk<WireBlock>(
      await api(t, ann, 'POST', `${S}/database/${db.id}/fields/price`, { field: { name: 'Цена', type: 'number', format: 'rub', decimals: 2 } }),
    );
    expect((block.data as DatabaseData).config.fields.price).toEqual({ name: 'Цена', type: 'number', format: 'rub', decimals: 2 });
    const tooMany = await api(t, ann, 'POST', `${S}/database/${db.id}/fields/price`, { field: { name: 'Цена', type: 'number', decimals: 7 } });
    expect([tooMany.statusCode, errorCode(tooMany)]).toEqual([422, 'validation_failed']);
    expect((await window(db.id)).rows.find((r) => r.id === row.id)?.data.values.price).toBe(9156.3);
  });

  test('retype: dryRun reports what converts and what is dropped; the retype converts and makes options', async () => {
    const { db } = await newDatabase();
    await addRows(db.id, [
      { title: 'a', values: { note: '12,5' } },
      { title: 'b', values: { note: 'дорого' } },
      { title: 'c', values: { note: '3' } },
      { title: 'd' },
    ]);
    const dry = expectOk<RetypeReport>(
      await api(t, ann, 'POST', `${S}/database/${db.id}/fields/note`, { field: { name: 'Сумма', type: 'number' }, dryRun: true }),
    );
    expect(dry).toEqual({ converted: 2, dropped: 1, droppedExamples: ['дорого'], newOptions: [] });
    // Nothing changed by the dry run.
    expect((await window(db.id)).rows.map((r) => r.data.values.note)).toEqual(['12,5', 'дорого', '3', undefined]);
    const res = await api(t, ann, 'POST', `${S}/database/${db.id}/fields/note`, { field: { name: 'Сумма', type: 'number' } });
    expect(body(res).meta.report).toEqual(dry);
    const rows = (await window(db.id)).rows;
    expect(rows.map((r) => r.data.values.note)).toEqual([12.5, undefined, 3, undefined]);
    expect(rows[0].versions.note).toBe(2);
    // Text → select: each distinct name becomes an option.
    await addRows(db.id, [{ title: 'e' }]);
    const toSelect = await api(t, ann, 'POST', `${S}/database/${db.id}/fields/note`, { field: { name: 'Сумма', type: 'select', options: [] } });
    const report = body(toSelect).meta.report as RetypeReport;
    expect(report.newOptions.map((o) => o.name).sort()).toEqual(['12.5', '3']);
    const field = (expectOk<WireBlock>(toSelect).data as DatabaseData).config.fields.note;
    expect(field.type === 'select' && field.options.map((o) => o.name).sort()).toEqual(['12.5', '3']);
  });

  test('removing an option clears the cells that held it (it is not made again); renaming one keeps them', async () => {
    const { db } = await newDatabase();
    const [a, b] = await addRows(db.id, [
      { title: 'a', values: { stage: 'todo' } },
      { title: 'b', values: { stage: 'doing' } },
    ]);
    const options = [
      { id: 'todo', name: 'Надо' },
      { id: 'done', name: 'Готово' },
    ];
    const res = await api(t, ann, 'POST', `${S}/database/${db.id}/fields/stage`, { field: { name: 'Этап', type: 'select', options } });
    expect(body(res).meta.report).toEqual({ converted: 0, dropped: 1, droppedExamples: ['В работе'], newOptions: [] });
    expect((expectOk<WireBlock>(res).data as DatabaseData).config.fields.stage).toEqual({ name: 'Этап', type: 'select', options });
    const rows = (await window(db.id)).rows;
    expect(rows.map((r) => [r.id, r.data.values.stage ?? null])).toEqual([
      [a.id, 'todo'],
      [b.id, null],
    ]);
  });

  test('a title given as the MAIN_FIELD value is the title', async () => {
    const { db } = await newDatabase();
    const [row] = await addRows(db.id, [{ values: { [MAIN_FIELD_ID]: 'Из значений', price: 1 } }]);
    expect(row.data).toEqual({ title: 'Из значений', icon: null, values: { price: 1 } });
    expect(row.versions[MAIN_FIELD_ID]).toBe(1);
  });

  test('the title field cannot be retyped or deleted; deleting a field takes it out of views, filters and sorts, and clears its cells', async () => {
    const { db } = await newDatabase();
    await addRows(db.id, [{ title: 'a', values: { price: 1 } }]);
    expect(errorCode(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/${MAIN_FIELD_ID}`, { field: { name: 'x', type: 'number' } }))).toBe(
      'database.main_field',
    );
    expect(errorCode(await api(t, ann, 'DELETE', `${S}/database/${db.id}/fields/${MAIN_FIELD_ID}`))).toBe('database.main_field');
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, {
        layout: {
          sorts: [{ fieldId: 'price', direction: 'desc' }],
          filter: { op: 'and', rules: [{ fieldId: 'price', condition: 'gt', value: 0 }] },
          calculations: { price: 'sum' },
          groupBy: { fieldId: 'stage' },
        },
      }),
    );
    const data = expectOk<WireBlock>(await api(t, ann, 'DELETE', `${S}/database/${db.id}/fields/price`)).data as DatabaseData;
    expect(data.config.fields.price).toBeUndefined();
    const [layout] = data.view.layouts;
    expect([layout.orderedFields.some((f) => f.fieldId === 'price'), layout.sorts, layout.filter?.rules, layout.calculations, layout.groupBy]).toEqual([
      false,
      [],
      [],
      {},
      { fieldId: 'stage' },
    ]);
    expect(
      (await t.app.db.selectFrom('database_cells').select('row_id').where('database_id', '=', db.id).where('field_id', '=', 'price').execute()).length,
    ).toBe(0);
  });

  test('views: add, change keys, reorder, delete; a view naming an unknown field → 422', async () => {
    const { db } = await newDatabase();
    const add = (uid: string, placeAfter?: string | null) =>
      api(t, ann, 'POST', `${S}/database/${db.id}/views`, {
        layout: { uid, type: 'table', orderedFields: [] },
        ...(placeAfter !== undefined ? { placeAfter } : {}),
      });
    expectOk(await add('v2'));
    expectOk(await add('v0', null));
    const uids = (b: WireBlock) => (b.data as DatabaseData).view.layouts.map((l) => l.uid);
    expect(uids(expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/database/${db.id}/views/v0/move`, { placeAfter: 'v2' })))).toEqual(['v1', 'v2', 'v0']);
    const renamed = expectOk<WireBlock>(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views/v2`, {
        layout: { name: 'Мои', orderedFields: [{ fieldId: 'price', isWrap: true, width: 240 }] },
      }),
    );
    expect((renamed.data as DatabaseData).view.layouts[1]).toEqual({
      uid: 'v2',
      type: 'table',
      name: 'Мои',
      orderedFields: [{ fieldId: 'price', isWrap: true, width: 240 }],
    });
    expect(errorCode(await api(t, ann, 'POST', `${S}/database/${db.id}/views/v2`, { layout: { sorts: [{ fieldId: 'nope', direction: 'asc' }] } }))).toBe(
      'validation_failed',
    );
    expect(
      errorCode(
        await api(t, ann, 'POST', `${S}/database/${db.id}/views/v2`, {
          layout: { filter: { op: 'and', rules: [{ fieldId: 'done', condition: 'contains', value: 'x' }] } },
        }),
      ),
    ).toBe('validation_failed');
    expect((await api(t, ann, 'POST', `${S}/database/${db.id}/views/nope`, { layout: { name: 'x' } })).statusCode).toBe(404);
    expect(uids(expectOk<WireBlock>(await api(t, ann, 'DELETE', `${S}/database/${db.id}/views/v0`)))).toEqual(['v1', 'v2']);
  });

  test('field changes made at once by several people all land (no lost field)', async () => {
    const { db } = await newDatabase();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api(t, ann, 'POST', `${S}/database/${db.id}/fields`, { id: `f${i}`, field: { name: `Поле ${i}`, type: 'text' } })),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const data = expectOk<WireBlock>(await api(t, ann, 'GET', `${S}/database/${db.id}`)).data as DatabaseData;
    for (let i = 0; i < 6; i++) expect(data.config.fields[`f${i}`]).toEqual({ name: `Поле ${i}`, type: 'text' });
  });

  test('a retype while cells are written: every cell ends either converted or cleared, never of the old type', async () => {
    const { db } = await newDatabase();
    const rows = await addRows(
      db.id,
      Array.from({ length: 30 }, (_, i) => ({ title: `r${i}`, values: { note: String(i) } })),
    );
    const writes = rows.map((r, i) => writeCell(r.id, 'note', i % 2 === 0 ? `${i}0` : 'слово', 1));
    const retype = api(t, ann, 'POST', `${S}/database/${db.id}/fields/note`, { field: { name: 'n', type: 'number' } });
    const [retyped, ...written] = await Promise.all([retype, ...writes]);
    expect(retyped.statusCode).toBe(200);
    for (const w of written) expect([200, 422]).toContain(w.statusCode);
    for (const row of (await window(db.id, { limit: 100 })).rows) {
      const value = row.data.values.note;
      expect(value === undefined || typeof value === 'number').toBe(true);
    }
  });
});

describe('views on the server: filters and sorts agree with the reference evaluator', () => {
  let db: WireBlock;
  let all: WireRow[];
  let config: DatabaseData['config'];

  beforeAll(async () => {
    ({ db } = await newDatabase());
    config = (db.data as DatabaseData).config;
    const random = seeded(16);
    const words = ['альфа', 'Бета', 'гамма', 'дельта', 'ёлка', 'Елка', '100%_off', ''];
    const rows: NewRowBody[] = Array.from({ length: 120 }, (_, i) => {
      const values: Record<string, unknown> = {};
      if (random(4) > 0) values.price = (random(2000) - 500) / 10;
      if (random(3) > 0) values.done = random(2) === 1;
      if (random(4) > 0) values.stage = ['todo', 'doing', 'done'][random(3)];
      if (random(3) > 0) values.tags = [['a'], ['b'], ['a', 'b'], []][random(4)];
      if (random(3) > 0)
        values.due =
          random(2) === 0
            ? `2026-${String(1 + random(12)).padStart(2, '0')}-1${random(9)}`
            : { start: `2026-0${1 + random(9)}-0${1 + random(9)}`, end: '2026-12-31' };
      if (random(3) > 0) values.note = words[random(words.length)];
      return { title: `${words[random(words.length)]} ${i}`, values };
    });
    all = [];
    for (let i = 0; i < rows.length; i += 40) all.push(...(await addRows(db.id, rows.slice(i, i + 40))));
  });

  const cases: Array<[string, FilterGroup | null, ViewSort[]]> = [
    ['no filter, own order', null, []],
    ['number > 0 sorted desc', { op: 'and', rules: [{ fieldId: 'price', condition: 'gt', value: 0 }] }, [{ fieldId: 'price', direction: 'desc' }]],
    [
      'number <= 12.5 or empty',
      {
        op: 'or',
        rules: [
          { fieldId: 'price', condition: 'lte', value: 12.5 },
          { fieldId: 'price', condition: 'isEmpty' },
        ],
      },
      [{ fieldId: 'price', direction: 'asc' }],
    ],
    [
      'text contains «ел» (ё = е), by title',
      { op: 'and', rules: [{ fieldId: 'note', condition: 'contains', value: 'ЕЛ' }] },
      [{ fieldId: MAIN_FIELD_ID, direction: 'asc' }],
    ],
    ['text with LIKE characters', { op: 'and', rules: [{ fieldId: 'note', condition: 'startsWith', value: '100%_' }] }, []],
    ['text is not «альфа»', { op: 'and', rules: [{ fieldId: 'note', condition: 'isNot', value: 'альфа' }] }, [{ fieldId: 'note', direction: 'desc' }]],
    [
      'checkbox is true, by stage (option order)',
      { op: 'and', rules: [{ fieldId: 'done', condition: 'is', value: true }] },
      [{ fieldId: 'stage', direction: 'asc' }],
    ],
    ['checkbox is false', { op: 'and', rules: [{ fieldId: 'done', condition: 'is', value: false }] }, [{ fieldId: 'stage', direction: 'desc' }]],
    ['select is doing', { op: 'and', rules: [{ fieldId: 'stage', condition: 'is', value: 'doing' }] }, [{ fieldId: 'due', direction: 'asc' }]],
    [
      'multi contains b and not a',
      {
        op: 'and',
        rules: [
          { fieldId: 'tags', condition: 'contains', value: 'b' },
          { fieldId: 'tags', condition: 'notContains', value: 'a' },
        ],
      },
      [],
    ],
    [
      'date after June, nested or',
      {
        op: 'and',
        rules: [
          { fieldId: 'due', condition: 'gte', value: '2026-06-01' },
          {
            op: 'or',
            rules: [
              { fieldId: 'done', condition: 'is', value: true },
              { fieldId: 'price', condition: 'isNotEmpty' },
            ],
          },
        ],
      },
      [
        { fieldId: 'due', direction: 'desc' },
        { fieldId: 'price', direction: 'asc' },
      ],
    ],
    ['empty tags', { op: 'and', rules: [{ fieldId: 'tags', condition: 'isEmpty' }] }, [{ fieldId: 'tags', direction: 'asc' }]],
    ['an unfinished rule filters nothing', { op: 'and', rules: [{ fieldId: 'note', condition: 'contains', value: '' }] }, []],
  ];

  test.each(cases)('%s', async (_name, filter, sorts) => {
    const expected = all
      .filter((r) => rowMatches(config, filter, r))
      .sort((a, b) => compareRows(config, sorts, a, b))
      .map((r) => r.data.title);
    const first = await window(db.id, { filter, sorts, limit: 500 });
    expect(first.count).toBe(expected.length);
    expect(titles(first.rows)).toEqual(expected);
    // A window further down is the same slice.
    const middle = await window(db.id, { filter, sorts, offset: 7, limit: 9 });
    expect(titles(middle.rows)).toEqual(expected.slice(7, 16));
  });

  test("footer calculations and groups agree with the rows (over the view's filter)", async () => {
    const filter: FilterGroup = { op: 'and', rules: [{ fieldId: 'done', condition: 'is', value: true }] };
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, {
        layout: {
          filter,
          sorts: [],
          groupBy: { fieldId: 'stage' },
          calculations: { price: 'sum', note: 'empty', tags: 'filled', due: 'min', [MAIN_FIELD_ID]: 'count', stage: 'unique' },
        },
      }),
    );
    const rows = all.filter((r) => rowMatches(config, filter, r));
    const prices = rows.map((r) => r.data.values.price).filter((p): p is number => typeof p === 'number');
    const figures = expectOk<Record<string, number>>(await api(t, ann, 'GET', `${S}/database/${db.id}/calculations?viewId="v1"`));
    expect(figures.price).toBeCloseTo(
      prices.reduce((a, b) => a + b, 0),
      6,
    );
    expect(figures[MAIN_FIELD_ID]).toBe(rows.length);
    expect(figures.note).toBe(rows.filter((r) => r.data.values.note === undefined || r.data.values.note === '').length);
    expect(figures.tags).toBe(rows.filter((r) => Array.isArray(r.data.values.tags) && (r.data.values.tags as string[]).length > 0).length);
    expect(figures.stage).toBe(new Set(rows.map((r) => r.data.values.stage).filter(Boolean)).size);
    const groups = expectOk<Array<{ value: string | null; count: number }>>(await api(t, ann, 'GET', `${S}/database/${db.id}/groups?viewId="v1"`));
    const expected = ['todo', 'doing', 'done', null]
      .map((value) => ({ value, count: rows.filter((r) => (r.data.values.stage ?? null) === value).length }))
      .filter((g) => g.count > 0);
    expect(groups).toEqual(expected);
    // Rows come grouped (by the options' order) in the window.
    const windowed = (await window(db.id, { viewId: 'v1', limit: 500 })).rows.map((r) => r.data.values.stage ?? null);
    expect(windowed).toEqual(expected.flatMap((g) => Array.from({ length: g.count }, () => g.value)));
    // One group's rows alone (a board's column), as many as its count, in the rows' own order.
    for (const g of expected) {
      const column = await window(db.id, { viewId: 'v1', group: g.value, limit: 500 });
      expect([g.value, column.count, column.rows.length]).toEqual([g.value, g.count, g.count]);
      expect(column.rows.every((r) => (r.data.values.stage ?? null) === g.value && rowMatches(config, filter, r))).toBe(true);
    }
    // Checked or not: a view grouped by a checkbox (no filter), its two groups making all the rows.
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, { layout: { filter: null, groupBy: { fieldId: 'done' } } }));
    const checked = await window(db.id, { viewId: 'v1', group: true, limit: 500 });
    const unchecked = await window(db.id, { viewId: 'v1', group: false, limit: 500 });
    expect([checked.count, unchecked.count]).toEqual([
      all.filter((r) => r.data.values.done === true).length,
      all.filter((r) => r.data.values.done !== true).length,
    ]);
    // A group needs a grouped view.
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, { layout: { groupBy: null } }));
    const ungrouped = await api(t, ann, 'GET', `${S}/database/${db.id}/rows?viewId="v1"&group="todo"`);
    expect([ungrouped.statusCode, errorCode(ungrouped)]).toEqual([422, 'validation_failed']);
  });

  test("a view's own filter and sorts are used when the query names the view; search looks in titles", async () => {
    const filter: FilterGroup = { op: 'and', rules: [{ fieldId: 'price', condition: 'lt', value: 50 }] };
    const sorts: ViewSort[] = [{ fieldId: 'price', direction: 'desc' }];
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, { layout: { filter, sorts, groupBy: null } }));
    const expected = all.filter((r) => rowMatches(config, filter, r)).sort((a, b) => compareRows(config, sorts, a, b));
    expect(titles((await window(db.id, { viewId: 'v1', limit: 500 })).rows)).toEqual(titles(expected));
    const searched = await window(db.id, { search: 'ЕЛКА', limit: 500 });
    expect(titles(searched.rows)).toEqual(titles(all.filter((r) => r.data.title.toLowerCase().replace(/ё/g, 'е').includes('елка'))));
    expect((await api(t, ann, 'GET', `${S}/database/${db.id}/rows?viewId="nope"`)).statusCode).toBe(404);
  });
});

describe("a calendar's days: rows by the dates of a date field", () => {
  const NOV = { fieldId: 'due', from: '2026-11-01', to: '2026-12-01' };
  async function dated() {
    const { db } = await newDatabase();
    const rows = await addRows(db.id, [
      { title: 'в ноябре', values: { due: '2026-11-03', stage: 'todo' } },
      { title: 'с октября в ноябрь', values: { due: { start: '2026-10-28', end: '2026-11-02' } } },
      { title: 'октябрь целиком', values: { due: { start: '2026-10-01', end: '2026-10-31' } } },
      { title: 'первое декабря', values: { due: '2026-12-01', stage: 'todo' } },
      { title: 'без даты', values: { stage: 'todo' } },
      { title: 'в ночь на декабрь', values: { due: { start: '2026-11-30T22:00:00Z', end: '2026-12-02' } } },
      { title: 'последняя минута октября', values: { due: '2026-10-31T23:59:00Z' } },
      { title: 'без конца', values: { due: { start: '2026-11-10', end: null }, stage: 'todo' } },
      { title: 'весь год', values: { due: { start: '2026-01-01', end: '2026-12-31' } } },
    ]);
    return { db, rows };
  }
  const sortedTitles = (rows: WireRow[]) => titles(rows).sort();

  test("those starting in the days and the ranges running into them; a view's filter still holds; no date apart", async () => {
    const { db } = await dated();
    const november = await window(db.id, { range: NOV, limit: 500 });
    expect(sortedTitles(november.rows)).toEqual(['без конца', 'в ноябре', 'в ночь на декабрь', 'весь год', 'с октября в ноябрь'].sort());
    expect(november.count).toBe(5);
    // One day: a range over it, a date on it; the end of a range is a day of it.
    expect(sortedTitles((await window(db.id, { range: { fieldId: 'due', from: '2026-11-02', to: '2026-11-03' } })).rows)).toEqual(
      ['весь год', 'с октября в ноябрь'].sort(),
    );
    expect(sortedTitles((await window(db.id, { range: { fieldId: 'due', from: '2026-10-31T12:00:00Z', to: '2026-11-01' } })).rows)).toEqual(
      ['весь год', 'октябрь целиком', 'последняя минута октября', 'с октября в ноябрь'].sort(),
    );
    // With the view's own filter (stage = todo).
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, {
        layout: { filter: { op: 'and', rules: [{ fieldId: 'stage', condition: 'is', value: 'todo' }] } },
      }),
    );
    expect(sortedTitles((await window(db.id, { viewId: 'v1', range: NOV })).rows)).toEqual(['без конца', 'в ноябре'].sort());
    expect(titles((await window(db.id, { viewId: 'v1', undated: 'due' })).rows)).toEqual(['без даты']);
    expect(titles((await window(db.id, { undated: 'due' })).rows)).toEqual(['без даты']);
  });

  test('a range reads up to 2,500 rows at once, with only the fields asked for; more than 500 without a range → 422', async () => {
    const { db } = await dated();
    const november = await window(db.id, { range: NOV, fields: ['due'], limit: 2500 });
    expect(november.count).toBe(5);
    for (const row of november.rows) {
      expect(Object.keys(row.data.values)).toEqual(['due']);
      expect(Object.keys(row.versions).every((f) => f === 'due' || f === MAIN_FIELD_ID)).toBe(true);
      expect(row.data.title).not.toBe('');
    }
    expect(november.rows.some((r) => r.data.title === 'в ноябре')).toBe(true);
    const big = await api(t, ann, 'GET', `${S}/database/${db.id}/rows?${q({ limit: 501 })}`);
    expect([big.statusCode, errorCode(big)]).toEqual([422, 'validation_failed']);
    const tooBig = await api(t, ann, 'GET', `${S}/database/${db.id}/rows?${q({ range: NOV, limit: 2501 })}`);
    expect([tooBig.statusCode, errorCode(tooBig)]).toEqual([422, 'validation_failed']);
  });

  test('a date moved or a range stretched is in the days it meets now (the kept order follows the write)', async () => {
    const { db, rows } = await dated();
    const byTitle = (title: string) => rows.find((r) => r.data.title === title)!;
    const november = async () => sortedTitles((await window(db.id, { range: NOV })).rows);
    expect(await november()).toHaveLength(5);
    // October's range stretched into November; November's date moved to December; undated given one.
    expectOk(await writeCell(byTitle('октябрь целиком').id, 'due', { start: '2026-10-01', end: '2026-11-01' }, 1));
    expectOk(await writeCell(byTitle('в ноябре').id, 'due', '2026-12-05', 1));
    expectOk(await writeCell(byTitle('без даты').id, 'due', { start: '2026-11-20', end: '2026-11-21' }, 0));
    expect(await november()).toEqual(['без даты', 'без конца', 'в ночь на декабрь', 'весь год', 'октябрь целиком', 'с октября в ноябрь'].sort());
    // A range's end cleared: a date alone, before November.
    expectOk(await writeCell(byTitle('весь год').id, 'due', { start: '2026-01-01', end: null }, 1));
    expect(await november()).not.toContain('весь год');
    expect((await window(db.id, { undated: 'due' })).count).toBe(0);
  });

  test('the migration fills the ends of ranges written before it', async () => {
    const { db } = await dated();
    const november = async () => sortedTitles((await window(db.id, { range: NOV })).rows);
    const before = await november();
    await t.app.db.updateTable('database_cells').set({ num_end: null }).where('database_id', '=', db.id).execute();
    // A write bumps the revisions so the kept order is not used: read without the ends, then filled.
    const [probe] = await addRows(db.id, [{ title: 'проба' }]);
    expect(await november()).toEqual(['без конца', 'в ноябре', 'в ночь на декабрь'].sort());
    const { fillDateEnds } = await import('../db/migrations/2026-11-26-0002-date-ends');
    await fillDateEnds(t.app.db);
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/delete`, { ids: [probe.id] }));
    expect(await november()).toEqual(before);
  });

  test('bad ranges: not a date field, not a date, ending before they start → 422 with a stable code', async () => {
    const { db } = await dated();
    const status = async (params: Record<string, unknown>) => {
      const res = await api(t, ann, 'GET', `${S}/database/${db.id}/rows?${q(params)}`);
      return [res.statusCode, errorCode(res)];
    };
    expect(await status({ range: { ...NOV, fieldId: 'stage' } })).toEqual([422, 'validation_failed']);
    expect(await status({ range: { ...NOV, fieldId: 'nope' } })).toEqual([422, 'validation_failed']);
    expect(await status({ undated: 'price' })).toEqual([422, 'validation_failed']);
    expect(await status({ range: { ...NOV, from: '2026-13-01' } })).toEqual([422, 'validation_failed']);
    expect(await status({ range: { ...NOV, from: '2026-12-01' } })).toEqual([422, 'validation_failed']);
    expect(await status({ range: { fieldId: 'due', from: '2026-11-01' } })).toEqual([422, 'validation_failed']);
  });

  test("a calendar view's date field: a date field only; it goes with the field, or when the field is no date any more", async () => {
    const { db } = await newDatabase();
    const view = async () => expectOk<WireBlock>(await api(t, ann, 'GET', `${S}/block/${db.id}`));
    const calendarOf = async () => ((await view()).data as DatabaseData).view.layouts.find((l) => l.uid === 'cal')?.calendar;
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views`, {
        layout: { uid: 'cal', type: 'calendar', orderedFields: [], calendar: { fieldId: 'due', mode: 'week' } },
      }),
    );
    expect(await calendarOf()).toEqual({ fieldId: 'due', mode: 'week' });
    const bad = await api(t, ann, 'POST', `${S}/database/${db.id}/views/cal`, { layout: { calendar: { fieldId: 'stage' } } });
    expect([bad.statusCode, errorCode(bad)]).toEqual([422, 'validation_failed']);
    const unknown = await api(t, ann, 'POST', `${S}/database/${db.id}/views/cal`, { layout: { calendar: { fieldId: 'nope' } } });
    expect([unknown.statusCode, errorCode(unknown)]).toEqual([422, 'validation_failed']);
    expect(await calendarOf()).toEqual({ fieldId: 'due', mode: 'week' });
    // Retyped to text: no calendar by it (the view stays, to be set up again).
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/due`, { field: { name: 'Срок', type: 'text' } }));
    expect(await calendarOf()).toBeNull();
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/due`, { field: { name: 'Срок', type: 'date' } }));
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/cal`, { layout: { calendar: { fieldId: 'due' } } }));
    expectOk(await api(t, ann, 'DELETE', `${S}/database/${db.id}/fields/due`));
    expect(await calendarOf()).toBeNull();
  });

  test('denied: an outsider reads no days of a private database', async () => {
    const { db } = await dated();
    const res = await api(t, eve, 'GET', `${S}/database/${db.id}/rows?${q({ range: NOV })}`);
    expect(res.statusCode).toBe(403);
  });
});

describe("a timeline's dependencies: a relation field", () => {
  test('dependencies are a relation field; retyped or deleted, the timeline keeps its dates without them', async () => {
    const { db } = await newDatabase();
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields`, { id: 'blocked', field: { name: 'Заблокировано', type: 'relation' } }));
    const timelineOf = async () =>
      (expectOk<WireBlock>(await api(t, ann, 'GET', `${S}/block/${db.id}`)).data as DatabaseData).view.layouts.find((l) => l.uid === 'tl')?.timeline;
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views`, {
        layout: { uid: 'tl', type: 'timeline', orderedFields: [], timeline: { startFieldId: 'due', dependencyFieldId: 'blocked' } },
      }),
    );
    expect(await timelineOf()).toEqual({ startFieldId: 'due', dependencyFieldId: 'blocked' });
    for (const wrong of ['stage', 'nope']) {
      const res = await api(t, ann, 'POST', `${S}/database/${db.id}/views/tl`, { layout: { timeline: { startFieldId: 'due', dependencyFieldId: wrong } } });
      expect([res.statusCode, errorCode(res), (body(res).errors[0]?.details as Array<{ path: string }> | undefined)?.[0]?.path]).toEqual([
        422,
        'validation_failed',
        'view.layouts.1.timeline.dependencyFieldId',
      ]);
    }
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/blocked`, { field: { name: 'Заблокировано', type: 'text' } }));
    expect(await timelineOf()).toEqual({ startFieldId: 'due', dependencyFieldId: null });
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/blocked`, { field: { name: 'Заблокировано', type: 'relation' } }));
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/tl`, { layout: { timeline: { startFieldId: 'due', dependencyFieldId: 'blocked' } } }));
    expectOk(await api(t, ann, 'DELETE', `${S}/database/${db.id}/fields/blocked`));
    expect(await timelineOf()).toEqual({ startFieldId: 'due', dependencyFieldId: null });
  });
});

describe("a timeline's dates: start and end date fields", () => {
  test("a timeline starts at a date field and ends at another date field or at the start's range; a deleted or retyped field leaves it", async () => {
    const { db } = await newDatabase();
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields`, { id: 'ends', field: { name: 'Конец', type: 'date' } }));
    const timelineOf = async () =>
      (expectOk<WireBlock>(await api(t, ann, 'GET', `${S}/block/${db.id}`)).data as DatabaseData).view.layouts.find((l) => l.uid === 'tl')?.timeline;
    const refused = async (timeline: unknown) => {
      const res = await api(t, ann, 'POST', `${S}/database/${db.id}/views/tl`, { layout: { timeline } });
      return [res.statusCode, errorCode(res), (body(res).errors[0]?.details as Array<{ path: string }> | undefined)?.[0]?.path];
    };
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views`, {
        layout: { uid: 'tl', type: 'timeline', orderedFields: [], timeline: { startFieldId: 'due', endFieldId: 'ends', scale: 'month', table: false } },
      }),
    );
    expect(await timelineOf()).toEqual({ startFieldId: 'due', endFieldId: 'ends', scale: 'month', table: false });
    // The start a date field, the end a date field other than the start; a scale of the four.
    expect(await refused({ startFieldId: 'stage' })).toEqual([422, 'validation_failed', 'view.layouts.1.timeline.startFieldId']);
    expect(await refused({ startFieldId: 'nope' })).toEqual([422, 'validation_failed', 'view.layouts.1.timeline.startFieldId']);
    expect(await refused({ startFieldId: 'due', endFieldId: 'price' })).toEqual([422, 'validation_failed', 'view.layouts.1.timeline.endFieldId']);
    expect(await refused({ startFieldId: 'due', endFieldId: 'due' })).toEqual([422, 'validation_failed', 'view.layouts.1.timeline.endFieldId']);
    expect((await refused({ startFieldId: 'due', scale: 'year' }))[0]).toBe(422);
    expect(await timelineOf()).toEqual({ startFieldId: 'due', endFieldId: 'ends', scale: 'month', table: false });
    // No end field: the start field's range is the bar.
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/tl`, { layout: { timeline: { startFieldId: 'due', endFieldId: null, scale: 'day' } } }));
    expect(await timelineOf()).toEqual({ startFieldId: 'due', endFieldId: null, scale: 'day' });
    // The end retyped to text: the timeline keeps its start, without an end field; deleted: the same.
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views/tl`, { layout: { timeline: { startFieldId: 'due', endFieldId: 'ends', scale: 'week' } } }),
    );
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/ends`, { field: { name: 'Конец', type: 'text' } }));
    expect(await timelineOf()).toEqual({ startFieldId: 'due', endFieldId: null, scale: 'week' });
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/ends`, { field: { name: 'Конец', type: 'date' } }));
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/tl`, { layout: { timeline: { startFieldId: 'due', endFieldId: 'ends' } } }));
    expectOk(await api(t, ann, 'DELETE', `${S}/database/${db.id}/fields/ends`));
    expect(await timelineOf()).toEqual({ startFieldId: 'due', endFieldId: null });
    // Another field retyped: nothing changes; the start retyped: no timeline (the view stays, to be set up again).
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/note`, { field: { name: 'Заметка', type: 'number' } }));
    expect(await timelineOf()).toEqual({ startFieldId: 'due', endFieldId: null });
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/due`, { field: { name: 'Срок', type: 'text' } }));
    expect(await timelineOf()).toBeNull();
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/due`, { field: { name: 'Срок', type: 'date' } }));
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/tl`, { layout: { timeline: { startFieldId: 'due' } } }));
    expectOk(await api(t, ann, 'DELETE', `${S}/database/${db.id}/fields/due`));
    expect(await timelineOf()).toBeNull();
  });
});

describe('relations: rows of the same database named in a cell («blocked by»)', () => {
  async function related() {
    const { db } = await newDatabase();
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields`, { id: 'blocked', field: { name: 'Заблокировано', type: 'relation' } }));
    const rows = await addRows(db.id, [{ title: 'Фундамент' }, { title: 'Стены' }, { title: 'Крыша' }]);
    return { db, ids: Object.fromEntries(rows.map((r) => [r.data.title, r.id])) };
  }

  test('a list of row ids, each once; titles by id of live rows of this database only; CSV by titles; filtered by empty or not', async () => {
    const { db, ids } = await related();
    expectOk(await writeCell(ids['Стены'], 'blocked', [ids['Фундамент']], 0));
    expectOk(await writeCell(ids['Крыша'], 'blocked', [ids['Стены'], ids['Фундамент']], 0));
    for (const bad of ['Фундамент', [ids['Стены'], ids['Стены']], [3]]) {
      const res = await writeCell(ids['Фундамент'], 'blocked', bad, 0);
      expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    }
    // Another database's row and a row in the trash have no title here.
    const other = await related();
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/delete`, { ids: [ids['Фундамент']] }));
    const named = expectOk<Array<{ id: string; title: string }>>(
      await api(t, ann, 'GET', `${S}/database/${db.id}/titles?${q({ ids: [ids['Стены'], ids['Фундамент'], other.ids['Крыша'], 'nope'] })}`),
    );
    expect(named.map((r) => r.title)).toEqual(['Стены']);
    // The trashed «Фундамент» is left out of «Крыша»'s cell.
    const csv = (await api(t, ann, 'GET', `${S}/database/${db.id}/export.csv?viewId="v1"`)).body;
    expect(csv).toMatch(/\nКрыша,[^\n]*,Стены\r?\n/);
    expect(csv).not.toContain(ids['Фундамент']);
    const blocked = await window(db.id, { filter: { op: 'and', rules: [{ fieldId: 'blocked', condition: 'isNotEmpty' }] } });
    expect(titles(blocked.rows).sort()).toEqual(['Крыша', 'Стены'].sort());
    // The rows naming one row (a timeline's dependants: those blocked by «Стены»), and those not naming it.
    const naming = (condition: 'contains' | 'notContains', id: string) =>
      window(db.id, { filter: { op: 'and', rules: [{ fieldId: 'blocked', condition, value: id }] } });
    expect(titles((await naming('contains', ids['Стены'])).rows)).toEqual(['Крыша']);
    expect(titles((await naming('notContains', ids['Стены'])).rows).sort()).toEqual(['Стены'].sort());
    expect((await naming('contains', 'nope')).rows).toEqual([]);
    // A relation is no chart axis.
    const chart = await api(t, ann, 'POST', `${S}/database/${db.id}/views`, {
      layout: { uid: 'c', type: 'chart', orderedFields: [], chart: { x: { fieldId: 'blocked' }, y: { aggregate: 'count' } } },
    });
    expect([chart.statusCode, errorCode(chart)]).toEqual([422, 'validation_failed']);
  });

  test('denied: an outsider reads no titles', async () => {
    const { db, ids } = await related();
    const res = await api(t, eve, 'GET', `${S}/database/${db.id}/titles?${q({ ids: [ids['Стены']] })}`);
    expect(res.statusCode).toBe(403);
  });
});

describe("a database's revision: where it stands, for a view joining its live channel", () => {
  test('rows come with the revision they were read at; it moves with every write that changes what a view reads, and only then', async () => {
    const { db } = await newDatabase();
    const revision = async () => expectOk<{ revision: string }>(await api(t, ann, 'GET', `${S}/database/${db.id}/revision`)).revision;
    const read = async () => body<WireRow[]>(await api(t, ann, 'GET', `${S}/database/${db.id}/rows?${q({ limit: 10 })}`)).meta.revision as string;
    const first = await read();
    expect(await revision()).toBe(first);
    expect(await revision()).toBe(first);
    const [row] = await addRows(db.id, [{ title: 'a' }]);
    const afterRow = await revision();
    expect(afterRow).not.toBe(first);
    expectOk(await writeCell(row.id, 'note', 'x', 0));
    const afterCell = await revision();
    expect(afterCell).not.toBe(afterRow);
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, { layout: { name: 'Другое имя' } }));
    expect(await revision()).not.toBe(afterCell);
    expect(await read()).toBe(await revision());
    // An outsider learns nothing.
    expect((await api(t, eve, 'GET', `${S}/database/${db.id}/revision`)).statusCode).toBe(403);
  });
});

describe('the ordered ids a view keeps (ADR 7)', () => {
  test("another server process's writes reach this process's view at once: cells of the sort field, rows made, moved and trashed", async () => {
    const other = await buildApp({ ...t.config }, { logger: false, mailer: t.mailer });
    await other.ready();
    try {
      const { db } = await newDatabase();
      const rows = await addRows(db.id, [
        { title: 'a', values: { price: 3 } },
        { title: 'b', values: { price: 2 } },
        { title: 'c', values: { price: 1 } },
      ]);
      const sorts = [{ fieldId: 'price', direction: 'asc' }];
      const view = async () => titles((await window(db.id, { sorts })).rows);
      const elsewhere = (method: 'POST', url: string, payload: unknown) => other.inject({ method, url, payload: payload as object, headers: { cookie: ann } });
      expect(await view()).toEqual(['c', 'b', 'a']);
      // A cell of another field: the same order (kept), the value new.
      expect((await elsewhere('POST', `${S}/row/${rows[0].id}/cells/note`, { value: 'x', version: 0 })).statusCode).toBe(200);
      expect((await window(db.id, { sorts })).rows.map((r) => r.data.values.note ?? null)).toEqual([null, null, 'x']);
      expect((await elsewhere('POST', `${S}/row/${rows[0].id}/cells/price`, { value: 0, version: 1 })).statusCode).toBe(200);
      expect(await view()).toEqual(['a', 'c', 'b']);
      const made = await elsewhere('POST', `${S}/database/${db.id}/rows`, { rows: [{ title: 'd', values: { price: -1 } }] });
      expect(made.statusCode).toBe(201);
      const d = (JSON.parse(made.body) as { data: WireRow[] }).data[0];
      expect(await view()).toEqual(['d', 'a', 'c', 'b']);
      expect((await elsewhere('POST', `${S}/database/${db.id}/rows/delete`, { ids: [rows[2].id] })).statusCode).toBe(200);
      expect(await view()).toEqual(['d', 'a', 'b']);
      expect((await other.inject({ method: 'DELETE', url: `${S}/element/${rows[1].id}`, headers: { cookie: ann } })).statusCode).toBe(200);
      expect(await view()).toEqual(['d', 'a']);
      // The rows' own order (no sorts) follows a move made there.
      expect(titles((await window(db.id)).rows)).toEqual(['a', 'd']);
      expect((await elsewhere('POST', `${S}/database/${db.id}/rows/move`, { ids: [d.id], placeAfter: null })).statusCode).toBe(200);
      expect(titles((await window(db.id)).rows)).toEqual(['d', 'a']);
      // The footer is kept the same way, and follows writes made there.
      expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, { layout: { calculations: { price: 'sum', note: 'filled' } } }));
      const footer = async () => expectOk<Record<string, number>>(await api(t, ann, 'GET', `${S}/database/${db.id}/calculations?viewId="v1"`));
      expect(await footer()).toEqual({ price: -1, note: 1 });
      expect((await elsewhere('POST', `${S}/row/${d.id}/cells/price`, { value: 5, version: 1 })).statusCode).toBe(200);
      expect(await footer()).toEqual({ price: 5, note: 1 });
      expect((await elsewhere('POST', `${S}/row/${rows[0].id}/cells/note`, { value: null, version: 1 })).statusCode).toBe(200);
      expect(await footer()).toEqual({ price: 5, note: 0 });
    } finally {
      await other.close();
    }
  });
});

describe('permissions', () => {
  test('a reader reads rows and exports, but cannot write cells, rows, fields or views; an outsider gets nothing', async () => {
    const workspace = await createWorkspaceAs(t, ann, 'Данные');
    const bobId = await userIdOf(t, 'bob@example.com');
    await addMembersAs(t, ann, workspace.id, [{ userId: bobId, role: 'participant' }]);
    const headers = { 'x-workspace-id': workspace.id };
    const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/all`, { title: 'Общая' }, headers), 201);
    const db = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data: databaseBody() }), 201);
    const [row] = await addRows(db.id, [{ title: 'r', values: { price: 1 } }]);
    expectOk(await api(t, ann, 'POST', `${S}/element/${page.id}/member/add`, [{ userId: bobId, accessLevel: 'read' }]));

    expect(titles((await window(db.id, {}, bob)).rows)).toEqual(['r']);
    expect((await api(t, bob, 'GET', `${S}/database/${db.id}/export.csv`)).statusCode).toBe(200);
    const writes = [
      writeCell(row.id, 'price', 2, 1, bob),
      api(t, bob, 'POST', `${S}/database/${db.id}/rows`, { rows: [{}] }),
      api(t, bob, 'POST', `${S}/database/${db.id}/rows/delete`, { ids: [row.id] }),
      api(t, bob, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [row.id], placeAfter: null }),
      api(t, bob, 'POST', `${S}/database/${db.id}/fields`, { field: { name: 'x', type: 'text' } }),
      api(t, bob, 'POST', `${S}/database/${db.id}/fields/price`, { field: { name: 'x', type: 'text' } }),
      api(t, bob, 'DELETE', `${S}/database/${db.id}/fields/price`),
      api(t, bob, 'POST', `${S}/database/${db.id}/views/v1`, { layout: { name: 'x' } }),
      api(t, bob, 'DELETE', `${S}/database/${db.id}/views/v1`),
      api(t, bob, 'POST', `${S}/database/${db.id}/views`, { layout: { uid: 'v9', type: 'table', orderedFields: [] } }),
      api(t, bob, 'POST', `${S}/database/${db.id}/views/v1/move`, { placeAfter: null }),
      api(t, bob, 'POST', `${S}/database/${db.id}/rows/restore`, { ids: [row.id] }),
      api(t, bob, 'PATCH', `${S}/element/${row.id}`, { title: 'чужое' }),
    ];
    for (const res of await Promise.all(writes)) expect([res.statusCode, errorCode(res)]).toEqual([403, 'forbidden']);
    for (const res of await Promise.all([
      api(t, eve, 'GET', `${S}/database/${db.id}/rows`),
      api(t, eve, 'GET', `${S}/database/${db.id}`),
      api(t, eve, 'GET', `${S}/row/${row.id}`),
      api(t, eve, 'GET', `${S}/database/${db.id}/export.csv`),
      api(t, eve, 'GET', `${S}/database/${db.id}/calculations?viewId="v1"`),
      api(t, eve, 'GET', `${S}/database/${db.id}/groups?viewId="v1"`),
      api(t, eve, 'GET', `${S}/element/${row.id}`),
      writeCell(row.id, 'price', 2, 1, eve),
    ])) {
      expect(res.statusCode).toBe(403);
    }
    const [after] = (await window(db.id)).rows;
    expect(after.data.values).toEqual({ price: 1 });
  });
});

describe('public pages', () => {
  test('a published page shows its database to anyone (rows, footer, groups, CSV), never its trash, and nothing once unpublished', async () => {
    const { pageId, db } = await newDatabase();
    const [kept, gone] = await addRows(db.id, [{ title: 'видно', values: { price: 3 } }, { title: 'в корзине' }]);
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/delete`, { ids: [gone.id] }));
    const reads = () => [
      api(t, undefined, 'GET', `${S}/database/${db.id}`),
      api(t, undefined, 'GET', `${S}/database/${db.id}/rows`),
      api(t, undefined, 'GET', `${S}/database/${db.id}/calculations?viewId="v1"`),
      api(t, undefined, 'GET', `${S}/database/${db.id}/groups?viewId="v1"`),
      api(t, undefined, 'GET', `${S}/database/${db.id}/export.csv`),
      api(t, eve, 'GET', `${S}/database/${db.id}/rows`),
    ];
    // Not published: anonymous 401, a signed-in outsider 403.
    expect((await Promise.all(reads())).map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 401, 403]);
    expectOk(await api(t, ann, 'PATCH', `${S}/element/${pageId}`, { isPublic: true }));
    const answers = await Promise.all(reads());
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(titles(body<WireRow[]>(answers[1]).data)).toEqual(['видно']);
    expect(answers[4].body).toContain('видно');
    // Published is read-only, and the trash stays private.
    const trash = await api(t, undefined, 'GET', `${S}/database/${db.id}/rows?inTrash=true`);
    expect([trash.statusCode, errorCode(trash)]).toEqual([403, 'forbidden']);
    expect((await api(t, eve, 'GET', `${S}/database/${db.id}/rows?inTrash=true`)).statusCode).toBe(403);
    for (const res of await Promise.all([
      api(t, undefined, 'POST', `${S}/row/${kept.id}/cells/price`, { value: 9, version: 1 }),
      api(t, undefined, 'POST', `${S}/database/${db.id}/cells`, { cells: [{ rowId: kept.id, fieldId: 'price', value: 9, version: 1 }] }),
      api(t, undefined, 'POST', `${S}/database/${db.id}/rows`, { rows: [{}] }),
    ])) {
      expect(res.statusCode).toBe(401);
    }
    for (const res of await Promise.all([
      writeCell(kept.id, 'price', 9, 1, eve),
      api(t, eve, 'POST', `${S}/database/${db.id}/cells`, { cells: [{ rowId: kept.id, fieldId: 'price', value: 9, version: 1 }] }),
      api(t, eve, 'POST', `${S}/database/${db.id}/rows`, { rows: [{}] }),
      api(t, eve, 'POST', `${S}/database/${db.id}/fields`, { field: { name: 'x', type: 'text' } }),
    ])) {
      expect(res.statusCode).toBe(403);
    }
    expectOk(await api(t, ann, 'PATCH', `${S}/element/${pageId}`, { isPublic: false }));
    expect((await Promise.all(reads())).map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 401, 403]);
  });
});

describe('linked views: a view found by its uid (WidgetView pages)', () => {
  interface ViewAnswer {
    block: WireBlock;
    view: { uid: string; name?: string };
    page: WireElement;
  }
  const uid = () => crypto.randomUUID();
  /** A database whose one view has a uid of its own (the tests above share 'v1'). */
  async function linkedDatabase(cookie = ann, headers: Record<string, string> = {}, section = 'private') {
    const page = expectOk<WireElement>(await api(t, cookie, 'POST', `${S}/section/${section}`, { title: 'Источник' }, headers), 201);
    const data = databaseBody();
    const viewId = uid();
    data.view.layouts[0].uid = viewId;
    const db = expectOk<WireBlock>(await api(t, cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
    return { pageId: page.id, db, viewId, data };
  }
  const lookup = (viewId: string, cookie = ann) => api(t, cookie, 'GET', `${S}/database/view/${viewId}`);
  async function found(viewId: string, cookie = ann): Promise<ViewAnswer> {
    const res = await lookup(viewId, cookie);
    const answer = body<WireBlock>(res);
    expect([res.statusCode, res.statusCode === 200 ? '' : res.body]).toEqual([200, '']);
    return { block: answer.data, view: answer.meta.view as ViewAnswer['view'], page: answer.meta.page as WireElement };
  }
  const status = async (viewId: string, cookie = ann) => {
    const res = await lookup(viewId, cookie);
    return [res.statusCode, errorCode(res)];
  };

  test('the database, the view and the page holding it; views added are found, deleted ones not; a move or a whole-block write keeps it true', async () => {
    const { pageId, db, viewId, data } = await linkedDatabase();
    await addRows(db.id, [{ title: 'a' }]);
    const first = await found(viewId);
    expect(first.block.id).toBe(db.id);
    expect(first.view).toMatchObject({ uid: viewId, type: 'table', name: 'Таблица' });
    expect(first.page).toMatchObject({ id: pageId, title: 'Источник', accessLevel: 'full', inTrash: false });
    expect(body(await lookup(viewId)).meta.rowCount).toBe(1);

    const second = uid();
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views`, { layout: { uid: second, type: 'board', name: 'Доска', orderedFields: [] } }));
    expect((await found(second)).view).toMatchObject({ uid: second, type: 'board' });
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/${second}/move`, { placeAfter: null }));
    expect((await found(viewId)).block.id).toBe(db.id);
    expect((await found(second)).block.id).toBe(db.id);
    expectOk(await api(t, ann, 'DELETE', `${S}/database/${db.id}/views/${viewId}`));
    expect(await status(viewId)).toEqual([404, 'not_found']);
    expect((await found(second)).block.id).toBe(db.id);

    // The database block written whole (POST block/{id}): its views then are the ones found.
    const current = expectOk<WireBlock>(await api(t, ann, 'GET', `${S}/block/${db.id}`));
    const third = uid();
    const whole = { ...data, view: { layouts: [{ ...data.view.layouts[0], uid: third }] } };
    expectOk(await api(t, ann, 'POST', `${S}/block/${db.id}`, { type: 'database', version: current.version, data: whole }));
    expect(await status(second)).toEqual([404, 'not_found']);
    expect((await found(third)).block.id).toBe(db.id);
    expect(await status(uid())).toEqual([404, 'not_found']);
  });

  test('the database block deleted, restored, revived; its page in the trash and back', async () => {
    const { pageId, db, viewId, data } = await linkedDatabase();
    expectOk(await api(t, ann, 'DELETE', `${S}/block/${db.id}`));
    expect(await status(viewId)).toEqual([404, 'not_found']);
    expectOk(await api(t, ann, 'POST', `${S}/block/${db.id}/restore`, {}));
    expect((await found(viewId)).block.id).toBe(db.id);
    // An undo of the delete makes the block again with its id (a revive), its views with it.
    expectOk(await api(t, ann, 'DELETE', `${S}/block/${db.id}`));
    expectOk(await api(t, ann, 'POST', `${S}/block`, { id: db.id, pageId, type: 'database', data }), 201);
    expect((await found(viewId)).block.id).toBe(db.id);
    // Revived as another type, it holds no view any more.
    expectOk(await api(t, ann, 'DELETE', `${S}/block/${db.id}`));
    expectOk(await api(t, ann, 'POST', `${S}/block`, { id: db.id, pageId, type: 'text', data: { tokens: [{ text: 'уже не база' }] } }), 201);
    expect(await status(viewId)).toEqual([404, 'not_found']);

    const other = await linkedDatabase();
    expectOk(await api(t, ann, 'DELETE', `${S}/element/${other.pageId}`));
    expect(await status(other.viewId)).toEqual([404, 'not_found']);
    expectOk(await api(t, ann, 'POST', `${S}/trash/${other.pageId}/restore`, {}));
    expect((await found(other.viewId)).page.id).toBe(other.pageId);
    // Deleted for good: the block and its views are gone.
    expectOk(await api(t, ann, 'DELETE', `${S}/element/${other.pageId}`));
    expectOk(await api(t, ann, 'POST', `${S}/trash/${other.pageId}/remove`, {}));
    expect(await status(other.viewId)).toEqual([404, 'not_found']);
    expect(await t.app.db.selectFrom('database_layouts').select('layout_id').where('layout_id', '=', other.viewId).execute()).toEqual([]);
  });

  test('clones: a copied database has views of its own; linked views copied along follow the copy, others keep their source', async () => {
    const source = await linkedDatabase();
    const workspaceId = (await found(source.viewId)).page.workspaceId!;
    // Under the source page: a linked view of its database, one of another database, and a data page.
    const elsewhere = await linkedDatabase();
    const inside = expectOk<WireElement>(
      await api(t, ann, 'POST', `${S}/element/${source.pageId}/children`, { type: 'WidgetView', defaultLayoutId: source.viewId, title: 'Связанное' }),
      201,
    );
    expectOk<WireElement>(await api(t, ann, 'POST', `${S}/element/${source.pageId}/children`, { type: 'WidgetView', defaultLayoutId: elsewhere.viewId }), 201);
    const widgetLayout = uid();
    const widget = expectOk<WireElement>(
      await api(t, ann, 'POST', `${S}/element/${source.pageId}/children`, { type: 'Widget', defaultLayoutId: widgetLayout }),
      201,
    );
    expect((await found(widgetLayout)).page.id).toBe(widget.id);
    expect((await found(inside.defaultLayoutId!)).block.id).toBe(source.db.id);

    const copy = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/element/${source.pageId}/page/clone`, { workspaceId }), 201);
    const [copiedDb] = expectOk<WireBlock[]>(await api(t, ann, 'GET', `${S}/note/${copy.id}/blocks`));
    const copiedView = (copiedDb.data as DatabaseData).view.layouts[0].uid;
    expect(copiedView).not.toBe(source.viewId);
    expect((await found(copiedView)).block.id).toBe(copiedDb.id);
    expect((await found(source.viewId)).block.id).toBe(source.db.id);
    const children = expectOk<WireElement[]>(await api(t, ann, 'GET', `${S}/element/${copy.id}/children`));
    const byTitle = (type: string, title = '') => children.find((c) => c.type === type && c.title === title)!;
    expect(byTitle('WidgetView', 'Связанное').defaultLayoutId).toBe(copiedView);
    expect(byTitle('WidgetView').defaultLayoutId).toBe(elsewhere.viewId);
    const copiedWidget = byTitle('Widget');
    expect(copiedWidget.defaultLayoutId).not.toBe(widgetLayout);
    expect((await found(copiedWidget.defaultLayoutId!)).page.id).toBe(copiedWidget.id);

    // A block clone: the copy's views are new, the original keeps its own.
    const [clone] = expectOk<WireBlock[]>(await api(t, ann, 'POST', `${S}/block/${source.db.id}/clone`, {}), 201);
    const clonedView = (clone.data as DatabaseData).view.layouts[0].uid;
    expect(clonedView).not.toBe(source.viewId);
    expect((await found(clonedView)).block.id).toBe(clone.id);
    expect((await found(source.viewId)).block.id).toBe(source.db.id);
  });

  test('a uid another database takes later never takes the linked view over from its source', async () => {
    const source = await linkedDatabase();
    const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/private`, { title: 'Подделка' }), 201);
    const copy = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data: source.data }), 201);
    expect((await found(source.viewId)).block.id).toBe(source.db.id);
    // Nor when the source is deleted: that says «deleted», it does not move to the other.
    expectOk(await api(t, ann, 'DELETE', `${S}/block/${source.db.id}`));
    expect(await status(source.viewId)).toEqual([404, 'not_found']);
    expectOk(await api(t, ann, 'POST', `${S}/block/${source.db.id}/restore`, {}));
    expect((await found(source.viewId)).block.id).toBe(source.db.id);
    void copy;
  });

  test('denials: anonymous, an outsider, a reader of the linked view page without access to the source; a reader of the source reads', async () => {
    const workspace = await createWorkspaceAs(t, ann, 'Связанные');
    const bobId = await userIdOf(t, 'bob@example.com');
    await addMembersAs(t, ann, workspace.id, [{ userId: bobId, role: 'participant' }]);
    const headers = { 'x-workspace-id': workspace.id };
    // The source in Ann's private section; the linked view in the shared section, which Bob may edit.
    const source = await linkedDatabase(ann, headers, 'private');
    const linked = expectOk<WireElement>(
      await api(t, ann, 'POST', `${S}/section/all`, { type: 'WidgetView', defaultLayoutId: source.viewId, title: 'Для всех' }, headers),
      201,
    );
    expect(expectOk<WireElement>(await api(t, bob, 'GET', `${S}/element/${linked.id}`)).accessLevel).toBe('edit');
    expect(await status(source.viewId, bob)).toEqual([403, 'forbidden']);
    expect(await status(source.viewId, eve)).toEqual([403, 'forbidden']);
    const anonymous = await api(t, undefined, 'GET', `${S}/database/view/${source.viewId}`);
    expect(anonymous.statusCode).toBe(401);
    // A deleted source says nothing more to those without access: still 403.
    expectOk(await api(t, ann, 'DELETE', `${S}/block/${source.db.id}`));
    expect(await status(source.viewId, bob)).toEqual([403, 'forbidden']);
    expect(await status(source.viewId, eve)).toEqual([403, 'forbidden']);
    expectOk(await api(t, ann, 'POST', `${S}/block/${source.db.id}/restore`, {}));

    // Read access on the source: Bob reads it through the view, at his level there, and cannot write.
    expectOk(await api(t, ann, 'POST', `${S}/element/${source.pageId}/member/add`, [{ userId: bobId, accessLevel: 'read' }]));
    const seen = await found(source.viewId, bob);
    expect([seen.block.id, seen.page.accessLevel]).toEqual([source.db.id, 'read']);
    const [row] = await addRows(source.db.id, [{ title: 'r' }]);
    expect((await writeCell(row.id, 'note', 'чужое', 0, bob)).statusCode).toBe(403);
  });

  test('the migration enters the views of databases made before it (deleted ones too)', async () => {
    const { db, viewId } = await linkedDatabase();
    expectOk(await api(t, ann, 'DELETE', `${S}/block/${db.id}`));
    await t.app.db.deleteFrom('database_layouts').where('database_id', '=', db.id).execute();
    expect(await status(viewId)).toEqual([404, 'not_found']);
    const { fillDatabaseLayouts } = await import('../db/migrations/2026-11-26-0001-database-layouts');
    await t.app.db.deleteFrom('database_layouts').execute();
    await fillDatabaseLayouts(t.app.db);
    expectOk(await api(t, ann, 'POST', `${S}/block/${db.id}/restore`, {}));
    expect((await found(viewId)).block.id).toBe(db.id);
  });
});

describe('CSV export', () => {
  test("a view's rows as CSV: its columns and order, values as text, a BOM for spreadsheets", async () => {
    const { db } = await newDatabase();
    await addRows(db.id, [
      { title: 'Хлеб, белый', values: { price: 45.5, done: true, stage: 'doing', tags: ['a', 'b'], due: { start: '2026-11-25', end: '2026-11-30' } } },
      { title: 'Молоко "3,2%"', values: { note: 'строка\nвторая' } },
    ]);
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, {
        layout: {
          orderedFields: ['price', MAIN_FIELD_ID, 'done', 'stage', 'tags', 'due', 'note'].map((fieldId) => ({ fieldId, isWrap: false })),
          sorts: [{ fieldId: 'price', direction: 'asc' }],
        },
      }),
    );
    const res = await api(t, ann, 'GET', `${S}/database/${db.id}/export.csv?viewId="v1"`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    // Named after the page holding it: a plain-ASCII stand-in, and the Cyrillic name in UTF-8.
    expect(res.headers['content-disposition']).toBe(`attachment; filename=______.csv; filename*=UTF-8''${encodeURIComponent('Задачи.csv')}`);
    expect(res.body.charCodeAt(0)).toBe(0xfeff);
    const { parse } = await import('papaparse');
    const parsed = parse<string[]>(res.body.slice(1), { skipEmptyLines: true }).data;
    expect(parsed).toEqual([
      ['Цена', 'Название', 'Готово', 'Этап', 'Метки', 'Срок', 'Заметка'],
      ['45.5', 'Хлеб, белый', 'Да', 'В работе', 'Альфа, Бета', '2026-11-25 → 2026-11-30', ''],
      ['', 'Молоко "3,2%"', '', '', '', '', 'строка\nвторая'],
    ]);
  });
});

describe('migration of rows that were blocks', () => {
  test('databaseRow blocks become row pages with the same ids and their values as cells', async () => {
    // Written as the previous schema stored them: rows as blocks under the database.
    const { pageId, db } = await newDatabase();
    const rowId = crypto.randomUUID();
    const at = new Date().toISOString();
    const annId = await userIdOf(t, 'ann@example.com');
    await t.app.db
      .insertInto('blocks')
      .values({
        id: rowId,
        page_id: pageId,
        parent_id: db.id,
        sort_key: 'a0',
        type: 'databaseRow',
        data: JSON.stringify({ title: 'Старая', icon: '📦', values: { price: 3, stage: 'todo' } }),
        version: 4,
        created_at: at,
        updated_at: at,
        updated_by: annId,
        deleted_at: null,
      })
      .execute();
    const { convertRowBlocks } = await import('../db/migrations/2026-11-25-0001-data-tables');
    await convertRowBlocks(t.app.db);
    const [row] = (await window(db.id)).rows;
    expect(row).toMatchObject({
      id: rowId,
      pageId,
      databaseId: db.id,
      data: { title: 'Старая', icon: '📦', values: { price: 3, stage: 'todo' } },
      versions: { [MAIN_FIELD_ID]: 1, price: 1, stage: 1 },
    });
    expect(await t.app.db.selectFrom('blocks').select('id').where('id', '=', rowId).executeTakeFirst()).toBeUndefined();
  });
});
