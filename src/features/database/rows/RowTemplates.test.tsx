import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { MAIN_FIELD_ID, type DatabaseConfig, type DatabaseLayout, type DatabaseView } from '../../../../schema/blocks/database';
import { newElement } from '../../../../schema/element';
import '../../../app/i18n';
import { createStore } from '../../../app/store';
import { Toaster } from '../../../ui/Toast';
import type { DatabaseApi } from '../api';
import DatabaseBlock from '../DatabaseBlock';
import { fakeDatabaseServer, layOutGrid, makeRow, type FakeDatabaseServer } from '../fakeDatabaseServer';
import { mountDatabase } from '../mountDatabase';
import RowTemplateBanner from './RowTemplateBanner';
import { clearRowStores } from './rowStore';

/*
 * Row templates in the views (issue 38, docs/api/databases.md «Row templates»): «▾» beside
 * «Новая строка» lists them, makes a row from one or from none, and lets editors make, change,
 * make the default and delete them; the plain «Новая строка» starts from the default. A template
 * opened as a page says what it is.
 */

afterEach(() => {
  clearRowStores();
  localStorage.clear();
});
layOutGrid();

const config: DatabaseConfig = {
  fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, status: { name: 'Этап', type: 'text' } },
};
const view = (type: DatabaseLayout['type'] = 'table'): DatabaseView => ({
  layouts: [{ uid: 'v1', type, name: 'Все', orderedFields: [MAIN_FIELD_ID, 'status'].map((fieldId) => ({ fieldId, isWrap: false })) }],
});

const flush = async (times = 4) => {
  for (let i = 0; i < times; i += 1) await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
};

/** Two templates on the server, the second the default unless told. */
function withTemplates(server: FakeDatabaseServer, defaultTemplate: string | null = 'tpl-b') {
  server.templates.push({ id: 'tpl-a', title: 'Встреча', icon: '📅', values: { status: 'План' } }, { id: 'tpl-b', title: 'Ошибка', icon: null, values: {} });
  server.defaultTemplate = defaultTemplate;
}

const madeRows = (server: FakeDatabaseServer) =>
  server.requests.filter((r) => r.method === 'POST' && r.path === 'database/db/rows').map((r) => (r.body as { rows: unknown[] }).rows);
const templateMenu = () => screen.getByRole('button', { name: 'Шаблоны новой строки' });
async function openMenu() {
  fireEvent.click(templateMenu());
  await flush();
  return screen.getByRole('menu', { name: 'Шаблоны новой строки' });
}

describe('«▾» beside «Новая строка» in a table', () => {
  test('lists the templates from the API, the default marked; «Пустая строка» makes a row without one, a template a row from it', async () => {
    const openPage = jest.fn();
    const { server } = await mountDatabase(config, view(), [makeRow(0)], { openPage });
    withTemplates(server);
    const menu = await openMenu();
    expect(server.requests.some((r) => r.method === 'GET' && r.path === 'database/db/templates')).toBe(true);
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Пустая строка', '📅Встреча', '⋯', 'Ошибкапо умолчанию', '⋯', '+ Новый шаблон']);
    expect(within(menu).getByRole('menuitem', { name: 'Действия с шаблоном «Встреча»' })).toBeTruthy();

    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Пустая строка' }));
    await flush();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(madeRows(server)).toEqual([[{}]]);

    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: /^Встреча/ }));
    await flush();
    expect(madeRows(server)[1]).toEqual([{ templateId: 'tpl-a' }]);
    // Made as a new row is: at the end, its title in the editor.
    expect(server.rows.at(-1)?.data).toMatchObject({ title: 'Встреча', icon: '📅', values: { status: 'План' } });
    expect(((await screen.findByLabelText('Значение ячейки')) as HTMLInputElement).value).toBe('Встреча');
  });

  test('the plain «Новая строка» starts from the default template, and from none without one', async () => {
    const { server } = await mountDatabase(config, view(), [makeRow(0)]);
    withTemplates(server);
    fireEvent.click(screen.getByRole('button', { name: '+ Новая строка' }));
    await flush();
    expect(madeRows(server)).toEqual([[{ templateId: 'tpl-b' }]]);

    // The default unset (the list read again when the menu opens): plain rows again.
    server.defaultTemplate = null;
    await openMenu();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: '+ Новая строка' }));
    await flush();
    expect(madeRows(server)[1]).toEqual([{}]);
  });

  test('where the data says there is no default, a plain new row reads no templates', async () => {
    const { server } = await mountDatabase(config, view(), [makeRow(0)], {}, { defaultTemplate: null });
    withTemplates(server, null);
    fireEvent.click(screen.getByRole('button', { name: '+ Новая строка' }));
    await flush();
    expect(madeRows(server)).toEqual([[{}]]);
    expect(server.requests.some((r) => r.path.includes('templates'))).toBe(false);
  });

  test('an editor makes a template (its page opened), makes one the default and not, and deletes one after a question', async () => {
    const openPage = jest.fn();
    const { server, receiveBlock } = await mountDatabase(config, view(), [makeRow(0)], { openPage });
    withTemplates(server, null);

    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: '+ Новый шаблон' }));
    await flush();
    const made = server.requests.find((r) => r.method === 'POST' && r.path === 'database/db/templates');
    expect(made?.body).toEqual({ title: 'Новый шаблон' });
    expect(openPage).toHaveBeenCalledWith('tpl-1');
    expect(screen.queryByRole('menu')).toBeNull();

    // «Сделать по умолчанию» from the template's actions: the database block the server answers goes into the editor.
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Действия с шаблоном «Встреча»' }));
    let menu = screen.getByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['←Назад', 'Изменить', 'Сделать по умолчанию', 'Удалить']);
    expect(document.activeElement?.textContent).toBe('←Назад');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Сделать по умолчанию' }));
    await flush();
    expect(server.requests.filter((r) => r.path === 'database/db/templates/default').map((r) => r.body)).toEqual([{ templateId: 'tpl-a' }]);
    expect(receiveBlock).toHaveBeenLastCalledWith(expect.objectContaining({ data: expect.objectContaining({ defaultTemplate: 'tpl-a' }) }));
    // Back in the list, the default marked there, the focus on the template's «⋯».
    expect(within(screen.getByRole('menu')).getByRole('menuitem', { name: /^Встреча/ }).textContent).toBe('📅Встречапо умолчанию');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Действия с шаблоном «Встреча»');
    // The plain button now starts from it (the list known, nothing read again).
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: '+ Новая строка' }));
    await flush();
    expect(madeRows(server).at(-1)).toEqual([{ templateId: 'tpl-a' }]);

    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Действия с шаблоном «Встреча»' }));
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Убрать по умолчанию' }));
    await flush();
    expect(server.requests.filter((r) => r.path === 'database/db/templates/default').map((r) => r.body)).toEqual([
      { templateId: 'tpl-a' },
      { templateId: null },
    ]);

    // «Изменить»: its page.
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Действия с шаблоном «Ошибка»' }));
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Изменить' }));
    expect(openPage).toHaveBeenLastCalledWith('tpl-b');

    // «Удалить» asks first; «Отмена» deletes nothing.
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Действия с шаблоном «Ошибка»' }));
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Удалить' }));
    let dialog = screen.getByRole('dialog', { name: 'Удалить шаблон «Ошибка»?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Действия с шаблоном «Ошибка»' }));
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Удалить' }));
    dialog = screen.getByRole('dialog', { name: 'Удалить шаблон «Ошибка»?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Удалить шаблон' }));
    await flush();
    expect(server.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['database/db/templates/tpl-b']);
    expect(await screen.findByText('Шаблон удалён')).toBeTruthy();
    menu = await openMenu();
    expect(within(menu).queryByRole('menuitem', { name: /^Ошибка/ })).toBeNull();
  });

  test('a default deleted elsewhere: the row is refused and said so, the templates read again, and the next row is plain', async () => {
    const { server } = await mountDatabase(config, view(), [makeRow(0)]);
    withTemplates(server, 'tpl-a');
    await openMenu();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    // Deleted by someone else: the default with it.
    server.templates = server.templates.filter((t) => t.id !== 'tpl-a');
    server.defaultTemplate = null;
    const reads = () => server.requests.filter((r) => r.method === 'GET' && r.path === 'database/db/templates').length;
    expect(reads()).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: '+ Новая строка' }));
    await flush();
    expect(madeRows(server)).toEqual([[{ templateId: 'tpl-a' }]]);
    expect(server.rows).toHaveLength(1);
    expect(await screen.findByText(/Не удалось/)).toBeTruthy();
    expect(reads()).toBe(2);
    fireEvent.click(screen.getByRole('button', { name: '+ Новая строка' }));
    await flush();
    expect(madeRows(server)[1]).toEqual([{}]);
    expect(server.rows).toHaveLength(2);
  });

  test('a reader sees no «▾»', async () => {
    const { server } = await mountDatabase(config, view(), [makeRow(0)], { canEdit: false });
    withTemplates(server);
    expect(screen.queryByRole('button', { name: 'Шаблоны новой строки' })).toBeNull();
    expect(server.requests.some((r) => r.path.includes('templates'))).toBe(false);
  });
});

describe('«▾» beside «Новая строка» in a gallery and a list', () => {
  // jsdom has none; the cards' grid asks for one.
  beforeAll(() => {
    globalThis.ResizeObserver ??= class {
      observe() {}
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
  });
  test.each(['gallery', 'list'] as const)('%s: a template makes a row from it and opens it; the plain button starts from the default', async (type) => {
    const server = fakeDatabaseServer(JSON.parse(JSON.stringify(config)) as DatabaseConfig, view(type), [makeRow(0)]);
    withTemplates(server);
    globalThis.fetch = server.fetch;
    const host = { pageId: 'page', workspaceId: null, canEdit: true, receiveBlock: jest.fn(), live: null, isSaved: () => true, flush: async () => undefined };
    render(
      <Provider store={createStore()}>
        <MemoryRouter>
          <DatabaseBlock databaseId="db" config={server.config} view={server.view} host={host} />
          <Toaster />
        </MemoryRouter>
      </Provider>,
    );
    // (jsdom lays out no cards: the button under them is enough here.)
    await screen.findByRole('button', { name: '+ Новая строка' });
    await flush();
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: /^Встреча/ }));
    await flush();
    expect(madeRows(server)).toEqual([[{ templateId: 'tpl-a' }]]);
    // Opened beside the database, as a new row is.
    expect(await screen.findByRole('button', { name: /Открыть как страницу/ })).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });

    fireEvent.click(screen.getByRole('button', { name: '+ Новая строка' }));
    await flush();
    expect(madeRows(server)[1]).toEqual([{ templateId: 'tpl-b' }]);
    fireEvent.click(within(await openMenu()).getByRole('menuitem', { name: 'Пустая строка' }));
    await flush();
    expect(madeRows(server)[2]).toEqual([{ title: '' }]);
  });
});

describe('a row template opened as a page', () => {
  /** Where the router is now. */
  function Where() {
    return <output aria-label="Адрес">{useLocation().pathname}</output>;
  }
  function Opener() {
    const navigate = useNavigate();
    return (
      <button type="button" onClick={() => navigate('/tpl-a')}>
        К шаблону
      </button>
    );
  }
  function mount(entries: string[], databaseTitle?: string) {
    const api = { database: jest.fn(async () => ({ block: { id: 'db', type: 'database', version: 1, data: { title: databaseTitle } }, rowCount: 0 })) };
    render(
      <Provider store={createStore()}>
        <MemoryRouter initialEntries={entries}>
          <Routes>
            <Route path="/tpl-a" element={<RowTemplateBanner databaseId="db" holderId="page" api={api as unknown as DatabaseApi} />} />
            <Route path="*" element={<Opener />} />
          </Routes>
          <Where />
        </MemoryRouter>
      </Provider>,
    );
    return api;
  }

  test('says it is a template of the database, by its title; «Готово» goes back where one came from', async () => {
    const api = mount(['/page'], 'Задачи');
    fireEvent.click(screen.getByRole('button', { name: 'К шаблону' }));
    const banner = await screen.findByRole('note', { name: 'Шаблон строки' });
    await flush();
    expect(api.database).toHaveBeenCalledWith('db');
    expect(banner.textContent).toContain('Это шаблон базы «Задачи». Новые строки, созданные из него, получат эти свойства и содержимое.');
    fireEvent.click(within(banner).getByRole('button', { name: 'Готово' }));
    expect(screen.getByLabelText('Адрес').textContent).toBe('/page');
    expect(screen.getByRole('button', { name: 'К шаблону' })).toBeTruthy();
  });

  test('opened by its link: «Готово» goes to the database’s page; a database without a title is named by its page', async () => {
    globalThis.fetch = (async () =>
      ({
        ok: true,
        status: 200,
        json: async () => ({ data: newElement({ id: 'page', title: 'Проекты', accessLevel: 'full' }) }),
      }) as unknown as Response) as typeof fetch;
    mount(['/tpl-a']);
    const banner = await screen.findByRole('note', { name: 'Шаблон строки' });
    await flush();
    expect(banner.textContent).toContain('Это шаблон базы «Проекты».');
    fireEvent.click(within(banner).getByRole('button', { name: 'Готово' }));
    expect(screen.getByLabelText('Адрес').textContent).toBe('/page');
  });
});
