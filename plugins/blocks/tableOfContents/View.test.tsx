import { act, fireEvent, screen, within } from '@testing-library/react';
import { Transforms } from 'slate';
import type { BlockElement } from '../../../schema/slate';
import { renderEditor } from '../../../src/editor/blocks/testing';
import { appFolds } from '../../../src/editor/folding';

const el = (type: string, uid: string, text: string, depth = 0) =>
  ({ type, uid, version: 1, children: [{ text }], ...(depth ? { depth } : {}) }) as BlockElement;
const toc = () => ({ type: 'tableOfContentsBlock', uid: 'toc', version: 1, children: [{ text: '' }] }) as BlockElement;
const links = () => within(screen.getByRole('navigation', { name: 'Оглавление' })).queryAllByRole('link');

beforeEach(() => appFolds.reset());

describe('table of contents view', () => {
  test('lists the headings, indented by level from the shallowest; says what to do when there are none', async () => {
    const { editor } = renderEditor([
      toc(),
      el('heading2Block', 'a', 'Введение'),
      el('textBlock', 'x', 'текст'),
      el('heading3Block', 'b', 'Детали'),
      el('toggleHeading2Block', 'c', 'Итоги'),
    ]);
    expect(links().map((a) => [a.textContent, a.closest('li')!.className])).toEqual([
      ['Введение', 'toc-level-1'],
      ['Детали', 'toc-level-2'],
      ['Итоги', 'toc-level-1'],
    ]);
    // Live: a heading added, one renamed.
    await act(async () => {
      Transforms.insertNodes(editor, el('heading1Block', 'n', 'Новый раздел'), { at: [editor.children.length] });
      Transforms.insertText(editor, 'Вступление', { at: { path: [2, 0], offset: 0 } });
    });
    expect(links().map((a) => a.textContent)).toEqual(['ВступлениеВведение', 'Детали', 'Итоги', 'Новый раздел']);
    expect(links().map((a) => a.closest('li')!.className)).toEqual(['toc-level-2', 'toc-level-3', 'toc-level-2', 'toc-level-1']);
  });

  test('empty: a hint', () => {
    renderEditor([toc(), el('textBlock', 'x', 'текст')]);
    expect(screen.getByText('Добавьте заголовки, и здесь появится оглавление')).toBeTruthy();
  });

  test('a click on a heading folded in a closed toggle opens the toggle and scrolls to it', async () => {
    const scrolled: string[] = [];
    // jsdom has no CSS.escape (lazyChunks' revealBlock uses it); block ids need no escaping.
    (globalThis as { CSS?: { escape(value: string): string } }).CSS ??= { escape: (value) => value };
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.getAttribute('data-block-id') ?? '');
    };
    const { editor } = renderEditor([toc(), el('toggleBlock', 't', 'Раскрыть'), el('heading2Block', 'h', 'Внутри', 1)]);
    expect(editor.folds.isOpen('t')).toBe(false);
    await act(async () => {
      fireEvent.click(links()[0]);
      await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    });
    expect(editor.folds.isOpen('t')).toBe(true);
    expect(scrolled).toEqual(['h']);
  });
});
