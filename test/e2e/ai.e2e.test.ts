import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signInThroughUi } from '../helpers/browser';
import { blocksOf, eventually, newPage, pageReady, saved, savedAndReloaded, shoot } from '../helpers/editorPage';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openaiServer';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess';

/*
 * The AI assistant in real Chromium against the real server, whose model is a local
 * OpenAI-compatible server speaking the streaming protocol (test/helpers/openaiServer.ts):
 * «Продолжить текст» from the slash menu streams its text into the panel under the block (seen
 * growing), «Вставить ниже» makes ordinary blocks of its markdown, saved, and one Ctrl+Z takes them
 * all away; «Улучшить с ИИ» on a selection replaces it; failures show their reason in Russian
 * and «Попробовать ещё раз» works; a rate limit says how long to wait. Screenshots of receiving and
 * result at 1280 and 375 px, light and dark. A reader (read-only access) is offered no AI at all.
 * A second server without a model (no AI_BASE_URL) shows «Написать с ИИ» and «Продолжить текст»
 * disabled, with the reason, while «Улучшить с ИИ» works offline — and its own per-user 429.
 */

let model: OpenAiServer;
let server: ServerProcess;
let browser: Browser;
let context: BrowserContext;
let reader: BrowserContext;

beforeAll(async () => {
  model = await startOpenAiServer();
  [server, browser] = await Promise.all([startServerProcess({ AI_BASE_URL: model.url, AI_MODEL: 'fake-model', AI_TIMEOUT_MS: '1500' }), launchBrowser()]);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  reader = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const [page, readerPage] = await Promise.all([context.newPage(), reader.newPage()]);
  await signInThroughUi(page, server, 'ai.writer@example.com');
  await signInThroughUi(readerPage, server, 'ai.reader@example.com');
  await Promise.all([page.close(), readerPage.close()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await model?.close();
});

// Each test queues its own answers: one that failed half-way leaves nothing for the next.
beforeEach(() => model?.clearQueue());

async function openApp(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(server.url + '/');
  await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  return page;
}

/**
 * Selects the caret's line (End, Shift+Home) and waits for the floating toolbar's button `name`.
 * On a loaded machine the selection keys may come while the editor is still putting its own
 * selection into the DOM (after the last key typed, or the focus back from a closed panel) and
 * select nothing: then selected again, at most three times, as a person would.
 */
async function selectLineForToolbar(page: Page, name: string) {
  const button = page.getByRole('button', { name });
  for (let attempt = 1; ; attempt += 1) {
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    const shown = await button.waitFor({ timeout: 3_000 }).then(
      () => true,
      () => false,
    );
    if (shown || attempt === 3) return button;
  }
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
  // The groups: basic blocks, media, the database, the advanced ones, then the AI's.
  await expect(page.locator('.slash-menu-group').allTextContents()).resolves.toEqual(['Основные блоки', 'Медиа', 'База данных', 'Дополнительно', 'ИИ']);
  await shoot(page, 'slash-menu-1280-light');
  await page.keyboard.type('прод');
  await expect(page.locator('.slash-menu-item .slash-menu-label').allTextContents()).resolves.toEqual(['Продолжить текст']);
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
  await expect(panel(page).locator('.ai-preview > *').allTextContents()).resolves.toEqual([
    'Что взять',
    '•Тёплую куртку',
    '•Коньки',
    'Лёд там прозрачный, как стекло.',
  ]);
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
  const inserted = [
    'textBlock:0:Мы едем на Байкал в феврале.',
    'heading2Block:0:Что взять',
    'bulletListBlock:0:Тёплую куртку',
    'bulletListBlock:0:Коньки',
    'textBlock:0:Лёд там прозрачный, как стекло.',
  ];
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

  // Escape closes the panel (the call is dropped) and the document is untouched. The line is
  // clicked first: keys pressed before the focus is back from the closed panel would select
  // nothing (seen once on a loaded CI machine: the toolbar then never came).
  await page.locator('[data-slate-editor] p[data-block-id]').nth(2).click();
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
  await eventually(() => page.evaluate(() => document.activeElement?.matches('input.ai-panel-input') ?? false), true);
  await shoot(page, 'ai-prompt-1280-light');

  // The model's own rate limit (429 with Retry-After) → rateLimitError, with the wait it asked for.
  model.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded', retryAfter: '17' });
  await prompt.fill('Список дел на выходные');
  await page.keyboard.press('Enter');
  await eventually(() => status(page), 'error', 10_000);
  const alert = panel(page).getByRole('alert');
  await expect(alert.getAttribute('data-reason')).resolves.toBe('rateLimitError');
  await expect(alert.textContent()).resolves.toBe('Слишком много запросов к ИИ. Попробуйте через 17 с.');
  await eventually(async () => warnings.some((w) => w.startsWith('ai: rateLimitError') && w.includes('retry after 17 s')), true);

  // Without Retry-After: the general words.
  model.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' });
  await panel(page).getByRole('button', { name: 'Попробовать ещё раз' }).click();
  await eventually(() => alert.textContent(), 'Слишком много запросов к ИИ. Подождите немного и попробуйте ещё раз.', 10_000);
  await expect(alert.getAttribute('data-reason')).resolves.toBe('rateLimitError');

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

it('a reader (read-only access) is offered no AI: «/» opens no menu, a selection shows no «Улучшить с ИИ»', async () => {
  const page = await openApp();
  const url = await newPage(page, 'Только чтение');
  await page.keyboard.type('Этот текст можно только читать.');
  await page.keyboard.press('Enter');
  await saved(page);
  const pageId = new URL(url).pathname.slice(1);
  const shared = await page.request.post(`${server.url}/api/v3/spaces/element/${pageId}/member/add`, {
    data: [{ email: 'ai.reader@example.com', accessLevel: 'read' }],
    headers: { 'X-App-Type': 'Web' },
  });
  expect(shared.status()).toBe(200);

  const view = await reader.newPage();
  await view.goto(url);
  await view.locator('.page-readonly').waitFor();
  const paragraphs = view.locator('[data-slate-editor] p[data-block-id]');
  await paragraphs.first().getByText('Этот текст можно только читать.').waitFor();
  const before = await blocksOf(view);

  // «/» in the empty block and after the text: nothing opens, nothing is typed.
  for (const target of [paragraphs.last(), paragraphs.first()]) {
    await target.click();
    await view.keyboard.press('End');
    await view.keyboard.type('/');
    await view.waitForTimeout(400);
    expect(await view.locator('.slash-menu').count()).toBe(0);
  }
  expect(await blocksOf(view)).toEqual(before);

  // A selection (a triple click selects the paragraph): no AI button, no toolbar to find one in.
  await paragraphs.first().click({ clickCount: 3 });
  await eventually(() => view.evaluate(() => window.getSelection()?.toString().trim()), 'Этот текст можно только читать.');
  await view.waitForTimeout(400);
  expect(await view.getByRole('button', { name: 'Улучшить с ИИ' }).count()).toBe(0);
  expect(await view.locator('.floating-toolbar-ai, .ai-panel').count()).toBe(0);

  // The writer, same page, same selection: the button is there (what the reader lacks is the access).
  await page.reload();
  // The whole page in first (not the read-only top drawn while it loads): a selection made before is lost.
  await pageReady(page);
  await page.locator('[data-slate-editor] p[data-block-id]').first().getByText('Этот текст можно только читать.').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await page.getByRole('button', { name: 'Улучшить с ИИ' }).waitFor();
  await Promise.all([view.close(), page.close()]);
}, 60_000);

describe('a server without a model (no AI_BASE_URL)', () => {
  let bare: ServerProcess;
  let user: BrowserContext;

  beforeAll(async () => {
    // One call a minute (the limit's own 429 in the browser); typography only (no dictionary to load).
    bare = await startServerProcess({ AI_BASE_URL: '', AI_RATE_LIMIT_PER_MINUTE: '1', AI_SPELLCHECK: 'false' });
    user = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await user.newPage();
    await signInThroughUi(page, bare, 'ai.nomodel@example.com');
    await page.close();
  }, 60_000);

  afterAll(async () => {
    await user?.close();
    await bare?.stop();
  });

  const menuItems = (page: Page) =>
    page
      .locator('.slash-menu-item')
      .evaluateAll((all) =>
        all.map(
          (n) =>
            `${n.querySelector('.slash-menu-label')?.textContent}${n.getAttribute('aria-disabled') === 'true' ? ' (disabled)' : ''}${n.classList.contains('is-active') ? ' (active)' : ''}`,
        ),
      );

  it('«Написать с ИИ» and «Продолжить текст» are shown disabled, with the reason; the keys and the mouse skip them', async () => {
    const page = await user.newPage();
    await page.goto(bare.url + '/');
    await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
    await expect(
      page.evaluate(() =>
        fetch('/api/config')
          .then((r) => r.json())
          .then((b) => b.data.ai),
      ),
    ).resolves.toEqual({ model: false, timeoutMs: 60_000 });
    await newPage(page, 'Без модели');
    await page.keyboard.type('Первая строка.');
    await page.keyboard.press('Enter');

    // The whole menu: the AI group at its end, greyed, and why.
    await page.keyboard.type('/');
    await page.locator('.slash-menu').waitFor();
    const all = await menuItems(page);
    expect(all.slice(-2)).toEqual(['Написать с ИИ (disabled)', 'Продолжить текст (disabled)']);
    expect(all[0]).toMatch(/\(active\)$/);
    await expect(page.locator('.slash-menu-hint').textContent()).resolves.toBe('Модель ИИ не подключена');
    const hintId = await page.locator('.slash-menu-hint').getAttribute('id');
    await expect(page.getByRole('option', { name: 'Написать с ИИ' }).getAttribute('aria-describedby')).resolves.toContain(hintId);
    // Up from the first item: round to the last block type, over the disabled ones.
    await page.keyboard.press('ArrowUp');
    const wrapped = await menuItems(page);
    expect(wrapped.filter((item) => item.endsWith('(active)'))).toHaveLength(1);
    expect(wrapped.findIndex((item) => item.endsWith('(active)'))).toBe(wrapped.length - 3);
    await page.keyboard.press('ArrowDown');
    expect((await menuItems(page))[0]).toMatch(/\(active\)$/);

    // Only the AI group matches: Enter does nothing (no panel, no new line), the menu stays with its reason.
    await page.keyboard.type('ии');
    await expect(menuItems(page)).resolves.toEqual(['Написать с ИИ (disabled)', 'Продолжить текст (disabled)']);
    await page.locator('.slash-menu-hint').waitFor();
    await shoot(page, 'ai-nomodel-slash-1280-light');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    // A click does nothing either (Playwright itself sees the option as disabled: forced).
    await page.getByRole('option', { name: 'Продолжить текст' }).click({ force: true });
    await page.waitForTimeout(400);
    expect(await panel(page).count()).toBe(0);
    expect(await blocksOf(page)).toEqual(['textBlock:0:Первая строка.', 'textBlock:0:/ии']);
    expect(await page.locator('.slash-menu').count()).toBe(1);
    await expect(page.locator('.slash-menu-item.is-active').count()).resolves.toBe(0);

    // At 375 px (a phone), light: the same, and it fits.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('ии');
    await page.locator('.slash-menu-hint').waitFor();
    const box = await page.locator('.slash-menu').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    await shoot(page, 'ai-nomodel-slash-375-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, 'ai-nomodel-slash-375-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.keyboard.press('Escape');
    await page.close();
  }, 60_000);

  it('«Улучшить с ИИ» works offline; the second call within the minute: our 429 says how long to wait, and warns', async () => {
    const page = await user.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto(bare.url + '/');
    await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
    await newPage(page, 'Типографика');
    await page.keyboard.type('Он сказал "привет" - и ушёл...');
    // The line written (in the paragraph, not the title) before it is selected for the toolbar.
    await eventually(() => blocksOf(page), ['textBlock:0:Он сказал "привет" - и ушёл...']);
    const improve = await selectLineForToolbar(page, 'Улучшить с ИИ');
    await improve.click();
    await eventually(() => status(page), 'result', 15_000);
    await expect(previewText(page)).resolves.toBe('Он сказал «привет» — и ушёл…');
    await panel(page).getByRole('button', { name: 'Заменить' }).click();
    expect(await blocksOf(page)).toEqual(['textBlock:0:Он сказал «привет» — и ушёл…']);

    await selectLineForToolbar(page, 'Улучшить с ИИ');
    await improve.click();
    await eventually(() => status(page), 'error', 10_000);
    const alert = panel(page).getByRole('alert');
    await expect(alert.getAttribute('data-reason')).resolves.toBe('rateLimitError');
    const text = (await alert.textContent()) ?? '';
    const wait = /^Слишком много запросов к ИИ\. Попробуйте через (\d+) с\.$/.exec(text);
    expect(wait).not.toBeNull();
    expect(Number(wait![1])).toBeGreaterThan(40);
    expect(Number(wait![1])).toBeLessThanOrEqual(60);
    await eventually(async () => warnings.some((w) => w.startsWith('ai: rateLimitError') && w.includes(`retry after ${wait![1]} s`)), true);
    await shoot(page, 'ai-nomodel-ratelimit-1280-light');
    await page.close();
  }, 60_000);
});
