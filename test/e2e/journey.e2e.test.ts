import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signInThroughUi } from '../helpers/browser';
import { browserSuite, newPage, saved } from '../helpers/editorPage';
import type { ServerProcess } from '../helpers/serverProcess';

/*
 * The main journey of issue 5, through the UI only, in real Chromium against a real server:
 * Alice signs in and starts a workspace with the wizard, creates two pages and nests one in the
 * other by dragging; she shares the parent with Bob, who finds it under «Доступные мне» and
 * comments; Alice replies and Bob gets it in his inbox; Alice trashes the page and restores it,
 * publishes it, and a signed-out visitor reads it. (Each part has its own deeper test.)
 */

let server: ServerProcess;
let browser: Browser;
let alice: BrowserContext;
let bob: BrowserContext;

browserSuite((started, launched) => ([server, browser] = [started, launched]));
beforeAll(async () => {
  alice = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  bob = await browser.newContext({ viewport: { width: 1280, height: 900 } });
}, 60_000);

const row = (page: Page, title: string) => page.locator('.tree-row', { has: page.locator('.sidebar-page', { hasText: title }) });
const comments = (page: Page) => page.getByRole('complementary', { name: 'Комментарии' });
const pageMenu = async (page: Page, item: string) => {
  await page.getByRole('button', { name: 'Действия со страницей' }).click();
  await page.getByRole('menuitem', { name: item }).click();
};

it('wizard → pages → nest by drag → share → comment and reply → inbox → trash and restore → publish → anonymous reader', async () => {
  // Alice: sign in, and a workspace from the wizard.
  const a = await alice.newPage();
  await signInThroughUi(a, server, 'alice.journey@example.com');
  await a.locator('.sidebar-workspace').click();
  await a.getByRole('menuitem', { name: 'Создать пространство' }).click();
  await a.getByRole('radio', { name: /Для работы/ }).click();
  await a.getByRole('button', { name: 'Далее' }).click();
  await a.getByRole('radio', { name: '2–5' }).click();
  await a.getByRole('button', { name: 'Далее' }).click();
  await a.getByRole('radio', { name: /Маркетинг/ }).click();
  await a.getByRole('radio', { name: 'Руковожу командой' }).click();
  await a.getByRole('button', { name: 'Далее' }).click();
  await a.getByRole('heading', { name: 'С чего начнём?', level: 1 }).waitFor();
  await a.getByRole('button', { name: 'Далее' }).click();
  await a.getByLabel('Название пространства').fill('Путь команды');
  await a.getByRole('button', { name: 'Далее' }).click();
  await a.getByRole('heading', { name: 'Пригласите коллег', level: 1 }).waitFor();
  await a.getByRole('button', { name: 'Создать пространство' }).click();
  await a.waitForURL(/\/[0-9a-f-]{36}$/);
  await a.locator('.sidebar-workspace-name', { hasText: 'Путь команды' }).waitFor();

  // Two pages; the second dragged into the first.
  const parentUrl = await newPage(a, 'Проект');
  await a.keyboard.type('Цели и сроки.');
  await saved(a);
  await newPage(a, 'Встречи');
  await saved(a);
  await row(a, 'Встречи').dragTo(row(a, 'Проект'));
  await a.locator('.tree-children .sidebar-page', { hasText: 'Встречи' }).waitFor();

  // Shared with Bob (by e-mail, edit access).
  await a.goto(parentUrl);
  await a.getByRole('button', { name: 'Поделиться' }).click();
  const share = a.getByRole('dialog');
  await share.getByLabel('E-mail или имя').fill('bob.journey@example.com');
  await share.getByLabel('Уровень доступа').selectOption('edit');
  await share.getByRole('button', { name: 'Пригласить' }).click();
  await share.locator('.share-member[data-email="bob.journey@example.com"]').waitFor();
  await a.keyboard.press('Escape');

  // Bob: signs in, finds the page under «Доступные мне» in Alice's workspace, and comments.
  const b = await bob.newPage();
  await signInThroughUi(b, server, 'bob.journey@example.com');
  await b.locator('.sidebar-workspace').click();
  await b.getByRole('menuitemradio', { name: /Путь команды/ }).click();
  await b.getByRole('region', { name: 'Доступные мне' }).getByRole('link', { name: 'Проект' }).click();
  await b.waitForURL(parentUrl);
  await b.getByText('Цели и сроки.').waitFor();
  await b.getByRole('button', { name: 'Комментарии' }).click();
  await comments(b).locator('.comments-compose textarea').click();
  await b.keyboard.type('Когда первая встреча?');
  await b.keyboard.press('Enter');
  await comments(b).locator('article.comment', { hasText: 'Когда первая встреча?' }).waitFor();

  // Alice replies in the thread.
  await a.reload();
  await a.getByRole('button', { name: 'Комментарии' }).click();
  const question = comments(a).locator('article.comment', { hasText: 'Когда первая встреча?' });
  await question.getByRole('button', { name: 'Ответить' }).click();
  await a.keyboard.type('В понедельник в 10');
  await a.keyboard.press('Enter');
  await comments(a).locator('article.comment', { hasText: 'В понедельник в 10' }).waitFor();

  // Bob (still in Alice's workspace, where the notification is filed): the reply is in his
  // inbox (opening it asks for the counts again) and leads to it.
  await b.getByRole('button', { name: 'Закрыть комментарии' }).click();
  const entry = b.locator('.inbox-entry');
  await entry.click();
  await entry.locator('.unread-badge').waitFor();
  const inbox = b.getByRole('complementary', { name: 'Входящие' });
  const reply = inbox.locator('.inbox-item', { hasText: 'В понедельник в 10' });
  await reply.waitFor();
  await reply.click();
  await b.waitForURL((u) => u.pathname === new URL(parentUrl).pathname && u.searchParams.has('commentId'));
  await comments(b).locator('article.comment[data-highlighted]', { hasText: 'В понедельник в 10' }).waitFor();

  // Alice: to the trash and back.
  await a.goto(parentUrl);
  await pageMenu(a, 'Удалить в корзину');
  await a.waitForURL((u) => u.pathname === '/');
  await a.getByRole('button', { name: 'Корзина' }).click();
  const trash = a.getByRole('dialog', { name: 'Корзина' });
  await trash.getByRole('button', { name: 'Восстановить: Проект' }).click();
  await trash.getByText('Корзина пуста').waitFor();
  await a.keyboard.press('Escape');
  await a.goto(parentUrl);
  await a.getByText('Цели и сроки.').waitFor();

  // Published, and read by a signed-out visitor.
  await a.getByRole('button', { name: 'Действия со страницей' }).click();
  await a.getByRole('menuitemcheckbox', { name: 'Опубликовать в интернете' }).click();
  const link =
    (await a
      .getByRole('menuitem', { name: /^Копировать публичную ссылку/ })
      .locator('.menu-public-url')
      .textContent()) ?? '';
  const anonymous = await browser.newContext();
  try {
    const visitor = await anonymous.newPage();
    await visitor.goto(link);
    await visitor.getByText('Цели и сроки.').waitFor();
    expect(await visitor.locator('[data-slate-editor]').getAttribute('contenteditable')).toBe('false');
    expect(await visitor.locator('.sidebar').count()).toBe(0);
  } finally {
    await anonymous.close();
  }
}, 180_000);
