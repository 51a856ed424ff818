import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MAIN_FIELD_ID, type DatabaseConfig, type DatabaseView } from '../../../schema/blocks/database';
import type { WireBlock } from '../../../schema/block';
import { createStore } from '../../app/store';
import { Toaster } from '../../ui/Toast';
import DatabaseBlock from './DatabaseBlock';
import { fakeDatabaseServer, makeRow } from './fakeDatabaseServer';
import { clearRowStores } from './rows/rowStore';

/** An inline database's title and description above its tabs (issue 34 §2; docs/web-app.md «Table view»). */

afterEach(() => clearRowStores());

const config: DatabaseConfig = { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' } } };
const view: DatabaseView = { layouts: [{ uid: 'v1', type: 'table', name: 'Таблица', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] };

async function setup({ canEdit = true, title, description, fill }: { canEdit?: boolean; title?: string; description?: string; fill?: boolean } = {}) {
  const server = fakeDatabaseServer(config, view, [makeRow(0)]);
  globalThis.fetch = server.fetch;
  const receiveBlock = jest.fn<void, [WireBlock]>();
  const host = { pageId: 'page', workspaceId: null, canEdit, receiveBlock, live: null, isSaved: () => true, flush: async () => undefined };
  const draw = (about: { title?: string; description?: string }) => (
    <Provider store={store}>
      <DatabaseBlock databaseId="db" config={config} view={view} host={host} fill={fill} {...about} />
      <Toaster />
    </Provider>
  );
  const store = createStore();
  const utils = render(draw({ title, description }));
  await screen.findByRole('tab', { name: /Таблица/ });
  const writes = () => server.requests.filter((r) => r.method === 'POST' && r.path === 'database/db').map((r) => r.body);
  return { server, receiveBlock, writes, redraw: (about: { title?: string; description?: string }) => utils.rerender(draw(about)), ...utils };
}

const valueOf = (field: HTMLElement) => (field as HTMLInputElement).value;
const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

test('an editor names the database: a placeholder before; Enter saves the text and the block answered goes into the editor', async () => {
  const { writes, receiveBlock } = await setup();
  const field = screen.getByRole('textbox', { name: 'Название базы данных' });
  expect(field.getAttribute('placeholder')).toBe('Без названия');
  expect(valueOf(field)).toBe('');
  field.focus();
  fireEvent.change(field, { target: { value: '  Задачи команды ' } });
  fireEvent.keyDown(field, { key: 'Enter' });
  await settle();
  expect(writes()).toEqual([{ title: 'Задачи команды' }]);
  expect(receiveBlock).toHaveBeenCalledTimes(1);
  expect(receiveBlock.mock.calls[0][0].data).toMatchObject({ title: 'Задачи команды' });
  expect(valueOf(field)).toBe('Задачи команды');
});

test('Escape puts the stored title back and saves nothing; leaving it unchanged saves nothing', async () => {
  const { writes } = await setup({ title: 'Было' });
  const field = screen.getByRole('textbox', { name: 'Название базы данных' });
  field.focus();
  fireEvent.change(field, { target: { value: 'Стало' } });
  fireEvent.keyDown(field, { key: 'Escape' });
  await settle();
  expect(valueOf(field)).toBe('Было');
  field.focus();
  act(() => field.blur());
  await settle();
  expect(writes()).toEqual([]);
});

test('clearing the title saves null; someone else’s change shows (the block’s edit), not over a field being edited', async () => {
  const { writes, redraw } = await setup({ title: 'Было' });
  const field = screen.getByRole('textbox', { name: 'Название базы данных' });
  field.focus();
  fireEvent.change(field, { target: { value: '' } });
  act(() => field.blur());
  await settle();
  expect(writes()).toEqual([{ title: null }]);
  redraw({ title: 'От коллеги' });
  expect(valueOf(field)).toBe('От коллеги');
  field.focus();
  fireEvent.change(field, { target: { value: 'Моё' } });
  redraw({ title: 'Ещё от коллеги' });
  expect(valueOf(field)).toBe('Моё');
});

test('«Добавить описание» opens a description field; Enter saves it; a set description is shown as a field', async () => {
  const { writes } = await setup({ title: 'Задачи' });
  expect(screen.queryByRole('textbox', { name: 'Описание базы данных' })).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Добавить описание' }));
  const field = screen.getByRole('textbox', { name: 'Описание базы данных' });
  expect(document.activeElement).toBe(field);
  fireEvent.change(field, { target: { value: 'Что мы делаем' } });
  fireEvent.keyDown(field, { key: 'Enter' });
  await settle();
  expect(writes()).toEqual([{ description: 'Что мы делаем' }]);
});

test('a reader sees the title and description as text, no fields and no «Добавить описание»; nothing when there is none', async () => {
  const first = await setup({ canEdit: false, title: 'Задачи', description: 'Что мы делаем' });
  expect(screen.getByRole('heading', { name: 'Задачи' })).toBeTruthy();
  expect(screen.getByText('Что мы делаем')).toBeTruthy();
  expect(screen.queryByRole('textbox', { name: /базы данных/ })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Добавить описание' })).toBeNull();
  first.unmount();
  clearRowStores();
  const second = await setup({ canEdit: false });
  expect(second.container.querySelector('.db-heading')).toBeNull();
});

test('a Database page (fill) shows no title of its own: its page’s title names it', async () => {
  const { container } = await setup({ fill: true, title: 'Задачи' });
  expect(container.querySelector('.db-heading')).toBeNull();
  expect(screen.queryByRole('textbox', { name: 'Название базы данных' })).toBeNull();
});
