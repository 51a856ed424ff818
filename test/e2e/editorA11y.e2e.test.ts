import type { Page } from 'playwright-core';
import { everyBlock, pageWith, text } from '../helpers/a11yContent';
import { axeViolations } from '../helpers/axe';
import { browserSuite } from '../helpers/browserSuite';
import { cookieOf } from '../helpers/browser';
import { eventually, shoot } from '../helpers/editorPage';

/*
 * The editor and its menus for keyboard and screen-reader users (issue 37; docs/web-app.md
 * «Accessibility» → «Editor and menus»), in real Chromium with no mouse event: the way out of the
 * editor (Escape twice; F6), the skip links, the block menu from the keyboard, the slash menu's
 * highlighted option named by the editor; and axe-core's WCAG 2.2 A/AA rules over a page with
 * every block type, the slash menu, the block menu, the sidebar and the inbox, light and dark,
 * 1280 and 375 px.
 */

const suite = browserSuite();

const activeInfo = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return {
      inEditor: Boolean(element?.closest('[data-slate-editor]')),
      role: element?.getAttribute('role') ?? element?.tagName.toLowerCase() ?? '',
      name: (element?.getAttribute('aria-label') ?? element?.textContent ?? '').trim(),
      topbar: Boolean(element?.closest('.page-topbar')),
      sidebar: Boolean(element?.closest('nav.sidebar')),
    };
  });
/** The blocks' texts, the title left out. */
const blockTexts = async (page: Page) =>
  (await page.locator('[data-slate-editor] [data-block-id]').allTextContents()).slice(1).map((text) => text.replace(/\uFEFF/g, ''));

it('keys only: skip link to the text, Escape twice out and Shift+Tab back, F6 round the regions, the block menu by Ctrl+/, Shift+F10 and the menu key, the slash menu named by the editor', async () => {
  const page = await suite.signedIn('a11y.keys@example.com');
  const pageId = await pageWith(suite.server.url, await cookieOf(page), 'Клавиши', [
    { type: 'text', data: text('Alpha') },
    { type: 'text', data: text('Beta') },
  ]);
  await page.goto(`${suite.server.url}/${pageId}`);
  const editor = page.locator('[data-slate-editor]');
  await page.locator('.page[aria-busy="false"] [data-slate-editor] h1').waitFor();
  // The editor is named by the page's title.
  expect(await editor.getAttribute('aria-label')).toBe('Клавиши');

  // The first Tab stop is the skip link to the content; Enter puts the focus in the text.
  await page.keyboard.press('Tab');
  expect(await activeInfo(page)).toMatchObject({ role: 'a', name: 'Перейти к содержимому' });
  await shoot(page, 'a11y-skip-link-1280');
  await page.keyboard.press('Enter');
  await eventually(async () => (await activeInfo(page)).inEditor, true);
  // Down to «Alpha», its end.
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');

  // Escape: the block is selected (the focus stays); Escape again: out of the editor.
  await page.keyboard.press('Escape');
  expect((await activeInfo(page)).inEditor).toBe(true);
  await page.keyboard.press('Escape');
  await eventually(async () => (await activeInfo(page)).inEditor, false);
  // Shift+Tab comes back with the caret where it was: typing goes on at «Alpha»'s end.
  await page.keyboard.press('Shift+Tab');
  await eventually(async () => (await activeInfo(page)).inEditor, true);
  await page.keyboard.type('!');
  await eventually(() => blockTexts(page), ['Alpha!', 'Beta']);

  // F6 / Shift+F6: the page's top bar, the sidebar, and back into the text.
  await page.keyboard.press('Shift+F6');
  expect((await activeInfo(page)).topbar).toBe(true);
  await page.keyboard.press('Shift+F6');
  expect((await activeInfo(page)).sidebar).toBe(true);
  await page.keyboard.press('F6');
  expect((await activeInfo(page)).topbar).toBe(true);
  await page.keyboard.press('F6');
  expect((await activeInfo(page)).inEditor).toBe(true);
  await page.keyboard.press('End');

  // Ctrl+/: the block menu of the caret's block, its first item focused; Escape back to the text where it was.
  const menu = page.getByRole('menu', { name: 'Действия с блоком' });
  for (const key of ['Control+/', 'Shift+F10', 'ContextMenu']) {
    await page.keyboard.press(key);
    await menu.waitFor();
    expect(await activeInfo(page)).toMatchObject({ role: 'menuitem', name: expect.stringMatching(/^Текст/) });
    if (key === 'Control+/') await shoot(page, 'a11y-block-menu-by-key-1280');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await eventually(async () => (await activeInfo(page)).inEditor, true);
  }
  await page.keyboard.type('?');
  await eventually(() => blockTexts(page), ['Alpha!?', 'Beta']);
  // The menu works from the keys: End to «Удалить», Enter removes the block.
  await page.keyboard.press('Control+/');
  await menu.waitFor();
  await page.keyboard.press('End');
  expect((await activeInfo(page)).name).toMatch(/^Удалить/);
  await page.keyboard.press('Enter');
  await eventually(() => blockTexts(page), ['Beta']);
  await eventually(async () => (await activeInfo(page)).inEditor, true);

  // The slash menu: the editor names its list and the highlighted option.
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await eventually(() => blockTexts(page), ['Beta', '']);
  await page.keyboard.type('/');
  const list = page.getByRole('listbox', { name: 'Типы блоков' });
  await list.waitFor();
  const options = list.getByRole('option');
  expect(await editor.getAttribute('aria-controls')).toBe(await list.getAttribute('id'));
  expect(await editor.getAttribute('aria-activedescendant')).toBe(await options.nth(0).getAttribute('id'));
  expect(await options.nth(0).getAttribute('aria-selected')).toBe('true');
  await page.keyboard.press('ArrowDown');
  expect(await editor.getAttribute('aria-activedescendant')).toBe(await options.nth(1).getAttribute('id'));
  expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
  await page.keyboard.press('Escape');
  await list.waitFor({ state: 'detached' });
  expect(await editor.getAttribute('aria-activedescendant')).toBeNull();
  await page.context().close();
});

it('a phone: «Перейти к меню» opens the drawer and puts the focus in the sidebar; the skip link shows while focused', async () => {
  const page = await suite.signedIn('a11y.phone@example.com');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await page.locator('.shell.is-phone').waitFor();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await activeInfo(page)).toMatchObject({ role: 'a', name: 'Перейти к меню' });
  const box = await page.getByRole('link', { name: 'Перейти к меню' }).boundingBox();
  expect(box && box.x >= 0 && box.y >= 0 && box.x + box.width <= 375).toBe(true);
  await shoot(page, 'a11y-skip-menu-375');
  expect(await page.locator('nav.sidebar').count()).toBe(0);
  await page.keyboard.press('Enter');
  await eventually(async () => (await activeInfo(page)).sidebar, true);
  await page.context().close();
});

it('axe (WCAG 2.2 A/AA): every block type, the slash menu, the block menu, the sidebar and the inbox; light and dark, 1280 and 375 px', async () => {
  const page = await suite.signedIn('a11y.axe@example.com');
  const pageId = await pageWith(suite.server.url, await cookieOf(page), 'Все блоки', everyBlock());
  await page.goto(`${suite.server.url}/${pageId}`);
  await page.locator('.page[aria-busy="false"] [data-slate-editor] h1').waitFor();
  const scope = ['.shell nav.sidebar', '.shell-main', '.slash-menu', '.block-menu', '.inbox-panel', '.skip-links'];
  const found: Record<string, string[]> = {};
  const check = async (name: string) => {
    // Panels and menus fade in: contrast is measured once they are drawn in full.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    found[name] = await axeViolations(page, { include: scope });
    await shoot(page, `a11y-axe-${name}`);
  };

  // The sidebar and the page, then the slash menu open in the last (empty) paragraph.
  const editor = page.locator('[data-slate-editor]');
  await editor.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('/');
  await page.getByRole('listbox', { name: 'Типы блоков' }).waitFor();
  await check('slash-1280-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await check('slash-1280-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Backspace');
  // The block menu, opened from the keyboard.
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Control+/');
  await page.getByRole('menu', { name: 'Действия с блоком' }).waitFor();
  await check('block-menu-1280-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await check('block-menu-1280-dark');
  await page.keyboard.press('Escape');
  // The inbox, opened from the sidebar with the keyboard.
  await page.locator('.inbox-entry').focus();
  await page.keyboard.press('Enter');
  await page.getByRole('complementary', { name: 'Входящие' }).waitFor();
  await check('inbox-1280-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await check('inbox-1280-light');
  await page.keyboard.press('Escape');
  // The comments panel, its composer's @-mention list open (a textarea with a suggestion list).
  await page.getByRole('button', { name: 'Комментарии', exact: true }).focus();
  await page.keyboard.press('Enter');
  const composer = page.locator('.comments-panel textarea').first();
  await composer.waitFor();
  await composer.focus();
  await page.keyboard.type('@');
  await page.locator('.mention-popup').waitFor();
  expect(await composer.getAttribute('aria-controls')).toBe(await page.locator('.mention-popup').getAttribute('id'));
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  found['comments-mention-1280-light'] = await axeViolations(page, { include: ['.comments-panel'] });
  await shoot(page, 'a11y-axe-comments-mention-1280-light');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Комментарии', exact: true }).focus();
  await page.keyboard.press('Enter');
  // A phone: the table scrolls sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.locator('.block-table').scrollIntoViewIfNeeded();
  await check('page-375-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await check('page-375-dark');
  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
  await page.context().close();
});
