import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe';
import { signInThroughUi } from '../helpers/browser';
import { blocksOf, browserSuite, newPage, savedBlocksOf } from '../helpers/editorPage';
import type { ServerProcess } from '../helpers/serverProcess';

/*
 * Toggles in real Chromium against the real server (issue 39 §2): `>` and a space make one, Enter
 * writes inside it, Ctrl+Enter and the triangle fold and unfold it, the folded blocks are kept
 * (saved, searchable) but not drawn, and whether it is open is each person's own, remembered
 * after a reload. Light, dark and a 375 px phone looked at (.tmp/shots/).
 */

let server: ServerProcess;
let browser: Browser;

browserSuite((started, launched) => ([server, browser] = [started, launched]));

const visibleTexts = (page: Page) =>
  page
    .locator('[data-slate-editor] [data-block-id]:not([data-folded-away])')
    .evaluateAll((all) =>
      all
        .filter((el) => !el.closest('[data-folded-away]') && el.getAttribute('data-block-id')?.startsWith('pageHeading') !== true)
        .map((el) => (el.textContent ?? '').trim()),
    );

it('made by `>`, written inside, folded by Ctrl+Enter and the triangle, open or closed for each person after a reload', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'toggles@example.com');
  const url = await newPage(page, 'Вопросы и ответы');

  await page.keyboard.type('> Как вернуть заказ?');
  await page.locator('.block-toggle').waitFor();
  // Made here: open; Enter writes inside it.
  await expect(page.locator('.block-toggle').getByRole('button', { name: 'Свернуть' }).count()).resolves.toBe(1);
  await page.keyboard.press('Enter');
  await page.keyboard.type('Напишите в поддержку в течение 14 дней.');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Деньги придут за 3 дня.');
  await expect(blocksOf(page)).resolves.toEqual([
    'toggleBlock:0:Как вернуть заказ?',
    'textBlock:1:Напишите в поддержку в течение 14 дней.',
    'textBlock:1:Деньги придут за 3 дня.',
  ]);

  // Ctrl+Enter in the toggle's line folds it: its text stays, what is inside is not drawn.
  await page.getByText('Как вернуть заказ?').click();
  await page.keyboard.press('Control+Enter');
  await expect(visibleTexts(page)).resolves.toEqual(['Как вернуть заказ?']);
  // Enter at the end of the closed toggle: another toggle after what is folded.
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Сколько стоит доставка?');
  // What is folded is drawn as empty hidden elements, and kept: the server has it.
  await expect(blocksOf(page)).resolves.toEqual(['toggleBlock:0:Как вернуть заказ?', 'textBlock:1:', 'textBlock:1:', 'toggleBlock:0:Сколько стоит доставка?']);
  await expect(savedBlocksOf(page, url.split('/').pop()!)).resolves.toEqual([
    'toggle:0:Как вернуть заказ?',
    'text:1:Напишите в поддержку в течение 14 дней.',
    'text:1:Деньги придут за 3 дня.',
    'toggle:0:Сколько стоит доставка?',
  ]);

  // The first opened by its triangle; after a reload, as it was left (the server keeps it for this person).
  await page.locator('.block-toggle').getByRole('button', { name: 'Развернуть' }).first().click();
  await expect(visibleTexts(page)).resolves.toEqual([
    'Как вернуть заказ?',
    'Напишите в поддержку в течение 14 дней.',
    'Деньги придут за 3 дня.',
    'Сколько стоит доставка?',
  ]);
  await page.waitForTimeout(300);
  await page.reload();
  await page.locator('.page[aria-busy="false"] .block-toggle').first().waitFor();
  await page.locator('.block-toggle').getByRole('button', { name: 'Свернуть' }).first().waitFor();
  await expect(visibleTexts(page)).resolves.toEqual([
    'Как вернуть заказ?',
    'Напишите в поддержку в течение 14 дней.',
    'Деньги придут за 3 дня.',
    'Сколько стоит доставка?',
  ]);
  await expect(axeViolations(page, {}, page.locator('[data-slate-editor]'))).resolves.toEqual([]);
  await page.screenshot({ path: '.tmp/shots/toggles-1280.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: '.tmp/shots/toggles-dark-1280.png' });
  await expect(axeViolations(page, {}, page.locator('[data-slate-editor]'))).resolves.toEqual([]);

  // Search finds what is folded.
  const pageId = url.split('/').pop()!;
  const found = await page.evaluate(async () => {
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`/api/v3/spaces/search/text?q=${encodeURIComponent('поддержку')}`, {
        headers: { 'X-App-Type': 'Web' },
        credentials: 'same-origin',
      });
      const body = (await res.json()) as { data: { page: { id: string } }[] };
      if (body.data.length > 0) return body.data.map((hit) => hit.page.id);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return [];
  });
  expect(found).toContain(pageId);

  // Another reader of the page: closed for them (nothing of the first person's folds).
  // (Signed in before being invited: an invitation's first sign-in lands elsewhere, invitedLanding.e2e.)
  const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const phone = await other.newPage();
  await signInThroughUi(phone, server, 'toggles-reader@example.com');
  const share = await page.evaluate(async (id) => {
    const res = await fetch(`/api/v3/spaces/element/${id}/member/add`, {
      method: 'POST',
      headers: { 'X-App-Type': 'Web', 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify([{ email: 'toggles-reader@example.com', accessLevel: 'read' }]),
    });
    return res.status;
  }, pageId);
  expect(share).toBe(200);
  // Read on a phone.
  await phone.setViewportSize({ width: 375, height: 800 });
  await phone.goto(url);
  await phone.locator('.page[aria-busy="false"] .block-toggle').first().waitFor();
  await expect(visibleTexts(phone)).resolves.toEqual(['Как вернуть заказ?', 'Сколько стоит доставка?']);
  // A reader opens it for themselves.
  await phone.locator('.block-toggle').getByRole('button', { name: 'Развернуть' }).first().click();
  await expect(visibleTexts(phone)).resolves.toContain('Деньги придут за 3 дня.');
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await phone.screenshot({ path: '.tmp/shots/toggles-375.png' });
  await other.close();
  await context.close();
}, 90_000);

it('closed over the caret, the caret goes to its line; ← across it goes past what it folds; a search result folded in one opens it', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'toggles-caret@example.com');
  const url = await newPage(page, 'Свёрнутое');
  await page.keyboard.type('> Вопрос');
  await page.locator('.block-toggle').waitFor();
  await page.keyboard.press('Enter');
  await page.keyboard.type('Ответ');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.type('После');
  const answer = await page.locator('[data-slate-editor] p.block[data-depth="1"]').getAttribute('data-block-id');
  await page.getByText('Ответ', { exact: true }).click();
  await page.keyboard.press('End');

  // The caret in the answer; the triangle closes the toggle (a click on it leaves the caret where it was):
  // typed keys go to the toggle's line, shown, not into the answer folded away.
  await page.locator('.block-toggle').getByRole('button', { name: 'Свернуть' }).click();
  await expect(visibleTexts(page)).resolves.toEqual(['Вопрос', 'После']);
  await expect(page.locator(`[data-block-id="${answer}"]`).evaluate((el) => el.innerHTML)).resolves.toBe('');
  await page.keyboard.type('?');
  // ← from the start of the line after it goes past what it folds, to the end of its line.
  await page.getByText('После', { exact: true }).click();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.type('!');
  await expect(savedBlocksOf(page, url.split('/').pop()!)).resolves.toEqual(['toggle:0:Вопрос?!', 'text:1:Ответ', 'text:0:После']);
  await expect(visibleTexts(page)).resolves.toEqual(['Вопрос?!', 'После']);

  // A search result's address leads to the answer: the toggle opens, the answer is marked.
  await page.goto(`${url}?block=${answer}`);
  await page.locator(`[data-block-id="${answer}"].is-found`).waitFor();
  await expect(visibleTexts(page)).resolves.toEqual(['Вопрос?!', 'Ответ', 'После']);
  await context.close();
}, 60_000);
