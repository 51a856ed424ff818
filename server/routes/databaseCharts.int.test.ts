import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type ChartConfig, type DatabaseData } from '../../schema/blocks/database';
import type { ChartAnswer } from '../../schema/databaseChart';
import type { WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString as q, signIn, type TestApp } from '../../test/helpers/testApp';
import { peopleNamesFor } from '../commands/databases/people';
import { foldChart, keptChartGroups } from '../repositories/databaseCharts';
import { bumpRevisions } from '../repositories/databaseRevisions';
import { databaseData, ViewOrders } from '../repositories/databases';
import { addMembersAs, createWorkspaceAs, userIdOf } from '../../test/helpers/workspaces';

/** Charts of a view (GET database/{id}/chart, docs/api/databases.md «Charts») on a real server and the project's database (SQLite or PostgreSQL). */

let t: TestApp;
let ann: string;
let bob: string;
let eve: string;
let annId: string;
let bobId: string;
let teamId: string;

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t, 'ann@example.com');
  bob = await signIn(t, 'bob@example.com');
  eve = await signIn(t, 'eve@example.com');
  annId = await userIdOf(t, 'ann@example.com');
  bobId = await userIdOf(t, 'bob@example.com');
  // Ann has a name of her own.
  await t.app.db.updateTable('users').set({ name: 'Анна' }).where('id', '=', annId).execute();
  // Her databases are in a workspace Bob is a member of: a person cell names members only.
  teamId = (await createWorkspaceAs(t, ann, 'Люди')).id;
  await addMembersAs(t, ann, teamId, [{ userId: bobId, role: 'participant' }]);
});
afterAll(async () => {
  await t.close();
});

const S = '/api/v3/spaces';

const FIELDS = {
  [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
  price: { name: 'Цена', type: 'number' },
  done: { name: 'Готово', type: 'checkbox' },
  stage: {
    name: 'Этап',
    type: 'select',
    options: [
      { id: 'todo', name: 'Сделать' },
      { id: 'doing', name: 'В работе' },
      { id: 'done', name: 'Готово' },
    ],
  },
  state: {
    name: 'Статус',
    type: 'status',
    options: [
      { id: 'new', name: 'Новая', group: 'todo' },
      { id: 'closed', name: 'Закрыта', group: 'done' },
    ],
  },
  tags: {
    name: 'Метки',
    type: 'multiSelect',
    options: [
      { id: 'a', name: 'Альфа' },
      { id: 'b', name: 'Бета' },
    ],
  },
  due: { name: 'Срок', type: 'date', withTime: true },
  who: { name: 'Кто', type: 'person' },
  note: { name: 'Заметка', type: 'text' },
  site: { name: 'Сайт', type: 'url' },
  mail: { name: 'Почта', type: 'email' },
  phone: { name: 'Телефон', type: 'phone' },
  files: { name: 'Файлы', type: 'files' },
  created: { name: 'Создано', type: 'createdTime' },
  author: { name: 'Автор', type: 'createdBy' },
  edited: { name: 'Изменено', type: 'editedTime' },
  editor: { name: 'Изменил', type: 'editedBy' },
} as const;

function databaseBody(chart?: ChartConfig): DatabaseData {
  return {
    config: { fields: structuredClone(FIELDS) as unknown as DatabaseData['config']['fields'] },
    view: { layouts: [{ uid: 'v1', type: 'chart', name: 'График', orderedFields: [], ...(chart ? { chart } : {}) }] },
  };
}

async function newDatabase(
  cookie = ann,
  headers: Record<string, string> = { 'x-workspace-id': teamId },
  section = 'private',
): Promise<{ pageId: string; db: WireBlock }> {
  const page = expectOk<WireElement>(await api(t, cookie, 'POST', `${S}/section/${section}`, { title: 'Задачи' }, headers), 201);
  const db = expectOk<WireBlock>(await api(t, cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data: databaseBody() }), 201);
  return { pageId: page.id, db };
}

async function addRows(databaseId: string, rows: Array<{ title?: string; values?: Record<string, unknown> }>): Promise<WireRow[]> {
  return expectOk<WireRow[]>(await api(t, ann, 'POST', `${S}/database/${databaseId}/rows`, { rows }), 201);
}

/** `cookie` null: signed out. */
function chartCall(databaseId: string, chart?: unknown, cookie: string | null = ann, viewId = 'v1') {
  return api(t, cookie ?? undefined, 'GET', `${S}/database/${databaseId}/chart?${q({ viewId, chart })}`);
}

async function chartOf(databaseId: string, chart?: ChartConfig, cookie: string | null = ann): Promise<ChartAnswer> {
  return expectOk<ChartAnswer>(await chartCall(databaseId, chart, cookie));
}

/** The points as `x → value` (no series), or `x/series → value`. */
function figures(answer: ChartAnswer): Record<string, number | null> {
  return Object.fromEntries(answer.points.map((p) => [p.series === null ? String(p.x) : `${String(p.x)}/${String(p.series)}`, p.value]));
}

const keys = (answer: ChartAnswer) => answer.categories.map((c) => c.key);

/**
 * Five rows, hand-made (the answers below are counted by hand from this table):
 *
 * | title  | price | done | stage | state  | tags  | due                          | who      | note  |
 * | Один   | 10    | yes  | todo  | new    | a     | 2026-11-01 (Sun, W44)        | ann      | Hello |
 * | Два    | 20    |      | doing | new    | a, b  | 2026-11-02 (Mon, W45)        | ann, bob | hello |
 * | Три    | 5     | no   | todo  | closed | —     | 2026-10-31 (Sat, W44)        | —        | Мир   |
 * | Четыре | —     |      | done  | —      | —     | 2026-11-02T23:30:00Z (W45)   | bob      | —     |
 * | (none) | 7.5   |      | —     | —      | b     | { 2026-12-01 → 2026-12-03 }  | —        | —     |
 */
async function fiveRows(): Promise<{ pageId: string; db: WireBlock; rows: WireRow[] }> {
  const { pageId, db } = await newDatabase();
  const rows = await addRows(db.id, [
    {
      title: 'Один',
      values: {
        price: 10,
        done: true,
        stage: 'todo',
        state: 'new',
        tags: ['a'],
        due: '2026-11-01',
        who: [annId],
        note: 'Hello',
        site: 'https://a.example',
        mail: 'a@example.com',
        phone: '+7 1',
      },
    },
    {
      title: 'Два',
      values: {
        price: 20,
        stage: 'doing',
        state: 'new',
        tags: ['a', 'b'],
        due: '2026-11-02',
        who: [annId, bobId],
        note: 'hello',
        site: 'https://b.example',
        mail: 'b@example.com',
        phone: '+7 1',
      },
    },
    { title: 'Три', values: { price: 5, done: false, stage: 'todo', state: 'closed', tags: [], due: '2026-10-31', note: 'Мир', site: 'https://a.example' } },
    { title: 'Четыре', values: { stage: 'done', due: '2026-11-02T23:30:00Z', who: [bobId] } },
    { values: { price: 7.5, tags: ['b'], due: { start: '2026-12-01', end: '2026-12-03' } } },
  ]);
  return { pageId, db, rows };
}

describe('categories by the type of x', () => {
  test('select and status: option ids in the options’ order, named by the options; no value last', async () => {
    const { db } = await fiveRows();
    const bySelect = await chartOf(db.id, { x: { fieldId: 'stage' }, y: { aggregate: 'count' } });
    expect(bySelect).toEqual({
      categories: [
        { key: 'todo', label: 'Сделать' },
        { key: 'doing', label: 'В работе' },
        { key: 'done', label: 'Готово' },
        { key: null, label: 'Без значения' },
      ],
      series: [],
      hidden: [],
      points: [
        { x: 'todo', series: null, value: 2 },
        { x: 'doing', series: null, value: 1 },
        { x: 'done', series: null, value: 1 },
        { x: null, series: null, value: 1 },
      ],
      rows: 5,
    });
    const byStatus = await chartOf(db.id, { x: { fieldId: 'state' }, y: { aggregate: 'count' } });
    expect(byStatus.categories).toEqual([
      { key: 'new', label: 'Новая' },
      { key: 'closed', label: 'Закрыта' },
      { key: null, label: 'Без значения' },
    ]);
    expect(figures(byStatus)).toEqual({ new: 2, closed: 1, null: 2 });
  });

  test('multi-select and person: a row counts in each of its values', async () => {
    const { db } = await fiveRows();
    const byTags = await chartOf(db.id, { x: { fieldId: 'tags' }, y: { aggregate: 'sum', fieldId: 'price' } });
    expect(byTags.categories).toEqual([
      { key: 'a', label: 'Альфа' },
      { key: 'b', label: 'Бета' },
      { key: null, label: 'Без значения' },
    ]);
    expect(figures(byTags)).toEqual({ a: 30, b: 27.5, null: 5 });
    expect(byTags.rows).toBe(5);
    const byPerson = await chartOf(db.id, { x: { fieldId: 'who' }, y: { aggregate: 'count' } });
    // People in the order of their names, as the Russian collation has them.
    const bobName = (await t.app.db.selectFrom('users').select('name').where('id', '=', bobId).executeTakeFirstOrThrow()).name || 'bob@example.com';
    const named = [
      { key: annId, label: 'Анна' },
      { key: bobId, label: bobName },
    ].sort((a, b) => a.label.localeCompare(b.label, 'ru'));
    expect(byPerson.categories).toEqual([...named, { key: null, label: 'Без значения' }]);
    expect(figures(byPerson)).toEqual({ [annId]: 2, [bobId]: 2, null: 2 });
  });

  test('checkbox: yes and no, a box never written being no', async () => {
    const { db } = await fiveRows();
    const answer = await chartOf(db.id, { x: { fieldId: 'done' }, y: { aggregate: 'count' } });
    expect(answer.categories).toEqual([
      { key: false, label: 'Нет' },
      { key: true, label: 'Да' },
    ]);
    expect(figures(answer)).toEqual({ false: 4, true: 1 });
  });

  test('date: by day, ISO week (Monday first) and month, across a week’s and a month’s boundary; a range by its start', async () => {
    const { db } = await fiveRows();
    const byDay = await chartOf(db.id, { x: { fieldId: 'due' }, y: { aggregate: 'count' } });
    expect(byDay.categories).toEqual([
      { key: '2026-10-31', label: '31 окт. 2026' },
      { key: '2026-11-01', label: '1 нояб. 2026' },
      { key: '2026-11-02', label: '2 нояб. 2026' },
      { key: '2026-12-01', label: '1 дек. 2026' },
    ]);
    expect(figures(byDay)).toEqual({ '2026-10-31': 1, '2026-11-01': 1, '2026-11-02': 2, '2026-12-01': 1 });
    expect(figures(await chartOf(db.id, { x: { fieldId: 'due', bucket: 'day' }, y: { aggregate: 'count' } }))).toEqual(figures(byDay));
    const byWeek = await chartOf(db.id, { x: { fieldId: 'due', bucket: 'week' }, y: { aggregate: 'sum', fieldId: 'price' } });
    expect(keys(byWeek)).toEqual(['2026-W44', '2026-W45', '2026-W49']);
    expect(byWeek.categories.map((c) => c.label)).toEqual(['нед. 44 · 2026', 'нед. 45 · 2026', 'нед. 49 · 2026']);
    expect(figures(byWeek)).toEqual({ '2026-W44': 15, '2026-W45': 20, '2026-W49': 7.5 });
    const byMonth = await chartOf(db.id, { x: { fieldId: 'due', bucket: 'month' }, y: { aggregate: 'count' } });
    expect(figures(byMonth)).toEqual({ '2026-10': 1, '2026-11': 3, '2026-12': 1 });
    expect(byMonth.categories.map((c) => c.label)).toEqual(['окт. 2026', 'нояб. 2026', 'дек. 2026']);
  });

  test('an ISO week belongs to the year of its Thursday; rows without a date go last', async () => {
    const { db } = await newDatabase();
    await addRows(db.id, [
      { values: { due: '2026-12-28' } },
      { values: { due: '2027-01-03' } },
      { values: { due: '2027-01-04' } },
      { values: { due: '2025-12-29' } },
      { title: 'без даты' },
    ]);
    const byWeek = await chartOf(db.id, { x: { fieldId: 'due', bucket: 'week' }, y: { aggregate: 'count' } });
    expect(figures(byWeek)).toEqual({ '2026-W01': 1, '2026-W53': 2, '2027-W01': 1, null: 1 });
    expect(keys(byWeek)).toEqual(['2026-W01', '2026-W53', '2027-W01', null]);
  });

  test('text, title, url, email and phone: the text (case-folded, named by its first spelling in code-point order)', async () => {
    const { db } = await fiveRows();
    const byNote = await chartOf(db.id, { x: { fieldId: 'note' }, y: { aggregate: 'count' } });
    expect(byNote.categories).toEqual([
      { key: 'hello', label: 'Hello' },
      { key: 'мир', label: 'Мир' },
      { key: null, label: 'Без значения' },
    ]);
    expect(figures(byNote)).toEqual({ hello: 2, мир: 1, null: 2 });
    const byTitle = await chartOf(db.id, { x: { fieldId: MAIN_FIELD_ID }, y: { aggregate: 'max', fieldId: 'price' } });
    expect(byTitle.categories.map((c) => c.label)).toEqual(['Два', 'Один', 'Три', 'Четыре', 'Без значения']);
    expect(figures(byTitle)).toEqual({ два: 20, один: 10, три: 5, четыре: null, null: 7.5 });
    expect(figures(await chartOf(db.id, { x: { fieldId: 'site' }, y: { aggregate: 'count' } }))).toEqual({
      'https://a.example': 2,
      'https://b.example': 1,
      null: 2,
    });
    expect(figures(await chartOf(db.id, { x: { fieldId: 'mail' }, y: { aggregate: 'count' } }))).toEqual({ 'a@example.com': 1, 'b@example.com': 1, null: 3 });
    expect(figures(await chartOf(db.id, { x: { fieldId: 'phone' }, y: { aggregate: 'count' } }))).toEqual({ '+7 1': 2, null: 3 });
  });

  test('number: the number, in numeric order', async () => {
    const { db } = await fiveRows();
    const answer = await chartOf(db.id, { x: { fieldId: 'price' }, y: { aggregate: 'count' } });
    expect(answer.categories).toEqual([
      { key: 5, label: '5' },
      { key: 7.5, label: '7.5' },
      { key: 10, label: '10' },
      { key: 20, label: '20' },
      { key: null, label: 'Без значения' },
    ]);
  });

  test('created and edited time and by: the row page’s, by day; people by their names', async () => {
    const { db, rows } = await fiveRows();
    const day = rows[0].createdAt.slice(0, 10);
    expect(figures(await chartOf(db.id, { x: { fieldId: 'created' }, y: { aggregate: 'count' } }))).toEqual({ [day]: 5 });
    const byMonth = await chartOf(db.id, { x: { fieldId: 'edited', bucket: 'month' }, y: { aggregate: 'sum', fieldId: 'price' } });
    expect(figures(byMonth)).toEqual({ [day.slice(0, 7)]: 42.5 });
    expect(await chartOf(db.id, { x: { fieldId: 'author' }, y: { aggregate: 'count' } })).toMatchObject({
      categories: [{ key: annId, label: 'Анна' }],
      points: [{ x: annId, series: null, value: 5 }],
    });
    expect((await chartOf(db.id, { x: { fieldId: 'editor' }, y: { aggregate: 'count' } })).categories).toEqual([{ key: annId, label: 'Анна' }]);
  });
});

describe('values', () => {
  test('count, sum, average, min and max by category, as counted by hand (no numbers: sum 0, the others null)', async () => {
    const { db } = await fiveRows();
    const by = async (aggregate: ChartConfig['y']['aggregate']) =>
      figures(await chartOf(db.id, { x: { fieldId: 'stage' }, y: aggregate === 'count' ? { aggregate } : { aggregate, fieldId: 'price' } }));
    expect(await by('count')).toEqual({ todo: 2, doing: 1, done: 1, null: 1 });
    expect(await by('sum')).toEqual({ todo: 15, doing: 20, done: 0, null: 7.5 });
    expect(await by('average')).toEqual({ todo: 7.5, doing: 20, done: null, null: 7.5 });
    expect(await by('min')).toEqual({ todo: 5, doing: 20, done: null, null: 7.5 });
    expect(await by('max')).toEqual({ todo: 10, doing: 20, done: null, null: 7.5 });
    // Folded from several groups (weeks of days, people of lists): the average is a sum over a count.
    const weeks = figures(await chartOf(db.id, { x: { fieldId: 'due', bucket: 'week' }, y: { aggregate: 'average', fieldId: 'price' } }));
    expect(weeks).toEqual({ '2026-W44': 7.5, '2026-W45': 20, '2026-W49': 7.5 });
    const people = figures(await chartOf(db.id, { x: { fieldId: 'who' }, y: { aggregate: 'average', fieldId: 'price' } }));
    expect(people).toEqual({ [annId]: 15, [bobId]: 20, null: 6.25 });
  });

  test('series: one per value of a second field (lists in each value), ordered like categories; points only where there are rows', async () => {
    const { db } = await fiveRows();
    const answer = await chartOf(db.id, { x: { fieldId: 'stage' }, y: { aggregate: 'sum', fieldId: 'price' }, series: { fieldId: 'tags' } });
    expect(answer.categories.map((c) => c.key)).toEqual(['todo', 'doing', 'done', null]);
    expect(answer.series).toEqual([
      { key: 'a', label: 'Альфа' },
      { key: 'b', label: 'Бета' },
      { key: null, label: 'Без значения' },
    ]);
    expect(answer.points).toEqual([
      { x: 'todo', series: 'a', value: 10 },
      { x: 'todo', series: null, value: 5 },
      { x: 'doing', series: 'a', value: 20 },
      { x: 'doing', series: 'b', value: 20 },
      { x: 'done', series: null, value: 0 },
      { x: null, series: 'b', value: 7.5 },
    ]);
    expect(answer.rows).toBe(5);
    const byMonth = await chartOf(db.id, { x: { fieldId: 'due', bucket: 'month' }, y: { aggregate: 'count' }, series: { fieldId: 'done' } });
    expect(figures(byMonth)).toEqual({ '2026-10/false': 1, '2026-11/false': 2, '2026-11/true': 1, '2026-12/false': 1 });
    const bySeriesMonth = await chartOf(db.id, { x: { fieldId: 'stage' }, y: { aggregate: 'count' }, series: { fieldId: 'due', bucket: 'month' } });
    expect(bySeriesMonth.series.map((s) => s.key)).toEqual(['2026-10', '2026-11', '2026-12']);
  });

  test('sorts: by x either way, by value either way (ties by x); «Без значения» last in every order', async () => {
    const { db } = await fiveRows();
    const sorted = async (sort: ChartConfig['sort']) =>
      keys(await chartOf(db.id, { x: { fieldId: 'stage' }, y: { aggregate: 'sum', fieldId: 'price' }, sort }));
    // Sums: todo 15, doing 20, done 0, no stage 7.5.
    expect(await sorted('xAsc')).toEqual(['todo', 'doing', 'done', null]);
    expect(await sorted('xDesc')).toEqual(['done', 'doing', 'todo', null]);
    expect(await sorted('yDesc')).toEqual(['doing', 'todo', 'done', null]);
    expect(await sorted('yAsc')).toEqual(['done', 'todo', 'doing', null]);
    // Counts: todo 2, the others 1 — the rows without a stage the fewest (with ties) yet still last.
    const counted = async (sort: ChartConfig['sort']) => keys(await chartOf(db.id, { x: { fieldId: 'stage' }, y: { aggregate: 'count' }, sort }));
    expect(await counted('yAsc')).toEqual(['doing', 'done', 'todo', null]);
    expect(await counted('yDesc')).toEqual(['todo', 'doing', 'done', null]);
    const byMin = keys(await chartOf(db.id, { x: { fieldId: 'stage' }, y: { aggregate: 'min', fieldId: 'price' }, sort: 'yAsc' }));
    expect(byMin).toEqual(['todo', 'doing', 'done', null]); // done has no number: after those that have one, before «Без значения»
    const dates = keys(await chartOf(db.id, { x: { fieldId: 'due', bucket: 'month' }, y: { aggregate: 'count' }, sort: 'xDesc' }));
    expect(dates).toEqual(['2026-12', '2026-11', '2026-10']);
    // The most rows have no stage (4 of 8): still last, by value either way.
    await addRows(db.id, [{ title: 'Пять' }, { title: 'Шесть' }, { title: 'Семь' }]);
    expect(await counted('yDesc')).toEqual(['todo', 'doing', 'done', null]);
    expect(await counted('yAsc')).toEqual(['doing', 'done', 'todo', null]);
  });

  test('hidden categories are left out, with their rows', async () => {
    const { db } = await fiveRows();
    const answer = await chartOf(db.id, { x: { fieldId: 'stage' }, y: { aggregate: 'count' }, hidden: ['doing', null] });
    expect(keys(answer)).toEqual(['todo', 'done']);
    expect(answer.rows).toBe(3);
    // The hidden ones the rows hold are named apart, to be shown again.
    expect(answer.hidden.map((c) => [c.key, c.label])).toEqual([
      ['doing', 'В работе'],
      [null, 'Без значения'],
    ]);
    // A row in a hidden value and a shown one still counts.
    const tags = await chartOf(db.id, { x: { fieldId: 'tags' }, y: { aggregate: 'count' }, hidden: ['b'], series: { fieldId: 'stage' } });
    expect(keys(tags)).toEqual(['a', null]);
    expect(tags.rows).toBe(4);
    expect(tags.series.map((s) => s.key)).toEqual(['todo', 'doing', 'done']);
    const checkbox = await chartOf(db.id, { x: { fieldId: 'done' }, y: { aggregate: 'count' }, hidden: [false] });
    expect(figures(checkbox)).toEqual({ true: 1 });
  });

  test('cumulative: running totals along x, per series, a point at every category', async () => {
    const { db } = await fiveRows();
    const line = await chartOf(db.id, { kind: 'line', x: { fieldId: 'due' }, y: { aggregate: 'count' }, cumulative: true });
    expect(figures(line)).toEqual({ '2026-10-31': 1, '2026-11-01': 2, '2026-11-02': 4, '2026-12-01': 5 });
    const sums = await chartOf(db.id, {
      x: { fieldId: 'due', bucket: 'month' },
      y: { aggregate: 'sum', fieldId: 'price' },
      series: { fieldId: 'done' },
      cumulative: true,
    });
    expect(sums.points).toEqual([
      { x: '2026-10', series: false, value: 5 },
      { x: '2026-10', series: true, value: 0 },
      { x: '2026-11', series: false, value: 25 },
      { x: '2026-11', series: true, value: 10 },
      { x: '2026-12', series: false, value: 32.5 },
      { x: '2026-12', series: true, value: 10 },
    ]);
  });
});

describe('which rows', () => {
  test('the view’s filter holds, trashed rows are left out, and a change of the rows or fields shows at once', async () => {
    const { db, rows } = await fiveRows();
    const chart: ChartConfig = { x: { fieldId: 'stage' }, y: { aggregate: 'count' } };
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, {
        layout: { chart, filter: { op: 'and', rules: [{ fieldId: 'price', condition: 'gt', value: 6 }] } },
      }),
    );
    // The stored config, when the query gives none.
    const filtered = await chartOf(db.id);
    expect([figures(filtered), filtered.rows]).toEqual([{ todo: 1, doing: 1, null: 1 }, 3]);
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/rows/delete`, { ids: [rows[1].id] }));
    expect(figures(await chartOf(db.id))).toEqual({ todo: 1, null: 1 });
    expectOk(await api(t, ann, 'POST', `${S}/row/${rows[2].id}/cells/price`, { value: 50, version: 1 }));
    expect(figures(await chartOf(db.id))).toEqual({ todo: 2, null: 1 });
    // The groups are kept between reads: a write to x, a row made, a field's options changed show at once.
    expectOk(await api(t, ann, 'POST', `${S}/row/${rows[0].id}/cells/stage`, { value: 'done', version: 1 }));
    expect(figures(await chartOf(db.id))).toEqual({ todo: 1, done: 1, null: 1 });
    await addRows(db.id, [{ values: { price: 100, stage: 'doing' } }]);
    expect(figures(await chartOf(db.id))).toEqual({ todo: 1, doing: 1, done: 1, null: 1 });
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/fields/stage`, {
        field: { ...FIELDS.stage, options: [FIELDS.stage.options[2], FIELDS.stage.options[1], { id: 'todo', name: 'Потом' }] },
      }),
    );
    expect((await chartOf(db.id)).categories).toEqual([
      { key: 'done', label: 'Готово' },
      { key: 'doing', label: 'В работе' },
      { key: 'todo', label: 'Потом' },
      { key: null, label: 'Без значения' },
    ]);
    // Another database's rows never count.
    const other = await fiveRows();
    expect(figures(await chartOf(other.db.id, chart))).toEqual({ todo: 2, doing: 1, done: 1, null: 1 });
  });

  test('an empty database: an empty chart', async () => {
    const { db } = await newDatabase();
    expect(await chartOf(db.id, { x: { fieldId: 'stage' }, y: { aggregate: 'sum', fieldId: 'price' }, series: { fieldId: 'who' }, cumulative: true })).toEqual({
      categories: [],
      series: [],
      points: [],
      rows: 0,
      hidden: [],
    });
  });
});

describe('after a cell write', () => {
  /** The chart computed from nothing kept (a process of its own), over the view v1's filter. */
  async function freshChart(databaseId: string, chart: ChartConfig): Promise<ChartAnswer> {
    const block = await t.app.db.selectFrom('blocks').selectAll().where('id', '=', databaseId).executeTakeFirstOrThrow();
    const data = databaseData(block);
    const layout = data.view.layouts.find((l) => l.uid === 'v1')!;
    const groups = await keptChartGroups(new ViewOrders(), t.app.db, block, data.config, { filter: layout.filter ?? null }, chart);
    return foldChart(data.config, chart, groups, peopleNamesFor(t.app.db, annId));
  }

  async function writeCell(row: WireRow, fieldId: string, value: unknown): Promise<void> {
    const written = expectOk<{ version: number }>(
      await api(t, ann, 'POST', `${S}/row/${row.id}/cells/${fieldId}`, { value, version: row.versions[fieldId] ?? 0 }),
    );
    row.versions[fieldId] = written.version;
  }

  test('every chart kept reads as a fresh computation after each write: x, series and y moved, rows in and out of the filter, spellings, several cells at once', async () => {
    const { db, rows } = await fiveRows();
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, {
        layout: { filter: { op: 'and', rules: [{ fieldId: 'price', condition: 'gt', value: 6 }] } },
      }),
    );
    const charts: ChartConfig[] = [
      { x: { fieldId: 'stage' }, y: { aggregate: 'count' } },
      { x: { fieldId: 'due', bucket: 'month' }, y: { aggregate: 'sum', fieldId: 'price' }, series: { fieldId: 'stage' } },
      { x: { fieldId: 'tags' }, y: { aggregate: 'max', fieldId: 'price' }, series: { fieldId: 'who' } },
      { x: { fieldId: 'note' }, y: { aggregate: 'min', fieldId: 'price' } },
      { x: { fieldId: 'done' }, y: { aggregate: 'average', fieldId: 'price' }, series: { fieldId: 'due', bucket: 'week' } },
      { x: { fieldId: 'price' }, y: { aggregate: 'count' }, cumulative: true },
    ];
    const same = async (step: string) => {
      for (const chart of charts) expect([step, chart, await chartOf(db.id, chart)]).toEqual([step, chart, await freshChart(db.id, chart)]);
    };
    await same('kept');
    // In the view (price > 6): rows 0, 1 and 4.
    await writeCell(rows[0], 'stage', 'done');
    await same('x moved');
    expect(figures(await chartOf(db.id, charts[0]))).toEqual({ doing: 1, done: 1, null: 1 });
    await writeCell(rows[1], 'price', 3);
    await same('the largest number out of the filter');
    expect(figures(await chartOf(db.id, charts[2]))).toEqual({ [`a/${annId}`]: 10, b: 7.5 });
    await writeCell(rows[2], 'price', 50);
    await same('a row into the filter');
    expect(figures(await chartOf(db.id, charts[0]))).toEqual({ todo: 1, done: 1, null: 1 });
    await writeCell(rows[4], 'note', 'HELLO');
    await writeCell(rows[0], 'note', 'hello');
    await same('a text category spelled otherwise');
    expect((await chartOf(db.id, charts[3])).categories).toEqual([
      { key: 'hello', label: 'HELLO' },
      { key: 'мир', label: 'Мир' },
    ]);
    const several = expectOk<{ written: Array<{ rowId: string; fieldId: string; version: number }> }>(
      await api(t, ann, 'POST', `${S}/database/${db.id}/cells`, {
        cells: [
          { rowId: rows[4].id, fieldId: 'due', value: '2026-10-05', version: rows[4].versions.due },
          { rowId: rows[4].id, fieldId: 'tags', value: ['a'], version: rows[4].versions.tags },
          { rowId: rows[0].id, fieldId: 'who', value: [bobId], version: rows[0].versions.who },
          { rowId: rows[2].id, fieldId: 'done', value: true, version: rows[2].versions.done },
          { rowId: rows[0].id, fieldId: 'price', value: null, version: rows[0].versions.price },
        ],
      }),
    );
    expect(several.written).toHaveLength(5);
    await same('several cells at once, a number cleared (out of the filter)');
    expect(figures(await chartOf(db.id, charts[1]))).toEqual({ '2026-10/todo': 50, '2026-10': 7.5 });
  });

  test('reads and writes at once: once they settle, the chart is a fresh computation’s', async () => {
    const { db, rows } = await fiveRows();
    const chart: ChartConfig = { x: { fieldId: 'stage' }, y: { aggregate: 'sum', fieldId: 'price' }, series: { fieldId: 'done' } };
    await chartOf(db.id, chart);
    const stages = ['todo', 'doing', 'done', null];
    for (let round = 0; round < 6; round++) {
      await Promise.all([
        chartOf(db.id, chart),
        writeCell(rows[round % 5], 'stage', stages[round % 4]),
        chartOf(db.id, chart),
        writeCell(rows[(round + 2) % 5], 'price', round * 1.1),
        writeCell(rows[(round + 3) % 5], 'done', round % 2 === 0),
        chartOf(db.id, chart),
      ]);
    }
    expect(await chartOf(db.id, chart)).toEqual(await freshChart(db.id, chart));
  });

  test('only the rows written here are read again; a counter moved by another process makes every row be read', async () => {
    const { db, rows } = await fiveRows();
    const chart: ChartConfig = { x: { fieldId: 'stage' }, y: { aggregate: 'count' } };
    expect(figures(await chartOf(db.id, chart))).toEqual({ todo: 2, doing: 1, done: 1, null: 1 });
    // Behind the server's back (no counter raised): what is kept does not see it…
    await t.app.db
      .updateTable('database_cells')
      .set({ txt: 'done', value: '"done"' })
      .where('row_id', '=', rows[2].id)
      .where('field_id', '=', 'stage')
      .execute();
    await writeCell(rows[0], 'stage', 'doing');
    expect(figures(await chartOf(db.id, chart))).toEqual({ todo: 1, doing: 2, done: 1, null: 1 });
    // …until a write this process was not told of (another server process's) raises a counter the chart reads.
    await bumpRevisions(t.app.db, db.id, ['stage']);
    expect(figures(await chartOf(db.id, chart))).toEqual({ doing: 2, done: 2, null: 1 });
  });
});

describe('the config', () => {
  test('stored in a chart view, checked against the fields (422 with a path), fitted when a field goes or changes type', async () => {
    const { db } = await fiveRows();
    const bad: Array<[unknown, string]> = [
      [{ x: { fieldId: 'nope' }, y: { aggregate: 'count' } }, 'x.fieldId'],
      [{ x: { fieldId: 'stage' }, y: { aggregate: 'sum', fieldId: 'note' } }, 'y.fieldId'],
      [{ x: { fieldId: 'stage' }, y: { aggregate: 'sum' } }, 'y.fieldId'],
      [{ x: { fieldId: 'stage' }, y: { aggregate: 'count', fieldId: 'price' } }, 'y.fieldId'],
      [{ x: { fieldId: 'stage', bucket: 'week' }, y: { aggregate: 'count' } }, 'x.bucket'],
      [{ x: { fieldId: 'stage' }, y: { aggregate: 'count' }, series: { fieldId: 'stage' } }, 'series.fieldId'],
      [{ x: { fieldId: 'stage' }, y: { aggregate: 'count' }, series: { fieldId: 'gone' } }, 'series.fieldId'],
      [{ x: { fieldId: 'files' }, y: { aggregate: 'count' } }, 'x.fieldId'],
      [{ x: { fieldId: 'due' }, y: { aggregate: 'average', fieldId: 'price' }, cumulative: true }, 'cumulative'],
    ];
    for (const [chart, path] of bad) {
      const preview = await chartCall(db.id, chart);
      expect([preview.statusCode, errorCode(preview), body<unknown>(preview).errors?.[0]?.details]).toEqual([
        422,
        'validation_failed',
        [expect.objectContaining({ path: `chart.${path}` })],
      ]);
      const stored = await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, { layout: { chart } });
      expect([stored.statusCode, errorCode(stored), body<unknown>(stored).errors?.[0]?.details]).toEqual([
        422,
        'validation_failed',
        [expect.objectContaining({ path: `view.layouts.0.chart.${path}` })],
      ]);
    }
    // Not a config at all: the query's schema.
    for (const chart of [
      { x: { fieldId: 'stage' } },
      { x: { fieldId: 'stage' }, y: { aggregate: 'median' } },
      { x: { fieldId: 'stage' }, y: { aggregate: 'count' }, extra: 1 },
      'bar',
    ]) {
      const res = await chartCall(db.id, chart);
      expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    }
    // A bar chart view is a bar chart.
    const kind = await api(t, ann, 'POST', `${S}/database/${db.id}/views`, {
      layout: { uid: 'bars', type: 'barChart', orderedFields: [], chart: { kind: 'line', x: { fieldId: 'stage' }, y: { aggregate: 'count' } } },
    });
    expect([kind.statusCode, body<unknown>(kind).errors?.[0]?.details]).toEqual([422, [expect.objectContaining({ path: 'view.layouts.1.chart.kind' })]]);
    expectOk(
      await api(t, ann, 'POST', `${S}/database/${db.id}/views`, {
        layout: {
          uid: 'bars',
          type: 'barChart',
          orderedFields: [],
          chart: { x: { fieldId: 'due', bucket: 'month' }, y: { aggregate: 'sum', fieldId: 'price' }, series: { fieldId: 'stage' } },
        },
      }),
    );
    expect(figures(expectOk<ChartAnswer>(await chartCall(db.id, undefined, ann, 'bars')))['2026-11/todo']).toBe(10);
    // A view without a chart, an unknown view or database.
    const none = await chartCall(db.id);
    expect([none.statusCode, errorCode(none)]).toEqual([422, 'validation_failed']);
    const noView = await chartCall(db.id, { x: { fieldId: 'stage' }, y: { aggregate: 'count' } }, ann, 'nope');
    expect([noView.statusCode, errorCode(noView)]).toEqual([404, 'not_found']);
    const noDatabase = await chartCall('no-such-database', { x: { fieldId: 'stage' }, y: { aggregate: 'count' } });
    expect([noDatabase.statusCode, errorCode(noDatabase)]).toEqual([404, 'not_found']);

    // A field retyped or deleted: the chart keeps what still fits.
    const layoutOf = async (uid: string) =>
      (expectOk<WireBlock>(await api(t, ann, 'GET', `${S}/database/${db.id}`)).data as DatabaseData).view.layouts.find((l) => l.uid === uid)!;
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/price`, { field: { name: 'Цена', type: 'text' } }));
    expect((await layoutOf('bars')).chart).toEqual({ x: { fieldId: 'due', bucket: 'month' }, y: { aggregate: 'count' }, series: { fieldId: 'stage' } });
    expectOk(await api(t, ann, 'DELETE', `${S}/database/${db.id}/fields/stage`));
    expect((await layoutOf('bars')).chart).toEqual({ x: { fieldId: 'due', bucket: 'month' }, y: { aggregate: 'count' }, series: null });
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/fields/due`, { field: { name: 'Срок', type: 'text' } }));
    expect((await layoutOf('bars')).chart).toEqual({ x: { fieldId: 'due' }, y: { aggregate: 'count' }, series: null });
    expectOk(await api(t, ann, 'DELETE', `${S}/database/${db.id}/fields/due`));
    expect((await layoutOf('bars')).chart).toBeNull();
  });
});

describe('who may', () => {
  test('a reader reads a chart; an outsider gets 403, the signed-out 401', async () => {
    const workspace = await createWorkspaceAs(t, ann, 'Графики');
    await addMembersAs(t, ann, workspace.id, [{ userId: bobId, role: 'participant' }]);
    const headers = { 'x-workspace-id': workspace.id };
    const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/all`, { title: 'Общая' }, headers), 201);
    const db = expectOk<WireBlock>(
      await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data: databaseBody({ x: { fieldId: 'who' }, y: { aggregate: 'count' } }) }),
      201,
    );
    await addRows(db.id, [{ values: { who: [annId] } }]);
    expectOk(await api(t, ann, 'POST', `${S}/element/${page.id}/member/add`, [{ userId: bobId, accessLevel: 'read' }]));
    expect(await chartOf(db.id, undefined, bob)).toMatchObject({ categories: [{ key: annId, label: 'Анна' }], rows: 1 });
    const outsider = await chartCall(db.id, undefined, eve);
    const anonymous = await chartCall(db.id, undefined, null);
    expect([outsider.statusCode, errorCode(outsider), anonymous.statusCode]).toEqual([403, 'forbidden', 401]);
  });

  test('a published page’s charts are read signed out (people anonymous), until it is unpublished', async () => {
    const { pageId, db } = await fiveRows();
    const chart: ChartConfig = { x: { fieldId: 'who' }, y: { aggregate: 'count' } };
    // The chart a published view shows (a preview over a field no view shows is refused: databaseHardening.int).
    expectOk(await api(t, ann, 'POST', `${S}/database/${db.id}/views/v1`, { layout: { chart } }));
    expect((await chartCall(db.id, chart, null)).statusCode).toBe(401);
    expect((await chartCall(db.id, chart, eve)).statusCode).toBe(403);
    expectOk(await api(t, ann, 'PATCH', `${S}/element/${pageId}`, { isPublic: true }));
    const seen = await chartOf(db.id, chart, null);
    expect(seen.categories.map((c) => c.label)).toEqual(['Участник', 'Участник', 'Без значения']);
    expect(seen.rows).toBe(5);
    expect((await chartOf(db.id, chart, eve)).categories.map((c) => c.label)).toEqual(['Участник', 'Участник', 'Без значения']);
    // The owner still sees names.
    expect((await chartOf(db.id, chart, ann)).categories.map((c) => c.label)).toContain('Анна');
    expectOk(await api(t, ann, 'PATCH', `${S}/element/${pageId}`, { isPublic: false }));
    expect((await chartCall(db.id, chart, null)).statusCode).toBe(401);
  });
});
