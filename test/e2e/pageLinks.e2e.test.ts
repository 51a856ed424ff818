import type { Page } from 'playwright-core';
import { eventually, newPage, saved, savedAndReloaded, shoot, twoPeopleSuite } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';

/*
 * Issue 15, page links: `[[` searches pages as you type, the chosen page is linked inline with
 * its current title (a rename shows without editing the linking page), the link is saved and
 * survives a reload, and a reader who may not see the target gets «Нет доступа», never its title.
 */

const suite = twoPeopleSuite('links-owner@example.com', 'links-reader@example.com');

const labels = (page: Page) => page.locator('[data-slate-editor] a.page-link').evaluateAll((links) => links.map((a) => a.getAttribute('data-label')));

it('[[Пла → «План» is linked; a rename shows in the linking page; it survives a reload; a reader without access sees no title', async () => {
  const server = suite.server();
  // The owner's session, taken from their signed-in browser context.
  const cookie = (await suite.first().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const api = (path: string, init: RequestInit = {}) => fetchJson<{ data: { id: string } }>(`${server.url}/api/v3/spaces/${path}`, { ...init, cookie });
  const plan = (await api('section/private', { method: 'POST', body: JSON.stringify({ title: 'План' }) })).data;
  await api('section/private', { method: 'POST', body: JSON.stringify({ title: 'Планёрка' }) });

  const page = await suite.first().newPage();
  await page.goto(server.url + '/');
  await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  const url = await newPage(page, 'Ссылки');
  await page.keyboard.type('Смотри [[Пла');
  const picker = page.getByRole('listbox', { name: 'Ссылка на страницу' });
  await picker.getByRole('option', { name: /План$/ }).waitFor();
  await eventually(() => picker.getByRole('option').allTextContents(), [' План', ' Планёрка']);
  await shoot(page, 'pageLinks-picker-1280-light');
  // Escape closes the picker and leaves the typed text; typing on does not bring it back.
  await page.keyboard.press('Escape');
  await picker.waitFor({ state: 'detached' });
  await page.keyboard.type('н');
  await page.waitForTimeout(400);
  await expect(picker.count()).resolves.toBe(0);
  await expect(page.locator('[data-slate-editor] [data-block-id]').nth(1).textContent()).resolves.toBe('Смотри [[План');
  // Typed again, the trigger opens it again.
  for (let i = 0; i < 6; i += 1) await page.keyboard.press('Backspace');
  await page.keyboard.type('[[Пла');
  await picker.getByRole('option', { name: /План$/ }).waitFor();
  await page.keyboard.press('Enter');
  await eventually(() => labels(page), ['План']);
  await page.keyboard.type('и всё');
  await expect(page.locator('[data-slate-editor] [data-block-id]').nth(1).textContent()).resolves.toBe('Смотри ↗ и всё');
  await saved(page);

  // Renamed elsewhere (the API): the linking page shows the new title, its block untouched.
  await api(`element/${plan.id}`, { method: 'PATCH', body: JSON.stringify({ id: plan.id, title: 'План на год' }) });
  await eventually(() => labels(page), ['План на год'], 10_000);
  await shoot(page, 'pageLinks-link-1280-light');
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
  await shoot(page, 'pageLinks-link-1280-dark');
  await page.setViewportSize({ width: 375, height: 800 });
  await shoot(page, 'pageLinks-link-375-dark');
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  await shoot(page, 'pageLinks-link-375-light');
  await page.setViewportSize({ width: 1280, height: 900 });

  await savedAndReloaded(page);
  await eventually(() => labels(page), ['План на год']);
  // A click opens the page inside the app (no reload: the marker set on window stays).
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  await page.locator('[data-slate-editor] a.page-link').click();
  await page.waitForURL(`${server.url}/${plan.id}`);
  await expect(page.evaluate(() => (window as unknown as { marker?: number }).marker)).resolves.toBe(1);

  // The linking page is shared with the reader; the target is not.
  const linkingId = url.split('/').pop() as string;
  await api(`element/${linkingId}/member/add`, { method: 'POST', body: JSON.stringify([{ email: 'links-reader@example.com', accessLevel: 'read' }]) });
  const reader = await suite.second().newPage();
  await reader.goto(url);
  await eventually(() => labels(reader), ['Нет доступа'], 10_000);
  expect(await reader.content()).not.toContain('План на год');
  await shoot(reader, 'pageLinks-noaccess-1280-light');
}, 60_000);
