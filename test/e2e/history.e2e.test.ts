import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, saved, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * Page history (issue 18, docs/history.md) in real Chromium against the real server (a version
 * after 300 ms without edits): the page menu's «История версий» lists versions with their author;
 * an older version shows read-only with its changes marked — inside a changed paragraph, the word
 * removed struck out and the word added marked — and what it removed; the list grows live while
 * the panel is open (an edit typed in a second window, recorded by the historian; a restore made
 * there), the version being read staying put; «Восстановить эту версию» brings the page back —
 * seen at once in the second window — and the restore is a version of its own.
 */

const suite = browserSuite({ env: { HISTORY_PAUSE_MS: '300', HISTORY_MAX_MS: '3000' } });
const S = () => `${suite.server.url}/api/v3/spaces`;
/** The page's blocks' texts under its title (the title is the editor's first block), empty ones left out. */
const texts = async (page: Page, root = '.page [data-slate-editor]') =>
  (await page.locator(`${root} [data-block-id]`).allTextContents()).slice(1).filter(Boolean);

it('«История версий»: versions by author, an old one shown with its changes word by word, the list live, restored — live in another window — as a version of its own', async () => {
  const page = await suite.signedIn('history.writer@example.com');
  const cookie = await cookieOf(page);
  const made = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ title: 'Черновик статьи' }),
  });
  const pageId = made.data.id;
  const block = async (text: string, placeAfter: string | null) =>
    (
      await fetchJson<{ data: { id: string; version: number } }>(`${S()}/block`, {
        method: 'POST',
        cookie,
        body: JSON.stringify({ pageId, type: 'text', data: { tokens: [{ text }] }, placeAfter }),
      })
    ).data;
  const intro = await block('Короткое вступление о главном', null);
  const middle = await block('Середина', intro.id);
  const versions = async () => (await fetchJson<{ data: Array<{ id: number }> }>(`${S()}/element/${pageId}/versions`, { cookie })).data.length;
  await eventually(versions, 1);
  // Then rewritten: a word of the intro replaced, the middle deleted, an ending added.
  await fetchJson(`${S()}/block/${intro.id}`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ version: intro.version, type: 'text', data: { tokens: [{ text: 'Длинное вступление о самом главном' }] } }),
  });
  await fetchJson(`${S()}/block/${middle.id}`, { method: 'DELETE', cookie });
  await block('Концовка', intro.id);
  await eventually(versions, 2);

  await page.goto(`${suite.server.url}/${pageId}`);
  await eventually(() => texts(page), ['Длинное вступление о самом главном', 'Концовка']);
  const other = await page.context().newPage();
  await other.goto(`${suite.server.url}/${pageId}`);
  await eventually(() => texts(other), ['Длинное вступление о самом главном', 'Концовка']);
  await page.bringToFront();

  await page.getByRole('button', { name: 'Действия со страницей' }).click();
  await page.getByRole('menuitem', { name: 'История версий' }).click();
  const dialog = page.getByRole('dialog', { name: 'История версий' });
  const list = dialog.getByRole('navigation', { name: 'Версии' }).getByRole('button');
  await eventually(() => list.count(), 2);
  expect(await list.first().textContent()).toContain('history.writer');
  // The newest shows its changes: in the intro the word removed struck out and the one added
  // marked (the block amber), the ending added (green), the middle removed (listed below).
  const preview = dialog.getByRole('region', { name: 'Версия страницы' });
  const previewTexts = () => texts(page, '.history-preview [data-slate-editor]');
  await eventually(previewTexts, ['КороткоеДлинное вступление о самом главном', 'Концовка']);
  const introShown = preview.locator(`[data-slate-editor] [data-block-id="${intro.id}"]`);
  await expect(introShown.locator('del.diff-removed').allTextContents()).resolves.toEqual(['Короткое']);
  expect((await introShown.locator('ins.diff-added').allTextContents()).map((w) => w.trim())).toEqual(['Длинное', 'самом']);
  expect(await introShown.locator('del.diff-removed').evaluate((el) => getComputedStyle(el).textDecorationLine)).toBe('line-through');
  await expect(preview.locator('.history-removed li').allTextContents()).resolves.toEqual(['Середина']);
  await shoot(page, 'history-dialog-1280');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'history-dialog-1280-dark');
  await page.setViewportSize({ width: 375, height: 800 });
  await shoot(page, 'history-dialog-375-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await shoot(page, 'history-dialog-375');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Live: the other window types into the intro; once the historian records it (300 ms without
  // edits), it is at the top of the open list — the version being read stays chosen and shown.
  const shownVersion = await list.first().textContent();
  await other.bringToFront();
  await other.locator(`.page [data-slate-editor] [data-block-id="${intro.id}"]`).click();
  await other.keyboard.press('End');
  await other.keyboard.type(' и ещё');
  await eventually(() => texts(other), ['Длинное вступление о самом главном и ещё', 'Концовка']);
  await saved(other);
  await page.bringToFront();
  // (The typing may have been saved in two writes, recorded as two versions: the server says how many.)
  const newestText = async () => {
    const [newest] = (await fetchJson<{ data: Array<{ id: number }> }>(`${S()}/element/${pageId}/versions`, { cookie })).data;
    const content = await fetchJson<{ data: { blocks: Array<{ id: string; data: { tokens?: Array<{ text: string }> } }> } }>(
      `${S()}/element/${pageId}/versions/${newest.id}`,
      { cookie },
    );
    return content.data.blocks
      .find((b) => b.id === intro.id)
      ?.data.tokens?.map((t) => t.text)
      .join('');
  };
  await eventually(newestText, 'Длинное вступление о самом главном и ещё', 10_000);
  const count = await versions();
  expect(count).toBeGreaterThanOrEqual(3);
  await eventually(() => list.count(), count);
  // (A version saved in the same minute since makes the list show seconds: compared without them.)
  const minutes = (text: string | null) => text?.replace(/(\d\d:\d\d):\d\d/, '$1');
  expect(minutes(await list.nth(count - 2).textContent())).toBe(minutes(shownVersion));
  expect(await list.nth(count - 2).getAttribute('aria-current')).toBe('true');
  await expect(previewTexts()).resolves.toEqual(['КороткоеДлинное вступление о самом главном', 'Концовка']);
  // A restore made in the other window (to the first version) shows up too.
  const first = (await fetchJson<{ data: Array<{ id: number }> }>(`${S()}/element/${pageId}/versions`, { cookie })).data.at(-1)!;
  await fetchJson(`${S()}/element/${pageId}/versions/${first.id}/restore`, { method: 'POST', cookie: await cookieOf(other) });
  await eventually(() => list.count(), count + 1);
  expect(await list.first().textContent()).toContain('Восстановление версии');
  await shoot(page, 'history-dialog-live-1280');
  expect(await list.nth(count - 1).getAttribute('aria-current')).toBe('true');
  await eventually(() => texts(page), ['Короткое вступление о главном', 'Середина']);

  // The typed version, restored from here.
  await list.nth(1).click();
  await eventually(previewTexts, ['Длинное вступление о самом главном и ещё', 'Концовка']);
  await expect(preview.locator('ins.diff-added').count()).resolves.toBeGreaterThan(0);
  await dialog.getByRole('button', { name: 'Восстановить эту версию' }).click();
  await dialog.waitFor({ state: 'detached' });
  await eventually(() => texts(page), ['Длинное вступление о самом главном и ещё', 'Концовка']);
  // The other window sees it without a reload.
  await eventually(() => texts(other), ['Длинное вступление о самом главном и ещё', 'Концовка']);
  // The restore is a version; the page before it is one too (restoring it undoes the restore).
  const kinds = (await fetchJson<{ data: Array<{ kind: string }> }>(`${S()}/element/${pageId}/versions`, { cookie })).data.map((v) => v.kind);
  expect(kinds.slice(0, 2)).toEqual(['restore', 'restore']);
  await page.context().close();
});
