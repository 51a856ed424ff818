import type { Browser } from 'playwright-core';
import { signInThroughUi } from '../helpers/browser';
import { browserSuite } from '../helpers/editorPage';
import type { ServerProcess } from '../helpers/serverProcess';

let server: ServerProcess;
let browser: Browser;
browserSuite((started, launched) => ([server, browser] = [started, launched]));

for (let i = 0; i < 3; i++)
  it('first sign-in then new page #' + i, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const desc = (el: EventTarget | null) => {
        const e = el as HTMLElement | null;
        if (!e || !e.tagName) return String(e);
        return e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '') + (e.getAttribute('aria-label') ? `[${e.getAttribute('aria-label')}]` : '');
      };
      const btnTop = () => {
        const b = document.querySelector('button[aria-label="Новая страница"]');
        return b ? Math.round(b.getBoundingClientRect().top) : null;
      };
      for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'])
        window.addEventListener(type, (ev) => console.log(`EV ${type} at y=${(ev as MouseEvent).clientY} target=${desc(ev.target)} btnTop=${btnTop()}`), true);
      let last: number | null = null;
      const watch = () => {
        const top = btnTop();
        if (top !== last) console.log(`BTN top ${last} -> ${top}`);
        last = top;
        requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    });
    const t0 = Date.now();
    const log: string[] = [];
    const say = (s: string) => log.push(`${String(Date.now() - t0).padStart(6)} ${s}`);
    page.on('console', (m) => say(`console.${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => say(`pageerror: ${e.message}`));
    page.on('request', (r) => r.url().includes('/api/') && say(`> ${r.method()} ${r.url().replace(server.url, '')}`));
    page.on('response', (r) => r.url().includes('/api/') && say(`< ${r.status()} ${r.request().method()} ${r.url().replace(server.url, '')}`));
    page.on('framenavigated', (f) => f === page.mainFrame() && say(`nav ${f.url()}`));
    const email = `blocks${i}-${Date.now()}@example.com`;
    try {
      await signInThroughUi(page, server, email);
      say('signed in; clicking');
      const button = page.getByRole('button', { name: 'Новая страница' }).first();
      say(`button disabled=${await button.isDisabled()} count=${await page.getByRole('button', { name: 'Новая страница' }).count()}`);
      await button.click();
      say('clicked');
      await page.waitForURL(/\/[0-9a-f-]{36}$/, { timeout: 20_000 });
      say('url ok ' + page.url());
    } catch (e) {
      say('FAILED ' + String(e).slice(0, 300));
      say('sidebar: ' + (await page.locator('nav.sidebar').innerText().catch(() => '?')).replace(/\n/g, ' | '));
      say('url: ' + page.url());
      console.log(log.join('\n') + '\n--- server log tail:\n' + server.log().slice(-4000));
      throw e;
    } finally {
      await context.close();
    }
    console.log(log.join('\n'));
  }, 60_000);
