import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import { startPostgresProcess, startServerProcess, type ServerProcess } from '../helpers/serverProcess';

const ARTIFACTS = path.resolve(__dirname, 'artifacts');

describe.each(['sqlite', 'postgres'] as const)('the walking skeleton in a real browser (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;
  let stopPostgres: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const env: Record<string, string> = {};
    if (database === 'postgres') {
      const pg = await startPostgresProcess();
      stopPostgres = pg.stop;
      env.DATABASE_URL = pg.url;
    }
    [server, browser] = await Promise.all([startServerProcess(env), launchBrowser()]);
    expect(server.log()).toContain(`database ready (${database})`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await stopPostgres?.();
  });

  it('signs in with the code from the log, writes a page, reloads, and it is still there', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const email = 'anna@example.com';

    await page.goto(server.url + '/');
    await page.waitForURL('**/login');
    await page.getByLabel('Электронная почта').fill(email);
    await page.getByRole('button', { name: 'Получить код' }).click();
    const code = await server.waitForCode(email);
    await page.getByLabel('Код из письма').fill(code);
    // The sixth digit signs in (no «Войти» to press).

    await page.getByRole('button', { name: 'Новая страница' }).first().click();
    await page.waitForURL(/\/[0-9a-f-]{36}$/);
    const pageUrl = page.url();

    const title = page.locator('[data-slate-editor] h1');
    await title.click();
    await page.keyboard.type('План на неделю');
    await page.keyboard.press('Enter');
    await page.keyboard.type('# Цели');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Дописать первый раздел и показать команде.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('## Заметки');

    // The heading shortcut turned "# " into a heading block in the editor.
    await expect(page.locator('[data-slate-editor] h2').textContent()).resolves.toBe('Цели');
    // The sidebar shows the new title while it is being typed.
    await expect(page.locator('.sidebar-page.active').textContent()).resolves.toContain('План на неделю');
    await page.locator('.page-sync[data-status="saved"]').waitFor({ timeout: 10_000 });

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, `editor-${database}.png`) });

    await page.reload();
    await page.locator('[data-slate-editor] h1').waitFor();
    const texts = await page
      .locator('[data-slate-editor] [data-block-id]')
      .evaluateAll((nodes) => nodes.map((n) => `${n.tagName}:${(n.textContent ?? '').replace(/\uFEFF/g, '')}`));
    expect(texts).toEqual(['H1:План на неделю', 'H2:Цели', 'P:Дописать первый раздел и показать команде.', 'H3:Заметки']);
    expect(page.url()).toBe(pageUrl);

    // A second browser without the session cookie cannot read it.
    const stranger = await browser.newContext();
    const response = await stranger.request.get(`${server.url}/api/v3/spaces/note/${pageUrl.split('/').pop()}/blocks`);
    expect(response.status()).toBe(401);
    await stranger.close();
    await context.close();
  }, 60_000);
});
