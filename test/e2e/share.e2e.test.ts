import type { BrowserContext, Page } from 'playwright-core';
import { newPage, saved, shoot, twoPeopleSuite } from '../helpers/editorPage';
import type { ServerProcess } from '../helpers/serverProcess';

/*
 * The share dialog in real Chromium against the real server: Alice shares her page with Bob by
 * e-mail with edit access; Bob finds it under «Доступные мне» and edits it; Alice makes him a
 * reader (his editor is read-only after a reload), then removes him.
 */

const people = twoPeopleSuite('alice.share@example.com', 'bob.share@example.com');
let server: ServerProcess;
let alice: BrowserContext;
let bob: BrowserContext;

beforeAll(() => {
  [server, alice, bob] = [people.server(), people.first(), people.second()];
});

const dialog = (page: Page) => page.getByRole('dialog');
const memberRow = (page: Page, email: string) => dialog(page).locator(`.share-member[data-email="${email}"]`);

it('shares a page by e-mail, changes the access level and removes the member', async () => {
  const a = await alice.newPage();
  await a.goto(server.url + '/');
  await a.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  const url = await newPage(a, 'Общий план');
  await a.keyboard.type('Текст Алисы.');
  await saved(a);

  // Alice opens the dialog and invites Bob by e-mail with edit access (an invalid entry is flagged and skipped).
  await a.getByRole('button', { name: 'Поделиться' }).click();
  await dialog(a).getByText('У кого есть доступ').waitFor();
  const invite = dialog(a).getByRole('button', { name: 'Пригласить' });
  expect(await invite.isDisabled()).toBe(true);
  await dialog(a).getByLabel('E-mail или имя').fill('bob.share@example.com, не-адрес');
  await dialog(a).locator('.share-chip.is-invalid', { hasText: 'не-адрес' }).waitFor();
  expect(await invite.isDisabled()).toBe(false);
  await dialog(a).getByLabel('Уровень доступа').selectOption('edit');
  await shoot(a, 'share-dialog-1280-light');
  await invite.click();
  await memberRow(a, 'bob.share@example.com').waitFor();
  expect(await memberRow(a, 'bob.share@example.com').locator('select').inputValue()).toBe('edit');
  expect(await dialog(a).getByLabel('E-mail или имя').inputValue()).toBe('');

  // The public link toggle (published and unpublished again).
  await dialog(a).getByRole('switch', { name: 'Доступ по ссылке' }).click();
  await dialog(a).getByLabel('Публичная ссылка').waitFor();
  await a.emulateMedia({ colorScheme: 'dark' });
  await shoot(a, 'share-dialog-1280-dark');
  await a.emulateMedia({ colorScheme: 'light' });
  await dialog(a).getByRole('switch', { name: 'Доступ по ссылке' }).click();
  await dialog(a).getByLabel('Публичная ссылка').waitFor({ state: 'detached' });

  // Bob: the page is under «Доступные мне» in Alice's workspace, and he can edit it.
  const b = await bob.newPage();
  await b.goto(server.url + '/');
  await b.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  await b.locator('.sidebar-workspace').click();
  await b.locator('.workspace-menu-item[aria-checked="false"]').first().click();
  const shared = b.getByRole('region', { name: 'Доступные мне' });
  await shared.getByRole('link', { name: 'Общий план' }).click();
  await b.waitForURL(url);
  await b.locator('[data-slate-editor]').getByText('Текст Алисы.').click();
  await b.keyboard.press('End');
  await b.keyboard.type(' И Боба.');
  await saved(b);
  expect(await b.locator('.page-readonly').count()).toBe(0);

  // Alice makes Bob a reader: after a reload his editor is read-only.
  await memberRow(a, 'bob.share@example.com').locator('select').selectOption('read');
  await a.getByText('Уровень доступа изменён').waitFor();
  await b.reload();
  await b.locator('.page-readonly').waitFor();
  expect(await b.locator('[data-slate-editor]').getAttribute('contenteditable')).toBe('false');
  await b.getByText('Текст Алисы. И Боба.').waitFor();

  // Alice removes Bob.
  await memberRow(a, 'bob.share@example.com').getByRole('button', { name: 'Удалить' }).click();
  await memberRow(a, 'bob.share@example.com').waitFor({ state: 'detached' });
  await a.getByText('Доступ убран').waitFor();
  const pageId = new URL(url).pathname.slice(1);
  const after = await b.request.get(`${server.url}/api/v3/spaces/element/${pageId}`, { headers: { 'X-App-Type': 'Web' } });
  expect(after.status()).toBe(403);

  // Phone width: the addUsers sheet, light and dark.
  const phone = await alice.newPage();
  await phone.setViewportSize({ width: 375, height: 740 });
  await phone.goto(url);
  await phone.getByRole('button', { name: 'Поделиться' }).click();
  await dialog(phone).getByText('У кого есть доступ').waitFor();
  expect(await dialog(phone).getAttribute('aria-label')).toBe('Добавить участников');
  const box = await dialog(phone).boundingBox();
  expect(box?.width).toBe(375);
  await dialog(phone).getByLabel('E-mail или имя').fill('anna@example.com oleg@');
  await dialog(phone).locator('.share-chip.is-invalid').waitFor();
  await shoot(phone, 'share-dialog-375-light');
  await phone.emulateMedia({ colorScheme: 'dark' });
  await shoot(phone, 'share-dialog-375-dark');
}, 120_000);

it('workspace settings: the admin renames the workspace; a guest leaves it', async () => {
  const a = await alice.newPage();
  await a.goto(server.url + '/');
  await a.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  await a.locator('.sidebar-workspace').click();
  await a.getByRole('menuitem', { name: 'Настройки пространства' }).click();
  const settings = a.getByRole('dialog', { name: 'Настройки пространства' });
  await settings.locator('.share-member').first().waitFor();
  await settings.getByLabel('Название').fill('Ал');
  await settings.getByRole('button', { name: 'Сохранить' }).click();
  await settings.getByText('Название — не короче 3 символов').waitFor();
  await settings.getByLabel('Название').fill('Команда Алисы');
  await settings.getByRole('button', { name: 'Сохранить' }).click();
  await a.locator('.sidebar-workspace-name', { hasText: 'Команда Алисы' }).waitFor();
  await settings.getByLabel('E-mail участников').fill('carol.share@example.com, нет');
  await settings.locator('.share-chip.is-invalid').waitFor();
  await shoot(a, 'workspace-settings-1280-light');
  await a.emulateMedia({ colorScheme: 'dark' });
  await shoot(a, 'workspace-settings-1280-dark');
  await a.emulateMedia({ colorScheme: 'light' });
  // At phone width the sidebar is a drawer: the settings open from its switcher too.
  await a.setViewportSize({ width: 375, height: 740 });
  await a.locator('.shell-reopen').click();
  await a.locator('.shell-drawer .sidebar-workspace').click();
  await a.getByRole('menuitem', { name: 'Настройки пространства' }).click();
  await settings.locator('.share-member').first().waitFor();
  await shoot(a, 'workspace-settings-375-light');
  await a.emulateMedia({ colorScheme: 'dark' });
  await shoot(a, 'workspace-settings-375-dark');
  await a.emulateMedia({ colorScheme: 'light' });
  await a.keyboard.press('Escape');
  await a.setViewportSize({ width: 1280, height: 900 });

  // Bob (a guest since Alice shared with him) leaves Alice's workspace.
  const b = await bob.newPage();
  await b.goto(server.url + '/');
  // The app opens the workspace Bob was last in (remembered on the server): Alice's, where he is a
  // guest with no «Новая страница»; the switcher is there either way.
  await b.locator('.sidebar-workspace-name').waitFor();
  await b.locator('.sidebar-workspace').click();
  await b.getByRole('menuitemradio', { name: /Команда Алисы/ }).click();
  await b.locator('.sidebar-workspace-name', { hasText: 'Команда Алисы' }).waitFor();
  await b.locator('.sidebar-workspace').click();
  await b.getByRole('menuitem', { name: 'Настройки пространства' }).click();
  const bobSettings = b.getByRole('dialog', { name: 'Настройки пространства' });
  await bobSettings.getByText('Список участников недоступен гостям').waitFor();
  expect(await bobSettings.getByRole('button', { name: 'Сохранить' }).count()).toBe(0);
  await bobSettings.getByRole('button', { name: 'Покинуть пространство' }).click();
  await b.getByRole('dialog', { name: 'Покинуть пространство?' }).getByRole('button', { name: 'Покинуть' }).click();
  await b.getByText('Вы покинули пространство «Команда Алисы»').waitFor();
  await b.locator('.sidebar-workspace').click();
  expect(await b.getByRole('menuitemradio', { name: /Команда Алисы/ }).count()).toBe(0);
}, 90_000);
