import { eventually, newPage, savedAndReloaded, signedInEditorSuite } from '../helpers/editorPage';

/*
 * The floating toolbar over a text selection (src/editor/FloatingToolbar.tsx), in real Chromium
 * against the real server: it shows over a selection, its buttons format the selected text (kept
 * after a reload), and it goes away when the editor loses the focus (Slate keeps its selection
 * then, and the toolbar used to stay floating over the page).
 */

const { openApp } = signedInEditorSuite('toolbar@example.com');

it('shows over a selection, makes it bold and italic (kept after a reload), and hides when the focus leaves the editor', async () => {
  const page = await openApp();
  page.setDefaultTimeout(5000);
  await newPage(page, 'Панель оформления');
  await page.keyboard.type('Привет, мир');
  const toolbar = page.getByRole('toolbar', { name: 'Оформление текста' });
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowLeft');
  await toolbar.waitFor({ timeout: 5000 });

  await toolbar.getByRole('button', { name: 'Жирный' }).click();
  await toolbar.getByRole('button', { name: 'Курсив' }).click();
  await expect(toolbar.getByRole('button', { name: 'Жирный' }).getAttribute('aria-pressed')).resolves.toBe('true');
  const formatted = () => page.locator('[data-slate-editor] strong em, [data-slate-editor] em strong').allTextContents();
  await eventually(formatted, ['мир']);

  // The focus goes elsewhere (the sidebar's search field): the toolbar goes away, though Slate still has the selection.
  await page.getByRole('button', { name: 'Новая страница' }).first().focus();
  await toolbar.waitFor({ state: 'hidden', timeout: 5000 });
  // Back in the editor with a selection: it shows again.
  await page.locator('[data-slate-editor] p', { hasText: 'Привет' }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+ArrowLeft');
  await toolbar.waitFor({ timeout: 5000 });

  await savedAndReloaded(page);
  await eventually(formatted, ['мир']);
  await page.close();
});
