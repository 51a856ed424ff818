import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { newElement, type WireElement } from '../../../schema/element';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { Toaster } from '../../ui/Toast';
import { TRASH_SEARCH_DEBOUNCE_MS, TrashDialog } from './TrashDialog';

const trashed = (id: string, title: string, accessLevel: WireElement['accessLevel'] = 'full'): WireElement =>
  newElement({ id, workspaceId: 'ws', title, section: 'private', accessLevel, inTrash: true }, '2026-01-01T00:00:00.000Z');

const all = [trashed('a', 'План запуска'), trashed('b', 'Заметки'), trashed('c', 'ПЛАН Б', 'edit')];
let urls: string[];
let restoreRefused: boolean;
/** The list's reads fail (no connection) while set. */
let offline = false;
/** The server's page of the list (the trash answers 50 at a time). */
let pageSize: number;
let store: ReturnType<typeof createStore>;

beforeEach(() => {
  urls = [];
  restoreRefused = true;
  offline = false;
  pageSize = 50;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://x');
    urls.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}`);
    if (offline) throw new TypeError('Failed to fetch');
    if (url.pathname.endsWith('/remove')) return { ok: true, status: 200, json: async () => ({ data: { id: 'a', status: 'success' } }) } as Response;
    if (url.pathname.endsWith('/restore') && !restoreRefused) {
      const page = all.find((p) => url.pathname.includes(`/${p.id}/`))!;
      return { ok: true, status: 200, json: async () => ({ data: { ...page, inTrash: false } }) } as Response;
    }
    if (url.pathname.endsWith('/restore')) {
      const body = { data: null, errors: [{ code: 'page.parent_in_trash', message: '' }] };
      return { ok: false, status: 409, json: async () => body } as Response;
    }
    if (url.pathname.startsWith('/api/v3/spaces/section/')) return { ok: true, status: 200, json: async () => ({ data: [], meta: {} }) } as Response;
    const q = url.searchParams.get('q');
    const needle = q ? (JSON.parse(q) as string).toLowerCase() : '';
    const found = all.filter((p) => p.title.toLowerCase().includes(needle));
    const cursor = url.searchParams.get('cursor');
    const from = cursor ? found.findIndex((p) => p.id === JSON.parse(cursor)) + 1 : 0;
    const data = found.slice(from, from + pageSize);
    const more = from + pageSize < found.length;
    return {
      ok: true,
      status: 200,
      json: async () => ({ data, meta: { count: data.length, hasMoreNext: more, nextCursor: more ? data.at(-1)!.id : undefined } }),
    } as Response;
  }) as typeof fetch;
});

function renderTrash() {
  store = createStore();
  render(
    <Provider store={store}>
      <MemoryRouter>
        <TrashDialog onClose={() => undefined} />
        <Toaster />
      </MemoryRouter>
    </Provider>,
  );
}

const titles = () => screen.queryAllByRole('listitem').map((li) => li.querySelector('.trash-title')?.textContent);

it('lists the trash and searches titles case-insensitively, debounced', async () => {
  renderTrash();
  await waitFor(() => expect(titles()).toEqual(['План запуска', 'Заметки', 'ПЛАН Б']));
  jest.useFakeTimers();
  try {
    fireEvent.change(screen.getByLabelText('Поиск по названию'), { target: { value: 'п' } });
    fireEvent.change(screen.getByLabelText('Поиск по названию'), { target: { value: 'пл' } });
    fireEvent.change(screen.getByLabelText('Поиск по названию'), { target: { value: 'план' } });
    await act(async () => jest.advanceTimersByTime(TRASH_SEARCH_DEBOUNCE_MS + 10));
  } finally {
    jest.useRealTimers();
  }
  await waitFor(() => expect(titles()).toEqual(['План запуска', 'ПЛАН Б']));
  // One request for the typed word, none for the keystrokes before it.
  expect(urls.filter((u) => u.includes('q='))).toEqual([`GET /api/v3/spaces/trash?q=${encodeURIComponent('"план"')}`]);
});

it('says so when nothing matches', async () => {
  renderTrash();
  await waitFor(() => expect(titles()).toHaveLength(3));
  fireEvent.change(screen.getByLabelText('Поиск по названию'), { target: { value: 'нет такого' } });
  expect(await screen.findByText('Ничего не нашлось')).toBeTruthy();
});

it('deletes forever only after the confirmation, and only with full access', async () => {
  renderTrash();
  await waitFor(() => expect(titles()).toHaveLength(3));
  expect(screen.queryByRole('button', { name: 'Удалить навсегда: ПЛАН Б' })).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Удалить навсегда: План запуска' }));
  expect(urls.some((u) => u.endsWith('/remove'))).toBe(false);
  fireEvent.click(within(screen.getByRole('dialog', { name: 'Удалить навсегда?' })).getByRole('button', { name: 'Удалить навсегда' }));
  await waitFor(() => expect(titles()).toEqual(['Заметки', 'ПЛАН Б']));
  expect(urls).toContain('POST /api/v3/spaces/trash/a/remove');
});

it('explains a refused restore', async () => {
  renderTrash();
  await waitFor(() => expect(titles()).toHaveLength(3));
  fireEvent.click(screen.getByRole('button', { name: 'Восстановить: Заметки' }));
  expect(await screen.findByText('Сначала восстановите родительскую страницу')).toBeTruthy();
  expect(titles()).toHaveLength(3);
});

it('a restore takes the page out of the list and back into the store', async () => {
  restoreRefused = false;
  renderTrash();
  await waitFor(() => expect(titles()).toHaveLength(3));
  fireEvent.click(screen.getByRole('button', { name: 'Восстановить: Заметки' }));
  await waitFor(() => expect(titles()).toEqual(['План запуска', 'ПЛАН Б']));
  expect(urls).toContain('POST /api/v3/spaces/trash/b/restore');
  expect(store.getState().pages.entities.b?.inTrash).toBe(false);
  // Back in the tree where it was: its section is read again.
  expect(urls).toContain('GET /api/v3/spaces/section/private');
});

it('shows more, page by page', async () => {
  pageSize = 2;
  renderTrash();
  await waitFor(() => expect(titles()).toEqual(['План запуска', 'Заметки']));
  fireEvent.click(screen.getByRole('button', { name: 'Показать ещё' }));
  await waitFor(() => expect(titles()).toEqual(['План запуска', 'Заметки', 'ПЛАН Б']));
  expect(screen.queryByRole('button', { name: 'Показать ещё' })).toBeNull();
  expect(urls.filter((u) => u.startsWith('GET'))).toEqual(['GET /api/v3/spaces/trash', `GET /api/v3/spaces/trash?cursor=${encodeURIComponent('"b"')}`]);
});

it('a search that fails says so, not showing the last list as its result', async () => {
  renderTrash();
  await waitFor(() => expect(titles()).toHaveLength(3));
  offline = true;
  fireEvent.change(screen.getByLabelText('Поиск по названию'), { target: { value: 'план' } });
  expect(await screen.findByText('Не удалось загрузить корзину')).toBeTruthy();
  expect(titles()).toEqual([]);
});

it('restoring the page a «Показать ещё» cursor names reads the list again (the server knows no such cursor then)', async () => {
  pageSize = 2;
  restoreRefused = false;
  renderTrash();
  await waitFor(() => expect(titles()).toEqual(['План запуска', 'Заметки']));
  fireEvent.click(screen.getByRole('button', { name: 'Восстановить: Заметки' }));
  // «Заметки» was the cursor of the next page: the list is read again from the start.
  await waitFor(() => expect(urls.filter((u) => u === 'GET /api/v3/spaces/trash')).toHaveLength(2));
});
