import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { signedIn } from '../auth/authSlice';
import { loadWorkspaces } from '../workspaces/workspacesSlice';
import { AppShell } from './AppShell';

/*
 * The shell switches between the desktop sidebar and the phone drawer as the window crosses
 * 601 px: the routed page must stay mounted (a page mounted again reloads its editor).
 */

/** A matchMedia whose answer the test changes, telling its listeners. */
function controllableMedia(initial: boolean) {
  let matches = initial;
  const listeners = new Set<() => void>();
  window.matchMedia = ((query: string) => ({
    media: query,
    get matches() {
      return matches;
    },
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  })) as unknown as typeof window.matchMedia;
  return (next: boolean) => {
    matches = next;
    listeners.forEach((listener) => listener());
  };
}

test('the page stays mounted when the window crosses the phone width, and when the sidebar is hidden', async () => {
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const path = String(input);
    const data =
      path === '/api/v3/spaces/workspace'
        ? [{ id: 'w1', name: 'Команда', avatar: null, alias: null, role: 'admin', private: false }]
        : path === '/api/notifications/counts'
          ? {}
          : [];
    return { ok: true, status: 200, statusText: '', json: async () => ({ data, included: [], meta: {}, errors: [] }) } as Response;
  }) as typeof fetch;
  const setPhone = controllableMedia(false);
  const store = createStore();
  store.dispatch(signedIn({ id: 'u1', email: 'anna@example.com', name: 'Анна', avatar_url: null, anonymous: false } as never));
  await store.dispatch(loadWorkspaces());
  let mounts = 0;
  function Page() {
    useEffect(() => {
      mounts += 1;
    }, []);
    return <p>Страница</p>;
  }
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={['/p1']}>
        <Routes>
          <Route element={<AppShell />}>
            <Route path=":pageUid" element={<Page />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  expect(await screen.findByText('Страница')).toBeTruthy();
  expect(mounts).toBe(1);
  await act(async () => setPhone(true));
  expect(screen.getByRole('button', { name: 'Открыть меню' })).toBeTruthy();
  await act(async () => setPhone(false));
  await act(async () => screen.getByRole('button', { name: 'Скрыть боковую панель' }).click());
  expect(screen.getByText('Страница')).toBeTruthy();
  expect(mounts).toBe(1);
});
