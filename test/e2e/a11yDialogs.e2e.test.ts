import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe';
import { cookieOf } from '../helpers/browser';
import { browserSuite } from '../helpers/browserSuite';
import { fetchJson, signInToProcess } from '../helpers/serverProcess';
import { databaseWithViews, pageWith, text } from '../helpers/a11yContent';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';

/*
 * Issue 37, dialogs: in real Chromium, each modal holds the focus — Tab and Shift+Tab, many times,
 * from its first and its last control, never reach the page behind (which is inert meanwhile) —
 * and gives it back to its opener when it closes (by Escape or by its «Закрыть» button, pressed
 * from the keyboard). Opened from the keyboard: the opener focused, Enter; a menu's item reached
 * with the arrows. axe's WCAG 2.2 A/AA rules pass inside each dialog, contrast included. The
 * document's title names the screens.
 */

const suite = browserSuite();
const SHOTS = path.resolve(__dirname, '../../.tmp/shots');

beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

/** Focuses `element` (no mouse) and presses Enter on it. */
async function press(element: Locator, key = 'Enter') {
  // A control disabled for now (the sidebar's «+» until its sections are read) takes no focus: waited for, as a click waits.
  await element.and(element.page().locator(':not([disabled])')).waitFor();
  await element.focus();
  await element.page().keyboard.press(key);
}

/** Opens a menu from its button and runs the item named `item`, with the keyboard. */
async function menuItem(page: Page, button: Locator, item: string) {
  await press(button);
  const menu = page.getByRole('menu');
  await menu.waitFor();
  for (let i = 0; i < 12; i += 1) {
    if ((await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '')).includes(item)) break;
    await page.keyboard.press('ArrowDown');
  }
  await expect(page.evaluate(() => document.activeElement?.getAttribute('role'))).resolves.toMatch(/^menuitem/);
  await page.keyboard.press('Enter');
}

/** Marks what has the focus now, to find it again after the dialog. */
const markFocused = (page: Page) => page.evaluate(() => document.activeElement?.setAttribute('data-opener', ''));

/**
 * The dialog named `name` is open: checks it holds the focus (Tab and Shift+Tab from its first
 * and last controls, each stop inside), that the app behind is inert, axe inside it; closes it
 * (`close`) and checks the focus is back on the element marked as the opener.
 */
async function holdsAndReturnsFocus(
  page: Page,
  name: string,
  close: 'Escape' | 'button',
  { role = 'dialog', nested = false }: { role?: 'dialog' | 'alertdialog'; nested?: boolean } = {},
) {
  const dialog = page.getByRole(role, { name, exact: true });
  await dialog.waitFor();
  // The controls Tab can reach (marked: the first and the last), counted again once what the dialog loads is in.
  const markStops = () =>
    dialog.evaluate((box) => {
      for (const old of box.querySelectorAll('[data-first-stop], [data-last-stop]'))
        old.removeAttribute(old.hasAttribute('data-first-stop') ? 'data-first-stop' : 'data-last-stop');
      const all = [...box.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex], [contenteditable="true"]')];
      const found = all.filter((e) => e.tabIndex >= 0 && !(e as HTMLButtonElement).disabled && e.checkVisibility());
      found[0]?.setAttribute('data-first-stop', '');
      found[found.length - 1]?.setAttribute('data-last-stop', '');
      return found.length;
    });
  await page.waitForTimeout(300);
  const stops = await markStops();
  expect(stops).toBeGreaterThan(0);
  expect(await page.evaluate(() => document.getElementById('root')?.hasAttribute('inert'))).toBe(true);
  const inside = () => dialog.evaluate((box) => box.contains(document.activeElement));
  const presses = Math.min(stops + 3, 24);
  for (const shift of [false, true]) {
    for (let i = 0; i < presses; i += 1) {
      await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
      if (!(await inside()))
        throw new Error(
          `${name}: ${shift ? 'Shift+Tab' : 'Tab'} ${i + 1} left the dialog for ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))}`,
        );
    }
  }
  // From the first control backwards and from the last forwards: round, not out.
  await markStops();
  const first = dialog.locator('[data-first-stop]');
  const last = dialog.locator('[data-last-stop]');
  const focused = (element: Locator) =>
    element.evaluate((e) => e === document.activeElement || `${e.outerHTML.slice(0, 80)} ≠ ${document.activeElement?.outerHTML.slice(0, 80)}`);
  await first.focus();
  await page.keyboard.press('Shift+Tab');
  await expect(focused(last)).resolves.toBe(true);
  await page.keyboard.press('Tab');
  await expect(focused(first)).resolves.toBe(true);

  const results = await axeViolations(page, {}, dialog);
  expect(results).toEqual([]);

  if (close === 'Escape') {
    await page.keyboard.press('Escape');
  } else {
    await dialog.getByRole('button', { name: 'Закрыть' }).first().focus();
    await page.keyboard.press('Enter');
  }
  await dialog.waitFor({ state: 'detached' });
  // Over another dialog, the app behind stays inert until that one closes too.
  expect(await page.evaluate(() => document.getElementById('root')?.hasAttribute('inert'))).toBe(nested);
  const back = await page.evaluate(() => {
    const opener = document.querySelector('[data-opener]');
    const ok = opener !== null && opener === document.activeElement;
    const got = document.activeElement?.outerHTML.slice(0, 120);
    opener?.removeAttribute('data-opener');
    return ok ? 'opener' : got;
  });
  expect([name, back]).toEqual([name, 'opener']);
}

it('share, history, CSV import, workspace settings, profile, trash, the quick finder and the wizard hold the focus and give it back', async () => {
  const page = await suite.signedIn('dialogs@example.com');
  await page.waitForFunction(() => document.title === 'Главная — Страницы');

  // A page of one's own, made from the keyboard.
  await press(page.getByRole('button', { name: 'Новая страница' }).first());
  await page.waitForURL((url) => url.pathname.length > 2);
  await page.getByRole('button', { name: 'Поделиться' }).waitFor();
  await page.waitForFunction(() => document.title === 'Без названия — Страницы');

  const cases: { name: string; open(): Promise<void>; close: 'Escape' | 'button' }[] = [
    {
      name: 'Поделиться страницей',
      open: async () => {
        await page.getByRole('button', { name: 'Поделиться' }).focus();
        await markFocused(page);
        await page.keyboard.press('Enter');
      },
      close: 'Escape',
    },
    {
      name: 'История версий',
      open: async () => {
        const button = page.getByRole('button', { name: 'Действия со страницей' });
        await button.focus();
        await markFocused(page);
        await menuItem(page, button, 'История версий');
      },
      close: 'button',
    },
    {
      name: 'Импорт CSV в новую базу данных',
      open: async () => {
        const button = page.getByRole('region', { name: 'Личные' }).getByRole('button', { name: 'Выбрать тип новой страницы' });
        await button.focus();
        await markFocused(page);
        await menuItem(page, button, 'Импорт CSV');
      },
      close: 'Escape',
    },
    {
      name: 'Настройки пространства',
      open: async () => {
        const button = page.locator('.sidebar-workspace');
        await button.focus();
        await markFocused(page);
        await menuItem(page, button, 'Настройки пространства');
      },
      close: 'button',
    },
    {
      name: 'Профиль и настройки',
      open: async () => {
        await page.getByRole('button', { name: 'dialogs@example.com' }).focus();
        await markFocused(page);
        await page.keyboard.press('Enter');
      },
      close: 'Escape',
    },
    {
      name: 'Корзина',
      open: async () => {
        await page.getByRole('button', { name: 'Корзина' }).focus();
        await markFocused(page);
        await page.keyboard.press('Enter');
      },
      close: 'button',
    },
    {
      name: 'Поиск',
      open: async () => {
        await page.getByRole('button', { name: 'Поделиться' }).focus();
        await markFocused(page);
        await page.keyboard.press('Control+k');
      },
      close: 'Escape',
    },
    {
      // The wizard covers the app (a route of its own); closed, it goes home, and the focus back to the menu's button.
      name: 'Новое пространство',
      open: async () => {
        const button = page.locator('.sidebar-workspace');
        await button.focus();
        await markFocused(page);
        await menuItem(page, button, 'Создать пространство');
      },
      close: 'Escape',
    },
  ];
  for (const { name, open, close } of cases) {
    await open();
    if (name === 'Корзина' || name === 'Настройки пространства' || name === 'Новое пространство') {
      // Screens of their own: the document's title names them while they are open.
      await page.getByRole('dialog', { name }).waitFor();
      expect(await page.title()).toBe(`${name} — Страницы`);
    }
    await holdsAndReturnsFocus(page, name, close);
    if (name === 'Поиск') expect(await page.title()).toBe('Без названия — Страницы');
  }
  await page.waitForFunction(() => document.title === 'Главная — Страницы');
});

it('a toast over a dialog is announced: in a live region outside what the dialog makes inert (light, dark, 375 px)', async () => {
  const page = await suite.signedIn('toasts@example.com');
  await press(page.getByRole('button', { name: 'Новая страница' }).first());
  await page.getByRole('button', { name: 'Поделиться' }).waitFor();
  await press(page.getByRole('button', { name: 'Поделиться' }));
  // (On a phone the same dialog is named «Добавить участников».)
  const dialog = page.getByRole('dialog');
  await press(dialog.getByRole('switch', { name: 'Доступ по ссылке' }), 'Space');
  await press(dialog.getByRole('button', { name: 'Копировать', exact: true }));
  // Copied, or refused by the headless clipboard: either way a toast, status or alert.
  const toast = page.locator('.toast');
  await toast.waitFor();
  const where = await toast.evaluate((element) => ({
    role: element.getAttribute('role'),
    live: element.closest('[aria-live]')?.getAttribute('aria-live'),
    inert: element.closest('[inert]') !== null,
    appInert: document.getElementById('root')?.hasAttribute('inert'),
    kind: element.classList.contains('toast-error') ? 'error' : 'info',
  }));
  expect(where).toEqual(
    where.kind === 'error'
      ? { role: 'alert', live: 'assertive', inert: false, appInert: true, kind: 'error' }
      : { role: 'status', live: 'polite', inert: false, appInert: true, kind: 'info' },
  );
  // Toasts go by themselves: each shot copies again.
  const shoot = async (name: string) => {
    await press(dialog.getByRole('button', { name: 'Копировать', exact: true }));
    await toast.first().waitFor();
    // Shown once its animation (it comes up from transparent) is over.
    await page.waitForFunction(() => [...document.querySelectorAll('.toast')].every((t) => t.getAnimations().every((a) => a.playState === 'finished')));
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  };
  await shoot('dialog-toast-1280-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot('dialog-toast-1280-dark');
  await page.setViewportSize({ width: 375, height: 740 });
  await shoot('dialog-toast-375-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await shoot('dialog-toast-375-light');
  // Still held at 375 px: Tab round the dialog never reaches the page.
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((box) => box.contains(document.activeElement))).toBe(true);
  }
});

it('notification settings, export, move, import, the members list, feedback and the leave question hold the focus and give it back', async () => {
  const page = await suite.signedIn('dialogs.more@example.com');
  await press(page.getByRole('button', { name: 'Новая страница' }).first());
  await page.waitForURL((url) => url.pathname.length > 2);
  const here = page.url();
  const pageMenu = page.getByRole('button', { name: 'Действия со страницей' });
  await pageMenu.waitFor();
  const fromPageMenu = (item: string) => async () => {
    await pageMenu.focus();
    await markFocused(page);
    await menuItem(page, pageMenu, item);
  };
  for (const [name, item, close] of [
    ['Уведомления', 'Уведомления', 'Escape'],
    ['Экспорт страницы', 'Экспорт', 'button'],
    ['Переместить страницу', 'Переместить в', 'Escape'],
  ] as const) {
    await fromPageMenu(item)();
    await holdsAndReturnsFocus(page, name, close);
  }

  // Import, from the sidebar's «Импорт» (the page menu's import asks for a file at once).
  const importButton = page.locator('nav.sidebar').getByRole('button', { name: 'Импорт', exact: true });
  await importButton.focus();
  await markFocused(page);
  await page.keyboard.press('Enter');
  await holdsAndReturnsFocus(page, 'Импорт', 'Escape');

  // The members list, over workspace settings: closed, the focus is back on its button inside them.
  const workspace = page.locator('.sidebar-workspace');
  await workspace.focus();
  await menuItem(page, workspace, 'Настройки пространства');
  const settings = page.getByRole('dialog', { name: 'Настройки пространства' });
  await settings.waitFor();
  await settings.getByRole('button', { name: 'Добавить списком…' }).focus();
  await markFocused(page);
  await page.keyboard.press('Enter');
  await holdsAndReturnsFocus(page, 'Добавить участников списком', 'Escape', { nested: true });
  await page.keyboard.press('Escape');
  await settings.waitFor({ state: 'detached' });

  // Feedback, from an error screen's «Помощь».
  await page.goto(`${suite.server.url}/00000000-0000-4000-8000-000000000000`);
  const help = page.locator('.error-screen').getByRole('button', { name: 'Помощь' });
  await help.focus();
  await markFocused(page);
  await page.keyboard.press('Enter');
  await holdsAndReturnsFocus(page, 'Написать нам', 'Escape');

  // The leave question: offline, an edit, then another page of the sidebar chosen with the keyboard.
  await fetchJson(`${suite.server.url}/api/v3/spaces/section/private`, {
    method: 'POST',
    cookie: await cookieOf(page),
    headers: { 'X-App-Type': 'Web' },
    body: JSON.stringify({ title: 'Другая' }),
  });
  await page.goto(here);
  const editor = page.locator('[data-slate-editor]');
  await editor.locator('h1').waitFor();
  // The sidebar has the other page before the network goes.
  const away = page.locator('.sidebar-page', { hasText: 'Другая' });
  await away.waitFor();
  await page.context().setOffline(true);
  await editor.focus();
  await page.keyboard.type('Черновик');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Не сохранено');
  await away.focus();
  await markFocused(page);
  await page.keyboard.press('Enter');
  await page.getByRole('alertdialog').waitFor({ timeout: 10_000 });
  await holdsAndReturnsFocus(page, 'Не все изменения сохранены. Уйти со страницы?', 'Escape', { role: 'alertdialog' });
  expect(page.url()).toBe(here);
  await page.context().setOffline(false);
  await page.context().close();
});

it('the confirmations — remove every notification, delete forever (from the page and over the trash), leave the workspace, delete a field, remove a database — hold the focus and give it back', async () => {
  const page = await suite.signedIn('dialogs.confirm@example.com');
  const url = suite.server.url;
  const S = `${url}/api/v3/spaces`;
  const cookie = await cookieOf(page);
  const web = { 'X-App-Type': 'Web' };
  // A notification: a colleague mentions the person on a page of theirs.
  const me = (await fetchJson<{ data: { id: string } }>(`${url}/api/user/current`, { cookie })).data.id;
  const colleague = await signInToProcess(suite.server, 'dialogs.colleague@example.com');
  const discussed = await pageWith(url, cookie, 'Обсуждение', [{ type: 'text', data: text('Текст') }]);
  await fetchJson(`${S}/element/${discussed}/member/add`, {
    method: 'POST',
    cookie,
    headers: web,
    body: JSON.stringify([{ email: 'dialogs.colleague@example.com', accessLevel: 'edit' }]),
  });
  await fetchJson(`${S}/element/${discussed}/comments`, {
    method: 'POST',
    cookie: colleague,
    headers: web,
    body: JSON.stringify({ content: [{ text: 'Глянь, ' }, { text: '@Я', mention: { userId: me } }] }),
  });
  // A page in the trash, and a database with rows on a page.
  const trashed = await pageWith(url, cookie, 'В корзине', []);
  await fetchJson(`${S}/element/${trashed}`, { method: 'DELETE', cookie, headers: web });
  const { holderId } = await databaseWithViews(url, cookie, 'Задачи');

  // «Удалить все» in the inbox.
  await page.goto(`${url}/${discussed}`);
  await page.locator('.inbox-entry').focus();
  await page.keyboard.press('Enter');
  const inbox = page.getByRole('complementary', { name: 'Входящие' });
  await inbox.getByText('Глянь').first().waitFor();
  await inbox.getByRole('button', { name: 'Удалить все' }).focus();
  await markFocused(page);
  await page.keyboard.press('Enter');
  await holdsAndReturnsFocus(page, 'Удалить все уведомления?', 'Escape');
  await page.keyboard.press('Escape');

  // «Удалить навсегда» on a page in the trash.
  await page.goto(`${url}/${trashed}`);
  const forever = page.locator('.trashed-banner-delete');
  await forever.focus();
  await markFocused(page);
  await page.keyboard.press('Enter');
  await holdsAndReturnsFocus(page, 'Удалить навсегда?', 'Escape');

  // The same question over the trash (nested: the trash stays, inert, behind it).
  await page.goto(`${url}/${discussed}`);
  await page.getByRole('button', { name: 'Корзина' }).focus();
  await page.keyboard.press('Enter');
  const trash = page.getByRole('dialog', { name: 'Корзина' });
  await trash.getByRole('button', { name: 'Удалить навсегда: В корзине' }).focus();
  await markFocused(page);
  await page.keyboard.press('Enter');
  await holdsAndReturnsFocus(page, 'Удалить навсегда?', 'Escape', { nested: true });
  await page.keyboard.press('Escape');
  await trash.waitFor({ state: 'detached' });

  // «Покинуть пространство?» over workspace settings.
  const workspace = page.locator('.sidebar-workspace');
  await workspace.focus();
  await menuItem(page, workspace, 'Настройки пространства');
  const settings = page.getByRole('dialog', { name: 'Настройки пространства' });
  await settings.locator('.ws-leave-button').focus();
  await markFocused(page);
  await page.keyboard.press('Enter');
  await holdsAndReturnsFocus(page, 'Покинуть пространство?', 'Escape', { nested: true });
  await page.keyboard.press('Escape');
  await settings.waitFor({ state: 'detached' });

  // «Удалить поле» from a column's menu: the menu is gone, so the focus goes back to its button.
  await page.goto(`${url}/${holderId}`);
  const column = page.locator('.db-hcell', { hasText: 'Проверено' }).locator('.db-hcell-button');
  await column.click();
  await column.evaluate((button) => button.setAttribute('data-opener', ''));
  // The column's menu itself: a dialog of fields and buttons (a menu may hold items only).
  expect(await axeViolations(page, {}, page.getByRole('dialog', { name: 'Поле' }))).toEqual([]);
  await page.getByRole('dialog', { name: 'Поле' }).getByRole('button', { name: 'Удалить поле' }).click();
  await holdsAndReturnsFocus(page, 'Удалить поле «Проверено»?', 'Escape');

  // Removing a database with rows from the text (everything selected, Backspace): the focus back in the text.
  const holder = await pageWith(url, cookie, 'С базой', [{ type: 'text', data: text('Перед базой') }]);
  const made = await fetchJson<{ data: { id: string } }>(`${S}/block`, {
    method: 'POST',
    cookie,
    headers: web,
    body: JSON.stringify({
      pageId: holder,
      type: 'database',
      data: {
        config: { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' } } },
        view: { layouts: [{ uid: 'v1', type: 'table', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
      },
    }),
  });
  await fetchJson(`${S}/database/${made.data.id}/rows`, { method: 'POST', cookie, headers: web, body: JSON.stringify({ rows: [{ title: 'Один' }] }) });
  await page.goto(`${url}/${holder}`);
  await page.locator(`[data-slate-editor] [data-block-id="${made.data.id}"]`).waitFor();
  await page.getByText('Перед базой').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+A');
  await markFocused(page);
  await page.keyboard.press('Backspace');
  await holdsAndReturnsFocus(page, 'Удалить базу данных?', 'Escape');
  await page.locator(`[data-slate-editor] [data-block-id="${made.data.id}"]`).waitFor();
  await page.context().close();
});
