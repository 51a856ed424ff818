import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { WorkspaceRole } from '../../../schema/constants';
import type { WireUser } from '../../../schema/user';
import type { WireWorkspace } from '../../../schema/workspace';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { Toaster } from '../../ui/Toast';
import { signedIn } from '../auth/authSlice';
import { INVITEE_DEBOUNCE_MS } from '../sharing/invitees';
import { WorkspaceSettings } from './WorkspaceSettings';
import { loadWorkspaces } from './workspacesSlice';

const user = (id: string, email: string, name: string): WireUser => ({
  id,
  email,
  name,
  avatar_url: null,
  anonymous: false,
  telegramId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
});
const me = user('me', 'me@example.com', 'Я');
const anna = user('u-anna', 'anna@example.com', 'Анна');
const other: WireWorkspace = { id: 'ws2', name: 'Личное', avatar: null, alias: null, role: 'admin', private: true };

let calls: { method: string; path: string; body: unknown }[];
let answers: Record<string, { status: number; body: unknown }>;

function setup(role: WorkspaceRole) {
  const workspace: WireWorkspace = { id: 'ws', name: 'Команда', avatar: null, alias: null, role, private: false };
  calls = [];
  answers = {
    'GET /api/v3/spaces/workspace/ws/members':
      role === 'guest'
        ? { status: 403, body: { data: null, errors: [{ code: 'forbidden', message: '' }] } }
        : {
            status: 200,
            body: {
              data: [
                { id: 'me', role, user: me },
                { id: 'u-anna', role: 'participant', user: anna },
              ],
              meta: {},
            },
          },
    'GET /api/v3/spaces/workspace': { status: 200, body: { data: [other], meta: {} } },
  };
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://x');
    const method = init?.method ?? 'GET';
    calls.push({ method, path: url.pathname, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    const answer = answers[`${method} ${url.pathname}`] ?? { status: 200, body: { data: { id: 'x', status: 'success' }, meta: {} } };
    return { ok: answer.status < 400, status: answer.status, json: async () => answer.body } as Response;
  }) as typeof fetch;
  const store = createStore();
  store.dispatch(signedIn(me));
  store.dispatch(loadWorkspaces.fulfilled([workspace, other], 'test', undefined));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <WorkspaceSettings workspace={workspace} onClose={() => undefined} />
        <Toaster />
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

const dialog = () => screen.getAllByRole('dialog')[0];

it('an admin changes roles, removes members, renames (3 characters at least) and adds people by e-mail', async () => {
  setup('admin');
  await screen.findByText('anna@example.com');
  expect(screen.queryByText('Изменять настройки и участников может только администратор')).toBeNull();
  // No «remove» for oneself (that is «Покинуть пространство»).
  expect(screen.queryByRole('button', { name: 'Удалить Я из пространства' })).toBeNull();

  answers['POST /api/v3/spaces/workspace/ws/member/role'] = { status: 422, body: { data: null, errors: [{ code: 'workspace.last_admin', message: '' }] } };
  fireEvent.change(screen.getByLabelText('Роль: Я'), { target: { value: 'participant' } });
  expect((await screen.findByRole('alert')).textContent).toContain('хотя бы один администратор');

  answers['POST /api/v3/spaces/workspace/ws/member/role'] = { status: 200, body: { data: { id: 'u-anna', role: 'admin', user: anna } } };
  fireEvent.change(screen.getByLabelText('Роль: Анна'), { target: { value: 'admin' } });
  await waitFor(() => expect((screen.getByLabelText('Роль: Анна') as HTMLSelectElement).value).toBe('admin'));
  expect(calls.find((c) => c.path.endsWith('/member/role') && (c.body as { userId: string }).userId === 'u-anna')?.body).toEqual({
    userId: 'u-anna',
    role: 'admin',
  });

  fireEvent.click(screen.getByRole('button', { name: 'Удалить Анна из пространства' }));
  await waitFor(() => expect(screen.queryByText('anna@example.com')).toBeNull());
  expect(calls.find((c) => c.path.endsWith('/members/remove'))?.body).toEqual({ userId: 'u-anna' });

  fireEvent.change(screen.getByLabelText('Название'), { target: { value: ' ab ' } });
  fireEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
  expect(await screen.findByText('Название — не короче 3 символов')).toBeTruthy();
  expect(calls.some((c) => c.method === 'POST' && c.path === '/api/v3/spaces/workspace/ws')).toBe(false);

  jest.useFakeTimers();
  try {
    fireEvent.change(screen.getByLabelText('E-mail участников'), { target: { value: 'pat@example.com,\nнет lee@example.com' } });
    await act(async () => jest.advanceTimersByTime(INVITEE_DEBOUNCE_MS + 5));
  } finally {
    jest.useRealTimers();
  }
  expect(within(dialog()).getByText('нет').className).toContain('is-invalid');
  fireEvent.change(screen.getByLabelText('Роль новых участников'), { target: { value: 'guest' } });
  fireEvent.click(screen.getByRole('button', { name: 'Добавить' }));
  await waitFor(() =>
    expect(calls.find((c) => c.path.endsWith('/members/add'))?.body).toEqual({
      members: [
        { email: 'pat@example.com', role: 'guest' },
        { email: 'lee@example.com', role: 'guest' },
      ],
    }),
  );
});

it('a member sees roles but cannot change them or remove anyone, and may leave', async () => {
  const store = setup('participant');
  await screen.findByText('anna@example.com');
  expect(screen.getByText('Изменять настройки и участников может только администратор')).toBeTruthy();
  expect(screen.queryByLabelText('Роль: Анна')).toBeNull();
  expect(screen.queryByRole('button', { name: /Удалить .* из пространства/ })).toBeNull();
  expect(screen.queryByLabelText('E-mail участников')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Сохранить' })).toBeNull();
  expect((screen.getByLabelText('Название') as HTMLInputElement).readOnly).toBe(true);

  fireEvent.click(screen.getByRole('button', { name: 'Покинуть пространство' }));
  const confirm = screen.getByRole('dialog', { name: 'Покинуть пространство?' });
  expect(calls.some((c) => c.path.endsWith('/members/remove'))).toBe(false);
  fireEvent.click(within(confirm).getByRole('button', { name: 'Покинуть' }));
  await waitFor(() => expect(store.getState().workspaces.activeId).toBe('ws2'));
  expect(calls.find((c) => c.path.endsWith('/members/remove'))?.body).toEqual({ userId: 'me' });
  expect(store.getState().workspaces.list.map((w) => w.id)).toEqual(['ws2']);
});

it('a guest is told the member list is not for guests; a 403 is shown in Russian', async () => {
  setup('guest');
  expect(await screen.findByText('Список участников недоступен гостям')).toBeTruthy();
  answers['POST /api/v3/spaces/workspace/ws/members/remove'] = { status: 403, body: { data: null, errors: [{ code: 'forbidden', message: '' }] } };
  fireEvent.click(screen.getByRole('button', { name: 'Покинуть пространство' }));
  fireEvent.click(within(screen.getByRole('dialog', { name: 'Покинуть пространство?' })).getByRole('button', { name: 'Покинуть' }));
  expect((await screen.findByRole('alert')).textContent).toBe('Недостаточно прав: это может сделать только администратор пространства');
});
