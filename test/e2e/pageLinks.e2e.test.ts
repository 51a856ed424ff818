import type { Page } from 'playwright-core';
import { eventually, newPage, saved, savedAndReloaded, shoot, twoPeopleSuite } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';

/*
 * Issue 15, page links: `[[` searches pages as you type, the chosen page is linked inline with
 * its current title (a rename shows without editing the linking page), the link is saved, seen
 * live by others and survives a reload, and a reader who may not see the target gets «Нет
 * доступа», never its title. `@` with «Создать страницу «…»» makes a child page and links it.
 */

const suite = twoPeopleSuite('links-owner@example.com', 'links-reader@example.com');

const labels = (page: Page) => page.locator('[data-slate-editor] a.page-link').evaluateAll((links) => links.map((a) => a.getAttribute('data-label')));
const firstBlockText = (page: Page) => page.locator('[data-slate-editor] [data-block-id]').nth(1).textContent();

async function ownerApi(path: string, init: RequestInit = {}) {
  // The owner's session, taken from their signed-in browser context.
  const cookie = (await suite.first().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  return fetchJson<{ data: { id: string } }>(`${suite.server().url}/api/v3/spaces/${path}`, { ...init, cookie });
}

it('[[Пла → «План» is linked; others see it live; a rename shows in the linking page; it survives a reload; a reader without access sees no title', async () => {
  const server = suite.server();
  const plan = (await ownerApi('section/private', { method: 'POST', body: JSON.stringify({ title: 'План' }) })).data;
  await ownerApi('section/private', { method: 'POST', body: JSON.stringify({ title: 'Планёрка' }) });

  const page = await suite.first().newPage();
  await page.goto(server.url + '/');
  await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  const url = await newPage(page, 'Ссылки');
  await saved(page);
  // The linking page is shared with the reader (the target is not), who has it open meanwhile.
  const linkingId = url.split('/').pop() as string;
  await ownerApi(`element/${linkingId}/member/add`, { method: 'POST', body: JSON.stringify([{ email: 'links-reader@example.com', accessLevel: 'read' }]) });
  const reader = await suite.second().newPage();
  await reader.goto(url);
  await reader.locator('[data-slate-editor] h1').waitFor();

  await page.locator('[data-slate-editor] [data-block-id]').nth(1).click();
  await page.keyboard.type('Смотри [[Пла');
  const picker = page.getByRole('listbox', { name: 'Ссылка на страницу' });
  await picker.getByRole('option', { name: /План$/ }).waitFor();
  await eventually(() => picker.getByRole('option').allTextContents(), [' План', ' Планёрка', ' Создать страницу «Пла»']);
  await shoot(page, 'pageLinks-picker-1280-light');
  // Escape closes the picker and leaves the typed text; typing on does not bring it back.
  await page.keyboard.press('Escape');
  await picker.waitFor({ state: 'detached' });
  await page.keyboard.type('н');
  await page.waitForTimeout(400);
  await expect(picker.count()).resolves.toBe(0);
  await expect(firstBlockText(page)).resolves.toBe('Смотри [[План');
  // Typed again, the trigger opens it again; ↓ then ↑ comes back to «План», Enter links it.
  for (let i = 0; i < 6; i += 1) await page.keyboard.press('Backspace');
  await page.keyboard.type('[[Пла');
  await picker.getByRole('option', { name: /План$/ }).waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await eventually(() => labels(page), ['План']);
  await page.keyboard.type('и всё');
  await expect(firstBlockText(page)).resolves.toBe('Смотри ↗ и всё');
  await saved(page);
  // Live: the reader sees the link come, without the target's title.
  await eventually(() => labels(reader), ['Нет доступа'], 10_000);
  await eventually(() => firstBlockText(reader), 'Смотри ↗ и всё');
  expect(await reader.content()).not.toContain('План');
  await shoot(reader, 'pageLinks-noaccess-1280-light');

  // Renamed elsewhere (the API): the linking page shows the new title, its block untouched.
  await ownerApi(`element/${plan.id}`, { method: 'PATCH', body: JSON.stringify({ id: plan.id, title: 'План на год' }) });
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
  await reader.reload();
  await eventually(() => labels(reader), ['Нет доступа'], 10_000);
  expect(await reader.content()).not.toContain('План на год');
  // A click opens the page inside the app (no reload: the marker set on window stays).
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  await page.locator('[data-slate-editor] a.page-link').click();
  await page.waitForURL(`${server.url}/${plan.id}`);
  await expect(page.evaluate(() => (window as unknown as { marker?: number }).marker)).resolves.toBe(1);
}, 90_000);

it('@ then «Создать страницу «…»» makes a child page with that title and links it (375 px, dark)', async () => {
  const page = await suite.first().newPage();
  await page.setViewportSize({ width: 375, height: 800 });
  const created = (await ownerApi('section/private', { method: 'POST', body: JSON.stringify({ title: 'Заметки' }) })).data;
  await page.goto(`${suite.server().url}/${created.id}`);
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
  // A page made through the API has no block yet: Enter at the end of the title makes one.
  await page.locator('[data-slate-editor] h1').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Идеи: @Черновик');
  const picker = page.getByRole('listbox', { name: 'Ссылка на страницу' });
  const create = picker.getByRole('option', { name: 'Создать страницу «Черновик»' });
  await create.waitFor();
  await shoot(page, 'pageLinks-picker-375-dark');
  await create.click();
  await eventually(() => labels(page), ['Черновик'], 10_000);
  await expect(firstBlockText(page)).resolves.toBe('Идеи: ↗ ');
  const children = await fetchJson<{ data: Array<{ id: string; title: string }> }>(`${suite.server().url}/api/v3/spaces/element/${created.id}/children`, {
    cookie: (await suite.first().cookies()).map((c) => `${c.name}=${c.value}`).join('; '),
  });
  expect(children.data.map((c) => c.title)).toEqual(['Черновик']);
  await savedAndReloaded(page);
  await eventually(() => labels(page), ['Черновик']);
}, 60_000);

it('Ctrl+Z right after choosing takes the link away in one step and gives the typed search back; a trashed target shows «Страница удалена»', async () => {
  const target = (await ownerApi('section/private', { method: 'POST', body: JSON.stringify({ title: 'Отмена' }) })).data;
  const host = (await ownerApi('section/private', { method: 'POST', body: JSON.stringify({ title: 'Хост' }) })).data;
  const page = await suite.first().newPage();
  await page.goto(`${suite.server().url}/${host.id}`);
  await page.locator('[data-slate-editor] h1').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('см. @Отм');
  const picker = page.getByRole('listbox', { name: 'Ссылка на страницу' });
  await picker.getByRole('option', { name: /Отмена$/ }).waitFor();
  await page.keyboard.press('Enter');
  await eventually(() => labels(page), ['Отмена']);
  await page.keyboard.press('Control+z');
  await eventually(() => labels(page), []);
  await expect(firstBlockText(page)).resolves.toBe('см. @Отм');
  await page.keyboard.press('Control+Shift+z');
  await eventually(() => labels(page), ['Отмена']);
  // Typed right against the link (its space deleted), the text stays out of the link.
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('x');
  await eventually(() => firstBlockText(page), 'см. ↗x');
  await expect(page.locator('[data-slate-editor] a.page-link').textContent()).resolves.toBe('↗');
  await saved(page);
  // The linked page goes to the trash elsewhere: «Страница удалена», no title.
  await ownerApi(`element/${target.id}`, { method: 'DELETE' });
  await eventually(() => labels(page), ['Страница удалена'], 10_000);
}, 60_000);
