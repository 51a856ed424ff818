import { MAIN_FIELD_ID } from '../../../../schema/blocks/database';
import { databaseApi, type RowsWindow } from '../api';
import { fakeDatabaseServer, makeRow } from '../fakeDatabaseServer';
import { movedItem } from '../useReorderable';
import { KEEP_WINDOWS, RANGE_READ, RowStore, WINDOW_SIZE } from './rowStore';

const config = { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' as const }, n: { name: 'Число', type: 'number' as const } } };
const view = { layouts: [{ uid: 'v1', type: 'table' as const, orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] };
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(count: number) {
  const server = fakeDatabaseServer(
    config,
    view,
    Array.from({ length: count }, (_, i) => makeRow(i, { n: i })),
  );
  globalThis.fetch = server.fetch;
  const store = new RowStore((query, signal) => databaseApi.rows('db', query, signal), { viewId: 'v1' });
  return { server, store };
}

afterEach(() => jest.useRealTimers());

describe('the windowed row store', () => {
  test("only the store's first read of its first window may take an answer asked for early; a refresh never does", async () => {
    const firsts: Array<[number, boolean]> = [];
    const server = fakeDatabaseServer(
      config,
      view,
      Array.from({ length: 300 }, (_, i) => makeRow(i, { n: i })),
    );
    globalThis.fetch = server.fetch;
    /** A store whose reads note their offset and whether they were its first. */
    const recording = (seed?: RowsWindow) =>
      new RowStore(
        (query, signal, first) => {
          firsts.push([query.offset ?? 0, first === true]);
          return databaseApi.rows('db', query, signal);
        },
        { viewId: 'v1' },
        seed,
      );
    const store = recording();
    store.setVisible(0, 150);
    await settle();
    await settle();
    await store.refresh();
    expect(firsts[0]).toEqual([0, true]);
    expect(firsts.slice(1).every(([, first]) => !first)).toBe(true);
    expect(firsts.filter(([offset]) => offset === 0)).toHaveLength(2);
    // Started with a window given (read early): none of its reads is first.
    const seeded = recording({ rows: [], count: 0, offset: 0, hasMoreNext: false });
    firsts.length = 0;
    await seeded.refresh();
    expect(firsts.every(([, first]) => !first)).toBe(true);
    store.dispose();
    seeded.dispose();
  });

  test('a join reads the windows again only when the database moved since they were read (their revision), also while a read is under way', async () => {
    const reads: string[] = [];
    let at = 'r1';
    let hold: Promise<void> = Promise.resolve();
    const store = new RowStore(
      async (query) => {
        reads.push(`${query.offset}@${at}`);
        const revision = at;
        await hold;
        return { rows: [makeRow(0)], count: 1, offset: query.offset ?? 0, hasMoreNext: false, revision };
      },
      { viewId: 'v1' },
    );
    const later = () => new Promise((resolve) => setTimeout(resolve, 200));
    store.setVisible(0, 10);
    await settle();
    expect(reads).toEqual(['0@r1']);
    store.refreshUnless('r1');
    await later();
    expect(reads).toEqual(['0@r1']);
    store.refreshUnless('r2');
    at = 'r2';
    await later();
    expect(reads).toEqual(['0@r1', '0@r2']);
    // Joined while a read is out: decided when it is answered, by where it was read.
    let release: () => void = () => undefined;
    hold = new Promise((resolve) => (release = resolve));
    void store.refresh();
    store.refreshUnless('r2');
    release();
    await later();
    expect(reads).toEqual(['0@r1', '0@r2', '0@r2']);
    hold = new Promise((resolve) => (release = resolve));
    void store.refresh();
    store.refreshUnless('r3');
    at = 'r3';
    release();
    await later();
    expect(reads).toEqual(['0@r1', '0@r2', '0@r2', '0@r2', '0@r3']);
    store.dispose();
  });

  test('a refresh answers with rows read after it began, also when a later read of the window took over from its own', async () => {
    // Each read is answered when the test says, with the order of the moment it is answered.
    let order = ['a', 'b'];
    const waiting: Array<() => void> = [];
    const store = new RowStore(
      (query, signal) =>
        new Promise((resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          waiting.push(() => resolve({ rows: order.map((id) => ({ ...makeRow(0), id })), count: order.length, offset: query.offset ?? 0, hasMoreNext: false }));
        }),
      { viewId: 'v1' },
    );
    store.setVisible(0, 10);
    await settle();
    waiting.shift()!();
    await settle();
    expect(store.indexOf('a')).toBe(0);
    // A move is written; the mover's refresh goes out, then a realtime event's refresh takes over from it.
    order = ['b', 'a'];
    let done = false;
    const mine = store.refresh().then(() => (done = true));
    await settle();
    void store.refresh();
    await settle();
    expect(waiting).toHaveLength(2);
    expect(done).toBe(false);
    waiting[1]();
    await mine;
    expect(store.indexOf('a')).toBe(1);
    store.dispose();
  });

  test('a range beyond the loaded windows: its rows read in order, 500 a request, a few at once, not kept', async () => {
    const { server, store } = setup(3000);
    store.setVisible(0, 20);
    await settle();
    await settle();
    expect(store.loadedWindows()).toEqual([0, 1]);
    expect(store.hasRows(0, 199)).toBe(true);
    expect(store.hasRows(150, 250)).toBe(false);
    const before = server.requests.length;
    const rows = await store.rowsIn(150, 2899);
    expect(rows.map((row) => row?.id)).toEqual(Array.from({ length: 2750 }, (_, i) => `row-${150 + i}`));
    // The loaded 150..199 are taken as they are; 200..2899 are 2,700 rows: 6 reads.
    const reads = server.requests.slice(before).filter((r) => r.path.endsWith('/rows'));
    expect(reads.map((r) => [r.query.offset, r.query.limit])).toEqual([
      [200, RANGE_READ],
      [700, RANGE_READ],
      [1200, RANGE_READ],
      [1700, RANGE_READ],
      [2200, RANGE_READ],
      [2700, 200],
    ]);
    // The windows are what the screen needs, as before.
    expect(store.loadedWindows()).toEqual([0, 1]);
    // All in memory: nothing is read.
    const again = server.requests.length;
    expect((await store.rowsIn(10, 120)).map((row) => row?.id)).toEqual(Array.from({ length: 111 }, (_, i) => `row-${10 + i}`));
    expect(server.requests.length).toBe(again);
    store.dispose();
  });

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

  test('a row at several places (a table grouped by a multi-select: a row in each of its options’ groups) changes at each, as one object', async () => {
    // Windows of two: [А, Б] and [А, В] — «А» is in two groups.
    const entries = [makeRow(0, { n: 0 }), makeRow(1, { n: 1 }), makeRow(0, { n: 0 }), makeRow(2, { n: 2 })];
    const store = new RowStore(
      async (query) => ({
        rows: entries.slice(query.offset ?? 0, (query.offset ?? 0) + (query.limit ?? 2)),
        count: 4,
        offset: query.offset ?? 0,
        hasMoreNext: false,
      }),
      { viewId: 'v1' },
      null,
      2,
    );
    store.setVisible(0, 3);
    await settle();
    await settle();
    expect([0, 1, 2, 3].map((i) => store.rowAt(i)?.id)).toEqual(['row-0', 'row-1', 'row-0', 'row-2']);
    const other = store.rowAt(1);
    store.applyChange({ kind: 'cells', rowId: 'row-0', cells: [{ fieldId: 'n', value: 42, version: 3 }], updatedAt: 'x', updatedBy: 'u2' });
    expect(store.rowAt(0)?.data.values.n).toBe(42);
    expect(store.rowAt(2)).toBe(store.rowAt(0));
    expect(store.rowAt(1)).toBe(other);
    store.setLocal('row-0', 'n', 7);
    expect([store.rowAt(0)?.data.values.n, store.rowAt(2)?.data.values.n]).toEqual([7, 7]);
    store.dispose();
  });

  test('realtime: a background computation of formulas reads the windows again, at most every 2 s', async () => {
    jest.useFakeTimers();
    const { server, store } = setup(50);
    store.setVisible(0, 10);
    await jest.runOnlyPendingTimersAsync();
    const progress = (done: number) => store.applyChange({ kind: 'computing', fieldIds: ['f'], done, total: 50 });
    let reads = server.requests.length;
    progress(0);
    await jest.advanceTimersByTimeAsync(200);
    expect(server.requests.length).toBe(reads + 1);
    reads = server.requests.length;
    // Told again within 2 s: nothing read.
    progress(10);
    await jest.advanceTimersByTimeAsync(500);
    progress(20);
    await jest.advanceTimersByTimeAsync(200);
    expect(server.requests.length).toBe(reads);
    // After 2 s: read again; the end (a reset) is read at once, whenever.
    await jest.advanceTimersByTimeAsync(1_500);
    progress(30);
    await jest.advanceTimersByTimeAsync(200);
    expect(server.requests.length).toBe(reads + 1);
    store.applyChange({ kind: 'reset' });
    await jest.advanceTimersByTimeAsync(200);
    expect(server.requests.length).toBe(reads + 2);
    store.dispose();
    jest.useRealTimers();
  });

  test('the echo of a cell written here (the same version its answer gave) is not applied again: no new row, nothing drawn again', async () => {
    const { store } = setup(10);
    store.setVisible(0, 5);
    await settle();
    await settle();
    store.setLocal('row-3', 'n', 99);
    store.settleLocal('row-3', 'n', { value: 99, version: 4 });
    const settled = store.rowAt(3);
    let drawn = 0;
    const stop = store.subscribe(() => (drawn += 1));
    // The writer's own event, heard after (or before) its answer.
    store.applyChange({ kind: 'cells', rowId: 'row-3', cells: [{ fieldId: 'n', value: 99, version: 4 }], updatedAt: 'x', updatedBy: 'u1' });
    expect(store.rowAt(3)).toBe(settled);
    expect(drawn).toBe(0);
    // A newer write of someone's still comes in.
    store.applyChange({ kind: 'cells', rowId: 'row-3', cells: [{ fieldId: 'n', value: 5, version: 5 }], updatedAt: 'y', updatedBy: 'u2' });
    expect(store.rowAt(3)?.data.values.n).toBe(5);
    expect(drawn).toBe(1);
    stop();
    store.dispose();
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

  test('rows moved here show in their new place at once, across windows, and stay there over reads until the move is answered', async () => {
    const { server, store } = setup(400);
    store.setVisible(0, 150);
    await settle();
    await settle();
    expect(store.loadedWindows()).toEqual([0, 1, 2]);
    const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => store.rowAt(from + i)?.id);
    const before = store.rowAt(0);
    const changes = store.changes;
    // Row 150 and row 3 (in that order) after row 0: windows 0 and 1 change, their sizes stay.
    const done = store.moveLocal(['row-150', 'row-3'], 'row-0');
    expect(ids(0, 5)).toEqual(['row-0', 'row-150', 'row-3', 'row-1', 'row-2']);
    expect(store.rowAt(100)?.id).toBe('row-99');
    expect(store.rowAt(150)?.id).toBe('row-149');
    expect(store.rowAt(151)?.id).toBe('row-151');
    // The rows are the same objects (memoized rows are not drawn again), and footers hear of it.
    expect(store.rowAt(0)).toBe(before);
    expect(store.changes).toBeGreaterThan(changes);
    // A read that left before the server moved them keeps them in place.
    await store.refresh();
    expect(ids(0, 3)).toEqual(['row-0', 'row-150', 'row-3']);
    // Answered: reads show the server's order (here, one that differs, to tell them apart).
    done();
    server.rows = movedItem(server.rows, ['row-3'], null, 'after');
    await store.refresh();
    expect(ids(0, 3)).toEqual(['row-3', 'row-0', 'row-1']);
    // To the top; a move among rows not in memory changes nothing here.
    store.moveLocal(['row-2'], null)();
    expect(store.rowAt(0)?.id).toBe('row-2');
    const version = store.version;
    store.moveLocal(['row-350'], 'row-0')();
    expect(store.version).toBe(version);
    store.dispose();
  });

  test('a field deleted: its cells leave the rows in memory, and no read, event or write of ours brings them back (until the field does)', async () => {
    const { server, store } = setup(10);
    store.setFields([MAIN_FIELD_ID, 'n']);
    store.setVisible(0, 9);
    await settle();
    await settle();
    // Cells of n written here (version 5, newer than the server's copy the next read sees).
    store.setLocal('row-3', 'n', 42);
    store.settleLocal('row-3', 'n', { value: 42, version: 5 });
    const untouched = store.rowAt(0);
    // The field is deleted (its block's edit); the server has no cells of it any more.
    for (const row of server.rows) {
      delete row.data.values.n;
      delete row.versions.n;
    }
    store.setFields([MAIN_FIELD_ID]);
    expect([store.rowAt(3)?.data.values, store.rowAt(3)?.versions]).toEqual([{}, { [MAIN_FIELD_ID]: 1 }]);
    expect(store.rowAt(0)).not.toBe(untouched);
    // A read (the newer cell is not kept), a late cells event and a write of ours put back after a failure.
    await store.refresh();
    store.applyChange({ kind: 'cells', rowId: 'row-4', cells: [{ fieldId: 'n', value: 7, version: 9 }], updatedAt: 'x', updatedBy: 'u2' });
    store.setLocal('row-5', 'n', 1);
    store.settleLocal('row-5', 'n', { value: 5, version: 1 });
    for (const i of [3, 4, 5]) expect([store.rowAt(i)?.data.values.n, store.rowAt(i)?.versions.n]).toEqual([undefined, undefined]);
    // Rows with nothing to drop stay the same objects.
    const same = store.rowAt(6);
    store.setFields([MAIN_FIELD_ID]);
    expect(store.rowAt(6)).toBe(same);
    // The field back (a version of the page restored): its cells count again.
    store.setFields([MAIN_FIELD_ID, 'n']);
    store.applyChange({ kind: 'cells', rowId: 'row-4', cells: [{ fieldId: 'n', value: 8, version: 10 }], updatedAt: 'x', updatedBy: 'u2' });
    expect(store.rowAt(4)?.data.values.n).toBe(8);
    store.dispose();
  });

  test('realtime: a cell written in a row not in memory while a read is under way (a row just made) is kept over that read', async () => {
    // Reads see the rows as they are when they leave, and are answered a turn later.
    let rows = Array.from({ length: 5 }, (_, i) => makeRow(i, { n: i }));
    const store = new RowStore(async (query) => {
      const seen = rows;
      await settle();
      return {
        rows: seen.slice(query.offset ?? 0, (query.offset ?? 0) + (query.limit ?? 100)),
        count: seen.length,
        offset: query.offset ?? 0,
        hasMoreNext: false,
      };
    }, {});
    store.setVisible(0, 9);
    await settle();
    await settle();
    // A row made elsewhere; a read leaves (ours, after a write of our own) and sees it without the cell…
    rows = [...rows, makeRow(5)];
    const read = store.refresh();
    // …which someone writes before the read is answered: the event finds no row here.
    rows = rows.map((r) => (r.id === 'row-5' ? { ...r, data: { ...r.data, values: { n: 42 } }, versions: { ...r.versions, n: 1 } } : r));
    store.applyChange({ kind: 'cells', rowId: 'row-5', cells: [{ fieldId: 'n', value: 42, version: 1 }], updatedAt: 'x', updatedBy: 'u2' });
    await read;
    expect([store.rowAt(5)?.id, store.rowAt(5)?.data.values.n, store.rowAt(5)?.versions.n]).toEqual(['row-5', 42, 1]);
    // Nothing is kept once no read is under way: a later read (the cell cleared elsewhere, version 2) wins.
    rows = rows.map((r) => (r.id === 'row-5' ? { ...r, data: { ...r.data, values: {} }, versions: { ...r.versions, n: 2 } } : r));
    await store.refresh();
    expect([store.rowAt(5)?.data.values.n, store.rowAt(5)?.versions.n]).toEqual([undefined, 2]);
    store.dispose();
  });

  test('realtime: a row event read before a cell was written (it came late) keeps the newer cell', async () => {
    const { store } = setup(10);
    store.setVisible(0, 9);
    await settle();
    const old = store.rowAt(3)!;
    store.setLocal('row-3', 'n', 42);
    store.settleLocal('row-3', 'n', { value: 42, version: 5 });
    store.applyChange({ kind: 'rows', rows: [{ ...old, sortKey: 'k3', data: { ...old.data, title: 'Новое' } }] });
    expect([store.rowAt(3)?.data.values.n, store.rowAt(3)?.versions.n, store.rowAt(3)?.data.title, store.rowAt(3)?.sortKey]).toEqual([42, 5, 'Новое', 'k3']);
    store.dispose();
  });

  test('realtime: rows moved by someone else are read again in their new order', async () => {
    jest.useFakeTimers();
    const { server, store } = setup(10);
    store.setVisible(0, 9);
    await jest.runOnlyPendingTimersAsync();
    server.rows = movedItem(server.rows, ['row-7'], null, 'after');
    const moved = { ...server.rows[0], sortKey: '0' };
    store.applyChange({ kind: 'rows', rows: [moved] });
    // The row changes in place at once (its new key); its new place comes with the read.
    expect(store.rowAt(7)?.sortKey).toBe('0');
    await jest.advanceTimersByTimeAsync(200);
    expect(store.rowAt(0)?.id).toBe('row-7');
    expect(store.rowAt(1)?.id).toBe('row-0');
    store.dispose();
  });

  test("realtime: rows moved in another view's own order read nothing here; moved in this view's, they are read again", async () => {
    jest.useFakeTimers();
    const { server, store } = setup(10);
    store.setVisible(0, 9);
    await jest.runOnlyPendingTimersAsync();
    const reads = server.requests.length;
    // A card dragged on the board (another view): this table's order did not change, so it reads nothing and nothing jumps.
    store.applyChange({ kind: 'rows', rows: [store.rowAt(7)!], viewId: 'board' });
    await jest.advanceTimersByTimeAsync(200);
    expect(server.requests.length).toBe(reads);
    expect(store.rowAt(7)?.id).toBe('row-7');
    // Someone moved a row in this very view: read again, in its new place.
    server.rows = movedItem(server.rows, ['row-7'], null, 'after');
    store.applyChange({ kind: 'rows', rows: [server.rows[0]], viewId: 'v1' });
    await jest.advanceTimersByTimeAsync(200);
    expect(server.requests.length).toBeGreaterThan(reads);
    expect(store.rowAt(0)?.id).toBe('row-7');
    store.dispose();
  });
});
