import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signInThroughUi } from '../helpers/browser';
import { blocksOf, eventually, newPage, saved, savedAndReloaded, shoot } from '../helpers/editorPage';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openaiServer';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess';

/*
 * The AI assistant in real Chromium against the real server, whose model is a local
 * OpenAI-compatible server speaking the streaming protocol (test/helpers/openaiServer.ts):
 * «Продолжить текст» from the slash menu streams its text into the panel under the block (seen
 * growing), «Вставить ниже» makes ordinary blocks of its markdown, saved, and one Ctrl+Z takes them
 * all away; «Улучшить с ИИ» on a selection replaces it; failures show their reason in Russian
 * and «Попробовать ещё раз» works. Screenshots of receiving and result at 1280 and 375 px, light
 * and dark.
 */

let model: OpenAiServer;
let server: ServerProcess;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  model = await startOpenAiServer();
  [server, browser] = await Promise.all([startServerProcess({ AI_BASE_URL: model.url, AI_MODEL: 'fake-model', AI_TIMEOUT_MS: '1500' }), launchBrowser()]);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'ai.writer@example.com');
  await page.close();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await model?.close();
});

async function openApp(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(server.url + '/');
  await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  return page;
}

const panel = (page: Page) => page.locator('.ai-panel');
const status = (page: Page) => panel(page).getAttribute('data-ai-status');
const previewText = (page: Page) => panel(page).locator('.ai-preview').textContent();

/** Every message the model got, as one string. */
const sentToModel = (index: number) => (model.requests[index].body?.messages ?? []).map((m) => m.content).join('\n');

it('«Продолжить текст»: the text streams in, «Вставить ниже» makes blocks (saved), one Ctrl+Z removes them all', async () => {
  const page = await openApp();
  await newPage(page, 'Поездка');
  await page.keyboard.type('Мы едем на Байкал в феврале.');
  await page.keyboard.press('Enter');

  // The slash menu's AI group.
  await page.keyboard.type('/');
  await page.locator('.slash-menu').waitFor();
  await expect(page.locator('.slash-menu-group').textContent()).resolves.toBe('ИИ');
  await page.keyboard.type('прод');
  await expect(page.locator('.slash-menu-item').allTextContents()).resolves.toEqual(['Продолжить текст']);
  await shoot(page, 'ai-slash-1280-light');

  const pieces = ['## Что взять\n\n', '- Тёплую', ' куртку\n', '- Коньки\n\n', 'Лёд там ', 'прозрачный, как стекло.'];
  model.enqueue({ kind: 'stream', pieces, delayMs: 400, firstDelayMs: 300 });
  const before = model.requests.length;
  await page.keyboard.press('Enter');

  // pending(sending), then receiving: the text grows in the panel as the pieces come.
  await panel(page).waitFor();
  await eventually(() => status(page), 'pending-receiving', 5_000);
  const early = (await previewText(page)) ?? '';
  expect(early).toContain('Что взять');
  expect(early).not.toContain('прозрачный');
  await expect(panel(page).getByRole('status').textContent()).resolves.toBe('Пишу…');
  await shoot(page, 'ai-receiving-1280-light');
  await eventually(async () => ((await previewText(page)) ?? '').includes('Коньки'), true, 5_000);
  expect(((await previewText(page)) ?? '').includes('прозрачный')).toBe(false);

  await eventually(() => status(page), 'result', 10_000);
  // The markdown is shown as it will be: a heading, two bullets, a paragraph.
  await expect(panel(page).locator('.ai-preview > *').allTextContents()).resolves.toEqual(['Что взять', '•Тёплую куртку', '•Коньки', 'Лёд там прозрачный, как стекло.']);
  // What the model was asked: the text above the block (the page's own words).
  expect(model.requests.length).toBe(before + 1);
  expect(sentToModel(before)).toContain('Мы едем на Байкал в феврале.');
  await shoot(page, 'ai-result-1280-light');

  // Nothing is in the document until it is accepted.
  expect(await blocksOf(page)).toEqual(['textBlock:0:Мы едем на Байкал в феврале.', 'textBlock:0:']);
  // The focus waits on «Вставить ниже»: Enter takes the result.
  await eventually(() => page.evaluate(() => document.activeElement?.textContent), 'Вставить ниже');
  await page.keyboard.press('Enter');
  await panel(page).waitFor({ state: 'detached' });
  const inserted = ['textBlock:0:Мы едем на Байкал в феврале.', 'heading2Block:0:Что взять', 'bulletListBlock:0:Тёплую куртку', 'bulletListBlock:0:Коньки', 'textBlock:0:Лёд там прозрачный, как стекло.'];
  expect(await blocksOf(page)).toEqual(inserted);
  await saved(page);

  // One Ctrl+Z: all of it goes (the empty line it was asked on is back); the server hears of it.
  await page.keyboard.press('Control+z');
  expect(await blocksOf(page)).toEqual(['textBlock:0:Мы едем на Байкал в феврале.', 'textBlock:0:']);
  await savedAndReloaded(page);
  expect(await blocksOf(page)).toEqual(['textBlock:0:Мы едем на Байкал в феврале.', 'textBlock:0:']);

  // Redo is one step too, and that is what the server keeps.
  await page.locator('[data-slate-editor] p[data-block-id]').nth(1).click();
  model.enqueue({ kind: 'stream', pieces: ['Второй ', 'вариант.'], delayMs: 50 });
  await page.keyboard.type('/продолжить');
  await page.keyboard.press('Enter');
  await eventually(() => status(page), 'result', 10_000);
  await panel(page).getByRole('button', { name: 'Вставить ниже' }).click();
  expect(await blocksOf(page)).toEqual(['textBlock:0:Мы едем на Байкал в феврале.', 'textBlock:0:Второй вариант.']);
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+Shift+z');
  expect(await blocksOf(page)).toEqual(['textBlock:0:Мы едем на Байкал в феврале.', 'textBlock:0:Второй вариант.']);
  await savedAndReloaded(page);
  expect(await blocksOf(page)).toEqual(['textBlock:0:Мы едем на Байкал в феврале.', 'textBlock:0:Второй вариант.']);
  await page.close();
}, 90_000);

it('«Улучшить с ИИ» on a selection: the improved text replaces it (one Ctrl+Z brings the old one back); Escape closes', async () => {
  const page = await openApp();
  await newPage(page, 'Черновик');
  await page.keyboard.type('Вступление.');
  await page.keyboard.press('Enter');
  await page.keyboard.type('это очен плохо написаный текст');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Заключение.');
  // Select the middle paragraph.
  await page.locator('[data-slate-editor] p[data-block-id]').nth(1).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  const improve = page.getByRole('button', { name: 'Улучшить с ИИ' });
  await improve.waitFor();
  await shoot(page, 'ai-toolbar-1280-light');

  model.enqueue({ kind: 'stream', pieces: ['Это очень ', 'плохо написанный ', 'текст.'], delayMs: 150 });
  const before = model.requests.length;
  await improve.click();
  await eventually(() => status(page), 'result', 10_000);
  expect(sentToModel(before)).toContain('это очен плохо написаный текст');
  // The text being improved stays marked while the panel is open.
  expect(await page.locator('.ai-highlight').count()).toBeGreaterThan(0);
  await shoot(page, 'ai-improve-result-1280-light');

  await panel(page).getByRole('button', { name: 'Заменить' }).click();
  const improved = ['textBlock:0:Вступление.', 'textBlock:0:Это очень плохо написанный текст.', 'textBlock:0:Заключение.'];
  expect(await blocksOf(page)).toEqual(improved);
  expect(await page.locator('.ai-highlight').count()).toBe(0);
  await page.keyboard.press('Control+z');
  expect(await blocksOf(page)).toEqual(['textBlock:0:Вступление.', 'textBlock:0:это очен плохо написаный текст', 'textBlock:0:Заключение.']);
  await page.keyboard.press('Control+Shift+z');
  await savedAndReloaded(page);
  expect(await blocksOf(page)).toEqual(improved);

  // Nothing to improve: the model gives the text back as it was → «Нечего улучшать».
  await page.locator('[data-slate-editor] p[data-block-id]').nth(2).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  model.enqueue({ kind: 'stream', pieces: ['Заключение', '.'], delayMs: 20 });
  await improve.click();
  await eventually(() => status(page), 'error', 10_000);
  await expect(panel(page).getByRole('alert').getAttribute('data-reason')).resolves.toBe('emptyChangeError');
  await expect(panel(page).getByRole('alert').textContent()).resolves.toBe('Нечего улучшать');
  await panel(page).getByRole('button', { name: 'Отменить' }).click();
  await panel(page).waitFor({ state: 'detached' });

  // Escape closes the panel (the call is dropped) and the document is untouched.
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  model.enqueue({ kind: 'stream', pieces: ['Заключение', ' (новое).'], delayMs: 600 });
  await improve.click();
  await eventually(() => status(page), 'pending-receiving', 5_000);
  await page.keyboard.press('Escape');
  await panel(page).waitFor({ state: 'detached' });
  await page.waitForTimeout(1_000);
  expect(await panel(page).count()).toBe(0);
  expect(await blocksOf(page)).toEqual(improved);
  await page.close();
}, 90_000);

it('failures show their reason in Russian; «Попробовать ещё раз» calls again; a 429 is logged as a warning', async () => {
  const page = await openApp();
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await newPage(page, 'Ошибки');

  // «Написать с ИИ»: the prompt first.
  await page.keyboard.type('/написать');
  await page.keyboard.press('Enter');
  await eventually(() => status(page), 'rest');
  const prompt = panel(page).getByRole('textbox', { name: 'Что написать?' });
  await eventually(() => page.evaluate(() => `${document.activeElement?.tagName}.${document.activeElement?.className}`), 'INPUT.ai-panel-input');
  await shoot(page, 'ai-prompt-1280-light');

  // The model's own rate limit (429) → rateLimitError.
  model.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' });
  await prompt.fill('Список дел на выходные');
  await page.keyboard.press('Enter');
  await eventually(() => status(page), 'error', 10_000);
  const alert = panel(page).getByRole('alert');
  await expect(alert.getAttribute('data-reason')).resolves.toBe('rateLimitError');
  await expect(alert.textContent()).resolves.toContain('Слишком много запросов к ИИ');
  await eventually(async () => warnings.some((w) => w.includes('ai: rateLimitError')), true);

  // A model that stalls → timeoutError (the server gives up after AI_TIMEOUT_MS).
  model.enqueue({ kind: 'stall' });
  await panel(page).getByRole('button', { name: 'Попробовать ещё раз' }).click();
  await eventually(() => status(page), 'error', 10_000);
  await expect(alert.getAttribute('data-reason')).resolves.toBe('timeoutError');
  await expect(alert.textContent()).resolves.toBe('ИИ не ответил вовремя. Попробуйте ещё раз.');
  await shoot(page, 'ai-error-1280-light');

  // An upstream failure → serverError.
  model.enqueue({ kind: 'error', status: 500, message: 'boom' });
  await panel(page).getByRole('button', { name: 'Попробовать ещё раз' }).click();
  await eventually(() => status(page), 'error', 10_000);
  await expect(alert.getAttribute('data-reason')).resolves.toBe('serverError');

  // Again: this time it works, with the same prompt.
  const before = model.requests.length;
  model.enqueue({ kind: 'stream', pieces: ['1. Выспаться\n', '2. Погулять'], delayMs: 50 });
  await panel(page).getByRole('button', { name: 'Попробовать ещё раз' }).click();
  await eventually(() => status(page), 'result', 10_000);
  expect(sentToModel(before)).toContain('Список дел на выходные');
  await panel(page).getByRole('button', { name: 'Вставить ниже' }).click();
  expect(await blocksOf(page)).toEqual(['orderedListBlock:0:Выспаться', 'orderedListBlock:0:Погулять']);
  await saved(page);
  await page.close();
}, 90_000);

it('looks right at 1280 and 375 px, light and dark: receiving and result', async () => {
  const page = await openApp();
  await newPage(page, 'Внешний вид');
  await page.keyboard.type('Осенью в парке тихо. Листья шуршат под ногами, и воздух пахнет дымом.');
  await page.keyboard.press('Enter');
  const pieces = ['Скамейки пустеют, ', 'а утки на пруду ', 'собираются в стаи.\n\n', '- Тёплый **чай** в термосе\n', '- Длинный шарф\n', '- Хорошая книга'];

  for (const [width, theme] of [
    [1280, 'dark'],
    [375, 'light'],
    [375, 'dark'],
  ] as const) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.emulateMedia({ colorScheme: theme });
    await page.locator('[data-slate-editor] p[data-block-id]').last().click();
    model.enqueue({ kind: 'stream', pieces, delayMs: 500, firstDelayMs: 200 });
    await page.keyboard.type('/прод');
    await page.keyboard.press('Enter');
    await eventually(() => status(page), 'pending-receiving', 5_000);
    await eventually(async () => ((await previewText(page)) ?? '').includes('собираются'), true, 5_000);
    await shoot(page, `ai-receiving-${width}-${theme}`);
    await eventually(() => status(page), 'result', 10_000);
    await shoot(page, `ai-result-${width}-${theme}`);
    // The panel fits the screen.
    const box = await panel(page).boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    await panel(page).getByRole('button', { name: 'Отменить' }).click();
    await panel(page).waitFor({ state: 'detached' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.close();
}, 90_000);
