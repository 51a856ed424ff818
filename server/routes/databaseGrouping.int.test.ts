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
