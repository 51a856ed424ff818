import type { BrowserContext, Page } from 'playwright-core';
import { dragBeside, eventually, newPage, pageReady, saved, shareByEmail, twoPeopleSuite } from '../../../test/helpers/editorPage';
import type { ServerProcess } from '../../../test/helpers/serverProcess';

/*
 * Columns edited by two people at once (issue 39 §2), real Chromium and server: Alice makes two
 * columns, Bob sees them side by side live; Bob types in the right column while Alice types in
 * the left one and then drags a block beside the list's first one — every character lands where
 * it was typed, both see the same columns, and a reload shows them again.
 */

const people = twoPeopleSuite('alice.columns@example.com', 'bob.columns@example.com');
let server: ServerProcess;
let alice: BrowserContext;
let bob: BrowserContext;

beforeAll(() => {
  [server, alice, bob] = [people.server(), people.first(), people.second()];
});

/** The page's paragraphs in document order, with the column each is in (0: none), from the geometry each person sees. */
const columnsSeen = (page: Page) =>
  page.evaluate(() => {
    // (Empty paragraphs left out: the line after the list.)
    const paragraphs = [...document.querySelectorAll<HTMLElement>('[data-slate-editor] p[data-block-id]')].filter(
      (p) => p.textContent?.replace(/\uFEFF/g, '') !== '',
    );
    const lefts = [...new Set(paragraphs.filter((p) => p.classList.contains('is-in-column')).map((p) => Math.round(p.getBoundingClientRect().left)))].sort(
      (a, b) => a - b,
    );
    return paragraphs.map(
      (p) => `${p.classList.contains('is-in-column') ? lefts.indexOf(Math.round(p.getBoundingClientRect().left)) + 1 : 0}:${p.textContent}`,
    );
  });

it('two people in two columns: what each types lands in their column, a drag beside joins them, both see the same', async () => {
  const a = await alice.newPage();
  await a.goto(server.url + '/');
  const url = await newPage(a, 'Вместе в колонках');
  const pageId = url.split('/').pop()!;
  await a.keyboard.type('/колон');
  await a
    .locator('.slash-menu')
    .getByRole('option', { name: /2 колонки/ })
    .waitFor();
  await a.keyboard.press('Enter');
  await a.keyboard.type('Левая');
  await saved(a);
  expect(await shareByEmail(a, pageId, 'bob.columns@example.com', 'edit')).toBe(200);

  const b = await bob.newPage();
  await b.goto(url);
  await pageReady(b);
  await b.locator('[data-slate-editor] p.is-in-column').nth(1).waitFor();
  // Bob in the right column, Alice in the left, at the same time.
  await b.locator('[data-slate-editor] p.is-in-column').nth(1).click();
  await a.locator('[data-slate-editor] p', { hasText: 'Левая' }).click();
  await a.keyboard.press('End');
  await Promise.all([b.keyboard.type('Правая колонка Боба', { delay: 20 }), a.keyboard.type(' колонка Алисы', { delay: 20 })]);
  await a.keyboard.press('Enter');
  await a.keyboard.type('Вторая строка слева');
  await Promise.all([saved(a), saved(b)]);
  const expected = ['1:Левая колонка Алисы', '1:Вторая строка слева', '2:Правая колонка Боба'];
  await eventually(() => columnsSeen(a), expected, 15_000);
  await eventually(() => columnsSeen(b), expected, 15_000);

  // Alice drags «Вторая строка слева» beside Bob's line: a third column; Bob sees it.
  await dragBeside(a, 'Вторая строка слева', 'Правая колонка Боба');
  const three = ['1:Левая колонка Алисы', '2:Правая колонка Боба', '3:Вторая строка слева'];
  await eventually(() => columnsSeen(a), three, 15_000);
  await saved(a);
  await eventually(() => columnsSeen(b), three, 15_000);
  await b.reload();
  await pageReady(b);
  await b.locator('[data-slate-editor] p.is-in-column').first().waitFor();
  await eventually(() => columnsSeen(b), three, 15_000);
  await Promise.all([a.close(), b.close()]);
}, 120_000);
