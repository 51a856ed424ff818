import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newPage, saved, shoot, twoPeopleSuite } from '../helpers/editorPage';
import type { ServerProcess } from '../helpers/serverProcess';

/*
 * The inbox in real Chromium against the real server: Alice shares a page with Bob and mentions
 * him in a comment (through the API); Bob sees the unread badge, opens «Входящие», clicks the
 * notification and lands on the page with the comment highlighted; «Прочитать все» takes the
 * badge away. Screenshots at 1280 and 375 px, light and dark.
 */

const HEADERS = { 'X-App-Type': 'Web' };

const people = twoPeopleSuite('alice@example.com', 'bob@example.com');
let server: ServerProcess;
let browser: Browser;
let alice: BrowserContext;
let bob: BrowserContext;

beforeAll(() => {
  [server, browser, alice, bob] = [people.server(), people.browser(), people.first(), people.second()];
});

const inbox = (page: Page) => page.getByRole('complementary', { name: 'Входящие' });
const entry = (page: Page) => page.locator('.inbox-entry');

/** Alice's page shared with Bob, and a comment of hers mentioning him; returns the page and comment ids. */
async function mentionBob(title: string, text: string): Promise<{ pageId: string; commentId: string }> {
  const page = await alice.newPage();
  await page.goto(server.url + '/');
  const url = await newPage(page, title);
  await saved(page);
  const pageId = new URL(url).pathname.slice(1);
  const shared = await page.request.post(`${server.url}/api/v3/spaces/element/${pageId}/member/add`, {
    data: [{ email: 'bob@example.com', accessLevel: 'read' }],
    headers: HEADERS,
  });
  expect(shared.status()).toBe(200);
  const bobId = ((await (await bob.request.get(`${server.url}/api/user/current`, { headers: HEADERS })).json()) as { data: { id: string } }).data.id;
  const posted = await page.request.post(`${server.url}/api/v3/spaces/element/${pageId}/comments`, {
    data: { content: [{ text: 'Посмотри, ' }, { text: '@Боб', mention: { userId: bobId } }, { text: ', пожалуйста: ' + text }] },
    headers: HEADERS,
  });
  expect(posted.status()).toBe(201);
  const commentId = ((await posted.json()) as { data: { id: string } }).data.id;
  await page.close();
  return { pageId, commentId };
}

/** Bob's app in the workspace the notification is filed under (the switcher shows that workspace's badge). */
async function openInWorkspaceWithUnread(page: Page) {
  await page.goto(server.url + '/');
  await entry(page).waitFor();
  await page.waitForTimeout(500);
  if ((await entry(page).locator('.unread-badge').count()) === 0) {
    await page.locator('.sidebar-workspace').click();
    const row = page.getByRole('menuitemradio').filter({ has: page.locator('.unread-badge') });
    await row.first().click();
  }
}

it('a mention reaches the inbox, leads to the comment, and reading all clears the badge', async () => {
  const { pageId, commentId } = await mentionBob('План запуска', 'сроки в конце');
  const page = await bob.newPage();
  await openInWorkspaceWithUnread(page);
  // Two: the page shared with him, and the mention.
  await expect(entry(page).locator('.unread-badge').innerText()).resolves.toBe('2');
  // Named by what it shows (the title and the number), the number told by its description.
  await page.getByRole('button', { name: 'Входящие 2', exact: true }).waitFor();
  expect(await entry(page).evaluate((e) => document.getElementById(e.getAttribute('aria-describedby') ?? '')?.textContent)).toBe('2 непрочитанных уведомления');

  await entry(page).click();
  const item = inbox(page).locator('.inbox-item').first();
  await item.waitFor();
  await expect(item.locator('.inbox-item-text').innerText()).resolves.toMatch(/упомянул\(а\) вас в комментарии/);
  await item.getByText('План запуска').waitFor();
  await item.getByText('alice', { exact: true }).waitFor();
  expect(await item.locator('.inbox-item-excerpt').innerText()).toContain('сроки в конце');
  expect(await item.locator('.inbox-item-time').innerText()).toBe('только что');
  await shoot(page, 'inbox-1280-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'inbox-1280-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // The notification opens its page with the comment highlighted, and is read now; the panel closes.
  await item.locator('.inbox-item-main').click();
  await page.waitForURL(`**/${pageId}?commentId=${commentId}`);
  await page.locator(`article.comment[data-comment-id="${commentId}"][data-highlighted]`).waitFor();
  await inbox(page).waitFor({ state: 'detached' });
  await entry(page).locator('.unread-badge', { hasText: /^1$/ }).waitFor();

  // A second mention; «Прочитать все» takes the badge away.
  await mentionBob('Бюджет', 'цифры за квартал');
  // Opening the panel asks for the counts again (no refetch on window focus: spec).
  await entry(page).click();
  await entry(page).locator('.unread-badge', { hasText: /^3$/ }).waitFor();
  await inbox(page).locator('.inbox-item.is-unread').first().waitFor();
  await inbox(page).getByRole('tab', { name: 'Непрочитанные' }).click();
  // The tab loads its own list: wait for it before counting.
  await inbox(page).locator('[role="tab"][aria-selected="true"]', { hasText: 'Непрочитанные' }).waitFor();
  await inbox(page).locator('.inbox-item.is-unread').nth(2).waitFor();
  await expect(inbox(page).locator('.inbox-item').count()).resolves.toBe(3);
  await inbox(page).getByRole('button', { name: 'Прочитать все' }).click();
  await inbox(page).getByText('Непрочитанных нет — всё прочитано').waitFor();
  await entry(page).locator('.unread-badge').waitFor({ state: 'detached' });
  await inbox(page).getByRole('tab', { name: 'Все' }).click();
  await inbox(page).locator('.inbox-item').nth(3).waitFor();
  await expect(inbox(page).locator('.inbox-item.is-unread').count()).resolves.toBe(0);

  // Pinned, it stays docked beside the page across navigation.
  await inbox(page).getByRole('button', { name: 'Закрепить панель' }).click();
  await inbox(page).locator('.inbox-item-main').first().click();
  await page.waitForURL(/commentId=/);
  await expect(inbox(page).getAttribute('class')).resolves.toContain('is-docked');
  await shoot(page, 'inbox-1280-pinned');
  await inbox(page).getByRole('button', { name: 'Открепить панель' }).click();
  await page.keyboard.press('Escape');
  await inbox(page).waitFor({ state: 'detached' });

  // Per-page settings from the page menu.
  await page.getByRole('button', { name: 'Действия со страницей' }).click();
  await page.getByRole('menuitem', { name: 'Уведомления' }).click();
  const dialog = page.getByRole('dialog', { name: 'Уведомления' });
  const mentions = dialog.getByRole('switch', { name: /Упоминания/ });
  await expect(mentions.getAttribute('aria-checked')).resolves.toBe('true');
  await mentions.click();
  await dialog.locator('#notify-mentions[aria-checked="false"]:not([disabled])').waitFor();
  const shownId = new URL(page.url()).pathname.slice(1);
  const stored = await page.request.get(`${server.url}/api/v3/spaces/notifications/${shownId}/settings`, { headers: HEADERS });
  expect(((await stored.json()) as { data: { settings: { mentions: boolean } } }).data.settings.mentions).toBe(false);
  await shoot(page, 'inbox-settings-1280');
  await dialog.getByRole('button', { name: 'Готово' }).click();
  await page.close();
}, 90_000);

it('is a full-screen sheet on a phone', async () => {
  const phone = await browser.newContext({ viewport: { width: 375, height: 780 }, storageState: await bob.storageState() });
  const page = await phone.newPage();
  await mentionBob('Заметки', 'ещё одно упоминание');
  await page.goto(server.url + '/');
  await page.getByRole('button', { name: 'Открыть меню' }).click();
  await entry(page).waitFor();
  await page.waitForTimeout(500);
  if ((await entry(page).locator('.unread-badge').count()) === 0) {
    await page.locator('.sidebar-workspace').click();
    await page
      .getByRole('menuitemradio')
      .filter({ has: page.locator('.unread-badge') })
      .first()
      .click();
  }
  await entry(page).locator('.unread-badge').waitFor();
  await entry(page).click();
  const item = inbox(page).locator('.inbox-item').first();
  await item.waitFor();
  await shoot(page, 'inbox-375-light');
  expect(await inbox(page).boundingBox()).toMatchObject({ x: 0, y: 0, width: 375 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'inbox-375-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.keyboard.press('Escape');
  await inbox(page).waitFor({ state: 'detached' });
  await phone.close();
}, 60_000);
