import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createStore } from '../../app/store';
import { signedIn } from '../auth/authSlice';
import { ProfileDialog } from './ProfileDialog';

const user = { id: 'u1', email: 'anna@example.com', name: 'Анна', avatar_url: null, anonymous: false, telegramId: null, createdAt: '2026-11-01T00:00:00.000Z' };

type Answer = { status: number; data?: unknown; code?: string };

function setup(answer: (method: string, path: string, body: unknown) => Answer) {
  const calls: Array<{ method: string; path: string; body: unknown }> = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = { method: init?.method ?? 'GET', path: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const a = answer(call.method, call.path, call.body);
    const body = { data: a.data ?? null, included: [], meta: {}, errors: a.status >= 400 ? [{ code: a.code ?? 'error', message: '' }] : [] };
    return { ok: a.status < 400, status: a.status, statusText: '', json: async () => body } as Response;
  }) as typeof fetch;
  const store = createStore();
  store.dispatch(signedIn(user));
  render(
    <Provider store={store}>
      <ProfileDialog onClose={() => undefined} />
    </Provider>,
  );
  return { calls, store };
}

test('the name is saved for the signed-in user (trimmed; empty refused) and the app shows the new one', async () => {
  const { calls, store } = setup((_m, _p, body) => ({ status: 200, data: { ...user, ...(body as object) } }));
  const input = screen.getByLabelText('Имя');
  fireEvent.change(input, { target: { value: '   ' } });
  fireEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
  expect(screen.getByText('Напишите имя')).toBeTruthy();
  expect(calls).toEqual([]);
  fireEvent.change(input, { target: { value: ' Анна Петрова ' } });
  await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Сохранить' })));
  expect(calls).toEqual([{ method: 'POST', path: '/api/user', body: { id: 'u1', name: 'Анна Петрова' } }]);
  expect(store.getState().auth.user?.name).toBe('Анна Петрова');
  expect(screen.getByText('Имя сохранено')).toBeTruthy();
});

test('the theme is a setting of this browser, applied at once', () => {
  const { store } = setup(() => ({ status: 200 }));
  fireEvent.click(screen.getByRole('radio', { name: 'Тёмная' }));
  expect(store.getState().uiSettings.theme).toBe('dark');
  expect(screen.getByRole('radio', { name: 'Тёмная' }).getAttribute('aria-checked')).toBe('true');
});

test('the messenger link shows the one-time command to send to the bot', async () => {
  setup(() => ({ status: 200, data: { token: 'TOKEN-123', expiresAt: '2026-11-23T10:15:00.000Z' } }));
  await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Привязать Telegram' })));
  expect(screen.getByTestId('messenger-code').textContent).toBe('/start TOKEN-123');
});

test('a server without a bot says so', async () => {
  setup(() => ({ status: 404, code: 'messenger.disabled' }));
  await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Привязать Telegram' })));
  expect(screen.getByText('На этом сервере бот не настроен')).toBeTruthy();
});
