import { act, fireEvent, screen, within } from '@testing-library/react';
import { MAIN_FIELD_ID, type DatabaseConfig, type DatabaseLayout, type DatabaseView, type RowValue } from '../../../schema/blocks/database';
import { newTimelineLayout } from './DatabaseBlock';
import { layOutGrid, makeRow } from './fakeDatabaseServer';
import { mountDatabase } from './mountDatabase';
import { clearRowStores } from './rows/rowStore';

afterEach(() => {
  clearRowStores();
  localStorage.clear();
});

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

async function setup(
  canEdit = true,
  rows = 5,
  patch: Partial<DatabaseLayout> = {},
  values: (i: number) => Record<string, RowValue> = () => ({}),
  moreFields: DatabaseConfig['fields'] = {},
) {
  const shown = view();
  Object.assign(shown.layouts[0], patch);
  const mounted = await mountDatabase(
    { fields: { ...config.fields, ...moreFields } },
    shown,
    Array.from({ length: rows }, (_, i) => makeRow(i, { sum: i * 10, ...values(i) })),
    { canEdit },
  );
  const { cell } = mounted;
  /** The titles at positions 0…n − 1 (undefined: not drawn). */
  const titles = (n: number) => Array.from({ length: n }, (_, r) => cell(r, 0)?.firstChild?.textContent);
  return { ...mounted, titles };
}

layOutGrid();

const flush = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe('the Table view', () => {
  test('computed fields show what the row says: created and edited time and by', async () => {
    const computed: DatabaseConfig['fields'] = {
      created: { name: 'Создано', type: 'createdTime' },
      author: { name: 'Автор', type: 'createdBy' },
      edited: { name: 'Изменено', type: 'editedTime' },
      editor: { name: 'Изменил', type: 'editedBy' },
    };
    const orderedFields = [MAIN_FIELD_ID, ...Object.keys(computed)].map((fieldId) => ({ fieldId, isWrap: false }));
    const { server, cell } = await setup(true, 2, { orderedFields }, () => ({}), computed);
    expect(cell(0, 1).textContent).toMatch(/2026/);
    expect(cell(0, 2).textContent).not.toBe('');
    expect(cell(0, 3).textContent).toMatch(/2026/);
    // Nobody edited row 0 since it was made: «edited by» is empty, as on the row's page.
    expect(cell(0, 4).textContent).toBe('');
    // The author's name is asked for (after the lookup's 100 ms window: here, not in the next test).
    await act(() => new Promise((resolve) => setTimeout(resolve, 150)));
    expect(server.requests.find((r) => r.path === '/api/user/list')?.body).toEqual({ users_id: ['u1'] });
  });

  test('a field deleted and back with its id (a page version restored) shows no cells: the server cleared them, and the rows in memory lose them too', async () => {
    const { server, cell, setConfig } = await setup();
    expect(cell(2, 1).textContent).toMatch(/20,00\s₽/);
    const { sum, ...rest } = config.fields;
    for (const row of server.rows) {
      delete row.data.values.sum;
      delete row.versions.sum;
    }
    setConfig({ fields: rest });
    await flush();
    setConfig({ fields: { ...rest, sum } });
    await flush();
    expect(cell(2, 1).textContent).toBe('');
  });

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

  test('a title cell takes at most the length of a title (the server refuses more, issue 33); other cells are not cut', async () => {
    const { sink, cell } = await setup();
    fireEvent.mouseDown(cell(0, 0));
    fireEvent.keyDown(sink, { key: 'Enter' });
    expect((screen.getByLabelText('Значение ячейки') as HTMLTextAreaElement).maxLength).toBe(1000);
    fireEvent.keyDown(screen.getByLabelText('Значение ячейки'), { key: 'Escape' });
    fireEvent.keyDown(sink, { key: 'ArrowRight' });
    fireEvent.keyDown(sink, { key: 'Enter' });
    expect((screen.getByLabelText('Значение ячейки') as HTMLTextAreaElement).maxLength).toBe(-1);
  });

  test("an option made in a cell is the cell's at once; the write waits for its field, and a second new option is added to the first", async () => {
    const { server, sink, cell } = await setup();
    const make = async (row: number, name: string) => {
      fireEvent.mouseDown(cell(row, 3));
      fireEvent.keyDown(sink, { key: 'Enter' });
      const find = screen.getByLabelText('Найти или создать');
      fireEvent.change(find, { target: { value: name } });
      fireEvent.keyDown(find, { key: 'Enter' });
      // Closed at once, before the field's save is answered: the next keys are the grid's.
      expect(screen.queryByLabelText('Найти или создать')).toBeNull();
    };
    await make(0, 'Новая');
    await make(1, 'Другая');
    await flush();
    await flush();
    const posts = server.requests.filter((r) => r.method === 'POST').map((r) => r.path);
    expect(posts).toEqual(['database/db/fields/tag', 'database/db/fields/tag', 'row/row-0/cells/tag', 'row/row-1/cells/tag']);
    expect(server.config.fields.tag).toMatchObject({ options: [{ id: 'o1' }, { name: 'Новая' }, { name: 'Другая' }] });
    const options = (server.config.fields.tag as { options: Array<{ id: string; name: string }> }).options;
    expect(server.rows[0].data.values.tag).toBe(options[1].id);
    expect(server.rows[1].data.values.tag).toBe(options[2].id);
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

  test('Ctrl+D fills the range down from its top row (one row: from the row above), by row id; Ctrl+Z takes it back', async () => {
    const { server, sink, cell } = await setup(true, 5, {}, (i): Record<string, RowValue> => (i === 0 ? { tag: 'o1', done: true } : {}));
    fireEvent.mouseDown(cell(0, 1));
    fireEvent.mouseDown(cell(2, 3), { shiftKey: true });
    fireEvent.keyDown(sink, { key: 'd', ctrlKey: true });
    await flush();
    expect(server.rows.slice(0, 4).map((r) => [r.data.values.sum, r.data.values.done ?? null, r.data.values.tag ?? null])).toEqual([
      [0, true, 'o1'],
      [0, true, 'o1'],
      [0, true, 'o1'],
      [30, null, null],
    ]);
    // One row selected: the row above it comes down into it (a Russian layout's В is D).
    fireEvent.mouseDown(cell(3, 1));
    fireEvent.keyDown(sink, { key: 'в', ctrlKey: true });
    await flush();
    expect(server.rows[3].data.values.sum).toBe(0);
    fireEvent.keyDown(sink, { key: 'z', ctrlKey: true });
    await flush();
    await flush();
    expect(server.rows[3].data.values.sum).toBe(30);
    fireEvent.keyDown(sink, { key: 'z', ctrlKey: true });
    await flush();
    await flush();
    expect(server.rows.slice(0, 3).map((r) => [r.data.values.sum, r.data.values.done ?? null, r.data.values.tag ?? null])).toEqual([
      [0, true, 'o1'],
      [10, null, null],
      [20, null, null],
    ]);
  });

  test('Ctrl+D does nothing for a reader', async () => {
    const { server, sink, cell } = await setup(false, 3);
    fireEvent.mouseDown(cell(0, 1));
    fireEvent.mouseDown(cell(2, 1), { shiftKey: true });
    fireEvent.keyDown(sink, { key: 'd', ctrlKey: true });
    await flush();
    expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  test('copy puts the range on the clipboard as TSV; paste writes a TSV block and makes rows at the bottom', async () => {
    const { server, sink, cell } = await setup(true, 3);
    fireEvent.mouseDown(cell(0, 0));
    fireEvent.mouseDown(cell(1, 1), { shiftKey: true });
    const copied: Record<string, string> = {};
    fireEvent.copy(sink, { clipboardData: { setData: (type: string, value: string) => (copied[type] = value) } });
    // As the cells show them, the way a spreadsheet in Russian reads them; the numbers' values in the HTML too.
    expect(copied['text/plain']).toBe('Строка 0\t0,00\u00a0₽\nСтрока 1\t10,00\u00a0₽');
    expect(copied['text/html']).toContain('<td x:num="10">10,00\u00a0₽</td>');

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
      fireEvent.click(within(screen.getByRole('dialog', { name: 'Поле' })).getByRole('button', { name: 'Скрыть' }));
    };
    hide(/Сумма/);
    expect(screen.queryByRole('columnheader', { name: /Сумма/ })).toBeNull();
    hide(/Готово/);
    expect(screen.queryByRole('columnheader', { name: /Готово/ })).toBeNull();
    await flush();
    await flush();
    expect(server.view.layouts[0].orderedFields.map((f) => f.fieldId)).toEqual(['MAIN_FIELD', 'tag']);
    const patches = server.requests
      .filter((r) => r.path === 'database/db/views/v1')
      .map((r) => (r.body as { layout: { orderedFields: Array<{ fieldId: string }> } }).layout.orderedFields.map((f) => f.fieldId));
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
    // Rows do not move: no handle, and Alt+Shift+↓ does nothing.
    expect(document.querySelector('[data-drag]')).toBeNull();
    fireEvent.mouseDown(cell(1, 0));
    fireEvent.keyDown(sink, { key: 'ArrowDown', altKey: true, shiftKey: true });
    await flush();
    expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  test("Alt+Shift+↓/↑ moves the active row at once and on the server (in this view's own order), the rows checked with it together; each row has a handle", async () => {
    const { server, grid, sink, cell, titles } = await setup(true, 5);
    expect(grid.querySelectorAll('.db-row [data-drag]')).toHaveLength(5);
    fireEvent.mouseDown(cell(1, 0));
    fireEvent.keyDown(sink, { key: 'ArrowDown', altKey: true, shiftKey: true });
    // In its new place before the server answers, the active cell with it.
    expect(titles(5)).toEqual(['Строка 0', 'Строка 2', 'Строка 1', 'Строка 3', 'Строка 4']);
    expect(cell(2, 0).className).toContain('is-active');
    await flush();
    expect(server.requests.find((r) => r.path === 'database/db/rows/move')?.body).toEqual({ ids: ['row-1'], placeAfter: 'row-2', viewId: 'v1' });
    expect(server.rows.map((r) => r.id)).toEqual(['row-0', 'row-2', 'row-1', 'row-3', 'row-4']);
    fireEvent.keyDown(sink, { key: 'ArrowUp', altKey: true, shiftKey: true });
    fireEvent.keyDown(sink, { key: 'ArrowUp', altKey: true, shiftKey: true });
    await flush();
    expect(titles(5)).toEqual(['Строка 1', 'Строка 0', 'Строка 2', 'Строка 3', 'Строка 4']);
    expect(server.requests.filter((r) => r.path === 'database/db/rows/move').at(-1)?.body).toEqual({ ids: ['row-1'], placeAfter: null, viewId: 'v1' });
    // At the top: nothing to do.
    const moves = server.requests.length;
    fireEvent.keyDown(sink, { key: 'ArrowUp', altKey: true, shiftKey: true });
    await flush();
    expect(server.requests.length).toBe(moves);

    // Rows 0 and 3 checked, the active cell on one of them: both go a step down, together, in their order.
    const boxes = grid.querySelectorAll('.db-row [data-check]');
    fireEvent.mouseDown(boxes[0]);
    fireEvent.mouseDown(boxes[3]);
    fireEvent.mouseDown(cell(3, 1));
    fireEvent.keyDown(sink, { key: 'ArrowDown', altKey: true, shiftKey: true });
    expect(titles(5)).toEqual(['Строка 0', 'Строка 2', 'Строка 4', 'Строка 1', 'Строка 3']);
    await flush();
    await flush();
    expect(server.requests.filter((r) => r.path === 'database/db/rows/move').at(-1)?.body).toEqual({
      ids: ['row-1', 'row-3'],
      placeAfter: 'row-4',
      viewId: 'v1',
    });
    expect(server.rows.map((r) => r.id)).toEqual(['row-0', 'row-2', 'row-4', 'row-1', 'row-3']);
    expect(titles(5)).toEqual(['Строка 0', 'Строка 2', 'Строка 4', 'Строка 1', 'Строка 3']);
    expect(cell(4, 1).className).toContain('is-active');
  });

  test('a failed move puts the rows back as the server has them', async () => {
    const { server, sink, cell, titles } = await setup(true, 3);
    server.failNext('rows/move', 403);
    fireEvent.mouseDown(cell(0, 0));
    fireEvent.keyDown(sink, { key: 'ArrowDown', altKey: true, shiftKey: true });
    expect(titles(3)).toEqual(['Строка 1', 'Строка 0', 'Строка 2']);
    await flush();
    await flush();
    expect(titles(3)).toEqual(['Строка 0', 'Строка 1', 'Строка 2']);
    expect(await screen.findByText(/Не удалось сохранить/)).toBeTruthy();
  });

  test('a sorted view offers no handle, and Alt+Shift+↓ says to remove the sort first', async () => {
    const { server, grid, sink, cell } = await setup(true, 3, { sorts: [{ fieldId: 'sum', direction: 'desc' }] });
    expect(grid.querySelector('[data-drag]')).toBeNull();
    fireEvent.mouseDown(cell(0, 0));
    fireEvent.keyDown(sink, { key: 'ArrowDown', altKey: true, shiftKey: true });
    expect(await screen.findByText('Уберите сортировку, чтобы переставлять строки')).toBeTruthy();
    expect(server.requests.filter((r) => r.path.endsWith('rows/move'))).toEqual([]);
  });

  test('a group collapses to its header (its rows not drawn, arrows pass them), stays so in this browser, and opens again', async () => {
    // Rows 0–1 are «Срочно», rows 2–4 have no value.
    const grouped = { groupBy: { fieldId: 'tag' } };
    const tag = (i: number): Record<string, RowValue> => (i < 2 ? { tag: 'o1' } : {});
    const first = await setup(true, 5, grouped, tag);
    const collapse = await screen.findByRole('button', { name: 'Свернуть группу «Срочно»' });
    expect(collapse.getAttribute('aria-expanded')).toBe('true');
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    expect(first.grid.querySelectorAll('.db-row')).toHaveLength(5);
    // Grouped: rows keep the groups' order, so they do not move by hand.
    expect(first.grid.querySelector('[data-drag]')).toBeNull();
    fireEvent.mouseDown(first.cell(3, 0));
    fireEvent.click(collapse);
    const expand = screen.getByRole('button', { name: 'Развернуть группу «Срочно»' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    expect(first.titles(5)).toEqual([undefined, undefined, 'Строка 2', 'Строка 3', 'Строка 4']);
    expect(first.grid.querySelectorAll('.db-group')).toHaveLength(2);
    // ↑ from the first open row: the collapsed rows are passed over, there is nothing above.
    fireEvent.keyDown(first.sink, { key: 'ArrowUp' });
    fireEvent.keyDown(first.sink, { key: 'ArrowUp' });
    expect(first.cell(2, 0).className).toContain('is-active');
    expect(JSON.parse(localStorage.getItem('db.collapsedGroups:db:v1')!)).toEqual({ fieldId: 'tag', groups: ['"o1"'] });
    expect(first.server.requests.filter((r) => r.method !== 'GET')).toEqual([]);

    // Drawn again (a reload): still collapsed; opened, its rows are back.
    first.unmount();
    clearRowStores();
    const second = await setup(true, 5, grouped, tag);
    fireEvent.click(await screen.findByRole('button', { name: 'Развернуть группу «Срочно»' }));
    expect(second.titles(5)).toEqual(['Строка 0', 'Строка 1', 'Строка 2', 'Строка 3', 'Строка 4']);
    expect(localStorage.getItem('db.collapsedGroups:db:v1')).toBeNull();
  });
});

describe('a new Timeline view', () => {
  const fields = (...types: Array<'text' | 'date' | 'number'>): DatabaseConfig => ({
    fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, ...Object.fromEntries(types.map((type, i) => [`f${i}`, { name: `Поле ${i}`, type }])) },
  });
  test("bars from the first date field to the second (none: the first one's ranges), by weeks; no date field, no timeline yet", () => {
    expect(newTimelineLayout(fields('number', 'date', 'text', 'date', 'date'), 'Хронология')).toMatchObject({
      type: 'timeline',
      name: 'Хронология',
      timeline: { startFieldId: 'f1', endFieldId: 'f3', scale: 'week' },
    });
    expect(newTimelineLayout(fields('date', 'number'), 'Хронология').timeline).toEqual({ startFieldId: 'f0', endFieldId: null, scale: 'week' });
    expect(newTimelineLayout(fields('number'), 'Хронология').timeline).toBeNull();
    expect(newTimelineLayout(fields('date'), 'Хронология').orderedFields.map((f) => f.fieldId)).toEqual([MAIN_FIELD_ID, 'f0']);
  });
});
