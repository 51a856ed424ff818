import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import { startOAuthProvider, type OAuthProvider } from '../helpers/oauthProvider';
import { freePort, startServerProcess, type ServerProcess } from '../helpers/serverProcess';

/*
 * Signing in with an external provider from the sign-in screen, in real Chromium: the server is
 * configured with a real OpenID Connect provider (oauth2-mock-server on loopback, which approves
 * at once); the browser goes there and back to /oauth/callback, and lands signed in where it
 * started. Also: the domain suggestions, and a callback the server refuses.
 */

const SHOTS = path.resolve(__dirname, '../../.tmp/shots');

let provider: OAuthProvider;
let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  provider = await startOAuthProvider();
  await provider.setProfile({ email: 'Olga@Example.com', email_verified: true, name: 'Ольга Петрова' });
  const port = await freePort();
  [server, browser] = await Promise.all([
    startServerProcess({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      OAUTH_ISSUER_URL: provider.issuerUrl,
      OAUTH_CLIENT_ID: 'workspace-e2e',
      OAUTH_CLIENT_SECRET: 'secret',
      OAUTH_DISPLAY_NAME: 'Mock ID',
    }),
    launchBrowser(),
  ]);
  fs.mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.stop();
});

it('suggests addresses, signs in through the provider and comes back signed in', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Электронная почта').fill('olga');
  await page.getByRole('button', { name: 'olga@yandex.ru' }).waitFor();
  await page.screenshot({ path: path.join(SHOTS, 'login-suggestions.png') });
  await page.getByRole('button', { name: 'olga@mail.ru' }).click();
  expect(await page.getByLabel('Электронная почта').inputValue()).toBe('olga@mail.ru');

  await page.getByRole('button', { name: 'Войти через Mock ID' }).click();
  await page.waitForURL(`${server.url}/`);
  await page.locator('.sidebar').waitFor();
  expect(await page.locator('.sidebar').textContent()).toContain('olga@example.com');
  await context.close();
});

it('a callback the server refuses says why and leads back to the sign-in screen', async () => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/oauth/callback?code=forged&state=forged`);
  await page.getByRole('heading', { name: 'Не удалось войти' }).waitFor();
  expect(await page.getByRole('alert').textContent()).toContain('Вход начат в другом окне или устарел');
  await page.screenshot({ path: path.join(SHOTS, 'oauth-failed-phone.png') });
  await page.getByRole('link', { name: 'Ко входу' }).click();
  await page.waitForURL(`${server.url}/login`);
  await context.close();
});

it('a link to sign in with the provider (/login?type=oauth&provider=oidc&next=…) goes there at once and comes back signed in where it said', async () => {
  const context = await browser.newContext({ viewport: { width: 375, height: 760 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/login?type=oauth&provider=oidc&next=${encodeURIComponent('/new-workspace')}`);
  // No button pressed: the provider approves at once and the app lands on `next`.
  await page.waitForURL(`${server.url}/new-workspace`);
  await page.getByRole('heading', { name: 'Для чего вам пространство?', level: 1 }).waitFor();
  await context.close();

  // A provider this server does not have: said so, and the e-mail sign-in is still there.
  const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const tab = await other.newPage();
  await tab.goto(`${server.url}/login?type=oauth&provider=github`);
  await tab.getByText('Этот способ входа здесь не настроен. Войдите по коду из письма.').waitFor();
  await tab.getByLabel('Электронная почта').waitFor();
  await other.close();
});
