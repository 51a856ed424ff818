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
  expect(screen.queryByRole('button', { name: 'Добавить списком…' })).toBeNull();
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

it('an admin adds a whole list: a CSV is read, the addresses found and the invalid ones are previewed, then the outcome', async () => {
  setup('admin');
  await screen.findByText('anna@example.com');
  fireEvent.click(screen.getByRole('button', { name: 'Добавить списком…' }));
  const list = screen.getByRole('dialog', { name: 'Добавить участников списком' });
  const csv = 'Имя,Почта\nПётр,pat@example.com\nЛи,"Ли <Lee@Example.com>"\nАнна,anna@example.com\nкто-то,нет@адреса\n';
  const file = new File([csv], 'команда.csv', { type: 'text/csv' });
  fireEvent.change(within(list).getByLabelText('Файл CSV со списком адресов'), { target: { files: [file] } });
  expect((await within(list).findByRole('status')).textContent).toBe('Найдено адресов: 3. Не похоже на адрес: 1');
  expect(
    within(within(list).getByRole('list', { name: 'Будут добавлены (кроме тех, кто уже в пространстве)' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual(['pat@example.com', 'lee@example.com', 'anna@example.com']);
  expect(within(list).getByRole('list', { name: 'Не похоже на адрес — пропустим' }).textContent).toBe('нет@адреса');
  expect(within(list).getByText('команда.csv')).toBeTruthy();

  // Over the quota: the server's refusal says how many may still come.
  answers['POST /api/v3/spaces/workspace/ws/members/add_list'] = {
    status: 429,
    body: { data: null, errors: [{ code: 'rate_limited', message: '', details: { limit: 300, recently: 299, adding: 2 } }] },
  };
  fireEvent.change(within(list).getByLabelText('Роль новых участников'), { target: { value: 'guest' } });
  fireEvent.click(within(list).getByRole('button', { name: 'Добавить 3 адреса' }));
  expect((await within(list).findByRole('alert')).textContent).toBe(
    'Столько людей сейчас добавить нельзя: можно ещё 1 из 300 за 10 минут. Сократите список или попробуйте позже',
  );

  answers['POST /api/v3/spaces/workspace/ws/members/add_list'] = {
    status: 200,
    body: {
      data: {
        added: [
          { id: 'u-pat', email: 'pat@example.com' },
          { id: 'u-lee', email: 'lee@example.com' },
        ],
        alreadyMembers: [{ id: 'u-anna', email: 'anna@example.com' }],
        invalid: [],
      },
      meta: {},
    },
  };
  fireEvent.click(within(list).getByRole('button', { name: 'Добавить 3 адреса' }));
  const outcome = await within(screen.getByRole('dialog', { name: 'Добавить участников списком' })).findByText(
    'Добавлено: 2. Уже были в пространстве: 1. Не добавлены (не адреса): 1',
  );
  expect(outcome).toBeTruthy();
  const sent = calls.filter((c) => c.path.endsWith('/members/add_list')).map((c) => c.body);
  expect(sent[sent.length - 1]).toEqual({ emails: ['pat@example.com', 'lee@example.com', 'anna@example.com'], role: 'guest' });
  expect(screen.getByRole('list', { name: 'Не добавлены — не адреса почты' }).textContent).toBe('нет@адреса');
  // The member list is read again.
  await waitFor(() => expect(calls.filter((c) => c.method === 'GET' && c.path.endsWith('/members')).length).toBeGreaterThan(1));
});
