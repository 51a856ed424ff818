import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MAIN_FIELD_ID, type DatabaseConfig, type DatabaseField, type DatabaseView, type RowValue } from '../../../../schema/blocks/database';
import type { WireUser } from '../../../../schema/user';
import { dismissAllToasts } from '../../../ui/Toast';
import { databaseApi } from '../api';
import { CellEditor, type EditorMove } from './cells';
import { fakeDatabaseServer, layOutGrid, makeRow } from '../fakeDatabaseServer';
import { mountDatabase } from '../mountDatabase';
import { RowFields } from '../rows/RowFields';
import { clearRowStores } from '../rows/rowStore';
import { localToday } from './dateText';

/** Issue 34 §2: the cell editors under the fingers — bad input said, a checkbox's keys, the option lists' keyboard. */

afterEach(() => {
  clearRowStores();
  dismissAllToasts();
  localStorage.clear();
});

layOutGrid();

const flush = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));
const wait = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

describe('in the grid', () => {
  const config: DatabaseConfig = {
    fields: {
      [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
      sum: { name: 'Сумма', type: 'number' },
      done: { name: 'Готово', type: 'checkbox' },
    },
  };
  const view = (): DatabaseView => ({
    layouts: [{ uid: 'v1', type: 'table', name: 'Таблица', orderedFields: ['MAIN_FIELD', 'sum', 'done'].map((fieldId) => ({ fieldId, isWrap: false })) }],
  });

  async function setup() {
    const { server, sink, cell } = await mountDatabase(
      config,
      view(),
      Array.from({ length: 3 }, (_, i) => makeRow(i, { sum: i * 10 })),
    );
    const writes = () => server.requests.filter((r) => r.method === 'POST');
    return { server, sink, cell, writes };
  }

  test('«около 12» in a number cell: Enter keeps the editor open and says why, nothing is written; fixed it is written, Escape cancels', async () => {
    const { server, sink, cell, writes } = await setup();
    fireEvent.mouseDown(cell(1, 1));
    fireEvent.keyDown(sink, { key: 'Enter' });
    const editor = screen.getByLabelText('Значение ячейки') as HTMLTextAreaElement;
    fireEvent.change(editor, { target: { value: 'около 12' } });
    fireEvent.keyDown(editor, { key: 'Enter' });
    await flush();
    // Still open, the text as typed, and why it was refused (named by the editor).
    expect(screen.getByLabelText('Значение ячейки')).toBe(editor);
    expect(editor.value).toBe('около 12');
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    const hint = screen.getByRole('alert');
    expect(hint.textContent).toBe('Не число: «около 12». Исправьте или нажмите Esc');
    expect(editor.getAttribute('aria-describedby')).toBe(hint.id);
    // Tab does not take it either.
    fireEvent.keyDown(editor, { key: 'Tab' });
    await flush();
    expect(screen.getByLabelText('Значение ячейки')).toBe(editor);
    expect(writes()).toEqual([]);
    expect(cell(1, 1).textContent).toBe('10');
    // Typing again clears the message; a number is written.
    fireEvent.change(editor, { target: { value: '12,5' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(editor.getAttribute('aria-invalid')).toBeNull();
    fireEvent.keyDown(editor, { key: 'Enter' });
    await flush();
    expect(screen.queryByLabelText('Значение ячейки')).toBeNull();
    expect(server.rows[1].data.values.sum).toBe(12.5);

    // Refused, then Escape: closed, nothing written, the value as it was.
    fireEvent.mouseDown(cell(2, 1));
    fireEvent.keyDown(sink, { key: 'Enter' });
    const second = screen.getByLabelText('Значение ячейки');
    fireEvent.change(second, { target: { value: 'двенадцать' } });
    fireEvent.keyDown(second, { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toMatch(/^Не число: «двенадцать»/);
    fireEvent.keyDown(second, { key: 'Escape' });
    await flush();
    expect(screen.queryByLabelText('Значение ячейки')).toBeNull();
    expect(writes()).toHaveLength(1);
    expect(server.rows[2].data.values.sum).toBe(20);
    // Refused, then a click on another cell closes it: not dropped silently, a note says so.
    fireEvent.keyDown(sink, { key: 'Enter' });
    const third = screen.getByLabelText('Значение ячейки');
    fireEvent.change(third, { target: { value: '1O' } });
    fireEvent.keyDown(third, { key: 'Enter' });
    fireEvent.mouseDown(cell(0, 0));
    await flush();
    expect(screen.queryByLabelText('Значение ячейки')).toBeNull();
    expect(await screen.findByText('Не число: «1O» — значение не записано')).toBeTruthy();
    expect(writes()).toHaveLength(1);
  });

  test('a checkbox cell toggles with Space or Enter only: a typed letter (or F2, or a double click beside the box) does nothing', async () => {
    const { server, sink, cell, writes } = await setup();
    const box = () => cell(0, 2).querySelector('[role="checkbox"]')!.getAttribute('aria-checked');
    fireEvent.mouseDown(cell(0, 1));
    fireEvent.keyDown(sink, { key: 'ArrowRight' });
    expect(cell(0, 2).className).toContain('is-active');
    for (const key of ['x', 'д', '1', 'F2']) fireEvent.keyDown(sink, { key });
    fireEvent.doubleClick(cell(0, 2));
    await flush();
    expect(box()).toBe('false');
    expect(writes()).toEqual([]);
    expect(screen.queryByLabelText('Значение ячейки')).toBeNull();
    fireEvent.keyDown(sink, { key: ' ' });
    await flush();
    expect(server.rows[0].data.values.done).toBe(true);
    expect(box()).toBe('true');
    fireEvent.keyDown(sink, { key: 'Enter' });
    await flush();
    expect(server.rows[0].data.values.done).toBe(false);
    expect(writes()).toHaveLength(2);
    // A click on the box still toggles it.
    fireEvent.mouseDown(cell(1, 2).querySelector('[data-toggle]')!);
    await flush();
    expect(server.rows[1].data.values.done).toBe(true);
  });
});

/** One editor alone over an anchor, as the grid and the row's fields put it; `done`'s calls recorded. */
function editorOf(field: DatabaseField, value: RowValue | undefined, extra: { members?: WireUser[]; initial?: string; addOption?: jest.Mock } = {}) {
  const anchor = document.createElement('div');
  document.body.append(anchor);
  const done = jest.fn<void, [RowValue | undefined, EditorMove]>();
  const addOption = extra.addOption ?? jest.fn(() => null);
  render(
    <CellEditor
      field={field}
      fieldId="f"
      value={value}
      initial={extra.initial}
      anchor={anchor}
      members={extra.members ?? []}
      done={done}
      addOption={addOption}
      rowId="row-0"
      databaseId="db"
    />,
  );
  const options = () => screen.getAllByRole('option');
  const names = () => options().map((o) => o.textContent!.replace('✓', '').trim());
  /** The highlighted option's text (named by the search box's aria-activedescendant, drawn `is-active`); null: none. */
  const highlighted = (search: HTMLElement) => {
    const id = search.getAttribute('aria-activedescendant');
    const active = options().filter((o) => o.classList.contains('is-active'));
    if (!id) {
      expect(active).toEqual([]);
      return null;
    }
    const option = document.getElementById(id)!;
    expect(active).toEqual([option]);
    expect(option.getAttribute('role')).toBe('option');
    return option.textContent!.replace('✓', '').trim();
  };
  return { done, addOption, options, names, highlighted };
}

const person = (id: string, name: string): WireUser => ({
  id,
  name,
  email: `${id}@example.com`,
  avatar_url: null,
  anonymous: false,
  telegramId: null,
  createdAt: '2026-01-01T00:00:00Z',
});

describe('the person editor', () => {
  const members = [person('yana', 'Яна'), person('boris', 'Борис'), person('anna', 'Анна')];
  const field: DatabaseField = { name: 'Ответственные', type: 'person' };

  test('↑/↓ highlight a person (visibly, aria-activedescendant), Enter chooses the highlighted one, Enter with none highlighted writes', () => {
    const { done, highlighted, options } = editorOf(field, null, { members });
    const search = screen.getByLabelText('Найти человека');
    expect(highlighted(search)).toBeNull();
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    expect(highlighted(search)).toBe('Яна');
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    expect(highlighted(search)).toBe('Борис');
    fireEvent.keyDown(search, { key: 'Enter' });
    // Chosen; the editor stays for more, nothing highlighted.
    expect(options()[1].getAttribute('aria-selected')).toBe('true');
    expect(highlighted(search)).toBeNull();
    expect(done).not.toHaveBeenCalled();
    // ↑ from none goes to the last; round past the first to the last again.
    fireEvent.keyDown(search, { key: 'ArrowUp' });
    expect(highlighted(search)).toBe('Анна');
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    expect(highlighted(search)).toBe('Яна');
    fireEvent.keyDown(search, { key: 'ArrowUp' });
    fireEvent.keyDown(search, { key: 'Enter' });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(done).toHaveBeenCalledTimes(1);
    expect(done).toHaveBeenCalledWith(['boris', 'anna'], 'down');
  });

  test('typing filters and highlights the first match; Enter picks it (or drops one chosen); no match: Enter does nothing', () => {
    const { done, highlighted, names, options } = editorOf(field, ['yana'], { members });
    const search = screen.getByLabelText('Найти человека');
    fireEvent.change(search, { target: { value: 'анн ' } });
    expect(names()).toEqual(['Анна']);
    expect(highlighted(search)).toBe('Анна');
    fireEvent.keyDown(search, { key: 'Enter' });
    // The search starts again: everyone shown, Анна chosen beside Яна.
    expect((search as HTMLInputElement).value).toBe('');
    expect(names()).toEqual(['Яна', 'Борис', 'Анна']);
    expect(options().map((o) => o.getAttribute('aria-selected'))).toEqual(['true', 'false', 'true']);
    fireEvent.change(search, { target: { value: 'Яна' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    fireEvent.change(search, { target: { value: 'никто' } });
    expect(screen.queryAllByRole('option')).toEqual([]);
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(done).not.toHaveBeenCalled();
    fireEvent.change(search, { target: { value: '' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(done).toHaveBeenCalledWith(['anna'], 'down');
  });
});

describe('the relation editor', () => {
  const field: DatabaseField = { name: 'Связи', type: 'relation' };
  test('rows found by title; ↓ Enter chooses one; typed text filters at once (before the search answers) and Enter takes the first match', async () => {
    const server = fakeDatabaseServer(
      { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, f: field } },
      { layouts: [] },
      ['Сама строка', 'Дизайн', 'Документация', 'Выпуск'].map((title, i) => makeRow(i, {}, title)),
    );
    globalThis.fetch = server.fetch;
    const { done, highlighted, names } = editorOf(field, null);
    await wait(200);
    const search = screen.getByLabelText('Найти строку');
    // The row itself is not offered.
    expect(names()).toEqual(['Дизайн', 'Документация', 'Выпуск']);
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    expect(highlighted(search)).toBe('Выпуск');
    fireEvent.keyDown(search, { key: 'Enter' });
    // Typed and answered: the rows found by the server.
    fireEvent.change(search, { target: { value: 'ди' } });
    await wait(200);
    expect(server.requests.at(-1)?.query.search).toBe('ди');
    expect(names()).toEqual(['Дизайн']);
    fireEvent.change(search, { target: { value: '' } });
    await wait(200);
    // Typed and Enter at once, before the search for it is answered: only rows that hold the text are offered.
    fireEvent.change(search, { target: { value: 'док' } });
    expect(names()).toEqual(['Документация']);
    expect(highlighted(search)).toBe('Документация');
    fireEvent.keyDown(search, { key: 'Enter' });
    await wait(200);
    // Chosen rows first, then the others found.
    expect(names()).toEqual(['Выпуск', 'Документация', 'Дизайн']);
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(done).toHaveBeenCalledWith(['row-3', 'row-2'], 'down');
  });
});

describe('the options editor', () => {
  const options = [
    { id: 'o1', name: 'Срочно', color: 'red' as const },
    { id: 'o2', name: 'Потом', color: 'blue' as const },
    { id: 'o3', name: 'Срочно-срочно', color: 'green' as const },
  ];

  test('multi-select: ↓ Enter chooses the highlighted option with nothing typed; typing filters, Enter picks the first match or creates; Enter with none highlighted writes', () => {
    const addOption = jest.fn(() => 'new-id');
    const { done, highlighted, names } = editorOf({ name: 'Метки', type: 'multiSelect', options }, null, { addOption });
    const search = screen.getByLabelText('Найти или создать');
    expect(highlighted(search)).toBeNull();
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    expect(highlighted(search)).toBe('Потом');
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(done).not.toHaveBeenCalled();
    fireEvent.change(search, { target: { value: 'сроч' } });
    expect(names()).toEqual(['Срочно', 'Срочно-срочно', 'Создать сроч']);
    expect(highlighted(search)).toBe('Срочно');
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    fireEvent.keyDown(search, { key: 'Enter' });
    fireEvent.change(search, { target: { value: 'Новая' } });
    expect(highlighted(search)).toBe('Создать Новая');
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(addOption).toHaveBeenCalledWith('f', 'Новая');
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(done).toHaveBeenCalledWith(['o2', 'o3', 'new-id'], 'down');
  });

  test('select: Enter with nothing typed or highlighted leaves the value as it was; typed, Enter picks the first match', () => {
    const first = editorOf({ name: 'Метка', type: 'select', options }, 'o2');
    fireEvent.keyDown(screen.getByLabelText('Найти или создать'), { key: 'Enter' });
    expect(first.done).toHaveBeenCalledWith(undefined, 'down');
  });

  test('status: typing filters (from the letter that opened it), Enter picks the first match', () => {
    const { done, highlighted, names } = editorOf(
      {
        name: 'Статус',
        type: 'status',
        options: [
          { id: 's1', name: 'Не начато', group: 'todo' },
          { id: 's2', name: 'В работе', group: 'inProgress' },
          { id: 's3', name: 'Готово', group: 'done' },
        ],
      },
      's1',
      { initial: 'г' },
    );
    const search = screen.getByLabelText('Найти или создать');
    expect(names()).toEqual(['Готово', 'Создать г']);
    expect(highlighted(search)).toBe('Готово');
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(done).toHaveBeenCalledWith('s3', 'stay');
  });
});

describe("a row's fields (the side peek, the row's page)", () => {
  test('a refused number stays in its editor; another field opened then gets its own editor, not the refused text', async () => {
    const config: DatabaseConfig = {
      fields: {
        [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
        sum: { name: 'Сумма', type: 'number' },
        note: { name: 'Заметка', type: 'text' },
      },
    };
    const server = fakeDatabaseServer(config, { layouts: [] }, [makeRow(0, { sum: 5, note: 'черновик' })]);
    globalThis.fetch = server.fetch;
    render(<RowFields rowId="row-0" databaseId="db" config={config} editable api={databaseApi} members={[]} saveField={async () => true} />);
    // Named by the field and the value it shows (WCAG 2.5.3).
    fireEvent.click(await screen.findByRole('button', { name: 'Сумма 5' }));
    const number = screen.getByLabelText('Значение ячейки') as HTMLTextAreaElement;
    fireEvent.change(number, { target: { value: 'около 12' } });
    fireEvent.keyDown(number, { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toMatch(/^Не число: «около 12»/);
    // Left for another field (the click's blur is refused too: the editor stays until replaced).
    fireEvent.blur(number);
    fireEvent.click(screen.getByRole('button', { name: 'Заметка черновик' }));
    const text = screen.getByLabelText('Значение ячейки') as HTMLTextAreaElement;
    expect(text.value).toBe('черновик');
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.change(text, { target: { value: 'готово' } });
    fireEvent.keyDown(text, { key: 'Enter' });
    await flush();
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => [r.path, (r.body as { value: unknown }).value])).toEqual([
      ['row/row-0/cells/note', 'готово'],
    ]);
    expect(server.rows[0].data.values).toEqual({ sum: 5, note: 'готово' });
  });

  test('a date field is typed the Russian way there too: «01.12.2026» written, «31.02.2026» refused', async () => {
    const config: DatabaseConfig = {
      fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, due: { name: 'Срок', type: 'date' } },
    };
    const server = fakeDatabaseServer(config, { layouts: [] }, [makeRow(0, { due: '2026-11-25' })]);
    globalThis.fetch = server.fetch;
    render(<RowFields rowId="row-0" databaseId="db" config={config} editable api={databaseApi} members={[]} saveField={async () => true} />);
    fireEvent.click(await screen.findByRole('button', { name: /^Срок/ }));
    const field = screen.getByLabelText('Дата') as HTMLInputElement;
    expect(field.value).toBe('25.11.2026');
    fireEvent.change(field, { target: { value: '31.02.2026' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toBe('Такого дня нет: «31.02.2026»');
    fireEvent.change(field, { target: { value: '01.12.2026' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await flush();
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => [r.path, (r.body as { value: unknown }).value])).toEqual([
      ['row/row-0/cells/due', '2026-12-01'],
    ]);
  });
});

describe('the date editor (our own: dates the Russian way, whatever the browser’s language)', () => {
  const day: DatabaseField = { name: 'Срок', type: 'date' };
  const timed: DatabaseField = { name: 'Встреча', type: 'date', withTime: true };
  const input = (name = 'Дата') => screen.getByLabelText(name) as HTMLInputElement;

  test('«01.12.2026» typed is the 1st of December 2026 (it saved 0026-11-22 with the browser’s input); the field shows дд.мм.гггг and what it reads', () => {
    const { done } = editorOf(day, '2026-11-25');
    expect(input().value).toBe('25.11.2026');
    expect(document.activeElement).toBe(input());
    fireEvent.change(input(), { target: { value: '01.12.2026' } });
    expect(screen.getByText('1 дек. 2026 г.')).toBeTruthy();
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(done).toHaveBeenCalledWith('2026-12-01', 'down');
  });

  test.each([
    ['1.12', `${new Date().getFullYear()}-12-01`],
    ['01122026', '2026-12-01'],
    ['2026-12-01', '2026-12-01'],
    ['сегодня', localToday()],
    ['', null],
  ])('%j is written as %j', (text, value) => {
    const { done } = editorOf(day, '2026-11-25');
    fireEvent.change(input(), { target: { value: text } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(done).toHaveBeenCalledWith(value, 'down');
  });

  test('an impossible date is refused where it was typed: said under it (aria-invalid, aria-describedby), the editor stays open through Enter, «Готово» and a blur; typing clears it; Escape cancels', () => {
    const { done } = editorOf(day, '2026-11-25');
    fireEvent.change(input(), { target: { value: '31.02.2026' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    const hint = screen.getByRole('alert');
    expect(hint.textContent).toBe('Такого дня нет: «31.02.2026»');
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(input().getAttribute('aria-describedby')).toBe(hint.id);
    fireEvent.click(screen.getByRole('button', { name: 'Готово' }));
    fireEvent.blur(input(), { relatedTarget: document.body });
    expect(done).not.toHaveBeenCalled();
    expect(input().value).toBe('31.02.2026');
    for (const [text, said] of [
      ['01.13.2026', 'Такого месяца нет: «01.13.2026»'],
      ['32.01', 'Такого дня нет: «32.01»'],
      ['около 12', 'Не дата: «около 12». Пишите дд.мм.гггг, например 01.12.2026'],
      ['01.12.2026 14:30', 'У этого поля нет времени: «01.12.2026 14:30». Включите «Со временем» в меню поля или сотрите время'],
    ]) {
      fireEvent.change(input(), { target: { value: text } });
      expect(screen.queryByRole('alert')).toBeNull();
      expect(input().getAttribute('aria-invalid')).toBeNull();
      fireEvent.keyDown(input(), { key: 'Enter' });
      expect(screen.getByRole('alert').textContent).toBe(said);
    }
    expect(done).not.toHaveBeenCalled();
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(done).toHaveBeenCalledWith(undefined, 'stay');
  });

  test('the calendar: the chosen month, Monday first, today and the chosen day marked; ↓ goes into it, the arrows move the day, Enter picks it, Enter writes', () => {
    const { done } = editorOf(day, '2026-12-01');
    const grid = screen.getByRole('grid', { name: 'Декабрь 2026' });
    expect([...grid.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['пн', 'вт', 'ср', 'чт', 'пт', 'сб', 'вс']);
    // 1 December 2026 is a Tuesday: the grid starts on Monday 30 November.
    const days = screen.getAllByRole('gridcell');
    expect(days).toHaveLength(42);
    expect(days[0].getAttribute('aria-label')).toBe('30 ноября 2026 г.');
    expect(days[0].className).toContain('is-outside');
    const chosen = screen.getByRole('gridcell', { name: '1 декабря 2026 г.' });
    expect(chosen.getAttribute('aria-selected')).toBe('true');
    expect(chosen.className).toContain('is-chosen');
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(chosen);
    fireEvent.keyDown(chosen, { key: 'ArrowRight' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement!.getAttribute('aria-label')).toBe('9 декабря 2026 г.');
    // Into the next month: the grid follows.
    fireEvent.keyDown(document.activeElement!, { key: 'PageDown' });
    expect(screen.getByRole('grid').getAttribute('aria-label')).toBe('Январь 2027');
    expect(document.activeElement!.getAttribute('aria-label')).toBe('9 января 2027 г.');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    // Picked: in the field, which has the focus again; the editor is still open.
    expect(input().value).toBe('08.01.2027');
    expect(document.activeElement).toBe(input());
    expect(done).not.toHaveBeenCalled();
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(done).toHaveBeenCalledWith('2027-01-08', 'down');
  });

  test('the calendar by the mouse: ←/→ change the month, a click picks the day; today is marked', () => {
    const { done } = editorOf(day, null);
    const today = localToday();
    const mark = screen.getAllByRole('gridcell').find((c) => c.getAttribute('aria-current') === 'date')!;
    expect(mark.getAttribute('data-day')).toBe(today);
    expect(mark.className).toContain('is-today');
    const title = screen.getByRole('grid').getAttribute('aria-label');
    fireEvent.click(screen.getByRole('button', { name: 'Следующий месяц' }));
    fireEvent.click(screen.getByRole('button', { name: 'Предыдущий месяц' }));
    fireEvent.click(screen.getByRole('button', { name: 'Предыдущий месяц' }));
    expect(screen.getByRole('grid').getAttribute('aria-label')).not.toBe(title);
    const [y, m] = today.split('-').map(Number);
    const previous = new Date(Date.UTC(y, m - 2, 15)).toISOString().slice(0, 10);
    fireEvent.click(screen.getByRole('gridcell', { name: new Intl.DateTimeFormat('ru', { dateStyle: 'long', timeZone: 'UTC' }).format(Date.parse(previous)) }));
    expect(input().value).toBe(`15.${previous.slice(5, 7)}.${previous.slice(0, 4)}`);
    fireEvent.click(screen.getByRole('button', { name: 'Готово' }));
    expect(done).toHaveBeenCalledWith(previous, 'stay');
  });

  test('with a time: «дд.мм.гггг чч:мм» shown and read (the local time); a picked day keeps the time; untouched, nothing is written', () => {
    const moment = new Date(2026, 11, 1, 14, 30).toISOString();
    const first = editorOf(timed, moment);
    expect(input().value).toBe('01.12.2026 14:30');
    expect(input().placeholder).toBe('дд.мм.гггг чч:мм');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(first.done).toHaveBeenCalledWith(undefined, 'down');
    first.done.mockClear();
    cleanup();

    const { done } = editorOf(timed, moment);
    fireEvent.click(screen.getByRole('gridcell', { name: '3 декабря 2026 г.' }));
    expect(input().value).toBe('03.12.2026 14:30');
    fireEvent.change(input(), { target: { value: '3.12.2026 9:05' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(done).toHaveBeenCalledWith(new Date(2026, 11, 3, 9, 5).toISOString().replace('.000Z', 'Z'), 'down');
  });

  test('a time that does not exist is refused', () => {
    const { done } = editorOf(timed, null);
    fireEvent.change(input(), { target: { value: '01.12.2026 25:00' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toBe('Такого времени нет: «01.12.2026 25:00»');
    expect(done).not.toHaveBeenCalled();
  });

  test('with an end: both typed, the calendar serves the field last focused; an end before the start is refused', () => {
    const { done } = editorOf(day, '2026-12-01');
    fireEvent.click(screen.getByLabelText('Дата окончания'));
    const end = input('Окончание');
    expect(document.activeElement).toBe(end);
    expect(input('Начало').value).toBe('01.12.2026');
    fireEvent.change(end, { target: { value: '30.11.2026' } });
    fireEvent.keyDown(end, { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toBe('Окончание раньше начала');
    expect(end.getAttribute('aria-invalid')).toBe('true');
    expect(done).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('gridcell', { name: '5 декабря 2026 г.' }));
    expect(end.value).toBe('05.12.2026');
    expect(input('Начало').value).toBe('01.12.2026');
    fireEvent.keyDown(end, { key: 'Enter' });
    expect(done).toHaveBeenCalledWith({ start: '2026-12-01', end: '2026-12-05' }, 'down');
  });
});

describe('a date cell in the grid', () => {
  const config: DatabaseConfig = {
    fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, due: { name: 'Срок', type: 'date' } },
  };
  const view = (): DatabaseView => ({
    layouts: [{ uid: 'v1', type: 'table', name: 'Таблица', orderedFields: ['MAIN_FIELD', 'due'].map((fieldId) => ({ fieldId, isWrap: false })) }],
  });

  test('«01.12.2026» is written and shown as the grid shows dates; an impossible one writes nothing, and closed from outside a note says so', async () => {
    const { server, sink, cell } = await mountDatabase(config, view(), [makeRow(0, { due: '2026-11-25' }), makeRow(1)]);
    const writes = () => server.requests.filter((r) => r.method === 'POST');
    fireEvent.mouseDown(cell(0, 1));
    fireEvent.keyDown(sink, { key: 'Enter' });
    fireEvent.change(screen.getByLabelText('Дата'), { target: { value: '01.12.2026' } });
    fireEvent.keyDown(screen.getByLabelText('Дата'), { key: 'Enter' });
    await flush();
    expect(server.rows[0].data.values.due).toBe('2026-12-01');
    expect(cell(0, 1).textContent).toBe('1 дек. 2026 г.');
    // Enter moved down: the next row's cell.
    fireEvent.keyDown(sink, { key: 'Enter' });
    fireEvent.change(screen.getByLabelText('Дата'), { target: { value: '31.02.2026' } });
    fireEvent.keyDown(screen.getByLabelText('Дата'), { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toBe('Такого дня нет: «31.02.2026»');
    fireEvent.mouseDown(cell(0, 0));
    await flush();
    expect(screen.queryByLabelText('Дата')).toBeNull();
    expect(await screen.findByText('Не дата: «31.02.2026» — значение не записано')).toBeTruthy();
    expect(writes()).toHaveLength(1);
    expect(server.rows[1].data.values.due).toBeUndefined();
  });

  test('a key typed on a selected date cell starts its text (not lost), the caret after it', async () => {
    const { server, sink, cell } = await mountDatabase(config, view(), [makeRow(0, { due: '2026-11-25' })]);
    fireEvent.mouseDown(cell(0, 1));
    fireEvent.keyDown(sink, { key: '3' });
    const field = screen.getByLabelText('Дата') as HTMLInputElement;
    expect(field.value).toBe('3');
    expect(document.activeElement).toBe(field);
    expect(field.selectionStart).toBe(1);
    fireEvent.change(field, { target: { value: '3.12.2026' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await flush();
    expect(server.rows[0].data.values.due).toBe('2026-12-03');
  });
});
