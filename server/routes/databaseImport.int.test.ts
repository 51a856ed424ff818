import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { ImportReport, WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { actor, share, type Actor } from '../../test/helpers/pages';
import { api, createTestApp, errorCode, expectOk, jsonQueryString as q, type TestApp } from '../../test/helpers/testApp';

/*
 * Rows imported over the API (issue 38, docs/api/databases.md «Import») on a real server and the
 * project's database: CSV and JSON, columns matched by name or id, new options made, an upsert by
 * a key field (a unique ID's text too) that changes only the cells that differ, a dry run that
 * writes nothing, a row with a problem skipped and said while the others land, and who may import.
 */

let t: TestApp;
let ann: Actor;
let bob: Actor;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  ann = await actor(t, 'ann.import@example.com');
  bob = await actor(t, 'bob.import@example.com');
});
afterAll(async () => {
  await t.close();
});

async function tasks() {
  const page = expectOk<WireElement>(await api(t, ann.cookie, 'POST', `${S}/section/private`, { title: 'Задачи' }), 201);
  const data: DatabaseData = {
    config: {
      fields: {
        [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
        stage: { name: 'Статус', type: 'select', options: [{ id: 'todo', name: 'Сделать' }] },
        price: { name: 'Цена', type: 'number' },
        done: { name: 'Готово', type: 'checkbox' },
        due: { name: 'Срок', type: 'date' },
        num: { name: 'ID', type: 'uniqueId', prefix: 'ЗАДАЧА' },
      },
    } as unknown as DatabaseData['config'],
    view: { layouts: [{ uid: 'tbl', type: 'table', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
  };
  const db = expectOk<WireBlock>(await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  return { db: db.id, page: page.id };
}

const imported = async (who: Actor, db: string, body: object) => api(t, who.cookie, 'POST', `${S}/database/${db}/import`, body);
const report = async (db: string, body: object) => expectOk<ImportReport>(await imported(ann, db, body));
const rows = async (db: string) =>
  Object.fromEntries(
    expectOk<WireRow[]>(await api(t, ann.cookie, 'GET', `${S}/database/${db}/rows?${q({ limit: 500 })}`)).map((r) => [r.data.title, r.data.values]),
  );

test('CSV: columns by name, values read as a paste is, a new option made, unknown and computed columns left and said', async () => {
  const { db } = await tasks();
  const answer = await report(db, {
    csv: 'Название,Статус,Цена,Готово,Срок,ID,Лишнее\nМакет,Сделать,"1 200,50",да,2026-12-10,,x\nВёрстка,Новый,80,нет,,,y\n',
  });
  expect(answer).toMatchObject({ dryRun: false, created: 2, updated: 0, skipped: 0, problems: [], ignoredColumns: ['ID', 'Лишнее'] });
  expect(answer.newOptions).toEqual([{ fieldId: 'stage', names: ['Новый'] }]);
  const now = await rows(db);
  expect(now['Макет']).toMatchObject({ stage: 'todo', price: 1200.5, done: true, due: '2026-12-10', num: 1 });
  expect(now['Вёрстка']).toMatchObject({ price: 80, done: false, num: 2 });
  const block = expectOk<WireBlock>(await api(t, ann.cookie, 'GET', `${S}/block/${db}`)).data as unknown as DatabaseData;
  const made = (block.config.fields.stage as { options: Array<{ id: string; name: string }> }).options.find((o) => o.name === 'Новый');
  expect(now['Вёрстка'].stage).toBe(made?.id);
});

test('an upsert by a key: a dry run says what would change and writes nothing; then only the cells that differ are written', async () => {
  const { db } = await tasks();
  await report(db, { csv: 'Название,Цена,Готово\nМакет,100,да\nВёрстка,80,нет\nТесты,5,нет\n' });
  const before = await rows(db);
  const csv = 'Название,Цена,Готово\nмакет,150,да\nВёрстка,80,нет\nРелиз,1,да\n';
  const dry = await report(db, { csv, key: 'Название', dryRun: true });
  expect(dry).toMatchObject({ dryRun: true, created: 1, updated: 1, unchanged: 1, skipped: 0 });
  expect(dry.changes).toEqual([
    { row: 1, rowId: expect.any(String), cells: { [MAIN_FIELD_ID]: { from: 'Макет', to: 'макет' }, price: { from: 100, to: 150 } } },
  ]);
  expect(await rows(db)).toEqual(before);
  const done = await report(db, { csv, key: 'Название' });
  expect(done).toMatchObject({ dryRun: false, created: 1, updated: 1, unchanged: 1, refused: 0 });
  const after = await rows(db);
  expect(after['макет']).toMatchObject({ price: 150, done: true, num: 1 });
  expect(after['Релиз']).toMatchObject({ price: 1, done: true });
  expect(Object.keys(after).sort()).toEqual(['Вёрстка', 'Релиз', 'Тесты', 'макет']);
  // The same import again: nothing changes.
  expect(await report(db, { csv, key: 'Название' })).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
});

test('JSON by field ids or names, an option by id or by name, upserted by a unique ID’s text', async () => {
  const { db } = await tasks();
  await report(db, { rows: [{ title: 'Первая' }, { title: 'Вторая' }] });
  const answer = await report(db, {
    key: 'ID',
    rows: [
      { ID: 'задача-2', stage: 'todo', Цена: 7 },
      { ID: 'ЗАДАЧА-1', Статус: 'Сделать', price: '3,5', done: true },
      { Название: 'Третья', Срок: '10.12.2026' },
    ],
  });
  expect(answer).toMatchObject({ created: 1, updated: 2, skipped: 0, ignoredColumns: [] });
  const now = await rows(db);
  expect(now['Первая']).toMatchObject({ stage: 'todo', price: 3.5, done: true, num: 1 });
  expect(now['Вторая']).toMatchObject({ stage: 'todo', price: 7, num: 2 });
  expect(now['Третья']).toMatchObject({ due: '2026-12-10', num: 3 });
});

test('a row with a problem is skipped and said, the others land; a key twice in the import or on two rows is a problem', async () => {
  const { db } = await tasks();
  await report(db, { csv: 'Название\nДубль\nДубль\nОдин\n' });
  const answer = await report(db, {
    key: 'Название',
    csv: 'Название,Цена,Готово\nНовая,сто,да\nДругая,5,может\nОдин,1,да\nОдин,2,да\nДубль,3,да\nХорошая,4,нет\n',
  });
  expect(answer.problems).toEqual([
    { row: 1, column: 'Цена', message: '«сто» is not a number' },
    { row: 2, column: 'Готово', message: '«может» is neither yes nor no' },
    { row: 4, column: 'Название', message: 'this key is in the import twice' },
    { row: 5, column: 'Название', message: '2 rows have this key' },
  ]);
  expect(answer).toMatchObject({ created: 1, updated: 1, skipped: 4 });
  const now = await rows(db);
  expect(now['Один']).toMatchObject({ price: 1, done: true });
  expect(now['Хорошая']).toMatchObject({ price: 4 });
  expect(now['Новая']).toBeUndefined();
});

test('who may import, and what is refused', async () => {
  const { db, page } = await tasks();
  // Someone who cannot see the database: as if there were none; a reader: 403.
  expect((await imported(bob, db, { csv: 'Название\nЧужая\n' })).statusCode).toBe(403);
  await share(t, ann, page, [{ email: bob.email, accessLevel: 'read' }]);
  expect((await imported(bob, db, { csv: 'Название\nЧужая\n' })).statusCode).toBe(403);
  expect(await rows(db)).toEqual({});
  for (const [body, path] of [
    [{ csv: 'Название\nА\n', rows: [{ title: 'Б' }] }, ''],
    [{}, ''],
    [{ csv: 'Название\nА\n', key: 'Нет такого' }, 'key'],
    [{ csv: 'Название,Название\nА,Б\n' }, 'columns'],
  ] as const) {
    const res = await imported(ann, db, body);
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    if (path) expect(res.body).toContain(`"path":"${path}"`);
  }
  // An editor may.
  await share(t, ann, page, [{ email: bob.email, accessLevel: 'edit' }]);
  expect(expectOk<ImportReport>(await imported(bob, db, { csv: 'Название\nЕго\n' })).created).toBe(1);
});
