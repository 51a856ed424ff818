import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { pointerDrag, centreOf } from '../helpers/pointerDrag';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * The Calendar view of a database (issue 17) in real Chromium against the real server: added from
 * the «+» after the tabs, its items on the days of a date field (Monday first), an item dragged to
 * another day and its end dragged to make a range (each one cell write, seen in a second window),
 * an undated row dragged onto a day, a row made with a day's «+», the week shown and kept — and a
 * reader who can look but not move.
 */

const suite = browserSuite();

const S = () => `${suite.server.url}/api/v3/spaces`;

/** This month's day `d` as YYYY-MM-DD (the calendar opens on today's month). */
const now = new Date();
const day = (d: number) => `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

type Row = { id: string; data: { title: string; values: { due?: unknown } } };

/** A Database page with a date field and rows, made through the API. */
async function calendarData(page: Page, title: string, rows: Array<[string, unknown]>) {
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'due', field: { name: 'Срок', type: 'date' } }) });
  await fetchJson(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: rows.map(([name, due]) => ({ title: name, values: due ? { due } : {} })) }),
  });
  const dates = async () =>
    Object.fromEntries((await fetchJson<{ data: Row[] }>(`${S()}/database/${db}/rows`, { cookie })).data.map((r) => [r.data.title, r.data.values.due ?? null]));
  return { cookie, holderId: holder.data.id, db, dates };
}

const dayCell = (page: Page, date: string) => page.locator(`.db-calendar .fc-daygrid-day[data-date="${date}"]`);
const titlesOn = (page: Page, date: string) => dayCell(page, date).locator('.db-calendar-title').allTextContents();
const event = (page: Page, title: string) => page.locator('.db-calendar .fc-event', { hasText: title });
const cellSaved = (page: Page) => page.waitForResponse((r) => /\/row\/[^/]+\/cells\/due$/.test(r.url()) && r.request().method() === 'POST');

it('a calendar added from «+»: items on their days, Monday first; moved to another day, stretched into a range, an undated row given a day, a row made on a day — each saved and seen in another window; the week kept, a row made on an hour of it', async () => {
  const page = await suite.signedIn('calendar.planner@example.com');
  const { holderId, dates } = await calendarData(page, 'План', [
    ['Созвон', day(10)],
    ['Отпуск', { start: day(12), end: day(14) }],
    ['Идея', null],
  ]);
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.locator('.db-scroll').waitFor();
  await page.getByRole('button', { name: 'Добавить вид' }).click();
  await page.getByRole('menuitem', { name: 'Календарь' }).click();
  await page.getByRole('tab', { name: /Календарь/, selected: true }).waitFor();
  await eventually(() => titlesOn(page, day(10)), ['Созвон']);
  expect(await titlesOn(page, day(12))).toEqual(['Отпуск']);
  // Monday first (ru); the range spans its three days in one bar; the undated row listed apart.
  expect((await page.locator('.db-calendar .fc-col-header-cell').allTextContents()).map((t) => t.trim())).toEqual(['пн', 'вт', 'ср', 'чт', 'пт', 'сб', 'вс']);
  // (In one bar, or two where a week ends inside it: three days wide in all.)
  const barWidth = await event(page, 'Отпуск').evaluateAll((bars) => bars.reduce((sum, b) => sum + b.getBoundingClientRect().width, 0));
  const dayWidth = (await dayCell(page, day(12)).boundingBox())!.width;
  expect(Math.round(barWidth / dayWidth)).toBe(3);
  expect(await page.getByRole('complementary', { name: 'Без даты' }).getByRole('listitem').allTextContents()).toEqual(['Идея']);
  await shoot(page, 'database-calendar-1280');

  // Another window on the same calendar.
  const other = await page.context().newPage();
  await other.goto(`${suite.server.url}/${holderId}`);
  await other.getByRole('tab', { name: /Календарь/ }).click();
  await eventually(() => titlesOn(other, day(10)), ['Созвон']);

  // «Созвон» dragged from the 10th to the 17th: one write, the day alone still a day.
  let saved = cellSaved(page);
  await pointerDrag(page, await centreOf(event(page, 'Созвон')), await centreOf(dayCell(page, day(17))));
  expect((await saved).status()).toBe(200);
  await eventually(() => titlesOn(page, day(17)), ['Созвон']);
  expect(await titlesOn(page, day(10))).toEqual([]);
  expect((await dates())['Созвон']).toBe(day(17));
  await eventually(() => titlesOn(other, day(17)), ['Созвон']);

  // Its end dragged to the 19th: a range of days.
  await event(page, 'Созвон').hover();
  const handle = event(page, 'Созвон').locator('.fc-event-resizer-end');
  saved = cellSaved(page);
  await pointerDrag(page, await centreOf(handle), await centreOf(dayCell(page, day(19))));
  expect((await saved).status()).toBe(200);
  await eventually(async () => (await dates())['Созвон'], { start: day(17), end: day(19) });

  // The undated «Идея» dragged onto the 20th: dated, out of the list.
  saved = cellSaved(page);
  await pointerDrag(page, await centreOf(page.getByRole('complementary', { name: 'Без даты' }).getByText('Идея')), await centreOf(dayCell(page, day(20))));
  expect((await saved).status()).toBe(200);
  await eventually(() => titlesOn(page, day(20)), ['Идея']);
  expect((await dates())['Идея']).toBe(day(20));
  await eventually(() => page.getByRole('complementary', { name: 'Без даты' }).getByRole('listitem').count(), 0);
  await eventually(() => titlesOn(other, day(20)), ['Идея']);

  // A row made with the 25th's «+»: dated that day, opened beside the calendar.
  await dayCell(page, day(25)).hover();
  const made = page.waitForResponse((r) => /\/rows$/.test(r.url()) && r.request().method() === 'POST');
  await dayCell(page, day(25))
    .getByRole('button', { name: /Новая строка на/ })
    .click();
  expect((await made).status()).toBe(201);
  await page.getByRole('dialog').waitFor();
  await page.keyboard.press('Escape');
  expect(Object.values(await dates()).filter((due) => due === day(25))).toHaveLength(1);

  // The week: shown, kept in the view (after a reload too).
  const kept = page.waitForResponse((r) => /\/views\/[^/]+$/.test(r.url()) && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Неделя' }).click();
  expect((await kept).status()).toBe(200);
  await page.locator('.db-calendar .fc-timeGridWeek-view').waitFor();
  await page.reload();
  await page.getByRole('tab', { name: /Календарь/ }).click();
  await page.locator('.db-calendar .fc-timeGridWeek-view').waitFor();

  // A click on 10:00 of today's column makes a row at that moment (in the browser's time zone), opened beside the calendar.
  const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  const column = await page.locator(`.db-calendar .fc-timegrid-col[data-date="${today}"]`).boundingBox();
  const slot = page.locator('.db-calendar .fc-timegrid-slot-lane[data-time="10:00:00"]');
  await slot.scrollIntoViewIfNeeded();
  const hour = await slot.boundingBox();
  const atTen = page.waitForResponse((r) => /\/rows$/.test(r.url()) && r.request().method() === 'POST');
  await page.mouse.click(column!.x + column!.width / 2, hour!.y + hour!.height / 2);
  const answer = await atTen;
  expect(answer.status()).toBe(201);
  const moment = new Date(`${today}T10:00:00`).toISOString();
  expect((answer.request().postDataJSON() as { rows: Array<{ values: { due: string } }> }).rows[0].values.due).toBe(moment);
  await page.getByRole('dialog').waitFor();
  await page.keyboard.press('Escape');
  expect(Object.values(await dates()).filter((due) => typeof due === 'string' && new Date(due).toISOString() === moment)).toHaveLength(1);
  await page.context().close();
});

it('a reader sees the calendar but moves and makes nothing; a database without a date field is offered one', async () => {
  const owner = await suite.signedIn('calendar.owner@example.com');
  const { cookie, holderId, db, dates } = await calendarData(owner, 'Общий календарь', [
    ['Встреча', day(8)],
    ...['А', 'Б', 'В', 'Г', 'Д'].map((name): [string, unknown] => [`Задача ${name}`, day(9)]),
  ]);
  await fetchJson(`${S()}/database/${db}/views`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ layout: { uid: 'c1', type: 'calendar', name: 'Календарь', orderedFields: [], calendar: { fieldId: 'due' } } }),
  });
  // The reader on a phone, in the dark.
  const reader = await suite.signedIn('calendar.reader@example.com');
  await reader.setViewportSize({ width: 375, height: 800 });
  await reader.emulateMedia({ colorScheme: 'dark' });
  const readerId = (await fetchJson<{ data: { id: string } }>(`${suite.server.url}/api/user/current`, { cookie: await cookieOf(reader) })).data.id;
  await fetchJson(`${S()}/element/${holderId}/member/add`, { method: 'POST', cookie, body: JSON.stringify([{ userId: readerId, accessLevel: 'read' }]) });
  // The calendar first among the views: the page's opening asks for its days' rows (index.html's
  // script), with the date alone; the calendar draws that answer, and reads once more when the
  // page joins its live channel (as every view does: what changed between the read and the join).
  // Without the early answer taken, a third read would be sent.
  await fetchJson(`${S()}/database/${db}/views/c1/move`, { method: 'POST', cookie, body: JSON.stringify({ placeAfter: null }) });
  const ranged: string[] = [];
  reader.on('request', (r) => r.url().includes('range=') && ranged.push(decodeURIComponent(r.url())));
  // What the reader asked the API for, in order (printed when a read too many was seen).
  const started = Date.now();
  const asked: string[] = [];
  reader.on(
    'request',
    (r) => r.url().includes('/api/') && asked.push(`${Date.now() - started} ms ${r.method()} ${decodeURIComponent(r.url()).replace(suite.server.url, '')}`),
  );
  reader.on('websocket', (socket) => {
    asked.push(`${Date.now() - started} ms socket opened`);
    socket.on('close', () => asked.push(`${Date.now() - started} ms socket closed`));
  });
  await reader.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => titlesOn(reader, day(8)), ['Встреча']);
  await reader.waitForTimeout(500);
  if (ranged.length > 2) console.log(`${ranged.length} reads of the days' rows:\n${asked.join('\n')}`);
  expect(ranged.length).toBeLessThanOrEqual(2);
  expect(ranged[0]).toContain('fields=["due"]');
  // A full day: three drawn, «+2» lists the other two (by the calendar's order: by title), a click opens one.
  await eventually(() => titlesOn(reader, day(9)), ['Задача А', 'Задача Б', 'Задача В']);
  await dayCell(reader, day(9))
    .getByRole('button', { name: /^Ещё 2 строки/ })
    .click();
  await eventually(() => reader.locator('.db-calendar-more-list .menu-item').allTextContents(), ['Задача Г', 'Задача Д']);
  await reader.locator('.db-calendar-more-list .menu-item', { hasText: 'Задача Д' }).click();
  await reader.getByRole('dialog').getByText('Задача Д').first().waitFor();
  await reader.keyboard.press('Escape');
  await shoot(reader, 'database-calendar-375-dark');
  await expect(reader.getByRole('button', { name: /Новая строка на/ }).count()).resolves.toBe(0);
  const writes: string[] = [];
  reader.on('request', (r) => r.method() === 'POST' && /\/cells\/|\/rows$/.test(r.url()) && writes.push(r.url()));
  await pointerDrag(reader, await centreOf(event(reader, 'Встреча')), await centreOf(dayCell(reader, day(15))));
  await reader.waitForTimeout(300);
  expect(writes).toEqual([]);
  expect((await dates())['Встреча']).toBe(day(8));
  await eventually(() => titlesOn(reader, day(8)), ['Встреча']);

  // A new database (no date field): its calendar asks for one, and «Добавить поле «Дата»» makes it.
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Без дат' }),
  });
  const bare = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  await fetchJson(`${S()}/database/${bare}/views`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ layout: { uid: 'c2', type: 'calendar', name: 'Календарь', orderedFields: [] } }),
  });
  await owner.goto(`${suite.server.url}/${holder.data.id}`);
  await owner.getByRole('tab', { name: /Календарь/ }).click();
  await owner.getByRole('button', { name: 'Добавить поле «Дата»' }).click();
  await owner.locator('.db-calendar .fc-daygrid-day').first().waitFor();
  const block = await fetchJson<{
    data: { data: { config: { fields: Record<string, { type: string }> }; view: { layouts: Array<{ uid: string; calendar?: { fieldId: string } | null }> } } };
  }>(`${S()}/block/${bare}`, { cookie });
  const calendar = block.data.data.view.layouts.find((l) => l.uid === 'c2')?.calendar;
  expect(calendar && block.data.data.config.fields[calendar.fieldId]?.type).toBe('date');
});
