import type { BrowserContext, Page } from 'playwright-core';
import { newId } from '../../schema/ids';
import { shoot, twoPeopleSuite } from '../helpers/editorPage';
import type { ServerProcess } from '../helpers/serverProcess';

/*
 * The web app live (issue 6), in real Chromium against the real server, two people in one
 * workspace: what Alice does to the page tree shows in Bob's sidebar without a reload (a page
 * made, renamed, given a sub-page, trashed), her mention of him raises his inbox badge, and when
 * Bob's connection drops he is told so — and on its return his sidebar and badge catch up with
 * what happened meanwhile. Nothing here reloads Bob's page: only the realtime connection can
 * bring these changes (the unread counts are otherwise polled every 5 minutes).
 */

const HEADERS = { 'X-App-Type': 'Web' };
/** Long enough for a debounced title save (500 ms), the event and the refetch; far below any poll. */
const LIVE_MS = 8_000;

const people = twoPeopleSuite('alice.live@example.com', 'bob.live@example.com');
let server: ServerProcess;
let alice: BrowserContext;
let bob: BrowserContext;
let workspaceId: string;
let bobId: string;

const api = (context: BrowserContext) => ({
  get: async <T>(path: string): Promise<T> => {
    const res = await context.request.get(server.url + path, { headers: HEADERS });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { data: T }).data;
  },
  post: async (path: string, data: unknown, expected = 200) => {
    const res = await context.request.post(server.url + path, { data, headers: HEADERS });
    expect(res.status()).toBe(expected);
    return ((await res.json()) as { data: { id: string } }).data;
  },
  delete: async (path: string) => {
    const res = await context.request.delete(server.url + path, { headers: HEADERS });
    expect(res.status()).toBe(200);
  },
});

beforeAll(async () => {
  [server, alice, bob] = [people.server(), people.first(), people.second()];
  // Alice's workspace, with Bob as a member.
  workspaceId = (await api(alice).get<Array<{ id: string }>>('/api/v3/spaces/workspace'))[0].id;
  await api(alice).post(`/api/v3/spaces/workspace/${workspaceId}/members/add`, { members: [{ email: 'bob.live@example.com', role: 'participant' }] });
  bobId = (await api(bob).get<{ id: string }>('/api/user/current')).id;
});

const sharedSection = (page: Page) => page.getByRole('region', { name: 'Общие' });
const treeLink = (page: Page, title: string) => sharedSection(page).getByRole('link', { name: title, exact: true });
const badge = (page: Page) => page.locator('.inbox-entry .unread-badge');
const offlineNote = (page: Page) => page.locator('.connection-lost');
const badgeCount = async (page: Page) => ((await badge(page).count()) ? Number(await badge(page).innerText()) : 0);

async function openApp(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(server.url + '/');
  await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  return page;
}

/**
 * Bob's app in Alice's workspace: switched there the first time (his own is his default); after
 * that the app opens it by itself, as the workspace he was last in (remembered on the server).
 */
async function openBobInAlicesWorkspace(): Promise<Page> {
  const page = await openApp(bob);
  await page.locator('.sidebar-workspace-name').waitFor();
  if ((await page.locator('.sidebar-workspace-name').innerText()) !== 'alice.live') {
    await page.locator('.sidebar-workspace').click();
    await page.getByRole('menuitemradio', { name: /alice\.live/ }).click();
  }
  await sharedSection(page).waitFor();
  return page;
}

/** Replaces the open page's title in the editor. */
async function retitle(page: Page, title: string) {
  const h1 = page.locator('[data-slate-editor] h1');
  await h1.click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await page.keyboard.type(title);
}

const pageIdOf = (page: Page) => new URL(page.url()).pathname.slice(1);

it("follows Alice's page tree live: a new page, its new title, a sub-page, the trash", async () => {
  const b = await openBobInAlicesWorkspace();
  const a = await openApp(alice);
  await a.getByRole('button', { name: 'Новая страница' }).first().waitFor();

  // Alice makes a page in «Общие» and names it: Bob's sidebar gets it, then its title.
  await sharedSection(a).getByRole('button', { name: 'Новая страница' }).click();
  await a.waitForURL(/\/[0-9a-f-]{36}$/);
  const pageId = pageIdOf(a);
  await b.locator(`.sidebar [data-page-id="${pageId}"]`).waitFor({ timeout: LIVE_MS });
  await retitle(a, 'Живой план');
  await treeLink(b, 'Живой план').waitFor({ timeout: LIVE_MS });

  // Renamed.
  await retitle(a, 'Живой план на неделю');
  await treeLink(b, 'Живой план на неделю').waitFor({ timeout: LIVE_MS });
  expect(await treeLink(b, 'Живой план').count()).toBe(0);

  // Bob opens the page's children (none yet); Alice adds a sub-page: it appears under it.
  await b.getByRole('button', { name: 'Развернуть: Живой план на неделю' }).click();
  await sharedSection(b).getByText('Нет вложенных страниц').waitFor();
  await a.getByRole('button', { name: 'Добавить страницу внутрь: Живой план на неделю' }).click();
  await a.waitForURL((url) => !url.pathname.endsWith(pageId));
  const childId = pageIdOf(a);
  await retitle(a, 'Задачи');
  const child = sharedSection(b).locator(`.tree-children [data-page-id="${childId}"]`);
  await child.getByRole('link', { name: 'Задачи' }).waitFor({ timeout: LIVE_MS });
  await shoot(b, 'live-tree-bob-1280');

  // The sub-page renamed: its expanded parent's list follows too.
  await retitle(a, 'Задачи недели');
  await child.getByRole('link', { name: 'Задачи недели' }).waitFor({ timeout: LIVE_MS });

  // Alice trashes the page: it leaves Bob's sidebar, sub-page and all.
  await api(alice).delete(`/api/v3/spaces/element/${pageId}`);
  await b.locator(`.sidebar [data-page-id="${pageId}"]`).waitFor({ state: 'detached', timeout: LIVE_MS });
  expect(await b.locator(`.sidebar [data-page-id="${childId}"]`).count()).toBe(0);
  await Promise.all([a.close(), b.close()]);
});

it("raises Bob's inbox badge live when Alice mentions him", async () => {
  const b = await openBobInAlicesWorkspace();
  const pageId = (await api(alice).post('/api/v3/spaces/section/all', { id: newId(), type: 'Note', contentType: 'Element' }, 201)).id;
  // Settled: whatever the page made is counted before we start.
  await b.waitForTimeout(1_000);
  const before = await badgeCount(b);
  await api(alice).post(
    `/api/v3/spaces/element/${pageId}/comments`,
    { content: [{ text: 'Глянь, ' }, { text: '@Боб', mention: { userId: bobId } }, { text: ', пожалуйста' }] },
    201,
  );
  await b.locator('.inbox-entry .unread-badge', { hasText: new RegExp(`^${before + 1}$`) }).waitFor({ timeout: LIVE_MS });
  expect(await b.locator('.inbox-entry').evaluate((e) => document.getElementById(e.getAttribute('aria-describedby') ?? '')?.textContent)).toMatch(
    new RegExp(`^${before + 1} непрочитанн`),
  );

  // The open inbox gets the next one in its list, as well as the badge.
  await b.locator('.inbox-entry').click();
  const items = b.getByRole('complementary', { name: 'Входящие' }).locator('.inbox-item');
  await items.first().waitFor();
  const listed = await items.count();
  await api(alice).post(`/api/v3/spaces/element/${pageId}/comments`, { content: [{ text: 'И ещё, ' }, { text: '@Боб', mention: { userId: bobId } }] }, 201);
  await b.locator('.inbox-entry .unread-badge', { hasText: new RegExp(`^${before + 2}$`) }).waitFor({ timeout: LIVE_MS });
  await b.waitForFunction((n) => document.querySelectorAll('.inbox-panel .inbox-item').length === n, listed + 1, { timeout: LIVE_MS });
  await b.close();
});

it('says when the connection is lost, and catches up when it is back', async () => {
  const b = await openBobInAlicesWorkspace();
  await b.waitForTimeout(1_000);
  expect(await offlineNote(b).count()).toBe(0);
  const before = await badgeCount(b);

  // Chromium's offline mode closes the WebSocket too (socket.io notices at once).
  await bob.setOffline(true);
  await offlineNote(b).waitFor({ timeout: 5_000 });
  expect(await offlineNote(b).innerText()).toBe('Нет соединения — изменения сохранятся, когда связь вернётся');
  expect(
    await b
      .getByRole('status')
      .filter({ has: offlineNote(b) })
      .count(),
  ).toBe(1);
  await shoot(b, 'live-offline-1280-light');
  await b.emulateMedia({ colorScheme: 'dark' });
  await shoot(b, 'live-offline-1280-dark');
  await b.emulateMedia({ colorScheme: 'light' });
  await b.setViewportSize({ width: 375, height: 740 });
  await offlineNote(b).waitFor();
  await shoot(b, 'live-offline-375-light');
  const box = await offlineNote(b).boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
  await b.setViewportSize({ width: 1280, height: 900 });

  // Meanwhile Alice makes a page and mentions Bob: nothing can reach him now.
  const pageId = (await api(alice).post('/api/v3/spaces/section/all', { id: newId(), type: 'Note', contentType: 'Element' }, 201)).id;
  await api(alice).post(
    `/api/v3/spaces/element/${pageId}/comments`,
    { content: [{ text: '@Боб', mention: { userId: bobId } }, { text: ' — пока тебя не было' }] },
    201,
  );
  await b.waitForTimeout(500);
  expect(await b.locator(`.sidebar [data-page-id="${pageId}"]`).count()).toBe(0);
  expect(await badgeCount(b)).toBe(before);

  // Back online: the note goes, and the sidebar and the badge catch up.
  await bob.setOffline(false);
  await offlineNote(b).waitFor({ state: 'detached', timeout: 15_000 });
  await b.locator(`.sidebar [data-page-id="${pageId}"]`).waitFor({ timeout: LIVE_MS });
  await b.locator('.inbox-entry .unread-badge', { hasText: new RegExp(`^${before + 1}$`) }).waitFor({ timeout: LIVE_MS });
  await b.close();
});

it('signed out elsewhere: the closed connection (code 100) is reported and the app goes to the sign-in screen', async () => {
  const b = await openBobInAlicesWorkspace();
  const warnings: string[] = [];
  b.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
  await b.waitForTimeout(500);
  // Bob signs out in another tab (the same session cookie): the server closes his socket.
  const out = await bob.request.get(`${server.url}/api/auth/logout`, { headers: HEADERS });
  expect(out.ok()).toBe(true);
  await b.waitForURL('**/login', { timeout: LIVE_MS });
  expect(warnings.some((w) => w.startsWith('realtime: serverError (code 100)'))).toBe(true);
  await b.close();
});
