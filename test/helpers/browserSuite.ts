import type { Browser, Page } from 'playwright-core';
import { addSessionCookie, lateFrames, launchBrowser } from './browser';
import { signInToProcess, startServerProcess, type ServerProcess } from './serverProcess';

/**
 * A browser suite's set-up: the real server (SQLite, its own data) and headless Chromium, started
 * before the suite's tests and stopped after them, and `signedIn(email)`: a page of a new context
 * signed in (by the API, its cookie given to the context); its frames `lateFramesMs` late when the suite asks (as on
 * CI's loaded cores, a key typed before the next frame must still reach the right element: the
 * suites whose bugs late frames found keep them; LATE_FRAMES=1 makes every suite's frames late,
 * `launchBrowser`).
 */
export function browserSuite(options: { timeoutMs?: number; env?: Record<string, string>; lateFramesMs?: number } = {}) {
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  jest.setTimeout(options.timeoutMs ?? 90_000);
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServerProcess(options.env), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const suite = {
    get server(): ServerProcess {
      if (!server) throw new Error('the suite has not started');
      return server;
    },
    get browser(): Browser {
      if (!browser) throw new Error('the suite has not started');
      return browser;
    },
    /** `touch`: a phone's screen (touch events, taps; the page's viewport meta applies); `timezoneId`: the browser's time zone (the machine's otherwise). */
    async signedIn(email: string, width = 1280, { touch = false, timezoneId }: { touch?: boolean; timezoneId?: string } = {}): Promise<Page> {
      const context = await suite.browser.newContext({
        viewport: { width, height: 900 },
        ...(touch ? { hasTouch: true, isMobile: true } : {}),
        ...(timezoneId ? { timezoneId } : {}),
      });
      const page = await context.newPage();
      if (options.lateFramesMs) await lateFrames(page, options.lateFramesMs);
      page.setDefaultTimeout(15_000);
      // Signed in by the API (the login screen's own calls), its cookie given to the context: the
      // login screen itself is the auth suites' to test (signInThroughUi), not every suite's.
      await addSessionCookie(context, await signInToProcess(suite.server, email), suite.server.url);
      await page.goto(suite.server.url + '/');
      // Ready as a person sees it: the sidebar's «Новая страница» takes clicks and keys once its sections are read.
      await page.getByRole('button', { name: 'Новая страница', disabled: false }).first().waitFor();
      return page;
    },
  };
  return suite;
}
