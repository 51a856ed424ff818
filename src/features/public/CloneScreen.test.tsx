import { act, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation, useNavigationType } from 'react-router-dom';
import type { WireBlock } from '../../../schema/block';
import { newElement, type WireElement } from '../../../schema/element';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { dismissAllToasts, Toaster } from '../../ui/Toast';
import { CloneScreen } from './CloneScreen';

/*
 * The clone screen (/clone/:uidToClone, spec §2 «page-clone screen»): where «Копировать к себе» on
 * a public page leads once signed in. It copies the page into the caller's «Личные» of the active
 * workspace and opens the copy in place of itself; when it cannot, it says so and goes home.
 */

const SOURCE = 'aaaaaaaa-1111-4111-8111-111111111111';
const WS = 'ws-1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Reply = { status: number; body: unknown };
const ok = (data: unknown, included: unknown[] = []): Reply => ({ status: 200, body: { data, included, meta: {}, errors: [] } });
const refused = (status: number, code: string): Reply => ({ status, body: { data: null, errors: [{ code, message: code }] } });

/** Where the app is, and how it got there (a replaced entry: Back does not come back to the clone screen). */
function Where() {
  const location = useLocation();
  return <div data-testid="where">{`${location.pathname} ${useNavigationType()}`}</div>;
}

type Call = { url: string; method: string; body: unknown };

/** fetch answered by `answer` (now, or when its promise settles), every call recorded. */
function installFetch(answer: (call: Call) => Reply | Promise<Reply>): Call[] {
  const calls: Call[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(input), method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
    calls.push(call);
    const { status, body } = await answer(call);
    return { ok: status >= 200 && status < 300, status, statusText: '', json: async () => body } as Response;
  }) as typeof fetch;
  return calls;
}

function mount(answer: (call: Call) => Reply | Promise<Reply>, { workspace = true }: { workspace?: boolean } = {}) {
  const calls = installFetch(answer);
  const store = createStore();
  const loadWorkspace = () =>
    store.dispatch({ type: 'workspaces/load/fulfilled', payload: [{ id: WS, name: 'Команда', avatar: null, alias: null, role: 'admin', private: false }] });
  if (workspace) loadWorkspace();
  render(
    <StrictMode>
      <Provider store={store}>
        <MemoryRouter initialEntries={['/', `/clone/${SOURCE}`]} initialIndex={1}>
          <Routes>
            <Route path="/clone/:uidToClone" element={<CloneScreen />} />
            <Route path="*" element={<Where />} />
          </Routes>
          <Toaster />
        </MemoryRouter>
      </Provider>
    </StrictMode>,
  );
  return { calls, loadWorkspace };
}

const where = () => screen.getByTestId('where').textContent;

beforeEach(() => dismissAllToasts());

describe('the clone screen', () => {
  it('copies a page the person can read on the server (page/clone, into «Личные») and opens the copy in its place', async () => {
    let answerClone!: (reply: Reply) => void;
    const { calls } = mount((call) => {
      if (call.url.endsWith('/page/clone')) {
        return new Promise<Reply>((resolve) => (answerClone = resolve));
      }
      return refused(404, 'not_found');
    });
    // While the copy is made: a spinner and what is going on.
    expect(screen.getByText('Копируем страницу…').closest('[role="status"]')).toBeTruthy();
    await waitFor(() => expect(calls).toHaveLength(1));
    const [clone] = calls;
    expect(clone).toMatchObject({ method: 'POST', url: `/api/v3/spaces/element/${SOURCE}/page/clone`, body: { workspaceId: WS, toElement: null } });
    const id = (clone.body as { id: string }).id;
    expect(id).toMatch(UUID);
    expect(id).not.toBe(SOURCE);
    await act(async () => answerClone(ok(newElement({ id, workspaceId: WS, title: 'План' }))));
    await waitFor(() => expect(where()).toBe(`/${id} REPLACE`));
    // Once, though StrictMode ran the effect twice.
    expect(calls.filter((c) => c.url.endsWith('/page/clone'))).toHaveLength(1);
  });

  it('waits for the active workspace before copying', async () => {
    const { calls, loadWorkspace } = mount(() => ok(newElement({ id: 'x' })), { workspace: false });
    await act(async () => await new Promise((resolve) => setTimeout(resolve, 20)));
    expect(calls).toHaveLength(0);
    expect(screen.getByText('Копируем страницу…')).toBeTruthy();
    act(() => void loadWorkspace());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toMatchObject({ workspaceId: WS });
  });

  it('a public page of another workspace (clone refused) is rebuilt from its public view: title, icon, cover, blocks in order', async () => {
    const published: WireElement = newElement({
      id: SOURCE,
      workspaceId: 'other-ws',
      title: 'Рецепты',
      icon: '🍰',
      isPublic: true,
      cover: { contentType: 'LibraryCover', imageId: 'gradient-ocean', position: 30 },
    });
    const wire = (id: string, text: string, parentId: string | null, placeAfter: string | null): WireBlock => ({
      id,
      contentType: 'Block',
      pageId: SOURCE,
      type: 'text',
      version: 3,
      parentId,
      placeAfter,
      data: { tokens: [{ text }] },
    });
    const blocks = [wire('b1', 'Тесто', null, null), wire('b2', 'Мука', 'b1', null), wire('b3', 'Крем', null, 'b1')];
    const { calls } = mount((call) => {
      if (call.url.endsWith('/page/clone')) return refused(403, 'forbidden');
      if (call.url === `/api/v3/spaces/element/public/${SOURCE}`) return ok(published, [...blocks, { contentType: 'User', id: 'u1' }]);
      if (call.url === '/api/v3/spaces/section/private') return ok(newElement({ id: (call.body as { id: string }).id, workspaceId: WS }));
      return ok({ ...(call.body as object), version: 1 });
    });
    await waitFor(() => expect(where()).toMatch(/ REPLACE$/));
    const id = (calls[0].body as { id: string }).id;
    expect(where()).toBe(`/${id} REPLACE`);
    const made = calls.slice(2);
    expect(made[0]).toEqual({ url: '/api/v3/spaces/section/private', method: 'POST', body: { id, type: 'Note', contentType: 'Element', title: 'Рецепты' } });
    expect(made[1]).toEqual({ url: `/api/v3/spaces/element/${id}`, method: 'PATCH', body: { id, icon: '🍰' } });
    expect(made[2]).toEqual({ url: `/api/v3/spaces/element/${id}`, method: 'PATCH', body: { id, cover: published.cover } });
    const created = made.slice(3).map((c) => c.body as { id: string; pageId: string; data: unknown; parentId: string | null; placeAfter: string | null });
    expect(made.slice(3).every((c) => c.url === '/api/v3/spaces/block' && c.method === 'POST')).toBe(true);
    expect(created.map((b) => b.data)).toEqual(blocks.map((b) => b.data));
    expect(created.every((b) => b.pageId === id && UUID.test(b.id) && !['b1', 'b2', 'b3'].includes(b.id))).toBe(true);
    // The copies keep the tree: «Мука» under the copy of «Тесто», «Крем» after it.
    expect(created[1]).toMatchObject({ parentId: created[0].id, placeAfter: null });
    expect(created[2]).toMatchObject({ parentId: null, placeAfter: created[0].id });
  });

  it('an uploaded cover stays with the original (its file is the original page’s)', async () => {
    const published = newElement({ id: SOURCE, title: 'С обложкой', isPublic: true, cover: { contentType: 'FileCover', fileId: 'f1', position: 50 } });
    const { calls } = mount((call) => {
      if (call.url.endsWith('/page/clone')) return refused(404, 'not_found');
      if (call.url.includes('/element/public/')) return ok(published);
      return ok(newElement({ id: 'x', workspaceId: WS }));
    });
    await waitFor(() => expect(where()).toMatch(/ REPLACE$/));
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('a page that cannot be copied (neither readable nor published): the reason in a toast, and home', async () => {
    const { calls } = mount((call) => (call.url.endsWith('/page/clone') ? refused(403, 'forbidden') : refused(404, 'not_found')));
    await waitFor(() => expect(where()).toBe('/ REPLACE'));
    expect(await screen.findByText('Не удалось создать копию страницы: Страница не найдена — возможно, её удалили')).toBeTruthy();
    // Nothing was made.
    expect(calls.map((c) => c.method)).toEqual(['POST', 'GET']);
  });

  it('no connection: said so, and home', async () => {
    mount(() => {
      throw new TypeError('Failed to fetch');
    });
    await waitFor(() => expect(where()).toBe('/ REPLACE'));
    expect(await screen.findByText('Не удалось создать копию страницы: Нет связи с сервером. Попробуйте ещё раз')).toBeTruthy();
  });
});
