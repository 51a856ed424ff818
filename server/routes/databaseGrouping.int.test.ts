import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { WireGroup, WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { dateBucket, dayNumber, numberBucket } from '../../schema/groupBuckets';
import { actor } from '../../test/helpers/pages';
import { setFormulaTimeZone } from '../commands/databases/formulas';
import { api, createTestApp, expectOk, jsonQueryString as q, type TestApp } from '../../test/helpers/testApp';
import { TAGS_FIELD } from '../../test/helpers/databaseFixtures';

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
  return readGrouped(db);
}

/** The view's groups and rows as they are now (its order kept since the last read, brought up to date by the writes since). */
async function readGrouped(db: string) {
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

test('a box never ticked runs with the unticked ones', async () => {
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
});

test('sub-groups under a date’s or a number’s buckets: the rows ordered by the bucket, then the sub-group, each a run within its bucket’s; a write keeps it so', async () => {
  const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}`;
  // Two months; in each, cities out of the dates’ order.
  const db = await tasks([
    { due: at(3), city: 'Тверь', cost: 5 },
    { due: at(5), city: 'Москва', cost: 15 },
    { due: '2026-12-02', city: 'Тверь', cost: 8 },
    { due: at(9), city: 'Тверь', cost: 12 },
    { due: '2026-12-01', city: 'Москва', cost: 3 },
    { cost: 14 },
  ]);
  const byMonth = await grouped(db, { fieldId: 'due', by: 'month', sub: { fieldId: 'city' } });
  const shape = (groups: WireGroup[]) => groups.map((g) => [g.value, g.count, (g.groups ?? []).map((s) => [s.label ?? s.value, s.count])]);
  expect(shape(byMonth.groups)).toEqual([
    [
      'month:2026-11',
      3,
      [
        ['Москва', 1],
        ['Тверь', 2],
      ],
    ],
    [
      'month:2026-12',
      2,
      [
        ['Москва', 1],
        ['Тверь', 1],
      ],
    ],
    [null, 1, [[null, 1]]],
  ]);
  const subRuns = (groups: WireGroup[], rows: WireRow[]) => {
    let next = 0;
    return groups.flatMap((g) => (g.groups ?? []).map((sub) => rows.slice(next, (next += sub.count)).map((r) => r.data.values.city ?? null)));
  };
  expect(subRuns(byMonth.groups, byMonth.rows)).toEqual([['Москва'], ['Тверь', 'Тверь'], ['Москва'], ['Тверь'], [null]]);
  // By a number's ranges of 10, sub-grouped by city: 0–10 holds Тверь 5, Тверь 8, Москва 3.
  const byCost = await grouped(db, { fieldId: 'cost', sub: { fieldId: 'city' } });
  expect(subRuns(byCost.groups, byCost.rows)).toEqual([['Москва'], ['Тверь', 'Тверь'], ['Москва'], ['Тверь'], [null]]);
  // A write moves a row (the kept order brought up to date): Тверь of the 9th becomes Москва.
  const rows = expectOk<WireRow[]>(await api(t, cookie, 'GET', `${S}/database/${db}/rows?${q({ limit: 10 })}`));
  const ninth = rows.find((r) => r.data.values.due === at(9))!;
  expectOk(await api(t, cookie, 'POST', `${S}/row/${ninth.id}/cells/city`, { value: 'Москва', version: 1 }));
  const after = await readGrouped(db);
  // By cost still: 10–20 now holds Москва 15 and 12, and the row with no city.
  expect(subRuns(after.groups, after.rows)).toEqual([['Москва'], ['Тверь', 'Тверь'], ['Москва', 'Москва'], [null]]);
});

test('a date without a time falls on its own day in any zone (west of UTC too); a moment on the zone’s day', async () => {
  setFormulaTimeZone('America/New_York');
  try {
    const db = await tasks([{ due: '2026-12-10' }, { due: '2026-12-11' }, { due: '2026-12-11' }]);
    const { groups, rows } = await grouped(db, { fieldId: 'due', by: 'day' });
    expect(groups.map((g) => [g.value, g.count])).toEqual([
      ['day:2026-12-10', 1],
      ['day:2026-12-11', 2],
    ]);
    expect(runs(groups, rows)).toEqual([['Задача 1'], ['Задача 2', 'Задача 3']]);
    // 03:00 UTC on the 10th is still the 9th in New York; mixed with days alone, each group is still one run.
    const mixed = await tasks([{ due: '2026-12-09T15:00:00Z' }, { due: '2026-12-10' }, { due: '2026-12-10T03:00:00Z' }]);
    const both = await grouped(mixed, { fieldId: 'due', by: 'day' });
    expect(both.groups.map((g) => [g.value, g.count])).toEqual([
      ['day:2026-12-09', 2],
      ['day:2026-12-10', 1],
    ]);
    expect(runs(both.groups, both.rows)).toEqual([['Задача 1', 'Задача 3'], ['Задача 2']]);
  } finally {
    setFormulaTimeZone('Europe/Moscow');
  }
});

describe('a table by a multi-select or a relation to its own rows: a row in each of its values’ groups (issue 38)', () => {
  async function tagged() {
    const page = expectOk<WireElement>(await api(t, cookie, 'POST', `${S}/section/private`, { title: 'Теги' }), 201);
    const data = {
      config: {
        fields: {
          [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
          tags: TAGS_FIELD,
          epic: { name: 'Эпик', type: 'relation' },
        },
      },
      // The rows sorted by title downwards: each group's rows in that order.
      view: {
        layouts: [
          { uid: 'tbl', type: 'table', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }], sorts: [{ fieldId: MAIN_FIELD_ID, direction: 'desc' }] },
        ],
      },
    } as unknown as DatabaseData;
    const db = expectOk<WireBlock>(await api(t, cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
    const rows = expectOk<WireRow[]>(
      await api(t, cookie, 'POST', `${S}/database/${db.id}/rows`, {
        rows: [
          { title: 'А', values: { tags: ['qa', 'ux'] } },
          { title: 'Б', values: { tags: ['be'] } },
          { title: 'В' },
          { title: 'Г', values: { tags: ['ux'] } },
        ],
      }),
      201,
    );
    return { db: db.id, id: Object.fromEntries(rows.map((r) => [r.data.title, r.id])) as Record<string, string> };
  }
  const shape = (groups: WireGroup[]) => groups.map((g) => [g.label ?? g.value, g.count]);

  test('by a multi-select: a group per option in their order, each a run in the sorts’ order; cursors, a write, the CSV (each row once), no sub-groups', async () => {
    const { db, id } = await tagged();
    const { groups, rows } = await grouped(db, { fieldId: 'tags' });
    expect(shape(groups)).toEqual([
      ['ux', 2],
      ['be', 1],
      ['qa', 1],
      [null, 1],
    ]);
    expect(runs(groups, rows)).toEqual([['Г', 'А'], ['Б'], ['А'], ['В']]);
    const window = await api(t, cookie, 'GET', `${S}/database/${db}/rows?${q({ viewId: 'tbl', limit: 500 })}`);
    expect((window.json() as { meta: { count: number } }).meta.count).toBe(5);
    // Paged by cursors: the same entries, «А» twice (once per group it is in).
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const answer = await api(t, cookie, 'GET', `${S}/database/${db}/rows?${q({ viewId: 'tbl', limit: 2, ...(cursor ? { cursor } : {}) })}`);
      const body = answer.json() as { data: WireRow[]; meta: { nextCursor: string | null } };
      paged.push(...body.data.map((r) => r.data.title));
      cursor = body.meta.nextCursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(['Г', 'А', 'Б', 'А', 'В']);
    // «В» tagged «Проверка», «А» loses «Дизайн»: both move (the kept order brought up to date).
    expectOk(await api(t, cookie, 'POST', `${S}/row/${id['В']}/cells/tags`, { value: ['qa'], version: 0 }));
    expectOk(await api(t, cookie, 'POST', `${S}/row/${id['А']}/cells/tags`, { value: ['qa'], version: 1 }));
    const after = await readGrouped(db);
    expect(shape(after.groups)).toEqual([
      ['ux', 1],
      ['be', 1],
      ['qa', 2],
    ]);
    expect(runs(after.groups, after.rows)).toEqual([['Г'], ['Б'], ['В', 'А']]);
    // The CSV of the view: each row once.
    const csv = await api(t, cookie, 'GET', `${S}/database/${db}/export.csv?${q({ viewId: 'tbl' })}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split(/\r?\n/).slice(1).sort()).toEqual(['А', 'Б', 'В', 'Г']);
    // Grouped by title, sub-grouped by a text field then retyped to a multi-select: the sub-groups go.
    expectOk(await api(t, cookie, 'POST', `${S}/database/${db}/fields`, { id: 'kind', field: { name: 'Вид', type: 'text' } }));
    expectOk(await api(t, cookie, 'POST', `${S}/database/${db}/views/tbl`, { layout: { groupBy: { fieldId: MAIN_FIELD_ID, sub: { fieldId: 'kind' } } } }));
    const retyped = expectOk<WireBlock>(
      await api(t, cookie, 'POST', `${S}/database/${db}/fields/kind`, { field: { name: 'Вид', type: 'multiSelect', options: [] } }),
    );
    expect((retyped.data as DatabaseData).view.layouts[0].groupBy).toEqual({ fieldId: MAIN_FIELD_ID, sub: null });
    // A view changed without touching its groups keeps working (its width, its name).
    expectOk(await api(t, cookie, 'POST', `${S}/database/${db}/views/tbl`, { layout: { name: 'Все' } }));
    // No sub-groups under it, nor by it (a row is in several groups).
    for (const groupBy of [
      { fieldId: 'tags', sub: { fieldId: MAIN_FIELD_ID } },
      { fieldId: MAIN_FIELD_ID, sub: { fieldId: 'tags' } },
    ]) {
      const refused = await api(t, cookie, 'POST', `${S}/database/${db}/views/tbl`, { layout: { groupBy } });
      expect([refused.statusCode, (refused.json() as { errors: Array<{ details: Array<{ path: string }> }> }).errors[0].details[0].path]).toEqual([
        422,
        'layout.groupBy.sub',
      ]);
    }
  });

  test('a cursor names its group: the options reordered between two pages, the next page goes on after that group where it is now', async () => {
    const { db } = await tagged();
    await grouped(db, { fieldId: 'tags' });
    const page = async (cursor?: string) => {
      const answer = await api(t, cookie, 'GET', `${S}/database/${db}/rows?${q({ viewId: 'tbl', limit: 3, ...(cursor ? { cursor } : {}) })}`);
      const b = answer.json() as { data: WireRow[]; meta: { nextCursor: string | null } };
      return { titles: b.data.map((r) => r.data.title), next: b.meta.nextCursor };
    };
    const first = await page();
    expect(first.titles).toEqual(['Г', 'А', 'Б']);
    // «Сервер» (the group the page ended in) moved first: what comes after it now is «Дизайн», «Проверка», «Без значения».
    expectOk(
      await api(t, cookie, 'POST', `${S}/database/${db}/fields/tags`, {
        field: {
          name: 'Теги',
          type: 'multiSelect',
          options: [
            { id: 'be', name: 'Сервер', color: 'green' },
            { id: 'ux', name: 'Дизайн', color: 'blue' },
            { id: 'qa', name: 'Проверка', color: 'red' },
          ],
        },
      }),
    );
    expect((await page(first.next!)).titles).toEqual(['Г', 'А', 'А']);
  });

  test('by a relation to its own rows: a group per related row by title; a row naming only rows in the trash is in «Без значения»; a renamed row’s group moves', async () => {
    const { db, id } = await tagged();
    expectOk(await api(t, cookie, 'POST', `${S}/row/${id['А']}/cells/epic`, { value: [id['Б']], version: 0 }));
    expectOk(await api(t, cookie, 'POST', `${S}/row/${id['Г']}/cells/epic`, { value: [id['В'], id['Б']], version: 0 }));
    expectOk(await api(t, cookie, 'POST', `${S}/row/${id['Б']}/cells/epic`, { value: [id['А']], version: 0 }));
    const first = await grouped(db, { fieldId: 'epic' });
    expect(shape(first.groups)).toEqual([
      ['А', 1],
      ['Б', 2],
      ['В', 1],
      [null, 1],
    ]);
    expect(runs(first.groups, first.rows)).toEqual([['Б'], ['Г', 'А'], ['Г'], ['В']]);
    // «В» to the trash: «Г» is in «Б» alone; «В» is no row of the view.
    expectOk(await api(t, cookie, 'POST', `${S}/database/${db}/rows/delete`, { ids: [id['В']] }));
    // «А» trashed too: «Б», naming only it, falls in «Без значения».
    expectOk(await api(t, cookie, 'POST', `${S}/database/${db}/rows/delete`, { ids: [id['А']] }));
    const trashed = await grouped(db, { fieldId: 'epic' });
    expect(shape(trashed.groups)).toEqual([
      ['Б', 1],
      [null, 1],
    ]);
    expect(runs(trashed.groups, trashed.rows)).toEqual([['Г'], ['Б']]);
    // Renamed, a related row's group goes where its new title sorts.
    expectOk(await api(t, cookie, 'POST', `${S}/database/${db}/rows/restore`, { ids: [id['А']] }));
    expectOk(await api(t, cookie, 'POST', `${S}/row/${id['Б']}/cells/${MAIN_FIELD_ID}`, { value: 'Я', version: 1 }));
    const renamed = await grouped(db, { fieldId: 'epic' });
    expect(shape(renamed.groups)).toEqual([
      ['А', 1],
      ['Я', 2],
    ]);
    expect(runs(renamed.groups, renamed.rows)).toEqual([['Я'], ['Г', 'А']]);
  });
});
