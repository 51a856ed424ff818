import type { Page } from 'playwright-core';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import { eventually, newPage, pageReady, saved, shoot, signedInEditorSuite } from '../helpers/editorPage';

/*
 * Select all + Backspace over a database (issue 16): the editor asks before the database and
 * its rows go, «Отмена» keeps everything (also on the server), «Удалить» deletes the block and
 * trashes its rows, and Ctrl+Z brings both back on the server. Real Chromium, real server (SQLite).
 */

const { openApp } = signedInEditorSuite('database-guard@example.com');

/** A call of the API from the page (same origin, the page's session). */
function call(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: { data: unknown; meta: Record<string, unknown> } | null }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: res.headers.get('content-type')?.includes('json') ? await res.json() : null };
    },
    { method, path, body },
  );
}

it('asks before select all + Backspace removes a database with rows; cancel keeps it, delete and undo reach the server', async () => {
  const page = await openApp();
  const url = await newPage(page, 'Базы');
  await page.keyboard.type('Текст до базы');
  await saved(page);
  const pageId = url.split('/').pop() as string;
  const made = await call(page, 'POST', '/api/v3/spaces/block', {
    pageId,
    type: 'database',
    data: {
      config: { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' } } },
      view: { layouts: [{ uid: 'v1', type: 'table', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
    },
  });
  expect(made.status).toBe(201);
  const databaseId = (made.json?.data as { id: string }).id;
  expect(
    (await call(page, 'POST', `/api/v3/spaces/database/${databaseId}/rows`, { rows: [{ title: 'Один' }, { title: 'Два' }, { title: 'Три' }] })).status,
  ).toBe(201);
  await page.reload();
  await pageReady(page);
  const database = page.locator(`[data-slate-editor] [data-block-id="${databaseId}"]`);
  await database.waitFor();

  const selectAllAndDelete = async () => {
    await page.locator('[data-slate-editor] p[data-block-id]').first().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
  };
  const dialog = page.getByRole('dialog', { name: 'Удалить базу данных?' });

  await selectAllAndDelete();
  await dialog.waitFor();
  await expect(dialog.textContent()).resolves.toContain('(3)');
  await shoot(page, 'database-removal-dialog');
  await dialog.getByRole('button', { name: 'Отмена' }).click();
  await dialog.waitFor({ state: 'detached' });
  await database.waitFor();
  await saved(page);
  expect((await call(page, 'GET', `/api/v3/spaces/database/${databaseId}`)).status).toBe(200);

  await selectAllAndDelete();
  await dialog.getByRole('button', { name: 'Удалить' }).click();
  await database.waitFor({ state: 'detached' });
  await saved(page);
  await eventually(async () => (await call(page, 'GET', `/api/v3/spaces/database/${databaseId}`)).status, 404);

  await page.keyboard.press('Control+Z');
  await database.waitFor();
  await saved(page);
  await eventually(
    async () => {
      const rows = await call(page, 'GET', `/api/v3/spaces/database/${databaseId}/rows`);
      return rows.status === 200 ? (rows.json?.data as Array<{ data: { title: string } }>).map((r) => r.data.title) : rows.status;
    },
    ['Один', 'Два', 'Три'],
    10_000,
  );
}, 90_000);
