import { act, fireEvent, screen } from '@testing-library/react';
import { Editor } from 'slate';
import type { BlockElement } from '../../../schema/slate';
import { renderEditor } from '../../../src/editor/blocks/testing';
import { appFolds } from '../../../src/editor/folding';

const el = (type: string, uid: string, text: string, depth = 0) =>
  ({ type, uid, version: 1, children: [{ text }], ...(depth ? { depth } : {}) }) as BlockElement;
const shown = (container: HTMLElement, uid: string) => !container.querySelector(`[data-block-id="${uid}"]`)!.closest('[data-folded-away]');

beforeEach(() => appFolds.reset());

describe('toggle view', () => {
  test('closed by default: its nested blocks are folded away; the triangle opens and closes them', async () => {
    const { container, editor } = renderEditor([
      el('toggleBlock', 't', 'Подробности'),
      el('textBlock', 'c1', 'внутри', 1),
      el('textBlock', 'c2', 'глубже', 2),
      el('textBlock', 'after', 'после'),
    ]);
    expect([shown(container, 'c1'), shown(container, 'c2'), shown(container, 'after')]).toEqual([false, false, true]);
    // Folded away, a block is an empty element in its place: no text, no view (a page of closed toggles opens light).
    expect(container.querySelector('[data-block-id="c1"]')!.innerHTML).toBe('');
    expect(container.textContent).not.toMatch(/внутри|глубже/);
    const triangle = screen.getByRole('button', { name: 'Развернуть' });
    expect(triangle.getAttribute('aria-expanded')).toBe('false');
    await act(async () => void fireEvent.click(triangle));
    expect(editor.folds.isOpen('t')).toBe(true);
    expect([shown(container, 'c1'), shown(container, 'c2')]).toEqual([true, true]);
    expect(container.querySelector('[data-block-id="c2"]')!.textContent).toBe('глубже');
    expect(screen.getByRole('button', { name: 'Свернуть' }).getAttribute('aria-expanded')).toBe('true');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Свернуть' })));
    expect(shown(container, 'c1')).toBe(false);
  });

  test('the caret moved into a folded-away block goes on past it; a change of the document taking it there opens the toggle', async () => {
    const { container, editor } = renderEditor([el('toggleBlock', 't', 'Подробности'), el('textBlock', 'c', 'внутри', 1), el('textBlock', 'after', 'после')]);
    await act(async () => editor.select(Editor.start(editor, [3])));
    await act(async () => editor.select({ path: [2, 0], offset: 3 }));
    expect(editor.selection?.anchor).toEqual({ path: [1, 0], offset: 'Подробности'.length });
    expect(editor.folds.isOpen('t')).toBe(false);
    // Written inside it while open, then closed (the caret goes to its line), then undone: the
    // toggle opens again, the caret back where the writing was, drawn.
    await act(async () => editor.folds.setOpen('t', true));
    await act(async () => editor.select({ path: [2, 0], offset: 6 }));
    await act(async () => editor.insertText('!'));
    await act(async () => editor.folds.setOpen('t', false));
    expect(editor.selection?.anchor).toEqual({ path: [1, 0], offset: 'Подробности'.length });
    await act(async () => editor.undo());
    expect(editor.folds.isOpen('t')).toBe(true);
    expect(editor.selection?.anchor).toEqual({ path: [2, 0], offset: 6 });
    expect(shown(container, 'c')).toBe(true);
    expect(container.querySelector('[data-block-id="c"]')!.textContent).toBe('внутри');
  });

  test('a closed toggle selected with what it folds (a range ending in a folded block) stays closed; that block is drawn whole, hidden', async () => {
    const { container, editor } = renderEditor([el('toggleBlock', 't', 'Подробности'), el('textBlock', 'c', 'внутри', 1), el('textBlock', 'after', 'после')]);
    await act(async () => editor.select({ anchor: { path: [1, 0], offset: 0 }, focus: { path: [2, 0], offset: 6 } }));
    expect(editor.folds.isOpen('t')).toBe(false);
    expect(shown(container, 'c')).toBe(false);
    expect(container.querySelector('[data-block-id="c"]')!.textContent).toBe('внутри');
    // The selection gone from it: empty again.
    await act(async () => editor.select(Editor.start(editor, [3])));
    expect(container.querySelector('[data-block-id="c"]')!.innerHTML).toBe('');
  });

  test('toggle headings are headings of their level; an open toggle with nothing inside says how to fill it', async () => {
    const { container } = renderEditor([el('toggleHeading2Block', 'h', 'Раздел'), el('textBlock', 'after', 'после')]);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toContain('Раздел');
    expect(container.querySelector('.toggle-empty')).toBeNull();
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Развернуть' })));
    expect(container.querySelector('.toggle-empty')!.textContent).toMatch(/Пусто/);
  });

  test('a reader who may not edit opens and closes it too', async () => {
    const { container } = renderEditor([el('toggleBlock', 't', 'Т'), el('textBlock', 'c', 'внутри', 1)], { readOnly: true });
    expect(shown(container, 'c')).toBe(false);
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Развернуть' })));
    expect(shown(container, 'c')).toBe(true);
  });
});
