import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { WireGroup, WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { dateBucket, dayNumber, numberBucket } from '../../schema/groupBuckets';
import { actor } from '../../test/helpers/pages';
import { api, createTestApp, expectOk, jsonQueryString as q, type TestApp } from '../../test/helpers/testApp';

/*
 * A table grouped by a date (day, week, month, year, relative to today), a number (ranges) or a
 * text (issue 38, docs/api/databases.md «Grouping») on a real server and the project's database:
 * the groups come in the order of the view's rows, each group's count is the run of rows that
 * belong to it, so the table's headers fall where its groups start.
 */

let t: TestApp;
let cookie: string;
const S = '/api/v3/spaces';
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  cookie = (await actor(t, 'ann.groups@example.com')).cookie;
});
afterAll(async () => {
  await t.close();
});

async function tasks(values: Array<Record<string, unknown>>) {
  const page = expectOk<WireElement>(await api(t, cookie, 'POST', `${S}/section/private`, { title: 'Задачи' }), 201);
  const data: DatabaseData = {
    config: {
      fields: {
        [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
        due: { name: 'Срок', type: 'date', withTime: true },
        cost: { name: 'Цена', type: 'number' },
        city: { name: 'Город', type: 'text' },
      },
    } as unknown as DatabaseData['config'],
    view: { layouts: [{ uid: 'tbl', type: 'table', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
  };
  const db = expectOk<WireBlock>(await api(t, cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  expectOk(await api(t, cookie, 'POST', `${S}/database/${db.id}/rows`, { rows: values.map((v, i) => ({ title: `Задача ${i + 1}`, values: v })) }), 201);
  return db.id;
}

/** The view grouped so; its groups, and its rows in order. */
async function grouped(db: string, groupBy: object) {
  expectOk(await api(t, cookie, 'POST', `${S}/database/${db}/views/tbl`, { layout: { groupBy } }));
  const groups = expectOk<WireGroup[]>(await api(t, cookie, 'GET', `${S}/database/${db}/groups?${q({ viewId: 'tbl' })}`));
  const rows = expectOk<WireRow[]>(await api(t, cookie, 'GET', `${S}/database/${db}/rows?${q({ viewId: 'tbl', limit: 500 })}`));
  return { groups, rows };
}

/** Each group's run of rows, by the group's counts, as the table draws them. */
function runs(groups: WireGroup[], rows: WireRow[]): string[][] {
  let at = 0;
  return groups.map((g) => rows.slice(at, (at += g.count)).map((r) => r.data.title));
}

test('by a date: relative to today by default, then by month, week, day and year; empty last; each group one run of rows', async () => {
  const now = Date.now();
  const when = (days: number) => new Date(now + days * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const offsets = [-400, -45, -10, -3, -1, 0, 0, 1, 5, 20, 60, 400];
  const db = await tasks([...offsets.map((d) => ({ due: when(d) })), {}]);
  const zone = 'Europe/Moscow';
  const today = dayNumber(now, zone);
  for (const by of ['relative', 'month', 'week', 'day', 'year'] as const) {
    const { groups, rows } = await grouped(db, by === 'relative' ? { fieldId: 'due' } : { fieldId: 'due', by });
    expect(groups.reduce((sum, g) => sum + g.count, 0)).toBe(13);
    expect(groups[groups.length - 1]).toEqual({ value: null, count: 1 });
    // Every row of a group's run falls in that group's bucket.
    runs(groups, rows).forEach((titles, i) => {
      for (const title of titles) {
        const row = rows.find((r) => r.data.title === title)!;
        const due = row.data.values.due as string | undefined;
        expect(due === undefined ? null : dateBucket(Date.parse(due), by, zone, today).key).toBe(groups[i].value);
      }
    });
  }
  const relative = (await grouped(db, { fieldId: 'due', by: 'relative' })).groups.map((g) => g.label ?? null);
  expect(relative).toEqual(
    expect.arrayContaining(['Последние 30 дней', 'Последние 7 дней', 'Вчера', 'Сегодня', 'Завтра', 'Следующие 7 дней', 'Следующие 30 дней']),
  );
  expect(relative.indexOf('Вчера')).toBeLessThan(relative.indexOf('Сегодня'));
  expect(relative.indexOf('Сегодня')).toBeLessThan(relative.indexOf('Завтра'));
});

test('by a number: ranges of the view’s step (10 unless set), in order; by a text: as typed, case aside, in the rows’ order', async () => {
  const db = await tasks([
    { cost: 5, city: 'Москва' },
    { cost: 15, city: 'москва' },
    { cost: 150, city: 'Казань' },
    { cost: -3, city: 'Анапа' },
    { cost: 10 },
    {},
  ]);
  const tens = await grouped(db, { fieldId: 'cost' });
  expect(tens.groups.map((g) => [g.label ?? null, g.count])).toEqual([
    ['-10 – 0', 1],
    ['0 – 10', 1],
    ['10 – 20', 2],
    ['150 – 160', 1],
    [null, 1],
  ]);
  expect(runs(tens.groups, tens.rows)[2].sort()).toEqual(['Задача 2', 'Задача 5']);
  const hundreds = await grouped(db, { fieldId: 'cost', step: 100 });
  expect(hundreds.groups.map((g) => g.value)).toEqual([numberBucket(-3, 100).key, 'range:0', 'range:100', null]);
  const cities = await grouped(db, { fieldId: 'city' });
  expect(cities.groups.map((g) => [g.label ?? null, g.count])).toEqual([
    ['Анапа', 1],
    ['Казань', 1],
    [expect.stringMatching(/^[Мм]осква$/), 2],
    [null, 2],
  ]);
  expect(runs(cities.groups, cities.rows)[2].sort()).toEqual(['Задача 1', 'Задача 2']);
});

test('a formula groups as the type of its values: a number in ranges, a text as typed, a box; each group a run of rows', async () => {
  const db = await tasks([{ cost: 5, city: 'Москва' }, { cost: 25, city: 'Тверь' }, { cost: 12, city: 'москва' }, {}]);
  const field = (id: string, name: string, expression: string) =>
    api(t, cookie, 'POST', `${S}/database/${db}/fields`, { id, field: { name, type: 'formula', expression } }).then((res) => expectOk(res));
  await field('twice', 'Вдвое', 'prop("cost") * 2');
  await field('where', 'Где', 'prop("city")');
  await field('dear', 'Дорого', 'prop("cost") > 10');
  const byNumber = await grouped(db, { fieldId: 'twice', step: 20 });
  expect(byNumber.groups.map((g) => [g.value, g.count])).toEqual([
    ['range:0', 1],
    ['range:20', 1],
    ['range:40', 1],
    [null, 1],
  ]);
  expect(runs(byNumber.groups, byNumber.rows)).toEqual([['Задача 1'], ['Задача 3'], ['Задача 2'], ['Задача 4']]);
  const byText = await grouped(db, { fieldId: 'where' });
  expect(byText.groups.map((g) => [g.label ?? g.value, g.count])).toEqual([
    [expect.stringMatching(/^[Мм]осква$/), 2],
    ['Тверь', 1],
    [null, 1],
  ]);
  expect(runs(byText.groups, byText.rows).map((run) => run.length)).toEqual([2, 1, 1]);
  const byBox = await grouped(db, { fieldId: 'dear' });
  expect(byBox.groups.map((g) => [g.value, g.count])).toEqual([
    [false, 2],
    [true, 2],
  ]);
  expect(runs(byBox.groups, byBox.rows).map((run) => run.sort())).toEqual([
    ['Задача 1', 'Задача 4'],
    ['Задача 2', 'Задача 3'],
  ]);
});

test('sub-groups: each group’s rows grouped again by another field, runs within its run; a board has none, nor a group by itself', async () => {
  const db = await tasks([
    { city: 'Москва', cost: 5 },
    { city: 'Тверь', cost: 15 },
    { city: 'москва', cost: 25 },
    { city: 'Москва', cost: 7 },
    { cost: 1 },
    { city: 'Тверь' },
  ]);
  const { groups, rows } = await grouped(db, { fieldId: 'city', sub: { fieldId: 'cost', step: 10 } });
  expect(groups.map((g) => [g.label ?? g.value, g.count, (g.groups ?? []).map((s) => [s.value, s.count])])).toEqual([
    [
      expect.stringMatching(/^[Мм]осква$/),
      3,
      [
        ['range:0', 2],
        ['range:20', 1],
      ],
    ],
    [
      'Тверь',
      2,
      [
        ['range:10', 1],
        [null, 1],
      ],
    ],
    [null, 1, [['range:0', 1]]],
  ]);
  // The rows run group by group, and within each group sub-group by sub-group.
  const subRuns = (() => {
    let at = 0;
    return groups.flatMap((g) => (g.groups ?? []).map((s) => rows.slice(at, (at += s.count)).map((r) => r.data.values.cost ?? null)));
  })();
  expect(subRuns.map((run) => run.map((cost) => (cost === null ? null : Math.floor(Number(cost) / 10) * 10)))).toEqual([[0, 0], [20], [10], [null], [0]]);
  // Refused: a sub-group by the group's own field, one by a field there is not, sub-groups on a board.
  for (const groupBy of [
    { fieldId: 'city', sub: { fieldId: 'city' } },
    { fieldId: 'city', sub: { fieldId: 'nope' } },
  ]) {
    const refused = await api(t, cookie, 'POST', `${S}/database/${db}/views/tbl`, { layout: { groupBy } });
    expect(refused.statusCode).toBe(422);
  }
  const board = await api(t, cookie, 'POST', `${S}/database/${db}/views`, {
    layout: { uid: 'brd', type: 'board', orderedFields: [], groupBy: { fieldId: 'city', sub: { fieldId: 'cost' } } },
  });
  expect(board.statusCode).toBe(422);
  // The sub-group's field deleted: the groups stay, their sub-groups go.
  const after = expectOk<WireBlock>(await api(t, cookie, 'DELETE', `${S}/database/${db}/fields/cost`));
  expect((after.data as DatabaseData).view.layouts[0].groupBy).toEqual({ fieldId: 'city', sub: null });
});

test('a box never ticked runs with the unticked ones; no sub-groups under a date’s or a number’s groups (their buckets do not run by sub-group)', async () => {
  const db = await tasks([{ city: 'А' }, { city: 'Б' }, { city: 'В' }]);
  expectOk(await api(t, cookie, 'POST', `${S}/database/${db}/fields`, { id: 'done', field: { name: 'Готово', type: 'checkbox' } }));
  const rows = expectOk<WireRow[]>(await api(t, cookie, 'GET', `${S}/database/${db}/rows?${q({ limit: 10 })}`));
  const byTitle = Object.fromEntries(rows.map((r) => [r.data.title, r.id]));
  expectOk(await api(t, cookie, 'POST', `${S}/row/${byTitle['Задача 1']}/cells/done`, { value: false, version: 0 }));
  expectOk(await api(t, cookie, 'POST', `${S}/row/${byTitle['Задача 2']}/cells/done`, { value: true, version: 0 }));
  // Задача 3 never ticked.
  const byBox = await grouped(db, { fieldId: 'done' });
  expect(byBox.groups.map((g) => [g.value, g.count])).toEqual([
    [false, 2],
    [true, 1],
  ]);
  expect(runs(byBox.groups, byBox.rows).map((run) => run.sort())).toEqual([['Задача 1', 'Задача 3'], ['Задача 2']]);
  for (const groupBy of [
    { fieldId: 'due', sub: { fieldId: 'city' } },
    { fieldId: 'cost', sub: { fieldId: 'city' } },
  ]) {
    const refused = await api(t, cookie, 'POST', `${S}/database/${db}/views/tbl`, { layout: { groupBy } });
    expect([refused.statusCode, (refused.json() as { errors: Array<{ details: Array<{ path: string }> }> }).errors[0].details[0].path]).toEqual([
      422,
      'layout.groupBy.sub',
    ]);
  }
});
