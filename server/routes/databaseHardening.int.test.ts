import { strFromU8, unzipSync } from 'fflate';
import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type ChartConfig, type DatabaseData } from '../../schema/blocks/database';
import type { ChartAnswer } from '../../schema/databaseChart';
import type { WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString as q, signIn, type TestApp } from '../../test/helpers/testApp';
import { addMembersAs, createWorkspaceAs, userIdOf } from '../../test/helpers/workspaces';
import { aroundTransactions } from '../../test/helpers/races';
import { postImport } from '../../test/helpers/imports';
import { refusal } from '../../test/helpers/refusal';
import { writeCell } from '../commands/databases/cells';
import { peopleNamesFor } from '../commands/databases/people';

/**
 * Issue 33, items 3, 4 and 10 (docs/security.md «What a public reader can see», docs/api/databases.md
 * «People» and «Public pages»): a published database shows its public reader only what its views
 * show; a person cell names members only, and no answer turns an id into a name the caller could
 * not see; a title written as a cell keeps the title's limit. On SQLite and PostgreSQL.
 */

let t: TestApp;
let ann: string;
let bob: string;
let gal: string;
let eve: string;
let annId: string;
let bobId: string;
let galId: string;
let eveId: string;
let workspaceId: string;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  [ann, bob, gal, eve] = await Promise.all(['ann', 'bob', 'gal', 'eve'].map((name) => signIn(t, `${name}@example.com`)));
  [annId, bobId, galId, eveId] = await Promise.all(['ann', 'bob', 'gal', 'eve'].map((name) => userIdOf(t, `${name}@example.com`)));
  for (const [id, name] of [
    [annId, 'Анна'],
    [bobId, 'Борис'],
    [galId, 'Галина'],
    [eveId, 'Ева'],
  ])
    await t.app.db.updateTable('users').set({ name }).where('id', '=', id).execute();
  // Ann's team: Bob a participant, Gal a guest (who sees a page only when it is shared with her). Eve is no member.
  workspaceId = (await createWorkspaceAs(t, ann, 'Команда')).id;
  await addMembersAs(t, ann, workspaceId, [
    { userId: bobId, role: 'participant' },
    { userId: galId, role: 'guest' },
  ]);
});
afterAll(async () => {
  await t.close();
});

const FIELDS = {
  [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
  price: { name: 'Цена', type: 'number' },
  who: { name: 'Кто', type: 'person' },
  author: { name: 'Автор', type: 'createdBy' },
  link: { name: 'Связи', type: 'relation' },
  due: { name: 'Срок', type: 'date' },
  // Shown by no view:
  secret: { name: 'Тайна', type: 'text' },
  salary: { name: 'Оклад', type: 'number' },
  when: { name: 'Когда', type: 'date' },
  stage: {
    name: 'Этап',
    type: 'select',
    options: [
      { id: 'open', name: 'Открыта' },
      { id: 'closed', name: 'Закрыта' },
    ],
  },
} as const;

const OPEN_ONLY = { op: 'and' as const, rules: [{ fieldId: 'stage', condition: 'is' as const, value: 'open' }] };
const PRICE_CHART: ChartConfig = { x: { fieldId: 'price' }, y: { aggregate: 'count' } };

/** A table and a board by person (its people's columns), both showing the open rows only; a chart view of prices; a calendar by `due`. */
function databaseBody(): DatabaseData {
  const columns = (ids: string[]) => ids.map((fieldId) => ({ fieldId, isWrap: false }));
  return {
    config: { fields: structuredClone(FIELDS) as unknown as DatabaseData['config']['fields'] },
    view: {
      layouts: [
        {
          uid: 'v1',
          type: 'table',
          orderedFields: columns([MAIN_FIELD_ID, 'price', 'who', 'author', 'link']),
          filter: OPEN_ONLY,
          sorts: [{ fieldId: 'salary', direction: 'desc' }],
          calculations: { price: 'sum', salary: 'sum' },
        },
        { uid: 'v2', type: 'board', orderedFields: columns([MAIN_FIELD_ID]), filter: OPEN_ONLY, groupBy: { fieldId: 'who' } },
        { uid: 'v3', type: 'chart', orderedFields: [], filter: OPEN_ONLY, chart: PRICE_CHART },
        { uid: 'v4', type: 'calendar', orderedFields: columns([MAIN_FIELD_ID]), filter: OPEN_ONLY, calendar: { fieldId: 'due' } },
      ],
    },
  };
}

/** A database on a page of the team's shared section, and its rows. */
async function newDatabase(): Promise<{ pageId: string; db: WireBlock }> {
  const headers = { 'x-workspace-id': workspaceId };
  const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/all`, { title: 'Задачи' }, headers), 201);
  const db = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data: databaseBody() }), 201);
  return { pageId: page.id, db };
}

async function addRows(databaseId: string, rows: Array<{ id?: string; title?: string; values?: Record<string, unknown> }>, cookie = ann): Promise<WireRow[]> {
  return expectOk<WireRow[]>(await api(t, cookie, 'POST', `${S}/database/${databaseId}/rows`, { rows }), 201);
}

const get = (cookie: string | null, path: string, params: Record<string, unknown> = {}) =>
  api(t, cookie ?? undefined, 'GET', `${S}/database/${path}${Object.keys(params).length ? `?${q(params)}` : ''}`);

/** A published database: an open row (linking a closed one), a closed row (every view filters it out), and a hidden one. */
async function published() {
  const { pageId, db } = await newDatabase();
  const [linked, hidden] = await addRows(db.id, [
    { title: 'Закрытая связанная', values: { stage: 'closed', secret: 'тайна-2', salary: 200 } },
    { title: 'Закрытая', values: { stage: 'closed', secret: 'тайна-3', salary: 300 } },
  ]);
  const [open] = await addRows(db.id, [
    {
      title: 'Открытая',
      values: { stage: 'open', price: 5, who: [annId, bobId], link: [linked.id], due: '2026-11-03', when: '2026-11-03', secret: 'тайна-1', salary: 100 },
    },
  ]);
  expectOk(await api(t, ann, 'PATCH', `${S}/element/${pageId}`, { isPublic: true }));
  return { pageId, db, open, linked, hidden };
}

const SHOWN = ['price', 'who', 'link', 'due'];

describe('item 3: a public reader gets what the published views show, no more', () => {
  test('rows: only the cells of fields some view shows (values and versions), only rows some view lets through; a member reads everything', async () => {
    const { db, open } = await published();
    for (const reader of [null, eve]) {
      for (const params of [
        {},
        { viewId: 'v1' },
        { viewId: 'v2', filter: OPEN_ONLY, sorts: [] },
        { viewId: 'v1', filter: OPEN_ONLY, sorts: [{ fieldId: 'salary', direction: 'desc' }] },
      ]) {
        const res = await get(reader, `${db.id}/rows`, params);
        expect(res.statusCode).toBe(200);
        const rows = body<WireRow[]>(res).data;
        expect(rows.map((r) => r.data.title)).toEqual(['Открытая']);
        expect(Object.keys(rows[0].data.values).sort()).toEqual([...SHOWN].sort());
        expect(
          Object.keys(rows[0].versions)
            .filter((id) => id !== MAIN_FIELD_ID)
            .sort(),
        ).toEqual([...SHOWN].sort());
        expect(res.body).not.toContain('тайна');
      }
    }
    // A member of the workspace reads every field.
    const member = body<WireRow[]>(await get(bob, `${db.id}/rows`, { viewId: 'v1' })).data;
    expect(member.find((r) => r.id === open.id)!.data.values).toMatchObject({ secret: 'тайна-1', salary: 100, stage: 'open' });
  });

  test('rows every view filters out are not queryable: another filter, a search, sorts, dates or fields by what no view shows → 403 database.not_published', async () => {
    const { db } = await published();
    const refused = [
      { fields: ['secret'] },
      { fields: ['price', 'salary'] },
      { viewId: 'v1', filter: null },
      { viewId: 'v1', filter: { op: 'and', rules: [{ fieldId: 'secret', condition: 'contains', value: 'тайна' }] } },
      { viewId: 'v1', filter: { op: 'and', rules: [{ fieldId: 'price', condition: 'isNotEmpty' }] } },
      { viewId: 'v1', sorts: [{ fieldId: 'salary', direction: 'asc' }] },
      { viewId: 'v4', range: { fieldId: 'when', from: '2026-11-01', to: '2026-12-01' } },
      { viewId: 'v4', undated: 'when' },
    ];
    for (const reader of [null, eve])
      for (const params of refused) {
        const res = await get(reader, `${db.id}/rows`, params);
        expect([JSON.stringify(params), res.statusCode, errorCode(res)]).toEqual([JSON.stringify(params), 403, 'database.not_published']);
      }
    // Searching looks only among the rows a view shows.
    expect(body<WireRow[]>(await get(null, `${db.id}/rows`, { viewId: 'v1', search: 'Закрыт' })).data).toEqual([]);
    // What the views show may be read in another order, and a calendar's days read its date field alone.
    expect((await get(null, `${db.id}/rows`, { viewId: 'v1', sorts: [{ fieldId: 'price', direction: 'asc' }] })).statusCode).toBe(200);
    const days = body<WireRow[]>(
      await get(null, `${db.id}/rows`, { viewId: 'v4', range: { fieldId: 'due', from: '2026-11-01', to: '2026-12-01' }, fields: ['due'] }),
    );
    expect(days.data.map((r) => [r.data.title, Object.keys(r.data.values)])).toEqual([['Открытая', ['due']]]);
    // A member may query as they like.
    expect(body<WireRow[]>(await get(bob, `${db.id}/rows`, { viewId: 'v1', filter: null })).meta.count).toBe(3);
  });

  test('chart: the view’s own, or a preview over the fields the views show; another axis, series or value → 403; people anonymous', async () => {
    const { db } = await published();
    const chart = (cookie: string | null, config?: ChartConfig, viewId = 'v3') =>
      get(cookie, `${db.id}/chart`, { viewId, ...(config ? { chart: config } : {}) });
    expect(body<ChartAnswer>(await chart(null)).data).toMatchObject({ categories: [{ key: 5 }], rows: 1 });
    expect(body<ChartAnswer>(await chart(null, PRICE_CHART)).data).toMatchObject({ rows: 1 });
    const byWho = body<ChartAnswer>(await chart(null, { x: { fieldId: 'who' }, y: { aggregate: 'count' } })).data;
    expect(byWho.categories.map((c) => c.label)).toEqual(['Участник', 'Участник']);
    for (const config of [
      { x: { fieldId: 'secret' }, y: { aggregate: 'count' } },
      { x: { fieldId: 'stage' }, y: { aggregate: 'count' } },
      { x: { fieldId: 'price' }, y: { aggregate: 'sum', fieldId: 'salary' } },
      { x: { fieldId: 'price' }, y: { aggregate: 'count' }, series: { fieldId: 'when' } },
    ] as ChartConfig[])
      for (const reader of [null, eve]) {
        const res = await chart(reader, config);
        expect([res.statusCode, errorCode(res)]).toEqual([403, 'database.not_published']);
      }
    // A member previews any field.
    expect(body<ChartAnswer>(await chart(bob, { x: { fieldId: 'stage' }, y: { aggregate: 'count' } }, 'v1')).data.rows).toBe(1);
    expect(body<ChartAnswer>(await chart(bob, { x: { fieldId: 'who' }, y: { aggregate: 'count' } })).data.categories.map((c) => c.label)).toEqual([
      'Анна',
      'Борис',
    ]);
  });

  test('CSV: the view’s columns, people as «Участник» (never a name or an e-mail), no row a view filters out', async () => {
    const { db } = await published();
    for (const reader of [null, eve]) {
      const res = await get(reader, `${db.id}/export.csv`, { viewId: 'v1' });
      expect(res.statusCode).toBe(200);
      const { parse } = await import('papaparse');
      const lines = parse<string[]>(res.body.slice(1), { skipEmptyLines: true }).data;
      expect(lines).toEqual([
        ['Название', 'Цена', 'Кто', 'Автор', 'Связи'],
        ['Открытая', '5', 'Участник, Участник', 'Участник', 'Закрытая связанная'],
      ]);
      for (const leak of ['Анна', 'Борис', 'ann@', 'bob@', annId, 'тайна']) expect(res.body).not.toContain(leak);
    }
    // A member gets the names.
    const member = await get(bob, `${db.id}/export.csv`, { viewId: 'v1' });
    expect(member.body).toContain('Анна, Борис');
  });

  test('footer, groups, titles, the database’s count: the fields and rows the views show only', async () => {
    const { db, open, linked, hidden } = await published();
    // The footer: figures of shown fields only.
    expect(body(await get(null, `${db.id}/calculations`, { viewId: 'v1' })).data).toEqual({ price: 5 });
    expect(body(await get(bob, `${db.id}/calculations`, { viewId: 'v1' })).data).toEqual({ price: 5, salary: 100 });
    // A board's people: ids and counts, ordered without their names.
    const groups = body<Array<{ value: unknown; count: number }>>(await get(null, `${db.id}/groups`, { viewId: 'v2' })).data;
    expect(groups.map((g) => g.value).sort()).toEqual([annId, bobId].sort());
    expect(groups.map((g) => g.value)).toEqual([annId, bobId].sort());
    // Titles: rows a view shows, and rows a shown relation names; not a row every view filters out.
    const titles = body<Array<{ id: string; title: string }>>(await get(null, `${db.id}/titles`, { ids: [open.id, linked.id, hidden.id] })).data;
    expect(titles.map((r) => r.title).sort()).toEqual(['Закрытая связанная', 'Открытая']);
    expect(body<unknown[]>(await get(bob, `${db.id}/titles`, { ids: [hidden.id] })).data).toHaveLength(1);
    // The database's row count: the rows the views show.
    expect(body(await get(null, db.id)).meta.rowCount).toBe(1);
    expect(body(await get(bob, db.id)).meta.rowCount).toBe(3);
  });

  test('the database block (on the public page, and GET database/{id}): the fields the views name, no other; the views as they are', async () => {
    const { pageId, db } = await published();
    const page = await api(t, undefined, 'GET', `${S}/element/public/${pageId}`);
    expect(page.statusCode).toBe(200);
    const included = (body(page).included ?? []) as WireBlock[];
    const onPage = included.find((b) => b.id === db.id)!;
    const viaDatabase = body<WireBlock>(await get(null, db.id)).data;
    for (const block of [onPage, viaDatabase]) {
      const data = block.data as unknown as DatabaseData;
      // Shown, or filtered and sorted by (stage, salary: their definitions, never their values); not `secret` nor `when`.
      expect(Object.keys(data.config.fields).sort()).toEqual([MAIN_FIELD_ID, 'price', 'who', 'author', 'link', 'due', 'salary', 'stage'].sort());
      expect(data.view).toEqual(databaseBody().view);
    }
    const member = body<WireBlock>(await get(bob, db.id)).data.data as unknown as DatabaseData;
    expect(Object.keys(member.config.fields)).toContain('secret');
  });

  test('a copy made from the public view (someone outside the workspace) makes a whole database block of what it holds', async () => {
    const { pageId, db } = await published();
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, { layout: { calculations: { price: 'sum', secret: 'filled' } } }));
    const included = (body(await api(t, eve, 'GET', `${S}/element/public/${pageId}`)).included ?? []) as WireBlock[];
    const block = included.find((b) => b.id === db.id)!;
    expect((block.data as unknown as DatabaseData).view.layouts[0].calculations).toEqual({ price: 'sum' });
    const copy = expectOk<WireElement>(await api(t, eve, 'POST', `${S}/section/private`, { title: 'Копия' }), 201);
    const made = expectOk<WireBlock>(await api(t, eve, 'POST', `${S}/block`, { pageId: copy.id, type: 'database', data: block.data }), 201);
    expect(Object.keys((made.data as unknown as DatabaseData).config.fields)).not.toContain('secret');
  });

  test('a published database without views shows no rows, no CSV, no count; its members read it all', async () => {
    const { pageId, db } = await newDatabase();
    await addRows(db.id, [{ title: 'Строка', values: { secret: 'тайна' } }]);
    expectOk(await api(t, ann, 'POST', `${S}/block/${db.id}`, { version: db.version, type: 'database', data: { ...databaseBody(), view: { layouts: [] } } }));
    expectOk(await api(t, ann, 'PATCH', `${S}/element/${pageId}`, { isPublic: true }));
    for (const res of [await get(null, `${db.id}/rows`), await get(null, `${db.id}/export.csv`)])
      expect([res.statusCode, errorCode(res)]).toEqual([403, 'database.not_published']);
    expect(body(await get(null, db.id)).meta.rowCount).toBe(0);
    expect((await get(bob, `${db.id}/export.csv`)).body).toContain('тайна');
  });

  test('a row of a published database does not open publicly: neither the row, its page nor its blocks', async () => {
    const { open } = await published();
    expect((await api(t, undefined, 'GET', `${S}/row/${open.id}`)).statusCode).toBe(401);
    expect((await api(t, eve, 'GET', `${S}/row/${open.id}`)).statusCode).toBe(403);
    expect((await api(t, undefined, 'GET', `${S}/element/public/${open.id}`)).statusCode).toBe(404);
    expect((await api(t, eve, 'GET', `${S}/element/public/${open.id}`)).statusCode).toBe(404);
  });
});

describe('item 4: a person cell names members of the workspace only', () => {
  test('an id of someone else → 422 database.person_unknown, by every way of writing a cell; nothing written', async () => {
    const { db } = await newDatabase();
    const [row] = await addRows(db.id, [{ title: 'Строка' }]);
    const stranger = 'no-such-user-id';
    const attempts = [
      () => api(t, ann, 'POST', `${S}/row/${row.id}/cells/who`, { value: [annId, eveId], version: 0 }),
      () => api(t, ann, 'POST', `${S}/row/${row.id}/cells/who`, { value: [stranger], version: 0 }),
      () =>
        api(t, ann, 'POST', `${S}/database/${db.id}/cells`, {
          cells: [
            { rowId: row.id, fieldId: 'price', value: 1, version: 0 },
            { rowId: row.id, fieldId: 'who', value: [eveId], version: 0 },
          ],
        }),
      () => api(t, ann, 'POST', `${S}/database/${db.id}/rows`, { rows: [{ title: 'Новая', values: { who: [eveId] } }] }),
      () => api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [row.id], placeAfter: null, set: { fieldId: 'who', value: [eveId] } }),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect([res.statusCode, errorCode(res)]).toEqual([422, 'database.person_unknown']);
    }
    const rows = body<WireRow[]>(await get(ann, `${db.id}/rows`, { filter: null })).data;
    expect(rows.map((r) => [r.data.title, r.data.values])).toEqual([['Строка', {}]]);
    // Members — a participant, a guest, oneself — may be named.
    expectOk(await api(t, ann, 'POST', `${S}/row/${row.id}/cells/who`, { value: [annId, bobId, galId], version: 0 }));
  });

  test('a field retyped to person between the check and the write: the people are judged against the field as it is then (422, nothing written)', async () => {
    const { db } = await newDatabase();
    const [row] = await addRows(db.id, [{ title: 'Гонка' }]);
    // Just before the cell's transaction, someone retypes «Связи» (a relation: a list of ids) to a person field.
    const raced = aroundTransactions(t.app.db, {
      before: async () => expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/link`, { field: { name: 'Связи', type: 'person' } })),
    });
    expect(await refusal(writeCell(raced, annId, row.id, 'link', { value: [eveId], version: 0 }))).toEqual([422, 'database.person_unknown']);
    const rows = body<WireRow[]>(await get(ann, `${db.id}/rows`, { filter: null })).data;
    expect(rows.find((r) => r.id === row.id)!.data.values.link ?? null).toBeNull();
  });

  test('names are read once per person for one answer or export (an export asked per row: 50,000 rows, 50,000 queries)', async () => {
    let reads = 0;
    const watched = t.app.db.withPlugin({
      transformQuery: ({ node }) => {
        if (node.kind === 'SelectQueryNode') reads += 1;
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const names = peopleNamesFor(watched, annId);
    for (let row = 0; row < 20; row += 1) expect((await names([bobId, eveId])).get(bobId)).toBe('Борис');
    expect(reads).toBe(1);
    expect((await names([annId, bobId])).get(annId)).toBe('Анна');
    expect(reads).toBe(2);
  });

  test('a value naming someone no member any more stays, but is never turned into their name: «Участник» in charts and CSV', async () => {
    const { pageId, db } = await newDatabase();
    await addMembersAs(t, ann, workspaceId, [{ userId: eveId, role: 'participant' }]);
    try {
      await addRows(db.id, [{ title: 'Строка', values: { stage: 'open', who: [eveId, bobId] } }]);
    } finally {
      expectOk(await api(t, ann, 'POST', `${S}/workspace/${workspaceId}/members/remove`, { userId: eveId }));
    }
    const chart = body<ChartAnswer>(await get(ann, `${db.id}/chart`, { viewId: 'v1', chart: { x: { fieldId: 'who' }, y: { aggregate: 'count' } } })).data;
    expect(Object.fromEntries(chart.categories.map((c) => [c.key, c.label]))).toEqual({ [bobId]: 'Борис', [eveId]: 'Участник' });
    const csv = (await get(ann, `${db.id}/export.csv`, { viewId: 'v1' })).body;
    expect(csv).toContain('Участник, Борис');
    expect(csv).not.toContain('Ева');
    expect(csv).not.toContain('eve@');
    // A guest the page is shared with sees the members' names, as `POST /api/user/list` gives them to her; never the stranger's.
    expectOk(await api(t, ann, 'POST', `${S}/element/${pageId}/member/add`, [{ userId: galId, accessLevel: 'read' }]));
    const seen = body<ChartAnswer>(await get(gal, `${db.id}/chart`, { viewId: 'v1', chart: { x: { fieldId: 'who' }, y: { aggregate: 'count' } } })).data;
    expect(Object.fromEntries(seen.categories.map((c) => [c.key, c.label]))).toEqual({ [bobId]: 'Борис', [eveId]: 'Участник' });
    // The same people, asked for by id, are as anonymous to her.
    const listed = body<Array<{ id: string; name: string }>>(await api(t, gal, 'POST', '/api/user/list', { users_id: [bobId, eveId] })).data;
    expect(listed.map((u) => u.name)).toEqual(['Борис', '']);
    // A board by person: its people's columns, ordered by the names she may see (the stranger's id only).
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views`, {
        layout: { uid: 'byWho', type: 'board', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }], groupBy: { fieldId: 'who' } },
      }),
    );
    expect(body(await get(gal, `${db.id}/groups`, { viewId: 'byWho' })).data).toEqual([
      { value: bobId, count: 1 },
      { value: eveId, count: 1 },
    ]);
  });

  test('an export names people as its exporter may see them: a stranger named by an old value is «Участник» in the CSV and the row’s page', async () => {
    const { pageId, db } = await newDatabase();
    await addMembersAs(t, ann, workspaceId, [{ userId: eveId, role: 'participant' }]);
    try {
      await addRows(db.id, [{ title: 'Строка', values: { who: [eveId, bobId] } }]);
    } finally {
      expectOk(await api(t, ann, 'POST', `${S}/workspace/${workspaceId}/members/remove`, { userId: eveId }));
    }
    expectOk(await api(t, ann, 'POST', `${S}/element/${pageId}/member/add`, [{ userId: galId, accessLevel: 'read' }]));
    for (const cookie of [ann, gal]) {
      const res = await api(t, cookie, 'GET', `${S}/element/${pageId}/export?${q({ format: 'markdown' })}`);
      expect(res.statusCode).toBe(200);
      const files = Object.entries(unzipSync(new Uint8Array(res.rawPayload)))
        .filter(([name]) => name.endsWith('.csv') || name.endsWith('Строка.md'))
        .map(([name, bytes]) => [name, strFromU8(bytes)] as const);
      expect(files.length).toBe(2);
      for (const [name, text] of files) {
        expect([name, text.includes('Участник, Борис')]).toEqual([name, true]);
        expect(text).not.toContain('Ева');
        expect(text).not.toContain('eve@');
      }
    }
  });
});

describe('item 10: a title written as a cell keeps the title limit (1,000 characters)', () => {
  test('one cell, a batch, a new row’s title value, a move’s set: over 1,000 → 422, nothing written; 1,000 is fine', async () => {
    const { db } = await newDatabase();
    const [row] = await addRows(db.id, [{ title: 'Было' }]);
    const long = 'я'.repeat(1001);
    for (const res of [
      await api(t, ann, 'POST', `${S}/row/${row.id}/cells/${MAIN_FIELD_ID}`, { value: long, version: 1 }),
      await api(t, ann, 'POST', `${S}/row/${row.id}/cells/${MAIN_FIELD_ID}`, { value: 'x'.repeat(10_000), version: 1 }),
      await api(t, ann, 'POST', `${S}/database/${db.id}/cells`, {
        cells: [
          { rowId: row.id, fieldId: 'price', value: 1, version: 0 },
          { rowId: row.id, fieldId: MAIN_FIELD_ID, value: 'x'.repeat(5_000), version: 1 },
        ],
      }),
      await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, { rows: [{ values: { [MAIN_FIELD_ID]: long } }] }),
      await api(t, ann, 'POST', `${S}/database/${db.id}/rows/move`, { ids: [row.id], placeAfter: null, set: { fieldId: MAIN_FIELD_ID, value: long } }),
      await api(t, ann, 'PATCH', `${S}/element/${row.id}`, { title: long }),
    ]) {
      expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    }
    const rows = body<WireRow[]>(await get(ann, `${db.id}/rows`, { filter: null })).data;
    expect(rows.map((r) => [r.data.title, r.data.values, r.versions[MAIN_FIELD_ID]])).toEqual([['Было', {}, 1]]);
    const fits = 'я'.repeat(1000);
    expect(fits).toHaveLength(1000);
    expect(expectOk<{ value: string }>(await api(t, ann, 'POST', `${S}/row/${row.id}/cells/${MAIN_FIELD_ID}`, { value: fits, version: 1 })).value).toBe(fits);
  });
});

describe('item 10: an import keeps the title limit too', () => {
  test('a JSON export’s page and row titles over 1,000 characters are cut to 1,000 (as the web CSV import cuts them)', async () => {
    const long = 'я'.repeat(1500);
    const data = databaseBody();
    const document = {
      format: 'blocknote-export',
      version: 1,
      pages: [
        {
          id: 'p',
          parentId: null,
          type: 'Note',
          title: long,
          blocks: [{ id: 'd', type: 'database', data, parentId: null }],
          databases: [{ blockId: 'd', rows: [{ id: 'r', title: long, values: { price: 1 }, blocks: [] }] }],
        },
      ],
      files: [],
    };
    const res = await postImport(t, ann, new TextEncoder().encode(JSON.stringify(document)), { section: 'private' }, 'export.json', {
      'x-workspace-id': workspaceId,
    });
    expect([res.statusCode, res.statusCode === 201 ? '' : res.body]).toEqual([201, '']);
    const page = body<{ page: { id: string } }>(res).data.page;
    const stored = await t.app.db.selectFrom('pages').select(['title', 'database_id']).where('id', '=', page.id).executeTakeFirstOrThrow();
    expect(stored.title).toBe('я'.repeat(1000));
    const blocks = body<WireBlock[]>(await api(t, ann, 'GET', `${S}/note/${page.id}/blocks`)).data;
    const rows = body<WireRow[]>(await get(ann, `${blocks.find((b) => b.type === 'database')!.id}/rows`, { filter: null })).data;
    expect(rows.map((r) => [r.data.title.length, r.data.values])).toEqual([[1000, { price: 1 }]]);
  });
});
