import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { pointerDrag, centreOf } from '../helpers/pointerDrag';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * The Timeline view of a database (issue 17) in real Chromium against the real server: added from
 * the «+» after the tabs (it opens on today, by weeks), its rows' bars where their dates are, a bar
 * dragged to other days and its end dragged to make it longer (each one write, seen in a second
 * window), a row without dates given one by a click on its lane, the scale kept in the view (after
 * a reload too); start and end fields written in one call; a reader who can look and open, but
 * not move.
 */

const suite = browserSuite();

const S = () => `${suite.server.url}/api/v3/spaces`;

/** Today `offset` days on, as YYYY-MM-DD (the browser's days are this machine's). */
const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
/** Pixels a day takes by weeks (timelineScale.ts DAY_WIDTH). */
const WEEK_DAY = 18;

type Row = { id: string; data: { title: string; values: Record<string, unknown> } };

/** A Database page with date fields and rows, made through the API. */
async function timelineData(page: Page, title: string, fields: Record<string, { name: string; type: string }>, rows: Array<[string, Record<string, unknown>]>) {
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  for (const [id, field] of Object.entries(fields))
    await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id, field }) });
  await fetchJson(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: rows.map(([name, values]) => ({ title: name, values })) }),
  });
  const values = async () =>
    Object.fromEntries((await fetchJson<{ data: Row[] }>(`${S()}/database/${db}/rows`, { cookie })).data.map((r) => [r.data.title, r.data.values]));
  return { cookie, holderId: holder.data.id, db, values };
}

const bar = (page: Page, title: string) => page.locator('.db-timeline-item', { hasText: title });
const rowOf = (page: Page, title: string) => page.locator('.db-timeline-row', { has: page.locator('.db-timeline-title', { hasText: title }) });
const daysOf = async (page: Page, title: string) => [await bar(page, title).getAttribute('data-start'), await bar(page, title).getAttribute('data-end')];
const cellSaved = (page: Page) => page.waitForResponse((r) => /\/row\/[^/]+\/cells\/when$/.test(r.url()) && r.request().method() === 'POST');

it('a timeline added from «+»: bars on their days around today; moved, stretched, a day given by a click — each one write, seen in another window; the scale kept', async () => {
  const page = await suite.signedIn('timeline.planner@example.com');
  const { holderId, values } = await timelineData(page, 'Планы', { when: { name: 'Сроки', type: 'date' } }, [
    ['Макет', { when: { start: day(-2), end: day(1) } }],
    ['Созвон', { when: day(3) }],
    ['Идея', {}],
  ]);
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.locator('.db-scroll').waitFor();
  await page.getByRole('button', { name: 'Добавить вид' }).click();
  await page.getByRole('menuitem', { name: 'Хронология' }).click();
  await page.getByRole('tab', { name: /Хронология/, selected: true }).waitFor();

  // By weeks: each bar from its first day to its last; none for the row without dates; today's line on «Макет».
  await eventually(() => daysOf(page, 'Макет'), [day(-2), day(1)]);
  expect(await daysOf(page, 'Созвон')).toEqual([day(3), day(3)]);
  await expect(page.getByRole('button', { name: 'Неделя', pressed: true }).count()).resolves.toBe(1);
  const macet = (await bar(page, 'Макет').boundingBox())!;
  const call = (await bar(page, 'Созвон').boundingBox())!;
  expect(Math.round(macet.width)).toBe(4 * WEEK_DAY);
  expect(Math.round(call.x - macet.x)).toBe(5 * WEEK_DAY);
  const today = (await page.locator('.db-timeline-today').boundingBox())!;
  // Within today's column (its line's middle: just after midnight the line sits on the column's left edge).
  const todayMiddle = today.x + today.width / 2;
  expect(todayMiddle).toBeGreaterThanOrEqual(macet.x + 2 * WEEK_DAY);
  expect(todayMiddle).toBeLessThan(macet.x + 3 * WEEK_DAY);
  await expect(rowOf(page, 'Идея').locator('.db-timeline-item').count()).resolves.toBe(0);
  await shoot(page, 'database-timeline-1280');

  // Another window on the same timeline.
  const other = await page.context().newPage();
  await other.goto(`${suite.server.url}/${holderId}`);
  await other.getByRole('tab', { name: /Хронология/ }).click();
  await eventually(() => daysOf(other, 'Созвон'), [day(3), day(3)]);

  // «Созвон» dragged two days on: one write, still a day alone; the other window follows.
  let saved = cellSaved(page);
  const from = await centreOf(bar(page, 'Созвон'));
  await pointerDrag(page, from, { x: from.x + 2 * WEEK_DAY + 3, y: from.y });
  expect((await saved).status()).toBe(200);
  expect((await values())['Созвон'].when).toBe(day(5));
  await eventually(() => daysOf(page, 'Созвон'), [day(5), day(5)]);
  await eventually(() => daysOf(other, 'Созвон'), [day(5), day(5)]);

  // «Макет»'s end dragged three days on: a longer range.
  await bar(page, 'Макет').hover();
  const end = await centreOf(bar(page, 'Макет').locator('.db-timeline-handle.is-end'));
  saved = cellSaved(page);
  await pointerDrag(page, end, { x: end.x + 3 * WEEK_DAY, y: end.y });
  expect((await saved).status()).toBe(200);
  await eventually(async () => (await values())['Макет'].when, { start: day(-2), end: day(4) });
  await eventually(() => daysOf(other, 'Макет'), [day(-2), day(4)]);

  // A click on «Идея»'s empty lane, under the 7th day from today: that day is its date.
  const lane = rowOf(page, 'Идея').locator('.db-timeline-lane');
  const y = (await centreOf(rowOf(page, 'Идея'))).y;
  const at = (await bar(page, 'Макет').boundingBox())!.x + 9 * WEEK_DAY + WEEK_DAY / 2;
  saved = cellSaved(page);
  await page.bringToFront();
  await lane.click({ position: { x: at - (await lane.boundingBox())!.x, y: y - (await lane.boundingBox())!.y } });
  expect((await saved).status()).toBe(200);
  await eventually(async () => (await values())['Идея'].when, day(7));
  await eventually(() => daysOf(other, 'Идея'), [day(7), day(7)]);

  // A click on a bar opens its row beside the timeline.
  await bar(page, 'Созвон').click();
  await page.getByRole('dialog').waitFor();
  await page.keyboard.press('Escape');

  // By months: kept in the view (after a reload too).
  const kept = page.waitForResponse((r) => /\/views\/[^/]+$/.test(r.url()) && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Месяц', exact: true }).click();
  expect((await kept).status()).toBe(200);
  await page.locator('.db-timeline-grid.is-month').waitFor();
  await page.reload();
  await page.getByRole('tab', { name: /Хронология/ }).click();
  await page.getByRole('button', { name: 'Месяц', pressed: true }).waitFor();
  await eventually(() => daysOf(page, 'Созвон'), [day(5), day(5)]);
  await page.context().close();
});

it('start and end fields: a bar moved writes both cells in one call; a dependencies field made from the toolbar; a reader on a phone opens bars but moves none', async () => {
  const owner = await suite.signedIn('timeline.owner@example.com');
  const { cookie, holderId, db, values } = await timelineData(
    owner,
    'Общий план',
    { begins: { name: 'Начало', type: 'date' }, ends: { name: 'Конец', type: 'date' } },
    [
      ['Спринт', { begins: day(0), ends: day(6) }],
      ['Релиз', { begins: day(8) }],
    ],
  );
  await fetchJson(`${S()}/database/${db}/views`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      layout: { uid: 't1', type: 'timeline', name: 'Хронология', orderedFields: [], timeline: { startFieldId: 'begins', endFieldId: 'ends', scale: 'day' } },
    }),
  });
  await owner.goto(`${suite.server.url}/${holderId}`);
  await owner.getByRole('tab', { name: /Хронология/ }).click();
  await eventually(() => daysOf(owner, 'Спринт'), [day(0), day(6)]);
  expect(await daysOf(owner, 'Релиз')).toEqual([day(8), day(8)]);

  // By days (36 px a day): «Спринт» dragged a day back, its two cells in one call.
  const written = owner.waitForResponse((r) => /\/database\/[^/]+\/cells$/.test(r.url()) && r.request().method() === 'POST');
  const from = await centreOf(bar(owner, 'Спринт'));
  await pointerDrag(owner, from, { x: from.x - 36, y: from.y });
  const answer = await written;
  expect(answer.status()).toBe(200);
  expect((answer.request().postDataJSON() as { cells: Array<{ fieldId: string; value: unknown }> }).cells.map((c) => [c.fieldId, c.value])).toEqual([
    ['begins', day(-1)],
    ['ends', day(5)],
  ]);
  await eventually(async () => [(await values())['Спринт'].begins, (await values())['Спринт'].ends], [day(-1), day(5)]);
  // «Релиз» (no end) stretched by its end: the end field gets its new last day.
  await bar(owner, 'Релиз').hover();
  const end = await centreOf(bar(owner, 'Релиз').locator('.db-timeline-handle.is-end'));
  const one = owner.waitForResponse((r) => /\/row\/[^/]+\/cells\/ends$/.test(r.url()) && r.request().method() === 'POST');
  await pointerDrag(owner, end, { x: end.x + 2 * 36, y: end.y });
  expect((await one).status()).toBe(200);
  await eventually(async () => [(await values())['Релиз'].begins, (await values())['Релиз'].ends], [day(8), day(10)]);

  // No relation field yet: «+ Новое поле «Заблокировано»» makes one and sets the dependencies by it.
  const fieldMade = owner.waitForResponse((r) => /\/database\/[^/]+\/fields$/.test(r.url()) && r.request().method() === 'POST');
  const viewKept = owner.waitForResponse((r) => /\/views\/t1$/.test(r.url()) && r.request().method() === 'POST');
  await owner.getByLabel('Зависимости').selectOption({ label: '+ Новое поле «Заблокировано»' });
  expect((await fieldMade).status()).toBe(200);
  expect((await viewKept).status()).toBe(200);
  const shape = await fetchJson<{
    data: Array<{
      data: {
        config: { fields: Record<string, { name: string; type: string }> };
        view: { layouts: Array<{ uid: string; timeline?: { dependencyFieldId?: string } }> };
      };
    }>;
  }>(`${S()}/note/${holderId}/blocks`, { cookie });
  const made = Object.entries(shape.data[0].data.config.fields).filter(([, f]) => f.type === 'relation');
  expect(made.map(([, f]) => f.name)).toEqual(['Заблокировано']);
  expect(shape.data[0].data.view.layouts.find((l) => l.uid === 't1')?.timeline?.dependencyFieldId).toBe(made[0][0]);
  await eventually(async () => (await owner.getByLabel('Зависимости').locator('option:checked').textContent()) ?? '', 'Заблокировано');

  // The reader on a phone, in the dark.
  const reader = await suite.signedIn('timeline.reader@example.com');
  await reader.setViewportSize({ width: 375, height: 800 });
  await reader.emulateMedia({ colorScheme: 'dark' });
  const readerId = (await fetchJson<{ data: { id: string } }>(`${suite.server.url}/api/user/current`, { cookie: await cookieOf(reader) })).data.id;
  await fetchJson(`${S()}/element/${holderId}/member/add`, { method: 'POST', cookie, body: JSON.stringify([{ userId: readerId, accessLevel: 'read' }]) });
  await reader.goto(`${suite.server.url}/${holderId}`);
  await reader.getByRole('tab', { name: /Хронология/ }).click();
  await eventually(() => daysOf(reader, 'Спринт'), [day(-1), day(5)]);
  await shoot(reader, 'database-timeline-375-dark');
  await expect(reader.locator('.db-timeline-handle').count()).resolves.toBe(0);
  const writes: string[] = [];
  reader.on('request', (r) => r.method() === 'POST' && /\/cells|\/rows$|\/views\//.test(r.url()) && writes.push(r.url()));
  // A drag moves nothing (a press and a release on the bar: it opens the row to read).
  const readerFrom = await centreOf(bar(reader, 'Спринт'));
  await pointerDrag(reader, readerFrom, { x: readerFrom.x - 3 * 36, y: readerFrom.y });
  await reader.getByRole('dialog').waitFor();
  await reader.keyboard.press('Escape');
  await reader.waitForTimeout(300);
  expect(await daysOf(reader, 'Спринт')).toEqual([day(-1), day(5)]);
  // A scale chosen is the reader's own, not saved.
  await reader.getByRole('button', { name: 'Неделя', exact: true }).click();
  await reader.locator('.db-timeline-grid.is-week').waitFor();
  await reader.waitForTimeout(200);
  expect(writes).toEqual([]);
  expect((await values())['Спринт'].begins).toBe(day(-1));
});

it('dependencies: «blocked by» drawn as arrows; a blocker stretched past its dependant shifts it, and the next — one the view filters out too — in one write; set up from the toolbar', async () => {
  const page = await suite.signedIn('timeline.deps@example.com');
  const { cookie, holderId, db, values } = await timelineData(
    page,
    'Стройка',
    { when: { name: 'Сроки', type: 'date' }, blocked: { name: 'Заблокировано', type: 'relation' } },
    [
      ['Фундамент', { when: { start: day(0), end: day(2) } }],
      ['Стены', { when: { start: day(3), end: day(4) } }],
      ['Крыша', { when: day(6) }],
      ['Кровля', { when: day(7) }],
    ],
  );
  const ids = Object.fromEntries((await fetchJson<{ data: Row[] }>(`${S()}/database/${db}/rows`, { cookie })).data.map((r) => [r.data.title, r.id]));
  await fetchJson(`${S()}/row/${ids['Стены']}/cells/blocked`, { method: 'POST', cookie, body: JSON.stringify({ value: [ids['Фундамент']], version: 0 }) });
  await fetchJson(`${S()}/row/${ids['Крыша']}/cells/blocked`, { method: 'POST', cookie, body: JSON.stringify({ value: [ids['Стены']], version: 0 }) });
  await fetchJson(`${S()}/row/${ids['Кровля']}/cells/blocked`, { method: 'POST', cookie, body: JSON.stringify({ value: [ids['Крыша']], version: 0 }) });
  // «Кровля» is filtered out of the view: never read by it, it is shifted all the same.
  const hidden = { op: 'and', rules: [{ fieldId: 'MAIN_FIELD', condition: 'isNot', value: 'Кровля' }] };
  await fetchJson(`${S()}/database/${db}/views`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      layout: { uid: 't2', type: 'timeline', name: 'План', orderedFields: [], filter: hidden, timeline: { startFieldId: 'when', scale: 'day' } },
    }),
  });
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.getByRole('tab', { name: /План/ }).click();
  await eventually(() => daysOf(page, 'Фундамент'), [day(0), day(2)]);
  // No dependencies chosen: no arrows. Chosen in the toolbar (saved with the view): two arrows.
  await expect(page.locator('.db-timeline-arrows').count()).resolves.toBe(0);
  const kept = page.waitForResponse((r) => /\/views\/t2$/.test(r.url()) && r.request().method() === 'POST');
  await page.getByLabel('Зависимости').selectOption({ label: 'Заблокировано' });
  expect((await kept).status()).toBe(200);
  const arrows = () =>
    page
      .locator('.db-timeline-arrows path[data-from]')
      .evaluateAll((all) => all.map((p) => `${p.getAttribute('data-from')}>${p.getAttribute('data-to')}`).sort());
  await eventually(arrows, [`${ids['Фундамент']}>${ids['Стены']}`, `${ids['Стены']}>${ids['Крыша']}`].sort());
  await shoot(page, 'database-timeline-dependencies-1280');

  await expect(bar(page, 'Кровля').count()).resolves.toBe(0);

  // «Фундамент»'s end dragged two days on (to day 4, Стены's last day): «Стены» starts the day
  // after (5–6), «Крыша» after it (7), and the hidden «Кровля» after that (8) — all four in one call.
  await bar(page, 'Фундамент').hover();
  const end = await centreOf(bar(page, 'Фундамент').locator('.db-timeline-handle.is-end'));
  const written = page.waitForResponse((r) => /\/database\/[^/]+\/cells$/.test(r.url()) && r.request().method() === 'POST');
  await pointerDrag(page, end, { x: end.x + 2 * 36, y: end.y });
  const answer = await written;
  expect(answer.status()).toBe(200);
  expect((answer.request().postDataJSON() as { cells: Array<{ rowId: string }> }).cells.map((c) => c.rowId).sort()).toEqual(
    [ids['Фундамент'], ids['Стены'], ids['Крыша'], ids['Кровля']].sort(),
  );
  await eventually(async () => {
    const v = await values();
    return [v['Фундамент'].when, v['Стены'].when, v['Крыша'].when, v['Кровля'].when];
  }, [{ start: day(0), end: day(4) }, { start: day(5), end: day(6) }, day(7), day(8)]);
  await eventually(() => daysOf(page, 'Крыша'), [day(7), day(7)]);
  await page.context().close();
});
