import { browserSuite } from '../helpers/browserSuite';
import { eventually, pageReady, saved, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * Row templates in real Chromium against the real server (issue 38, docs/api/databases.md «Row
 * templates»): «+ Новый шаблон» in the «▾» beside «Новая строка» opens the template's page with
 * its banner; what is written there (the body typed, a property) is what a row made from it gets;
 * made the default, the plain «Новая строка» starts from it; «Пустая строка» does not.
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;

type Rows = { data: Array<{ id: string; data: { title: string; values: Record<string, unknown> } }> };

it('a template made from the «▾» menu, written on its page, made the default: «Новая строка» starts from it', async () => {
  const page = await suite.signedIn('templates.e2e@example.com');
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Встречи' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'place', field: { name: 'Место', type: 'text' } }) });

  await page.goto(`${suite.server.url}/${holder.data.id}`);
  await page.locator('.db').first().waitFor();
  await page.getByRole('button', { name: 'Шаблоны новой строки' }).first().click();
  const menu = page.getByRole('menu', { name: 'Шаблоны новой строки' });
  await menu.getByRole('menuitem', { name: '+ Новый шаблон' }).click();
  // The template's page, with its banner.
  const banner = page.getByRole('note', { name: 'Шаблон строки' });
  await banner.waitFor();
  expect(await banner.textContent()).toContain('Встречи');
  await pageReady(page);
  const templateId = new URL(page.url()).pathname.slice(1);
  // Its body typed below its fields; its «Место» set.
  const fields = page.getByLabel('Поля строки');
  await fields.waitFor();
  const box = (await fields.boundingBox())!;
  await page.mouse.click(box.x + 40, box.y + box.height + 40);
  await page.keyboard.type('Повестка: итоги недели');
  await saved(page);
  await fetchJson(`${S()}/row/${templateId}/cells/place`, { method: 'POST', cookie, body: JSON.stringify({ value: 'Переговорная', version: 0 }) });
  await shoot(page, 'database-template-page-1280');
  await banner.getByRole('button', { name: 'Готово' }).click();
  await page.locator('.db').first().waitFor();
  // Not a row of the table.
  expect(await page.locator('.db-scroll .db-row').count()).toBe(0);

  // Made the default from the menu.
  await page.getByRole('button', { name: 'Шаблоны новой строки' }).first().click();
  await menu.getByRole('menuitem', { name: /^Действия с шаблоном/ }).click();
  await menu.getByRole('menuitem', { name: 'Сделать по умолчанию' }).click();
  await eventually(async () => {
    const list = await fetchJson<{ data: Array<{ id: string; isDefault: boolean }> }>(`${S()}/database/${db}/templates`, { cookie });
    return list.data.map((x) => [x.id, x.isDefault]);
  }, [[templateId, true]]);
  await page.keyboard.press('Escape');
  await shoot(page, 'database-template-menu-1280');

  // «Новая строка»: from the default template — its property and its body.
  await page
    .getByRole('button', { name: /Новая строка/ })
    .first()
    .click();
  const rows = async () => (await fetchJson<Rows>(`${S()}/database/${db}/rows?limit=10`, { cookie })).data;
  await eventually(async () => (await rows()).length, 1, 10_000);
  const [row] = await rows();
  expect(row.data.values.place).toBe('Переговорная');
  const body = await fetchJson<{ data: Array<{ data: { tokens: Array<{ text: string }> } }> }>(`${S()}/note/${row.id}/blocks`, { cookie });
  expect(body.data.map((b) => b.data.tokens.map((x) => x.text).join(''))).toEqual(['Повестка: итоги недели']);

  // «Пустая строка» from the menu: none of it.
  await page.goto(`${suite.server.url}/${holder.data.id}`);
  await page.locator('.db').first().waitFor();
  await page.getByRole('button', { name: 'Шаблоны новой строки' }).first().click();
  await menu.getByRole('menuitem', { name: 'Пустая строка' }).click();
  await eventually(async () => (await rows()).length, 2, 10_000);
  const blank = (await rows()).find((r) => r.id !== row.id)!;
  expect(blank.data.values.place ?? null).toBeNull();
});
