import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { MAIN_FIELD_ID, type DatabaseConfig, type DatabaseLayout, type DatabaseView } from '../../../../schema/blocks/database';
import { formQuestions, type WireForm } from '../../../../schema/databaseForm';
import { newElement } from '../../../../schema/element';
import { createStore } from '../../../app/store';
import type { DatabaseHost } from '../../../editor/blocks/databaseHost';
import { dismissAllToasts, Toaster } from '../../../ui/Toast';
import { pageLoaded } from '../../pages/pagesSlice';
import DatabaseBlock from '../DatabaseBlock';
import { fakeDatabaseServer } from '../fakeDatabaseServer';

/*
 * A form view in the database block (FormView): its editors build it — each change is the
 * view's layout saved (`orderedFields`, `form`) —, a reader fills it in, and on a published page
 * only a public form is shown. The «+» of the views makes one.
 */

const config: DatabaseConfig = {
  fields: {
    [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
    amount: { name: 'Сумма', type: 'number' },
    stage: { name: 'Этап', type: 'status', options: [{ id: 's1', name: 'Новая', group: 'todo' }] },
    tags: { name: 'Метки', type: 'multiSelect', options: [] },
    owner: { name: 'Ответственный', type: 'person' },
    docs: { name: 'Документы', type: 'files' },
  },
};

const formLayout = (patch: Partial<DatabaseLayout> = {}): DatabaseLayout => ({
  uid: 'vf',
  type: 'form',
  name: 'Заявка',
  orderedFields: [MAIN_FIELD_ID, 'amount'].map((fieldId) => ({ fieldId, isWrap: false })),
  form: { access: 'page', required: ['amount'] },
  ...patch,
});

afterEach(() => {
  cleanup();
  dismissAllToasts();
});

function mount(layout: DatabaseLayout = formLayout(), host: Partial<DatabaseHost> = {}, page?: { isPublic: boolean }) {
  const view: DatabaseView = { layouts: [layout] };
  const server = fakeDatabaseServer(JSON.parse(JSON.stringify(config)) as DatabaseConfig, view, []);
  // The form as the server reads it (GET database/{id}/form/{viewId}), for a reader's fill-in form.
  const form = (): WireForm => {
    const shown = server.view.layouts.find((l) => l.uid === 'vf')!;
    return {
      viewId: 'vf',
      databaseId: 'db',
      pageId: null,
      title: 'Заявки',
      name: shown.name ?? null,
      description: shown.form?.description ?? '',
      access: shown.form?.access ?? 'page',
      questions: formQuestions({ config: server.config, view: server.view }, shown),
      canEdit: false,
      anonymous: false,
    };
  };
  const fetchRows = server.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input).endsWith('/database/db/form/vf') && (init?.method ?? 'GET') === 'GET')
      return { ok: true, status: 200, statusText: '', json: async () => ({ data: form() }) } as Response;
    return fetchRows(input, init);
  }) as typeof fetch;
  const store = createStore();
  if (page) store.dispatch(pageLoaded({ ...newElement({ id: 'page', title: 'Заявки', accessLevel: 'full' }, '2026-01-01T00:00:00Z'), ...page }));
  const shown: DatabaseHost = {
    pageId: 'page',
    workspaceId: null,
    canEdit: true,
    receiveBlock: jest.fn(),
    live: null,
    isSaved: () => true,
    flush: async () => undefined,
    ...host,
  };
  render(
    <Provider store={store}>
      <MemoryRouter>
        <DatabaseBlock databaseId="db" config={server.config} view={server.view} host={shown} />
        <Toaster />
      </MemoryRouter>
    </Provider>,
  );
  /** The layouts the view saves sent (POST database/db/views/vf), in order. */
  const saved = () =>
    server.requests.filter((r) => r.method === 'POST' && r.path === 'database/db/views/vf').map((r) => (r.body as { layout: unknown }).layout);
  return { server, saved };
}

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));
const card = (name: string) => screen.getByRole('listitem', { name });

test('the builder: the questions as cards, the toolbar of rows hidden', () => {
  mount();
  expect(screen.getByTestId('form-builder')).toBeTruthy();
  const cards = within(screen.getByRole('list', { name: 'Вопросы формы' })).getAllByRole('listitem');
  expect(cards.map((c) => c.getAttribute('data-field-id'))).toEqual([MAIN_FIELD_ID, 'amount']);
  expect(within(card('Сумма')).getByText('Число')).toBeTruthy();
  expect(within(card('Сумма')).getByRole('switch', { name: 'Обязательный' }).getAttribute('aria-checked')).toBe('true');
  expect(within(card('Название')).getByRole('switch', { name: 'Обязательный' }).getAttribute('aria-checked')).toBe('false');
  // A form shows no rows: no search, filter, sort, group or properties.
  expect(screen.queryByRole('button', { name: 'Фильтр и сортировка' })).toBeNull();
  expect(document.querySelector('.db-actions')).toBeNull();
});

test('«Обязательный» on and off saves the required questions', async () => {
  const { saved } = mount();
  fireEvent.click(within(card('Название')).getByRole('switch', { name: 'Обязательный' }));
  await settle();
  fireEvent.click(within(card('Сумма')).getByRole('switch', { name: 'Обязательный' }));
  await settle();
  expect(saved()).toEqual([{ form: { required: ['amount', MAIN_FIELD_ID], access: 'page' } }, { form: { required: [MAIN_FIELD_ID], access: 'page' } }]);
  expect(within(card('Сумма')).getByRole('switch', { name: 'Обязательный' }).getAttribute('aria-checked')).toBe('false');
});

test('«+ Добавить вопрос» offers the fields not asked yet, of the types a form asks; one chosen is asked last', async () => {
  const { saved } = mount();
  fireEvent.click(screen.getByRole('button', { name: '+ Добавить вопрос' }));
  const menu = screen.getByRole('menu');
  expect(within(menu).getByRole('menuitem', { name: 'Этап' }).hasAttribute('disabled')).toBe(false);
  expect(within(menu).getByRole('menuitem', { name: 'Метки' }).hasAttribute('disabled')).toBe(false);
  expect(within(menu).queryByRole('menuitem', { name: 'Сумма' })).toBeNull();
  // People and files are shown, not offered.
  expect(
    within(menu)
      .getByRole('menuitem', { name: /Ответственный/ })
      .hasAttribute('disabled'),
  ).toBe(true);
  expect(
    within(menu)
      .getByRole('menuitem', { name: /Документы/ })
      .hasAttribute('disabled'),
  ).toBe(true);
  expect(within(menu).getByText('Форма не спрашивает такие свойства')).toBeTruthy();
  fireEvent.click(within(menu).getByRole('menuitem', { name: 'Метки' }));
  await settle();
  expect(saved()).toEqual([{ orderedFields: [MAIN_FIELD_ID, 'amount', 'tags'].map((fieldId) => ({ fieldId, isWrap: false })) }]);
  expect(within(screen.getByRole('list', { name: 'Вопросы формы' })).getAllByRole('listitem')).toHaveLength(3);
});

test('«Убрать» takes the question out, and out of the required ones', async () => {
  const { saved } = mount();
  fireEvent.click(within(card('Сумма')).getByRole('button', { name: /Убрать/ }));
  await settle();
  expect(saved()).toEqual([{ orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }], form: { access: 'page' } }]);
  expect(screen.queryByRole('listitem', { name: 'Сумма' })).toBeNull();
});

test('questions move up and down (not past the ends)', async () => {
  const { saved } = mount();
  expect((within(card('Название')).getByRole('button', { name: 'Поднять вопрос «Название»' }) as HTMLButtonElement).disabled).toBe(true);
  expect((within(card('Сумма')).getByRole('button', { name: 'Опустить вопрос «Сумма»' }) as HTMLButtonElement).disabled).toBe(true);
  fireEvent.click(within(card('Сумма')).getByRole('button', { name: 'Поднять вопрос «Сумма»' }));
  await settle();
  fireEvent.click(within(card('Сумма')).getByRole('button', { name: 'Опустить вопрос «Сумма»' }));
  await settle();
  expect(saved()).toEqual([
    { orderedFields: ['amount', MAIN_FIELD_ID].map((fieldId) => ({ fieldId, isWrap: false })) },
    { orderedFields: [MAIN_FIELD_ID, 'amount'].map((fieldId) => ({ fieldId, isWrap: false })) },
  ]);
});

test('the description is saved when left; who may fill it in is chosen, with a word when the page is not published', async () => {
  const { saved } = mount(formLayout(), {}, { isPublic: false });
  const description = screen.getByRole('textbox', { name: 'Описание формы' });
  fireEvent.focus(description);
  fireEvent.change(description, { target: { value: 'Что случилось ' } });
  expect(saved()).toEqual([]);
  fireEvent.blur(description);
  await settle();
  expect(screen.queryByText(/Страница не опубликована/)).toBeNull();
  fireEvent.change(screen.getByRole('combobox', { name: 'Кто может заполнить' }), { target: { value: 'public' } });
  await settle();
  expect(saved()).toEqual([
    { form: { description: 'Что случилось', required: ['amount'], access: 'page' } },
    { form: { description: 'Что случилось', required: ['amount'], access: 'public' } },
  ]);
  expect(screen.getByText('Страница не опубликована: по ссылке форма откроется, когда вы её опубликуете')).toBeTruthy();
});

test('a refused change is said as other view settings are', async () => {
  const { server } = mount();
  server.failNext('views/vf', 422);
  fireEvent.click(within(card('Название')).getByRole('switch', { name: 'Обязательный' }));
  await settle();
  expect(await screen.findByText('Не удалось сохранить изменение в базе данных')).toBeTruthy();
  expect(within(card('Название')).getByRole('switch', { name: 'Обязательный' }).getAttribute('aria-checked')).toBe('false');
});

test('the link: «Открыть форму» in a new tab, «Копировать ссылку» copies its full address', async () => {
  const writeText = jest.fn(async () => undefined);
  Object.assign(navigator, { clipboard: { writeText } });
  mount();
  const open = screen.getByRole('link', { name: 'Открыть форму' });
  expect(open.getAttribute('href')).toBe('/form/db/vf');
  expect(open.getAttribute('target')).toBe('_blank');
  fireEvent.click(screen.getByRole('button', { name: 'Копировать ссылку' }));
  await settle();
  expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/form/db/vf`);
  expect(screen.getByText('Ссылка на форму скопирована')).toBeTruthy();
});

test('a reader who may not change the form fills it in', async () => {
  mount(formLayout(), { canEdit: false });
  expect(screen.queryByTestId('form-builder')).toBeNull();
  expect(await screen.findByRole('textbox', { name: 'Название' })).toBeTruthy();
  expect(screen.getByRole('textbox', { name: 'Сумма обязательный' })).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Отправить' })).toBeTruthy();
});

test('on a published page: a public form is filled in, another is for members only', async () => {
  mount(formLayout(), { canEdit: false, published: true });
  expect(screen.getByText('Форма доступна только участникам')).toBeTruthy();
  cleanup();
  mount(formLayout({ form: { access: 'public' } }), { canEdit: false, published: true });
  expect(await screen.findByRole('button', { name: 'Отправить' })).toBeTruthy();
  expect(screen.queryByText('Форма доступна только участникам')).toBeNull();
});

test('«+» of the views makes a form asking for the title, for the page’s readers', async () => {
  const { server } = mount();
  fireEvent.click(screen.getByRole('button', { name: 'Добавить вид' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Форма' }));
  await settle();
  const made = server.requests.find((r) => r.method === 'POST' && r.path === 'database/db/views');
  expect((made?.body as { layout: unknown }).layout).toEqual({
    uid: expect.any(String),
    type: 'form',
    name: 'Форма',
    orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }],
    form: { access: 'page' },
  });
});
