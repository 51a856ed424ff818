import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { DatabaseEvent, WireRow } from '../../schema/database';
import { channels } from '../../schema/realtime';
import { collect, connectRealtime, request } from '../../test/helpers/realtimeClient';
import type { WireElement } from '../../schema/element';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString as q, signIn, type TestApp } from '../../test/helpers/testApp';

/*
 * Formula fields (docs/formulas.md «The formula field») on a real server and the project's
 * database (SQLite or PostgreSQL): a formula's column computed for every row when it is added, a
 * row's formulas again when its cells, its title or a new row change (chains of formulas in
 * order), sorting and filtering by the type a formula gives, a row's own error, a formula that does
 * not compile or closes a cycle refused at its place, a field a formula reads kept from deletion,
 * and formula cells never written by a client.
 */

let t: TestApp;
let ann: string;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t, 'ann.formulas@example.com');
});
afterAll(async () => {
  await t.close();
});

/** A database with a price, a quantity and a due day, and three rows. */
async function shop() {
  const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/private`, { title: 'Магазин' }), 201);
  const fields = {
    [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
    price: { name: 'Цена', type: 'number' },
    qty: { name: 'Кол-во', type: 'number' },
    due: { name: 'Срок', type: 'date' },
  };
  const data: DatabaseData = {
    config: { fields } as unknown as DatabaseData['config'],
    view: { layouts: [{ uid: 'tbl', type: 'table', orderedFields: Object.keys(fields).map((fieldId) => ({ fieldId, isWrap: false })) }] },
  };
  const db = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  const rows = expectOk<WireRow[]>(
    await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, {
      rows: [
        { title: 'Чай', values: { price: 120, qty: 3, due: '2026-12-10' } },
        { title: 'Кофе', values: { price: 450, qty: 1 } },
        { title: 'Сахар', values: { price: 60, qty: 0, due: '2026-11-01' } },
      ],
    }),
    201,
  );
  return { db: db.id, rows: Object.fromEntries(rows.map((r) => [r.data.title, r])) };
}

const addField = (db: string, fieldId: string, field: object) => api(t, ann, 'POST', `${S}/database/${db}/fields`, { id: fieldId, field });
const rowsOf = async (db: string, query: object = {}) =>
  expectOk<WireRow[]>(await api(t, ann, 'GET', `${S}/database/${db}/rows?${q({ limit: 100, ...query })}`));
const column = async (db: string, fieldId: string, query: object = {}) =>
  Object.fromEntries((await rowsOf(db, query)).map((row) => [row.data.title, row.data.values[fieldId] ?? null]));

test('a formula column is computed for every row, and again for a row whose cell, title or new row changes — formulas of formulas in order', async () => {
  const { db, rows } = await shop();
  expectOk(await addField(db, 'total', { name: 'Сумма', type: 'formula', expression: 'prop("price") * prop("qty")' }));
  expect(await column(db, 'total')).toEqual({ Чай: 360, Кофе: 450, Сахар: 0 });
  // Read by another formula (declared after it, and one declared before what it reads works too).
  expectOk(await addField(db, 'label', { name: 'Подпись', type: 'formula', expression: `prop("${MAIN_FIELD_ID}") + ": " + prop("total") + " ₽"` }));
  expect(await column(db, 'label')).toEqual({ Чай: 'Чай: 360 ₽', Кофе: 'Кофе: 450 ₽', Сахар: 'Сахар: 0 ₽' });

  // A cell written: the row's formulas follow, in the answer's events and on the next read.
  const tea = rows['Чай'];
  expectOk(await api(t, ann, 'POST', `${S}/row/${tea.id}/cells/qty`, { value: 5, version: tea.versions.qty }));
  expect((await column(db, 'label'))['Чай']).toBe('Чай: 600 ₽');
  // A batch of cells.
  const sugar = rows['Сахар'];
  const batch = body<{ written: Array<{ rowId: string; fieldId: string; value: unknown }> }>(
    await api(t, ann, 'POST', `${S}/database/${db}/cells`, { cells: [{ rowId: sugar.id, fieldId: 'qty', value: 2, version: sugar.versions.qty }] }),
  ).data;
  expect(batch.written.filter((c) => c.rowId === sugar.id).map((c) => [c.fieldId, c.value])).toEqual([
    ['qty', 2],
    ['total', 120],
    ['label', 'Сахар: 120 ₽'],
  ]);
  // The title, changed as the row page's title.
  expectOk(await api(t, ann, 'PATCH', `${S}/element/${rows['Кофе'].id}`, { title: 'Кофе в зёрнах' }));
  expect((await column(db, 'label'))['Кофе в зёрнах']).toBe('Кофе в зёрнах: 450 ₽');
  // A new row.
  expectOk(await api(t, ann, 'POST', `${S}/database/${db}/rows`, { rows: [{ title: 'Мёд', values: { price: 300, qty: 2 } }] }), 201);
  expect((await column(db, 'label'))['Мёд']).toBe('Мёд: 600 ₽');
  // The expression changed: the column again.
  expectOk(
    await api(t, ann, 'POST', `${S}/database/${db}/fields/total`, { field: { name: 'Сумма', type: 'formula', expression: 'prop("price") * prop("qty") * 2' } }),
  );
  expect(await column(db, 'label')).toEqual({ Чай: 'Чай: 1200 ₽', 'Кофе в зёрнах': 'Кофе в зёрнах: 900 ₽', Сахар: 'Сахар: 240 ₽', Мёд: 'Мёд: 1200 ₽' });
});

test('views sort and filter by what a formula gives (numbers as numbers, dates as dates, texts folded)', async () => {
  const { db } = await shop();
  expectOk(await addField(db, 'total', { name: 'Сумма', type: 'formula', expression: 'prop("price") * prop("qty")' }));
  expectOk(await addField(db, 'late', { name: 'Просрочено', type: 'formula', expression: 'dateAdd(prop("due"), 7, "days")' }));
  expectOk(await addField(db, 'kind', { name: 'Вид', type: 'formula', expression: 'if(prop("price") > 100, "Дорого", "Дёшево")' }));
  const titles = async (query: object) => (await rowsOf(db, query)).map((row) => row.data.title);
  expect(await titles({ sorts: [{ fieldId: 'total', direction: 'desc' }] })).toEqual(['Кофе', 'Чай', 'Сахар']);
  expect(await titles({ filter: { op: 'and', rules: [{ fieldId: 'total', condition: 'gt', value: 100 }] } })).toEqual(['Чай', 'Кофе']);
  expect(await titles({ filter: { op: 'and', rules: [{ fieldId: 'late', condition: 'lt', value: '2026-12-01' }] } })).toEqual(['Сахар']);
  expect(await titles({ filter: { op: 'and', rules: [{ fieldId: 'late', condition: 'isEmpty' }] } })).toEqual(['Кофе']);
  expect(await titles({ filter: { op: 'and', rules: [{ fieldId: 'kind', condition: 'is', value: 'дёшево' }] } })).toEqual(['Сахар']);
  expect(await column(db, 'late')).toEqual({ Чай: '2026-12-17', Кофе: null, Сахар: '2026-11-08' });
});

test('a row where the formula fails keeps its error; the others their values', async () => {
  const { db } = await shop();
  expectOk(await addField(db, 'each', { name: 'За штуку', type: 'formula', expression: 'prop("price") / prop("qty")' }));
  expect(await column(db, 'each')).toEqual({ Чай: 40, Кофе: 450, Сахар: { error: 'Деление на ноль' } });
});

test('a formula that does not compile, or closes a cycle, is refused at its place; a field a formula reads is not deleted; formula cells are not written', async () => {
  const { db, rows } = await shop();
  const bad = await addField(db, 'bad', { name: 'Плохая', type: 'formula', expression: 'prop("price") * "два"' });
  expect(bad.statusCode).toBe(422);
  expect(errorCode(bad)).toBe('validation_failed');
  expect(JSON.stringify(bad.json())).toContain('«*» работает с числами, а здесь текст [16, 21)');
  const unknown = await addField(db, 'bad', { name: 'Плохая', type: 'formula', expression: 'prop("nope") + 1' });
  expect(JSON.stringify(unknown.json())).toContain('Нет поля «nope»');

  expectOk(await addField(db, 'a', { name: 'А', type: 'formula', expression: 'prop("price") + 1' }));
  expectOk(await addField(db, 'b', { name: 'Б', type: 'formula', expression: 'prop("a") * 2' }));
  const cycle = await api(t, ann, 'POST', `${S}/database/${db}/fields/a`, { field: { name: 'А', type: 'formula', expression: 'prop("b") + 1' } });
  expect(cycle.statusCode).toBe(422);
  expect(JSON.stringify(cycle.json())).toContain('по кругу');
  // Nothing changed: the formulas still compute.
  expect((await column(db, 'b'))['Чай']).toBe(242);

  const deleting = await api(t, ann, 'DELETE', `${S}/database/${db}/fields/price`);
  expect(deleting.statusCode).toBe(422);
  expect(JSON.stringify(deleting.json())).toContain('«А»');
  // Once no formula reads it, it goes.
  expectOk(await api(t, ann, 'DELETE', `${S}/database/${db}/fields/b`));
  expectOk(await api(t, ann, 'DELETE', `${S}/database/${db}/fields/a`));
  expectOk(await api(t, ann, 'DELETE', `${S}/database/${db}/fields/price`));

  expectOk(await addField(db, 'c', { name: 'В', type: 'formula', expression: 'prop("qty") + 1' }));
  const write = await api(t, ann, 'POST', `${S}/row/${rows['Чай'].id}/cells/c`, { value: 5, version: 1 });
  expect(write.statusCode).toBe(422);
  expect(errorCode(write)).toBe('database.field_computed');
});

test('a field a formula reads: its options renamed, the formula follows; only its name changed, the formula cells keep their versions', async () => {
  const { db, rows } = await shop();
  const options = [
    { id: 'new', name: 'Новый' },
    { id: 'old', name: 'Старый' },
  ];
  expectOk(await addField(db, 'state', { name: 'Состояние', type: 'select', options }));
  const tea = rows['Чай'];
  expectOk(await api(t, ann, 'POST', `${S}/row/${tea.id}/cells/state`, { value: 'new', version: 0 }));
  expectOk(await addField(db, 'says', { name: 'Говорит', type: 'formula', expression: 'lower(prop("state"))' }));
  expect((await column(db, 'says'))['Чай']).toBe('новый');
  const version = async () => (await rowsOf(db)).find((row) => row.id === tea.id)!.versions.says;
  const before = await version();

  expectOk(
    await api(t, ann, 'POST', `${S}/database/${db}/fields/state`, {
      field: { name: 'Состояние', type: 'select', options: [{ id: 'new', name: 'Свежий' }, options[1]] },
    }),
  );
  expect((await column(db, 'says'))['Чай']).toBe('свежий');
  const renamed = await version();
  expect(renamed).toBe(before + 1);
  // The field renamed alone: the formula's cells keep their version (no value changed, none written).
  expectOk(
    await api(t, ann, 'POST', `${S}/database/${db}/fields/state`, {
      field: { name: 'Стадия', type: 'select', options: [{ id: 'new', name: 'Свежий' }, options[1]] },
    }),
  );
  expect(await version()).toBe(renamed);
});

test('the footer and charts take a formula as the type it gives: the sum and average of numbers, categories of texts', async () => {
  const { db } = await shop();
  expectOk(await addField(db, 'total', { name: 'Сумма', type: 'formula', expression: 'prop("price") * prop("qty")' }));
  expectOk(await addField(db, 'size', { name: 'Размер', type: 'formula', expression: 'if(prop("price") > 100, "дорого", "дёшево")' }));
  // Чай 360, Кофе 450, Сахар 0.
  expectOk(await api(t, ann, 'POST', `${S}/database/${db}/views/tbl`, { layout: { calculations: { total: 'sum', size: 'unique' } } }));
  expect(expectOk<Record<string, number>>(await api(t, ann, 'GET', `${S}/database/${db}/calculations?viewId="tbl"`))).toEqual({ total: 810, size: 2 });
  expectOk(await api(t, ann, 'POST', `${S}/database/${db}/views/tbl`, { layout: { calculations: { total: 'average' } } }));
  expect(expectOk<Record<string, number>>(await api(t, ann, 'GET', `${S}/database/${db}/calculations?viewId="tbl"`)).total).toBe(270);

  // A chart: the sum of «Сумма» by «Размер» (a text formula's categories, spelled as written).
  expectOk(await api(t, ann, 'POST', `${S}/database/${db}/views`, { layout: { uid: 'chart', type: 'chart', orderedFields: [] } }));
  const chart = { x: { fieldId: 'size' }, y: { aggregate: 'sum', fieldId: 'total' } };
  const answer = expectOk<{ categories: Array<{ key: unknown; label: string }>; points: Array<{ x: unknown; value: number | null }> }>(
    await api(t, ann, 'GET', `${S}/database/${db}/chart?${q({ viewId: 'chart', chart })}`),
  );
  const byLabel = Object.fromEntries(answer.points.map((p) => [answer.categories.find((c) => c.key === p.x)?.label, p.value]));
  expect(byLabel).toEqual({ дорого: 810, дёшево: 0 });
  // By a number formula as x: its values.
  const byNumber = expectOk<{ categories: Array<{ label: string }> }>(
    await api(t, ann, 'GET', `${S}/database/${db}/chart?${q({ viewId: 'chart', chart: { x: { fieldId: 'total' }, y: { aggregate: 'count' } } })}`),
  );
  expect(byNumber.categories.map((c) => c.label)).toEqual(['0', '360', '450']);
});

test('a card moved with a value set computes its formulas again; a second viewer hears the formula cells of a write', async () => {
  const { db, rows } = await shop();
  expectOk(await addField(db, 'total', { name: 'Сумма', type: 'formula', expression: 'prop("price") * prop("qty")' }));
  // Moved into another «column» of quantity 7: its formula follows in the same write.
  const tea = rows['Чай'];
  expectOk(await api(t, ann, 'POST', `${S}/database/${db}/rows/move`, { ids: [tea.id], placeAfter: null, set: { fieldId: 'qty', value: 7 } }));
  expect((await column(db, 'total'))['Чай']).toBe(840);

  // Another viewer, joined to the page, hears the new formula value with the cell that moved it.
  const holder = expectOk<WireBlock>(await api(t, ann, 'GET', `${S}/block/${db}`)).pageId;
  const me = expectOk<{ id: string }>(await api(t, ann, 'GET', '/api/user/current'));
  const baseUrl = await listening();
  const socket = await connectRealtime(baseUrl, { cookie: ann });
  try {
    const events = collect<DatabaseEvent>(socket, 'database');
    expect((await request(socket, 'join', { channel: channels.element(holder, me.id) })).ok).toBe(true);
    const coffee = rows['Кофе'];
    expectOk(await api(t, ann, 'POST', `${S}/row/${coffee.id}/cells/qty`, { value: 2, version: coffee.versions.qty }));
    const until = Date.now() + 5_000;
    const heard = () =>
      events.flatMap((e) => (e.change.kind === 'cells' && e.change.rowId === coffee.id ? e.change.cells.map((c) => [c.fieldId, c.value]) : []));
    while (!heard().some(([fieldId]) => fieldId === 'total') && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard()).toEqual(
      expect.arrayContaining([
        ['qty', 2],
        ['total', 900],
      ]),
    );
  } finally {
    socket.close();
  }
});

let listeningAt: string | null = null;
async function listening(): Promise<string> {
  listeningAt ??= await t.app.listen({ port: 0, host: '127.0.0.1' });
  return listeningAt;
}

test('a formula whose expression changes: nothing converted or dropped, and the rows whose value stays keep their cells’ versions', async () => {
  const { db } = await shop();
  expectOk(await addField(db, 'total', { name: 'Сумма', type: 'formula', expression: 'prop("price") * prop("qty")' }));
  const before = Object.fromEntries((await rowsOf(db)).map((row) => [row.data.title, row.versions.total]));
  // The same values for «Чай» and «Кофе» (qty ≥ 1), another for «Сахар» (qty 0: max(…, 1)).
  const answer = body<{ report: { converted: number; dropped: number } }>(
    await api(t, ann, 'POST', `${S}/database/${db}/fields/total`, {
      field: { name: 'Сумма', type: 'formula', expression: 'prop("price") * max(prop("qty"), 1)' },
    }),
  );
  expect(answer.meta).toMatchObject({ report: { converted: 0, dropped: 0 } });
  const after = await rowsOf(db);
  const versions = Object.fromEntries(after.map((row) => [row.data.title, row.versions.total]));
  expect(versions['Чай']).toBe(before['Чай']);
  expect(versions['Кофе']).toBe(before['Кофе']);
  expect(versions['Сахар']).toBe(before['Сахар'] + 1);
  expect(Object.fromEntries(after.map((row) => [row.data.title, row.data.values.total]))).toEqual({ Чай: 360, Кофе: 450, Сахар: 60 });
});
