import { act, createEvent, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { newElement, type WireElement } from '../../../schema/element';
import type { WireWorkspace } from '../../../schema/workspace';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { loadWorkspaces } from '../workspaces/workspacesSlice';
import { signedIn } from '../auth/authSlice';
import { Sidebar } from './Sidebar';

/*
 * A render counter for the tree rows: a row (TreeRow) calls useLiveChildren(its page id) once per
 * render, so this wrapper, which passes through, counts each row's renders by page id.
 */
const mockRowRenders: string[] = [];
jest.mock('../realtime/liveTree', () => {
  const actual = jest.requireActual<typeof import('../realtime/liveTree')>('../realtime/liveTree');
  return {
    ...actual,
    useLiveChildren: (pageId: string, expanded: boolean) => {
      mockRowRenders.push(pageId);
      actual.useLiveChildren(pageId, expanded);
    },
  };
});

const ME = '22222222-2222-4222-8222-222222222222';
const page = (id: string, title: string, over: Partial<WireElement> = {}): WireElement =>
  newElement({ id, workspaceId: 'w1', title, section: 'private', ...over }, '2026-01-01T00:00:00.000Z');

interface Call {
  method: string;
  path: string;
  body: unknown;
  workspace?: string;
}
type Answer = { status?: number; data?: unknown; code?: string } | undefined;
/** The answer to a call (undefined: the usual one); a promise holds the call's answer back until it settles. */
type Handler = (call: Call) => Answer | Promise<Answer>;

async function renderSidebar(workspace: Partial<WireWorkspace>, handler: Handler = () => undefined, more: WireWorkspace[] = []) {
  const calls: Call[] = [];
  const ws: WireWorkspace = { id: 'w1', name: 'Команда', avatar: null, alias: null, role: 'admin', private: false, ...workspace };
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const call = {
      method: init?.method ?? 'GET',
      path: String(input),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
      workspace: headers['X-Workspace-Id'],
    };
    calls.push(call);
    let answer = await handler(call);
    if (!answer) {
      if (call.path === '/api/v3/spaces/workspace') answer = { data: [ws, ...more] };
      else if (call.path === '/api/notifications/counts') answer = { data: { w1: 0 } };
      else answer = { data: [] };
    }
    const status = answer.status ?? 200;
    const body = { data: answer.data ?? null, included: [], meta: {}, errors: status >= 400 ? [{ code: answer.code ?? 'error', message: 'refused' }] : [] };
    return { ok: status < 400, status, statusText: '', json: async () => body } as Response;
  }) as typeof fetch;
  const store = createStore();
  await store.dispatch(loadWorkspaces());
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={['/']}>
        <Sidebar />
      </MemoryRouter>
    </Provider>,
  );
  await screen.findByText('Команда');
  return { calls, store };
}

/** A drag event at a height (jsdom leaves clientY out of drag events). */
function dragAt(kind: 'dragOver' | 'drop', element: HTMLElement, clientY: number, dataTransfer: object) {
  const event = createEvent[kind](element, { dataTransfer });
  Object.defineProperty(event, 'clientY', { value: clientY });
  fireEvent(element, event);
}

const sectionNames = () => screen.getAllByRole('region').map((s) => s.getAttribute('aria-label'));

describe('Sidebar sections by role', () => {
  beforeEach(() => localStorage.clear());

  it('shows all four sections to an admin, with "+" in Общие and Личные only', async () => {
    const { calls } = await renderSidebar({ role: 'admin' });
    expect(sectionNames()).toEqual(['Избранное', 'Общие', 'Доступные мне', 'Личные']);
    expect(within(screen.getByRole('region', { name: 'Общие' })).getByRole('button', { name: 'Новая страница' })).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Личные' })).getByRole('button', { name: 'Новая страница' })).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Избранное' })).queryByRole('button', { name: 'Новая страница' })).toBeNull();
    expect(within(screen.getByRole('region', { name: 'Доступные мне' })).queryByRole('button', { name: 'Новая страница' })).toBeNull();
    // «Доступные мне» asks for every workspace's shares (scope "all").
    await waitFor(() =>
      expect(
        calls
          .filter((c) => c.path.includes('/section/'))
          .map((c) => c.path.split('/').pop())
          .sort(),
      ).toEqual(['all', 'favorite', 'private', 'shared?scope=%22all%22']),
    );
  });

  it('lets a member create only in Личные', async () => {
    await renderSidebar({ role: 'participant' });
    expect(sectionNames()).toEqual(['Избранное', 'Общие', 'Доступные мне', 'Личные']);
    expect(screen.getAllByRole('button', { name: 'Новая страница' })).toHaveLength(1);
    expect(within(screen.getByRole('region', { name: 'Личные' })).getByRole('button', { name: 'Новая страница' })).toBeTruthy();
  });

  it('shows a guest only favourites and shared, with no "+", and never asks for the other sections', async () => {
    const { calls } = await renderSidebar({ role: 'guest' });
    expect(sectionNames()).toEqual(['Избранное', 'Доступные мне']);
    expect(screen.queryByRole('button', { name: 'Новая страница' })).toBeNull();
    await waitFor(() => expect(calls.filter((c) => c.path.includes('/section/')).length).toBe(2));
    expect(calls.some((c) => /section\/(all|private)$/.test(c.path))).toBe(false);
  });

  it('hides Общие in a private workspace, even from an admin', async () => {
    await renderSidebar({ role: 'admin', private: true });
    expect(sectionNames()).toEqual(['Избранное', 'Доступные мне', 'Личные']);
    expect(screen.getAllByRole('button', { name: 'Новая страница' })).toHaveLength(1);
  });

  it('collapses a section from its header and remembers it in the UI settings', async () => {
    const { store } = await renderSidebar({ role: 'admin' }, (c) => (c.path.endsWith('/section/private') ? { data: [page('p1', 'План')] } : undefined));
    await screen.findByText('План');
    fireEvent.click(screen.getByRole('button', { name: 'Свернуть раздел «Личные»' }));
    expect(screen.queryByText('План')).toBeNull();
    expect(store.getState().uiSettings.pageTree.sections.private).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Развернуть раздел «Личные»' }));
    expect(screen.getByText('План')).toBeTruthy();
  });

  it('rolls back a page created in a section when the server refuses, with a message', async () => {
    await renderSidebar({ role: 'participant' }, (c) => (c.method === 'POST' ? { status: 403, code: 'forbidden' } : undefined));
    const create = screen.getByRole<HTMLButtonElement>('button', { name: 'Новая страница' });
    await waitFor(() => expect(create.disabled).toBe(false));
    fireEvent.click(create);
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.queryByText('Без названия')).toBeNull();
  });

  it('keeps «Новая страница» disabled until the sections above it are read (their lists move it), and says they are loading, not empty', async () => {
    let answerFavorites!: () => void;
    const favorites = new Promise<void>((resolve) => (answerFavorites = resolve));
    const { calls } = await renderSidebar({ role: 'admin', private: true }, async (c) => {
      if (c.path.endsWith('/section/favorite')) await favorites;
      return undefined;
    });
    const region = (name: string) => screen.getByRole('region', { name });
    const create = within(region('Личные')).getByRole<HTMLButtonElement>('button', { name: 'Новая страница' });
    await within(region('Личные')).findByText('Создайте первую личную страницу');
    await within(region('Доступные мне')).findByText('Здесь будут страницы, которыми с вами поделились');
    expect(within(region('Избранное')).getByText('Загрузка…')).toBeTruthy();
    expect(create.disabled).toBe(true);
    fireEvent.click(create);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await act(async () => answerFavorites());
    await within(region('Избранное')).findByText('Отмечайте страницы звёздочкой — они появятся здесь');
    expect(create.disabled).toBe(false);
    fireEvent.click(create);
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/v3/spaces/section/private']));
  });
});

describe('Sidebar tree', () => {
  beforeEach(() => localStorage.clear());

  const tree: Handler = (c) => {
    if (c.path.endsWith('/section/private')) return { data: [page('p1', 'Проект'), page('p2', '', { accessLevel: 'read' })] };
    if (c.path.endsWith('/element/p1/children') && c.method === 'GET') return { data: [page('c1', 'Задачи', { path: ['p1'], parentId: 'p1', section: null })] };
    return undefined;
  };

  it('loads children on first expand only, and shows untitled pages as «Без названия»', async () => {
    const { calls } = await renderSidebar({ role: 'admin' }, tree);
    expect(await screen.findByText('Без названия')).toBeTruthy();
    const childCalls = () => calls.filter((c) => c.path.endsWith('/children')).length;
    expect(childCalls()).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Развернуть: Проект' }));
    expect(await screen.findByText('Задачи')).toBeTruthy();
    expect(childCalls()).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Свернуть: Проект' }));
    expect(screen.queryByText('Задачи')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Развернуть: Проект' }));
    expect(screen.getByText('Задачи')).toBeTruthy();
    expect(childCalls()).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Развернуть: Задачи' }));
    expect(await screen.findByText('Нет вложенных страниц')).toBeTruthy();
  });

  it('offers "+" for a child page only where the page can be edited, and creates it under the page', async () => {
    const { calls } = await renderSidebar({ role: 'admin' }, (c) =>
      c.method === 'POST' && c.path.endsWith('/element/p1/children')
        ? { status: 201, data: page((c.body as { id: string }).id, '', { path: ['p1'], parentId: 'p1', section: null }) }
        : tree(c),
    );
    await screen.findByText('Проект');
    expect(screen.getByRole('button', { name: 'Добавить страницу внутрь: Проект' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Добавить страницу внутрь: Без названия' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Добавить страницу внутрь: Проект' }));
    await screen.findByText('Задачи');
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/element/p1/children'))).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({ type: 'Note', contentType: 'Element' });
    const group = screen.getByRole('button', { name: 'Свернуть: Проект' }).closest('li')!.querySelector('ul')!;
    expect(within(group as HTMLElement).getAllByText(/Задачи|Без названия/)).toHaveLength(2);
  });

  it('moves a page by drag and drop and puts it back with a message when the server refuses', async () => {
    let answerMove: { status?: number; code?: string } = { status: 422, code: 'page.move_cycle' };
    const { calls, store } = await renderSidebar({ role: 'admin' }, (c) => {
      if (c.path.endsWith('/section/private')) return { data: [page('p1', 'Проект'), page('p3', 'Заметка')] };
      if (c.path.endsWith('/element/p1/children')) return { data: [] };
      if (c.path.endsWith('/move')) return { ...answerMove, data: page('p3', 'Заметка', { path: ['p1'], parentId: 'p1', section: null }) };
      return undefined;
    });
    await screen.findByText('Заметка');
    const row = (title: string) => screen.getByText(title).closest('.tree-row') as HTMLElement;
    const dataTransfer = { setData: () => undefined, getData: () => '', effectAllowed: '', dropEffect: '' };
    const dragInto = async () => {
      row('Проект').getBoundingClientRect = () => ({ top: 0, height: 40, bottom: 40, left: 0, right: 200, width: 200, x: 0, y: 0, toJSON: () => ({}) });
      fireEvent.dragStart(row('Заметка'), { dataTransfer });
      dragAt('dragOver', row('Проект'), 20, dataTransfer);
      expect(row('Проект').classList.contains('drop-inside')).toBe(true);
      await act(async () => {
        dragAt('drop', row('Проект'), 20, dataTransfer);
      });
    };

    await dragInto();
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Нельзя перенести страницу внутрь неё самой');
    expect(calls.find((c) => c.path.endsWith('/p3/move'))?.body).toEqual({ dst: 'p1', placeAfter: null });
    expect(store.getState().pages.sections.private).toEqual(['p1', 'p3']);
    expect(store.getState().pages.entities.p3?.parentId).toBeNull();

    answerMove = {};
    await dragInto();
    await waitFor(() => expect(store.getState().pages.children.p1).toEqual(['p3']));
    expect(store.getState().pages.sections.private).toEqual(['p1']);
    expect(await screen.findByRole('button', { name: 'Свернуть: Проект' })).toBeTruthy();
  });

  it("never lets someone else's page land among the private section's roots (header or beside a root), only inside a page; one's own may", async () => {
    const { calls, store } = await renderSidebar({ role: 'admin' }, (c) => {
      if (c.path.endsWith('/section/private')) return { data: [page('p1', 'Проект', { createdBy: ME })] };
      if (c.path.endsWith('/element/p1/children'))
        return {
          data: [
            page('theirs', 'Чужая', { path: ['p1'], parentId: 'p1', section: null, createdBy: 'someone-else' }),
            page('mine', 'Моя', { path: ['p1'], parentId: 'p1', section: null, createdBy: ME }),
          ],
        };
      return undefined;
    });
    store.dispatch(
      signedIn({ id: ME, email: 'me@example.com', name: 'Я', avatar_url: null, anonymous: false, telegramId: null, createdAt: '2026-11-01T00:00:00.000Z' }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Развернуть: Проект' }));
    await screen.findByText('Чужая');
    const row = (title: string) => screen.getByText(title).closest('.tree-row') as HTMLElement;
    row('Проект').getBoundingClientRect = () => ({ top: 0, height: 40, bottom: 40, left: 0, right: 200, width: 200, x: 0, y: 0, toJSON: () => ({}) });
    const header = screen.getByRole('region', { name: 'Личные' }).querySelector('.sidebar-section-header') as HTMLElement;
    const dataTransfer = { setData: () => undefined, getData: () => '', effectAllowed: '', dropEffect: '' };

    fireEvent.dragStart(row('Чужая'), { dataTransfer });
    fireEvent.dragOver(header, { dataTransfer });
    expect(header.classList.contains('drop-inside')).toBe(false);
    // Beside the root «Проект» would make it a root too: only inside is offered.
    dragAt('dragOver', row('Проект'), 2, dataTransfer);
    expect(row('Проект').classList.contains('drop-before')).toBe(false);
    expect(row('Проект').classList.contains('drop-inside')).toBe(true);
    fireEvent.dragEnd(row('Чужая'), { dataTransfer });

    fireEvent.dragStart(row('Моя'), { dataTransfer });
    fireEvent.dragOver(header, { dataTransfer });
    expect(header.classList.contains('drop-inside')).toBe(true);
    await act(async () => {
      fireEvent.drop(header, { dataTransfer });
    });
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/mine/move'))?.body).toEqual({ dst: 'private', placeAfter: null }));
    expect(calls.some((c) => c.path.endsWith('/theirs/move'))).toBe(false);
  });

  it('reorders among siblings with placeAfter (which needs only edit)', async () => {
    const { calls, store } = await renderSidebar({ role: 'admin' }, (c) => {
      if (c.path.endsWith('/section/private')) return { data: [page('a', 'Первая'), page('b', 'Вторая'), page('c', 'Третья')] };
      if (c.path.endsWith('/placeAfter')) return { data: page('c', 'Третья') };
      return undefined;
    });
    await screen.findByText('Третья');
    const row = (title: string) => screen.getByText(title).closest('.tree-row') as HTMLElement;
    row('Вторая').getBoundingClientRect = () => ({ top: 0, height: 40, bottom: 40, left: 0, right: 200, width: 200, x: 0, y: 0, toJSON: () => ({}) });
    const dataTransfer = { setData: () => undefined, effectAllowed: '', dropEffect: '' };
    fireEvent.dragStart(row('Третья'), { dataTransfer });
    dragAt('dragOver', row('Вторая'), 2, dataTransfer);
    expect(row('Вторая').classList.contains('drop-before')).toBe(true);
    await act(async () => {
      dragAt('drop', row('Вторая'), 2, dataTransfer);
    });
    expect(store.getState().pages.sections.private).toEqual(['a', 'c', 'b']);
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/c/placeAfter'))?.body).toEqual({ placeAfter: 'a' }));
  });
});

describe('Workspace switcher', () => {
  beforeEach(() => localStorage.clear());

  it('lists the workspaces with their unread counts and reloads the sections of the one picked', async () => {
    const other: WireWorkspace = { id: 'w2', name: 'Гостевое', avatar: null, alias: null, role: 'guest', private: false };
    const { calls, store } = await renderSidebar(
      { role: 'admin' },
      (c) => {
        if (c.path === '/api/notifications/counts') return { data: { w1: 0, w2: 4 } };
        if (c.path.endsWith('/section/private')) return { data: c.workspace === 'w1' ? [page('p1', 'Моя страница')] : [] };
        return undefined;
      },
      [other],
    );
    await screen.findByText('Моя страница');
    fireEvent.click(screen.getByRole('button', { name: /Команда/ }));
    const menu = screen.getByRole('menu', { name: 'Рабочие пространства' });
    expect(
      within(menu)
        .getByRole('menuitemradio', { name: /Команда/ })
        .getAttribute('aria-checked'),
    ).toBe('true');
    expect(await within(menu).findByLabelText('4 непрочитанных уведомления')).toBeTruthy();
    const before = calls.length;
    fireEvent.click(within(menu).getByRole('menuitemradio', { name: /Гостевое/ }));
    expect(store.getState().workspaces.activeId).toBe('w2');
    await waitFor(() => expect(sectionNames()).toEqual(['Избранное', 'Доступные мне']));
    expect(screen.queryByText('Моя страница')).toBeNull();
    await waitFor(() =>
      expect(
        calls
          .slice(before)
          .filter((c) => c.path.includes('/section/'))
          .map((c) => c.workspace),
      ).toEqual(['w2', 'w2']),
    );
  });
});

describe('Sidebar tree renders', () => {
  beforeEach(() => localStorage.clear());

  const ROWS = 20;
  const ids = Array.from({ length: ROWS }, (_, i) => `p${i}`);
  /** A private section of ROWS pages without children. */
  const renderRows = async () => {
    await renderSidebar({ role: 'admin' }, (c) => {
      if (c.path.endsWith('/section/private')) return { data: ids.map((id) => page(id, `Страница ${id}`)) };
      if (c.path.endsWith('/children')) return { data: [] };
      return undefined;
    });
    await screen.findByText(`Страница p${ROWS - 1}`);
  };
  /** The rows rendered while `run` runs, with how many times each. */
  const rendersDuring = async (run: () => void | Promise<void>) => {
    mockRowRenders.length = 0;
    await run();
    const counts: Record<string, number> = {};
    for (const id of mockRowRenders) counts[id] = (counts[id] ?? 0) + 1;
    return counts;
  };

  it(`re-renders only the rows whose look changes while a page is dragged over a tree of ${ROWS} rows`, async () => {
    await renderRows();
    const row = (id: string) => document.querySelector(`.tree-row[data-page-id="${id}"]`) as HTMLElement;
    for (const id of ids)
      row(id).getBoundingClientRect = () => ({ top: 0, height: 40, bottom: 40, left: 0, right: 200, width: 200, x: 0, y: 0, toJSON: () => ({}) });
    const dataTransfer = { setData: () => undefined, getData: () => '', effectAllowed: '', dropEffect: '' };

    // Picking a row up marks that row only.
    expect(await rendersDuring(() => void fireEvent.dragStart(row('p19'), { dataTransfer }))).toEqual({ p19: 1 });
    expect(row('p19').classList.contains('is-dragging')).toBe(true);
    expect(document.querySelector('.sidebar-scroll.is-dragging')).not.toBeNull();
    // Hovering the middle of a row: that row shows «inside».
    expect(await rendersDuring(() => dragAt('dragOver', row('p5'), 20, dataTransfer))).toEqual({ p5: 1 });
    expect(row('p5').classList.contains('drop-inside')).toBe(true);
    // The same place again: nothing changes, nothing renders.
    expect(await rendersDuring(() => dragAt('dragOver', row('p5'), 21, dataTransfer))).toEqual({});
    // To the top of the next row: the row left and the row entered.
    expect(await rendersDuring(() => dragAt('dragOver', row('p6'), 2, dataTransfer))).toEqual({ p5: 1, p6: 1 });
    expect(row('p5').classList.contains('drop-inside')).toBe(false);
    expect(row('p6').classList.contains('drop-before')).toBe(true);
    // Lower in the same row: only that row.
    expect(await rendersDuring(() => dragAt('dragOver', row('p6'), 38, dataTransfer))).toEqual({ p6: 1 });
    expect(row('p6').classList.contains('drop-after')).toBe(true);
    // Onto the header of the rows' own section: the row loses its mark, the section's other rows stay as they are.
    const header = screen.getByRole('button', { name: 'Свернуть раздел «Личные»' }).parentElement!;
    expect(await rendersDuring(() => dragAt('dragOver', header, 10, dataTransfer))).toEqual({ p6: 1 });
    expect(header.classList.contains('drop-inside')).toBe(true);
    // Let go: the dragged row is itself again.
    expect(await rendersDuring(() => void fireEvent.dragEnd(row('p19'), { dataTransfer }))).toEqual({ p19: 1 });
    expect(document.querySelector('.is-dragging, .drop-inside, .drop-before, .drop-after')).toBeNull();
  });

  it('re-renders only the row expanded, once', async () => {
    await renderRows();
    const counts = await rendersDuring(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Развернуть: Страница p3' }));
      await screen.findByText('Нет вложенных страниц');
    });
    expect(counts).toEqual({ p3: 1 });
  });
});
