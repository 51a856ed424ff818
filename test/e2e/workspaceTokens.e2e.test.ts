import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * Workspace tokens from the browser (issue 38, docs/api/auth.md «Workspace tokens»): a member
 * opens «Токены API» in the workspace's settings, makes a read-only token and sees it once; the
 * token reads a page of this workspace over the API, not one of the member's other workspace,
 * and changes nothing; removed in the dialog, it signs nothing in.
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;

it('a member makes a read-only workspace token, sees it once, it reaches that workspace only, and removes it', async () => {
  const page = await suite.signedIn('tokens.e2e@example.com');
  const cookie = await cookieOf(page);
  const workspaces = await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/workspace`, { cookie });
  const home = workspaces.data[0].id;
  const other = (await fetchJson<{ data: { id: string } }>(`${S()}/workspace`, { method: 'POST', cookie, body: JSON.stringify({ name: 'Другое' }) })).data.id;
  const pageIn = async (workspaceId: string, title: string) =>
    (
      await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
        method: 'POST',
        cookie,
        headers: { 'x-workspace-id': workspaceId },
        body: JSON.stringify({ title }),
      })
    ).data.id;
  const here = await pageIn(home, 'Отчёт');
  const there = await pageIn(other, 'Чужое');

  await page.goto(`${suite.server.url}/${here}`);
  await page.locator('.sidebar-workspace').click();
  await page.getByRole('menuitem', { name: 'Настройки пространства' }).click();
  await page.getByRole('dialog', { name: 'Настройки пространства' }).getByRole('button', { name: 'Токены API' }).click();
  const dialog = page.getByRole('dialog', { name: 'Токены API' });
  await dialog.getByText('Токенов пока нет').waitFor();
  await dialog.getByLabel('Название токена').fill('Отчёты в таблицу');
  await dialog.getByLabel('Только чтение').check();
  await dialog.getByRole('button', { name: 'Создать' }).click();
  const field = dialog.getByLabel('Созданный токен');
  await field.waitFor();
  const token = await field.inputValue();
  expect(token.length).toBeGreaterThan(30);
  await dialog.getByText('Скопируйте токен сейчас: больше он не будет показан.').waitFor();
  const item = dialog.getByRole('list', { name: 'Токены пространства' }).getByRole('listitem');
  await eventually(() => item.count(), 1);
  expect(await item.first().textContent()).toContain('только чтение');
  await shoot(page, 'workspace-tokens-1280');

  const call = (url: string, init: RequestInit = {}) =>
    fetch(url, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  expect((await call(`${S()}/element/${here}`)).status).toBe(200);
  expect((await call(`${S()}/element/${there}`)).status).toBe(403);
  expect((await call(`${S()}/element/${here}`, { method: 'PATCH', body: JSON.stringify({ title: 'Нет' }) })).status).toBe(403);

  // Removed in the dialog: it signs nothing in any more.
  await dialog.getByRole('button', { name: 'Удалить токен Отчёты в таблицу' }).click();
  const confirm = page.getByRole('dialog', { name: 'Удалить токен?' });
  await confirm.getByRole('button', { name: 'Удалить' }).click();
  await dialog.getByText('Токенов пока нет').waitFor();
  expect((await call(`${S()}/element/${here}`)).status).toBe(401);
});
