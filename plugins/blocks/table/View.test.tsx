import { act, fireEvent, screen } from '@testing-library/react';
import { Editor, Transforms } from 'slate';
import { ReactEditor } from 'slate-react';
import { tableBlock, type TableData } from './block';
import type { TableElement } from '../../../schema/slate';
import { installPointerEvents, renderEditor, wireBlock } from '../../../src/editor/blocks/testing';

const data: TableData = {
  tokens: [
    { text: 'Имя', tableAddress: { x: 0, y: 0 } },
    { text: 'Роль', tableAddress: { x: 1, y: 0 } },
    { text: 'Аня', tableAddress: { x: 0, y: 1 } },
    { text: 'жирно', bold: true, tableAddress: { x: 1, y: 1 } },
  ],
  tableLayout: { columns: 2, rows: 2, columnSizes: [150, 90] },
  headerRow: true,
  headerColumn: false,
};

/** A click, then the render Slate schedules after the change. */
const click = (name: string) => act(async () => fireEvent.click(screen.getByRole('button', { name })));

const tableOf = (editor: Editor) => editor.children[1] as TableElement;
const cellsText = (container: HTMLElement) =>
  Array.from(container.querySelectorAll('tr')).map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => (td.textContent ?? '').replace(/\uFEFF/g, '')));

describe('TableView', () => {
  beforeAll(installPointerEvents);

  it('read-only, its sideways-scrolling box is a named Tab stop (axe scrollable-region-focusable); editable, the caret scrolls it', () => {
    renderEditor([wireBlock('t1', 'table', data)], { readOnly: true });
    const region = screen.getByRole('region', { name: 'Таблица' });
    expect(region.classList.contains('table-scroll')).toBe(true);
    expect(region.tabIndex).toBe(0);
  });

  it('editable, the scroll box adds no Tab stop inside the text', () => {
    const { container } = renderEditor([wireBlock('t1', 'table', data)]);
    expect(container.querySelector('.table-scroll')!.hasAttribute('tabindex')).toBe(false);
    expect(screen.queryByRole('region', { name: 'Таблица' })).toBeNull();
  });

  it('draws a real table with the cells, the column widths and the header row flag', () => {
    const { container } = renderEditor([wireBlock('t1', 'table', data)]);
    const root = container.querySelector('[data-block-id="t1"]')!;
    expect(root.classList.contains('block-table')).toBe(true);
    expect(root.hasAttribute('data-header-row')).toBe(true);
    expect(root.hasAttribute('data-header-column')).toBe(false);
    expect(cellsText(container)).toEqual([
      ['Имя', 'Роль'],
      ['Аня', 'жирно'],
    ]);
    expect(Array.from(container.querySelectorAll('col')).map((c) => (c as HTMLElement).style.width)).toEqual(['150px', '90px']);
    expect((container.querySelector('table') as HTMLElement).style.width).toBe('240px');
    expect(container.querySelector('td strong')!.textContent).toBe('жирно');
    // No toolbar until the caret is in the table.
    expect(screen.queryByRole('toolbar')).toBeNull();
  });

  it('shows the Russian toolbar when the caret is in a cell, and its buttons change the grid', async () => {
    const { editor, container } = renderEditor([wireBlock('t1', 'table', data)]);
    await act(async () => Transforms.select(editor, { path: [1, 0, 1, 0], offset: 0 }));
    expect(screen.getByRole('toolbar', { name: 'Действия с таблицей' })).toBeTruthy();

    await click('Строка ниже');
    expect(cellsText(container)).toEqual([
      ['Имя', 'Роль'],
      ['', ''],
      ['Аня', 'жирно'],
    ]);

    await click('Столбец слева');
    expect(cellsText(container)).toEqual([
      ['Имя', '', 'Роль'],
      ['', '', ''],
      ['Аня', '', 'жирно'],
    ]);
    expect(Array.from(container.querySelectorAll('col')).map((c) => (c as HTMLElement).style.width)).toEqual(['150px', '120px', '90px']);

    const wire = tableBlock.toWireData(tableOf(editor));
    expect(wire.tokens.map((t) => `${t.text}@${t.tableAddress!.x},${t.tableAddress!.y}`)).toEqual(['Имя@0,0', 'Роль@2,0', 'Аня@0,2', 'жирно@2,2']);

    // The caret is now in the new column (the cell shifted right): delete the column it is in.
    await act(async () => Transforms.select(editor, { path: [1, 0, 1, 0], offset: 0 }));
    await click('Удалить столбец');
    expect(cellsText(container)).toEqual([
      ['Имя', 'Роль'],
      ['', ''],
      ['Аня', 'жирно'],
    ]);
    await act(async () => Transforms.select(editor, { path: [1, 1, 0, 0], offset: 0 }));
    await click('Удалить строку');
    expect(cellsText(container)).toEqual([
      ['Имя', 'Роль'],
      ['Аня', 'жирно'],
    ]);
    expect(tableOf(editor).tableLayout).toEqual({ columns: 2, rows: 2, columnSizes: [150, 90] });

    const headerRow = screen.getByRole('button', { name: 'Строка заголовков' });
    expect(headerRow.getAttribute('aria-pressed')).toBe('true');
    await act(async () => fireEvent.click(headerRow));
    expect(tableOf(editor).headerRow).toBe(false);
    expect(container.querySelector('[data-block-id="t1"]')!.hasAttribute('data-header-row')).toBe(false);
    await click('Столбец заголовков');
    expect(tableOf(editor).headerColumn).toBe(true);
  });

  it('dragging a column edge resizes it and saves the size on release', async () => {
    const { editor, container } = renderEditor([wireBlock('t1', 'table', data)]);
    const handle = container.querySelectorAll('td')[0].querySelector('.table-resize-handle')!;
    fireEvent.pointerDown(handle, { button: 0, clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(handle, { clientX: 160, pointerId: 1 });
    expect((container.querySelector('col') as HTMLElement).style.width).toBe('210px');
    expect(tableOf(editor).tableLayout.columnSizes).toEqual([150, 90]);
    await act(async () => fireEvent.pointerUp(handle, { clientX: 160, pointerId: 1 }));
    expect(tableOf(editor).tableLayout.columnSizes).toEqual([210, 90]);
    expect((container.querySelector('col') as HTMLElement).style.width).toBe('210px');
  });

  it('read-only tables have no toolbar and no resize handles', async () => {
    const { editor, container } = renderEditor([wireBlock('t1', 'table', data)], { readOnly: true });
    await act(async () => Transforms.select(editor, { path: [1, 0, 0, 0], offset: 0 }));
    expect(screen.queryByRole('toolbar')).toBeNull();
    expect(container.querySelector('.table-resize-handle')).toBeNull();
    expect(cellsText(container)).toEqual([
      ['Имя', 'Роль'],
      ['Аня', 'жирно'],
    ]);
  });

  it('each cell maps back to its Slate path', () => {
    const { editor, container } = renderEditor([wireBlock('t1', 'table', data)]);
    const td = container.querySelectorAll('td')[3];
    const node = ReactEditor.toSlateNode(editor, td);
    expect(ReactEditor.findPath(editor, node)).toEqual([1, 1, 1]);
  });
});
