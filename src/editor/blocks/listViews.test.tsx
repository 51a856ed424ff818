import { act, fireEvent, screen } from '@testing-library/react';
import { Transforms } from 'slate';
import type { BlockElement, OrderedListElement } from '../../../schema/slate';
import { renderEditor } from './testing';

const block = (type: string, uid: string, text: string, extra: object = {}) => ({ type, uid, version: 1, children: [{ text }], ...extra }) as BlockElement;
const markers = (container: HTMLElement, type: string) =>
  Array.from(container.querySelectorAll(`.block-${type} > .block-list-marker`)).map((m) => m.textContent);

describe('quote and bulleted list views', () => {
  test('a quote is a blockquote with its text; empty ones show a placeholder', () => {
    const { container } = renderEditor([block('quoteBlock', 'q', 'Быть или не быть'), block('quoteBlock', 'q2', '')]);
    const quotes = container.querySelectorAll('blockquote.block-quoteBlock');
    expect(quotes).toHaveLength(2);
    expect(quotes[0].textContent).toContain('Быть или не быть');
    expect(quotes[0].getAttribute('data-block-id')).toBe('q');
    expect(quotes[1].getAttribute('data-placeholder')).toBe('Цитата');
  });

  test('bullets change with depth and are not editable text', () => {
    const { container } = renderEditor([
      block('bulletListBlock', 'a', 'один'),
      block('bulletListBlock', 'b', 'два', { depth: 1 }),
      block('bulletListBlock', 'c', '', { depth: 2 }),
    ]);
    expect(markers(container, 'bulletListBlock')).toEqual(['•', '◦', '▪']);
    const marker = container.querySelector('.block-list-marker')!;
    expect(marker.getAttribute('contenteditable')).toBe('false');
    expect(container.querySelector('[data-block-id="c"] .block-list-content')!.getAttribute('data-placeholder')).toBe('Список');
  });

  test('list blocks are lists to assistive technology: each a list of one item, its nesting as aria-level; the text stays editable', () => {
    renderEditor([
      block('bulletListBlock', 'a', 'один'),
      block('bulletListBlock', 'b', 'два', { depth: 1 }),
      block('orderedListBlock', 'c', 'три'),
      block('textBlock', 't', 'абзац'),
    ]);
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => [item.textContent, item.getAttribute('aria-level')])).toEqual([
      ['один', '1'],
      ['два', '2'],
      ['три', '1'],
    ]);
    expect(screen.getAllByRole('list')).toHaveLength(3);
    for (const item of items) expect(item.closest('[contenteditable="true"]')).not.toBeNull();
    // The number of an ordered item is read with it; a bullet is not.
    expect(screen.getAllByRole('list')[2].textContent).toBe('1.три');
  });
});

describe('ordered list view', () => {
  test('numbers follow the run, forced starts and nesting', () => {
    const { container } = renderEditor([
      block('orderedListBlock', 'a', 'раз'),
      block('orderedListBlock', 'b', 'два'),
      block('orderedListBlock', 'b1', 'вложенный', { depth: 1 }),
      block('orderedListBlock', 'c', 'три'),
      block('textBlock', 't', 'перерыв'),
      block('orderedListBlock', 'd', 'пять', { forcedOrder: 5 }),
      block('orderedListBlock', 'e', 'шесть'),
    ]);
    expect(markers(container, 'orderedListBlock')).toEqual(['1.', '2.', '1.', '3.', '5.', '6.']);
  });

  test('numbers below an edit follow it (removing, inserting, forcing)', async () => {
    const { editor, container } = renderEditor([
      block('orderedListBlock', 'a', 'раз'),
      block('orderedListBlock', 'b', 'два'),
      block('orderedListBlock', 'c', 'три'),
    ]);
    await act(async () => void Transforms.removeNodes(editor, { at: [1] }));
    expect(markers(container, 'orderedListBlock')).toEqual(['1.', '2.']);
    await act(async () => void Transforms.insertNodes(editor, block('orderedListBlock', 'x', 'новый'), { at: [1] }));
    expect(markers(container, 'orderedListBlock')).toEqual(['1.', '2.', '3.']);
    await act(async () => void Transforms.setNodes<OrderedListElement>(editor, { forcedOrder: 10 }, { at: [1] }));
    expect(markers(container, 'orderedListBlock')).toEqual(['10.', '11.', '12.']);
    await act(async () => void Transforms.insertNodes(editor, block('textBlock', 'y', 'стоп'), { at: [2] }));
    expect(markers(container, 'orderedListBlock')).toEqual(['10.', '1.', '2.']);
  });
});

describe('checkbox view', () => {
  test('clicking the box checks and unchecks the item; checked items are struck through', async () => {
    const { editor, container } = renderEditor([block('checkboxBlock', 'k', 'Купить хлеб', { checked: false })]);
    // Named by its item's text (issue 37), as a screen reader reads it.
    const box = screen.getByRole('checkbox', { name: 'Купить хлеб' }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    await act(async () => void fireEvent.click(box));
    expect((editor.children[1] as BlockElement & { checked?: boolean }).checked).toBe(true);
    expect(box.checked).toBe(true);
    expect(container.querySelector('[data-block-id="k"]')!.classList.contains('is-checked')).toBe(true);
    await act(async () => void fireEvent.click(box));
    expect((editor.children[1] as BlockElement & { checked?: boolean }).checked).toBe(false);
    expect(container.querySelector('[data-block-id="k"]')!.classList.contains('is-checked')).toBe(false);
  });

  test('a block just turned into a checkbox shows unchecked; an empty one a placeholder', () => {
    const { container } = renderEditor([block('checkboxBlock', 'k', '')]);
    expect((screen.getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
    expect(container.querySelector('.block-list-content')!.getAttribute('data-placeholder')).toBe('Задача');
    // Empty, the box says what it does.
    expect(screen.getByRole('checkbox', { name: 'Отметить выполненной' })).toBeTruthy();
  });

  test('read-only pages cannot toggle', async () => {
    const { editor } = renderEditor([block('checkboxBlock', 'k', 'Дело', { checked: true })], { readOnly: true });
    const box = screen.getByRole('checkbox') as HTMLInputElement;
    expect(box.disabled).toBe(true);
    await act(async () => void fireEvent.click(box));
    expect((editor.children[1] as BlockElement & { checked?: boolean }).checked).toBe(true);
  });
});
