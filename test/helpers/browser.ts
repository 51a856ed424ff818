import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; `.ci/run` installs it when it is missing. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches headless Chromium; fails loudly (never skips) when it is not installed. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it with 'apt-get install -y chromium'`);
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  // LATE_FRAMES=<ms> (1 for 60 ms): frames come late in every page of every suite (`lateFrames`),
  // to look for keys lost to work left for the next frame. Off unless asked for.
  const late = Number(process.env.LATE_FRAMES ?? 0);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    if (late > 0) await lateFrames(context, late > 1 ? late : 60);
    const newPage = context.newPage.bind(context);
    context.newPage = async () => untilTakenOver(await newPage());
    return context;
  };
  return browser;
}

/**
 * A page's `goto` and `reload` end once the app has taken over from the page's top the server drew
 * (`#server-top`, docs/web-app.md «The first screen from the server»), as they end at its load:
 * until then the drawing's copy of a database's grid and tabs is in the document beside the app's
 * (its editor's names are its own, but a grid's are not), and a locator would find both. A
 * navigation that asks only for `commit` (the tests of the drawing itself) is not waited for.
 */
function untilTakenOver(page: Page): Page {
  for (const method of ['goto', 'reload'] as const) {
    const navigate = page[method].bind(page) as (...args: unknown[]) => Promise<unknown>;
    (page as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      const response = await navigate(...args);
      const options = args.find((arg): arg is { waitUntil?: string } => typeof arg === 'object' && arg !== null);
      if (options?.waitUntil !== 'commit')
        await page
          .locator('#server-top')
          .waitFor({ state: 'detached', timeout: 10_000 })
          .catch(() => undefined);
      return response;
    };
  }
  return page;
}

/** Signs a browser page in through the login screen with the code the server printed. */
export async function signInThroughUi(
  page: import('playwright-core').Page,
  server: { url: string; waitForCode(email: string): Promise<string> },
  email: string,
): Promise<void> {
  await page.goto(server.url + '/');
  await page.waitForURL('**/login');
  await page.getByLabel('Электронная почта').fill(email);
  await page.getByRole('button', { name: 'Получить код' }).click();
  await page.getByLabel('Код из письма').fill(await server.waitForCode(email));
  // The sixth digit signs in (no «Войти» to press); the sidebar's «Новая страница» takes clicks and keys once its sections are read.
  await page.getByRole('button', { name: 'Новая страница', disabled: false }).first().waitFor();
}

/**
 * Frames come `ms` late in this page (or every page of this context), as on a loaded machine
 * (CI's two shared cores): a key typed before the next frame must still reach the right element,
 * and nothing may wait on a frame for what the next key needs.
 */
export async function lateFrames(target: Page | BrowserContext, ms = 60): Promise<void> {
  await (target as Page).addInitScript((delay) => {
    const request = window.requestAnimationFrame.bind(window);
    const cancel = window.cancelAnimationFrame.bind(window);
    const waiting = new Map<number, { timer?: ReturnType<typeof setTimeout>; frame?: number }>();
    let next = 1;
    window.requestAnimationFrame = (callback) => {
      const id = next++;
      const entry: { timer?: ReturnType<typeof setTimeout>; frame?: number } = {};
      waiting.set(id, entry);
      entry.timer = setTimeout(() => {
        entry.frame = request((time) => {
          waiting.delete(id);
          callback(time);
        });
      }, delay);
      return id;
    };
    window.cancelAnimationFrame = (id) => {
      const entry = waiting.get(id);
      if (!entry) return;
      clearTimeout(entry.timer);
      if (entry.frame !== undefined) cancel(entry.frame);
      waiting.delete(id);
    };
  }, ms);
}

/** Gives a browser context the session `cookie` (`name=value`, as signInToProcess answers) for the server at `url`. */
export async function addSessionCookie(context: BrowserContext, cookie: string, url: string): Promise<void> {
  const at = cookie.indexOf('=');
  await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url }]);
}

/** The cookies of a signed-in page, as a `cookie` header for API calls made beside it. */
export async function cookieOf(page: Page): Promise<string> {
  return (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
}

/**
 * The next answer to a request matching `url` held back: the request reaches the server (it is
 * done there), but the page gets the answer only once `release` is called — to put a person's
 * next key between a write and its answer.
 */
export async function holdNextAnswer(page: Page, url: string): Promise<{ release(): void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    url,
    async (route) => {
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    },
    { times: 1 },
  );
  return { release };
}
