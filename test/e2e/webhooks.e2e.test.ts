import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';

/*
 * Webhooks from the browser (issue 38, docs/api/webhooks.md): a workspace's admin opens
 * «Вебхуки» in the workspace's settings, is refused a private address with the server's words,
 * adds a public one hearing the events ticked, sees its secret once, turns it off, opens its
 * delivery log and deletes it.
 */

const suite = browserSuite();

it('an admin adds a webhook, sees its secret once, turns it off, reads its log and deletes it', async () => {
  const page = await suite.signedIn('webhooks.e2e@example.com');
  await page.goto(`${suite.server.url}/`);
  await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  await page.locator('.sidebar-workspace').click();
  await page.getByRole('menuitem', { name: 'Настройки пространства' }).click();
  const settings = page.getByRole('dialog', { name: 'Настройки пространства' });
  await settings.getByRole('button', { name: 'Вебхуки' }).click();
  const dialog = page.getByRole('dialog', { name: 'Вебхуки' });
  await dialog.getByText('Вебхуков пока нет').waitFor();

  // A private address: refused, in the server's words.
  await dialog.getByLabel('Адрес вебхука').fill('http://192.168.1.10/hook');
  await dialog.getByRole('button', { name: 'Добавить вебхук' }).click();
  await eventually(() => dialog.getByRole('alert').textContent(), 'Вебхук отправляет события только на публичный адрес http или https');

  // A public one, hearing pages and cells too.
  await dialog.getByLabel('Адрес вебхука').fill('https://93.184.216.34/stranitsy');
  await dialog.getByLabel('Ячейки баз').check();
  const made = page.waitForResponse((r) => r.url().endsWith('/webhooks') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Добавить вебхук' }).click();
  expect((await made).status()).toBe(201);
  const secret = dialog.getByLabel('Секрет вебхука');
  await eventually(async () => /^[0-9a-f]{64}$/.test((await secret.textContent()) ?? ''), true);
  const item = dialog.getByRole('list', { name: 'Вебхуки пространства' }).getByRole('listitem');
  await eventually(() => item.count(), 1);
  expect(await item.first().textContent()).toContain('https://93.184.216.34/stranitsy');
  expect(await item.first().textContent()).toContain('Ячейки баз');
  await shoot(page, 'webhooks-1280');

  // Off, its log (nothing shared changed yet), then deleted.
  const active = dialog.getByRole('switch', { name: 'Вебхук https://93.184.216.34/stranitsy включён' });
  await active.click();
  await eventually(() => active.getAttribute('aria-checked'), 'false');
  await dialog.getByRole('button', { name: 'Журнал' }).click();
  const log = page.getByRole('dialog', { name: /^Журнал доставки/ });
  await log.getByText('Доставок пока не было').waitFor();
  await page.keyboard.press('Escape');
  await log.waitFor({ state: 'detached' });
  await dialog.getByRole('button', { name: 'Удалить вебхук https://93.184.216.34/stranitsy' }).click();
  await dialog.getByText('Вебхуков пока нет').waitFor();
});
