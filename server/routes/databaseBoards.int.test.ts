import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString as q, signIn, type TestApp } from '../../test/helpers/testApp';
import { TAGS_FIELD } from '../../test/helpers/databaseFixtures';
import { addMembersAs, createWorkspaceAs, userIdOf } from '../../test/helpers/workspaces';

/*
 * Boards by a person field and card covers (docs/api/databases.md, docs/web-app.md «Board view»)
 * on a real server and the project's database (SQLite or PostgreSQL): a board's groups split the
 * lists of people, a person's column is the rows holding that person, a card moved into a
 * person's column takes that person alone, and a view's cover names a files field.
 */

let t: TestApp;
let ann: string;
let bob: string;
let cat: string;
const id: Record<string, string> = {};

const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t, 'ann.board@example.com');
  bob = await signIn(t, 'bob.board@example.com');
  cat = await signIn(t, 'cat.board@example.com');
  for (const who of ['ann', 'bob', 'cat']) id[who] = await userIdOf(t, `${who}.board@example.com`);
  // Names in another order than the e-mails: the columns go by name.
  for (const [who, cookie, name] of [
    ['ann', ann, 'Яна'],
    ['bob', bob, 'Борис'],
    ['cat', cat, 'Анна'],
  ] as const)
    expectOk(await api(t, cookie, 'POST', '/api/user', { id: id[who], name }));
});
afterAll(async () => {
  await t.close();
});

const FIELDS = {
  [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
  owner: { name: 'Ответственные', type: 'person' },
  shots: { name: 'Картинки', type: 'files' },
  note: { name: 'Заметка', type: 'text' },
};

/** A database on a workspace page (Bob and Cat members, Bob a reader of the page), with a table view and a board by `owner`. */
async function personBoard(rows: Array<[string, string[]]>) {
  const workspace = await createWorkspaceAs(t, ann, 'Доски');
  await addMembersAs(t, ann, workspace.id, [
    { userId: id.bob, role: 'participant' },
    { userId: id.cat, role: 'participant' },
  ]);
  const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/all`, { title: 'Люди' }, { 'x-workspace-id': workspace.id }), 201);
  const orderedFields = Object.keys(FIELDS).map((fieldId) => ({ fieldId, isWrap: false }));
  const data: DatabaseData = {
    config: { fields: structuredClone(FIELDS) as unknown as DatabaseData['config']['fields'] },
    view: {
      layouts: [
        { uid: 'tbl', type: 'table', orderedFields, groupBy: { fieldId: 'owner' } },
        { uid: 'brd', type: 'board', orderedFields, groupBy: { fieldId: 'owner' } },
      ],
    },
  };
  const db = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  const made = expectOk<WireRow[]>(
    await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, {
      rows: rows.map(([title, who]) => ({ title, values: who.length ? { owner: who.map((w) => id[w]) } : {} })),
    }),
    201,
  );
  expectOk(await api(t, ann, 'POST', `${S}/element/${page.id}/member/add`, [{ userId: id.bob, accessLevel: 'read' }]));
  return { pageId: page.id, db, rows: Object.fromEntries(made.map((r) => [r.data.title, r.id])) };
}

const groups = async (databaseId: string, viewId: string, cookie = ann) =>
  expectOk<Array<{ value: string | null; count: number }>>(await api(t, cookie, 'GET', `${S}/database/${databaseId}/groups?viewId=${JSON.stringify(viewId)}`));

async function column(databaseId: string, group: string | null, cookie = ann) {
  const res = await api(t, cookie, 'GET', `${S}/database/${databaseId}/rows?${q({ viewId: 'brd', group, limit: 100 })}`);
  expect([res.statusCode, res.statusCode === 200 ? '' : res.body]).toEqual([200, '']);
  const b = body<WireRow[]>(res);
  return { titles: b.data.map((r) => r.data.title), count: b.meta.count as number };
}

const peopleOf = async (databaseId: string) =>
  Object.fromEntries(
    expectOk<WireRow[]>(await api(t, ann, 'GET', `${S}/database/${databaseId}/rows?${q({ limit: 100 })}`)).map((r) => [
      r.data.title,
      ((r.data.values.owner as string[] | undefined) ?? []).map((u) => Object.keys(id).find((k) => id[k] === u)),
    ]),
  );

describe('a board by a person field', () => {
  test("its groups are the people (lists split), by name, «Без значения» last; a table's stay its runs of rows", async () => {
    const { db } = await personBoard([
      ['Макет', ['ann', 'bob']],
      ['Тексты', ['bob']],
      ['Сборка', ['cat', 'ann']],
      ['Идея', []],
    ]);
    // Анна (cat), Борис (bob), Яна (ann): a card of two people counts in both.
    expect(await groups(db.id, 'brd')).toEqual([
      { value: id.cat, count: 1 },
      { value: id.bob, count: 2 },
      { value: id.ann, count: 2 },
      { value: null, count: 1 },
    ]);
    // The table shows each row once: its groups are the lists as stored, counting every row once.
    const table = await groups(db.id, 'tbl');
    expect(table.reduce((n, g) => n + g.count, 0)).toBe(4);
    expect(table.map((g) => g.value)).toContain(`|${id.ann}|${id.bob}|`);
  });

  test("a person's column is the rows holding that person, in the rows' own order; one with none of them is «Без значения»", async () => {
    const { db, rows } = await personBoard([
      ['Макет', ['ann', 'bob']],
      ['Тексты', ['bob']],
      ['Сборка', ['cat', 'ann']],
      ['Идея', []],
      ['Вёрстка', ['ann']],
    ]);
    expect(await column(db.id, id.ann)).toEqual({ titles: ['Макет', 'Сборка', 'Вёрстка'], count: 3 });
    expect(await column(db.id, id.bob)).toEqual({ titles: ['Макет', 'Тексты'], count: 2 });
    expect(await column(db.id, null)).toEqual({ titles: ['Идея'], count: 1 });
    // Someone who holds no card, and a LIKE wildcard: nothing.
    expect(await column(db.id, 'nobody')).toEqual({ titles: [], count: 0 });
    expect(await column(db.id, '%')).toEqual({ titles: [], count: 0 });
    // A card moved to the top of Яна's column (no `set`: the same column) is first there, whatever its people.
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [rows['Вёрстка']], placeBefore: rows['Макет'] }));
    expect((await column(db.id, id.ann)).titles).toEqual(['Вёрстка', 'Макет', 'Сборка']);
  });

  test("a card dropped in another person's column has that person alone, in its place there; to «Без значения», none", async () => {
    const { db, rows } = await personBoard([
      ['Макет', ['ann', 'bob']],
      ['Тексты', ['bob']],
      ['Сборка', ['cat']],
    ]);
    // «Макет» from Яна's column to before «Сборка» in Анна's.
    const moved = expectOk<WireRow[]>(
      await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, {
        ids: [rows['Макет']],
        placeBefore: rows['Сборка'],
        set: { fieldId: 'owner', value: [id.cat] },
      }),
    );
    expect(moved.map((r) => r.data.values.owner)).toEqual([[id.cat]]);
    expect(await peopleOf(db.id)).toEqual({ Макет: ['cat'], Тексты: ['bob'], Сборка: ['cat'] });
    expect((await column(db.id, id.cat)).titles).toEqual(['Макет', 'Сборка']);
    expect((await column(db.id, id.bob)).titles).toEqual(['Тексты']);
    expect(await groups(db.id, 'brd')).toEqual([
      { value: id.cat, count: 2 },
      { value: id.bob, count: 1 },
    ]);
    // Out of everyone's column.
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [rows['Тексты']], placeAfter: null, set: { fieldId: 'owner', value: null } }),
    );
    expect(await column(db.id, null)).toEqual({ titles: ['Тексты'], count: 1 });
    expect((await groups(db.id, 'brd')).map((g) => g.value)).toEqual([id.cat, null]);
  });

  test('denied: a reader of the page moves no card into a person column, and an outsider reads no column', async () => {
    const { db, rows } = await personBoard([
      ['Макет', ['ann']],
      ['Тексты', ['bob']],
    ]);
    const moved = await api(t, bob, 'POST', `${S}/database/${db.id}/rows/move`, {
      ids: [rows['Макет']],
      placeBefore: rows['Тексты'],
      set: { fieldId: 'owner', value: [id.bob] },
    });
    expect([moved.statusCode, errorCode(moved)]).toEqual([403, 'forbidden']);
    expect(await peopleOf(db.id)).toEqual({ Макет: ['ann'], Тексты: ['bob'] });
    // Reading is his: the columns and groups.
    expect((await column(db.id, id.bob, bob)).titles).toEqual(['Тексты']);
    expect((await groups(db.id, 'brd', bob)).map((g) => g.value)).toEqual([id.bob, id.ann]);
    const eve = await signIn(t, 'eve.board@example.com');
    const outsider = await api(t, eve, 'GET', `${S}/database/${db.id}/rows?${q({ viewId: 'brd', group: id.ann })}`);
    expect([outsider.statusCode, errorCode(outsider)]).toEqual([403, 'forbidden']);
  });
});

describe("a board's card cover", () => {
  test('names a files field: another field or none at all → 422 validation_failed; goes when its field is retyped or deleted', async () => {
    const { db } = await personBoard([['Макет', ['ann']]]);
    const setCover = (cover: unknown, cookie = ann) => api(t, cookie, 'POST', `${S}/database/${db.id}/views/brd`, { layout: { cover } });
    const layoutOf = (block: WireBlock) => (block.data as DatabaseData).view.layouts.find((l) => l.uid === 'brd')!;
    for (const fieldId of ['nope', 'note']) {
      const bad = await setCover({ fieldId });
      expect([bad.statusCode, errorCode(bad)]).toEqual([422, 'validation_failed']);
      expect(body<unknown>(bad).errors[0].details).toEqual([expect.objectContaining({ path: 'view.layouts.1.cover.fieldId' })]);
    }
    const extra = await setCover({ fieldId: 'shots', size: 'big' });
    expect([extra.statusCode, errorCode(extra)]).toEqual([422, 'validation_failed']);
    // A new view with a bad cover is refused the same way.
    const added = await api(t, ann, 'POST', `${S}/database/${db.id}/views`, {
      layout: { uid: 'b2', type: 'board', orderedFields: [], cover: { fieldId: 'owner' } },
    });
    expect([added.statusCode, errorCode(added)]).toEqual([422, 'validation_failed']);
    // A reader sets none.
    expect((await setCover({ fieldId: 'shots' }, bob)).statusCode).toBe(403);

    expect(layoutOf(expectOk<WireBlock>(await setCover({ fieldId: 'shots' }))).cover).toEqual({ fieldId: 'shots' });
    expect(layoutOf(expectOk<WireBlock>(await setCover(null))).cover).toBeNull();
    expectOk(await setCover({ fieldId: 'shots' }));
    // Renamed, still files: kept. Retyped: gone.
    expect(
      layoutOf(expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/shots`, { field: { name: 'Фото', type: 'files' } }))).cover,
    ).toEqual({ fieldId: 'shots' });
    expect(
      layoutOf(expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/shots`, { field: { name: 'Фото', type: 'text' } }))).cover,
    ).toBeNull();
    // Deleted: gone.
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields`, { id: 'pics', field: { name: 'Фото 2', type: 'files' } }));
    expectOk(await setCover({ fieldId: 'pics' }));
    expect(layoutOf(expectOk<WireBlock>(await api(t, ann, 'DELETE', `${S}/database/${db.id}/fields/pics`))).cover).toBeNull();
  });
});

/** A private page's database with a multi-select «Теги» (ux, be, qa) and a board by it. */
async function tagBoard(): Promise<WireBlock> {
  const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/private`, { title: 'Теги' }), 201);
  const data = {
    config: {
      fields: {
        [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
        tags: TAGS_FIELD,
      },
    },
    view: { layouts: [{ uid: 'brd', type: 'board', orderedFields: [], groupBy: { fieldId: 'tags' } }] },
  } as unknown as DatabaseData;
  return expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
}

describe('a board by a multi-select field (issue 38)', () => {
  test('its columns are the options (lists split), in the options’ order, «Без значения» last; a card moved swaps that option alone', async () => {
    const db = await tagBoard();
    const made = expectOk<WireRow[]>(
      await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, {
        rows: [
          { title: 'Макет', values: { tags: ['ux', 'qa'] } },
          { title: 'API', values: { tags: ['be'] } },
          { title: 'Релиз', values: { tags: ['qa', 'be', 'ux'] } },
          { title: 'Идея' },
        ],
      }),
      201,
    );
    expect(await groups(db.id, 'brd')).toEqual([
      { value: 'ux', count: 2 },
      { value: 'be', count: 2 },
      { value: 'qa', count: 2 },
      { value: null, count: 1 },
    ]);
    expect((await column(db.id, 'qa')).titles.sort()).toEqual(['Макет', 'Релиз']);
    expect((await column(db.id, null)).titles).toEqual(['Идея']);
    // «Макет» dragged from «Проверка» to «Сервер»: the web app writes its options with «be» in place of «qa».
    const mockup = made.find((r) => r.data.title === 'Макет')!;
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, {
        ids: [mockup.id],
        placeAfter: null,
        set: { fieldId: 'tags', value: ['ux', 'be'] },
        viewId: 'brd',
      }),
    );
    expect((await column(db.id, 'qa')).titles).toEqual(['Релиз']);
    expect((await column(db.id, 'be')).titles.sort()).toEqual(['API', 'Макет', 'Релиз']);
    expect((await column(db.id, 'ux')).titles.sort()).toEqual(['Макет', 'Релиз']);
  });

  test('a card moved at the version of its options: an option added meanwhile → 422 cell_conflict with the cell, nothing moved; at the new version it moves', async () => {
    const db = await tagBoard();
    const [mockup, api2] = expectOk<WireRow[]>(
      await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, { rows: [{ title: 'Макет', values: { tags: ['ux', 'qa'] } }, { title: 'API' }] }),
      201,
    );
    const seen = mockup.versions.tags ?? 0;
    // Someone else adds «Сервер» to the card while it is dragged from «Проверка» to «Дизайн»…
    const added = expectOk<{ version: number }>(await api(t, ann, 'POST', `${S}/row/${mockup.id}/cells/tags`, { value: ['ux', 'qa', 'be'], version: seen }));
    // …whose drop was computed from what the mover saw: it would drop «Сервер». Refused, nothing moved.
    const stale = await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, {
      ids: [mockup.id],
      placeAfter: api2.id,
      set: { fieldId: 'tags', value: ['ux'], version: seen },
    });
    expect([stale.statusCode, errorCode(stale)]).toEqual([422, 'database.cell_conflict']);
    expect(body(stale).data).toMatchObject({
      rowId: mockup.id,
      fieldId: 'tags',
      value: ['ux', 'qa', 'be'],
      version: added.version,
    });
    expect((await column(db.id, 'be')).titles).toEqual(['Макет']);
    const order = expectOk<WireRow[]>(await api(t, ann, 'GET', `${S}/database/${db.id}/rows`)).map((r) => r.data.title);
    expect(order).toEqual(['Макет', 'API']);
    // Moved again from the cell as it is now: written, placed.
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, {
        ids: [mockup.id],
        placeAfter: api2.id,
        set: { fieldId: 'tags', value: ['ux', 'be'], version: added.version },
      }),
    );
    expect(expectOk<WireRow[]>(await api(t, ann, 'GET', `${S}/database/${db.id}/rows`)).map((r) => [r.data.title, r.data.values.tags ?? null])).toEqual([
      ['API', null],
      ['Макет', ['ux', 'be']],
    ]);
    // A version is for one row: a move of two with one → 422 validation_failed.
    const two = await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, {
      ids: [mockup.id, api2.id],
      placeAfter: null,
      set: { fieldId: 'tags', value: ['qa'], version: 1 },
    });
    expect([two.statusCode, errorCode(two)]).toEqual([422, 'validation_failed']);
  });
});

describe('a board by a relation to rows of its own database (issue 38)', () => {
  test('its columns are the related rows by title (a row in the trash names none: a card naming only such is in «Без значения»), «Без значения» last; a card moved swaps that row alone', async () => {
    const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/private`, { title: 'Эпики' }), 201);
    const data = {
      config: {
        fields: {
          [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
          epic: { name: 'Эпик', type: 'relation' },
        },
      },
      view: { layouts: [{ uid: 'brd', type: 'board', orderedFields: [], groupBy: { fieldId: 'epic' } }] },
    } as unknown as DatabaseData;
    const db = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
    const epics = expectOk<WireRow[]>(
      await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, { rows: [{ title: 'Поиск' }, { title: 'Вход' }, { title: 'Старое' }] }),
      201,
    );
    const [search, login, old] = epics.map((r) => r.id);
    const tasks = expectOk<WireRow[]>(
      await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, {
        rows: [
          { title: 'Индекс', values: { epic: [search] } },
          { title: 'Форма', values: { epic: [login, search] } },
          { title: 'Архив', values: { epic: [old] } },
        ],
      }),
      201,
    );
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/delete`, { ids: [old] }));
    const board = await groups(db.id, 'brd');
    expect(board.map((g) => [g.value === null ? null : (g as { label?: string }).label, g.count])).toEqual([
      ['Вход', 1],
      ['Поиск', 2],
      [null, 3],
    ]);
    expect((await column(db.id, search)).titles.sort()).toEqual(['Индекс', 'Форма']);
    // «Архив» names only a row in the trash: in «Без значения», with the rows naming none.
    expect((await column(db.id, null)).titles.sort()).toEqual(['Архив', 'Вход', 'Поиск']);
    // «Форма» moved from «Вход» to «Поиск» only: the web app writes its rows with «Вход» gone.
    const form = tasks.find((r) => r.data.title === 'Форма')!;
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, {
        ids: [form.id],
        placeAfter: null,
        set: { fieldId: 'epic', value: [search] },
        viewId: 'brd',
      }),
    );
    expect((await column(db.id, login)).titles).toEqual([]);
  });
});

describe('a board’s swimlanes (issue 38)', () => {
  test('lanes by another field: their groups, a column’s cards in a lane, a card moved to another lane’s column writes both fields at once; refused lanes', async () => {
    const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/private`, { title: 'Дорожки' }), 201);
    const data = {
      config: {
        fields: {
          [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
          stage: {
            name: 'Этап',
            type: 'select',
            options: [
              { id: 'todo', name: 'Сделать', color: 'gray' },
              { id: 'done', name: 'Готово', color: 'green' },
            ],
          },
          team: {
            name: 'Команда',
            type: 'multiSelect',
            options: [
              { id: 'web', name: 'Веб', color: 'blue' },
              { id: 'app', name: 'Приложение', color: 'red' },
            ],
          },
          due: { name: 'Срок', type: 'date' },
        },
      },
      view: { layouts: [{ uid: 'brd', type: 'board', orderedFields: [], groupBy: { fieldId: 'stage', sub: { fieldId: 'team' } } }] },
    } as unknown as DatabaseData;
    const db = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
    const made = expectOk<WireRow[]>(
      await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, {
        rows: [
          { title: 'Вход', values: { stage: 'todo', team: ['web'] } },
          { title: 'Поиск', values: { stage: 'todo', team: ['web', 'app'] } },
          { title: 'Push', values: { stage: 'done', team: ['app'] } },
          { title: 'Идея' },
        ],
      }),
      201,
    );
    // The lanes: the team's options holding rows (a row in each of its teams'), «Без значения» last.
    const lanes = expectOk<Array<{ value: string | null; count: number }>>(
      await api(t, ann, 'GET', `${S}/database/${db.id}/groups?${q({ viewId: 'brd', lanes: true })}`),
    );
    expect(lanes).toEqual([
      { value: 'web', count: 2 },
      { value: 'app', count: 2 },
      { value: null, count: 1 },
    ]);
    const cell = async (group: string | null, sub: string | null) => {
      const res = await api(t, ann, 'GET', `${S}/database/${db.id}/rows?${q({ viewId: 'brd', group, sub, limit: 100 })}`);
      return body<WireRow[]>(res).data.map((r) => r.data.title);
    };
    expect(await cell('todo', 'web')).toEqual(['Вход', 'Поиск']);
    expect(await cell('todo', 'app')).toEqual(['Поиск']);
    expect(await cell('done', 'app')).toEqual(['Push']);
    expect(await cell(null, null)).toEqual(['Идея']);
    // «Вход» dragged from «Сделать»·«Веб» to «Готово»·«Приложение»: one move writes both.
    const login = made.find((r) => r.data.title === 'Вход')!;
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, {
        ids: [login.id],
        placeAfter: null,
        set: [
          { fieldId: 'stage', value: 'done' },
          { fieldId: 'team', value: ['app'] },
        ],
        viewId: 'brd',
      }),
    );
    expect(await cell('done', 'app')).toEqual(['Вход', 'Push']);
    expect(await cell('todo', 'web')).toEqual(['Поиск']);
    const row = expectOk<WireRow>(await api(t, ann, 'GET', `${S}/row/${login.id}`));
    expect([row.data.values.stage, row.data.values.team]).toEqual(['done', ['app']]);
    // Refused: a field set twice, a value the field does not take (nothing written), lanes by a date, a lane read from a board without lanes.
    const twice = await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, {
      ids: [login.id],
      placeAfter: null,
      set: [
        { fieldId: 'stage', value: 'todo' },
        { fieldId: 'stage', value: 'done' },
      ],
    });
    expect(twice.statusCode).toBe(422);
    const wrong = await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, {
      ids: [login.id],
      placeAfter: null,
      set: [
        { fieldId: 'stage', value: 'todo' },
        { fieldId: 'team', value: ['nope'] },
      ],
    });
    expect([wrong.statusCode, errorCode(wrong)]).toEqual([422, 'validation_failed']);
    expect(expectOk<WireRow>(await api(t, ann, 'GET', `${S}/row/${login.id}`)).data.values.stage).toBe('done');
    const byDate = await api(t, ann, 'POST', `${S}/database/${db.id}/views/brd`, { layout: { groupBy: { fieldId: 'stage', sub: { fieldId: 'due' } } } });
    expect(byDate.statusCode).toBe(422);
    // The lanes' field retyped to one that makes no lanes: the board loses its lanes, the retype goes through.
    const retyped = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/team`, { field: { name: 'Команда', type: 'text' } }));
    expect((retyped.data as DatabaseData).view.layouts[0].groupBy).toEqual({ fieldId: 'stage', sub: null });
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/brd`, { layout: { groupBy: { fieldId: 'stage' } } }));
    const noLanes = await api(t, ann, 'GET', `${S}/database/${db.id}/rows?${q({ viewId: 'brd', group: 'todo', sub: 'web' })}`);
    expect([noLanes.statusCode, errorCode(noLanes)]).toEqual([422, 'validation_failed']);
  });
});
