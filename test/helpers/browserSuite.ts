import type { Browser, Page } from 'playwright-core';
import { lateFrames, launchBrowser, signInThroughUi } from './browser';
import { startServerProcess, type ServerProcess } from './serverProcess';

/**
 * A browser suite's set-up: the real server (SQLite, its own data) and headless Chromium, started
 * before the suite's tests and stopped after them, and `signedIn(email)`: a page of a new context
 * signed in through the login screen, its frames late (as on CI's loaded cores: a key typed before
 * the next frame must still reach the right element; `lateFrames`).
 */
export function browserSuite(options: { timeoutMs?: number; env?: Record<string, string> } = {}) {
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
      await lateFrames(page);
      page.setDefaultTimeout(15_000);
      await signInThroughUi(page, suite.server, email);
      return page;
    },
  };
  return suite;
}
