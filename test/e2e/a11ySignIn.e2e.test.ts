import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe';
import { browserSuite } from '../helpers/browserSuite';

/*
 * Issue 37, keyboard journey 1: sign in with the keyboard alone — from a navigation, the e-mail
 * typed, Enter, a wrong code typed (announced: the field aria-invalid and described by the
 * message, which comes into a live region that was there before it), the right code typed over it
 * (the code the server printed), into the workspace. No mouse event at all (counted in the page).
 * The code card fits 320 and 375 px screens (WCAG 1.4.10), the screen's title names it, and axe's
 * WCAG 2.2 A/AA rules pass on both steps (contrast aside: the theme's part of the issue).
 */

const suite = browserSuite();
const SHOTS = path.resolve(__dirname, '../../.tmp/shots');

beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

/** Counts every mouse and pointer event the page sees (there must be none). */
const countMouse = (page: Page) =>
  page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { mouseEvents: string[] }).mouseEvents = seen;
    for (const type of ['mousedown', 'mouseup', 'click', 'pointerdown', 'pointerup', 'mousemove', 'pointermove', 'auxclick', 'contextmenu']) {
      window.addEventListener(type, (event) => (event as PointerEvent).pointerType !== '' && event.isTrusted && seen.push(type), true);
    }
  });

it('signs in with the keyboard alone; a wrong code is announced; the code card fits 375 and 320 px', async () => {
  const email = 'keys@example.com';
  const context = await suite.browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await countMouse(page);
  await page.goto(suite.server.url + '/');
  await page.waitForURL('**/login');
  await page.waitForFunction(() => document.title === 'Вход — Страницы');
  const emailField = page.getByLabel('Электронная почта');
  await emailField.waitFor();
  await expect(emailField.evaluate((e) => e === document.activeElement)).resolves.toBe(true);
  expect(await axeViolations(page)).toEqual([]);

  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  const code = page.getByLabel('Код из письма');
  await code.waitFor();
  await expect(code.evaluate((e) => e === document.activeElement)).resolves.toBe(true);
  const rightCode = await suite.server.waitForCode(email);
  const wrongCode = rightCode === '000000' ? '111111' : '000000';

  // The live region is there before any message; the field is not invalid yet.
  const region = page.getByRole('alert');
  expect(await region.count()).toBe(1);
  expect(await region.textContent()).toBe('');
  expect(await code.getAttribute('aria-invalid')).toBeNull();

  // Reflow: the code card within the screen, nothing scrolls sideways, at 375 and 320 px.
  for (const width of [375, 320]) {
    await page.setViewportSize({ width, height: 740 });
    const fit = await page.evaluate(() => {
      const card = document.querySelector('.login-card')!.getBoundingClientRect();
      return { left: card.left, right: card.right, screen: window.innerWidth, scroll: document.documentElement.scrollWidth };
    });
    expect(fit.left).toBeGreaterThanOrEqual(0);
    expect(fit.right).toBeLessThanOrEqual(fit.screen);
    expect(fit.scroll).toBeLessThanOrEqual(fit.screen);
    await page.screenshot({ path: path.join(SHOTS, `signin-code-${width}-light.png`) });
  }
  await page.setViewportSize({ width: 375, height: 740 });

  await page.keyboard.type(wrongCode);
  await page.waitForFunction(() => document.getElementById('login-code')?.getAttribute('aria-invalid') === 'true');
  const described = await code.getAttribute('aria-describedby');
  expect(described).toBeTruthy();
  const message = await page.evaluate((id) => document.getElementById(id)?.textContent ?? '', described!);
  expect(message).toMatch(/^Неверный код/);
  expect(await region.textContent()).toBe(message);
  expect(await page.evaluate((id) => document.getElementById(id)?.getAttribute('role'), described!)).toBe('alert');
  // Checked and shot once the field's and the button's colours have changed (transitions).
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, 'signin-wrong-code-375-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: path.join(SHOTS, 'signin-wrong-code-375-dark.png') });

  // The wrong code is selected in the field: the right one typed replaces it, and signs in.
  await page.waitForFunction(() => {
    const field = document.getElementById('login-code') as HTMLInputElement | null;
    return field !== null && field === document.activeElement && field.selectionStart === 0 && field.selectionEnd === 6;
  });
  await page.keyboard.type(rightCode);
  // Home of the workspace (on a phone its sidebar is a drawer: the home's own «Создать страницу»).
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('button', { name: 'Создать страницу' }).waitFor();
  await page.waitForFunction(() => document.title === 'Главная — Страницы');
  await page.screenshot({ path: path.join(SHOTS, 'signin-landed-375-dark.png') });
  expect(await page.evaluate(() => (window as unknown as { mouseEvents: string[] }).mouseEvents)).toEqual([]);
  await context.close();
});
