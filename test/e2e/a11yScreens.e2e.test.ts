import type { Page } from 'playwright-core';
import { databaseWithViews, everyBlock, pageWith } from '../helpers/a11yContent';
import { axeViolations } from '../helpers/axe';
import { addSessionCookie, holdNextAnswer } from '../helpers/browser';
import { browserSuite } from '../helpers/browserSuite';
import { shoot } from '../helpers/editorPage';
import { fetchJson, signInToProcess } from '../helpers/serverProcess';

/*
 * Issue 37, «Done means»: axe-core's WCAG 2.2 A/AA rules (test/helpers/axe.ts pins them) over
 * every screen of the app, the whole document each time and colour contrast included — in light
 * and dark, at 1280 and 375 px. Signed out: sign-in (both steps), a public page, a missing public
 * page. Signed in: home, a page with every block type and its comments, the inbox, share,
 * history, the page menu, a database, a row page, search, the quick finder, CSV import, workspace
 * settings, profile, trash, the wizard, the clone screen, a missing page and one not shared; and
 * the menus and popovers opened from them (workspaces, new page, an inbox item's, reactions, a
 * column's, a new field, a view's, a calculation's).
 * The editor's menus and each database view have suites of their own (editorA11y, databaseA11y).
 */

const suite = browserSuite({ timeoutMs: 600_000 });
const OWNER = 'screens@example.com';
const WEB = { 'X-App-Type': 'Web' };

interface Seeded {
  pageId: string;
  holderId: string;
  rowId: string;
  othersPageId: string;
}
let seeded: Seeded;
let ownerCookie: string;

beforeAll(async () => {
  const url = suite.server.url;
  const S = `${url}/api/v3/spaces`;
  const owner = await signInToProcess(suite.server, OWNER);
  ownerCookie = owner;
  const bob = await signInToProcess(suite.server, 'bob.screens@example.com');
  const ownerId = (await fetchJson<{ data: { id: string } }>(`${url}/api/user/current`, { cookie: owner })).data.id;
  await fetchJson(`${url}/api/user`, { method: 'POST', cookie: bob, body: JSON.stringify({ name: 'Боб' }) }).catch(() => undefined);
  const pageId = await pageWith(url, owner, 'Все блоки', everyBlock());
  const { holderId, rowId } = await databaseWithViews(url, owner);
  // Bob comments on the page, mentioning its owner: a thread and an unread notification.
  await fetchJson(`${S}/element/${pageId}/member/add`, {
    method: 'POST',
    cookie: owner,
    headers: WEB,
    body: JSON.stringify([{ email: 'bob.screens@example.com', accessLevel: 'edit' }]),
  });
  await fetchJson(`${S}/element/${pageId}/comments`, {
    method: 'POST',
    cookie: bob,
    headers: WEB,
    body: JSON.stringify({ content: [{ text: 'Посмотри, ' }, { text: '@Хозяин', mention: { userId: ownerId } }, { text: ', пожалуйста' }] }),
  });
  // Published (the public page and the clone screen), a page in the trash, one of Bob's own.
  await fetchJson(`${S}/element/${pageId}`, { method: 'PATCH', cookie: owner, headers: WEB, body: JSON.stringify({ isPublic: true }) });
  const old = await pageWith(url, owner, 'Старая заметка', []);
  await fetchJson(`${S}/element/${old}`, { method: 'DELETE', cookie: owner, headers: WEB });
  const othersPageId = await pageWith(url, bob, 'Личное Боба', []);
  seeded = { pageId, holderId, rowId, othersPageId };
}, 120_000);

type Variant = { scheme: 'light' | 'dark'; width: number };
/** `popover`: a non-modal popover is open (its selector): see the loop. */
/** `open` may answer what to undo once the screen is checked (an answer held back, released). */
type Screen = { name: string; signedOut?: boolean; popover?: string; open(page: Page, variant: Variant): Promise<void | (() => void)> };

/** Waits for what the screen loads and for its panels and menus to finish fading in (contrast is measured on what is drawn in full). */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // A spinner's endless turn left out.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity));
}

const pageReady = (page: Page) => page.locator('.page[aria-busy="false"] [data-slate-editor] h1').first().waitFor();

/** A control of the sidebar (on a phone, the drawer opened first). */
async function sidebar(page: Page) {
  const nav = page.locator('nav.sidebar');
  const open = page.getByRole('button', { name: 'Открыть меню' });
  // The sidebar shown, or (a phone) the button that shows it: whichever the screen has once drawn.
  await page.locator('nav.sidebar:visible').or(open).first().waitFor();
  if (!(await nav.isVisible())) await open.click();
  await settled(page);
  return nav;
}

/** Opens a menu from `button` and runs its item named `item`. */
async function menuItem(page: Page, button: ReturnType<Page['locator']>, item: string) {
  await button.click();
  await page.getByRole('menu').getByRole('menuitem', { name: item }).first().click();
}

const at = (page: Page, path: string) => page.goto(suite.server.url + path);

const SCREENS: Screen[] = [
  {
    name: 'sign-in',
    signedOut: true,
    open: async (page) => {
      await at(page, '/login');
      await page.getByLabel('Электронная почта').waitFor();
    },
  },
  {
    name: 'sign-in code',
    signedOut: true,
    open: async (page, { scheme, width }) => {
      await at(page, '/login');
      // One address per variant: a code is sent to an address a few times a minute at most.
      await page.getByLabel('Электронная почта').fill(`guest.${scheme}.${width}@example.com`);
      await page.getByRole('button', { name: 'Получить код' }).click();
      await page.getByLabel('Код из письма').waitFor();
    },
  },
  {
    name: 'public page',
    signedOut: true,
    open: async (page) => {
      await at(page, `/public/${seeded.pageId}`);
      await page.locator('.block-latexBlock .katex-display').waitFor();
    },
  },
  {
    name: 'public page missing',
    signedOut: true,
    open: async (page) => {
      await at(page, '/public/00000000-0000-4000-8000-000000000000');
      await page.locator('.error-screen').waitFor();
    },
  },
  {
    name: 'home',
    open: async (page) => {
      await at(page, '/');
      await page.waitForFunction(() => document.title === 'Главная — Страницы');
    },
  },
  {
    name: 'page',
    open: async (page) => {
      await at(page, `/${seeded.pageId}`);
      await pageReady(page);
    },
  },
  {
    name: 'comments',
    open: async (page) => {
      await at(page, `/${seeded.pageId}`);
      await pageReady(page);
      await page.getByRole('button', { name: 'Комментарии', exact: true }).click();
      await page.locator('.comments-panel').getByText('пожалуйста').first().waitFor();
    },
  },
  {
    name: 'inbox',
    open: async (page) => {
      await at(page, `/${seeded.pageId}`);
      await pageReady(page);
      await (await sidebar(page)).locator('.inbox-entry').click();
      await page.getByRole('complementary', { name: 'Входящие' }).getByText('пожалуйста').first().waitFor();
    },
  },
  {
    name: 'share',
    open: async (page) => {
      await at(page, `/${seeded.pageId}`);
      await pageReady(page);
      await page.getByRole('button', { name: 'Поделиться' }).click();
      await page.getByRole('dialog').getByText('bob.screens@example.com').first().waitFor();
    },
  },
  {
    name: 'page menu',
    popover: '[role="menu"]',
    open: async (page) => {
      await at(page, `/${seeded.pageId}`);
      await pageReady(page);
      await page.getByRole('button', { name: 'Действия со страницей' }).click();
      await page.getByRole('menu').waitFor();
    },
  },
  {
    name: 'history',
    open: async (page) => {
      await at(page, `/${seeded.pageId}`);
      await pageReady(page);
      await menuItem(page, page.getByRole('button', { name: 'Действия со страницей' }), 'История версий');
      await page.getByRole('dialog', { name: 'История версий' }).waitFor();
    },
  },
  {
    name: 'database',
    open: async (page) => {
      await at(page, `/${seeded.holderId}`);
      await page.locator('.db-scroll .db-row').first().waitFor();
    },
  },
  {
    name: 'row page',
    open: async (page) => {
      await at(page, `/${seeded.rowId}`);
      await page.locator('.db-row-fields').waitFor();
      await page.locator('.page[aria-busy="false"]').waitFor();
    },
  },
  {
    name: 'search',
    open: async (page) => {
      await at(page, '/search?q=блоки');
      await page.locator('main').getByText('Все блоки').first().waitFor();
    },
  },
  {
    name: 'quick finder',
    open: async (page) => {
      await at(page, `/${seeded.pageId}`);
      await pageReady(page);
      await page.keyboard.press('Control+k');
      const finder = page.getByRole('dialog', { name: 'Поиск' });
      await finder.getByRole('combobox').or(finder.getByRole('textbox')).first().fill('блоки');
      await finder.getByRole('option').first().waitFor();
    },
  },
  {
    name: 'CSV import',
    open: async (page) => {
      await at(page, '/');
      const nav = await sidebar(page);
      await menuItem(page, nav.getByRole('region', { name: 'Личные' }).getByRole('button', { name: 'Выбрать тип новой страницы' }), 'Импорт CSV');
      await page.getByRole('dialog', { name: 'Импорт CSV в новую базу данных' }).waitFor();
    },
  },
  {
    name: 'workspace settings',
    open: async (page) => {
      await at(page, '/');
      const nav = await sidebar(page);
      await menuItem(page, nav.locator('.sidebar-workspace'), 'Настройки пространства');
      await page.getByRole('dialog', { name: 'Настройки пространства' }).waitFor();
    },
  },
  {
    name: 'profile',
    open: async (page) => {
      await at(page, '/');
      await (await sidebar(page)).getByRole('button', { name: OWNER }).click();
      await page.getByRole('dialog', { name: 'Профиль и настройки' }).waitFor();
    },
  },
  {
    name: 'trash',
    open: async (page) => {
      await at(page, '/');
      await (await sidebar(page)).getByRole('button', { name: 'Корзина' }).click();
      await page.getByRole('dialog', { name: 'Корзина' }).getByText('Старая заметка').waitFor();
    },
  },
  {
    name: 'wizard',
    open: async (page) => {
      await at(page, '/new-workspace');
      await page.getByRole('dialog', { name: 'Новое пространство' }).waitFor();
    },
  },
  {
    name: 'clone',
    open: async (page) => {
      // The copy's answer held back: the screen stays while it is read.
      const held = await holdNextAnswer(page, '**/page/clone');
      await at(page, `/clone/${seeded.pageId}`);
      await page.locator('.clone-screen').waitFor();
      return held.release;
    },
  },
  {
    name: 'workspace menu',
    popover: '.workspace-menu',
    open: async (page) => {
      await at(page, '/');
      await (await sidebar(page)).locator('.sidebar-workspace').click();
      await page.locator('.workspace-menu').waitFor();
    },
  },
  {
    name: 'new page menu',
    popover: '[role="menu"]',
    open: async (page) => {
      await at(page, '/');
      const nav = await sidebar(page);
      await nav.getByRole('region', { name: 'Личные' }).getByRole('button', { name: 'Выбрать тип новой страницы' }).click();
      await page.getByRole('menu').waitFor();
    },
  },
  {
    name: 'inbox item menu',
    popover: '[role="menu"]',
    open: async (page) => {
      await at(page, `/${seeded.pageId}`);
      await pageReady(page);
      await (await sidebar(page)).locator('.inbox-entry').click();
      const inbox = page.getByRole('complementary', { name: 'Входящие' });
      await inbox.locator('.inbox-item-more').first().click();
      await page.getByRole('menu').waitFor();
    },
  },
  {
    name: 'reaction picker',
    popover: '.reaction-picker',
    open: async (page) => {
      await at(page, `/${seeded.pageId}`);
      await pageReady(page);
      await page.getByRole('button', { name: 'Комментарии', exact: true }).click();
      await page.locator('.comments-panel').getByRole('button', { name: 'Добавить реакцию' }).first().click();
      await page.locator('.reaction-picker').waitFor();
    },
  },
  {
    name: 'field menu',
    popover: '[role="dialog"][aria-label="Поле"]',
    open: async (page) => {
      await at(page, `/${seeded.holderId}`);
      await page.locator('.db-hcell', { hasText: 'Цена' }).locator('.db-hcell-button').click();
      await page.getByRole('dialog', { name: 'Поле' }).waitFor();
    },
  },
  {
    name: 'new field',
    popover: '[role="dialog"][aria-label="Добавить поле"]',
    open: async (page) => {
      await at(page, `/${seeded.holderId}`);
      await page.getByRole('button', { name: 'Добавить поле' }).click();
      await page.getByRole('dialog', { name: 'Добавить поле' }).waitFor();
    },
  },
  {
    name: 'view menu',
    popover: '[role="menu"]',
    open: async (page) => {
      await at(page, `/${seeded.holderId}`);
      // A click on the tab shown opens its menu.
      await page.getByRole('tab', { selected: true }).click();
      await page.getByRole('menu').waitFor();
    },
  },
  {
    name: 'calculation menu',
    popover: '[role="menu"]',
    open: async (page) => {
      await at(page, `/${seeded.holderId}`);
      await page.locator('.db-fcell-button', { hasText: 'Сумма' }).click();
      await page.getByRole('menu').waitFor();
    },
  },
  {
    name: 'page missing',
    open: async (page) => {
      await at(page, '/00000000-0000-4000-8000-000000000000');
      await page.locator('.error-screen').first().waitFor();
    },
  },
  {
    name: 'page not shared',
    open: async (page) => {
      await at(page, `/${seeded.othersPageId}`);
      await page.locator('.error-screen').first().waitFor();
    },
  },
];

const VARIANTS: Variant[] = [
  { scheme: 'light', width: 1280 },
  { scheme: 'dark', width: 1280 },
  { scheme: 'light', width: 375 },
  { scheme: 'dark', width: 375 },
];

it.each(VARIANTS)('every screen passes axe-core (WCAG 2.2 A/AA, contrast included): $scheme, $width px', async ({ scheme, width }) => {
  const context = await suite.browser.newContext({ viewport: { width, height: 900 } });
  await addSessionCookie(context, ownerCookie, suite.server.url);
  const signedIn = await context.newPage();
  signedIn.setDefaultTimeout(15_000);
  const outside = await suite.browser.newContext({ viewport: { width, height: 900 } });
  const anonymous = await outside.newPage();
  const found: Record<string, string[]> = {};
  for (const screen of SCREENS) {
    const page = screen.signedOut ? anonymous : signedIn;
    await page.emulateMedia({ colorScheme: scheme });
    let undo: void | (() => void);
    try {
      undo = await screen.open(page, { scheme, width });
      await page.locator(`html[data-theme="${scheme}"]`).waitFor();
      await settled(page);
    } catch (error) {
      await shoot(page, `a11y-screen-failed-${screen.name.replace(/ /g, '-')}-${scheme}-${width}`);
      throw new Error(`${screen.name}: ${(error as Error).message}`, { cause: error });
    }
    await shoot(page, `a11y-screen-${screen.name.replace(/ /g, '-')}-${scheme}-${width}`);
    // Under an open popover, what it covers is obscured, not small: axe's target-size (WCAG 2.5.8)
    // would count the covered part of each target below. The popover's own targets are checked.
    found[screen.name] = screen.popover
      ? [
          ...(await axeViolations(page, { skip: ['target-size'] })),
          ...(await axeViolations(page, {}, page.locator(screen.popover).first())).filter((v) => v.startsWith('target-size')),
        ]
      : await axeViolations(page);
    undo?.();
    // Menus and dialogs closed before the next screen.
    await page.keyboard.press('Escape');
  }
  await outside.close();
  await context.close();
  expect(found).toEqual(Object.fromEntries(SCREENS.map((s) => [s.name, []])));
});
