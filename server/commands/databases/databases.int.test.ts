import { MAIN_FIELD_ID, type DatabaseField, type DatabaseLayout, type RowValue } from '../../../schema/blocks/database';
import type { MoveRowsBody, NewRow } from '../../../schema/database';
import { newId } from '../../../schema/ids';
import { AppError } from '../../errors';
import { eventsOf, type DomainEvent } from '../../events/events';
import { databaseData, findDatabaseBlock, findRowPages, orderedRows, presentRows, readRows, ViewOrders } from '../../repositories/databases';
import { refusal } from '../../../test/helpers/refusal';
import { countRows, type TestApp } from '../../../test/helpers/testApp';
import { createTeamApp, grantPage, type Team } from '../../../test/helpers/team';
import { createPage } from '../pages/create';
import { trashPage } from '../pages/trash';
import { cellConflict, writeCell, writeCells } from './cells';
import { createRows, moveRows, restoreDatabaseRows, trashDatabaseRows } from './rows';
import {
  addField,
  addView,
  deleteField,
  deleteView,
  describeDatabase,
  moveView,
  planFieldChange,
  updateField,
  updateView,
  type StructureOutcome,
} from './structure';

/*
 * The database commands called as a handler calls them, on a real database (both kinds): what
 * each allows, what it refuses with which status and code, and that a refusal changes nothing.
 * The HTTP side (validation, presenting, realtime) is in routes/databases.int.test.ts.
 */

let t: TestApp;
let team: Team;

beforeAll(async () => ({ t, team } = await createTeamApp()));
afterAll(async () => t.close());

type Who = keyof Team['userId'];
const changer = (who: Who) => ({ userId: team.userId[who], origin: null });

const FIELDS: Record<string, DatabaseField> = {
  price: { name: 'Цена', type: 'number' },
  stage: {
    name: 'Этап',
    type: 'select',
    options: [
      { id: 'todo', name: 'Сделать' },
      { id: 'done', name: 'Готово' },
    ],
  },
  note: { name: 'Заметка', type: 'text' },
  created: { name: 'Создано', type: 'createdTime' },
};

/** A page of type Database under the team page (participant edit, reader read, guest and outsider none) with FIELDS added. */
async function newDatabase(): Promise<{ pageId: string; id: string }> {
  const { page } = await createPage(t.app.db, team.userId.admin, { type: 'Database', title: 'Задачи' }, { parentId: team.pageId });
  const { id } = await t.app.db.selectFrom('blocks').select('id').where('page_id', '=', page.id).where('type', '=', 'database').executeTakeFirstOrThrow();
  for (const [fieldId, field] of Object.entries(FIELDS)) await addField(t.app.db, changer('admin'), id, { id: fieldId, field });
  return { pageId: page.id, id };
}

const block = async (id: string) => (await findDatabaseBlock(t.app.db, id))!;
const data = async (id: string) => databaseData(await block(id));
const uids = async (id: string) => (await data(id)).view.layouts.map((l) => l.uid);
/** The live rows' titles in the database's own order. */
async function titles(id: string): Promise<string[]> {
  const { ids } = await orderedRows(t.app.db, (await data(id)).config, id, {});
  return (await readRows(t.app.db, id, ids)).map((r) => r.data.title);
}
/** One field's values on some rows (undefined: empty). */
const values = async (id: string, rowIds: string[], fieldId: string) => (await readRows(t.app.db, id, rowIds)).map((r) => r.data.values[fieldId]);
const rows = (who: Who, id: string, newRows: NewRow[], placeAfter?: string | null) => createRows(t.app.db, team.userId[who], id, { rows: newRows, placeAfter });
const titled = (...names: string[]) => names.map((title) => ({ title }));
const cellsOf = async (id: string, fieldId: string) =>
  (await t.app.db.selectFrom('database_cells').select('row_id').where('database_id', '=', id).where('field_id', '=', fieldId).execute()).length;

/** The AppError a call failed with (for what it carries beside its status and code). */
async function failure(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('createRows', () => {
  test('an editor makes rows at the end, after a row and first; the title as `title` or as the title field’s value', async () => {
    const db = await newDatabase();
    const made = await rows('participant', db.id, titled('A', 'B'));
    expect(made.ids).toHaveLength(2);
    await rows('participant', db.id, titled('C1', 'C2'), made.ids[0]);
    await rows('participant', db.id, titled('Z'), null);
    expect(await titles(db.id)).toEqual(['Z', 'A', 'C1', 'C2', 'B']);
    const {
      ids: [byField],
    } = await rows('participant', db.id, [{ values: { [MAIN_FIELD_ID]: 'Из поля', price: 5 } }]);
    const [row] = await readRows(t.app.db, db.id, [byField]);
    expect(row).toMatchObject({
      data: { title: 'Из поля', values: { price: 5 } },
      versions: { [MAIN_FIELD_ID]: 1, price: 1 },
      createdBy: team.userId.participant,
    });
    expect(await titles(db.id)).toEqual(['Z', 'A', 'C1', 'C2', 'B', 'Из поля']);
  });

  test('refused, nothing made: no edit (403), an unknown database (404), misfit or computed values and repeated ids (422), a taken id (409), the page in the trash (409)', async () => {
    const db = await newDatabase();
    const [taken] = (await rows('admin', db.id, titled('Есть'))).ids;
    const before = [await countRows(t, 'pages'), await countRows(t, 'database_cells')];
    for (const who of ['reader', 'guest', 'outsider'] as const) expect(await refusal(rows(who, db.id, titled('нельзя')))).toEqual([403, 'forbidden']);
    expect(await refusal(rows('admin', newId(), titled('нет')))).toEqual([404, 'not_found']);
    const misfit = await failure(rows('admin', db.id, [{ title: 'ok' }, { values: { price: 'дорого' } }]));
    expect([misfit.statusCode, misfit.code, misfit.details]).toEqual([422, 'validation_failed', [expect.objectContaining({ path: 'rows.1.values.price' })]]);
    for (const values of [{ stage: 'nope' }, { created: '2026-01-01' }, { unknown: 1 }, { [MAIN_FIELD_ID]: 5 }] as Array<Record<string, RowValue>>)
      expect(await refusal(rows('admin', db.id, [{ values }]))).toEqual([422, 'validation_failed']);
    const id = newId();
    expect(await refusal(rows('admin', db.id, [{ id }, { id }]))).toEqual([422, 'validation_failed']);
    expect(await refusal(rows('admin', db.id, [{ id, title: 'новая' }, { id: taken }]))).toEqual([409, 'page.already_exists']);
    expect(await refusal(rows('admin', db.id, [{ id: team.pageId }]))).toEqual([409, 'page.already_exists']);
    await trashPage(t.app.db, team.userId.admin, db.pageId);
    expect(await refusal(rows('admin', db.id, titled('поздно')))).toEqual([409, 'page.in_trash']);
    expect([await countRows(t, 'pages'), await countRows(t, 'database_cells')]).toEqual(before);
  });
});

/** The cells a command's events say it wrote. */
const cellsWritten = (events: readonly DomainEvent[]) => eventsOf(events, 'cellsWritten').flatMap((event) => event.written);

describe('moveRows', () => {
  test('rows go first, after a row or before one, in the order given; `set` writes the cell on each row moved', async () => {
    const db = await newDatabase();
    const [a, b, c, d] = (await rows('admin', db.id, titled('A', 'B', 'C', 'D'))).ids;
    const move = (body: MoveRowsBody) => moveRows(t.app.db, team.userId.participant, db.id, body);
    await move({ ids: [d, c], placeAfter: null });
    expect(await titles(db.id)).toEqual(['D', 'C', 'A', 'B']);
    await move({ ids: [d], placeAfter: a });
    expect(await titles(db.id)).toEqual(['C', 'A', 'D', 'B']);
    const moved = await move({ ids: [b, c], placeBefore: a, set: { fieldId: 'stage', value: 'done' } });
    expect(await titles(db.id)).toEqual(['B', 'C', 'A', 'D']);
    expect(moved.ids).toEqual([b, c]);
    expect(cellsWritten(moved.events).map((w) => [w.rowId, w.fieldId, w.value, w.version])).toEqual([
      [b, 'stage', 'done', 1],
      [c, 'stage', 'done', 1],
    ]);
    // Told as rows moved (every view reads them again: a cell changed), then the cells written.
    expect(moved.events.map((event) => event.kind)).toEqual(['rowsChanged', 'cellsWritten']);
    expect(moved.events[0]).toMatchObject({ kind: 'rowsChanged', databaseId: db.id, change: { kind: 'rows', rows: moved.rows } });
    expect(moved.events[0]).not.toHaveProperty('change.viewId');
    expect(await values(db.id, [a, b, c, d], 'stage')).toEqual([undefined, 'done', 'done', undefined]);
    // `set` writes whatever the cell's version: the one after the stored one.
    const again = await move({ ids: [b], placeAfter: d, set: { fieldId: 'stage', value: 'todo' } });
    expect(cellsWritten(again.events).map((w) => [w.value, w.version])).toEqual([['todo', 2]]);
  });

  test('refused, nothing moved: a reader (403), both places or none, a place among the rows moved, an id of no row of it, a computed `set` (422), `set` on a row one may only read (403)', async () => {
    const db = await newDatabase();
    const other = await newDatabase();
    const [a, b, c] = (await rows('admin', db.id, titled('A', 'B', 'C'))).ids;
    const [foreign] = (await rows('admin', other.id, titled('F'))).ids;
    const move = (body: MoveRowsBody, who: Who = 'participant') => refusal(moveRows(t.app.db, team.userId[who], db.id, body));
    expect(await move({ ids: [c], placeAfter: null }, 'reader')).toEqual([403, 'forbidden']);
    expect(await move({ ids: [c], placeAfter: null, placeBefore: a })).toEqual([422, 'validation_failed']);
    expect(await move({ ids: [c] })).toEqual([422, 'validation_failed']);
    expect(await move({ ids: [b, c], placeAfter: c })).toEqual([422, 'validation_failed']);
    expect(await move({ ids: [b, c], placeBefore: b })).toEqual([422, 'validation_failed']);
    expect(await move({ ids: [c, team.pageId], placeAfter: null })).toEqual([422, 'validation_failed']);
    expect(await move({ ids: [c, foreign], placeAfter: null })).toEqual([422, 'validation_failed']);
    expect(await move({ ids: [c], placeBefore: foreign })).toEqual([422, 'validation_failed']);
    expect(await move({ ids: [c], placeAfter: null, set: { fieldId: 'created', value: '2026-01-01' } })).toEqual([422, 'database.field_computed']);
    expect(await move({ ids: [c], placeAfter: null, set: { fieldId: 'stage', value: 'nope' } })).toEqual([422, 'validation_failed']);
    await grantPage(t, b, team.userId.participant, 'read');
    expect(await move({ ids: [c, b], placeAfter: null, set: { fieldId: 'stage', value: 'done' } })).toEqual([403, 'forbidden']);
    expect(await titles(db.id)).toEqual(['A', 'B', 'C']);
    expect(await cellsOf(db.id, 'stage')).toBe(0);
  });
});

describe('moveRows and createRows in a view (its own order: docs/api/databases.md «Order per view»)', () => {
  /** The titles in a view's order (its own keys where it has them). */
  async function inView(id: string, viewUid: string): Promise<string[]> {
    const { ids } = await orderedRows(t.app.db, (await data(id)).config, id, { order: viewUid });
    return (await readRows(t.app.db, id, ids)).map((r) => r.data.title);
  }

  test("a move with viewId writes keys of that view only: the rows' own keys, their «edited» and the other views stay; new rows after a row land after it in the view", async () => {
    const db = await newDatabase();
    const [view] = await uids(db.id);
    await addView(t.app.db, changer('admin'), db.id, { layout: { uid: 'board', type: 'board', orderedFields: [], groupBy: { fieldId: 'stage' } } });
    const [a, b, c] = (await rows('admin', db.id, titled('A', 'B', 'C'))).ids;
    const before = await readRows(t.app.db, db.id, [a, b, c]);
    const moved = await moveRows(t.app.db, team.userId.participant, db.id, { ids: [c], placeBefore: a, viewId: 'board' });
    // Only that view reads them again.
    expect(moved.events).toEqual([
      {
        kind: 'rowsChanged',
        holderId: expect.any(String),
        databaseId: db.id,
        change: { kind: 'rows', rows: moved.rows, viewId: 'board' },
        at: expect.any(String),
      },
    ]);
    expect(await inView(db.id, 'board')).toEqual(['C', 'A', 'B']);
    expect(await inView(db.id, view)).toEqual(['A', 'B', 'C']);
    expect(await titles(db.id)).toEqual(['A', 'B', 'C']);
    expect((await readRows(t.app.db, db.id, [a, b, c])).map((r) => [r.sortKey, r.updatedAt, r.updatedBy])).toEqual(
      before.map((r) => [r.sortKey, r.updatedAt, r.updatedBy]),
    );
    await createRows(t.app.db, team.userId.participant, db.id, { rows: titled('После C'), placeAfter: c, viewId: 'board' });
    expect(await inView(db.id, 'board')).toEqual(['C', 'После C', 'A', 'B']);
    expect(await titles(db.id)).toEqual(['A', 'B', 'C', 'После C']);
  });

  test('the kept order of a view (ViewOrders) follows a move in that view, and a move in another view leaves it kept (not computed again)', async () => {
    const db = await newDatabase();
    const [view] = await uids(db.id);
    await addView(t.app.db, changer('admin'), db.id, { layout: { uid: 'other', type: 'table', orderedFields: [] } });
    const [a, , c] = (await rows('admin', db.id, titled('A', 'B', 'C'))).ids;
    const orders = new ViewOrders();
    const ids = async (order: string) => orders.ids(t.app.db, await block(db.id), (await data(db.id)).config, { order });
    const table = await ids(view);
    const other = await ids('other');
    expect(await ids(view)).toBe(table);
    await moveRows(t.app.db, team.userId.participant, db.id, { ids: [c], placeAfter: null, viewId: 'other' });
    // The table's kept ids are the very same array: its order was not computed again.
    expect(await ids(view)).toBe(table);
    const moved = await ids('other');
    expect(moved).not.toBe(other);
    expect(moved[0]).toBe(c);
    // A move without a view (the rows' own order) changes what both read.
    await moveRows(t.app.db, team.userId.participant, db.id, { ids: [a], placeAfter: c });
    expect(await ids(view)).not.toBe(table);
    expect((await ids(view)).indexOf(a)).toBe(2);
  });

  test('refused, nothing written: a reader (403), a view the database does not have (404), a duplicate of no view (422)', async () => {
    const db = await newDatabase();
    const [view] = await uids(db.id);
    const [a, b] = (await rows('admin', db.id, titled('A', 'B'))).ids;
    const keys = async () => (await t.app.db.selectFrom('database_view_order').select('row_id').where('database_id', '=', db.id).execute()).length;
    expect(await refusal(moveRows(t.app.db, team.userId.reader, db.id, { ids: [b], placeAfter: null, viewId: view }))).toEqual([403, 'forbidden']);
    expect(await refusal(moveRows(t.app.db, team.userId.participant, db.id, { ids: [b], placeAfter: null, viewId: 'nope' }))).toEqual([404, 'not_found']);
    expect(await refusal(createRows(t.app.db, team.userId.reader, db.id, { rows: titled('X'), placeAfter: a, viewId: view }))).toEqual([403, 'forbidden']);
    expect(await refusal(createRows(t.app.db, team.userId.participant, db.id, { rows: titled('X'), placeAfter: a, viewId: 'nope' }))).toEqual([
      404,
      'not_found',
    ]);
    const layout: DatabaseLayout = { uid: 'copy', type: 'table', orderedFields: [] };
    expect(await refusal(addView(t.app.db, changer('admin'), db.id, { layout, orderOf: 'nope' }))).toEqual([422, 'validation_failed']);
    expect(await keys()).toBe(0);
    expect(await titles(db.id)).toEqual(['A', 'B']);
    expect(await uids(db.id)).toEqual([view]);
  });
});

describe('trashDatabaseRows and restoreDatabaseRows', () => {
  test('only rows in the other state count (ids of no row of it are left out); a reader is refused', async () => {
    const db = await newDatabase();
    const [a, b, c] = (await rows('admin', db.id, titled('A', 'B', 'C'))).ids;
    const trash = (ids: string[], who: Who = 'participant') => trashDatabaseRows(t.app.db, team.userId[who], db.id, ids);
    const restore = (ids: string[], who: Who = 'participant') => restoreDatabaseRows(t.app.db, team.userId[who], db.id, ids);
    expect((await trash([a])).ids).toEqual([a]);
    expect((await trash([a, b, team.pageId, newId()])).ids).toEqual([b]);
    expect(await titles(db.id)).toEqual(['C']);
    expect((await restore([a, c])).ids).toEqual([a]);
    expect((await restore([a])).ids).toEqual([]);
    expect(await titles(db.id)).toEqual(['A', 'C']);
    expect(await refusal(trash([c], 'reader'))).toEqual([403, 'forbidden']);
    expect(await refusal(restore([b], 'reader'))).toEqual([403, 'forbidden']);
    expect(await refusal(trash([c], 'outsider'))).toEqual([403, 'forbidden']);
    expect(await titles(db.id)).toEqual(['A', 'C']);
  });
});

describe('writeCell', () => {
  test('written at the version the edit saw; an older version writes nothing, and cellConflict carries the server’s copy', async () => {
    const db = await newDatabase();
    const [row] = (await rows('admin', db.id, titled('Строка'))).ids;
    const write = (fieldId: string, value: RowValue, version: number) => writeCell(t.app.db, team.userId.participant, row, fieldId, { value, version });
    const first = await write('price', 5, 0);
    expect(first.written).toMatchObject({ rowId: row, fieldId: 'price', value: 5, version: 1, updatedBy: team.userId.participant });
    expect(first.changes).toEqual([{ fieldId: 'price', rev: expect.any(Number), rowId: row }]);
    expect((await write('price', 6, 1)).written).toMatchObject({ value: 6, version: 2 });
    const stale = await write('price', 7, 1);
    expect([stale.written, stale.changes]).toEqual([null, []]);
    expect((await write('note', 'поздно', 0)).written?.version).toBe(1);
    expect((await write('note', 'снова', 0)).written).toBeNull();
    const conflict = await cellConflict(t.app.db, row, 'price');
    expect([conflict.statusCode, conflict.code]).toEqual([422, 'database.cell_conflict']);
    expect(conflict.data).toEqual({ rowId: row, fieldId: 'price', value: 6, version: 2, updatedAt: expect.any(String), updatedBy: team.userId.participant });
    expect((await cellConflict(t.app.db, row, 'stage')).data).toMatchObject({ value: null, version: 0 });
    // The title is the row page's title; null stores the empty title.
    await write(MAIN_FIELD_ID, 'Новое', 1);
    expect((await readRows(t.app.db, db.id, [row]))[0]).toMatchObject({
      data: { title: 'Новое', values: { price: 6, note: 'поздно' } },
      versions: { [MAIN_FIELD_ID]: 2 },
    });
    await write(MAIN_FIELD_ID, null, 2);
    expect((await readRows(t.app.db, db.id, [row]))[0].data.title).toBe('');
  });

  test('a row read while its title is written shows the title of the version it shows (the cells are read after the pages)', async () => {
    const db = await newDatabase();
    const [row] = (await rows('admin', db.id, titled('Было'))).ids;
    // The page as a read found it just before the write…
    const [before] = await findRowPages(t.app.db, db.id, [row]);
    await writeCell(t.app.db, team.userId.participant, row, MAIN_FIELD_ID, { value: 'Стало', version: 1 });
    // …and the cells as that read finds them after it.
    const [read] = await presentRows(t.app.db, [before]);
    expect([read.data.title, read.versions[MAIN_FIELD_ID]]).toEqual(['Стало', 2]);
    // A row with no title cell shows its page's title.
    await t.app.db.deleteFrom('database_cells').where('row_id', '=', row).where('field_id', '=', MAIN_FIELD_ID).execute();
    expect((await readRows(t.app.db, db.id, [row]))[0].data.title).toBe('Стало');
  });

  test('refused, nothing written: an unknown field or row (404), a computed field, a misfit value (422), no edit (403), a row in the trash (409)', async () => {
    const db = await newDatabase();
    const [row, gone] = (await rows('admin', db.id, titled('Строка', 'Удалённая'))).ids;
    const write = (rowId: string, fieldId: string, value: RowValue, who: Who = 'participant') =>
      refusal(writeCell(t.app.db, team.userId[who], rowId, fieldId, { value, version: 0 }));
    const before = await countRows(t, 'database_cells');
    expect(await write(row, 'nope', 1)).toEqual([404, 'not_found']);
    expect(await write(newId(), 'price', 1)).toEqual([404, 'not_found']);
    expect(await write(row, 'created', '2026-01-01')).toEqual([422, 'database.field_computed']);
    expect(await write(row, 'price', 'много')).toEqual([422, 'validation_failed']);
    expect(await write(row, 'stage', 'nope')).toEqual([422, 'validation_failed']);
    expect(await write(row, MAIN_FIELD_ID, 5)).toEqual([422, 'validation_failed']);
    expect(await write(row, 'price', 1, 'reader')).toEqual([403, 'forbidden']);
    expect(await write(row, 'price', 1, 'guest')).toEqual([403, 'forbidden']);
    await trashDatabaseRows(t.app.db, team.userId.admin, db.id, [gone]);
    expect(await write(gone, 'price', 1)).toEqual([409, 'page.in_trash']);
    expect(await countRows(t, 'database_cells')).toBe(before);
  });
});

describe('writeCells', () => {
  test('each cell written if still at its version, the others refused', async () => {
    const db = await newDatabase();
    const [a, b] = (await rows('admin', db.id, titled('A', 'B'))).ids;
    await writeCell(t.app.db, team.userId.admin, a, 'price', { value: 1, version: 0 });
    const out = await writeCells(t.app.db, team.userId.participant, db.id, [
      { rowId: a, fieldId: 'price', value: 2, version: 0 },
      { rowId: a, fieldId: 'note', value: 'да', version: 0 },
      { rowId: b, fieldId: 'price', value: 3, version: 0 },
    ]);
    expect(out.written.map((c) => [c.rowId, c.fieldId, c.value, c.version])).toEqual([
      [a, 'note', 'да', 1],
      [b, 'price', 3, 1],
    ]);
    expect(out.refused.map((c) => [c.rowId, c.fieldId])).toEqual([[a, 'price']]);
    expect([...out.rows.keys()].sort()).toEqual([a, b].sort());
    expect(out.changes.map((c) => [c.rowId, c.fieldId])).toEqual([
      [a, 'note'],
      [b, 'price'],
    ]);
    expect(await values(db.id, [a, b], 'price')).toEqual([1, 3]);
  });

  test('refused whole, nothing written: a cell named twice, a row of another database (422); a row one may only read, a reader (403)', async () => {
    const db = await newDatabase();
    const other = await newDatabase();
    const [a, b] = (await rows('admin', db.id, titled('A', 'B'))).ids;
    const [foreign] = (await rows('admin', other.id, titled('F'))).ids;
    const cell = (rowId: string, value = 1) => ({ rowId, fieldId: 'price', value, version: 0 });
    const write = (cells: Array<ReturnType<typeof cell>>, who: Who = 'participant') => writeCells(t.app.db, team.userId[who], db.id, cells);
    const before = await countRows(t, 'database_cells');
    expect(await refusal(write([cell(a), cell(a, 2)]))).toEqual([422, 'validation_failed']);
    const elsewhere = await failure(write([cell(a), cell(foreign)]));
    expect([elsewhere.statusCode, elsewhere.code, elsewhere.details]).toEqual([422, 'validation_failed', [expect.objectContaining({ path: 'cells.1.rowId' })]]);
    expect(await refusal(write([cell(a), { ...cell(b), fieldId: 'created' }]))).toEqual([422, 'database.field_computed']);
    expect(await refusal(write([cell(a)], 'reader'))).toEqual([403, 'forbidden']);
    await grantPage(t, b, team.userId.participant, 'read');
    expect(await refusal(write([cell(a), cell(b)]))).toEqual([403, 'forbidden']);
    expect(await countRows(t, 'database_cells')).toBe(before);
    expect((await write([cell(a)])).written).toHaveLength(1);
  });
});

describe('fields', () => {
  const text: DatabaseField = { name: 'Стоимость', type: 'text' };

  test('addField shows the field in every view after placeAfter (else last); the title field or a taken id is 422, a reader 403; the version goes up by one', async () => {
    const db = await newDatabase();
    const v = (await block(db.id)).version;
    const columns = [MAIN_FIELD_ID, 'price'].map((fieldId) => ({ fieldId, isWrap: false }));
    expect((await addView(t.app.db, changer('participant'), db.id, { layout: { uid: 'second', type: 'table', orderedFields: columns } })).block.version).toBe(
      v + 1,
    );
    const owner = await addField(t.app.db, changer('participant'), db.id, { id: 'owner', field: { name: 'Кто', type: 'person' }, placeAfter: MAIN_FIELD_ID });
    expect([owner.result, owner.block.version]).toEqual(['owner', v + 2]);
    const last = await addField(t.app.db, changer('participant'), db.id, { field: { name: 'Ещё', type: 'text' } });
    expect(last.result).toMatch(/^[A-Za-z0-9]{12}$/);
    const after = await data(db.id);
    expect(after.config.fields.owner).toEqual({ name: 'Кто', type: 'person' });
    expect(after.view.layouts.map((l) => l.orderedFields.map((f) => f.fieldId))).toEqual([
      [MAIN_FIELD_ID, 'owner', 'price', 'stage', 'note', 'created', last.result],
      [MAIN_FIELD_ID, 'owner', 'price', last.result],
    ]);
    const add = (id: string, who: Who = 'participant') => refusal(addField(t.app.db, changer(who), db.id, { id, field: text }));
    expect(await add(MAIN_FIELD_ID)).toEqual([422, 'database.main_field']);
    expect(await add('price')).toEqual([422, 'validation_failed']);
    expect(await add('fresh', 'reader')).toEqual([403, 'forbidden']);
    expect((await block(db.id)).version).toBe(v + 3);
    expect((await data(db.id)).config.fields.price).toEqual(FIELDS.price);
  });

  test('updateField renames and retypes (number → text converts the cells); planFieldChange reports the same, changing nothing; refusals', async () => {
    const db = await newDatabase();
    const ids = (await rows('admin', db.id, [{ values: { price: 5, note: 'много' } }, { values: { price: 2.5, note: '12' } }, {}])).ids;
    const v = (await block(db.id)).version;
    const renamed = await updateField(t.app.db, changer('participant'), db.id, 'price', { name: 'Стоимость', type: 'number' });
    expect([renamed.result, renamed.block.version]).toEqual([{ converted: 0, dropped: 0, droppedExamples: [], newOptions: [] }, v + 1]);
    expect((await data(db.id)).config.fields.price).toEqual({ name: 'Стоимость', type: 'number' });
    const plan = await planFieldChange(t.app.db, team.userId.participant, db.id, 'price', text);
    expect(plan).toEqual({ converted: 2, dropped: 0, droppedExamples: [], newOptions: [] });
    expect(await planFieldChange(t.app.db, team.userId.participant, db.id, 'note', { name: 'Число', type: 'number' })).toEqual({
      converted: 1,
      dropped: 1,
      droppedExamples: ['много'],
      newOptions: [],
    });
    expect([(await block(db.id)).version, await values(db.id, ids, 'price')]).toEqual([v + 1, [5, 2.5, undefined]]);
    const retyped = await updateField(t.app.db, changer('participant'), db.id, 'price', text);
    expect([retyped.result, retyped.block.version]).toEqual([plan, v + 2]);
    expect((await data(db.id)).config.fields.price).toEqual(text);
    expect(await values(db.id, ids, 'price')).toEqual(['5', '2.5', undefined]);
    expect((await readRows(t.app.db, db.id, ids)).map((r) => r.versions.price)).toEqual([2, 2, undefined]);
    const number: DatabaseField = { name: 'Номер', type: 'number' };
    expect(await refusal(updateField(t.app.db, changer('participant'), db.id, MAIN_FIELD_ID, number))).toEqual([422, 'database.main_field']);
    expect(await refusal(planFieldChange(t.app.db, team.userId.participant, db.id, MAIN_FIELD_ID, number))).toEqual([422, 'database.main_field']);
    expect(await refusal(updateField(t.app.db, changer('participant'), db.id, 'nope', number))).toEqual([404, 'not_found']);
    expect(await refusal(planFieldChange(t.app.db, team.userId.participant, db.id, 'nope', number))).toEqual([404, 'not_found']);
    expect(await refusal(updateField(t.app.db, changer('reader'), db.id, 'note', number))).toEqual([403, 'forbidden']);
    expect(await refusal(planFieldChange(t.app.db, team.userId.reader, db.id, 'note', number))).toEqual([403, 'forbidden']);
    expect([(await block(db.id)).version, await values(db.id, ids, 'note')]).toEqual([v + 2, ['много', '12', undefined]]);
  });

  test('deleteField takes the field out of every view and clears its cells; never the title (422); unknown 404, a reader 403', async () => {
    const db = await newDatabase();
    await rows('admin', db.id, [{ values: { price: 1 } }, { values: { price: 2, note: 'x' } }]);
    await updateView(t.app.db, changer('admin'), db.id, (await uids(db.id))[0], { layout: { sorts: [{ fieldId: 'price', direction: 'desc' }] } });
    const v = (await block(db.id)).version;
    expect(await cellsOf(db.id, 'price')).toBe(2);
    expect((await deleteField(t.app.db, changer('participant'), db.id, 'price')).block.version).toBe(v + 1);
    const after = await data(db.id);
    expect(after.config.fields.price).toBeUndefined();
    expect(after.view.layouts[0]).toMatchObject({ orderedFields: [MAIN_FIELD_ID, 'stage', 'note', 'created'].map((fieldId) => ({ fieldId })), sorts: [] });
    expect([await cellsOf(db.id, 'price'), await cellsOf(db.id, 'note')]).toEqual([0, 1]);
    expect(await refusal(deleteField(t.app.db, changer('participant'), db.id, MAIN_FIELD_ID))).toEqual([422, 'database.main_field']);
    expect(await refusal(deleteField(t.app.db, changer('participant'), db.id, 'price'))).toEqual([404, 'not_found']);
    expect(await refusal(deleteField(t.app.db, changer('reader'), db.id, 'note'))).toEqual([403, 'forbidden']);
    expect([(await block(db.id)).version, await cellsOf(db.id, 'note')]).toEqual([v + 1, 1]);
  });
});

describe('views', () => {
  test('addView, updateView, moveView, deleteView each raise the version by one; unknown view 404, placeAfter no view or a taken uid 422, a reader 403', async () => {
    const db = await newDatabase();
    const [first] = await uids(db.id);
    let v = (await block(db.id)).version;
    const step = async (work: Promise<StructureOutcome>) => expect((await work).block.version).toBe(++v);
    const layout = (uid: string): DatabaseLayout => ({ uid, type: 'table', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] });
    const ed = changer('participant');
    await step(addView(t.app.db, ed, db.id, { layout: layout('end') }));
    await step(addView(t.app.db, ed, db.id, { layout: layout('top'), placeAfter: null }));
    await step(addView(t.app.db, ed, db.id, { layout: layout('mid'), placeAfter: first }));
    expect(await uids(db.id)).toEqual(['top', first, 'mid', 'end']);
    await step(updateView(t.app.db, ed, db.id, 'mid', { layout: { name: 'Середина', sorts: [{ fieldId: 'price', direction: 'desc' }] } }));
    expect((await data(db.id)).view.layouts[2]).toEqual({ ...layout('mid'), name: 'Середина', sorts: [{ fieldId: 'price', direction: 'desc' }] });
    await step(moveView(t.app.db, ed, db.id, 'top', { placeAfter: 'end' }));
    expect(await uids(db.id)).toEqual([first, 'mid', 'end', 'top']);
    await step(moveView(t.app.db, ed, db.id, 'end', { placeAfter: null }));
    expect(await uids(db.id)).toEqual(['end', first, 'mid', 'top']);
    await step(deleteView(t.app.db, ed, db.id, 'mid'));
    expect(await uids(db.id)).toEqual(['end', first, 'top']);

    expect(await refusal(updateView(t.app.db, ed, db.id, 'mid', { layout: { name: 'нет' } }))).toEqual([404, 'not_found']);
    expect(await refusal(moveView(t.app.db, ed, db.id, 'mid', { placeAfter: null }))).toEqual([404, 'not_found']);
    expect(await refusal(deleteView(t.app.db, ed, db.id, 'mid'))).toEqual([404, 'not_found']);
    expect(await refusal(moveView(t.app.db, ed, db.id, 'top', { placeAfter: 'nope' }))).toEqual([422, 'validation_failed']);
    expect(await refusal(addView(t.app.db, ed, db.id, { layout: layout(first) }))).toEqual([422, 'validation_failed']);
    expect(await refusal(updateView(t.app.db, ed, db.id, 'top', { layout: { sorts: [{ fieldId: 'nope', direction: 'asc' }] } }))).toEqual([
      422,
      'validation_failed',
    ]);
    const reader = changer('reader');
    expect(await refusal(addView(t.app.db, reader, db.id, { layout: layout('new') }))).toEqual([403, 'forbidden']);
    expect(await refusal(updateView(t.app.db, reader, db.id, 'top', { layout: { name: 'нет' } }))).toEqual([403, 'forbidden']);
    expect(await refusal(moveView(t.app.db, reader, db.id, 'top', { placeAfter: null }))).toEqual([403, 'forbidden']);
    expect(await refusal(deleteView(t.app.db, reader, db.id, 'top'))).toEqual([403, 'forbidden']);
    expect([(await block(db.id)).version, await uids(db.id)]).toEqual([v, ['end', first, 'top']]);
  });
});

describe('describeDatabase (an inline database’s title and description)', () => {
  test('an editor sets, replaces and clears them, each a version; a key left out stays; field and view changes keep them', async () => {
    const db = await newDatabase();
    let v = (await block(db.id)).version;
    const ed = changer('participant');
    const about = async () => {
      const { title, description } = await data(db.id);
      return { title, description };
    };
    expect((await describeDatabase(t.app.db, ed, db.id, { title: 'Задачи команды' })).block.version).toBe(++v);
    expect(await about()).toEqual({ title: 'Задачи команды', description: undefined });
    expect((await describeDatabase(t.app.db, ed, db.id, { description: 'Что мы делаем' })).block.version).toBe(++v);
    expect(await about()).toEqual({ title: 'Задачи команды', description: 'Что мы делаем' });
    // The same again changes nothing (no version).
    expect((await describeDatabase(t.app.db, ed, db.id, { title: 'Задачи команды' })).block.version).toBe(v);
    // Every other change of the block keeps them (they were dropped when a change rebuilt the data).
    await addField(t.app.db, ed, db.id, { id: 'extra', field: { name: 'Ещё', type: 'text' } });
    await updateField(t.app.db, ed, db.id, 'extra', { name: 'Ещё раз', type: 'number' });
    await addView(t.app.db, ed, db.id, { layout: { uid: 'second', type: 'table', orderedFields: [] } });
    await updateView(t.app.db, ed, db.id, 'second', { layout: { name: 'Вторая' } });
    await moveView(t.app.db, ed, db.id, 'second', { placeAfter: null });
    await deleteView(t.app.db, ed, db.id, 'second');
    await deleteField(t.app.db, ed, db.id, 'extra');
    v += 7;
    expect(await about()).toEqual({ title: 'Задачи команды', description: 'Что мы делаем' });
    // null, or blank text, clears one; the other stays.
    expect((await describeDatabase(t.app.db, ed, db.id, { title: '  ' })).block.version).toBe(++v);
    expect(await about()).toEqual({ title: undefined, description: 'Что мы делаем' });
    expect((await describeDatabase(t.app.db, ed, db.id, { description: null })).block.version).toBe(++v);
    expect(await data(db.id)).not.toHaveProperty('title');
    expect(await data(db.id)).not.toHaveProperty('description');
    expect((await block(db.id)).version).toBe(v);
  });

  test('denied: a reader, a guest and an outsider change nothing (403); no such database 404', async () => {
    const db = await newDatabase();
    await describeDatabase(t.app.db, changer('admin'), db.id, { title: 'Было' });
    const before = await block(db.id);
    for (const who of ['reader', 'guest', 'outsider'] as const)
      expect(await refusal(describeDatabase(t.app.db, changer(who), db.id, { title: 'Стало', description: 'нет' }))).toEqual([403, 'forbidden']);
    expect(await refusal(describeDatabase(t.app.db, changer('admin'), newId(), { title: 'нет' }))).toEqual([404, 'not_found']);
    expect(await block(db.id)).toEqual(before);
  });
});
