import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { holdNextAnswer, launchBrowser } from '../helpers/browser';
import { eventually } from '../helpers/editorPage';
import { freePort, startServerProcess, type ServerProcess } from '../helpers/serverProcess';

/*
 * The service worker (/sw.js, server/web/serviceWorker.js) in real Chromium: registered on the
 * installation's own host only; once it runs, the app opens offline (its shell and translation
 * files come from the cache); a deploy (a new build: here, a changed index.html in a copy of
 * dist/, and a restarted server) brings a new worker that replaces the old cache, and the open
 * tab is offered a reload.
 */

let browser: Browser;
let server: ServerProcess | undefined;
let webDir: string;
let port: number;

async function start() {
  server = await startServerProcess({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, WEB_DIR: webDir });
}

beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workspace-sw-'));
  fs.cpSync(path.resolve('dist'), webDir, { recursive: true });
  port = await freePort();
  [browser] = await Promise.all([launchBrowser(), start()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const appCaches = (page: import('playwright-core').Page) => page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('app-')));

it('opens offline once the worker runs, and a deploy replaces the cache and offers a reload', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${port}/login`);
  await page.getByRole('heading', { name: 'Вход в Страницы' }).waitFor();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  });
  const [firstCache] = await appCaches(page);
  expect(firstCache).toMatch(/^app-[0-9a-f]{16}$/);

  await context.setOffline(true);
  await page.reload();
  await page.getByRole('heading', { name: 'Вход в Страницы' }).waitFor();
  expect(await page.getByLabel('Электронная почта').isVisible()).toBe(true);
  await context.setOffline(false);

  // A deploy: a new build (index.html changes), the server restarts with it.
  await server!.stop();
  fs.appendFileSync(path.join(webDir, 'index.html'), '\n<!-- build 2 -->\n');
  await start();
  // The app's config is held back while the new worker installs and takes over: the reload must
  // be offered all the same (the listener once came only after the config, and missed it).
  const config = await holdNextAnswer(page, '**/api/config');
  await page.reload();
  // The new worker installs by fetching every file of the build from a server just restarted: on
  // two cores busy with the rest of the suite that took more than 15 s once (a wait, not a target).
  await eventually(() => appCaches(page).then((keys) => keys.length === 1 && keys[0] !== firstCache), true, 60_000);
  config.release();
  await page.getByText('Вышла новая версия приложения').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Обновить' }).click();
  await page.getByRole('heading', { name: 'Вход в Страницы' }).waitFor();
  await context.close();
}, 120_000);

it('is not registered on another host name of the same server', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`http://localhost:${port}/login`);
  await page.getByRole('heading', { name: 'Вход в Страницы' }).waitFor();
  await page.waitForTimeout(1000);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  await context.close();
});
