import { newPage, saved, signedInEditorSuite } from '../helpers/editorPage';

/*
 * Two tabs edit the same block without seeing each other (no live updates yet): the second save
 * meets the version conflict (422) and rebases its unsent edit onto the server copy, so after a
 * reload both edits are there. Real Chromium, real server (SQLite).
 */

const { openApp } = signedInEditorSuite('conflict@example.com');

it('a stale tab’s edit is rebased onto the newer server copy: both edits survive', async () => {
  const first = await openApp();
  const url = await newPage(first, 'Конфликт');
  await first.keyboard.type('Общий текст');
  await saved(first);

  const second = await openApp();
  await second.goto(url);
  const block = (page: typeof first) => page.locator('[data-slate-editor] p[data-block-id]').first();
  await block(second).waitFor();

  // The first tab appends; the second, still holding the old version, prepends.
  await block(first).click();
  await first.keyboard.press('End');
  await first.keyboard.type(' от первой');
  await saved(first);

  await block(second).click();
  await second.keyboard.press('Home');
  await second.keyboard.type('Вторая: ');
  await saved(second);
  // The second tab now shows the merge too.
  await expect(block(second).textContent()).resolves.toBe('Вторая: Общий текст от первой');

  await first.reload();
  await expect(block(first).textContent()).resolves.toBe('Вторая: Общий текст от первой');
});
