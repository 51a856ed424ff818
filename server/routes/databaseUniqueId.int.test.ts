import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import type { WireSearchHit } from '../../schema/search';
import { actor } from '../../test/helpers/pages';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString as q, type TestApp } from '../../test/helpers/testApp';

/*
 * Unique IDs (issue 38, docs/api/databases.md «Unique ID») on a real server and the project's
 * database: every row numbered once in the order rows are made (those there when the field is
 * added too), new rows going on, a number never given again (a row trashed keeps its own), rows
 * made at once by two people never sharing one, filters and sorts by the number, the prefix in
 * what is shown and searched, a copy of the database going on after the original's counter, and
 * the field never written by a client.
 */

let t: TestApp;
let ann: string;
let workspaceId: string;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  const me = await actor(t, 'ann.ids@example.com');
  ann = me.cookie;
  workspaceId = me.workspaceId;
});
afterAll(async () => {
  await t.close();
});

async function tasks(titles: string[]) {
  const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/private`, { title: 'Задачи' }), 201);
  const data: DatabaseData = {
    config: { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' } } } as unknown as DatabaseData['config'],
    view: { layouts: [{ uid: 'tbl', type: 'table', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
  };
  const db = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  // One by one: their creation times are in this order.
  for (const title of titles) expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, { rows: [{ title }] }), 201);
  return { db: db.id, page: page.id };
}
const rowsOf = async (db: string, query: object = {}) =>
  expectOk<WireRow[]>(await api(t, ann, 'GET', `${S}/database/${db}/rows?${q({ limit: 500, ...query })}`));
const ids = async (db: string, query: object = {}) => Object.fromEntries((await rowsOf(db, query)).map((r) => [r.data.title, r.data.values.num ?? null]));
const addRows = async (db: string, titles: string[]) =>
  expectOk<WireRow[]>(await api(t, ann, 'POST', `${S}/database/${db}/rows`, { rows: titles.map((title) => ({ title })) }), 201);

test('the rows there are numbered in the order they were made; new rows go on; a number is never given again', async () => {
  const { db } = await tasks(['Первая', 'Вторая', 'Третья']);
  expectOk(await api(t, ann, 'POST', `${S}/database/${db}/fields`, { id: 'num', field: { name: 'ID', type: 'uniqueId', prefix: 'ЗАДАЧА' } }));
  expect(await ids(db)).toEqual({ Первая: 1, Вторая: 2, Третья: 3 });
  const [fourth, fifth] = await addRows(db, ['Четвёртая', 'Пятая']);
  expect([fourth.data.values.num, fifth.data.values.num]).toEqual([4, 5]);
  // Trashed: its number stays its own; the next row does not get it.
  expectOk(await api(t, ann, 'POST', `${S}/database/${db}/rows/delete`, { ids: [fifth.id] }));
  const [sixth] = await addRows(db, ['Шестая']);
  expect(sixth.data.values.num).toBe(6);
  expectOk(await api(t, ann, 'POST', `${S}/database/${db}/rows/restore`, { ids: [fifth.id] }));
  expect((await ids(db))['Пятая']).toBe(5);
  // Never written by a client.
  const refused = await api(t, ann, 'POST', `${S}/row/${sixth.id}/cells/num`, { value: 1, version: sixth.versions.num });
  expect([refused.statusCode, errorCode(refused)]).toEqual([422, 'database.field_computed']);
  const creating = await api(t, ann, 'POST', `${S}/database/${db}/rows`, { rows: [{ title: 'Своя', values: { num: 99 } }] });
  expect(creating.statusCode).toBe(422);
});

test('filtered and sorted by the number; shown, searched and copied as text with its prefix; a new prefix follows everywhere', async () => {
  const { db } = await tasks(['Альфа', 'Бета', 'Гамма', 'Дельта']);
  expectOk(await api(t, ann, 'POST', `${S}/database/${db}/fields`, { id: 'num', field: { name: 'ID', type: 'uniqueId', prefix: 'ЗАДАЧА' } }));
  const titles = async (query: object) => (await rowsOf(db, query)).map((r) => r.data.title);
  expect(
    await titles({ filter: { op: 'and', rules: [{ fieldId: 'num', condition: 'gt', value: 2 }] }, sorts: [{ fieldId: 'num', direction: 'desc' }] }),
  ).toEqual(['Дельта', 'Гамма']);
  // The CSV export writes it as shown (the view shows it).
  expectOk(
    await api(t, ann, 'POST', `${S}/database/${db}/views/tbl`, {
      layout: {
        orderedFields: [
          { fieldId: MAIN_FIELD_ID, isWrap: false },
          { fieldId: 'num', isWrap: false },
        ],
      },
    }),
  );
  const csv = await api(t, ann, 'GET', `${S}/database/${db}/export.csv?${q({ viewId: 'tbl' })}`);
  expect(csv.statusCode).toBe(200);
  expect(csv.body).toContain('Гамма,ЗАДАЧА-3');
  // Found by the search as shown.
  expect(await searched('ЗАДАЧА-3', 'Гамма')).toContain('Гамма');
  // A new prefix: the numbers stay, what is shown and found follows.
  const field = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/database/${db}/fields/num`, { field: { name: 'ID', type: 'uniqueId', prefix: 'БАГ' } }));
  expect(field.type).toBe('database');
  expect(await ids(db)).toEqual({ Альфа: 1, Бета: 2, Гамма: 3, Дельта: 4 });
  expect(await searched('БАГ-4', 'Дельта')).toContain('Дельта');
  // A prefix of other signs is refused.
  const bad = await api(t, ann, 'POST', `${S}/database/${db}/fields/num`, { field: { name: 'ID', type: 'uniqueId', prefix: 'A B' } });
  expect(bad.statusCode).toBe(422);
});

test('rows made at once by two writers never share a number', async () => {
  const { db } = await tasks([]);
  expectOk(await api(t, ann, 'POST', `${S}/database/${db}/fields`, { id: 'num', field: { name: 'ID', type: 'uniqueId' } }));
  const batches = await Promise.all(
    Array.from({ length: 4 }, (_, b) =>
      addRows(
        db,
        Array.from({ length: 25 }, (_, i) => `Строка ${b}-${i}`),
      ),
    ),
  );
  const numbers = batches.flat().map((r) => r.data.values.num as number);
  expect(new Set(numbers).size).toBe(100);
  expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  // Each batch in its own order.
  for (const batch of batches) {
    const own = batch.map((r) => r.data.values.num as number);
    expect(own).toEqual([...own].sort((a, b) => a - b));
  }
});

test('a copy of the database keeps the numbers and goes on after the original’s counter; a field retyped to a unique ID numbers every row', async () => {
  const { db, page } = await tasks(['Один', 'Два']);
  expectOk(await api(t, ann, 'POST', `${S}/database/${db}/fields`, { id: 'num', field: { name: 'ID', type: 'uniqueId', prefix: 'Т' } }));
  const [three] = await addRows(db, ['Три']);
  // Trashed in the original: the copy does not give its number again either.
  expectOk(await api(t, ann, 'POST', `${S}/database/${db}/rows/delete`, { ids: [three.id] }));
  const cloned = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/element/${page}/page/clone`, { workspaceId }), 201);
  const [copyBlock] = expectOk<WireBlock[]>(await api(t, ann, 'GET', `${S}/note/${cloned.id}/blocks`));
  expect(await ids(copyBlock.id)).toEqual({ Один: 1, Два: 2 });
  const [made] = await addRows(copyBlock.id, ['Новая']);
  expect(made.data.values.num).toBe(4);

  // Retyped: a number field's values give way to numbers in the order rows were made.
  const other = await tasks(['А', 'Б']);
  expectOk(await api(t, ann, 'POST', `${S}/database/${other.db}/fields`, { id: 'num', field: { name: 'Номер', type: 'number' } }));
  const rows = await rowsOf(other.db);
  expectOk(await api(t, ann, 'POST', `${S}/row/${rows[0].id}/cells/num`, { value: 70, version: 0 }));
  expectOk(await api(t, ann, 'POST', `${S}/database/${other.db}/fields/num`, { field: { name: 'Номер', type: 'uniqueId' } }));
  expect(await ids(other.db)).toEqual({ А: 1, Б: 2 });
  // A cell there goes on from its version (written 1, cleared by the retype 2, numbered 3); a new one starts at 1.
  expect(Object.fromEntries((await rowsOf(other.db)).map((r) => [r.data.title, r.versions.num]))).toEqual({ А: 3, Б: 1 });
});

/** The titles the search finds for a query, once `expected` is among them or 15 s passed (the index catches up in the background). */
async function searched(query: string, expected: string): Promise<string[]> {
  const until = Date.now() + 15_000;
  for (;;) {
    const res = await api(t, ann, 'GET', `${S}/search/text?${q({ q: query })}`, undefined, { 'x-workspace-id': workspaceId });
    const found = body<WireSearchHit[]>(res).data.map((hit) => hit.page.title);
    if (found.includes(expected) || Date.now() > until) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
