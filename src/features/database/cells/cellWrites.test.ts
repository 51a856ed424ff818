import { MAIN_FIELD_ID, type DatabaseField } from '../../../../schema/blocks/database';
import { databaseApi } from '../api';
import { CellHistory, stepWrites } from './cellHistory';
import { mergeText, onOwnWrite, writeCell, writeCells, writeOver, type CellWrite } from './cellWrites';
import { fakeDatabaseServer, makeRow } from '../fakeDatabaseServer';
import { RowStore } from '../rows/rowStore';

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
    const done = writeCell({
      store,
      write: databaseApi.writeCell,
      rowId: 'row-0',
      fieldId: 'sum',
      field: number,
      value: 25,
      base: { value: 10, version: 1 },
      onError: (e) => errors.push(e),
    });
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
    const result = await writeCell({
      store,
      write: databaseApi.writeCell,
      rowId: 'row-0',
      fieldId: 'note',
      field: text,
      value: 'Купить хлеб и молоко',
      base: { value: 'Купить хлеб', version: 1 },
      onError: () => undefined,
    });
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
    await writeCell({
      store,
      write: databaseApi.writeCell,
      rowId: 'row-0',
      fieldId: 'sum',
      field: number,
      value: 25,
      base: { value: 10, version: 1 },
      onError: () => undefined,
      onTheirs: (cell) => theirs.push(cell.value),
    });
    expect(store.rowAt(0)?.data.values.sum).toBe(99);
    expect(theirs).toEqual([99]);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  test('a failed write puts the old value back and reports the error', async () => {
    const { server, store } = await setup();
    server.failNext('cells', 403);
    const errors: unknown[] = [];
    const result = await writeCell({
      store,
      write: databaseApi.writeCell,
      rowId: 'row-0',
      fieldId: 'note',
      field: text,
      value: 'Другое',
      base: { value: 'Купить хлеб', version: 1 },
      onError: (e) => errors.push(e),
    });
    expect(result.ok).toBe(false);
    expect(errors).toHaveLength(1);
    expect(store.rowAt(0)?.data.values.note).toBe('Купить хлеб');
    expect(store.hasLocal('row-0', 'note')).toBe(false);
  });

  const job = (
    store: RowStore,
    rowId: string,
    fieldId: string,
    field: DatabaseField,
    value: unknown,
    base: { value: unknown; version: number },
    errors: unknown[] = [],
  ): CellWrite => ({ store, write: databaseApi.writeCell, rowId, fieldId, field, value, base, onError: (e: unknown) => errors.push(e) }) as CellWrite;
  const send = (cells: Parameters<typeof databaseApi.writeCells>[1]) => databaseApi.writeCells('db', cells);

  test('several cells go in one call; a conflicting text cell is merged and written alone, a number takes theirs', async () => {
    const { server, store } = await setup();
    server.writeElsewhere('row-0', 'note', 'Срочно: купить хлеб');
    server.writeElsewhere('row-0', 'sum', 99);
    const theirs: unknown[] = [];
    await writeCells(
      [
        job(store, 'row-0', 'note', text, 'Купить хлеб и молоко', { value: 'Купить хлеб', version: 1 }),
        { ...job(store, 'row-0', 'sum', number, 5, { value: 10, version: 1 }), onTheirs: (cell) => theirs.push(cell.value) },
        job(store, 'row-1', 'sum', number, 7, { value: null, version: 0 }),
      ],
      send,
    );
    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.path)).toEqual(['database/db/cells', 'row/row-0/cells/note']);
    expect(posts[1].body).toEqual({ value: 'Срочно: купить хлеб и молоко', version: 2 });
    expect(store.rowAt(0)?.data.values).toEqual({ note: 'Срочно: купить хлеб и молоко', sum: 99 });
    expect(store.rowAt(1)?.data.values.sum).toBe(7);
    expect(theirs).toEqual([99]);
  });

  test("an edit made over our own write still under way goes on from the version that write made; over someone else's value it keeps its base", async () => {
    const { server, store } = await setup();
    const job = (value: number | null, base: { value: number | null; version: number }): CellWrite => ({
      store,
      write: databaseApi.writeCell,
      rowId: 'row-0',
      fieldId: 'sum',
      field: number,
      value,
      base,
      onError: () => undefined,
    });
    // 25 is written; before the answer the cell is cleared, the edit seeing 25 at the old version 1.
    const first = writeCell(job(25, { value: 10, version: 1 }));
    const clear = job(null, { value: 25, version: store.rowAt(0)!.versions.sum });
    expect(clear.base.version).toBe(1);
    // While the write is out the edit is left as it is (the cell is still ours, unanswered).
    expect(onOwnWrite(clear)).toBe(clear);
    await first;
    const rebased = onOwnWrite(clear);
    expect(rebased.base).toEqual({ value: 25, version: 2 });
    expect((await writeCell(rebased)).ok).toBe(true);
    expect(server.rows[0].data.values.sum ?? null).toBeNull();
    // Not rebased: the cell holds a value the edit did not see (someone's 40 after ours).
    server.writeElsewhere('row-0', 'sum', 40);
    await store.refresh();
    const stale = job(7, { value: null, version: 3 });
    expect(onOwnWrite(stale)).toBe(stale);
  });

  test('a failed batch puts every old value back and reports once', async () => {
    const { server, store } = await setup();
    server.failNext('database/db/cells', 403);
    const errors: unknown[] = [];
    await writeCells(
      [job(store, 'row-0', 'sum', number, 1, { value: 10, version: 1 }, errors), job(store, 'row-1', 'sum', number, 2, { value: null, version: 0 }, errors)],
      send,
    );
    expect(errors).toHaveLength(1);
    expect(store.rowAt(0)?.data.values.sum).toBe(10);
    expect(store.rowAt(1)?.data.values.sum).toBeUndefined();
  });

  test('undo and redo: a step reversed, written only over cells that still hold what it left', async () => {
    const { store } = await setup();
    const history = new CellHistory();
    history.record({
      cells: [
        { rowId: 'row-0', fieldId: 'sum', field: number, before: 1, after: 10 },
        { rowId: 'row-0', fieldId: 'note', field: text, before: null, after: 'Купить хлеб' },
        { rowId: 'row-1', fieldId: 'sum', field: number, before: 3, after: 4 },
      ],
    });
    const undo = history.undo()!;
    expect(undo.cells.map((c) => [c.fieldId, c.before, c.after])).toEqual([
      ['sum', 10, 1],
      ['note', 'Купить хлеб', null],
      ['sum', 4, 3],
    ]);
    expect([undo.added, undo.deleted]).toEqual([[], []]);
    // row-1's sum is not 4 any more (someone else's edit): left alone.
    const { writes, skipped } = stepWrites(store, undo.cells);
    expect(writes.map((w) => [w.rowId, w.fieldId, w.after, w.version])).toEqual([
      ['row-0', 'sum', 1, 1],
      ['row-0', 'note', null, 1],
    ]);
    expect(skipped).toBe(1);
    expect(history.undo()).toBeNull();
    expect(history.redo()!.cells.map((c) => c.after)).toEqual([10, 'Купить хлеб', 4]);
    expect(history.redo()).toBeNull();
    // A new edit after an undo drops what could be redone.
    history.undo();
    history.record({ cells: [{ rowId: 'row-0', fieldId: 'sum', field: number, before: 10, after: 11 }] });
    expect(history.redo()).toBeNull();
  });

  test('undo and redo of rows: a row added is deleted by its undo and restored by its redo; deleted rows the other way; an empty step is no step', () => {
    const history = new CellHistory();
    history.record({});
    history.record({ cells: [], added: [], deleted: [] });
    expect(history.undo()).toBeNull();
    history.record({ added: ['new-1'] });
    history.record({ deleted: ['row-3', 'row-4'] });
    // A paste past the last row: cells of the rows there and a row made, one step.
    history.record({ cells: [{ rowId: 'row-0', fieldId: 'sum', field: number, before: 1, after: 2 }], added: ['new-2'] });
    expect(history.undo()).toEqual({ cells: [expect.objectContaining({ rowId: 'row-0', before: 2, after: 1 })], added: [], deleted: ['new-2'] });
    expect(history.undo()).toEqual({ cells: [], added: ['row-3', 'row-4'], deleted: [] });
    expect(history.undo()).toEqual({ cells: [], added: [], deleted: ['new-1'] });
    expect(history.redo()).toEqual({ cells: [], added: ['new-1'], deleted: [] });
    expect(history.redo()).toEqual({ cells: [], added: [], deleted: ['row-3', 'row-4'] });
  });
});

describe('a deliberate write (a drag): written over a conflict on the server’s version', () => {
  test('one cell by its own call: a conflict is written again on their version, the value ours', async () => {
    const { server } = await setup();
    // Someone wrote the sum meanwhile (version 2); the drag read version 1.
    server.rows[0].versions.sum = 2;
    const [cell] = await writeOver(databaseApi, 'db', [{ rowId: 'row-0', fieldId: 'sum', value: 40, version: 1 }]);
    expect([cell.value, cell.version]).toEqual([40, 3]);
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => [r.path, r.body])).toEqual([
      ['row/row-0/cells/sum', { value: 40, version: 1 }],
      ['row/row-0/cells/sum', { value: 40, version: 2 }],
    ]);
  });

  test('several cells in one call; the one in conflict again on their version, alone', async () => {
    const { server } = await setup();
    server.rows[0].versions.note = 5;
    const written = await writeOver(databaseApi, 'db', [
      { rowId: 'row-0', fieldId: 'sum', value: 11, version: 1 },
      { rowId: 'row-0', fieldId: 'note', value: 'Наше', version: 1 },
    ]);
    expect(written.map((c) => [c.fieldId, c.value, c.version])).toEqual([
      ['sum', 11, 2],
      ['note', 'Наше', 6],
    ]);
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['database/db/cells', 'row/row-0/cells/note']);
  });

  test('another failure is thrown, not retried', async () => {
    const { server } = await setup();
    await expect(writeOver(databaseApi, 'db', [{ rowId: 'row-9', fieldId: 'sum', value: 1, version: 0 }])).rejects.toThrow();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });
});
