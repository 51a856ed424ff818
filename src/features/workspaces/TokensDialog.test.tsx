import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { WireWorkspaceToken } from '../../../schema/accessToken';
import type { WorkspaceRole } from '../../../schema/constants';
import type { WireUser } from '../../../schema/user';
import type { WireWorkspace } from '../../../schema/workspace';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { Toaster } from '../../ui/Toast';
import { signedIn } from '../auth/authSlice';
import { TokensDialog } from './TokensDialog';
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

const token = (id: string, name: string, more: Partial<WireWorkspaceToken> = {}): WireWorkspaceToken => ({
  id,
  name,
  readOnly: false,
  workspaceId: 'ws',
  userId: 'me',
  createdAt: '2026-03-05T12:00:00.000Z',
  lastUsedAt: null,
  ...more,
});

const TOKENS = '/api/v3/spaces/workspace/ws/tokens';
let calls: { method: string; path: string; body: unknown }[];
let answers: Record<string, { status: number; body: unknown }>;

function serve(role: WorkspaceRole, tokens: WireWorkspaceToken[]) {
  calls = [];
  answers = {
    [`GET ${TOKENS}`]: { status: 200, body: { data: tokens, meta: {} } },
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
  return store;
}

/** The dialog alone, as the settings open it. */
function open(role: WorkspaceRole, tokens: WireWorkspaceToken[]) {
  const store = serve(role, tokens);
  render(
    <Provider store={store}>
      <TokensDialog workspaceId="ws" role={role} onClose={() => undefined} />
      <Toaster />
    </Provider>,
  );
  return screen.getByRole('dialog', { name: 'Токены API' });
}

const rows = (dialog: HTMLElement) => within(within(dialog).getByRole('list', { name: 'Токены пространства' })).getAllByRole('listitem');

it('every member, a guest too, opens «Токены API» from the settings: what a token does, the API description, their tokens', async () => {
  const store = serve('guest', [
    token('t-ci', 'CI', { readOnly: true, lastUsedAt: '2026-04-10T12:30:00.000Z' }),
    token('t-report', 'Отчёты', { createdAt: '2026-02-01T12:00:00.000Z' }),
  ]);
  const workspace: WireWorkspace = { id: 'ws', name: 'Команда', avatar: null, alias: null, role: 'guest', private: false };
  store.dispatch(loadWorkspaces.fulfilled([workspace], 'test', undefined));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <WorkspaceSettings workspace={workspace} onClose={() => undefined} />
      </MemoryRouter>
    </Provider>,
  );
  // Webhooks are for admins; tokens are for everyone.
  expect(screen.queryByRole('button', { name: 'Вебхуки' })).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Токены API' }));
  const dialog = screen.getByRole('dialog', { name: 'Токены API' });
  expect(dialog.textContent).toContain('Authorization: Bearer <токен>');
  expect(dialog.textContent).toContain('только это пространство');
  expect(within(dialog).getByRole('link', { name: 'Описание API' }).getAttribute('href')).toBe('/api/docs');

  await waitFor(() => expect(rows(dialog)).toHaveLength(2));
  const [ci, report] = rows(dialog);
  expect(within(ci).getByText('CI')).toBeTruthy();
  expect(within(ci).getByText('только чтение')).toBeTruthy();
  expect(ci.textContent).toContain('Создан 5 марта 2026');
  expect(ci.textContent).toContain('последнее использование: 10 апреля 2026');
  expect(within(report).queryByText('только чтение')).toBeNull();
  expect(report.textContent).toContain('Создан 1 февраля 2026');
  expect(report.textContent).toContain('не использовался');
  // One's own tokens name no owner.
  expect(dialog.textContent).not.toContain('Владелец');
  expect(calls.filter((c) => c.path === TOKENS).map((c) => c.method)).toEqual(['GET']);
});

it('makes a token: the name and read-only sent, the token shown once with «Копировать», gone when the dialog closes', async () => {
  const writeText = jest.fn().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  const store = serve('participant', []);
  const workspace: WireWorkspace = { id: 'ws', name: 'Команда', avatar: null, alias: null, role: 'participant', private: false };
  store.dispatch(loadWorkspaces.fulfilled([workspace], 'test', undefined));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <WorkspaceSettings workspace={workspace} onClose={() => undefined} />
        <Toaster />
      </MemoryRouter>
    </Provider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Токены API' }));
  let dialog = screen.getByRole('dialog', { name: 'Токены API' });
  await within(dialog).findByText('Токенов пока нет');
  expect((within(dialog).getByRole('button', { name: 'Создать' }) as HTMLButtonElement).disabled).toBe(true);

  answers[`POST ${TOKENS}`] = {
    status: 201,
    body: { data: { ...token('t-new', 'Скрипт отчётов', { readOnly: true, createdAt: '2026-05-01T12:00:00.000Z' }), token: 'secret-token-value' }, meta: {} },
  };
  fireEvent.change(within(dialog).getByLabelText('Название токена'), { target: { value: '  Скрипт отчётов ' } });
  fireEvent.click(within(dialog).getByLabelText('Только чтение'));
  fireEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));

  const field = (await within(dialog).findByLabelText('Созданный токен')) as HTMLInputElement;
  expect(field.value).toBe('secret-token-value');
  expect(field.readOnly).toBe(true);
  expect(within(dialog).getByText('Скопируйте токен сейчас: больше он не будет показан.')).toBeTruthy();
  expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([[TOKENS, { name: 'Скрипт отчётов', readOnly: true }]]);
  // In the list at once, without the token; the form is empty again.
  const [made] = rows(dialog);
  expect(within(made).getByText('Скрипт отчётов')).toBeTruthy();
  expect(within(made).getByText('только чтение')).toBeTruthy();
  expect(made.textContent).not.toContain('secret-token-value');
  expect((within(dialog).getByLabelText('Название токена') as HTMLInputElement).value).toBe('');
  expect((within(dialog).getByLabelText('Только чтение') as HTMLInputElement).checked).toBe(false);

  fireEvent.click(within(dialog).getByRole('button', { name: 'Копировать' }));
  await screen.findByText('Токен скопирован');
  expect(writeText).toHaveBeenCalledWith('secret-token-value');

  // Closed and opened again: the list as the server gives it, the token never again.
  answers[`GET ${TOKENS}`] = { status: 200, body: { data: [token('t-new', 'Скрипт отчётов', { readOnly: true })], meta: {} } };
  fireEvent.click(within(dialog).getByRole('button', { name: 'Закрыть' }));
  expect(screen.queryByRole('dialog', { name: 'Токены API' })).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Токены API' }));
  dialog = screen.getByRole('dialog', { name: 'Токены API' });
  await waitFor(() => expect(rows(dialog)).toHaveLength(1));
  expect(within(dialog).queryByLabelText('Созданный токен')).toBeNull();
  expect(document.body.textContent).not.toContain('secret-token-value');
});

it('deletes a token after a confirmation: the call made, the row gone', async () => {
  const dialog = open('participant', [token('t-ci', 'CI'), token('t-report', 'Отчёты')]);
  await waitFor(() => expect(rows(dialog)).toHaveLength(2));

  fireEvent.click(within(dialog).getByRole('button', { name: 'Удалить токен CI' }));
  let confirm = screen.getByRole('dialog', { name: 'Удалить токен?' });
  expect(confirm.textContent).toContain('Токен «CI» сразу перестанет работать');
  fireEvent.click(within(confirm).getByRole('button', { name: 'Отмена' }));
  expect(screen.queryByRole('dialog', { name: 'Удалить токен?' })).toBeNull();
  expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

  answers[`DELETE ${TOKENS}/t-ci`] = { status: 200, body: { data: { id: 't-ci', status: 'success' }, meta: {} } };
  fireEvent.click(within(dialog).getByRole('button', { name: 'Удалить токен CI' }));
  confirm = screen.getByRole('dialog', { name: 'Удалить токен?' });
  fireEvent.click(within(confirm).getByRole('button', { name: 'Удалить' }));
  await waitFor(() => expect(rows(dialog)).toHaveLength(1));
  expect(within(rows(dialog)[0]).getByText('Отчёты')).toBeTruthy();
  expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`${TOKENS}/t-ci`]);
  expect(screen.queryByRole('dialog', { name: 'Удалить токен?' })).toBeNull();
  expect(await screen.findByText('Токен удалён')).toBeTruthy();

  // Removed elsewhere meanwhile (404): said so, and out of the list too.
  answers[`DELETE ${TOKENS}/t-report`] = { status: 404, body: { data: null, errors: [{ code: 'not_found', message: '' }] } };
  fireEvent.click(within(dialog).getByRole('button', { name: 'Удалить токен Отчёты' }));
  fireEvent.click(within(screen.getByRole('dialog', { name: 'Удалить токен?' })).getByRole('button', { name: 'Удалить' }));
  expect(await screen.findByText('Токен не найден — возможно, его уже удалили')).toBeTruthy();
  await within(dialog).findByText('Токенов пока нет');
});

it('an admin sees whose token each is: another member named, one who left said so', async () => {
  const dialog = open('admin', [token('t-mine', 'Мой'), token('t-anna', 'Интеграция', { userId: 'u-anna' }), token('t-gone', 'Старый', { userId: 'u-gone' })]);
  await waitFor(() => expect(rows(dialog)).toHaveLength(3));
  const [mine, annas, gone] = rows(dialog);
  expect(await within(annas).findByText('Владелец: Анна')).toBeTruthy();
  expect(mine.textContent).not.toContain('Владелец');
  expect(within(gone).getByText('Владелец покинул пространство — токен не действует')).toBeTruthy();
  // An admin removes anyone's.
  fireEvent.click(within(annas).getByRole('button', { name: 'Удалить токен Интеграция' }));
  fireEvent.click(within(screen.getByRole('dialog', { name: 'Удалить токен?' })).getByRole('button', { name: 'Удалить' }));
  await waitFor(() => expect(rows(dialog)).toHaveLength(2));
  expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`${TOKENS}/t-anna`]);
});

it('a refusal is shown under the form in Russian: 422, the limit of tokens, 403, no connection', async () => {
  const mine = Array.from({ length: 49 }, (_, n) => token(`t-${n}`, `Токен ${n}`));
  const dialog = open('participant', mine);
  await waitFor(() => expect(rows(dialog)).toHaveLength(49));
  const create = (name: string) => {
    fireEvent.change(within(dialog).getByLabelText('Название токена'), { target: { value: name } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
  };

  answers[`POST ${TOKENS}`] = { status: 422, body: { data: null, errors: [{ code: 'validation_failed', message: 'name: too long' }] } };
  create('Скрипт');
  expect((await within(dialog).findByRole('alert')).textContent).toBe(
    'Сервер не принял токен: нужно название до 100 знаков, а токенов у одного человека в пространстве может быть не больше 50',
  );
  expect(within(dialog).getByLabelText('Название токена').getAttribute('aria-invalid')).toBe('true');
  expect(within(dialog).queryByLabelText('Созданный токен')).toBeNull();

  // The 50th made elsewhere: the list says the limit is reached.
  answers[`POST ${TOKENS}`] = { status: 201, body: { data: { ...token('t-49', 'Ещё'), token: 'x' }, meta: {} } };
  create('Ещё');
  await within(dialog).findByLabelText('Созданный токен');
  answers[`POST ${TOKENS}`] = { status: 422, body: { data: null, errors: [{ code: 'validation_failed', message: 'too many' }] } };
  create('Лишний');
  expect((await within(dialog).findByRole('alert')).textContent).toBe('У вас уже 50 токенов в этом пространстве — удалите ненужный, чтобы создать новый');

  answers[`POST ${TOKENS}`] = { status: 403, body: { data: null, errors: [{ code: 'forbidden', message: '' }] } };
  create('Другой');
  await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Токены может создавать только участник этого пространства'));
  expect(within(dialog).getByLabelText('Название токена').getAttribute('aria-invalid')).toBeNull();

  globalThis.fetch = (async () => {
    throw new TypeError('Failed to fetch');
  }) as typeof fetch;
  create('Третий');
  await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Нет связи с сервером. Проверьте подключение и попробуйте снова'));
});
