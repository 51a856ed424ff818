import type { BrowserContext, Page } from 'playwright-core';
import { newPage, shoot, twoPeopleSuite } from '../helpers/editorPage';
import type { ServerProcess } from '../helpers/serverProcess';

/*
 * The comments panel in real Chromium against the real server: Alice comments on her page,
 * replies, reacts, edits, mentions Bob (shared the page through the API) and deletes; Bob finds
 * the mention in his inbox; `?commentId=` opens the panel on the comment and highlights it.
 */

const people = twoPeopleSuite('alice@example.com', 'bob@example.com');
let server: ServerProcess;
let alice: BrowserContext;
let bob: BrowserContext;

beforeAll(() => {
  [server, alice, bob] = [people.server(), people.first(), people.second()];
});

const panel = (page: Page) => page.getByRole('complementary', { name: 'Комментарии' });
const commentByText = (page: Page, text: string) => panel(page).locator('article.comment', { hasText: text });
const composer = (page: Page) => panel(page).locator('.comments-compose textarea');

it('comments, replies, reactions, edits, mentions and deletes', async () => {
  const page = await alice.newPage();
  await page.goto(server.url + '/');
  await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  const url = await newPage(page, 'План запуска');
  await page.keyboard.type('Черновик плана на следующую неделю.');
  const pageId = new URL(url).pathname.slice(1);

  // Share the page with Bob (read access) through the API, as Alice.
  const shared = await page.request.post(`${server.url}/api/v3/spaces/element/${pageId}/member/add`, {
    data: [{ email: 'bob@example.com', accessLevel: 'read' }],
    headers: { 'X-App-Type': 'Web' },
  });
  expect(shared.status()).toBe(200);

  await page.getByRole('button', { name: 'Комментарии' }).click();
  await panel(page).getByText('Комментариев пока нет').waitFor();

  // Empty is refused; Enter sends; Shift+Enter breaks the line.
  await composer(page).click();
  await page.keyboard.press('Enter');
  await panel(page).getByText('Напишите текст или прикрепите файл').waitFor();
  await page.keyboard.type('Первый комментарий');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('вторая строка');
  await page.keyboard.press('Enter');
  await commentByText(page, 'Первый комментарий').waitFor();
  const firstId = (await commentByText(page, 'Первый комментарий').getAttribute('data-comment-id')) ?? '';
  const first = panel(page).locator(`article.comment[data-comment-id="${firstId}"]`);
  expect(await first.locator('.comment-content').innerText()).toBe('Первый комментарий\nвторая строка');
  expect(await first.locator('.comment-time').innerText()).toBe('только что');
  expect(await composer(page).inputValue()).toBe('');

  // Reply in the thread.
  await first.getByRole('button', { name: 'Ответить' }).click();
  await panel(page).getByRole('heading', { name: 'Обсуждение' }).waitFor();
  await page.keyboard.type('Ответ в обсуждении');
  await page.keyboard.press('Enter');
  await commentByText(page, 'Ответ в обсуждении').waitFor();
  await panel(page).locator('.comments-divider', { hasText: '1 ответ' }).waitFor();
  await panel(page).getByRole('button', { name: 'Назад к комментариям' }).click();
  await first.getByRole('button', { name: '1 ответ' }).waitFor();

  // React with 👍.
  await first.hover();
  await first.getByRole('button', { name: 'Добавить реакцию' }).click();
  await panel(page).getByRole('menuitem', { name: '👍' }).click();
  const chip = first.locator('.reaction-chip', { hasText: '👍' });
  await chip.waitFor();
  expect(await chip.getAttribute('aria-pressed')).toBe('true');
  expect(await chip.innerText()).toContain('1');
  await page.waitForFunction(() => document.querySelector('.reaction-chip')?.getAttribute('title')?.includes('alice'));

  // Edit it.
  await first.hover();
  await first.getByRole('button', { name: 'Изменить' }).click();
  const editor = first.locator('textarea');
  await editor.fill('Исправленный комментарий');
  await editor.press('Enter');
  const edited = commentByText(page, 'Исправленный комментарий');
  await edited.locator('.comment-edited').waitFor();

  // Mention Bob: typing @ offers the members, Enter picks.
  await composer(page).click();
  await page.keyboard.type('Посмотри, @bo');
  await panel(page).getByRole('option', { name: /bob/ }).waitFor();
  await page.keyboard.press('Enter');
  expect(await composer(page).inputValue()).toBe('Посмотри, @bob ');
  await page.keyboard.type('пожалуйста');
  await page.keyboard.press('Enter');
  const mention = commentByText(page, 'Посмотри');
  await mention.locator('.comment-mention', { hasText: '@bob' }).waitFor();
  const mentionId = (await mention.getAttribute('data-comment-id')) ?? '';
  expect(await mention.locator('.comment-content').innerText()).toBe('Посмотри, @bob пожалуйста');

  // Attach a file: it uploads with a progress bar, then the comment shows it as a download chip.
  await panel(page)
    .getByTestId('comment-file-input')
    .setInputFiles({ name: 'отчёт.txt', mimeType: 'text/plain', buffer: Buffer.from('итоги недели') });
  await panel(page).locator('.comments-compose .comment-attach[data-status="done"]', { hasText: 'отчёт.txt' }).waitFor();
  await composer(page).click();
  await page.keyboard.type('Итоги во вложении');
  await page.keyboard.press('Enter');
  const withFile = commentByText(page, 'Итоги во вложении');
  const download = withFile.locator('a.comment-attach-link', { hasText: 'отчёт.txt' });
  await download.waitFor();
  const bytes = await page.request.get(server.url + ((await download.getAttribute('href')) ?? ''));
  expect(await bytes.text()).toBe('итоги недели');

  // Bob got the mention in his inbox.
  const inbox = await bob.request.get(`${server.url}/api/notifications`, { headers: { 'X-App-Type': 'Web' } });
  const notifications = ((await inbox.json()) as { data: { name: string; context: { commentId: string } }[] }).data;
  expect(notifications.some((n) => n.name === 'comments.mention_user' && n.context.commentId === mentionId)).toBe(true);

  // Screenshots: desktop and phone, light and dark.
  await shoot(page, 'comments-1280-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'comments-1280-dark');
  await page.setViewportSize({ width: 375, height: 812 });
  await shoot(page, 'comments-375-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await shoot(page, 'comments-375-light');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Delete the comment with a reply: it stays as «Комментарий удалён».
  await edited.hover();
  await edited.getByRole('button', { name: 'Удалить' }).click();
  await edited.locator('.comment-confirm-delete').click();
  const deleted = panel(page).locator('article.comment[data-deleted]');
  await deleted.getByText('Комментарий удалён').waitFor();
  // Delete its last reply: both go.
  await deleted.getByRole('button', { name: '1 ответ' }).click();
  const answer = commentByText(page, 'Ответ в обсуждении');
  await answer.hover();
  await answer.getByRole('button', { name: 'Удалить' }).click();
  await answer.locator('.comment-confirm-delete').click();
  await panel(page).getByRole('heading', { name: 'Комментарии' }).waitFor();
  await deleted.waitFor({ state: 'detached' });
  expect(await panel(page).locator('article.comment').count()).toBe(2);

  // ?commentId= opens the panel, scrolls to the comment and highlights it.
  const linked = await alice.newPage();
  await linked.goto(`${url}?commentId=${mentionId}`);
  await linked.locator(`article.comment[data-comment-id="${mentionId}"][data-highlighted]`).waitFor();
  await linked.close();

  // Bob (read access) sees the comment and may answer; he has no edit on Alice's comment.
  const bobPage = await bob.newPage();
  await bobPage.goto(`${url}?commentId=${mentionId}`);
  const seen = commentByText(bobPage, 'Посмотри');
  await seen.waitFor();
  expect(await seen.getByRole('button', { name: 'Изменить' }).count()).toBe(0);
  await composer(bobPage).click();
  await bobPage.keyboard.type('Посмотрел');
  await bobPage.keyboard.press('Enter');
  await commentByText(bobPage, 'Посмотрел').waitFor();
  await bobPage.close();
}, 120_000);
