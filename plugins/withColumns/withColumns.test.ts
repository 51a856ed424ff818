/** @jest-environment jsdom */
import { Editor, Transforms } from 'slate';
import '../types';
import { createWorkspaceEditor } from '../index';
import type { BlockElement } from '../../schema/slate';
import { convertToVariant } from '../withMarkdownShortcuts';
import { canDropBeside, dropBeside } from './withColumns';
import { applyRemoteBlock } from '../withBlockSync/withBlockSync';

const title: BlockElement = { type: 'pageHeadingBlock', uid: 'pageHeading_p1', version: 1, children: [{ text: 'Страница' }] };
const para = (uid: string, text: string, depth = 0) =>
  ({ type: 'textBlock', uid, version: 1, ...(depth ? { depth } : {}), children: [{ text }] }) as BlockElement;
const list = (uid: string, depth = 0) => ({ type: 'columnListBlock', uid, version: 1, ...(depth ? { depth } : {}), children: [{ text: '' }] }) as BlockElement;
const column = (uid: string, depth = 1, width: number | null = null) =>
  ({ type: 'columnBlock', uid, version: 1, depth, width, children: [{ text: '' }] }) as BlockElement;

function editorWith(blocks: BlockElement[]) {
  const editor = createWorkspaceEditor();
  editor.children = [title, ...blocks];
  Editor.normalize(editor, { force: true });
  return editor;
}
/** The blocks after the title as `uid:type@depth` ("p" for text blocks, "L" lists, "C" columns). */
const shape = (editor: Editor) =>
  editor.children.slice(1).map((node) => {
    const block = node as BlockElement;
    const kind = block.type === 'columnListBlock' ? 'L' : block.type === 'columnBlock' ? 'C' : 'p';
    return `${kind}${block.depth ?? 0}`;
  });
const two = () => [list('l'), column('c1'), para('a', 'левая', 2), para('b', 'ещё', 2), column('c2'), para('d', 'правая', 2), para('after', 'после')];

describe('columns', () => {
  test('«2 колонки» from the slash menu: the list, its columns with a paragraph each, the caret in the first', () => {
    const editor = editorWith([para('x', '')]);
    Transforms.select(editor, Editor.start(editor, [1]));
    expect(convertToVariant(editor, [1], 'columnListBlock', 'columns3')).toBe(true);
    expect(shape(editor)).toEqual(['L0', 'C1', 'p2', 'C1', 'p2', 'C1', 'p2', 'p0']);
    expect(editor.selection?.anchor.path).toEqual([3, 0]);
  });

  test('a sound list is left alone', () => {
    const editor = editorWith(two());
    expect(shape(editor)).toEqual(['L0', 'C1', 'p2', 'p2', 'C1', 'p2', 'p0']);
  });

  test("deleting a column's last block removes the column; one column left, the list is unwrapped", () => {
    const editor = editorWith([list('l'), column('c1'), para('a', 'а', 2), column('c2'), para('b', 'б', 2), column('c3'), para('c', 'в', 2)]);
    // The middle column's one block.
    Transforms.removeNodes(editor, { at: [5] });
    expect(shape(editor)).toEqual(['L0', 'C1', 'p2', 'C1', 'p2']);
    Transforms.removeNodes(editor, { at: [3] });
    expect(shape(editor)).toEqual(['p0']);
    expect(Editor.string(editor, [1])).toBe('в');
  });

  test('a block outdented out of a column goes back into it; the first child of a list becomes a column', () => {
    const editor = editorWith(two());
    Transforms.setNodes<BlockElement>(editor, { depth: 1 }, { at: [4] });
    expect(shape(editor)).toEqual(['L0', 'C1', 'p2', 'p2', 'C1', 'p2', 'p0']);
    const other = editorWith([list('l'), para('a', 'а', 1), column('c2'), para('b', 'б', 2)]);
    expect(shape(other)).toEqual(['L0', 'C1', 'p2', 'C1', 'p2']);
  });

  test('a column outside a list goes, its blocks come up', () => {
    const editor = editorWith([para('p', 'абзац'), column('c', 1), para('a', 'а', 2)]);
    expect(shape(editor)).toEqual(['p0', 'p1']);
  });

  test('Enter in an empty block of a column writes on in the column', () => {
    const editor = editorWith(two());
    Transforms.insertNodes(editor, para('e', '', 2), { at: [4] });
    Transforms.select(editor, Editor.start(editor, [4]));
    editor.insertBreak();
    expect(shape(editor)).toEqual(['L0', 'C1', 'p2', 'p2', 'p2', 'p2', 'C1', 'p2', 'p0']);
    expect(editor.selection?.anchor.path).toEqual([5, 0]);
  });
});

describe('a block dropped beside another', () => {
  test('beside a plain block: the two become a list of two columns, the dropped one on its side', () => {
    const editor = editorWith([para('a', 'первый'), para('b', 'второй'), para('c', 'внутри', 1), para('d', 'третий')]);
    // «третий» to the left of «первый».
    expect(dropBeside(editor, 4, 1, 'left')).toBe(3);
    expect(shape(editor)).toEqual(['L0', 'C1', 'p2', 'C1', 'p2', 'p0', 'p1']);
    expect(editor.children.slice(1).map((n) => Editor.string(editor, [editor.children.indexOf(n)]))).toEqual([
      '',
      '',
      'третий',
      '',
      'первый',
      'второй',
      'внутри',
    ]);
    // «второй» with its child to the right of «третий»'s column: a third column.
    expect(dropBeside(editor, 6, 3, 'right')).toBe(5);
    expect(shape(editor)).toEqual(['L0', 'C1', 'p2', 'C1', 'p2', 'p3', 'C1', 'p2']);
    expect(Editor.string(editor, [5]) + '/' + Editor.string(editor, [6])).toBe('второй/внутри');
  });

  test('not onto itself or its own subtree, not beside a list or a column, not into a list of five', () => {
    const editor = editorWith([para('a', 'а'), para('b', 'б', 1), para('c', 'в')]);
    expect(canDropBeside(editor, 1, 1)).toBe(false);
    expect(canDropBeside(editor, 1, 2)).toBe(false);
    expect(canDropBeside(editor, 3, 1)).toBe(true);
    const five = editorWith([list('l'), ...[1, 2, 3, 4, 5].flatMap((n) => [column(`c${n}`), para(`p${n}`, `${n}`, 2)]), para('x', 'снаружи')]);
    expect(canDropBeside(five, 12, 3)).toBe(false);
    expect(canDropBeside(five, 12, 1)).toBe(false);
    expect(canDropBeside(five, 12, 2)).toBe(false);
    // From inside the same list: its column goes, so there is room.
    expect(canDropBeside(five, 11, 3)).toBe(true);
  });
});

describe("someone else's change", () => {
  test('is not made sound here: their new column, empty until their block moves in, stays', () => {
    const editor = editorWith(two());
    applyRemoteBlock(editor, {
      id: 'c3',
      contentType: 'Block',
      pageId: 'p1',
      type: 'column',
      version: 1,
      parentId: 'l',
      placeAfter: 'c2',
      data: { width: null },
    });
    expect(shape(editor)).toEqual(['L0', 'C1', 'p2', 'p2', 'C1', 'p2', 'C1', 'p0']);
    applyRemoteBlock(editor, {
      id: 'b',
      contentType: 'Block',
      pageId: 'p1',
      type: 'text',
      version: 2,
      parentId: 'c3',
      placeAfter: null,
      data: { tokens: [{ text: 'ещё' }] },
    });
    expect(shape(editor)).toEqual(['L0', 'C1', 'p2', 'C1', 'p2', 'C1', 'p2', 'p0']);
  });
});
