import { MAIN_FIELD_ID, type DatabaseField } from '../../../schema/blocks/database';
import { databaseApi } from './api';
import { mergeText, writeCell } from './cellWrites';
import { fakeDatabaseServer, makeRow } from './fakeDatabaseServer';
import { RowStore } from './rowStore';

const text: DatabaseField = { name: 'Заметка', type: 'text' };
const number: DatabaseField = { name: 'Сумма', type: 'number' };
const config = { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' as const }, note: text, sum: number } };
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function setup() {
  const server = fakeDatabaseServer(config, { layouts: [] }, [makeRow(0, { note: 'Купить хлеб', sum: 10 }), makeRow(1)]);
  server.rows[0].versions.note = 1;
  server.rows[0].versions.sum = 1;
  globalThis.fetch = server.fetch;
  const store = new RowStore((query, signal) => databaseApi.rows('db', query, signal), {});
  store.setVisible(0, 1);
  await settle();
  await settle();
  return { server, store };
}

describe('cell writes', () => {
  test('text merges three-way: both sides’ edits kept', () => {
    expect(mergeText('Купить хлеб', 'Купить хлеб и молоко', 'Срочно: купить хлеб')).toBe('Срочно: купить хлеб и молоко');
    expect(mergeText('a', 'a', 'b')).toBe('b');
    expect(mergeText('a', 'c', 'a')).toBe('c');
  });

  test('optimistic: the cell shows the value before the server answers, then the server’s version', async () => {
    const { server, store } = await setup();
    const errors: unknown[] = [];
    const done = writeCell({ store, write: databaseApi.writeCell, rowId: 'row-0', fieldId: 'sum', field: number, value: 25, base: { value: 10, version: 1 }, onError: (e) => errors.push(e) });
    expect(store.rowAt(0)?.data.values.sum).toBe(25);
    const result = await done;
    expect(result.ok).toBe(true);
    expect(store.rowAt(0)?.versions.sum).toBe(2);
    expect(server.requests.find((r) => r.method === 'POST')).toMatchObject({ path: 'row/row-0/cells/sum', body: { value: 25, version: 1 } });
    expect(errors).toEqual([]);
  });

  test('a text conflict is merged with the server’s copy and written again on its version', async () => {
    const { server, store } = await setup();
    server.writeElsewhere('row-0', 'note', 'Срочно: купить хлеб');
    const result = await writeCell({ store, write: databaseApi.writeCell, rowId: 'row-0', fieldId: 'note', field: text, value: 'Купить хлеб и молоко', base: { value: 'Купить хлеб', version: 1 }, onError: () => undefined });
    expect(result.ok).toBe(true);
    const writes = server.requests.filter((r) => r.method === 'POST').map((r) => r.body);
    expect(writes).toEqual([
      { value: 'Купить хлеб и молоко', version: 1 },
      { value: 'Срочно: купить хлеб и молоко', version: 2 },
    ]);
    expect(server.rows[0].data.values.note).toBe('Срочно: купить хлеб и молоко');
    expect(store.rowAt(0)?.data.values.note).toBe('Срочно: купить хлеб и молоко');
    expect(store.rowAt(0)?.versions.note).toBe(3);
  });

  test('a conflict on another type takes the server’s copy', async () => {
    const { server, store } = await setup();
    server.writeElsewhere('row-0', 'sum', 99);
    const theirs: unknown[] = [];
    await writeCell({ store, write: databaseApi.writeCell, rowId: 'row-0', fieldId: 'sum', field: number, value: 25, base: { value: 10, version: 1 }, onError: () => undefined, onTheirs: (cell) => theirs.push(cell.value) });
    expect(store.rowAt(0)?.data.values.sum).toBe(99);
    expect(theirs).toEqual([99]);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  test('a failed write puts the old value back and reports the error', async () => {
    const { server, store } = await setup();
    server.failNext('cells', 403);
    const errors: unknown[] = [];
    const result = await writeCell({ store, write: databaseApi.writeCell, rowId: 'row-0', fieldId: 'note', field: text, value: 'Другое', base: { value: 'Купить хлеб', version: 1 }, onError: (e) => errors.push(e) });
    expect(result.ok).toBe(false);
    expect(errors).toHaveLength(1);
    expect(store.rowAt(0)?.data.values.note).toBe('Купить хлеб');
    expect(store.hasLocal('row-0', 'note')).toBe(false);
  });
});
