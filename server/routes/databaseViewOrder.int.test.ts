import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { DatabaseEvent, WireRow } from '../../schema/database';
import { channels } from '../../schema/realtime';
import { connectRealtime, nextEvent, request } from '../../test/helpers/realtimeClient';
import type { WireElement } from '../../schema/element';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString as q, signIn, type TestApp } from '../../test/helpers/testApp';
import { addMembersAs, createWorkspaceAs, userIdOf } from '../../test/helpers/workspaces';

/*
 * Manual order per view (issue 34 §2, docs/api/databases.md «Order per view») on a real server and
 * the project's database (SQLite or PostgreSQL): a move in one view (`rows/move` with `viewId`)
 * writes keys of that view only, so a card dragged on a board leaves the table's order alone and
 * the other way round; a view nobody moved rows in follows the rows' own order; a new row at the
 * end is last in every view; a view deleted takes its keys with it, a view duplicated or a
 * database copied keeps them.
 */

let t: TestApp;
let ann: string;
let bob: string;

const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t, 'ann.order@example.com');
  bob = await signIn(t, 'bob.order@example.com');
});
afterAll(async () => {
  await t.close();
});

const FIELDS = {
  [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
  stage: {
    name: 'Этап',
    type: 'select',
    options: [
      { id: 'todo', name: 'Сделать' },
      { id: 'done', name: 'Готово' },
    ],
  },
};

/**
 * A workspace page (Bob a member who may read it only) with a database of three views — a table
 * `tbl`, a board `brd` by `stage`, a second table `other` nobody drags in — and rows A…E, all
 * «Сделать», in that order.
 */
async function orderedDatabase() {
  const workspace = await createWorkspaceAs(t, ann, 'Порядок');
  const bobId = await userIdOf(t, 'bob.order@example.com');
  await addMembersAs(t, ann, workspace.id, [{ userId: bobId, role: 'participant' }]);
  const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/all`, { title: 'Задачи' }, { 'x-workspace-id': workspace.id }), 201);
  const orderedFields = Object.keys(FIELDS).map((fieldId) => ({ fieldId, isWrap: false }));
  const data: DatabaseData = {
    config: { fields: structuredClone(FIELDS) as unknown as DatabaseData['config']['fields'] },
    view: {
      layouts: [
        { uid: 'tbl', type: 'table', orderedFields },
        { uid: 'brd', type: 'board', orderedFields, groupBy: { fieldId: 'stage' } },
        { uid: 'other', type: 'table', orderedFields },
      ],
    },
  };
  const db = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  const made = expectOk<WireRow[]>(
    await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, { rows: ['A', 'B', 'C', 'D', 'E'].map((title) => ({ title, values: { stage: 'todo' } })) }),
    201,
  );
  expectOk(await api(t, ann, 'POST', `${S}/element/${page.id}/member/add`, [{ userId: bobId, accessLevel: 'read' }]));
  return { pageId: page.id, workspaceId: workspace.id, db, id: Object.fromEntries(made.map((r) => [r.data.title, r.id])) as Record<string, string> };
}

/** The titles of a view's rows (no viewId: the rows' own order), or of one board column. */
async function order(databaseId: string, viewId?: string, group?: string | null): Promise<string[]> {
  const res = await api(t, ann, 'GET', `${S}/database/${databaseId}/rows?${q({ viewId, group, limit: 100 })}`);
  expect([res.statusCode, res.statusCode === 200 ? '' : res.body]).toEqual([200, '']);
  return body<WireRow[]>(res).data.map((r) => r.data.title);
}

const move = (databaseId: string, body: Record<string, unknown>, cookie = ann) => api(t, cookie, 'POST', `${S}/database/${databaseId}/rows/move`, body);

async function everyView(databaseId: string) {
  return {
    tbl: await order(databaseId, 'tbl'),
    brd: await order(databaseId, 'brd', 'todo'),
    other: await order(databaseId, 'other'),
    rows: await order(databaseId),
  };
}

describe('order per view', () => {
  test("a card moved on the board (within its column, and to another column) leaves the table's order as it was", async () => {
    const { db, id } = await orderedDatabase();
    // The board's windows are read first: the kept order of each view must follow the moves.
    await everyView(db.id);
    expectOk(await move(db.id, { ids: [id.D], placeBefore: id.A, viewId: 'brd' }));
    expectOk(await move(db.id, { ids: [id.B], placeAfter: id.E, viewId: 'brd' }));
    expect(await everyView(db.id)).toEqual({
      tbl: ['A', 'B', 'C', 'D', 'E'],
      brd: ['D', 'A', 'C', 'E', 'B'],
      other: ['A', 'B', 'C', 'D', 'E'],
      rows: ['A', 'B', 'C', 'D', 'E'],
    });
    // To another column (the cell written), at its top: the table keeps the row where it was.
    expectOk(await move(db.id, { ids: [id.C], placeAfter: null, viewId: 'brd', set: { fieldId: 'stage', value: 'done' } }));
    expect(await order(db.id, 'brd', 'done')).toEqual(['C']);
    expect(await order(db.id, 'brd', 'todo')).toEqual(['D', 'A', 'E', 'B']);
    expect(await order(db.id, 'tbl')).toEqual(['A', 'B', 'C', 'D', 'E']);
    // Back into «Сделать» after A, on the board only.
    expectOk(await move(db.id, { ids: [id.C], placeAfter: id.A, viewId: 'brd', set: { fieldId: 'stage', value: 'todo' } }));
    expect(await everyView(db.id)).toEqual({
      tbl: ['A', 'B', 'C', 'D', 'E'],
      brd: ['D', 'A', 'C', 'E', 'B'],
      other: ['A', 'B', 'C', 'D', 'E'],
      rows: ['A', 'B', 'C', 'D', 'E'],
    });
  });

  test("rows moved in the table leave the board's order; a view nobody moved rows in follows the rows' own order", async () => {
    const { db, id } = await orderedDatabase();
    await everyView(db.id);
    expectOk(await move(db.id, { ids: [id.E, id.C], placeAfter: null, viewId: 'tbl' }));
    expectOk(await move(db.id, { ids: [id.A], placeBefore: id.D, viewId: 'tbl' }));
    expect(await everyView(db.id)).toEqual({
      tbl: ['E', 'C', 'B', 'A', 'D'],
      brd: ['A', 'B', 'C', 'D', 'E'],
      other: ['A', 'B', 'C', 'D', 'E'],
      rows: ['A', 'B', 'C', 'D', 'E'],
    });
    // A move without a view is the rows' own order (as before): the views without keys of their
    // own follow it, and so do the rows a view has no key for (D, never moved in the table, is
    // now first: its own key is before every other one).
    expectOk(await move(db.id, { ids: [id.D], placeAfter: null }));
    expect(await everyView(db.id)).toEqual({
      tbl: ['D', 'E', 'C', 'B', 'A'],
      brd: ['D', 'A', 'B', 'C', 'E'],
      other: ['D', 'A', 'B', 'C', 'E'],
      rows: ['D', 'A', 'B', 'C', 'E'],
    });
    // The table's keys sit among the rows' own: a move in the table between two rows, one with a key of the table, one without.
    expectOk(await move(db.id, { ids: [id.B], placeAfter: id.D, viewId: 'tbl' }));
    expect(await order(db.id, 'tbl')).toEqual(['D', 'B', 'E', 'C', 'A']);
    expect(await order(db.id, 'other')).toEqual(['D', 'A', 'B', 'C', 'E']);
  });

  test('new rows: at the end, last in every view; first, first in every view; after a row with a view, after it in that view', async () => {
    const { db, id } = await orderedDatabase();
    // The table's last row is put first, and its first row last: keys of the table past both ends of the rows' own.
    expectOk(await move(db.id, { ids: [id.A], placeAfter: id.E, viewId: 'tbl' }));
    expectOk(await move(db.id, { ids: [id.E], placeAfter: null, viewId: 'brd' }));
    expect(await order(db.id, 'tbl')).toEqual(['B', 'C', 'D', 'E', 'A']);
    expect(await order(db.id, 'brd', 'todo')).toEqual(['E', 'A', 'B', 'C', 'D']);
    const add = async (title: string, extra: Record<string, unknown> = {}) =>
      expectOk<WireRow[]>(await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, { rows: [{ title, values: { stage: 'todo' } }], ...extra }), 201);
    await add('Последняя');
    await add('Первая', { placeAfter: null });
    expect(await everyView(db.id)).toEqual({
      tbl: ['Первая', 'B', 'C', 'D', 'E', 'A', 'Последняя'],
      brd: ['Первая', 'E', 'A', 'B', 'C', 'D', 'Последняя'],
      other: ['Первая', 'A', 'B', 'C', 'D', 'E', 'Последняя'],
      rows: ['Первая', 'A', 'B', 'C', 'D', 'E', 'Последняя'],
    });
    // After B in the table (a new row under it, from that view): there, and after B in the rows' own order too.
    await add('После B', { placeAfter: id.B, viewId: 'tbl' });
    // After E on the board, where E is first: there; in the rows' own order after E.
    await add('После E', { placeAfter: id.E, viewId: 'brd' });
    const views = await everyView(db.id);
    expect({ ...views, tbl: views.tbl.filter((title) => title !== 'После E') }).toEqual({
      tbl: ['Первая', 'B', 'После B', 'C', 'D', 'E', 'A', 'Последняя'],
      brd: ['Первая', 'E', 'После E', 'A', 'B', 'После B', 'C', 'D', 'Последняя'],
      other: ['Первая', 'A', 'B', 'После B', 'C', 'D', 'E', 'После E', 'Последняя'],
      rows: ['Первая', 'A', 'B', 'После B', 'C', 'D', 'E', 'После E', 'Последняя'],
    });
    // In the table it follows its own key, after E (whether before or after A, whose key there is the table's, is the keys' to say).
    expect(views.tbl.indexOf('После E')).toBeGreaterThan(views.tbl.indexOf('E'));
    expect(views.tbl.indexOf('После E')).toBeLessThan(views.tbl.indexOf('Последняя'));
  });

  test('sorted views stay sorted (the view order only breaks ties); a trashed and restored row keeps its place in the view', async () => {
    const { db, id } = await orderedDatabase();
    expectOk(await move(db.id, { ids: [id.D], placeAfter: null, viewId: 'tbl' }));
    // Sorted by stage (all «Сделать»: one tie): the view's own order breaks it.
    expect(
      body<WireRow[]>(
        await api(t, ann, 'GET', `${S}/database/${db.id}/rows?${q({ viewId: 'tbl', sorts: [{ fieldId: 'stage', direction: 'asc' }] })}`),
      ).data.map((r) => r.data.title),
    ).toEqual(['D', 'A', 'B', 'C', 'E']);
    expectOk(await api(t, ann, 'POST', `${S}/row/${id.B}/cells/stage`, { value: 'done', version: 1 }));
    expect(
      body<WireRow[]>(
        await api(t, ann, 'GET', `${S}/database/${db.id}/rows?${q({ viewId: 'tbl', sorts: [{ fieldId: 'stage', direction: 'desc' }] })}`),
      ).data.map((r) => r.data.title),
    ).toEqual(['B', 'D', 'A', 'C', 'E']);
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/delete`, { ids: [id.D] }));
    expect(await order(db.id, 'tbl')).toEqual(['A', 'B', 'C', 'E']);
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/restore`, { ids: [id.D] }));
    expect(await order(db.id, 'tbl')).toEqual(['D', 'A', 'B', 'C', 'E']);
    expect(await order(db.id, 'other')).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  test('a view deleted takes its keys with it; a view duplicated starts with its keys; a copied database keeps them', async () => {
    const { db, id, pageId, workspaceId } = await orderedDatabase();
    expectOk(await move(db.id, { ids: [id.E], placeAfter: null, viewId: 'tbl' }));
    expectOk(await move(db.id, { ids: [id.A], placeAfter: id.C, viewId: 'tbl' }));
    expect(await order(db.id, 'tbl')).toEqual(['E', 'B', 'C', 'A', 'D']);
    // Duplicated (the web app's «Дублировать»: a new view with `orderOf`): the same order, then each its own.
    const layout = (db.data as DatabaseData).view.layouts[0];
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views`, { layout: { ...layout, uid: 'copy' }, placeAfter: 'tbl', orderOf: 'tbl' }));
    expect(await order(db.id, 'copy')).toEqual(['E', 'B', 'C', 'A', 'D']);
    expectOk(await move(db.id, { ids: [id.D], placeAfter: null, viewId: 'copy' }));
    expect(await order(db.id, 'copy')).toEqual(['D', 'E', 'B', 'C', 'A']);
    expect(await order(db.id, 'tbl')).toEqual(['E', 'B', 'C', 'A', 'D']);
    const unknown = await api(t, ann, 'POST', `${S}/database/${db.id}/views`, { layout: { ...layout, uid: 'copy2' }, orderOf: 'nope' });
    expect([unknown.statusCode, errorCode(unknown)]).toEqual([422, 'validation_failed']);

    // Copies of the database (a block clone, a page clone) keep each view's order under the copy's views.
    const [clone] = expectOk<WireBlock[]>(await api(t, ann, 'POST', `${S}/block/${db.id}/clone`, {}), 201);
    const cloneViews = (clone.data as DatabaseData).view.layouts.map((l) => l.uid);
    expect(await order(clone.id, cloneViews[0])).toEqual(['E', 'B', 'C', 'A', 'D']);
    expect(await order(clone.id, cloneViews[2])).toEqual(['A', 'B', 'C', 'D', 'E']);
    const pageCopy = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/element/${pageId}/page/clone`, { workspaceId }), 201);
    const copied = expectOk<WireBlock[]>(await api(t, ann, 'GET', `${S}/note/${pageCopy.id}/blocks`)).filter((b) => b.type === 'database');
    for (const copy of copied) expect(await order(copy.id, (copy.data as DatabaseData).view.layouts[0].uid)).toEqual(['E', 'B', 'C', 'A', 'D']);

    // Deleted: its keys go (a view made again with its uid follows the rows' own order); the other views keep theirs.
    expectOk(await api(t, ann, 'DELETE', `${S}/database/${db.id}/views/tbl`));
    const left = await t.app.db.selectFrom('database_view_order').select(['view_uid']).where('database_id', '=', db.id).execute();
    expect([...new Set(left.map((k) => k.view_uid))]).toEqual(['copy']);
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views`, { layout }));
    expect(await order(db.id, 'tbl')).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(await order(db.id, 'copy')).toEqual(['D', 'E', 'B', 'C', 'A']);
    // Moved in a view that is not there: 404, nothing written.
    const gone = await move(db.id, { ids: [id.A], placeAfter: null, viewId: 'nope' });
    expect([gone.statusCode, errorCode(gone)]).toEqual([404, 'not_found']);
    expect(await order(db.id, 'tbl')).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  test('who may: a reader moves nothing in any view, nor makes rows in one', async () => {
    const { db, id } = await orderedDatabase();
    const reader = await move(db.id, { ids: [id.E], placeAfter: null, viewId: 'brd' }, bob);
    expect([reader.statusCode, errorCode(reader)]).toEqual([403, 'forbidden']);
    const made = await api(t, bob, 'POST', `${S}/database/${db.id}/rows`, { rows: [{ title: 'X' }], placeAfter: id.A, viewId: 'tbl' });
    expect([made.statusCode, errorCode(made)]).toEqual([403, 'forbidden']);
    expect(await everyView(db.id)).toEqual({
      tbl: ['A', 'B', 'C', 'D', 'E'],
      brd: ['A', 'B', 'C', 'D', 'E'],
      other: ['A', 'B', 'C', 'D', 'E'],
      rows: ['A', 'B', 'C', 'D', 'E'],
    });
    // Bob reads the views as they are, his own reads included.
    const res = await api(t, bob, 'GET', `${S}/database/${db.id}/rows?${q({ viewId: 'tbl' })}`);
    expect(res.statusCode).toBe(200);
  });

  test("realtime: a move in a view's own order says its view (others need not read again); with a cell written, or without a view, it says none", async () => {
    const { db, id, pageId } = await orderedDatabase();
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = await connectRealtime(baseUrl, { cookie: ann });
    try {
      const channel = channels.element(pageId, await userIdOf(t, 'ann.order@example.com'));
      const joined = await request(socket, 'join', { channel });
      expect(joined.ok).toBe(true);
      const rowsEvent = () => nextEvent<DatabaseEvent>(socket, 'database', (e) => e.databaseId === db.id && e.change.kind === 'rows');
      let heard = rowsEvent();
      expectOk(await move(db.id, { ids: [id.E], placeAfter: null, viewId: 'brd' }));
      let change = (await heard).change;
      expect(change.kind === 'rows' && [change.viewId, change.rows.map((r) => r.data.title)]).toEqual(['brd', ['E']]);
      heard = rowsEvent();
      expectOk(await move(db.id, { ids: [id.A], placeAfter: id.B, viewId: 'brd', set: { fieldId: 'stage', value: 'done' } }));
      change = (await heard).change;
      expect(change.kind === 'rows' && change.viewId).toBeUndefined();
      heard = rowsEvent();
      expectOk(await move(db.id, { ids: [id.A], placeAfter: id.B }));
      change = (await heard).change;
      expect(change.kind === 'rows' && change.viewId).toBeUndefined();
    } finally {
      socket.close();
    }
  });
});
