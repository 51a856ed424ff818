import { act, fireEvent, screen } from '@testing-library/react';
import { MAIN_FIELD_ID, type DatabaseConfig, type DatabaseView } from '../../../../schema/blocks/database';
import type { DatabaseChange, WireRow } from '../../../../schema/database';
import type { RealtimeConnection } from '../../../app/realtimeConnection';
import { dismissAllToasts } from '../../../ui/Toast';
import { layOutGrid, makeRow } from '../fakeDatabaseServer';
import { mountDatabase } from '../mountDatabase';
import { clearRowStores, REFRESH_DELAY_MS } from '../rows/rowStore';
import { movedItem } from '../useReorderable';

/**
 * Issue 34 §1: the open cell editor, the selection and a paste follow their row's id while others
 * move, insert and delete rows (realtime `database` events reach the row store as in the app).
 */

afterEach(() => {
  clearRowStores();
  dismissAllToasts();
  localStorage.clear();
});

layOutGrid();

const config: DatabaseConfig = {
  fields: {
    [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
    sum: { name: 'Сумма', type: 'number' },
    note: { name: 'Заметка', type: 'text' },
  },
};
const view = (): DatabaseView => ({
  layouts: [{ uid: 'v1', type: 'table', name: 'Таблица', orderedFields: ['MAIN_FIELD', 'sum', 'note'].map((fieldId) => ({ fieldId, isWrap: false })) }],
});

async function setup(openPage?: (id: string) => void) {
  // The page's channel: what the realtime connection would hand the database's events to.
  let onEvent: ((event: string, payload: unknown) => void) | undefined;
  const connection = {
    subscribe: (_name: string, handlers: { onEvent(event: string, payload: unknown): void }) => {
      onEvent = handlers.onEvent;
      return () => undefined;
    },
  } as unknown as RealtimeConnection;
  const { server, grid, sink, cell } = await mountDatabase(
    config,
    view(),
    Array.from({ length: 6 }, (_, i) => makeRow(i, { sum: i * 10 })),
    { live: { connection, userId: 'u1' }, openPage },
  );
  const titles = () => Array.from({ length: server.rows.length }, (_, r) => cell(r, 0)?.firstChild?.textContent);
  /** Someone else's change: the server's rows changed, its event told, the store's read done. */
  const remote = async (change: DatabaseChange) => {
    await act(async () => {
      onEvent!('database', { databaseId: 'db', change });
      await new Promise((resolve) => setTimeout(resolve, REFRESH_DELAY_MS + 30));
    });
    await flush();
  };
  const moveToTop = (id: string) => {
    server.rows = movedItem(server.rows, [id], null, 'after');
    return remote({ kind: 'rows', rows: [JSON.parse(JSON.stringify(server.rows[0])) as WireRow] });
  };
  const cellWrites = () => server.requests.filter((r) => r.method === 'POST' && r.path.startsWith('row/'));
  return { server, grid, sink, cell, titles, remote, moveToTop, cellWrites };
}

const flush = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));
const editor = () => screen.getByLabelText('Значение ячейки') as HTMLTextAreaElement;
const row = (server: { rows: WireRow[] }, id: string) => server.rows.find((r) => r.id === id)!;

describe('the open cell editor follows its row', () => {
  test('a number cell: the row moved to the top meanwhile; the value lands in it, on the version seen, and the active cell follows', async () => {
    const { server, sink, cell, titles, moveToTop, cellWrites } = await setup();
    fireEvent.mouseDown(cell(3, 1));
    fireEvent.keyDown(sink, { key: 'Enter' });
    fireEvent.change(editor(), { target: { value: '777' } });
    await moveToTop('row-3');
    expect(titles().slice(0, 4)).toEqual(['Строка 3', 'Строка 0', 'Строка 1', 'Строка 2']);
    // The typed text survived the move (the editor was not re-opened on another row).
    expect(editor().value).toBe('777');
    fireEvent.keyDown(editor(), { key: 'Enter' });
    await flush();
    expect(cellWrites().map((r) => [r.path, r.body])).toEqual([['row/row-3/cells/sum', { value: 777, version: 0 }]]);
    expect(row(server, 'row-3').data.values.sum).toBe(777);
    // The row now where «Строка 3» was is untouched, and no false conflict was told.
    expect(row(server, 'row-2').data.values.sum).toBe(20);
    expect(screen.queryByText(/только что изменил другой участник/)).toBeNull();
    // Enter moved on from where the row is now: the row below it.
    expect(cell(1, 1).className).toContain('is-active');
  });

  test('a text cell: a row inserted above meanwhile, then another row deleted above; each value lands in its row', async () => {
    const { server, sink, cell, titles, remote, cellWrites } = await setup();
    fireEvent.mouseDown(cell(2, 2));
    fireEvent.keyDown(sink, { key: 'Enter' });
    fireEvent.change(editor(), { target: { value: 'заметка' } });
    const made = makeRow(99, {}, 'Новая');
    server.rows.unshift(made);
    await remote({ kind: 'rows', rows: [made] });
    expect(titles().slice(0, 4)).toEqual(['Новая', 'Строка 0', 'Строка 1', 'Строка 2']);
    expect(editor().value).toBe('заметка');
    fireEvent.keyDown(editor(), { key: 'Enter' });
    await flush();
    expect(cellWrites().map((r) => r.path)).toEqual(['row/row-2/cells/note']);
    expect(row(server, 'row-2').data.values.note).toBe('заметка');
    expect(row(server, 'row-1').data.values.note).toBeUndefined();

    // «Строка 4», now at 5; «Строка 0» above it goes.
    fireEvent.mouseDown(cell(5, 2));
    fireEvent.keyDown(sink, { key: 'Enter' });
    fireEvent.change(editor(), { target: { value: 'вторая' } });
    server.trash.push(...server.rows.filter((r) => r.id === 'row-0'));
    server.rows = server.rows.filter((r) => r.id !== 'row-0');
    await remote({ kind: 'removed', ids: ['row-0'] });
    expect(titles()).toEqual(['Новая', 'Строка 1', 'Строка 2', 'Строка 3', 'Строка 4', 'Строка 5']);
    fireEvent.keyDown(editor(), { key: 'Enter' });
    await flush();
    expect(cellWrites().map((r) => r.path)).toEqual(['row/row-2/cells/note', 'row/row-4/cells/note']);
    expect(row(server, 'row-4').data.values.note).toBe('вторая');
    expect(row(server, 'row-5').data.values.note).toBeUndefined();
  });

  test('its row deleted meanwhile: nothing is written anywhere, a note says so, and «Восстановить строку» brings the row back with the value', async () => {
    const { server, sink, cell, titles, remote } = await setup();
    fireEvent.mouseDown(cell(3, 1));
    fireEvent.keyDown(sink, { key: 'Enter' });
    fireEvent.change(editor(), { target: { value: '55' } });
    server.trash.push(...server.rows.filter((r) => r.id === 'row-3'));
    server.rows = server.rows.filter((r) => r.id !== 'row-3');
    await remote({ kind: 'removed', ids: ['row-3'] });
    expect(titles()).toEqual(['Строка 0', 'Строка 1', 'Строка 2', 'Строка 4', 'Строка 5']);
    fireEvent.keyDown(editor(), { key: 'Enter' });
    await flush();
    await flush();
    expect(server.rows.map((r) => r.data.values.sum)).toEqual([0, 10, 20, 40, 50]);
    expect(server.trash[0].data.values.sum).toBe(30);
    const note = await screen.findByText('Строку удалили, пока вы её редактировали — значение не записано');
    // What the grid shows is what the server has: no row shows 55.
    expect(cell(3, 1).textContent).toBe('40');
    fireEvent.click(note.querySelector('button')!);
    await flush();
    await flush();
    await flush();
    expect(server.trash).toEqual([]);
    expect(row(server, 'row-3').data.values.sum).toBe(55);
    expect(server.rows.map((r) => r.data.values.sum)).toEqual([0, 10, 20, 55, 40, 50]);
  });

  test('the selection follows its row through a move, and a paste started on it writes to it', async () => {
    const { server, sink, cell, moveToTop, cellWrites } = await setup();
    fireEvent.mouseDown(cell(4, 1));
    await moveToTop('row-4');
    expect(cell(0, 1).className).toContain('is-active');
    expect(cell(4, 1).className).not.toContain('is-active');
    // A paste of one value over the active cell: the row selected (now at the top) takes it.
    fireEvent.paste(sink, { clipboardData: { getData: () => '9' } });
    await flush();
    await flush();
    expect(cellWrites().map((r) => r.path)).toEqual(['row/row-4/cells/sum']);
    expect(row(server, 'row-4').data.values.sum).toBe(9);
    expect(row(server, 'row-3').data.values.sum).toBe(30);
  });

  test('a row opened in the side peek stays that row when it is moved', async () => {
    const openPage = jest.fn();
    const { cell, moveToTop } = await setup(openPage);
    fireEvent.mouseDown(cell(3, 0).querySelector('[data-open]')!);
    const peek = await screen.findByRole('dialog', { name: /строк/i });
    await moveToTop('row-3');
    expect(cell(0, 0).firstChild?.textContent).toBe('Строка 3');
    fireEvent.click(peek.querySelector('.db-peek-bar .db-button')!);
    expect(openPage).toHaveBeenCalledWith('row-3');
  });
});
