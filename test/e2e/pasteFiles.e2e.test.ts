import { blocksOf, newPage, pasteData, savedAndReloaded, signedInEditorSuite } from '../helpers/editorPage';

/*
 * Files on the clipboard (a screenshot, files copied in a file manager) become uploads: an image
 * block for the picture, a file block for the rest, each uploaded to the real server and still
 * there after a reload. Real Chromium, real server (SQLite), real upload.
 */

const { openApp } = signedInEditorSuite('paste-files@example.com');

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

it('pasting a picture and a document uploads them into an image block and a file block', async () => {
  const page = await openApp();
  await newPage(page, 'Вставка файлов');
  await page.keyboard.type('Перед файлами');
  const result = await pasteData(page, {}, [
    { name: 'снимок.png', type: 'image/png', base64: PNG },
    { name: 'заметки.txt', type: 'text/plain', base64: Buffer.from('Привет').toString('base64') },
  ]);
  expect(result.handledOnBeforeInput).toBe(true);
  const image = page.locator('[data-slate-editor] .block-imageBlock img');
  await image.waitFor();
  await page.locator('[data-slate-editor] .block-fileBlock').getByText('заметки.txt').waitFor();
  await expect(image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).resolves.toBe(1);

  await savedAndReloaded(page);
  await expect(blocksOf(page)).resolves.toEqual(['textBlock:0:Перед файлами', 'imageBlock:0:', 'fileBlock:0:', 'textBlock:0:']);
  await page.locator('[data-slate-editor] .block-imageBlock img').waitFor();
  await page.locator('[data-slate-editor] .block-fileBlock').getByText('заметки.txt').waitFor();
});
