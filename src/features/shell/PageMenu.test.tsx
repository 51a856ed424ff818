import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { newElement, type WireElement } from '../../../schema/element';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { dismissAllToasts, Toaster } from '../../ui/Toast';
import { MoveDialog } from './MoveDialog';
import { PageMenu } from './PageMenu';
import { loadSection, pageLoaded } from '../pages/pagesSlice';
import { signedIn } from '../auth/authSlice';

const WS = 'ws-1';
const ME = '22222222-2222-4222-8222-222222222222';
const page = (over: Partial<WireElement> = {}): WireElement =>
  newElement({ id: '11111111-1111-4111-8111-111111111111', workspaceId: WS, title: 'План', section: 'private', ...over }, '2026-01-01T00:00:00.000Z');

type Reply = { status: number; body: unknown };
let calls: { url: string; method: string; body: unknown }[] = [];
let answer: (url: string, method: string) => Promise<Reply>;

beforeEach(() => {
  dismissAllToasts();
  calls = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const { status, body } = await answer(url, method);
    return { ok: status < 400, status, statusText: '', json: async () => body } as Response;
  }) as typeof fetch;
});

const fail = (status: number, code = 'x'): Reply => ({ status, body: { data: null, errors: [{ code, message: code }] } });

function setup(p: WireElement, role: 'admin' | 'participant' | 'guest' = 'admin') {
  const store = createStore();
  store.dispatch({ type: 'workspaces/load/fulfilled', payload: [{ id: WS, name: 'Команда', avatar: null, alias: null, role, private: false }] });
  store.dispatch(loadSection.fulfilled({ section: 'private', pages: [p] }, 'r', 'private'));
  store.dispatch(pageLoaded(p));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <PageMenu page={p} />
        <Toaster />
      </MemoryRouter>
    </Provider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Действия со страницей' }));
  return store;
}

describe('clone («Создать копию»)', () => {
  it('shows the copy in the tree at once and takes it away with a clone error when the server refuses', async () => {
    let refuse!: (r: Reply) => void;
    answer = () => new Promise((resolve) => (refuse = resolve));
    const store = setup(page());
    fireEvent.click(screen.getByRole('menuitem', { name: 'Создать копию' }));
    // Optimistic: the copy is there before the server answers.
    const ids = () => store.getState().pages.sections.private ?? [];
    await waitFor(() => expect(ids()).toHaveLength(2));
    const copyId = ids()[1];
    expect(store.getState().pages.entities[copyId]?.title).toBe('План');
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: `/api/v3/spaces/element/${page().id}/page/clone`,
      body: { id: copyId, workspaceId: WS, toElement: null },
    });
    const info = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    await act(async () => refuse(fail(403, 'forbidden')));
    await waitFor(() => expect(ids()).toEqual([page().id]));
    expect(store.getState().pages.entities[copyId]).toBeUndefined();
    expect(await screen.findByText(/Не удалось создать копию страницы/)).toBeTruthy();
    // Reported as a clone error with the page, its new parent and the workspace; a 403 is expected: not logged as an error.
    expect(info.mock.calls.filter(([line]) => String(line).startsWith('clone: '))).toEqual([
      [
        `clone: page ${page().id} not copied to the section in workspace ${WS}: forbidden`,
        expect.objectContaining({ pageId: page().id, toElement: null, workspaceId: WS, error: expect.objectContaining({ status: 403 }) }),
      ],
    ]);
    info.mockRestore();
  });

  it('an unexpected refusal is reported as a clone error (an error), with the new parent', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    answer = async () => fail(400, 'bad_request');
    const store = createStore();
    store.dispatch({ type: 'workspaces/load/fulfilled', payload: [{ id: WS, name: 'Команда', avatar: null, alias: null, role: 'admin', private: false }] });
    const parent = page({ id: 'p', accessLevel: 'edit' });
    const child = page({ parentId: 'p', path: ['p'], section: null, accessLevel: 'edit' });
    store.dispatch(pageLoaded(parent));
    store.dispatch(pageLoaded(child));
    render(
      <Provider store={store}>
        <MemoryRouter>
          <PageMenu page={child} />
          <Toaster />
        </MemoryRouter>
      </Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Действия со страницей' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Создать копию' }));
    expect(await screen.findByText(/Не удалось создать копию страницы/)).toBeTruthy();
    const clones = error.mock.calls.filter(([line]) => String(line).startsWith('clone: '));
    expect(clones).toEqual([
      [
        `clone: page ${child.id} not copied to p in workspace ${WS}: bad_request`,
        expect.objectContaining({ pageId: child.id, toElement: 'p', workspaceId: WS }),
      ],
    ]);
    // The copy is gone from the store again.
    expect(Object.keys(store.getState().pages.entities).sort()).toEqual([child.id, 'p'].sort());
    error.mockRestore();
  });

  it('rolls back without a clone error on 404, and reports nothing', async () => {
    const logged = (['error', 'warn', 'info'] as const).map((level) => jest.spyOn(console, level).mockImplementation(() => undefined));
    answer = async () => fail(404, 'not_found');
    const store = setup(page());
    fireEvent.click(screen.getByRole('menuitem', { name: 'Создать копию' }));
    await screen.findByText('Страница не найдена — возможно, её удалили');
    expect(store.getState().pages.sections.private).toEqual([page().id]);
    expect(screen.queryByText(/Не удалось создать копию/)).toBeNull();
    // The app's reports (`kind: message`, src/app/report.ts) — not Redux Toolkit's development-mode
    // timing warnings («SerializableStateInvariantMiddleware took 50ms»), which a loaded run prints.
    expect(logged.flatMap((spy) => spy.mock.calls).filter(([line]) => /^[A-Za-z]+: /.test(String(line)))).toEqual([]);
    for (const spy of logged) spy.mockRestore();
  });

  it('copies next to the original when the parent is editable', async () => {
    answer = async () => ({ status: 201, body: { data: page({ id: '22222222-2222-4222-8222-222222222222', parentId: 'p', path: ['p'], section: null }) } });
    const store = createStore();
    store.dispatch(pageLoaded(page({ id: 'p', accessLevel: 'edit' })));
    const child = page({ parentId: 'p', path: ['p'], section: null, accessLevel: 'edit' });
    store.dispatch({
      type: 'workspaces/load/fulfilled',
      payload: [{ id: WS, name: 'Команда', avatar: null, alias: null, role: 'participant', private: false }],
    });
    render(
      <Provider store={store}>
        <MemoryRouter>
          <PageMenu page={child} />
        </MemoryRouter>
      </Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Действия со страницей' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Создать копию' }));
    await waitFor(() => expect(calls[0]?.body).toMatchObject({ toElement: 'p' }));
  });
});

describe('menu actions by access level', () => {
  const names = () =>
    [...document.querySelectorAll<HTMLButtonElement>('.menu-item')].map((item) => `${item.textContent}${(item as HTMLButtonElement).disabled ? ' (off)' : ''}`);

  it('read: favourite, copy, copy link; no trash, move or publish', () => {
    answer = async () => ({ status: 200, body: { data: {} } });
    setup(page({ accessLevel: 'read' }), 'participant');
    expect(names()).toEqual(['Добавить в избранное', 'Создать копию', 'Копировать ссылку', 'История версий', 'Экспорт…', 'Уведомления', 'Корзина']);
  });

  it('edit: also trash', () => {
    answer = async () => ({ status: 200, body: { data: {} } });
    setup(page({ accessLevel: 'edit' }), 'participant');
    expect(names()).toEqual([
      'Добавить в избранное',
      'Создать копию',
      'Копировать ссылку',
      'История версий',
      'Экспорт…',
      'Импорт в эту страницу…',
      'Уведомления',
      'Удалить в корзину',
      'Корзина',
    ]);
  });

  it('full: also move and publish', () => {
    answer = async () => ({ status: 200, body: { data: {} } });
    setup(page({ accessLevel: 'full' }));
    expect(names()).toEqual([
      'Добавить в избранное',
      'Создать копию',
      'Переместить в…',
      'Копировать ссылку',
      'История версий',
      'Экспорт…',
      'Импорт в эту страницу…',
      'Уведомления',
      'Опубликовать в интернете',
      'Удалить в корзину',
      'Корзина',
    ]);
  });

  it('a guest reading a page without an editable parent cannot copy it', () => {
    answer = async () => ({ status: 200, body: { data: {} } });
    setup(page({ accessLevel: 'read' }), 'guest');
    expect(names()).toContain('Создать копию (off)');
  });

  it('the page’s workspace judges a copy, not the one open: a guest there cannot copy a page they read, though admin where they are', () => {
    answer = async () => ({ status: 200, body: { data: {} } });
    const store = createStore();
    store.dispatch({
      type: 'workspaces/load/fulfilled',
      payload: [
        { id: 'ws-own', name: 'Своё', avatar: null, alias: null, role: 'admin', private: false },
        { id: WS, name: 'Команда', avatar: null, alias: null, role: 'guest', private: false },
      ],
    });
    expect(store.getState().workspaces.activeId).toBe('ws-own');
    const read = page({ accessLevel: 'read' });
    store.dispatch(pageLoaded(read));
    render(
      <Provider store={store}>
        <MemoryRouter>
          <PageMenu page={read} />
        </MemoryRouter>
      </Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Действия со страницей' }));
    expect(names()).toContain('Создать копию (off)');
  });

  it('a page shared from a workspace the caller is not in is copied into the open one, to their private section', async () => {
    answer = async () => ({ status: 201, body: { data: page({ id: '33333333-3333-4333-8333-333333333333' }) } });
    const shared = page({ workspaceId: 'ws-theirs', parentId: 'their-parent', path: ['their-parent'], section: null, accessLevel: 'edit' });
    setup(shared, 'participant');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Создать копию' }));
    await waitFor(() => expect(calls[0]?.body).toMatchObject({ workspaceId: WS, toElement: null }));
  });

  it('a refused publish puts the flag back and says why', async () => {
    answer = async () => fail(403, 'forbidden');
    const store = setup(page({ accessLevel: 'full' }));
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: 'Опубликовать в интернете' }));
    expect(await screen.findByText('Недостаточно прав для этого действия')).toBeTruthy();
    expect(store.getState().pages.entities[page().id]?.isPublic).toBe(false);
  });
});

describe('move («Переместить в…»)', () => {
  it('offers the section roots of the page’s own workspace, by the caller’s role there (a guest there: none), not the open one’s', () => {
    const store = createStore();
    store.dispatch({
      type: 'workspaces/load/fulfilled',
      payload: [
        { id: 'ws-own', name: 'Своё', avatar: null, alias: null, role: 'admin', private: false },
        { id: WS, name: 'Команда', avatar: null, alias: null, role: 'guest', private: false },
      ],
    });
    const sections = (p: WireElement) => {
      const { unmount } = render(
        <Provider store={store}>
          <MemoryRouter>
            <MoveDialog page={p} onClose={() => undefined} />
          </MemoryRouter>
        </Provider>,
      );
      const found = ['Личные (в корень раздела)', 'Общие (в корень раздела)'].filter((name) => screen.queryByText(name));
      unmount();
      return found;
    };
    store.dispatch(
      signedIn({ id: ME, email: 'me@example.com', name: 'Я', avatar_url: null, anonymous: false, telegramId: null, createdAt: '2026-11-01T00:00:00.000Z' }),
    );
    expect(sections(page({ accessLevel: 'full', createdBy: ME }))).toEqual([]);
    expect(sections(page({ accessLevel: 'full', workspaceId: 'ws-own', createdBy: ME }))).toEqual(['Личные (в корень раздела)', 'Общие (в корень раздела)']);
    // Someone else's page: never to one's own private section (the server refuses it too).
    expect(sections(page({ accessLevel: 'full', workspaceId: 'ws-own', createdBy: 'someone-else' }))).toEqual(['Общие (в корень раздела)']);
  });
});
