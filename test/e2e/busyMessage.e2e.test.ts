import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { WireElement } from '../../schema/element';
import { SQLITE_FILE } from '../../server/plugins/db';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, newPage, saved, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';

/*
 * The server busy (issue 19) in real Chromium against the real server on SQLite: another process
 * holds the file's write lock longer than DB_BUSY_TIMEOUT_MS, so a page action's write is refused
 * with 503 storage.busy; the person is told the server was busy and nothing was saved (not «could
 * not do it»), the action is undone on screen, and the same action goes through once the lock is
 * let go.
 */

const BUSY_WAIT_MS = 300;
const suite = browserSuite({ env: { DB_BUSY_TIMEOUT_MS: String(BUSY_WAIT_MS) } });
const BUSY = 'Сервер занят и не сохранил изменение. Попробуйте ещё раз через несколько секунд';

it('a favourite refused while another process holds the database: the busy message, undone on screen; added once the lock is let go', async () => {
  const page = await suite.signedIn('busy.person@example.com');
  const url = await newPage(page, 'Под замком');
  await saved(page);
  const pageId = new URL(url).pathname.slice(1);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const inFavorites = async () => (await fetchJson<{ data: WireElement }>(`${suite.server.url}/api/v3/spaces/element/${pageId}`, { cookie })).data.inFavorites;

  // Another process — for SQLite's locks, any other connection to the file — takes the write lock
  // and keeps it (its own wait for the lock covers a write of the server's under way).
  const other = new SQLite(path.join(suite.server.dataDir, SQLITE_FILE), { timeout: 5_000 });
  try {
    other.exec('BEGIN IMMEDIATE');
    await page.getByRole('button', { name: 'Добавить в избранное' }).click();
    // The error toast says why: busy, nothing saved (without the busy case it said «could not do it»).
    await page.getByRole('alert').first().waitFor();
    expect(await page.getByRole('alert').allTextContents()).toContain(BUSY);
    // The star is off again, and the server kept nothing (reads go on while the lock is held).
    await page.getByRole('button', { name: 'Добавить в избранное' }).waitFor();
    expect(await inFavorites()).toBe(false);
    await shoot(page, 'busy-message-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await shoot(page, 'busy-message-375');
    await page.setViewportSize({ width: 1280, height: 900 });
  } finally {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
  }

  // The lock let go, the same action goes in.
  await page.getByRole('button', { name: 'Добавить в избранное' }).click();
  await page.getByRole('status').filter({ hasText: 'Добавлено в избранное' }).waitFor();
  await page.getByRole('button', { name: 'Убрать из избранного' }).waitFor();
  await eventually(inFavorites, true);
});
