import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { WireRow } from '../../schema/database';
import type { WireCellChange } from '../../schema/history';
import { actor, createPage, share, type Actor } from '../../test/helpers/pages';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString as q, type TestApp } from '../../test/helpers/testApp';
import { CELL_HISTORY_PER_ROW, forgetOldCellHistory } from '../repositories/cellHistory';

/*
 * A row's property changes (issue 34 §2, docs/history.md «A row's property changes») on a real
 * server and database (SQLite and PostgreSQL): every path that writes a cell records who changed
 * it from what to what (a cell, a batch or paste, a title, a card moved to a board's column);
 * rows made with values and field retypes record nothing; one person's burst on a cell is one
 * entry; a restore is a cell write recorded itself; who may list and restore; a deleted field's
 * entries are not listed and a retyped one's are not brought back; the cap and retention.
 */

let t: TestApp;
let ann: Actor;
let bob: Actor;
let eve: Actor;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  ann = await actor(t, 'rowhist-ann@example.com');
  bob = await actor(t, 'rowhist-bob@example.com');
  eve = await actor(t, 'rowhist-eve@example.com');
  expectOk(await api(t, ann.cookie, 'POST', '/api/user', { id: ann.id, name: 'Анна' }));
  expectOk(await api(t, bob.cookie, 'POST', '/api/user', { id: bob.id, name: 'Борис' }));
});
afterAll(async () => {
  await t.close();
});

const FIELDS = {
  [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
  status: {
    name: 'Статус',
    type: 'status',
    options: [
      { id: 'todo', name: 'Не начато', group: 'todo' },
      { id: 'doing', name: 'В работе', group: 'inProgress' },
      { id: 'done', name: 'Готово', group: 'done' },
    ],
  },
  owner: { name: 'Ответственный', type: 'person' },
  note: { name: 'Заметка', type: 'text' },
  price: { name: 'Цена', type: 'number' },
};

/** A database on Ann's page with rows «Макет» and «Тексты» (status «Не начато»); Bob a reader of the page when `reader`. */
async function table(reader = true) {
  const page = await createPage(t, ann, { title: 'Задачи' });
  const orderedFields = Object.keys(FIELDS).map((fieldId) => ({ fieldId, isWrap: false }));
  const data: DatabaseData = {
    config: { fields: structuredClone(FIELDS) as unknown as DatabaseData['config']['fields'] },
    view: {
      layouts: [
        { uid: 'tbl', type: 'table', orderedFields },
        { uid: 'brd', type: 'board', orderedFields, groupBy: { fieldId: 'status' } },
      ],
    },
  };
  const db = expectOk<WireBlock>(await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  const made = expectOk<WireRow[]>(
    await api(t, ann.cookie, 'POST', `${S}/database/${db.id}/rows`, {
      rows: [
        { title: 'Макет', values: { status: 'todo' } },
        { title: 'Тексты', values: { status: 'todo' } },
      ],
    }),
    201,
  );
  if (reader) await share(t, ann, page.id, [{ email: bob.email, accessLevel: 'read' }]);
  const [a, b] = made.map((r) => r.id);
  return { pageId: page.id, db, a, b };
}

const history = async (rowId: string, who: Actor = ann, query: Record<string, unknown> = {}) =>
  expectOk<WireCellChange[]>(await api(t, who.cookie, 'GET', `${S}/row/${rowId}/history${Object.keys(query).length ? `?${q(query)}` : ''}`));
const cellOf = async (rowId: string, fieldId: string) => {
  const row = expectOk<WireRow>(await api(t, ann.cookie, 'GET', `${S}/row/${rowId}`));
  return { value: row.data.values[fieldId] ?? null, version: row.versions?.[fieldId] ?? 0 };
};
const write = async (rowId: string, fieldId: string, value: unknown, who: Actor = ann) => {
  const { version } = await cellOf(rowId, fieldId);
  return expectOk<{ version: number }>(await api(t, who.cookie, 'POST', `${S}/row/${rowId}/cells/${fieldId}`, { value, version }));
};
const brief = (entries: WireCellChange[]) => entries.map((e) => [e.fieldId, e.fromText, e.toText, e.author.name]);
/** The entries' last change moved back by `ms` (a burst's window passed). */
const age = (rowId: string, ms: number) =>
  t.app.db
    .selectFrom('cell_history')
    .select(['id', 'at', 'started_at'])
    .where('row_id', '=', rowId)
    .execute()
    .then((rows) =>
      Promise.all(
        rows.map((r) =>
          t.app.db
            .updateTable('cell_history')
            .set({ at: new Date(Date.parse(r.at) - ms).toISOString(), started_at: new Date(Date.parse(r.started_at) - ms).toISOString() })
            .where('id', '=', r.id)
            .execute(),
        ),
      ),
    );

describe('what records a change', () => {
  test('a row made with values records nothing; a single cell write records field, from, to, who and when, options by name', async () => {
    const { a } = await table();
    expect(await history(a)).toEqual([]);
    await write(a, 'status', 'doing');
    const [entry] = await history(a);
    expect(entry).toMatchObject({ rowId: a, fieldId: 'status', fieldType: 'status', from: 'todo', to: 'doing', fromText: 'Не начато', toText: 'В работе' });
    expect(entry.author).toEqual({ id: ann.id, name: 'Анна' });
    expect(entry.field).toMatchObject({ name: 'Статус', type: 'status' });
    expect(entry.restorable).toBe(true);
    expect(Date.now() - Date.parse(entry.at)).toBeLessThan(60_000);
  });

  test('a batch (a paste), the title through the cell and through the page, and a card moved to a board column each record', async () => {
    const { db, a, b } = await table();
    const [va, vb] = [await cellOf(a, 'note'), await cellOf(b, 'price')];
    const pasted = expectOk<{ written: unknown[] }>(
      await api(t, ann.cookie, 'POST', `${S}/database/${db.id}/cells`, {
        cells: [
          { rowId: a, fieldId: 'note', value: 'из буфера', version: va.version },
          { rowId: b, fieldId: 'price', value: 1234.5, version: vb.version },
        ],
      }),
    );
    expect(pasted.written).toHaveLength(2);
    expect(brief(await history(a))).toEqual([['note', '', 'из буфера', 'Анна']]);
    expect(brief(await history(b))).toEqual([['price', '', '1234.5', 'Анна']]);
    await write(b, MAIN_FIELD_ID, 'Тексты v2');
    expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${a}`, { title: 'Макет главной' }));
    expect(brief(await history(a))[0]).toEqual([MAIN_FIELD_ID, 'Макет', 'Макет главной', 'Анна']);
    expect(brief(await history(b))[0]).toEqual([MAIN_FIELD_ID, 'Тексты', 'Тексты v2', 'Анна']);
    // A card moved to the board's «Готово» column writes the status of the rows moved.
    expectOk(
      await api(t, ann.cookie, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [a, b], placeAfter: null, set: { fieldId: 'status', value: 'done' } }),
    );
    for (const row of [a, b]) expect(brief(await history(row))[0]).toEqual(['status', 'Не начато', 'Готово', 'Анна']);
  });

  test('a write that leaves the value as it was, and a field retype, record nothing', async () => {
    const { db, a } = await table();
    await write(a, 'status', 'todo');
    expect(await history(a)).toEqual([]);
    await write(a, 'note', '42');
    await age(a, 120_000);
    expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${db.id}/fields/note`, { field: { name: 'Заметка', type: 'number' } }));
    expect((await cellOf(a, 'note')).value).toBe(42);
    // The entry made as text is listed, greyed: its field is a number now.
    const [entry] = await history(a);
    expect([entry.fieldType, entry.field.type, entry.restorable]).toEqual(['text', 'number', false]);
    expect((await history(a)).length).toBe(1);
  });

  test("people by the names the caller may see: a person cell's change names them", async () => {
    const { a } = await table();
    await write(a, 'owner', [bob.id]);
    expect(brief(await history(a))).toEqual([['owner', '', 'Борис', 'Анна']]);
  });
});

describe("the row page's versions", () => {
  test('its title and cells make no version of the page (they are in the cell history); a change of its body does', async () => {
    const { a } = await table();
    await write(a, 'note', 'заметка');
    expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${a}`, { title: 'Макет, правка' }));
    const record = async () => expectOk<{ recorded: { changed: number } | null }>(await api(t, ann.cookie, 'POST', `${S}/element/${a}/versions`)).recorded;
    // The history panel opening records what changed: nothing of the body yet.
    expect(await record()).toBeNull();
    expect(expectOk<unknown[]>(await api(t, ann.cookie, 'GET', `${S}/element/${a}/versions`))).toEqual([]);
    expectOk(await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: a, type: 'text', data: { tokens: [{ text: 'Тело строки' }] }, placeAfter: null }), 201);
    expect(await record()).toMatchObject({ changed: 1 });
    // The title alone again: no version.
    expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${a}`, { title: 'Макет, ещё правка' }));
    expect(await record()).toBeNull();
    expect(expectOk<unknown[]>(await api(t, ann.cookie, 'GET', `${S}/element/${a}/versions`))).toHaveLength(1);
  });
});

describe('bursts', () => {
  test("one person's changes of a cell within the window are one entry (from the first value to the last); another's make a new one", async () => {
    const { pageId, a } = await table(false);
    await share(t, ann, pageId, [{ email: bob.email, accessLevel: 'edit' }]);
    await write(a, 'note', 'М');
    await write(a, 'note', 'Ма');
    await write(a, 'note', 'Мак');
    expect(brief(await history(a))).toEqual([['note', '', 'Мак', 'Анна']]);
    // Someone else in between: their own entry, and Ann's next change starts another.
    await write(a, 'note', 'Макет', bob);
    await write(a, 'note', 'Макет!');
    expect(brief(await history(a))).toEqual([
      ['note', 'Макет', 'Макет!', 'Анна'],
      ['note', 'Мак', 'Макет', 'Борис'],
      ['note', '', 'Мак', 'Анна'],
    ]);
    // Other cells do not join the burst.
    await write(a, 'price', 5);
    expect((await history(a)).map((e) => e.fieldId)).toEqual(['price', 'note', 'note', 'note']);
  });

  test('after the window a change is a new entry; a burst back to where it began leaves no entry', async () => {
    const { a } = await table();
    await write(a, 'status', 'doing');
    await age(a, 61_000);
    await write(a, 'status', 'done');
    expect(brief(await history(a))).toEqual([
      ['status', 'В работе', 'Готово', 'Анна'],
      ['status', 'Не начато', 'В работе', 'Анна'],
    ]);
    await write(a, 'status', 'doing');
    expect(brief(await history(a))).toEqual([['status', 'Не начато', 'В работе', 'Анна']]);
  });
});

describe('restore', () => {
  test("an entry's earlier value is written back as a cell write (version + 1), and recorded itself", async () => {
    const { a } = await table();
    await write(a, 'status', 'doing');
    await age(a, 61_000);
    await write(a, 'status', 'done');
    const before = await cellOf(a, 'status');
    const [, older] = await history(a);
    expect(older.fromText).toBe('Не начато');
    // Within a minute of Ann's last change: a restore is an entry of its own all the same.
    const restored = expectOk<{ value: unknown; version: number; fieldId: string }>(
      await api(t, ann.cookie, 'POST', `${S}/row/${a}/history/${older.id}/restore`),
    );
    expect(restored).toMatchObject({ fieldId: 'status', value: 'todo', version: before.version + 1 });
    expect(await cellOf(a, 'status')).toEqual({ value: 'todo', version: before.version + 1 });
    const [restore, last] = await history(a);
    expect(brief([restore, last])).toEqual([
      ['status', 'Готово', 'Не начато', 'Анна'],
      ['status', 'В работе', 'Готово', 'Анна'],
    ]);
    expect([restore.restoredFrom, last.restoredFrom]).toEqual([older.id, null]);
    // The next change after a restore starts an entry too.
    await write(a, 'status', 'doing');
    expect((await history(a)).map((e) => e.toText)).toEqual(['В работе', 'Не начато', 'Готово', 'В работе']);
  });

  test('a reader lists but may not restore (403); an outsider gets 403 for both; unknown rows and entries 404; a non-number 422', async () => {
    const { a, b } = await table();
    await write(a, 'status', 'doing');
    const [entry] = await history(a, bob);
    expect(entry.toText).toBe('В работе');
    const refused = await api(t, bob.cookie, 'POST', `${S}/row/${a}/history/${entry.id}/restore`);
    expect([refused.statusCode, errorCode(refused)]).toEqual([403, 'forbidden']);
    for (const [method, path] of [
      ['GET', `${S}/row/${a}/history`],
      ['POST', `${S}/row/${a}/history/${entry.id}/restore`],
    ] as const) {
      const res = await api(t, eve.cookie, method, path);
      expect([res.statusCode, errorCode(res)]).toEqual([403, 'forbidden']);
    }
    expect((await cellOf(a, 'status')).value).toBe('doing');
    expect((await api(t, ann.cookie, 'GET', `${S}/row/nosuchrow/history`)).statusCode).toBe(404);
    const other = await api(t, ann.cookie, 'POST', `${S}/row/${b}/history/${entry.id}/restore`);
    expect([other.statusCode, errorCode(other)]).toEqual([404, 'not_found']);
    expect((await api(t, ann.cookie, 'POST', `${S}/row/${a}/history/999999999/restore`)).statusCode).toBe(404);
    expect((await api(t, ann.cookie, 'POST', `${S}/row/${a}/history/abc/restore`)).statusCode).toBe(422);
    const anonymous = await t.app.inject({ method: 'GET', url: `${S}/row/${a}/history` });
    expect(anonymous.statusCode).toBe(401);
  });

  test("a deleted field's entries are not listed and cannot be restored; a retyped field's are listed and cannot (409 database.history_field_changed)", async () => {
    const { db, a } = await table();
    await write(a, 'price', 10);
    await write(a, 'note', 'текст');
    const entries = await history(a);
    const note = entries.find((e) => e.fieldId === 'note')!;
    const price = entries.find((e) => e.fieldId === 'price')!;
    expectOk(await api(t, ann.cookie, 'DELETE', `${S}/database/${db.id}/fields/note`));
    expect((await history(a)).map((e) => e.fieldId)).toEqual(['price']);
    // Left out in the query itself: a page of one after the deleted field's newer entry still says more are there.
    await age(a, 61_000);
    await write(a, 'price', 20);
    const page = body<WireCellChange[]>(await api(t, ann.cookie, 'GET', `${S}/row/${a}/history?${q({ limit: 1 })}`));
    expect([page.data.map((e) => e.toText), page.meta.hasMoreNext]).toEqual([['20'], true]);
    const gone = await api(t, ann.cookie, 'POST', `${S}/row/${a}/history/${note.id}/restore`);
    expect([gone.statusCode, errorCode(gone)]).toEqual([409, 'database.history_field_changed']);
    expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${db.id}/fields/price`, { field: { name: 'Цена', type: 'text' } }));
    const retyped = (await history(a)).find((e) => e.id === price.id)!;
    expect(retyped.restorable).toBe(false);
    const before = await cellOf(a, 'price');
    const refused = await api(t, ann.cookie, 'POST', `${S}/row/${a}/history/${price.id}/restore`);
    expect([refused.statusCode, errorCode(refused)]).toEqual([409, 'database.history_field_changed']);
    expect(await cellOf(a, 'price')).toEqual(before);
  });

  test('an earlier value that no longer fits (its option removed) is 422 like any cell write; a row in the trash 409; nothing written', async () => {
    const { db, a, b } = await table();
    await write(a, 'status', 'doing');
    await write(b, 'status', 'doing');
    const [entryA] = await history(a);
    const [entryB] = await history(b);
    const options = FIELDS.status.options.filter((o) => o.id !== 'todo');
    expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${db.id}/fields/status`, { field: { ...FIELDS.status, options } }));
    const before = await cellOf(a, 'status');
    const gone = await api(t, ann.cookie, 'POST', `${S}/row/${a}/history/${entryA.id}/restore`);
    expect([gone.statusCode, errorCode(gone)]).toEqual([422, 'validation_failed']);
    expect(await cellOf(a, 'status')).toEqual(before);
    expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${db.id}/rows/delete`, { ids: [b] }));
    const trashed = await api(t, ann.cookie, 'POST', `${S}/row/${b}/history/${entryB.id}/restore`);
    expect([trashed.statusCode, errorCode(trashed)]).toEqual([409, 'page.in_trash']);
  });
});

describe('bounds', () => {
  test('pages: limit and before, newest first, with hasMoreNext', async () => {
    const { a } = await table();
    for (const [i, value] of ['doing', 'done', 'todo'].entries()) {
      await write(a, 'status', value);
      if (i < 2) await age(a, 61_000);
    }
    const res = await api(t, ann.cookie, 'GET', `${S}/row/${a}/history?${q({ limit: 2 })}`);
    const first = body<WireCellChange[]>(res);
    expect(first.data.map((e) => e.toText)).toEqual(['Не начато', 'Готово']);
    expect(first.meta.hasMoreNext).toBe(true);
    const rest = await history(a, ann, { limit: 2, before: first.data[1].id });
    expect(rest.map((e) => e.toText)).toEqual(['В работе']);
    expect((await api(t, ann.cookie, 'GET', `${S}/row/${a}/history?${q({ limit: 201 })}`)).statusCode).toBe(422);
  });

  test(`a row keeps its newest ${CELL_HISTORY_PER_ROW} entries; entries older than HISTORY_DAYS and those of rows deleted for good are forgotten`, async () => {
    const { db, a, b } = await table();
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const rows = Array.from({ length: CELL_HISTORY_PER_ROW }, (_, i) => ({
      row_id: a,
      database_id: db.id,
      field_id: 'note',
      field_type: 'text',
      old_value: JSON.stringify(`${i}`),
      new_value: JSON.stringify(`${i + 1}`),
      user_id: ann.id,
      started_at: old,
      at: old,
    }));
    for (let i = 0; i < rows.length; i += 100)
      await t.app.db
        .insertInto('cell_history')
        .values(rows.slice(i, i + 100))
        .execute();
    await write(a, 'status', 'doing');
    const count = async (rowId: string) => (await t.app.db.selectFrom('cell_history').select('id').where('row_id', '=', rowId).execute()).length;
    expect(await count(a)).toBe(CELL_HISTORY_PER_ROW);
    expect((await history(a, ann, { limit: 1 }))[0].toText).toBe('В работе');
    await write(b, 'status', 'done');
    // A row gone for good takes its entries with it.
    await t.app.db.deleteFrom('pages').where('id', '=', b).execute();
    const forgotten = await forgetOldCellHistory(t.app.db, 30);
    expect(forgotten).toBeGreaterThanOrEqual(CELL_HISTORY_PER_ROW);
    expect([await count(a), await count(b)]).toEqual([1, 0]);
  });
});
