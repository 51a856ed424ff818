import type { Locator, Page } from 'playwright-core';
import { signInThroughUi } from '../helpers/browser';
import { newPage, pasteData, saved, shoot, signedInEditorSuite, tableCells } from '../helpers/editorPage';

/*
 * Issue 15's polish, in real Chromium against the real server: the page uses a phone's width
 * (375 px), words on buttons are never broken, every icon-only button has an accessible name,
 * the table toolbar fits, one public address everywhere, and the counted and status wording.
 */

const { openApp, server } = signedInEditorSuite('phone.polish@example.com');

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };

/** How many lines the element's text is drawn on (distinct tops of its text's boxes). */
async function linesOf(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    return tops.size;
  });
}

async function box(locator: Locator) {
  return locator.evaluate((element) => {
    const r = element.getBoundingClientRect();
    return { left: r.left, right: r.right, width: r.width, top: r.top, bottom: r.bottom };
  });
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((value) => (document.documentElement.dataset.theme = value), theme);
}

/** Screenshots at the current width in both themes, as .tmp/shots/phone-polish-{name}-{theme}.png. */
async function shootBoth(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await shoot(page, `phone-polish-${name}-${theme}`);
  }
  await setTheme(page, 'light');
}

/**
 * The controls (buttons, menu items, radios, switches, tabs, links) the browser's accessibility
 * tree names with nothing, as "role <tag class>" — what a screen reader would announce as
 * just «кнопка».
 */
async function unnamedControls(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  type AxNode = { ignored: boolean; role?: { value: string }; name?: { value: string }; backendDOMNodeId?: number };
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
  const controls = new Set(['button', 'menuitem', 'menuitemradio', 'menuitemcheckbox', 'radio', 'switch', 'tab', 'link', 'checkbox', 'combobox']);
  const found: string[] = [];
  for (const node of nodes) {
    if (node.ignored || !controls.has(node.role?.value ?? '') || (node.name?.value ?? '').trim() !== '') continue;
    const { node: dom } = (await cdp.send('DOM.describeNode', { backendNodeId: node.backendDOMNodeId })) as {
      node: { localName: string; attributes?: string[] };
    };
    const attributes = dom.attributes ?? [];
    const className = attributes.includes('class') ? attributes[attributes.indexOf('class') + 1] : '';
    found.push(`${node.role?.value} <${dom.localName} class="${className}">`);
  }
  await cdp.detach();
  return found;
}

describe('a phone (375 px)', () => {
  it('gives the text the width: 16 px sides for the title, blocks and header; the block handle stays out of the text', async () => {
    const page = await openApp();
    await newPage(page, 'Заметки с выезда на объект');
    await page.keyboard.type('Обычный абзац, который на телефоне должен занимать почти всю ширину экрана.');
    await page.keyboard.press('Enter');
    await pasteData(page, {}, [{ name: 'отчёт-за-третий-квартал.pdf', type: 'application/pdf', base64: Buffer.from('%PDF').toString('base64') }]);
    await page.locator('.block-fileBlock .file-download').waitFor();
    await saved(page);
    await page.setViewportSize(PHONE);

    const title = page.locator('[data-slate-editor] .block-pageHeadingBlock');
    const text = page.locator('[data-slate-editor] .block-textBlock').first();
    for (const block of [title, text, page.locator('.block-fileBlock')]) {
      const { left, right } = await box(block);
      expect(left).toBeLessThanOrEqual(16);
      expect(right).toBeGreaterThanOrEqual(375 - 16);
    }
    const addButtons = page.locator('.page-header-add');
    expect((await box(addButtons)).left).toBeLessThanOrEqual(16);

    // The handle of a hovered block sits in the side padding, left of the text.
    await text.hover();
    const handle = page.locator('.block-handle');
    await handle.waitFor();
    const textLeft = await text.evaluate((element) => element.getBoundingClientRect().left + parseFloat(getComputedStyle(element).paddingLeft));
    const handleBox = await box(handle);
    expect(handleBox.left).toBeGreaterThanOrEqual(0);
    expect(handleBox.right).toBeLessThanOrEqual(textLeft);
    await shootBoth(page, 'page-375');

    // «Скачать» is one word on one line; the file's name gives way instead.
    const download = page.locator('.block-fileBlock .file-download');
    expect(await linesOf(download)).toBe(1);
    expect(await download.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true);

    // «Добавить иконку» and «Добавить обложку» each on one line.
    await page.locator('.page-header').hover();
    for (const name of ['Добавить иконку', 'Добавить обложку']) expect(await linesOf(page.getByRole('button', { name }))).toBe(1);

    // With a cover: full width, and the icon and title keep the 16 px sides.
    await page.getByRole('button', { name: 'Добавить обложку' }).click();
    await page.locator('.cover-swatch').first().click();
    const cover = page.locator('.page-cover');
    await cover.waitFor();
    expect(await box(cover)).toMatchObject({ left: 0, right: 375 });
    await page.getByRole('button', { name: 'Добавить иконку' }).click();
    await page.locator('.emoji-cell').first().click();
    expect((await box(page.locator('.page-icon'))).left).toBeLessThanOrEqual(16);
    expect((await box(title)).left).toBeLessThanOrEqual(16);
    await page.keyboard.press('Escape');
    await shootBoth(page, 'cover-375');

    // Comments: a full-width sheet with the composer across it.
    await page.locator('.comments-toggle').click();
    const composer = page.locator('.comments-panel textarea').first();
    await composer.waitFor();
    const composerBox = await box(composer);
    expect(composerBox.left).toBeLessThanOrEqual(24);
    expect(composerBox.right).toBeGreaterThanOrEqual(375 - 24);
    await shootBoth(page, 'comments-375');
    await page.close();
  }, 60_000);

  it('«Как в системе» and the other theme choices of the profile dialog are on one line each', async () => {
    const page = await openApp();
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Открыть меню' }).click();
    await page.locator('.sidebar-user').click();
    const themes = page.getByRole('radiogroup', { name: 'Тема' });
    await themes.waitFor();
    for (const name of ['Как в системе', 'Светлая', 'Тёмная']) expect(await linesOf(themes.getByRole('radio', { name }))).toBe(1);
    const { right } = await box(themes);
    expect(right).toBeLessThanOrEqual(375);
    await shootBoth(page, 'profile-375');
    await page.close();
  });
});

describe('accessible names', () => {
  it('no button, menu item or other control without a name on home, a page with its menus, the drawer, comments, inbox and the share dialog', async () => {
    const page = await openApp();
    const seen: Record<string, string[]> = {};
    const look = async (screen: string) => {
      await page.waitForTimeout(250);
      seen[screen] = await unnamedControls(page);
    };
    for (const size of [DESKTOP, PHONE]) {
      const at = `${size.width}:`;
      await page.setViewportSize(DESKTOP);
      await page.goto(page.url().replace(/\/[^/]*$/, '/'));
      await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
      await page.setViewportSize(size);
      await look(`${at}home`);
      await page.setViewportSize(DESKTOP);
      await newPage(page, `Страница для проверки имён ${size.width}`);
      await page.keyboard.type('Текст');
      await page.setViewportSize(size);

      await look(`${at}page`);
      await page.getByRole('button', { name: 'Действия со страницей' }).click();
      await look(`${at}page menu`);
      await page.keyboard.press('Escape');
      await page.locator('[data-slate-editor] .block-textBlock').first().hover();
      await page.locator('.block-handle').click();
      await look(`${at}block menu`);
      await page.keyboard.press('Escape');
      await page.locator('.page-header').hover();
      await page.getByRole('button', { name: 'Добавить обложку' }).click();
      await look(`${at}cover picker`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Добавить иконку' }).click();
      await look(`${at}icon picker`);
      await page.keyboard.press('Escape');
      await page.locator('.comments-toggle').click();
      await look(`${at}comments`);
      await page.getByRole('button', { name: 'Закрыть комментарии' }).click();
      await page.getByRole('button', { name: 'Поделиться' }).click();
      await look(`${at}share dialog`);
      await page.keyboard.press('Escape');
      if (size === PHONE) {
        await page.getByRole('button', { name: 'Открыть меню' }).click();
        await look(`${at}drawer`);
      }
      await page.getByRole('button', { name: /^Входящие/ }).click();
      await look(`${at}inbox`);
      await page.keyboard.press('Escape');
    }
    const unnamed = Object.fromEntries(Object.entries(seen).filter(([, list]) => list.length > 0));
    expect(unnamed).toEqual({});
    await page.close();
  }, 90_000);
});

describe('the table toolbar', () => {
  /** The right edge of the editor's text column (its content box). */
  const columnRight = (page: Page) =>
    page.locator('.document-editor').evaluate((element) => element.getBoundingClientRect().right - parseFloat(getComputedStyle(element).paddingRight));

  it('stays inside the viewport and the editor column at 1280 px with the sidebar open and at 375 px, and every action works', async () => {
    const page = await openApp();
    await newPage(page, 'Таблица на телефоне');
    await page.keyboard.type('/table ');
    await page.keyboard.type('А1');
    const toolbar = page.getByRole('toolbar', { name: 'Действия с таблицей' });
    await toolbar.waitFor();

    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      if (size === DESKTOP) expect(await page.locator('.sidebar').isVisible()).toBe(true);
      await page.locator('.block-tableBlock td').first().click();
      const { left, right } = await box(toolbar);
      expect(left).toBeGreaterThanOrEqual(0);
      expect(right).toBeLessThanOrEqual(size.width);
      expect(right).toBeLessThanOrEqual((await columnRight(page)) + 1);
      await shootBoth(page, `table-toolbar-${size.width}`);
    }

    // Each action, by its accessible name (also its tooltip), at 375 px.
    const action = (name: string) => toolbar.getByRole('button', { name, exact: true });
    for (const name of [
      'Строка выше',
      'Строка ниже',
      'Удалить строку',
      'Столбец слева',
      'Столбец справа',
      'Удалить столбец',
      'Строка заголовков',
      'Столбец заголовков',
    ]) {
      await expect(action(name).getAttribute('title')).resolves.toBe(name);
    }
    await page.locator('.block-tableBlock td').first().click();
    await action('Строка выше').click();
    expect(await tableCells(page)).toEqual([
      ['', ''],
      ['А1', ''],
      ['', ''],
      ['', ''],
    ]);
    await action('Строка ниже').click();
    expect(await tableCells(page)).toEqual([
      ['', ''],
      ['А1', ''],
      ['', ''],
      ['', ''],
      ['', ''],
    ]);
    // The new row below «А1» (the caret's row) goes again.
    await page.locator('.block-tableBlock tr').nth(2).locator('td').first().click();
    await action('Удалить строку').click();
    expect(await tableCells(page)).toEqual([
      ['', ''],
      ['А1', ''],
      ['', ''],
      ['', ''],
    ]);
    await page.locator('.block-tableBlock tr').nth(1).locator('td').first().click();
    await action('Столбец слева').click();
    expect(await tableCells(page)).toEqual([
      ['', '', ''],
      ['', 'А1', ''],
      ['', '', ''],
      ['', '', ''],
    ]);
    await action('Столбец справа').click();
    expect((await tableCells(page))[1]).toEqual(['', 'А1', '', '']);
    await page.locator('.block-tableBlock tr').nth(1).locator('td').nth(2).click();
    await action('Удалить столбец').click();
    expect((await tableCells(page))[1]).toEqual(['', 'А1', '']);
    await action('Строка заголовков').click();
    await expect(action('Строка заголовков').getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(page.locator('.block-tableBlock').getAttribute('data-header-row')).resolves.toBe('');
    await action('Столбец заголовков').click();
    await expect(action('Столбец заголовков').getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(page.locator('.block-tableBlock').getAttribute('data-header-column')).resolves.toBe('');
    const { right } = await box(toolbar);
    expect(right).toBeLessThanOrEqual(375);
    await saved(page);
    await page.close();
  }, 60_000);
});

describe('one public link per page', () => {
  it('the share dialog and the page menu show the same public address, the alias, and it opens the page', async () => {
    const page = await openApp();
    const url = await newPage(page, 'Публичная страница');
    await page.keyboard.type('Для всех.');
    await saved(page);

    await page.getByRole('button', { name: 'Поделиться' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('switch', { name: 'Доступ по ссылке' }).click();
    const inDialog = dialog.getByLabel('Публичная ссылка');
    await inDialog.waitFor();
    const shared = await inDialog.inputValue();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Действия со страницей' }).click();
    const inMenu = page
      .getByRole('menu')
      .getByRole('menuitem', { name: /^Копировать публичную ссылку/ })
      .locator('.menu-public-url');
    await inMenu.waitFor();
    const menu = await inMenu.textContent();
    await page.keyboard.press('Escape');

    expect(menu).toBe(shared);
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.getByRole('button', { name: 'Поделиться' }).click();
      await expect(dialog.getByLabel('Публичная ссылка').inputValue()).resolves.toBe(shared);
      await shootBoth(page, `share-public-${size.width}`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Действия со страницей' }).click();
      await expect(inMenu.textContent()).resolves.toBe(shared);
      await shootBoth(page, `menu-public-${size.width}`);
      await page.keyboard.press('Escape');
    }
    await page.setViewportSize(DESKTOP);
    const pageId = new URL(url).pathname.slice(1);
    const alias = new URL(shared).pathname.slice(1);
    expect(alias).toMatch(/^[a-z0-9]{12}$/);
    expect(alias).not.toBe(pageId);

    // The owner, signed in, opening the public address gets the page itself, editable.
    await page.goto(shared);
    await page.waitForURL(url);
    await page.locator('[data-slate-editor][contenteditable="true"]').getByText('Для всех.').waitFor();

    // Someone signed out gets the public view at that address.
    const visitor = await page.context().browser()!.newContext({ viewport: PHONE });
    const stranger = await visitor.newPage();
    await stranger.goto(shared);
    await stranger.getByText('Для всех.').waitFor();
    await stranger.getByRole('button', { name: 'Копировать к себе' }).waitFor();
    expect(stranger.url()).toBe(shared);
    await visitor.close();
    await page.close();
  }, 60_000);
});

describe('wording', () => {
  it('the wizard: the step counter never changes its total as answers change, and «Пригласим N человек» agrees with N', async () => {
    const page = await openApp();
    await page.goto(new URL('/new-workspace', page.url()).href);
    const counter = page.locator('.wizard-step-count');
    await page.getByRole('heading', { name: 'Для чего вам пространство?', level: 1 }).waitFor();
    // The first answer decides how many steps follow: no total until it is given.
    await expect(counter.textContent()).resolves.toBe('Шаг 1');
    for (const kind of [/Для себя/, /Для учёбы/, /Для работы/]) {
      await page.getByRole('radio', { name: kind }).click();
      await expect(counter.textContent()).resolves.toBe('Шаг 1');
      await expect(page.locator('.wizard-progress').getAttribute('aria-label')).resolves.toBe('Шаг 1');
    }
    await shootBoth(page, 'wizard-step1-1280');
    const next = () => page.getByRole('button', { name: 'Далее' }).click();
    await next();
    await expect(counter.textContent()).resolves.toBe('Шаг 2 из 6');
    await page.getByRole('radio', { name: '6–20' }).click();
    await next();
    await page.getByRole('radio', { name: /IT и разработка/ }).click();
    await page.getByRole('radio', { name: 'Руковожу командой' }).click();
    await expect(counter.textContent()).resolves.toBe('Шаг 3 из 6');
    await next();
    await expect(counter.textContent()).resolves.toBe('Шаг 4 из 6');
    await page.getByRole('checkbox', { name: /База знаний/ }).click();
    await expect(counter.textContent()).resolves.toBe('Шаг 4 из 6');
    await next();
    await page.getByLabel('Название пространства').fill('Команда счёта');
    await next();
    await expect(counter.textContent()).resolves.toBe('Шаг 6 из 6');
    await expect(page.locator('.wizard-progress li').count()).resolves.toBe(6);

    const field = page.getByLabel('Адреса почты');
    const people = (n: number) => Array.from({ length: n }, (_, i) => `person${i + 1}@example.com`).join(', ');
    for (const [n, words] of [
      [1, 'Пригласим 1 человека'],
      [2, 'Пригласим 2 человек'],
      [5, 'Пригласим 5 человек'],
      [21, 'Пригласим 21 человека'],
    ] as const) {
      await field.fill(people(n));
      await page.locator('.wizard-hint', { hasText: words }).waitFor();
      await expect(page.locator('.wizard-hint').textContent()).resolves.toBe(words);
    }
    await field.fill(people(2));
    await page.locator('.wizard-hint', { hasText: 'Пригласим 2 человек' }).waitFor();
    await page.setViewportSize(PHONE);
    await shootBoth(page, 'wizard-sharing-375');

    // Back to the first step and another answer: the total follows the new path, from step 2 on.
    for (let i = 0; i < 5; i += 1) await page.getByRole('button', { name: 'Назад' }).click();
    await expect(counter.textContent()).resolves.toBe('Шаг 1');
    await page.getByRole('radio', { name: /Для себя/ }).click();
    await next();
    await expect(counter.textContent()).resolves.toBe('Шаг 2 из 4');
    await page.close();
  }, 60_000);

  it('the cover gallery names its covers in Russian (accessible name and tooltip)', async () => {
    const page = await openApp();
    await newPage(page, 'Обложки');
    await page.locator('.page-header').hover();
    await page.getByRole('button', { name: 'Добавить обложку' }).click();
    const swatches = page.locator('.cover-swatch');
    await swatches.first().waitFor();
    const names = await swatches.evaluateAll((all) => all.map((b) => [b.getAttribute('aria-label'), b.getAttribute('title')]));
    expect(names.length).toBe(16);
    for (const [label, title] of names) {
      expect(label).toMatch(/^[А-ЯЁ][а-яё]+$/);
      expect(title).toBe(label);
    }
    expect(new Set(names.map(([label]) => label)).size).toBe(16);
    await page.getByRole('button', { name: 'Рассвет' }).click();
    await page.locator('.page-cover').waitFor();
    await page.close();
  });

  it('a reader does not see «Сохранено»; the editor does', async () => {
    const page = await openApp();
    const url = await newPage(page, 'Только для чтения');
    await page.keyboard.type('Текст владельца.');
    await saved(page);
    await expect(page.locator('.page-sync').textContent()).resolves.toBe('Сохранено');
    await page.getByRole('button', { name: 'Поделиться' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('E-mail или имя').fill('reader.polish@example.com');
    await dialog.getByLabel('Уровень доступа').selectOption('read');
    await dialog.getByRole('button', { name: 'Пригласить' }).click();
    await dialog.locator('.share-member[data-email="reader.polish@example.com"]').waitFor();
    await page.keyboard.press('Escape');

    const readerContext = await page.context().browser()!.newContext({ viewport: DESKTOP });
    const reader = await readerContext.newPage();
    await signInThroughUi(reader, server(), 'reader.polish@example.com');
    await reader.goto(url);
    await reader.locator('.page-readonly').waitFor();
    await reader.getByText('Текст владельца.').waitFor();
    await reader.waitForTimeout(1_000);
    expect(await reader.locator('.page-sync').count()).toBe(0);
    expect(await reader.getByText('Сохранено').count()).toBe(0);
    await shootBoth(reader, 'reader-1280');
    await readerContext.close();
    await page.close();
  }, 60_000);
});
