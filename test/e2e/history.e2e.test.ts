import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';

/*
 * Page history (issue 18, docs/history.md) in real Chromium against the real server (a version
 * after 300 ms without edits): the page menu's «История версий» lists versions with their author;
 * an older version shows read-only with its changes marked and what it removed; «Восстановить эту
 * версию» brings the page back — seen at once in a second window that has the page open — and
 * the restore is a version of its own.
 */

const suite = browserSuite({ env: { HISTORY_PAUSE_MS: '300', HISTORY_MAX_MS: '3000' } });
const S = () => `${suite.server.url}/api/v3/spaces`;
const cookieOf = async (page: Page) => (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
/** The page's blocks' texts under its title (the title is the editor's first block), empty ones left out. */
const texts = async (page: Page, root = '.page [data-slate-editor]') => (await page.locator(`${root} [data-block-id]`).allTextContents()).slice(1).filter(Boolean);

it('«История версий»: versions by author, an old one shown with its changes, restored — live in another window — as a version of its own', async () => {
  const page = await suite.signedIn('history.writer@example.com');
  const cookie = await cookieOf(page);
  const made = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title: 'Черновик статьи' }) });
  const pageId = made.data.id;
  const block = async (text: string, placeAfter: string | null) => (await fetchJson<{ data: { id: string; version: number } }>(`${S()}/block`, { method: 'POST', cookie, body: JSON.stringify({ pageId, type: 'text', data: { tokens: [{ text }] }, placeAfter }) })).data;
  const intro = await block('Вступление', null);
  const middle = await block('Середина', intro.id);
  const versions = async () => (await fetchJson<{ data: Array<{ id: number }> }>(`${S()}/element/${pageId}/versions`, { cookie })).data.length;
  await eventually(versions, 1);
  // Then rewritten: the intro changed, the middle deleted, an ending added.
  await fetchJson(`${S()}/block/${intro.id}`, { method: 'POST', cookie, body: JSON.stringify({ version: intro.version, type: 'text', data: { tokens: [{ text: 'Вступление, переписанное' }] } }) });
  await fetchJson(`${S()}/block/${middle.id}`, { method: 'DELETE', cookie });
  await block('Концовка', intro.id);
  await eventually(versions, 2);

  await page.goto(`${suite.server.url}/${pageId}`);
  await eventually(() => texts(page), ['Вступление, переписанное', 'Концовка']);
  const other = await page.context().newPage();
  await other.goto(`${suite.server.url}/${pageId}`);
  await eventually(() => texts(other), ['Вступление, переписанное', 'Концовка']);
  await page.bringToFront();

  await page.getByRole('button', { name: 'Действия со страницей' }).click();
  await page.getByRole('menuitem', { name: 'История версий' }).click();
  const dialog = page.getByRole('dialog', { name: 'История версий' });
  const list = dialog.getByRole('navigation', { name: 'Версии' }).getByRole('button');
  await eventually(() => list.count(), 2);
  expect(await list.first().textContent()).toContain('history.writer');
  // The newest shows its changes: the intro changed, the ending added, the middle removed.
  const preview = dialog.getByRole('region', { name: 'Версия страницы' });
  await eventually(() => texts(page, '.history-preview [data-slate-editor]'), ['Вступление, переписанное', 'Концовка']);
  await expect(preview.locator('.history-removed li').allTextContents()).resolves.toEqual(['Середина']);
  await shoot(page, 'history-dialog-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'history-dialog-375-dark');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  // The first version, restored.
  await list.nth(1).click();
  await eventually(() => texts(page, '.history-preview [data-slate-editor]'), ['Вступление', 'Середина']);
  await dialog.getByRole('button', { name: 'Восстановить эту версию' }).click();
  await dialog.waitFor({ state: 'detached' });
  await eventually(() => texts(page), ['Вступление', 'Середина']);
  // The other window sees it without a reload.
  await eventually(() => texts(other), ['Вступление', 'Середина']);
  // The restore is a version; the page before it is one too (restoring it undoes the restore).
  const kinds = (await fetchJson<{ data: Array<{ kind: string }> }>(`${S()}/element/${pageId}/versions`, { cookie })).data.map((v) => v.kind);
  expect(kinds[0]).toBe('restore');
  await page.context().close();
});
