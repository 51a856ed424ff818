import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { WireComment } from '../../../schema/comment';
import type { WireUser } from '../../../schema/user';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { signedIn } from '../auth/authSlice';
import { CommentsPanel } from './CommentsPanel';
import { commentDeleted, commentsReducer, loadComments } from './commentsSlice';
import { Composer } from './Composer';
import { draftToTokens, filterMembers, relativeTime } from './content';
import { createUserLookup } from './userLookup';
import { commentsPanelWidthSet } from '../settings/uiSettings';

const PAGE = 'page-1';
const now = Date.now();

function user(id: string, name: string, email = `${id}@example.com`): WireUser {
  return { id, email, name, avatar_url: null, anonymous: false, telegramId: null, createdAt: '2026-11-01T00:00:00.000Z' };
}
const anna = user('u-anna', 'Анна');
const ivan = user('u-ivan', 'ivan');
const olga = user('u-olga', 'Ольга Петрова', 'olga@corp.example');

function comment(id: string, patch: Partial<WireComment> = {}): WireComment {
  return {
    id,
    contentType: 'Comment',
    parent: { type: 'page', id: PAGE },
    elementId: PAGE,
    content: [{ text: `текст ${id}` }],
    attaches: [],
    reactions: [],
    author: ivan,
    createdAt: new Date(now - 5 * 60_000).toISOString(),
    updatedAt: new Date(now - 5 * 60_000).toISOString(),
    repliedComment: null,
    isDeleted: false,
    countReplies: 0,
    ...patch,
  };
}
const reply = (id: string, parent: string, patch: Partial<WireComment> = {}) =>
  comment(id, { parent: { type: 'comment', id: parent }, repliedComment: parent, ...patch });

function envelope(data: unknown, status = 200) {
  const body = { data, included: [], meta: { hasMoreNext: false }, errors: status >= 400 ? [{ code: 'forbidden', message: 'no' }] : [] };
  return { ok: status < 400, status, statusText: '', json: async () => body } as Response;
}

type Route = (method: string, path: string, body: unknown) => Response | undefined;

function mockFetch(route: Route) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = String(input);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body });
    return route(method, path, body) ?? envelope(null, 404);
  }) as typeof fetch;
  return calls;
}

describe('delete semantics (commentsSlice)', () => {
  const loaded = (comments: WireComment[]) => commentsReducer(undefined, { type: loadComments.fulfilled.type, payload: comments, meta: { arg: PAGE } });

  it('keeps a deleted comment that still has replies, and drops it with its last reply', () => {
    let state = loaded([comment('a', { countReplies: 1 })]);
    state = commentsReducer(state, { type: 'comments/loadReplies/fulfilled', payload: [reply('b', 'a')], meta: { arg: 'a' } });
    // The server keeps "a" as deleted: it has a reply.
    state = commentsReducer(state, commentDeleted({ id: 'a', comment: comment('a', { isDeleted: true, content: [], countReplies: 1 }), removedIds: [] }));
    expect(state.topIds).toEqual(['a']);
    expect(state.byId.a.isDeleted).toBe(true);
    // Its last reply goes: the server names both rows, the list loses both.
    state = commentsReducer(state, commentDeleted({ id: 'b', comment: null, removedIds: ['b', 'a'] }));
    expect(state.topIds).toEqual([]);
    expect(state.byId).toEqual({});
  });

  it('drops a deleted parent left without replies even when only the reply is named', () => {
    let state = loaded([comment('a', { isDeleted: true, content: [], countReplies: 1 })]);
    state = commentsReducer(state, { type: 'comments/loadReplies/fulfilled', payload: [reply('b', 'a')], meta: { arg: 'a' } });
    state = commentsReducer(state, commentDeleted({ id: 'b', comment: null, removedIds: ['b'] }));
    expect(state.topIds).toEqual([]);
  });

  it('keeps a live parent when its only reply is removed (one reply fewer)', () => {
    let state = loaded([comment('a', { countReplies: 2 })]);
    state = commentsReducer(state, { type: 'comments/loadReplies/fulfilled', payload: [reply('b', 'a'), reply('c', 'a')], meta: { arg: 'a' } });
    state = commentsReducer(state, commentDeleted({ id: 'b', comment: null, removedIds: ['b'] }));
    expect(state.byId.a.countReplies).toBe(1);
    expect(state.replies.a).toEqual(['c']);
  });

  it('drops malformed comments from a list with a warning', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const calls = mockFetch((_method, path) => (path.includes('/element/') ? envelope([comment('a'), { id: 'bad', contentType: 'Comment' }]) : undefined));
    const store = createStore();
    return store.dispatch(loadComments(PAGE)).then(() => {
      expect(calls).toHaveLength(1);
      expect(store.getState().comments.topIds).toEqual(['a']);
      expect(warn).toHaveBeenCalled();
      warn.mockRestore();
    });
  });
});

describe('CommentsPanel', () => {
  function renderPanel(level: 'read' | 'edit' | 'full', route: Route) {
    const calls = mockFetch(route);
    const store = createStore();
    store.dispatch(signedIn(ivan));
    render(
      <Provider store={store}>
        <MemoryRouter>
          <CommentsPanel page={{ id: PAGE, workspaceId: 'ws', accessLevel: level, inTrash: false }} onClose={() => undefined} />
        </MemoryRouter>
      </Provider>,
    );
    return calls;
  }

  it('shows a deleted comment with replies as «Комментарий удалён», then drops it with its last reply', async () => {
    let top = comment('a', { countReplies: 1 });
    renderPanel('read', (method, path) => {
      if (method === 'GET' && path.startsWith(`/api/v3/spaces/element/${PAGE}/comments`)) return envelope([top]);
      if (method === 'GET' && path.startsWith('/api/v3/spaces/comment/a/comments')) return envelope([reply('b', 'a')]);
      if (method === 'DELETE' && path.endsWith('/comments/a')) {
        top = comment('a', { isDeleted: true, content: [], countReplies: 1 });
        return envelope({ id: 'a', status: 'success', comment: top, removedIds: [] });
      }
      if (method === 'DELETE' && path.endsWith('/comments/b')) return envelope({ id: 'b', status: 'success', comment: null, removedIds: ['b', 'a'] });
      return undefined;
    });
    const first = await screen.findByText('текст a');
    expect(screen.getByText('5 минут назад', { exact: false })).toBeTruthy();
    fireEvent.click(within(first.closest('article')!).getByRole('button', { name: 'Удалить' }));
    fireEvent.click(within(first.closest('article')!).getAllByRole('button', { name: 'Удалить' }).at(-1)!);
    expect(await screen.findByText('Комментарий удалён')).toBeTruthy();
    // Open the thread and delete the only reply: the deleted comment goes too.
    fireEvent.click(screen.getByRole('button', { name: '1 ответ' }));
    const second = await screen.findByText('текст b');
    fireEvent.click(within(second.closest('article')!).getByRole('button', { name: 'Удалить' }));
    fireEvent.click(within(second.closest('article')!).getAllByRole('button', { name: 'Удалить' }).at(-1)!);
    expect(await screen.findByText('Комментариев пока нет')).toBeTruthy();
    expect(screen.queryByText('Комментарий удалён')).toBeNull();
  });

  it('offers edit and delete on own comments only; full access may delete anyone’s', async () => {
    const route: Route = (method, path) =>
      method === 'GET' && path.includes('/element/') ? envelope([comment('mine'), comment('theirs', { author: anna })]) : undefined;
    renderPanel('read', route);
    const mine = (await screen.findByText('текст mine')).closest('article')!;
    const theirs = screen.getByText('текст theirs').closest('article')!;
    expect(within(mine).getByRole('button', { name: 'Изменить' })).toBeTruthy();
    expect(within(mine).getByRole('button', { name: 'Удалить' })).toBeTruthy();
    expect(within(theirs).queryByRole('button', { name: 'Изменить' })).toBeNull();
    expect(within(theirs).queryByRole('button', { name: 'Удалить' })).toBeNull();
  });

  it('explains a 403 in Russian', async () => {
    renderPanel('read', () => envelope(null, 403));
    expect(await screen.findByText('Нет доступа к комментариям этой страницы')).toBeTruthy();
  });
});

describe('user lookups', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends one request for every lookup made within 100 ms', async () => {
    const requests: string[][] = [];
    const lookup = createUserLookup(async (ids) => {
      requests.push(ids);
      return ids.map((id) => user(id, id.toUpperCase()));
    });
    const answers = Promise.all(['a', 'b', 'a', 'c'].map((id) => lookup.lookup(id)));
    await jest.advanceTimersByTimeAsync(60);
    const late = lookup.lookup('d');
    expect(requests).toEqual([]);
    await jest.advanceTimersByTimeAsync(40);
    expect(requests).toEqual([['a', 'b', 'c', 'd']]);
    expect((await answers).map((u) => u.name)).toEqual(['A', 'B', 'A', 'C']);
    expect((await late).name).toBe('D');
    // Known users are not asked for again; a new window starts a new request.
    await lookup.lookup('a');
    const next = lookup.lookup('e');
    await jest.advanceTimersByTimeAsync(100);
    await next;
    expect(requests).toEqual([['a', 'b', 'c', 'd'], ['e']]);
  });

  it('fills unknown ids with the anonymous placeholder and retries after a failure', async () => {
    let fail = true;
    const lookup = createUserLookup(async (ids) => {
      if (fail) throw new Error('offline');
      return ids.filter((id) => id !== 'ghost').map((id) => user(id, id));
    });
    const failed = lookup.lookup('x');
    const expectation = expect(failed).rejects.toThrow('offline');
    await jest.advanceTimersByTimeAsync(100);
    await expectation;
    fail = false;
    const again = Promise.all([lookup.lookup('x'), lookup.lookup('ghost')]);
    await jest.advanceTimersByTimeAsync(100);
    const [x, ghost] = await again;
    expect(x.name).toBe('x');
    expect(ghost.anonymous).toBe(true);
  });
});

describe('mentions', () => {
  const members = [ivan, anna, olga, user('u-anton', '', 'anton@example.com')];

  it('filters members by name or e-mail as you type, never offering yourself', () => {
    expect(filterMembers(members, '', ivan.id).map((u) => u.id)).toEqual(['u-anna', 'u-olga', 'u-anton']);
    expect(filterMembers(members, 'ан', ivan.id).map((u) => u.id)).toEqual(['u-anna']);
    expect(filterMembers(members, 'пет', ivan.id).map((u) => u.id)).toEqual(['u-olga']);
    expect(filterMembers(members, 'corp', ivan.id).map((u) => u.id)).toEqual(['u-olga']);
    expect(filterMembers(members, 'AN', ivan.id).map((u) => u.id)).toEqual(['u-anton', 'u-anna']);
    expect(filterMembers(members, 'iv', ivan.id)).toEqual([]);
  });

  it('turns picked mentions into mention tokens and links into link tokens', () => {
    expect(draftToTokens('  Посмотри, @Анна: https://example.com/x.  ', [{ userId: 'u-anna', label: '@Анна' }])).toEqual([
      { text: 'Посмотри, ' },
      { text: '@Анна', mention: { userId: 'u-anna' } },
      { text: ': ' },
      { text: 'https://example.com/x', link: { href: 'https://example.com/x' } },
      { text: '.' },
    ]);
    expect(draftToTokens('   ', [])).toEqual([]);
  });

  it('offers members after @ in the composer and sends the mention; Enter on empty is refused', async () => {
    mockFetch((_method, path) =>
      path.startsWith('/api/v3/spaces/workspace/ws/members')
        ? envelope(members.map((u) => ({ id: u.id, contentType: 'WorkspaceMember', role: 'participant', createdAt: '', user: u })))
        : undefined,
    );
    const sent: unknown[] = [];
    render(
      <Provider store={createStore()}>
        <Composer
          pageId={PAGE}
          workspaceId="ws"
          selfId={ivan.id}
          canUpload={false}
          placeholder="Написать комментарий…"
          submitLabel="Отправить"
          onSubmit={async (content) => {
            sent.push(content);
            return true;
          }}
        />
      </Provider>,
    );
    const input = screen.getByLabelText('Написать комментарий…') as HTMLTextAreaElement;
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(await screen.findByText('Напишите текст или прикрепите файл')).toBeTruthy();
    expect(sent).toEqual([]);

    fireEvent.change(input, { target: { value: 'Привет, @ол', selectionStart: 11 } });
    const option = await screen.findByRole('option', { name: /Ольга Петрова/ });
    expect(screen.queryByRole('option', { name: /ivan/ })).toBeNull();
    // A textarea with a suggestion list (issue 37): no aria-expanded (not allowed on a textbox), the
    // list and its highlighted member named by aria-controls and aria-activedescendant.
    expect(input.hasAttribute('aria-expanded')).toBe(false);
    expect(input.getAttribute('aria-autocomplete')).toBe('list');
    expect(input.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);
    expect(input.getAttribute('aria-activedescendant')).toBe(option.id);
    expect(option.getAttribute('aria-selected')).toBe('true');
    fireEvent.mouseDown(option);
    expect(input.value).toBe('Привет, @Ольга Петрова ');
    await act(async () => {
      fireEvent.keyDown(input, { key: 'Enter' });
    });
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual([{ text: 'Привет, ' }, { text: '@Ольга Петрова', mention: { userId: 'u-olga' } }]);
    expect(input.value).toBe('');
  });
});

describe('relative time', () => {
  it('speaks Russian', () => {
    expect(relativeTime(new Date(now - 5 * 60_000).toISOString(), now, 'только что')).toBe('5 минут назад');
    expect(relativeTime(new Date(now - 10_000).toISOString(), now, 'только что')).toBe('только что');
    expect(relativeTime(new Date(now - 26 * 3600_000).toISOString(), now, 'только что')).toBe('вчера');
  });
});

describe('the panel width (setting `commentsPanel.width`)', () => {
  const realMatchMedia = window.matchMedia;
  afterEach(() => {
    window.matchMedia = realMatchMedia;
  });

  function renderWith(width: number) {
    mockFetch((method) => (method === 'GET' ? envelope([]) : undefined));
    const store = createStore();
    store.dispatch(signedIn(ivan));
    store.dispatch(commentsPanelWidthSet(width));
    render(
      <Provider store={store}>
        <MemoryRouter>
          <CommentsPanel page={{ id: PAGE, workspaceId: 'ws', accessLevel: 'full', inTrash: false }} onClose={() => undefined} />
        </MemoryRouter>
      </Provider>,
    );
    return store;
  }

  it('is the setting; its left edge resizes it (arrow keys: outward is left) and the width goes into the settings', async () => {
    const store = renderWith(480);
    const panel = screen.getByRole('complementary', { name: 'Комментарии' });
    expect(panel.style.width).toBe('480px');
    const edge = within(panel).getByRole('separator', { name: 'Ширина панели комментариев' });
    expect(edge.getAttribute('aria-valuenow')).toBe('480');
    fireEvent.keyDown(edge, { key: 'ArrowLeft' });
    expect(store.getState().uiSettings.commentsPanel.width).toBe(496);
    expect(panel.style.width).toBe('496px');
    fireEvent.doubleClick(edge);
    expect(store.getState().uiSettings.commentsPanel.width).toBe(400);
    // Never past the panels' range, whatever is dispatched.
    act(() => {
      store.dispatch(commentsPanelWidthSet(5000));
    });
    expect(panel.style.width).toBe('600px');
    await screen.findByText('Комментариев пока нет');
  });

  it('a phone\u2019s full-screen sheet has no width of its own and no edge to drag', async () => {
    window.matchMedia = ((query: string) => ({
      matches: query === '(max-width: 600px)',
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    })) as unknown as typeof window.matchMedia;
    renderWith(480);
    const panel = screen.getByRole('complementary', { name: 'Комментарии' });
    expect(panel.style.width).toBe('');
    expect(within(panel).queryByRole('separator')).toBeNull();
    await screen.findByText('Комментариев пока нет');
  });
});
