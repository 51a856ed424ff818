import { blocksOf, eventually, newPage, saved, signedInEditorSuite } from '../helpers/editorPage';

/*
 * An edit the server refuses for good (here: the page went to the trash meanwhile, 409
 * page.in_trash) is reverted in the editor, the status says it was not saved, and Ctrl+Z brings
 * the refused text back (nothing is lost without the user seeing it). Real Chromium, real server.
 */

const { openApp } = signedInEditorSuite('refused@example.com');

it('a refused edit reverts to what the server has, says so, and undo brings the text back', async () => {
  const page = await openApp();
  const url = await newPage(page, 'Отклонённое');
  await page.keyboard.type('Сохранено');
  await saved(page);
  const block = page.locator('[data-slate-editor] p[data-block-id]').first();

  // Meanwhile the page goes to the trash (another tab, another person).
  const pageId = url.split('/').pop() as string;
  const status = await page.evaluate(
    (id) => fetch(`/api/v3/spaces/element/${id}`, { method: 'DELETE', headers: { 'X-App-Type': 'Web' } }).then((r) => r.status),
    pageId,
  );
  expect(status).toBe(200);

  await block.click();
  await page.keyboard.press('End');
  await page.keyboard.type(' и отклонено');
  await page.locator('.page-sync[data-status="error"]').waitFor({ timeout: 10_000 });
  await expect(page.locator('.page-sync').textContent()).resolves.toBe('Не удалось сохранить изменения');
  await expect(block.textContent()).resolves.toBe('Сохранено');

  await page.keyboard.press('Control+z');
  await expect(block.textContent()).resolves.toBe('Сохранено и отклонено');
});

it('a refused delete brings the block back where it was, and undo removes it again', async () => {
  const page = await openApp();
  const url = await newPage(page, 'Отклонённое удаление');
  for (const text of ['Первый', 'Второй', 'Третий']) {
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }
  await page.keyboard.press('Backspace');
  await saved(page);
  const texts = async () => (await blocksOf(page)).map((b) => b.split(':').slice(2).join(':'));
  expect(await texts()).toEqual(['Первый', 'Второй', 'Третий']);

  const pageId = url.split('/').pop() as string;
  const status = await page.evaluate(
    (id) => fetch(`/api/v3/spaces/element/${id}`, { method: 'DELETE', headers: { 'X-App-Type': 'Web' } }).then((r) => r.status),
    pageId,
  );
  expect(status).toBe(200);

  await page.getByText('Второй').click();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Delete');
  expect(await texts()).toEqual(['Первый', 'Третий']);
  await page.locator('.page-sync[data-status="error"]').waitFor({ timeout: 10_000 });
  await eventually(texts, ['Первый', 'Второй', 'Третий']);

  await page.keyboard.press('Control+z');
  await eventually(texts, ['Первый', 'Третий']);
});
