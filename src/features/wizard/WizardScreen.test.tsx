import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { dismissAllToasts, Toaster } from '../../ui/Toast';
import { WizardScreen } from './WizardScreen';

const TEMPLATES = [
  { id: 'meeting-notes', contentType: 'Template', title: 'Заметки встречи', description: 'd', icon: '🗓️', sets: ['it', 'other'], pageCount: 1 },
  { id: 'wiki', contentType: 'Template', title: 'База знаний (вики)', description: 'd', icon: '📚', sets: ['it', 'other'], pageCount: 4 },
  { id: 'product-roadmap', contentType: 'Template', title: 'Дорожная карта продукта', description: 'd', icon: '🗺️', sets: ['it'], pageCount: 1 },
  { id: 'journal', contentType: 'Template', title: 'Личный дневник', description: 'd', icon: '📔', sets: ['personal'], pageCount: 1 },
  { id: 'todo-list', contentType: 'Template', title: 'Список задач', description: 'd', icon: '✅', sets: ['personal'], pageCount: 1 },
];
const DEFAULTS = {
  personal: 'journal',
  study: 'study-notes',
  marketing: 'wiki',
  it: 'product-roadmap',
  sell: 'wiki',
  creativity: 'wiki',
  other: 'meeting-notes',
};

let calls: { method: string; path: string; body: unknown }[];
let failCopy: boolean;
const ok = (data: unknown, meta: object = {}) => ({ ok: true, status: 200, json: async () => ({ data, meta, errors: [] }) }) as Response;

beforeEach(() => {
  calls = [];
  failCopy = false;
  dismissAllToasts();
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://x');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path: url.pathname, body });
    if (url.pathname === '/api/templates') return ok(TEMPLATES, { defaults: DEFAULTS });
    if (url.pathname === '/api/v3/spaces/workspace' && method === 'POST')
      return ok({ id: 'ws-new', name: 'Моя команда', avatar: null, alias: null, role: 'admin', private: false });
    if (url.pathname === '/api/v3/spaces/workspace')
      return ok([{ id: 'ws-new', name: 'Моя команда', avatar: null, alias: null, role: 'admin', private: false }]);
    if (url.pathname.endsWith('/copy')) {
      if (failCopy) return { ok: false, status: 404, json: async () => ({ data: null, meta: {}, errors: [{ code: 'not_found', message: '' }] }) } as Response;
      return ok({ id: `page-${url.pathname.split('/')[3]}` });
    }
    return ok({});
  }) as typeof fetch;
});

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

function renderWizard() {
  render(
    <Provider store={createStore()}>
      <MemoryRouter initialEntries={['/new-workspace']}>
        <Routes>
          <Route path="/new-workspace" element={<WizardScreen />} />
          <Route path="*" element={<Where />} />
        </Routes>
        <Toaster />
      </MemoryRouter>
    </Provider>,
  );
}

const next = () => fireEvent.click(screen.getByRole('button', { name: 'Далее' }));
const choose = (name: string) => fireEvent.click(screen.getByRole('radio', { name: new RegExp(name) }));

test('work: every step, templates reset on a company change, invites with the role chosen for each (a member by default), opens the first page', async () => {
  renderWizard();
  expect(screen.getByRole('heading', { name: 'Для чего вам пространство?' })).toBeTruthy();
  expect((screen.getByRole('button', { name: 'Далее' }) as HTMLButtonElement).disabled).toBe(true);
  choose('Для работы');
  next();
  choose('6–20');
  next();
  expect(screen.getByRole('heading', { name: 'Расскажите о вашей команде' })).toBeTruthy();
  choose('IT и разработка');
  choose('Участник команды');
  next();
  // The default of the company type is preselected.
  await waitFor(() => expect(screen.getByRole('checkbox', { name: /Дорожная карта продукта/ }).getAttribute('aria-checked')).toBe('true'));
  fireEvent.click(screen.getByRole('checkbox', { name: /База знаний/ }));
  expect(screen.getByText('Выбрано 2 шаблона')).toBeTruthy();
  // Back, change the company type: the choice is the default of the new type again.
  fireEvent.click(screen.getByRole('button', { name: 'Назад' }));
  choose('Другое');
  next();
  expect(screen.getByRole('checkbox', { name: /Заметки встречи/ }).getAttribute('aria-checked')).toBe('true');
  expect(screen.getByRole('checkbox', { name: /База знаний/ }).getAttribute('aria-checked')).toBe('false');
  fireEvent.click(screen.getByRole('checkbox', { name: /База знаний/ }));
  next();

  const name = screen.getByLabelText('Название пространства');
  fireEvent.change(name, { target: { value: 'Мо' } });
  fireEvent.blur(name);
  expect(screen.getByText('Название — не короче 3 символов')).toBeTruthy();
  expect((screen.getByRole('button', { name: 'Далее' }) as HTMLButtonElement).disabled).toBe(true);
  fireEvent.change(name, { target: { value: 'Моя команда' } });
  fireEvent.change(screen.getByLabelText('Ваше имя'), { target: { value: 'Анна' } });
  next();

  const emails = screen.getByLabelText('Адреса почты');
  fireEvent.change(emails, { target: { value: 'ivan@example.com, oops\npetr@example.com' } });
  fireEvent.blur(emails);
  expect(await screen.findByText('Пригласим 2 человек')).toBeTruthy();
  expect(screen.getByText('Не похоже на адрес почты: oops')).toBeTruthy();
  // Each a member unless another role is chosen.
  const roleOf = (email: string) => screen.getByLabelText(`Роль для ${email}`) as HTMLSelectElement;
  expect([roleOf('ivan@example.com').value, roleOf('petr@example.com').value]).toEqual(['participant', 'participant']);
  expect([...roleOf('ivan@example.com').options].map((o) => o.textContent)).toEqual(['Администратор', 'Участник', 'Гость']);
  fireEvent.change(roleOf('ivan@example.com'), { target: { value: 'admin' } });
  fireEvent.change(roleOf('petr@example.com'), { target: { value: 'guest' } });
  fireEvent.click(screen.getByRole('button', { name: 'Создать пространство' }));

  await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/page-meeting-notes'));
  const posts = calls.filter((c) => c.method === 'POST');
  expect(posts.map((c) => c.path)).toEqual([
    '/api/v3/spaces/workspace',
    '/api/templates/meeting-notes/copy',
    '/api/templates/wiki/copy',
    '/api/v3/spaces/workspace/ws-new/members/add',
  ]);
  expect(posts[0].body).toEqual({ name: 'Моя команда', avatar: null, private: false });
  expect(posts[1].body).toEqual({ workspaceId: 'ws-new', section: 'all' });
  expect(posts[3].body).toEqual({
    members: [
      { email: 'ivan@example.com', role: 'admin' },
      { email: 'petr@example.com', role: 'guest' },
    ],
  });
  expect(await screen.findByText('Пространство «Моя команда» создано')).toBeTruthy();
});

test('private: no company questions, no sharing; a failed template copy goes home with a message', async () => {
  failCopy = true;
  renderWizard();
  choose('Для себя');
  next();
  choose('Только я');
  next();
  expect(screen.getByRole('heading', { name: 'С чего начнём?' })).toBeTruthy();
  await waitFor(() => expect(screen.getByRole('checkbox', { name: /Личный дневник/ }).getAttribute('aria-checked')).toBe('true'));
  next();
  fireEvent.change(screen.getByLabelText('Название пространства'), { target: { value: 'Личное' } });
  fireEvent.change(screen.getByLabelText('Ваше имя'), { target: { value: 'Анна' } });
  fireEvent.click(screen.getByRole('button', { name: 'Создать пространство' }));
  await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/'));
  expect(await screen.findByText('Пространство создано, но шаблоны скопировать не удалось')).toBeTruthy();
  const posts = calls.filter((c) => c.method === 'POST');
  expect(posts[0].body).toEqual({ name: 'Личное', avatar: null, private: true });
  expect(posts.find((c) => c.path.endsWith('/copy'))?.body).toEqual({ workspaceId: 'ws-new', section: 'private' });
  expect(posts.some((c) => c.path.endsWith('/members/add'))).toBe(false);
});

test('closing the wizard goes home', () => {
  renderWizard();
  choose('Для работы');
  fireEvent.click(screen.getByRole('button', { name: 'Закрыть' }));
  expect(screen.getByTestId('where').textContent).toBe('/');
});
