import type { BrowserContext, Page } from 'playwright-core';
import { blocksOf, eventually, newPage, pageReady, saved, shareByEmail, shoot, twoPeopleSuite } from '../../../test/helpers/editorPage';
import { axeViolations } from '../../../test/helpers/axe';
import type { ServerProcess } from '../../../test/helpers/serverProcess';

/*
 * Synced blocks (issue 39 §2), real Chromium and server, two people: Alice makes a synced block
 * from the slash menu, copies it («Копировать и синхронизировать») and pastes it into a second
 * page; what she types in either shows in the other, live. Bob, given the second page only, sees
 * «Нет доступа к исходному блоку»; given the first page too, he edits the synced block from the
 * second and Alice sees it live on the first. «Отвязать» leaves a plain copy that no longer
 * follows. Light, dark and 375 px.
 */

const HEADERS = { 'X-App-Type': 'Web', 'Content-Type': 'application/json' };
const people = twoPeopleSuite('alice.synced@example.com', 'bob.synced@example.com');
let server: ServerProcess;
let alice: BrowserContext;
let bob: BrowserContext;

beforeAll(async () => {
  [server, alice, bob] = [people.server(), people.first(), people.second()];
  await alice.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
});

/** The text of the synced blocks on the page, each its blocks' lines joined by «|». */
const syncedTexts = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.block-synced .document-editor')].map((editor) =>
      [...editor.querySelectorAll('[data-block-id]:not(.block-pageHeadingBlock)')].map((block) => (block.textContent ?? '').replace(/\uFEFF/g, '')).join('|'),
    ),
  );

/** «Синхронизированный блок» chosen in the slash menu on the caret's line (Enter: the block is being made). */
async function chooseSyncedBlock(page: Page) {
  await page.keyboard.type('/синхр');
  await page
    .locator('.slash-menu')
    .getByRole('option', { name: /Синхронизированный блок/ })
    .waitFor();
  await page.keyboard.press('Enter');
}

/** A synced block from the slash menu on the caret's line; its own editor takes the caret. */
async function makeSyncedBlock(page: Page) {
  await chooseSyncedBlock(page);
  await page.locator('.block-synced .document-editor[contenteditable="true"] p').first().waitFor();
  // The caret in it (a frame after its blocks are drawn), as the person sees it blink there.
  await page.waitForFunction(() => document.activeElement?.closest('.block-synced .document-editor') != null);
}

/** Types at the end of the synced block's first line on `page`. */
async function typeInSynced(page: Page, text: string) {
  const line = page.locator('.block-synced .document-editor p').first();
  await line.click();
  await page.keyboard.press('End');
  await page.keyboard.type(text, { delay: 10 });
}

it('one synced block on two pages: edited from either, live; Bob without the first page sees no access, with it edits it; «Отвязать» makes a copy', async () => {
  const a = await alice.newPage();
  await a.goto(server.url + '/');
  const firstUrl = await newPage(a, 'Источник');
  const firstId = firstUrl.split('/').pop()!;
  await a.keyboard.type('Выше');
  await a.keyboard.press('Enter');
  await makeSyncedBlock(a);
  await a.keyboard.type('Общий текст');
  await saved(a);
  await eventually(() => syncedTexts(a), ['Общий текст']);
  await shoot(a, 'synced-1280');

  // «Копировать и синхронизировать», then a paste into a second page.
  await a.locator('.block-synced').hover();
  await a.locator('.block-synced').getByRole('button', { name: 'Копировать и синхронизировать' }).click();
  await a.getByText('Скопировано').first().waitFor();
  const secondUrl = await newPage(a, 'Вторая');
  const secondId = secondUrl.split('/').pop()!;
  await a.keyboard.press('Control+V');
  await eventually(() => syncedTexts(a), ['Общий текст'], 10_000);
  await saved(a);

  // The first page open in a second tab: what is typed on the second page shows there live.
  const a1 = await alice.newPage();
  await a1.goto(firstUrl);
  await pageReady(a1);
  await eventually(() => syncedTexts(a1), ['Общий текст'], 10_000);
  await typeInSynced(a, ' и ещё');
  await saved(a);
  await eventually(() => syncedTexts(a1), ['Общий текст и ещё'], 10_000);
  // And back: typed on the first page, shown on the second.
  await typeInSynced(a1, '!');
  await saved(a1);
  await eventually(() => syncedTexts(a), ['Общий текст и ещё!'], 10_000);

  // Bob is given the second page only: the synced block is not his to read.
  expect(await shareByEmail(a, secondId, 'bob.synced@example.com', 'edit')).toBe(200);
  const b = await bob.newPage();
  await b.goto(secondUrl);
  await pageReady(b);
  await b.locator('.block-synced').getByText('Нет доступа к исходному блоку').waitFor();
  expect(await syncedTexts(b)).toEqual([]);
  await shoot(b, 'synced-no-access-1280');

  // Given the first page to read: he sees it, read-only.
  expect(await shareByEmail(a, firstId, 'bob.synced@example.com', 'read')).toBe(200);
  await b.reload();
  await pageReady(b);
  await eventually(() => syncedTexts(b), ['Общий текст и ещё!'], 10_000);
  await b.locator('.block-synced .document-editor[contenteditable="false"]').waitFor();

  // Given it to edit: he types in it on the second page; Alice sees it live on the first.
  expect(await shareByEmail(a, firstId, 'bob.synced@example.com', 'edit')).toBe(200);
  await b.reload();
  await pageReady(b);
  await b.locator('.block-synced .document-editor[contenteditable="true"]').waitFor();
  await typeInSynced(b, ' Боб');
  await saved(b);
  await eventually(() => syncedTexts(a1), ['Общий текст и ещё! Боб'], 10_000);
  await eventually(() => syncedTexts(a), ['Общий текст и ещё! Боб'], 10_000);

  // «Отвязать» on the second page: a plain paragraph there; typing in it does not reach the first page.
  await a.locator('.block-synced').hover();
  await a.locator('.block-synced').getByRole('button', { name: 'Отвязать' }).click();
  await eventually(() => syncedTexts(a), []);
  await a.locator('[data-slate-editor] p', { hasText: 'Общий текст и ещё! Боб' }).click();
  await a.keyboard.press('End');
  await a.keyboard.type(' (копия)');
  await saved(a);
  await a.reload();
  await pageReady(a);
  await a.locator('[data-slate-editor] p', { hasText: 'Общий текст и ещё! Боб (копия)' }).waitFor();
  expect(await syncedTexts(a)).toEqual([]);
  await a1.waitForTimeout(500);
  expect(await syncedTexts(a1)).toEqual(['Общий текст и ещё! Боб']);
  // Bob's second page follows: the block there is a plain copy now too.
  await b.locator('[data-slate-editor] p', { hasText: '(копия)' }).waitFor({ timeout: 10_000 });
  await Promise.all([a.close(), a1.close(), b.close()]);
}, 90_000);

it('looks right: hovered with its bar, dark, 375 px; no accessibility violations', async () => {
  const a = await alice.newPage();
  await a.goto(server.url + '/');
  await newPage(a, 'Синхронизированный вид');
  await a.keyboard.type('Текст над блоком');
  await a.keyboard.press('Enter');
  await makeSyncedBlock(a);
  await a.keyboard.type('Первая строка общего блока');
  await a.keyboard.press('Enter');
  await a.keyboard.type('- пункт списка');
  await saved(a);
  await a.locator('.block-synced').hover();
  await shoot(a, 'synced-hover-1280');
  await expect(axeViolations(a, {}, a.locator('.block-synced'))).resolves.toEqual([]);
  // «История»: the versions of the synced block's own page, in the page's history dialog.
  await a.locator('.block-synced').getByRole('button', { name: 'История' }).click();
  const history = a.getByRole('dialog', { name: 'История версий' });
  await history.waitFor();
  await shoot(a, 'synced-history-1280');
  await a.keyboard.press('Escape');
  await history.waitFor({ state: 'detached' });
  // From the keyboard: ↓ from the line above goes into its blocks; Ctrl+/ there opens the block
  // menu, which offers the synced block's own actions too.
  await a.locator('[data-slate-editor] p', { hasText: 'Текст над блоком' }).click();
  await a.keyboard.press('End');
  await a.keyboard.press('ArrowDown');
  await a.keyboard.press('Control+/');
  await a.getByRole('menuitem', { name: 'Отвязать' }).waitFor();
  await expect(a.getByRole('menuitem', { name: 'Копировать и синхронизировать' }).count()).resolves.toBe(1);
  await shoot(a, 'synced-menu-by-key-1280');
  await a.keyboard.press('Escape');
  await a.emulateMedia({ colorScheme: 'dark' });
  await shoot(a, 'synced-dark-1280');
  await a.setViewportSize({ width: 375, height: 800 });
  await a.locator('.block-synced').hover();
  await shoot(a, 'synced-dark-375');
  const overflow = await a.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await a.close();
}, 90_000);

it('from the block menu: a list item with the block under it becomes a synced block and is copied; pasted elsewhere it is the same; «Отвязать» from the menu', async () => {
  const a = await alice.newPage();
  await a.goto(server.url + '/');
  await newPage(a, 'Из блоков');
  await a.keyboard.type('Обычный абзац');
  await a.keyboard.press('Enter');
  await a.keyboard.type('- пункт один');
  await a.keyboard.press('Enter');
  await a.keyboard.press('Tab');
  await a.keyboard.type('вложенный');
  await saved(a);
  await a.locator('[data-slate-editor] [data-block-id]', { hasText: 'пункт один' }).first().hover();
  await a.locator('.block-handle').click();
  await a.getByRole('menuitem', { name: 'Копировать и синхронизировать' }).click();
  await eventually(() => syncedTexts(a), ['•пункт один|◦вложенный'], 10_000);
  await a.getByText('Скопировано').first().waitFor();
  await saved(a);
  // Outside the synced block only the paragraph is left.
  const outside = () =>
    a.evaluate(() =>
      [...document.querySelectorAll('[data-block-id]:not(.block-pageHeadingBlock):not(.block-synced)')]
        .filter((block) => !block.closest('.is-embedded'))
        .map((block) => (block.textContent ?? '').replace(/\uFEFF/g, ''))
        .filter((text) => text !== ''),
    );
  expect(await outside()).toEqual(['Обычный абзац']);

  await newPage(a, 'Вставка');
  await a.keyboard.press('Control+V');
  await eventually(() => syncedTexts(a), ['•пункт один|◦вложенный'], 10_000);
  await saved(a);
  // The block menu of the synced block itself (its handle shows over its bar): «Отвязать».
  await a.locator('.block-synced').hover();
  await a.locator('.block-synced .synced-name').hover();
  await a.locator('.block-handle').first().click();
  await a.getByRole('menuitem', { name: 'Отвязать' }).click();
  await eventually(() => syncedTexts(a), []);
  await a.locator('[data-slate-editor] li, [data-slate-editor] [data-block-id]', { hasText: 'вложенный' }).first().waitFor();
  await saved(a);
  await a.close();
}, 90_000);

it('published: anyone reads the synced block of a published page it was made on; a search result inside it is shown there; its content’s address opens its page', async () => {
  const a = await alice.newPage();
  await a.goto(server.url + '/');
  const url = await newPage(a, 'Публичный держатель');
  const pageId = url.split('/').pop()!;
  await makeSyncedBlock(a);
  await a.keyboard.type('Видно всем');
  await a.keyboard.press('Enter');
  await a.keyboard.type('Найди меня здесь');
  await saved(a);
  const published = await a.evaluate(
    async ([id, headers]) => (await fetch(`/api/v3/spaces/element/${id}`, { method: 'PATCH', headers, body: JSON.stringify({ isPublic: true }) })).status,
    [pageId, HEADERS] as const,
  );
  expect(published).toBe(200);

  // Nobody signed in: the public page shows the synced block's blocks, read-only.
  const visitor = await people.browser().newContext({ viewport: { width: 1280, height: 900 } });
  const v = await visitor.newPage();
  await v.goto(`${server.url}/public/${pageId}`);
  await eventually(() => syncedTexts(v), ['Видно всем|Найди меня здесь'], 10_000);
  expect(await v.locator('.block-synced .document-editor[contenteditable="true"]').count()).toBe(0);
  await shoot(v, 'synced-public-1280');
  await visitor.close();

  // A search result's block inside the synced block (`?block=`): shown there, marked.
  const found = await a.locator('.block-synced .document-editor [data-block-id]', { hasText: 'Найди меня здесь' }).getAttribute('data-block-id');
  await a.goto(`${url}?block=${found}`);
  await a.locator(`.block-synced [data-block-id="${found}"].is-found`).waitFor({ timeout: 10_000 });
  // The content's own address (a notification of a comment in it) opens the page it was made on.
  const contentPageId = await a.locator('.block-synced').getAttribute('data-synced-page');
  await a.goto(`${server.url}/${contentPageId}`);
  await a.waitForURL(url);
  await eventually(() => syncedTexts(a), ['Видно всем|Найди меня здесь'], 10_000);
  await a.close();
}, 90_000);

it('twice on one page (duplicated): what is typed in one shows in the other, in this tab too; ← at its start does not reach its hidden title', async () => {
  const a = await alice.newPage();
  await a.goto(server.url + '/');
  await newPage(a, 'Дважды');
  await makeSyncedBlock(a);
  await a.keyboard.type('Один');
  await saved(a);
  await a.locator('.block-synced').hover();
  await a.locator('.block-synced .synced-name').hover();
  await a.locator('.block-handle').first().click();
  await a.getByRole('menuitem', { name: /Дублировать/ }).click();
  await eventually(() => syncedTexts(a), ['Один', 'Один'], 10_000);
  await typeInSynced(a, ' и два');
  await saved(a);
  await eventually(() => syncedTexts(a), ['Один и два', 'Один и два'], 10_000);
  // Typed in the second: the first follows.
  await a.locator('.block-synced .document-editor p').nth(1).click();
  await a.keyboard.press('End');
  await a.keyboard.type('!');
  await saved(a);
  await eventually(() => syncedTexts(a), ['Один и два!', 'Один и два!'], 10_000);
  // ← at the start of its first line stays in its blocks (its title is not shown): typing lands there.
  await a.locator('.block-synced .document-editor p').first().click();
  await a.keyboard.press('Home');
  await a.keyboard.press('ArrowLeft');
  await a.keyboard.press('Control+Home');
  await a.keyboard.type('>');
  await saved(a);
  await eventually(() => syncedTexts(a), ['>Один и два!', '>Один и два!'], 10_000);
  await a.close();
}, 90_000);

it('keys typed right after «Синхронизированный блок» is chosen are all kept: those before it is made stay on the line, the rest go into it', async () => {
  const a = await alice.newPage();
  await a.goto(server.url + '/');
  await newPage(a, 'Сразу');
  // Every request a little slower, as on a loaded server: the keys span its making and its drawing.
  await a.route('**/api/v3/spaces/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    await route.continue();
  });
  await chooseSyncedBlock(a);
  await a.keyboard.type('абвгдежзик', { delay: 40 });
  await a.locator('.block-synced .document-editor p').first().waitFor();
  await a.unrouteAll({ behavior: 'wait' });
  await saved(a);
  // The line before the block (typed while its page was made) and the block's text, in order: nothing lost.
  const outer = await blocksOf(a);
  const at = outer.findIndex((block) => block.startsWith('syncedBlock:'));
  expect(at).toBeGreaterThanOrEqual(0);
  const line = at > 0 ? outer[at - 1].split(':').slice(2).join(':') : '';
  const inside = (await syncedTexts(a))[0] ?? '';
  expect(line + inside).toBe('абвгдежзик');
  expect(inside.length).toBeGreaterThan(0);
  await a.close();
}, 90_000);
