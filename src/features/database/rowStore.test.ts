import { MAIN_FIELD_ID } from '../../../schema/blocks/database';
import { databaseApi } from './api';
import { fakeDatabaseServer, makeRow } from './fakeDatabaseServer';
import { KEEP_WINDOWS, RowStore, WINDOW_SIZE } from './rowStore';

const config = { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' as const }, n: { name: 'Число', type: 'number' as const } } };
const view = { layouts: [{ uid: 'v1', type: 'table' as const, orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] };
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(count: number) {
  const server = fakeDatabaseServer(config, view, Array.from({ length: count }, (_, i) => makeRow(i, { n: i })));
  globalThis.fetch = server.fetch;
  const store = new RowStore((query, signal) => databaseApi.rows('db', query, signal), { viewId: 'v1' });
  return { server, store };
}

afterEach(() => jest.useRealTimers());

describe('the windowed row store', () => {
  test('reads windows of 100 around what is visible, keeps the count, and drops far windows', async () => {
    const { server, store } = setup(5000);
    store.setVisible(0, 20);
    await settle();
    expect(store.count).toBe(5000);
    await settle();
    expect(store.rowAt(0)?.id).toBe('row-0');
    expect(store.loadedWindows()).toEqual([0, 1]);
    const reads = server.requests.filter((r) => r.path.endsWith('/rows'));
    expect(reads[0].query).toEqual({ viewId: 'v1', offset: 0, limit: WINDOW_SIZE });
    // Far away: that window and its neighbours; windows farther than KEEP_WINDOWS are dropped.
    store.setVisible(2500, 2520);
    await settle();
    await settle();
    expect(store.rowAt(2510)?.id).toBe('row-2510');
    expect(store.loadedWindows()).toEqual([24, 25, 26]);
    expect(store.rowAt(0)).toBeUndefined();
    expect(store.loadedWindows().length).toBeLessThanOrEqual(3 + 2 * KEEP_WINDOWS);
    store.dispose();
  });

  test('realtime: cells change in place (newer versions only), rows/removed/reset read the windows again', async () => {
    jest.useFakeTimers();
    const { server, store } = setup(150);
    store.setVisible(0, 10);
    await jest.runOnlyPendingTimersAsync();
    const before = store.rowAt(1);
    const other = store.rowAt(2);
    store.applyChange({ kind: 'cells', rowId: 'row-1', cells: [{ fieldId: 'n', value: 42, version: 3 }], updatedAt: 'x', updatedBy: 'u2' });
    expect(store.rowAt(1)?.data.values.n).toBe(42);
    expect(store.rowAt(1)).not.toBe(before);
    // Only that row is a new object (the others' memoized views stay).
    expect(store.rowAt(2)).toBe(other);
    store.applyChange({ kind: 'cells', rowId: 'row-1', cells: [{ fieldId: 'n', value: 7, version: 2 }], updatedAt: 'x', updatedBy: 'u2' });
    expect(store.rowAt(1)?.data.values.n).toBe(42);
    // A removal elsewhere: read again.
    server.rows.splice(0, 1);
    const reads = server.requests.length;
    store.applyChange({ kind: 'removed', ids: ['row-0'] });
    await jest.advanceTimersByTimeAsync(200);
    expect(server.requests.length).toBeGreaterThan(reads);
    expect(store.rowAt(0)?.id).toBe('row-1');
    expect(store.count).toBe(149);
    store.dispose();
    jest.useRealTimers();
  });

  test('a cell written here stays over reads until its write is answered', async () => {
    const { server, store } = setup(10);
    store.setVisible(0, 5);
    await settle();
    await settle();
    store.setLocal('row-3', 'n', 99);
    await store.refresh();
    expect(store.rowAt(3)?.data.values.n).toBe(99);
    expect(server.rows[3].data.values.n).toBe(3);
    store.settleLocal('row-3', 'n', { value: 3, version: 0 });
    expect(store.rowAt(3)?.data.values.n).toBe(3);
    store.dispose();
  });

  test('a read that left before a write was answered does not put the older cell back', async () => {
    const { server, store } = setup(10);
    store.setVisible(0, 5);
    await settle();
    await settle();
    // The write is answered (version 5) while the server the read sees still has the old cell.
    store.setLocal('row-3', 'n', 99);
    store.settleLocal('row-3', 'n', { value: 99, version: 5 });
    await store.refresh();
    expect(store.rowAt(3)?.data.values.n).toBe(99);
    expect(store.rowAt(3)?.versions.n).toBe(5);
    // A newer cell on the server wins over the one in memory.
    server.rows[3] = { ...server.rows[3], data: { ...server.rows[3].data, values: { n: 7 } }, versions: { n: 6 } };
    await store.refresh();
    expect(store.rowAt(3)?.data.values.n).toBe(7);
    store.dispose();
  });
});
