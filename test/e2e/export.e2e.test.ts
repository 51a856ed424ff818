import fs from 'node:fs/promises';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { deflatedZeros, zipOf } from '../helpers/zipBomb';
import { cookieOf } from '../helpers/browser';

/*
 * Export (issue 18) in real Chromium: the page menu's «Экспорт…», a format and «Вместе с
 * подстраницами», «Скачать» — a zip the browser saves, holding the page and its subpage as
 * Markdown (or our JSON); the JSON zip imported back under another page with «Импорт в эту страницу…»,
 * and an HTML file picked there becomes a page.
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;

async function downloaded(page: Page, format: 'Markdown' | 'JSON', subpages: boolean): Promise<Record<string, Uint8Array>> {
  return unzipSync(new Uint8Array(await fs.readFile(await downloadedFile(page, format, subpages))));
}

async function downloadedFile(page: Page, format: 'Markdown' | 'JSON', subpages: boolean): Promise<string> {
  await page.getByRole('button', { name: 'Действия со страницей' }).click();
  await page.getByRole('menuitem', { name: 'Экспорт…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Экспорт страницы' });
  await dialog.getByRole('radio', { name: new RegExp(format) }).check();
  const box = dialog.getByRole('checkbox', { name: 'Вместе с подстраницами' });
  if ((await box.isChecked()) !== subpages) await box.click();
  if (format === 'Markdown') await shoot(page, 'export-dialog-1280');
  // The export before, of the same page, is offered again.
  else await dialog.getByText(/^Прошлый экспорт \(Markdown\)/).waitFor();
  // The zip is written in the background: the dialog shows its progress, then the browser downloads it.
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Скачать', exact: true }).click()]);
  expect(download.suggestedFilename()).toBe('Квартальный отчёт.zip');
  await dialog.getByText(`Готово: ${subpages ? '2 страницы' : '1 страница'}`).waitFor();
  await dialog.getByRole('button', { name: 'Готово' }).click();
  return (await download.path())!;
}

it('«Экспорт…»: the page and its subpage as Markdown in a zip the browser saves; JSON too, imported back under another page', async () => {
  const page = await suite.signedIn('export.user@example.com');
  const cookie = await cookieOf(page);
  const root = (
    await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title: 'Квартальный отчёт' }) })
  ).data.id;
  const child = (
    await fetchJson<{ data: { id: string } }>(`${S()}/element/${root}/children`, { method: 'POST', cookie, body: JSON.stringify({ title: 'Приложение' }) })
  ).data.id;
  await fetchJson(`${S()}/block`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ pageId: root, type: 'text', data: { tokens: [{ text: 'Выручка ' }, { text: 'выросла', bold: true }] } }),
  });
  await fetchJson(`${S()}/block`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ pageId: child, type: 'checkbox', data: { tokens: [{ text: 'Сверить цифры' }], checked: false } }),
  });
  await page.goto(`${suite.server.url}/${root}`);
  await page.locator('[data-slate-editor]').waitFor();

  const md = await downloaded(page, 'Markdown', true);
  expect(Object.keys(md).sort()).toEqual(['Квартальный отчёт.md', 'Квартальный отчёт/Приложение.md']);
  expect(strFromU8(md['Квартальный отчёт.md'])).toBe('# Квартальный отчёт\n\nВыручка **выросла**\n');
  expect(strFromU8(md['Квартальный отчёт/Приложение.md'])).toBe('# Приложение\n\n- [ ] Сверить цифры\n');

  const jsonZip = await downloadedFile(page, 'JSON', true);
  const document = JSON.parse(strFromU8(unzipSync(new Uint8Array(await fs.readFile(jsonZip)))['export.json'])) as { pages: Array<{ title: string }> };
  expect(document.pages.map((p) => p.title)).toEqual(['Квартальный отчёт', 'Приложение']);

  // Imported back under another page: the copy opens, with its subpage and blocks.
  const archive = (await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title: 'Архив' }) }))
    .data.id;
  await page.goto(`${suite.server.url}/${archive}`);
  await page.locator('[data-slate-editor]').waitFor();
  await page.getByRole('button', { name: 'Действия со страницей' }).click();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('menuitem', { name: 'Импорт в эту страницу…' }).click()]);
  await chooser.setFiles(jsonZip);
  await page.waitForURL((url) => url.pathname !== `/${archive}` && url.pathname !== `/${root}`);
  await page.locator('.toast', { hasText: 'Импортировано 2 страницы' }).waitFor();
  await page.locator('[data-slate-editor]', { hasText: 'Выручка выросла' }).waitFor();
  const copyId = new URL(page.url()).pathname.slice(1);
  const copy = (await fetchJson<{ data: { title: string; parentId: string } }>(`${S()}/element/${copyId}`, { cookie })).data;
  expect([copy.title, copy.parentId]).toEqual(['Квартальный отчёт', archive]);
  await page.context().close();
});

it('the whole workspace from its settings: progress in a dialog one may leave; a toast offers the zip when it is ready', async () => {
  const page = await suite.signedIn('export.workspace@example.com');
  const cookie = await cookieOf(page);
  for (const title of ['Планы', 'Встречи']) await fetchJson(`${S()}/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title }) });
  await page.goto(`${suite.server.url}/`);
  await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  await page.locator('.sidebar-workspace').click();
  await page.getByRole('menuitem', { name: 'Настройки пространства' }).click();
  const settings = page.getByRole('dialog', { name: 'Настройки пространства' });
  await settings.getByRole('button', { name: 'Экспортировать…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Экспорт «/ });
  await dialog.getByRole('radio', { name: /Markdown/ }).check();
  await shoot(page, 'export-workspace-1280');
  // The job's progress is held back until the dialog is left (a small workspace's export can be
  // done before the click, and the dialog then offers the zip itself).
  let left: () => void = () => undefined;
  const leaving = new Promise<void>((resolve) => (left = resolve));
  await page.route(/\/api\/v3\/spaces\/exports\/[^/?]+$/, async (route) => {
    if (route.request().method() === 'GET') await leaving;
    await route.continue();
  });
  await dialog.getByRole('button', { name: 'Скачать', exact: true }).click();
  // Queued: the progress shows, and the dialog may be left.
  await dialog.getByRole('progressbar').waitFor();
  await shoot(page, 'export-workspace-progress-1280');
  await dialog.getByRole('button', { name: 'Скрыть' }).click();
  await dialog.waitFor({ state: 'detached' });
  left();
  const toast = page.locator('.toast', { hasText: /^Экспорт «.+» готов/ });
  await toast.waitFor();
  await shoot(page, 'export-workspace-toast-1280');
  const [download] = await Promise.all([page.waitForEvent('download'), toast.getByRole('button', { name: 'Скачать' }).click()]);
  const files = unzipSync(new Uint8Array(await fs.readFile((await download.path())!)));
  expect(Object.keys(files).filter((n) => n.endsWith('.md'))).toEqual(expect.arrayContaining(['Планы.md', 'Встречи.md']));
  await page.context().close();
});

it('«Импорт» in the sidebar: a section, the file picker, what was made and what could not be, «Открыть»', async () => {
  const page = await suite.signedIn('import.sidebar@example.com');
  await page.goto(`${suite.server.url}/`);
  await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  await page.locator('.sidebar-tool', { hasText: 'Импорт' }).click();
  const dialog = page.getByRole('dialog', { name: 'Импорт' });
  await dialog.getByRole('radio', { name: /Личные/ }).waitFor();
  await shoot(page, 'import-dialog-1280');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Выбрать файл…' }).click()]);
  await chooser.setFiles({ name: 'Заметки.md', mimeType: 'text/markdown', buffer: Buffer.from('# Заметки\n\nКупить **хлеб**\n\n![фото](photo.png)\n') });
  await dialog.getByText('Импортирована 1 страница').waitFor();
  await dialog.getByText('картинки photo.png нет в архиве — она пропущена').waitFor();
  await shoot(page, 'import-result-1280');
  await dialog.getByRole('button', { name: 'Открыть' }).click();
  await page.locator('[data-slate-editor]', { hasText: 'Купить хлеб' }).waitFor();
  await page.locator('.sidebar', { hasText: 'Заметки' }).waitFor();
  // On a phone it opens from the drawer.
  await page.setViewportSize({ width: 375, height: 740 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('.shell-reopen').click();
  await page.locator('.shell-drawer .sidebar-tool', { hasText: 'Импорт' }).click();
  await page
    .getByRole('dialog', { name: 'Импорт' })
    .getByRole('radio', { name: /Личные/ })
    .waitFor();
  await shoot(page, 'import-dialog-375-dark');
  await page.context().close();
});

it('«Импорт» of a zip bomb says the archive is too big, calmly; a zip of absolute paths imports (issue 33)', async () => {
  const page = await suite.signedIn('import.limits@example.com');
  await page.goto(`${suite.server.url}/`);
  await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  await page.locator('.sidebar-tool', { hasText: 'Импорт' }).click();
  const dialog = page.getByRole('dialog', { name: 'Импорт' });
  const pick = async (name: string, buffer: Buffer) => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Выбрать файл…' }).click()]);
    await chooser.setFiles({ name, mimeType: 'application/zip', buffer });
  };
  // Two files of 1 GB each in a 2 MB zip: refused from its directory, nothing unpacked.
  const gigabyte = deflatedZeros(16);
  await pick(
    'бомба.zip',
    zipOf([
      { name: 'a.md', data: gigabyte, size: 1024 ** 3 },
      { name: 'b.md', data: gigabyte, size: 1024 ** 3 },
    ]),
  );
  const alert = dialog.getByRole('alert');
  await alert.waitFor();
  expect(await alert.textContent()).toMatch(/^Архив слишком большой для импорта: в нём может быть не больше 20 000 файлов и 1 ГБ/);
  await shoot(page, 'import-too-big-1280');
  // Entry names that once hung the server: absolute, a drive's.
  await pick('пути.zip', Buffer.from(zipSync({ '/abs-x/evil.md': strToU8('# Абсолютный путь\n\nтекст'), 'C:\\Users\\me\\note.md': strToU8('# С диска C') })));
  await dialog.getByText('Импортировано 2 страницы').waitFor();
  await page.context().close();
}, 60_000);

it("imported comments are the importer's, the original author and date kept as text (issue 33)", async () => {
  const page = await suite.signedIn('import.comments@example.com');
  await page.goto(`${suite.server.url}/`);
  await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  const exported = {
    format: 'blocknote-export',
    version: 1,
    pages: [
      {
        id: 'p1',
        parentId: null,
        type: 'Note',
        title: 'С обсуждением',
        blocks: [{ id: 'b1', type: 'text', data: { tokens: [{ text: 'Текст страницы' }] }, parentId: null }],
        comments: [
          {
            id: 'c1',
            repliedTo: null,
            author: { id: 'someone-else', name: 'Иван', email: 'ivan@example.com' },
            content: [{ text: 'Удалите страницу' }],
            attaches: [],
            createdAt: '2020-03-12T10:00:00.000Z',
            updatedAt: '2020-03-12T10:00:00.000Z',
          },
        ],
      },
    ],
    files: [],
  };
  await page.locator('.sidebar-tool', { hasText: 'Импорт' }).click();
  const dialog = page.getByRole('dialog', { name: 'Импорт' });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Выбрать файл…' }).click()]);
  await chooser.setFiles({ name: 'export.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
  await dialog.getByText('Импортирована 1 страница').waitFor();
  await dialog.getByRole('button', { name: 'Открыть' }).click();
  await page.locator('[data-slate-editor]', { hasText: 'Текст страницы' }).waitFor();
  await page.getByRole('button', { name: 'Комментарии' }).click();
  const comment = page.getByRole('complementary', { name: 'Комментарии' }).locator('article.comment').first();
  await comment.waitFor();
  expect(await comment.locator('.comment-content').innerText()).toBe('Иван, 12.03.2020: Удалите страницу');
  // Shown as the importer's, not as Иван's.
  expect(await comment.innerText()).toContain('import.comments');
  await shoot(page, 'import-comments-1280');
  await page.context().close();
}, 60_000);

it('«Импорт в эту страницу…» takes an .html file: a page of its blocks opens; its scripts never run', async () => {
  const page = await suite.signedIn('export.html@example.com');
  const cookie = await cookieOf(page);
  const inbox = (await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title: 'Входящие' }) }))
    .data.id;
  const html =
    '<!doctype html><html><head><meta charset="utf-8"><title>Планёрка</title><script>window.__ran = "head"</script></head><body>' +
    '<h1>Планёрка</h1><h2>Решения</h2><p>Запускаем <strong>в понедельник</strong>, подробности на <a href="https://example.com/">сайте</a>.</p>' +
    '<ul><li>Дизайн<ul><li>Макеты</li></ul></li><li>Вёрстка</li></ul>' +
    '<ul><li><input type="checkbox" checked> Согласовать бюджет</li></ul>' +
    '<blockquote>Сроки не двигаем</blockquote><pre><code class="language-javascript">launch();</code></pre>' +
    '<table><tr><th>Кто</th><th>Что</th></tr><tr><td>Аня</td><td>Тексты</td></tr></table>' +
    '<img src="x" onerror="window.__ran = \'img\'"><script>window.__ran = "body"</script></body></html>';
  await page.goto(`${suite.server.url}/${inbox}`);
  await page.locator('[data-slate-editor]').waitFor();
  await page.getByRole('button', { name: 'Действия со страницей' }).click();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('menuitem', { name: 'Импорт в эту страницу…' }).click()]);
  expect(await chooser.element().getAttribute('accept')).toContain('.html');
  await chooser.setFiles({ name: 'Планёрка.html', mimeType: 'text/html', buffer: Buffer.from(html) });
  await page.waitForURL((url) => url.pathname !== `/${inbox}`);
  // The picture without its file is reported, the rest imported.
  await page.locator('.toast', { hasText: 'Не всё удалось импортировать' }).waitFor();
  const editor = page.locator('[data-slate-editor]');
  await editor.getByText('Решения').waitFor();
  await editor.getByText('Макеты').waitFor();
  await editor.getByText('Аня').waitFor();
  const id = new URL(page.url()).pathname.slice(1);
  const copy = (await fetchJson<{ data: { title: string; parentId: string } }>(`${S()}/element/${id}`, { cookie })).data;
  expect([copy.title, copy.parentId]).toEqual(['Планёрка', inbox]);
  const blocks = (await fetchJson<{ data: Array<{ type: string; parentId: string | null }> }>(`${S()}/note/${id}/blocks`, { cookie })).data;
  expect(blocks.map((b) => b.type)).toEqual(['heading2', 'text', 'bulletList', 'bulletList', 'bulletList', 'checkbox', 'quote', 'code', 'table']);
  expect(blocks[3].parentId).not.toBeNull();
  expect(await page.evaluate(() => (window as unknown as { __ran?: string }).__ran)).toBeUndefined();
  await shoot(page, 'import-html-1280-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'import-html-1280-dark');
  await page.setViewportSize({ width: 375, height: 812 });
  await shoot(page, 'import-html-375-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await shoot(page, 'import-html-375-light');
  await page.context().close();
});
