import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { blocksOf, eventually, newPage, pageReady, saved, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * A data table's row opened as a page of its own, in real Chromium against the real server:
 * its fields sit under the title, its body below them (issue 34 §2).
 */

const suite = browserSuite();

/** Signed in, with a Database page and one row made through the API. */
async function rowPage(email: string, title: string) {
  const api = `${suite.server.url}/api/v3/spaces`;
  const page = await suite.signedIn(email);
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${api}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Задачи' }),
  });
  const block = (await fetchJson<{ data: Array<{ id: string }> }>(`${api}/note/${holder.data.id}/blocks`, { cookie })).data[0];
  const [row] = (
    await fetchJson<{ data: Array<{ id: string }> }>(`${api}/database/${block.id}/rows`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ rows: [{ title }] }),
    })
  ).data;
  return { page, cookie, api, rowId: row.id };
}

const title = (page: Page) => page.locator('[data-slate-editor] h1').innerText();

it('clicking below the fields of an empty row page and typing writes a body paragraph, not the title', async () => {
  const { page, rowId } = await rowPage('row.page.body@example.com', 'Планёрка');
  await page.goto(`${suite.server.url}/${rowId}`);
  await pageReady(page);
  const fields = page.getByLabel('Поля строки');
  await fields.waitFor();
  // The empty space under the fields (where a body would be).
  const box = (await fields.boundingBox())!;
  await page.mouse.click(box.x + 40, box.y + box.height + 40);
  await page.keyboard.type('Повестка встречи');
  await saved(page);
  await expect(title(page)).resolves.toBe('Планёрка');
  await expect(blocksOf(page)).resolves.toEqual(['textBlock:0:Повестка встречи']);
  await shoot(page, 'row-page-body');
  await page.reload();
  await pageReady(page);
  await expect(title(page)).resolves.toBe('Планёрка');
  await expect(blocksOf(page)).resolves.toEqual(['textBlock:0:Повестка встречи']);
  await page.context().close();
});

it("a database inserted from the slash menu: the empty paragraph's hint under it sits on that paragraph, not over the database", async () => {
  const page = await suite.signedIn('row.page.hint@example.com');
  await newPage(page, 'Со вставкой');
  await page.keyboard.type('/база');
  await page.locator('.slash-menu').waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.db-scroll').waitFor();
  await saved(page);
  // The caret is in the empty paragraph under the database; its hint is drawn where that paragraph is.
  const hint = page.locator('.block-text-placeholder');
  await hint.waitFor();
  const paragraph = page.locator('[data-slate-editor] .block-textBlock').last();
  await eventually(async () => {
    const [h, p] = [(await hint.boundingBox())!, (await paragraph.boundingBox())!];
    return h.y >= p.y - 1 && h.y < p.y + p.height;
  }, true);
  const grid = (await page.locator('.database-block').boundingBox())!;
  const at = (await hint.boundingBox())!;
  expect(at.y).toBeGreaterThanOrEqual(grid.y + grid.height - 1);
  await shoot(page, 'database-inserted-hint');
  await page.context().close();
});
