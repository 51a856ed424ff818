import { act, fireEvent, render, screen } from '@testing-library/react';
import { MAIN_FIELD_ID, type DatabaseConfig, type DatabaseView } from '../../../schema/blocks/database';
import { Toaster } from '../../ui/Toast';
import DatabaseBlock from './DatabaseBlock';
import { fakeDatabaseServer, layOutGrid, makeRow } from './fakeDatabaseServer';
import { clearRowStores } from './rowStore';

afterEach(clearRowStores);

const config: DatabaseConfig = {
  fields: {
    [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
    sum: { name: 'Сумма', type: 'number', format: 'rub' },
    done: { name: 'Готово', type: 'checkbox' },
    tag: { name: 'Метка', type: 'select', options: [{ id: 'o1', name: 'Срочно', color: 'red' }] },
  },
};
const view = (): DatabaseView => ({
  layouts: [{ uid: 'v1', type: 'table', name: 'Таблица', orderedFields: ['MAIN_FIELD', 'sum', 'done', 'tag'].map((fieldId) => ({ fieldId, isWrap: false })) }],
});

async function setup(canEdit = true, rows = 5) {
  const server = fakeDatabaseServer(JSON.parse(JSON.stringify(config)) as DatabaseConfig, view(), Array.from({ length: rows }, (_, i) => makeRow(i, { sum: i * 10 })));
  globalThis.fetch = server.fetch;
  const receiveBlock = jest.fn();
  const utils = render(
    <>
      <DatabaseBlock databaseId="db" config={server.config} view={server.view} host={{ pageId: 'page', workspaceId: null, canEdit, receiveBlock, live: null, isSaved: () => true, flush: async () => undefined }} />
      <Toaster />
    </>,
  );
  await screen.findByText('Строка 0');
  const grid = screen.getByRole('grid');
  const sink = screen.getByLabelText(/стрелки — переход/);
  const cell = (row: number, col: number) => grid.querySelector(`[data-row="${row}"] [data-col="${col}"]`) as HTMLElement;
  return { server, receiveBlock, grid, sink, cell, ...utils };
}

layOutGrid();

const flush = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe('the Table view', () => {
  test('rows and formatted cells; click selects, arrows move, a typed character edits, Enter writes and moves down', async () => {
    const { server, sink, cell } = await setup();
    expect(cell(2, 1).textContent).toMatch(/20,00\s₽/);
    fireEvent.mouseDown(cell(1, 0));
    expect(cell(1, 0).className).toContain('is-active');
    fireEvent.keyDown(sink, { key: 'ArrowRight' });
    fireEvent.keyDown(sink, { key: 'ArrowDown' });
    expect(cell(2, 1).className).toContain('is-active');
    fireEvent.keyDown(sink, { key: '7' });
    const editor = screen.getByLabelText('Значение ячейки') as HTMLTextAreaElement;
    expect(editor.value).toBe('7');
    fireEvent.change(editor, { target: { value: '1 500' } });
    fireEvent.keyDown(editor, { key: 'Enter' });
    // Shown at once, before the server answers.
    expect(cell(2, 1).textContent).toMatch(/1\s500,00\s₽/);
    await flush();
    expect(server.requests.find((r) => r.method === 'POST')).toMatchObject({ path: 'row/row-2/cells/sum', body: { value: 1500, version: 0 } });
    expect(cell(3, 1).className).toContain('is-active');
    // Escape cancels an edit.
    fireEvent.keyDown(sink, { key: 'Enter' });
    const second = screen.getByLabelText('Значение ячейки');
    fireEvent.change(second, { target: { value: '5' } });
    fireEvent.keyDown(second, { key: 'Escape' });
    await flush();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(cell(3, 1).textContent).toMatch(/30,00\s₽/);
  });

  test('a checkbox toggles in place; Delete clears the selected range', async () => {
    const { server, sink, cell } = await setup();
    fireEvent.mouseDown(cell(0, 2).querySelector('[data-toggle]')!);
    await flush();
    expect(server.rows[0].data.values.done).toBe(true);
    expect(cell(0, 2).querySelector('[role="checkbox"]')!.getAttribute('aria-checked')).toBe('true');
    fireEvent.mouseDown(cell(1, 1));
    fireEvent.keyDown(sink, { key: 'ArrowDown', shiftKey: true });
    fireEvent.keyDown(sink, { key: 'Delete' });
    await flush();
    expect(server.rows[1].data.values.sum).toBeNull();
    expect(server.rows[2].data.values.sum).toBeNull();
    expect(server.rows[3].data.values.sum).toBe(30);
  });

  test('copy puts the range on the clipboard as TSV; paste writes a TSV block and makes rows at the bottom', async () => {
    const { server, sink, cell } = await setup(true, 3);
    fireEvent.mouseDown(cell(0, 0));
    fireEvent.mouseDown(cell(1, 1), { shiftKey: true });
    const copied: Record<string, string> = {};
    fireEvent.copy(sink, { clipboardData: { setData: (type: string, value: string) => (copied[type] = value) } });
    expect(copied['text/plain']).toBe('Строка 0\t0\nСтрока 1\t10');

    fireEvent.mouseDown(cell(1, 0));
    fireEvent.paste(sink, { clipboardData: { getData: () => 'Альфа\t5\tда\tСрочно\r\nБета\t6\tнет\tНовая метка\r\nГамма\t7,5\t\t\r\n' } });
    await flush();
    await flush();
    // A name that is no option yet: the field gets it first (one save), then the cells.
    const fieldSave = server.requests.find((r) => r.path === 'database/db/fields/tag');
    expect(fieldSave?.body).toMatchObject({ field: { type: 'select', options: [{ id: 'o1' }, { name: 'Новая метка' }] } });
    expect(server.rows[1].data.title).toBe('Альфа');
    expect(server.rows[1].data.values).toMatchObject({ sum: 5, done: true, tag: 'o1' });
    expect(server.rows[2].data.values).toMatchObject({ sum: 6, done: false });
    // The third line is past the end: a row made with its values.
    const made = server.requests.find((r) => r.method === 'POST' && r.path === 'database/db/rows');
    expect(made?.body).toEqual({ rows: [{ title: 'Гамма', values: { sum: 7.5, done: false } }] });
    expect(server.rows).toHaveLength(4);
  });

  test('rows checked in the gutter are deleted together and come back with «Отменить»', async () => {
    const { server, grid } = await setup(true, 4);
    const boxes = grid.querySelectorAll('.db-row [data-check]');
    fireEvent.mouseDown(boxes[1]);
    fireEvent.mouseDown(boxes[2]);
    fireEvent.click(screen.getByRole('button', { name: 'Удалить' }));
    await flush();
    await flush();
    expect(server.requests.find((r) => r.path === 'database/db/rows/delete')?.body).toEqual({ ids: ['row-1', 'row-2'] });
    expect(server.rows.map((r) => r.id)).toEqual(['row-0', 'row-3']);
    expect(grid.querySelectorAll('.db-row')).toHaveLength(2);
    fireEvent.click(await screen.findByRole('button', { name: 'Отменить' }));
    await flush();
    await flush();
    expect(server.requests.find((r) => r.path === 'database/db/rows/restore')?.body).toEqual({ ids: ['row-1', 'row-2'] });
    expect(server.rows.map((r) => r.id)).toEqual(['row-0', 'row-1', 'row-2', 'row-3']);
    expect(grid.querySelectorAll('.db-row')).toHaveLength(4);
  });

  test('two view changes in a row build on each other: both columns hidden, each shown hidden at once', async () => {
    const { server, receiveBlock } = await setup();
    const hide = (name: RegExp) => {
      fireEvent.click(screen.getByRole('columnheader', { name }).querySelector('button')!);
      fireEvent.click(screen.getByRole('menuitem', { name: 'Скрыть' }));
    };
    hide(/Сумма/);
    expect(screen.queryByRole('columnheader', { name: /Сумма/ })).toBeNull();
    hide(/Готово/);
    expect(screen.queryByRole('columnheader', { name: /Готово/ })).toBeNull();
    await flush();
    await flush();
    expect(server.view.layouts[0].orderedFields.map((f) => f.fieldId)).toEqual(['MAIN_FIELD', 'tag']);
    const patches = server.requests.filter((r) => r.path === 'database/db/views/v1').map((r) => (r.body as { layout: { orderedFields: Array<{ fieldId: string }> } }).layout.orderedFields.map((f) => f.fieldId));
    expect(patches).toEqual([
      ['MAIN_FIELD', 'done', 'tag'],
      ['MAIN_FIELD', 'tag'],
    ]);
    expect(receiveBlock).toHaveBeenCalledTimes(2);
  });

  test('a reader sees the rows but cannot edit: no editor, no new row, no field menus', async () => {
    const { server, sink, cell } = await setup(false);
    fireEvent.mouseDown(cell(1, 1));
    fireEvent.keyDown(sink, { key: '5' });
    fireEvent.keyDown(sink, { key: 'Enter' });
    fireEvent.mouseDown(cell(0, 2).querySelector('[data-toggle]')!);
    fireEvent.keyDown(sink, { key: 'Delete' });
    await flush();
    expect(screen.queryByLabelText('Значение ячейки')).toBeNull();
    expect(screen.queryByText(/Новая строка/)).toBeNull();
    expect(screen.queryByLabelText('Добавить поле')).toBeNull();
    expect((screen.getByRole('columnheader', { name: /Сумма/ }).querySelector('button') as HTMLButtonElement).disabled).toBe(true);
    expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
