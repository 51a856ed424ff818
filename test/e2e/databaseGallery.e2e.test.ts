import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';
import { png } from '../helpers/png';

/*
 * The Gallery and List views in real Chromium against the real server (issue 38): a gallery made
 * from the views' «+» shows a card per row with the first picture of the row page's content, its
 * title and the fields chosen in «Свойства»; «Карточки» switches to the pages' covers and the
 * cards' size; a card opens its row; a list shows a line per row with its fields after the title.
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;

async function uploadPicture(cookie: string, pageId: string): Promise<string> {
  const bytes = png(64, 48, 0x3c);
  const ticket = await fetchJson<{ data: { id: string; uploadUrl: string; fields: Record<string, string>; fileField: string } }>(
    `${suite.server.url}/api/file/upload_url`,
    { method: 'POST', cookie, body: JSON.stringify({ pageId, name: 'фото.png', mimeType: 'image/png', size: bytes.length }) },
  );
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.data.fields)) form.append(name, value);
  form.append(ticket.data.fileField, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'фото.png');
  const uploaded = await fetch(new URL(ticket.data.uploadUrl, suite.server.url), { method: 'POST', headers: { cookie }, body: form });
  expect(uploaded.status).toBeLessThan(300);
  await fetchJson(`${S()}/block`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      pageId,
      type: 'image',
      data: { remoteData: { fileId: ticket.data.id, title: 'фото.png', size: bytes.length, mimeType: 'image/png' }, crop: null, scale: 1, align: 'center' },
    }),
  });
  return ticket.data.id;
}

it('a gallery: cards with the pages’ first pictures or covers, the fields chosen, sizes; a card opens its row; a list of lines', async () => {
  const page = await suite.signedIn('gallery.e2e@example.com');
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Квартиры' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'price', field: { name: 'Цена', type: 'number' } }) });
  const made = await fetchJson<{ data: Array<{ id: string; data: { title: string } }> }>(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: ['Студия', 'Двушка', 'Мансарда', 'Лофт', 'Дача'].map((title, i) => ({ title, values: { price: (i + 1) * 1000 } })) }),
  });
  const ids = Object.fromEntries(made.data.map((row) => [row.data.title, row.id]));
  const fileId = await uploadPicture(cookie, ids['Студия']);
  await fetchJson(`${S()}/element/${ids['Двушка']}`, {
    method: 'PATCH',
    cookie,
    body: JSON.stringify({ cover: { contentType: 'LibraryCover', imageId: 'gradient-forest' } }),
  });

  await page.goto(`${suite.server.url}/${holder.data.id}`);
  await page.locator('.db-scroll .db-row').first().waitFor();
  // A gallery from the views' «+».
  await page.getByRole('button', { name: 'Добавить вид' }).click();
  await page.getByRole('menuitem', { name: 'Галерея' }).click();
  const cards = page.getByRole('list', { name: 'Карточки' }).getByRole('listitem');
  await eventually(() => cards.count(), 5);
  // The first picture of Студия's content is on its card; the others have none (their content has no picture).
  const picture = page.locator(`.db-gallery-card[data-row-id="${ids['Студия']}"] img`);
  await picture.waitFor();
  expect(await picture.getAttribute('src')).toBe(`/api/file/${fileId}`);
  await eventually(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth), 64);
  expect(await page.locator(`.db-gallery-card[data-row-id="${ids['Мансарда']}"] img`).count()).toBe(0);

  // «Цена» shown on the cards (from «Свойства»).
  await page.getByRole('button', { name: 'Свойства' }).click();
  const panel = page.getByRole('dialog', { name: 'Свойства на карточках' });
  await panel
    .getByRole('button', { name: /Показать.*Цена|Цена/ })
    .first()
    .click();
  await page.keyboard.press('Escape');
  await eventually(
    async () => ((await page.locator(`.db-gallery-card[data-row-id="${ids['Лофт']}"] .db-card-field`).first().textContent()) ?? '').replace(/\s/g, ' '),
    '4 000',
  );
  await shoot(page, 'database-gallery-1280');

  // The pages' covers instead, large cards.
  await page.getByRole('button', { name: 'Карточки' }).click();
  await page.getByRole('menuitemradio', { name: 'Обложка страницы' }).click();
  await eventually(() => page.locator(`.db-gallery-card[data-row-id="${ids['Двушка']}"] .db-gallery-cover`).count(), 1);
  expect(await page.locator(`.db-gallery-card[data-row-id="${ids['Студия']}"] img`).count()).toBe(0);
  await page.getByRole('button', { name: 'Карточки' }).click();
  await page.getByRole('menuitemradio', { name: 'Большие' }).click();
  await eventually(async () => Math.round((await page.locator(`.db-gallery-card[data-row-id="${ids['Двушка']}"]`).boundingBox())?.width ?? 0), 340);
  await shoot(page, 'database-gallery-covers-1280');

  // A card opens its row (the side peek, titled by it).
  await page.locator(`.db-gallery-card[data-row-id="${ids['Лофт']}"]`).click();
  await eventually(async () => (await page.locator('.db-peek').filter({ hasText: 'Лофт' }).count()) > 0, true);
  await page.keyboard.press('Escape');

  // A list: a line per row, the title then the fields shown.
  await page.getByRole('button', { name: 'Добавить вид' }).click();
  await page.getByRole('menuitem', { name: 'Список' }).click();
  const lines = page.getByRole('list', { name: 'Строки' }).getByRole('listitem');
  await eventually(() => lines.count(), 5);
  expect(await lines.first().textContent()).toContain('Студия');
  await page.getByRole('button', { name: 'Свойства' }).click();
  await page
    .getByRole('dialog', { name: 'Свойства на карточках' })
    .getByRole('button', { name: /Показать.*Цена|Цена/ })
    .first()
    .click();
  await page.keyboard.press('Escape');
  await eventually(async () => ((await lines.nth(1).locator('.db-list-fields').textContent()) ?? '').replace(/\s/g, ' '), '2 000');
  await shoot(page, 'database-list-1280');
});
