import type { BrowserContext, Page } from 'playwright-core';
import { signInThroughUi } from '../helpers/browser';
import { browserSuite } from '../helpers/browserSuite';
import { blocksOf, eventually, newPage, saved, shoot, typeFormula } from '../helpers/editorPage';

/*
 * The app under its Content-Security-Policy (server/web/securityHeaders.ts) in real Chromium:
 * the login, the editor (typing, a formula, an embed of an allowed host) and a public page run
 * without one violation; a script put into the page does not run.
 */

const suite = browserSuite();

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
  /** The script and place that were refused. */
  at: string;
}

/** A context that notes every CSP violation its pages report (listened for before any of the page's own scripts). */
async function watchedContext(): Promise<BrowserContext> {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    const seen: Array<{ directive: string; blocked: string; sample: string; at: string }> = [];
    (window as unknown as { __violations: typeof seen }).__violations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
        at: `${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      }),
    );
  });
  return context;
}

const violations = (page: Page) => page.evaluate(() => (window as unknown as { __violations: Violation[] }).__violations);

/** Console lines of Chromium's own CSP messages («Refused to …»), kept from the page's start. */
function cspConsole(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) lines.push(message.text());
  });
  return lines;
}

test('the app runs under its CSP: login, typing, a formula and an allowed embed report no violation; an injected inline script does not run', async () => {
  const context = await watchedContext();
  const page = await context.newPage();
  const consoleLines = cspConsole(page);
  const login = await page.goto(suite.server.url + '/login');
  const policy = (await login!.allHeaders())['content-security-policy'];
  // The build's files and one inline script by its hash (the theme's), nothing else inline.
  expect(policy).toMatch(/(^|; )script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
  // index.html's early script is a file now (assets/early-<hash>.js), and it ran: the app's first requests were made by it.
  expect(await page.evaluate(() => typeof window.__early)).toBe('object');
  // The inline theme ran too (its hash allowed it: a violation would be reported below).
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toMatch(/^(light|dark)$/);
  await signInThroughUi(page, suite.server, 'csp@example.com');
  expect(await violations(page)).toEqual([]);

  const url = await newPage(page, 'Под политикой');
  await page.keyboard.type('Текст набран.');
  await page.keyboard.press('Enter');
  await typeFormula(page, 'E = mc^2');
  await page.locator('.block-latexBlock .katex-html').waitFor();
  // KaTeX lays the formula out with style attributes (style-src 'unsafe-inline'): they take effect (a strut's height).
  expect(
    await page
      .locator('.block-latexBlock .katex-strut')
      .first()
      .evaluate((element) => element.getBoundingClientRect().height),
  ).toBeGreaterThan(5);

  // The empty line under the formula becomes an embed.
  await page.locator('[data-slate-editor] p').last().click();
  await page.keyboard.type('/embed ');
  await page.getByRole('textbox', { name: 'Ссылка для встраивания' }).fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
  await page.keyboard.press('Enter');
  const frame = page.locator('.block-embedBlock iframe');
  await frame.waitFor();
  expect(await frame.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
  await saved(page);
  expect(await blocksOf(page)).toEqual(['textBlock:0:Текст набран.', 'latexBlock:0:', 'embedBlock:0:', 'textBlock:0:']);
  // The frame was asked for (there is no network here: it fails to load, but it is not refused).
  await page.waitForTimeout(500);
  expect(await violations(page)).toEqual([]);
  await shoot(page, 'csp-editor-1280-light');
  // Nor did Chromium say anything about the policy.
  expect(consoleLines).toEqual([]);

  // A script put into the page (as an injection would) does not run, nor does an inline handler; both are reported.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = "script"';
    document.head.appendChild(script);
    const holder = document.createElement('div');
    holder.innerHTML = '<img src="data:," onerror="window.__injected = \'handler\'">';
    document.body.appendChild(holder);
  });
  await eventually(async () => (await violations(page)).map((v) => v.directive).sort(), ['script-src-attr', 'script-src-elem']);
  expect(await page.evaluate(() => (window as unknown as { __injected?: string }).__injected)).toBeUndefined();

  // A public page, opened by someone signed out: no violation either.
  const pageId = url.split('/').pop()!;
  const published = await page.evaluate(
    async (id) =>
      (
        await fetch(`/api/v3/spaces/element/${id}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', 'X-App-Type': 'Web' },
          body: JSON.stringify({ isPublic: true }),
        })
      ).status,
    pageId,
  );
  expect(published).toBe(200);
  const outside = await watchedContext();
  const reader = await outside.newPage();
  const readerConsole = cspConsole(reader);
  const answer = await reader.goto(`${suite.server.url}/public/${pageId}`);
  expect((await answer!.allHeaders())['x-frame-options']).toBe('SAMEORIGIN');
  await reader.locator('.block-latexBlock .katex-display').waitFor();
  await reader.locator('.block-embedBlock iframe').waitFor();
  await reader.getByText('Текст набран.').waitFor();
  await reader.waitForTimeout(500);
  expect(await violations(reader)).toEqual([]);
  expect(readerConsole).toEqual([]);
  await reader.setViewportSize({ width: 375, height: 800 });
  await reader.emulateMedia({ colorScheme: 'dark' });
  await shoot(reader, 'csp-public-375-dark');
  await outside.close();
  await context.close();
});
