import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { cookieOf } from '../helpers/browser';
import { blocksOf, eventually, saved, shoot } from '../helpers/editorPage';
import { fetchJson, namedTeam } from '../helpers/serverProcess';

/*
 * Journey 2 of issue 37 with the keyboard alone (no mouse event from the navigation on): from
 * home, Tab to «Новая страница», a title, a heading by "# ", a bulleted list by "- ", then the
 * share dialog reached from the editor (Shift+F6 to the page's top bar, Tab to «Поделиться») and
 * the page shared with another member of the workspace at read level (the suggestion chosen with
 * ↓ and Enter, the level with ↑).
 */

const suite = browserSuite();

/** What has the focus: its role or tag, and its accessible name as the app gives it. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return '';
    const name = element.getAttribute('aria-label') ?? element.textContent ?? '';
    return `${element.getAttribute('role') ?? element.tagName.toLowerCase()}:${name.trim()}`;
  });

/** Presses `key` until what has the focus is `target` (at most `limit` times). */
async function pressUntil(page: Page, key: string, target: string, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    if ((await focused(page)) === target) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached ${target}; the focus is on ${await focused(page)}`);
}

it('creates a page, writes a heading and a list, and shares it at read level, with the keyboard alone', async () => {
  const page = await suite.signedIn('journey.owner@example.com');
  const cookie = await cookieOf(page);
  const { ids, workspace } = await namedTeam(suite.server, [
    ['journey.owner@example.com', 'Owner', cookie],
    ['journey.reader@example.com', 'Boris Reader'],
  ]);
  await fetchJson(`${suite.server.url}/api/user/settings`, {
    method: 'POST',
    cookie,
    headers: { 'X-App-Type': 'Web' },
    body: JSON.stringify({ key: 'activeWorkspace', value: workspace }),
  });
  // From here on: one navigation, then keys only.
  await page.goto(suite.server.url + '/');
  await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();

  // The skip links come first; then Tab reaches «Новая страница».
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('a:Перейти к содержимому');
  await pressUntil(page, 'Tab', 'button:Новая страница');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => /\/[0-9a-f-]{36}$/.test(url.pathname));
  const editor = page.locator('[data-slate-editor]');
  await page.locator('.page[aria-busy="false"] [data-slate-editor] h1').waitFor();
  // A new page starts with the caret in its title.
  await eventually(() => editor.evaluate((e) => e === document.activeElement), true);
  await page.keyboard.type('Keyboard plan');
  await page.keyboard.press('Enter');
  await page.keyboard.type('# Goals');
  await page.keyboard.press('Enter');
  await page.keyboard.type('- First step');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Second step');
  expect(await blocksOf(page)).toEqual(['heading1Block:0:Goals', 'bulletListBlock:0:First step', 'bulletListBlock:0:Second step']);
  // The editor is named by the page's title.
  await eventually(() => editor.getAttribute('aria-label'), 'Keyboard plan');
  await saved(page);

  // Shift+F6: from the text to the page's top bar; Tab on to «Поделиться».
  await page.keyboard.press('Shift+F6');
  expect(await page.evaluate(() => document.querySelector('.page-topbar')?.contains(document.activeElement))).toBe(true);
  await pressUntil(page, 'Tab', 'button:Поделиться', 15);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  const field = dialog.getByLabel('E-mail или имя');
  await field.waitFor();
  // The dialog puts the focus in its field (or on itself first: then Tab gets there).
  await pressUntil(page, 'Tab', `textarea:${await field.getAttribute('aria-label')}`, 10);

  // The member by name: ↓ highlights the suggestion (named by the field), Enter chooses it.
  await page.keyboard.type('boris');
  const option = dialog.getByRole('option', { name: /Boris Reader/ });
  await option.waitFor();
  await page.keyboard.press('ArrowDown');
  const optionId = await option.getAttribute('id');
  expect(await field.getAttribute('aria-activedescendant')).toBe(optionId);
  expect(await option.getAttribute('aria-selected')).toBe('true');
  await page.keyboard.press('Enter');
  await dialog.locator('.share-chip.is-member', { hasText: 'Boris Reader' }).waitFor();

  // The level: Tab to it, ↑ from editing to «Просмотр» (read); Tab to «Пригласить», Enter.
  await pressUntil(page, 'Tab', `select:${await dialog.getByLabel('Уровень доступа').getAttribute('aria-label')}`, 5);
  await page.keyboard.press('ArrowUp');
  expect(await dialog.getByLabel('Уровень доступа').inputValue()).toBe('read');
  await pressUntil(page, 'Tab', 'button:Пригласить', 5);
  await shoot(page, 'a11y-journey-share-1280');
  await page.keyboard.press('Enter');
  const row = dialog.locator('.share-member[data-email="journey.reader@example.com"]');
  await row.waitFor();
  expect(await row.locator('select').inputValue()).toBe('read');

  // The server has it: Boris reads the page.
  const pageId = page.url().split('/').pop()!;
  const members = await fetchJson<{ data: { member: string; level: string }[] }>(`${suite.server.url}/api/v3/spaces/element/${pageId}/members`, {
    cookie,
    headers: { 'X-App-Type': 'Web' },
  });
  expect(members.data.find((m) => m.member === ids['Boris Reader'])?.level).toBe('read');
  await page.context().close();
});
