import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { MAIN_FIELD_ID, type DatabaseConfig, type DatabaseLayout, type DatabaseView } from '../../../schema/blocks/database';
import { newElement } from '../../../schema/element';
import '../../app/i18n';
import { ApiRequestError } from '../../app/api';
import { createStore } from '../../app/store';
import { Toaster } from '../../ui/Toast';
import DatabaseBlock from './DatabaseBlock';
import { fakeDatabaseServer, layOutGrid, makeRow } from './fakeDatabaseServer';
import LinkedView, { linkedViewProblem, nextSource } from './LinkedView';
import { clearRowStores } from './rows/rowStore';

afterEach(clearRowStores);

const config: DatabaseConfig = {
  fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, sum: { name: 'Сумма', type: 'number' }, due: { name: 'Срок', type: 'date' } },
};
const table = (uid: string, name: string, type: DatabaseLayout['type'] = 'table'): DatabaseLayout => ({
  uid,
  type,
  name,
  orderedFields: [MAIN_FIELD_ID, 'sum'].map((fieldId) => ({ fieldId, isWrap: false })),
});
const views = (): DatabaseView => ({
  layouts: [table('v1', 'Все'), table('v2', 'Мои'), { ...table('v3', 'План', 'timeline'), timeline: { startFieldId: 'due' } }],
});

layOutGrid();

const flush = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

/** A WidgetView page showing `layoutId`; the lookup answers the source at `sourceLevel`, or first fails with `failWith`. */
function setup(layoutId: string | null = 'v2', { sourceLevel = 'edit', failWith }: { sourceLevel?: 'read' | 'edit'; failWith?: number } = {}) {
  const server = fakeDatabaseServer(JSON.parse(JSON.stringify(config)) as DatabaseConfig, views(), [makeRow(0, { sum: 5 }), makeRow(1)]);
  server.holder = { ...server.holder, accessLevel: sourceLevel };
  if (failWith) server.failNext('database/view', failWith);
  globalThis.fetch = server.fetch;
  const page = newElement({ id: 'linked', type: 'WidgetView', title: 'Мои задачи', defaultLayoutId: layoutId, accessLevel: 'full' });
  const { unmount } = render(
    <Provider store={createStore()}>
      <MemoryRouter>
        <LinkedView page={page} />
      </MemoryRouter>
    </Provider>,
  );
  return { server, unmount };
}

describe('a linked view (a WidgetView page)', () => {
  test('shows the one view of the source, with a link to it; an editor of the source edits its rows', async () => {
    const { server } = setup('v2');
    await screen.findByText('Строка 0');
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: 'database/view/v2' });
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['▦ Мои']);
    expect(screen.queryByLabelText('Добавить вид')).toBeNull();
    expect(screen.getByRole('link', { name: /Открыть исходную базу/ }).getAttribute('href')).toBe('/page');
    expect(screen.getByText('«Задачи»')).toBeTruthy();
    // The view's menu: renamed here, never deleted from here, and no linked view of a linked view.
    fireEvent.click(screen.getByRole('tab'));
    const menu = screen.getByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Переименовать']);
    fireEvent.keyDown(menu, { key: 'Escape' });

    const grid = screen.getByRole('grid');
    fireEvent.mouseDown(grid.querySelector('[data-row="0"] [data-col="1"]') as HTMLElement);
    fireEvent.keyDown(screen.getByLabelText(/стрелки — переход/), { key: '7' });
    const editor = screen.getByLabelText('Значение ячейки');
    fireEvent.keyDown(editor, { key: 'Enter' });
    await flush();
    expect(server.requests.find((r) => r.method === 'POST')).toMatchObject({ path: 'row/row-0/cells/sum', body: { value: 7 } });
  });

  test('read-only for someone who only reads the source', async () => {
    setup('v2', { sourceLevel: 'read' });
    await screen.findByText('Строка 0');
    fireEvent.mouseDown(screen.getByRole('grid').querySelector('[data-row="0"] [data-col="1"]') as HTMLElement);
    fireEvent.keyDown(screen.getByLabelText(/стрелки — переход/), { key: '7' });
    expect(screen.queryByLabelText('Значение ячейки')).toBeNull();
  });

  test('a kind of view other than Table is drawn as in a database block (a timeline: its rows in its pane, its scales)', async () => {
    setup('v3');
    await screen.findByText('Строка 0');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['☰ План']);
    expect(screen.getByRole('button', { name: 'Неделя', pressed: true })).toBeTruthy();
  });

  test.each([
    [404, 'Исходное представление удалено'],
    [403, 'Нет доступа к исходной базе данных'],
  ])('%s: a message, not a broken screen', async (status, message) => {
    setup('v1', { failWith: status });
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Повторить' })).toBeNull();
    expect(screen.queryByRole('grid')).toBeNull();
  });

  test('a view that is no more, and a page naming none, say so; a failed read is tried again on request', async () => {
    const gone = setup('gone');
    expect(await screen.findByText('Исходное представление удалено')).toBeTruthy();
    gone.unmount();
    const none = setup(null);
    expect(screen.getByText('Исходное представление удалено')).toBeTruthy();
    none.unmount();
    setup('v1', { failWith: 503 });
    fireEvent.click(await screen.findByRole('button', { name: 'Повторить' }));
    expect(await screen.findByText('Строка 0')).toBeTruthy();
  });

  test('what the screen keeps: a late older answer never undoes a newer one; statuses become messages', () => {
    const page = newElement({ id: 'page' });
    const block = (version: number, layouts = views().layouts) => ({
      id: 'db',
      contentType: 'Block' as const,
      pageId: 'page',
      type: 'database' as const,
      version,
      parentId: null,
      placeAfter: null,
      data: { config, view: { layouts } },
    });
    const ready = nextSource({ status: 'loading' }, block(3), page, 'v1');
    expect(ready).toMatchObject({ status: 'ready', block: { version: 3 } });
    expect(nextSource(ready, block(2), page, 'v1')).toMatchObject({ status: 'ready', block: { version: 3 } });
    expect(nextSource(ready, block(3), { ...page }, 'v1')).toBe(ready);
    expect(nextSource(ready, block(4, [table('v2', 'Мои')]), page, 'v1')).toEqual({ status: 'problem', problem: 'gone' });
    expect([404, 403, 500].map((status) => linkedViewProblem(new ApiRequestError(status, 'x', 'x')))).toEqual(['gone', 'noAccess', 'failed']);
    expect(linkedViewProblem(new TypeError('offline'))).toBe('failed');
  });
});

describe("«Создать связанное представление» in a view's menu", () => {
  test('makes the linked view page of the view and opens it', async () => {
    const server = fakeDatabaseServer(JSON.parse(JSON.stringify(config)) as DatabaseConfig, views(), [makeRow(0)]);
    globalThis.fetch = server.fetch;
    const createLinkedView = jest.fn(async () => 'new-page');
    const openPage = jest.fn();
    const host = {
      pageId: 'page',
      workspaceId: null,
      canEdit: true,
      receiveBlock: jest.fn(),
      live: null,
      isSaved: () => true,
      flush: async () => undefined,
      createLinkedView,
      openPage,
    };
    render(
      <Provider store={createStore()}>
        <DatabaseBlock databaseId="db" config={server.config} view={server.view} host={host} />
        <Toaster />
      </Provider>,
    );
    await screen.findByText('Строка 0');
    fireEvent.click(screen.getAllByRole('tab')[0]);
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Создать связанное представление' }));
    await flush();
    expect(createLinkedView).toHaveBeenCalledWith('v1', 'Все');
    expect(openPage).toHaveBeenCalledWith('new-page');

    createLinkedView.mockRejectedValueOnce(new Error('refused'));
    fireEvent.click(screen.getAllByRole('tab')[0]);
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Создать связанное представление' }));
    expect(await screen.findByText('Не удалось создать связанное представление')).toBeTruthy();
    expect(openPage).toHaveBeenCalledTimes(1);
  });
});
