import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe';
import { signInThroughUi } from '../helpers/browser';
import { browserSuite, newPage, saved, shoot } from '../helpers/editorPage';
import type { ServerProcess } from '../helpers/serverProcess';

/*
 * Date mentions and reminders in real Chromium (issue 39 §2): `@завтра` and `@пятница 15:00`
 * offered by the @ picker and made chips; «Напомнить» makes a reminder the server keeps; one due
 * in a moment reaches the inbox live, and its item opens the page at the block; Backspace removes
 * a chip whole; light, dark and 375 px.
 */

let server: ServerProcess;
let browser: Browser;

browserSuite((started, launched) => ([server, browser] = [started, launched]));

const HEADERS = { 'X-App-Type': 'Web', 'Content-Type': 'application/json' };
const picker = (page: Page) => page.getByRole('listbox', { name: 'Ссылка на страницу' });
const chips = (page: Page) => page.locator('[data-slate-editor] time.date-mention');

/** The label the app writes for a day (the browser's clock and zone). */
const labelIn = (page: Page, daysAhead: number, time = '') =>
  page.evaluate(
    ([days, at]) => {
      const d = new Date();
      d.setDate(d.getDate() + days);
      const text = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric' }).format(d).replace(/\s*г\.$/, '');
      return at ? `${text}, ${at}` : text;
    },
    [daysAhead, time] as const,
  );

it('@завтра and a reminder from the @ picker; a reminder due now reaches the inbox live and leads to its block', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'dates@example.com');
  const url = await newPage(page, 'Планы на неделю');
  const pageId = url.split('/').pop()!;

  await page.keyboard.type('Созвон @завтра');
  const tomorrow = await labelIn(page, 1);
  await picker(page).getByRole('option', { name: tomorrow, exact: true }).waitFor();
  await expect(picker(page).getByRole('option').first().innerText()).resolves.toBe(tomorrow);
  await page.screenshot({ path: '.tmp/shots/date-mention-picker-1280.png' });
  await page.keyboard.press('Enter');
  await chips(page).filter({ hasText: tomorrow }).waitFor();
  await page.keyboard.type('и отчёт @напомнить завтра 15:00');
  const reminderOption = picker(page).getByRole('option', { name: `Напомнить: ${await labelIn(page, 1, '15:00')}` });
  await reminderOption.waitFor();
  await page.keyboard.press('Enter');
  await page.locator('[data-slate-editor] time.date-mention-reminder').waitFor();
  await page.keyboard.type('готово.');
  await expect(page.locator('[data-slate-editor] p').first().textContent()).resolves.toBe(
    `Созвон ${tomorrow} и отчёт ${await labelIn(page, 1, '15:00')} готово.`,
  );
  await saved(page);

  // The server keeps the reminder, for tomorrow 15:00 on this clock.
  const listed = await page.evaluate(async () => (await (await fetch('/api/v3/spaces/reminders', { headers: { 'X-App-Type': 'Web' } })).json()).data);
  const expectedAt = await page.evaluate(() => {
    const d = new Date();
    d.setDate(d.getDate() + 1);
    d.setHours(15, 0, 0, 0);
    return d.toISOString();
  });
  expect(listed).toEqual([expect.objectContaining({ pageId, remindAt: expectedAt, label: await labelIn(page, 1, '15:00') })]);

  // After a reload: the chips as they were.
  await page.reload();
  await page.locator('.page[aria-busy="false"] [data-slate-editor] time.date-mention').first().waitFor();
  await expect(axeViolations(page, {}, page.locator('[data-slate-editor]'))).resolves.toEqual([]);
  await shoot(page, 'date-mentions-1280');

  // A reminder two seconds ahead, written through the API as any client would: the inbox hears of it live.
  const soon = await page.evaluate(
    async ([id, headers]) => {
      const at = new Date(Date.now() + 2_000).toISOString();
      const res = await fetch('/api/v3/spaces/block', {
        method: 'POST',
        headers,
        body: JSON.stringify({
          pageId: id,
          type: 'text',
          data: { tokens: [{ text: 'Позвонить в банк ' }, { text: 'сейчас', date: { start: '2026-12-06T12:00', remindAt: at } }] },
        }),
      });
      return { status: res.status, id: ((await res.json()) as { data: { id: string } }).data.id };
    },
    [pageId, HEADERS] as const,
  );
  expect(soon.status).toBe(201);
  const entry = page.locator('.inbox-entry');
  await entry.locator('.unread-badge').waitFor({ timeout: 20_000 });
  await entry.click();
  const inbox = page.getByRole('complementary', { name: 'Входящие' });
  const item = inbox.locator('.inbox-item').filter({ hasText: 'Напоминание: сейчас' });
  await item.waitFor();
  await shoot(page, 'date-mentions-inbox-1280');
  // The item leads to the page at the block: `?block=` (taken off again once the block is shown, so it is caught as it is pushed).
  await page.evaluate(() => {
    const pushed: string[] = [];
    (window as unknown as { pushedUrls: string[] }).pushedUrls = pushed;
    const push = history.pushState.bind(history);
    history.pushState = (data, unused, url) => {
      pushed.push(String(url));
      push(data, unused, url);
    };
  });
  await item.locator('.inbox-item-main').click();
  await page.waitForFunction((id) => (window as unknown as { pushedUrls: string[] }).pushedUrls.some((url) => url.endsWith(`?block=${id}`)), soon.id);
  await page.locator(`[data-block-id="${soon.id}"]`).waitFor();
  await context.close();
}, 120_000);

it('Backspace removes a chip whole; dark and a phone', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 760 }, colorScheme: 'dark' });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'dates-phone@example.com');
  await newPage(page, 'Дедлайны');
  // Written on a phone.
  await page.setViewportSize({ width: 375, height: 760 });
  await page.keyboard.type('Сдать @пятница 15:00');
  await picker(page).getByRole('option').first().waitFor();
  await page.keyboard.press('Enter');
  await page.keyboard.type('и @напомнить послезавтра');
  await picker(page)
    .getByRole('option', { name: /^Напомнить: / })
    .waitFor();
  await page.keyboard.press('Enter');
  await expect(chips(page).count()).resolves.toBe(2);
  await saved(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(axeViolations(page, {}, page.locator('[data-slate-editor]'))).resolves.toEqual([]);
  await shoot(page, 'date-mentions-dark-375');
  // After the second chip is a space the picker put there: Backspace takes it, the next takes the chip.
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await expect(chips(page).count()).resolves.toBe(1);
  await expect(page.locator('[data-slate-editor] p').first().textContent()).resolves.toMatch(/^Сдать .+, 15:00 и $/);
  await context.close();
}, 90_000);
