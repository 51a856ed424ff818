import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData, type FilterGroup, type ViewSort } from '../../schema/blocks/database';
import type { WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { seeded } from '../../test/helpers/races';
import { api, createTestApp, expectOk, jsonQueryString as q, signIn, type TestApp } from '../../test/helpers/testApp';
import { databaseData, findDatabaseBlock, orderedRows, reorderRows, type RowOrder } from '../repositories/databases';

/*
 * A view's kept order brought up to date after cell writes (`reorderRows`, issue 34 «Windows under
 * writes»): the written rows taken out and put back where their keys now place them must give
 * exactly the order a fresh sort of every row gives — on SQLite and PostgreSQL, with empty
 * values, ties, select options, dates, and texts whose code-point order differs from UTF-16's
 * (above U+FFFF against the private-use area), Cyrillic with ё, and case.
 */

let t: TestApp;
let ann: string;
beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t, 'kept.order@example.com');
});
afterAll(async () => {
  await t.close();
});

const S = '/api/v3/spaces';
const FIELDS = {
  [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
  n: { name: 'Число', type: 'number' },
  s: { name: 'Текст', type: 'text' },
  o: { name: 'Этап', type: 'select', options: ['a', 'b', 'c'].map((id) => ({ id, name: id.toUpperCase() })) },
  d: { name: 'Срок', type: 'date' },
  c: { name: 'Готово', type: 'checkbox' },
} as const;
const TEXTS = ['Ёлка', 'ёлка', 'елка', 'Zebra', 'zebra', '😀 смайл', '\uE000 частное', 'a', 'A', 'яблоко', ' пробел', 'Яблоко', null];
const value = (field: string, pick: (n: number) => number): unknown => {
  switch (field) {
    case 'n':
      return [null, -1, 0, 0, 2.5, 7, 1000][pick(7)];
    case 's':
    case MAIN_FIELD_ID:
      return field === MAIN_FIELD_ID ? (TEXTS[pick(TEXTS.length - 1)] ?? '') : TEXTS[pick(TEXTS.length)];
    case 'o':
      return [null, 'a', 'b', 'c'][pick(4)];
    case 'd':
      return [null, '2026-01-05', '2026-01-05', '2026-03-01', '2025-12-31'][pick(5)];
    default:
      return [true, false][pick(2)];
  }
};

const QUERIES: Array<{ name: string; sorts?: ViewSort[]; filter?: FilterGroup; search?: string; order?: string }> = [
  { name: 'the view’s own order (rows moved in it)', order: 'v1' },
  { name: 'text up, ties in the view’s own order', sorts: [{ fieldId: 'o', direction: 'asc' }], order: 'v1' },
  { name: 'text up', sorts: [{ fieldId: 's', direction: 'asc' }] },
  {
    name: 'number down, text up',
    sorts: [
      { fieldId: 'n', direction: 'desc' },
      { fieldId: 's', direction: 'asc' },
    ],
  },
  {
    name: 'option, date down',
    sorts: [
      { fieldId: 'o', direction: 'asc' },
      { fieldId: 'd', direction: 'desc' },
    ],
  },
  {
    name: 'filtered by number, title down',
    sorts: [{ fieldId: MAIN_FIELD_ID, direction: 'desc' }],
    filter: { op: 'and', rules: [{ fieldId: 'n', condition: 'gte', value: 0 }] },
  },
  {
    name: 'checkbox, text down, searched',
    sorts: [
      { fieldId: 'c', direction: 'asc' },
      { fieldId: 's', direction: 'desc' },
    ],
    search: 'л',
  },
];

test.each([1, 2, 3])('seed %i: a kept order after random cell writes equals a fresh sort, every step', async (seed) => {
  const pick = seeded(seed);
  const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/private`, { title: 'Порядок' }), 201);
  const data: DatabaseData = {
    config: { fields: structuredClone(FIELDS) as unknown as DatabaseData['config']['fields'] },
    view: { layouts: [{ uid: 'v1', type: 'table', orderedFields: Object.keys(FIELDS).map((fieldId) => ({ fieldId, isWrap: false })) }] },
  };
  const db = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  const rows = expectOk<WireRow[]>(
    await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, {
      rows: Array.from({ length: 40 }, () => ({
        title: value(MAIN_FIELD_ID, pick),
        values: Object.fromEntries(['n', 's', 'o', 'd', 'c'].map((f) => [f, value(f, pick)]).filter(([, v]) => v !== null)),
      })),
    }),
    201,
  );
  const versions = new Map(rows.map((row) => [row.id, { ...row.versions } as Record<string, number>]));
  const config = databaseData((await findDatabaseBlock(t.app.db, db.id))!).config;
  const query = (qr: (typeof QUERIES)[number]) => ({ sorts: qr.sorts, filter: qr.filter ?? null, search: qr.search, order: qr.order });
  // Rows moved in the view: it has keys of its own for them (docs/api/databases.md «Order per view»).
  for (let i = 0; i < 6; i++) {
    const moving = rows[pick(rows.length)].id;
    const after = rows[pick(rows.length)].id;
    if (moving !== after) expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [moving], placeAfter: after, viewId: 'v1' }));
  }
  const kept = new Map<string, RowOrder>();
  for (const qr of QUERIES) kept.set(qr.name, await orderedRows(t.app.db, config, db.id, query(qr)));
  expect([...kept.values()].some((order) => order.ids.length > 10)).toBe(true);

  for (let step = 0; step < 25; step++) {
    // One to three cells of one to three rows, in one call.
    const cells = Array.from({ length: 1 + pick(3) }, () => {
      const row = rows[pick(rows.length)];
      const fieldId = [MAIN_FIELD_ID, 'n', 's', 'o', 'd', 'c'][pick(6)];
      return { rowId: row.id, fieldId, value: value(fieldId, pick) };
    }).filter((cell, i, all) => all.findIndex((other) => other.rowId === cell.rowId && other.fieldId === cell.fieldId) === i);
    const { written, conflicts } = expectOk<{ written: Array<{ rowId: string; fieldId: string; version: number }>; conflicts: unknown[] }>(
      await api(t, ann, 'POST', `${S}/database/${db.id}/cells`, {
        cells: cells.map((cell) => ({ ...cell, version: versions.get(cell.rowId)![cell.fieldId] ?? 0 })),
      }),
    );
    expect(conflicts).toEqual([]);
    for (const cell of written) versions.get(cell.rowId)![cell.fieldId] = cell.version;
    const rowIds = [...new Set(cells.map((cell) => cell.rowId))];
    for (const qr of QUERIES) {
      const next = await reorderRows(t.app.db, config, db.id, query(qr), kept.get(qr.name)!, rowIds);
      const fresh = await orderedRows(t.app.db, config, db.id, query(qr));
      expect({ step, query: qr.name, ids: next.ids }).toEqual({ step, query: qr.name, ids: fresh.ids });
      expect(next.keys).toEqual(fresh.keys);
      kept.set(qr.name, next);
    }
  }
  // And through the route: a window of the sorted view after writes in its field (kept, then brought up to date) is the fresh order.
  const sorts = QUERIES[1].sorts;
  const window = async () => expectOk<WireRow[]>(await api(t, ann, 'GET', `${S}/database/${db.id}/rows?${q({ sorts, limit: 100 })}`)).map((r) => r.id);
  await window();
  for (let step = 0; step < 10; step++) {
    const row = rows[pick(rows.length)];
    const cell = expectOk<{ version: number }>(
      await api(t, ann, 'POST', `${S}/row/${row.id}/cells/n`, { value: value('n', pick), version: versions.get(row.id)!.n ?? 0 }),
    );
    versions.get(row.id)!.n = cell.version;
    expect(await window()).toEqual((await orderedRows(t.app.db, config, db.id, { sorts })).ids);
  }
});
