import { Editor } from 'slate';
import { jsx } from 'slate-hyperscript';
import '../types';
import { blockWith, cursor, doc, title } from '../testDocument';
import { createWorkspaceEditor } from '../index';
import { deleteBlocks, moveBlockRange } from './blockActions';

const t = (uid: string, depth: number, ...children: unknown[]) => blockWith('textBlock', uid, { depth }, ...(children.length ? children : [uid]));

function editorWith(input: Editor) {
  const changes: Array<[string, boolean]> = [];
  const editor = createWorkspaceEditor({ onBlockChanged: (uid, change) => changes.push([uid, !!change?.reordered]), onTitleChanged: () => undefined });
  editor.children = input.children;
  editor.selection = input.selection;
  return { editor, changes };
}
const shape = (editor: Editor) => editor.children.slice(1).map((n) => `${(n as { uid: string }).uid}:${(n as { depth?: number }).depth ?? 0}`);

describe('moving blocks with the keyboard', () => {
  it('Ctrl+Shift+↑ moves the block and its subtree above its previous sibling; the caret follows', () => {
    const { editor, changes } = editorWith(doc(title(), t('a', 0), t('a1', 1), t('b', 0, 'b', cursor()), t('b1', 1), t('c', 0)));
    expect(editor.handleKey({ key: 'ArrowUp', ctrlKey: true, shiftKey: true })).toBe(true);
    expect(shape(editor)).toEqual(['b:0', 'b1:1', 'a:0', 'a1:1', 'c:0']);
    expect(editor.selection?.anchor.path[0]).toBe(1);
    expect(Editor.string(editor, [editor.selection!.anchor.path[0]])).toBe('b');
    // The sync hears the move as a reorder of b.
    expect(changes).toContainEqual(['b', true]);
  });

  it('Ctrl+Shift+↓ moves it below its next sibling (and that one’s subtree); the last sibling stays', () => {
    const { editor } = editorWith(doc(title(), t('a', 0, 'a', cursor()), t('b', 0), t('b1', 1), t('c', 0)));
    editor.handleKey({ key: 'ArrowDown', metaKey: true, shiftKey: true });
    expect(shape(editor)).toEqual(['b:0', 'b1:1', 'a:0', 'c:0']);
    editor.handleKey({ key: 'ArrowDown', metaKey: true, shiftKey: true });
    editor.handleKey({ key: 'ArrowDown', metaKey: true, shiftKey: true });
    expect(shape(editor)).toEqual(['b:0', 'b1:1', 'c:0', 'a:0']);
  });

  it('a nested block moves only among its siblings', () => {
    const { editor } = editorWith(doc(title(), t('a', 0), t('a1', 1, 'a1', cursor()), t('b', 0)));
    editor.handleKey({ key: 'ArrowUp', ctrlKey: true, shiftKey: true });
    editor.handleKey({ key: 'ArrowDown', ctrlKey: true, shiftKey: true });
    expect(shape(editor)).toEqual(['a:0', 'a1:1', 'b:0']);
  });
});

describe('block actions', () => {
  it('Ctrl+D duplicates the block with its subtree under fresh uids', () => {
    const { editor } = editorWith(doc(title(), t('a', 0, 'a', cursor()), t('a1', 1), t('b', 0)));
    expect(editor.handleKey({ key: 'd', ctrlKey: true })).toBe(true);
    const uids = editor.children.slice(1).map((n) => (n as { uid: string }).uid);
    expect(uids.slice(0, 2)).toEqual(['a', 'a1']);
    expect(uids[4]).toBe('b');
    expect(new Set(uids).size).toBe(5);
    expect(editor.children.slice(3, 5).map((n) => Editor.string(editor, [editor.children.indexOf(n)]))).toEqual(['a', 'a1']);
    expect(
      shape(editor)
        .slice(2, 4)
        .map((s) => s.split(':')[1]),
    ).toEqual(['0', '1']);
  });

  it('moveBlockRange puts a range before a block at a new depth, keeping its shape', () => {
    const { editor } = editorWith(doc(title(), t('a', 0), t('b', 0), t('b1', 1), t('c', 0)));
    moveBlockRange(editor, 2, 4, 5, 1);
    expect(shape(editor)).toEqual(['a:0', 'c:0', 'b:1', 'b1:2']);
  });

  it('deleteBlocks removes the blocks with their subtrees; an emptied page keeps one empty paragraph', () => {
    const { editor } = editorWith(doc(title(), t('a', 0), t('b', 0), t('b1', 1), t('c', 0)));
    deleteBlocks(editor, 2, 2);
    expect(shape(editor)).toEqual(['a:0', 'c:0']);
    deleteBlocks(editor, 1, 2);
    expect(editor.children).toHaveLength(2);
    expect(editor.children[1]).toMatchObject({ type: 'textBlock', children: [{ text: '' }] });
  });
});

describe('what the sync hears of a move', () => {
  it('moving a block with its subtree reorders only that block; its children keep their parent', () => {
    const children = Array.from({ length: 50 }, (_, i) => t(`a${i}`, 1));
    const { editor, changes } = editorWith(doc(title(), t('z', 0), t('a', 0, 'a', cursor()), ...children, t('b', 0)));
    editor.handleKey({ key: 'ArrowUp', ctrlKey: true, shiftKey: true });
    expect(shape(editor).slice(0, 2)).toEqual(['a:0', 'a0:1']);
    expect(changes.filter(([, reordered]) => reordered).map(([uid]) => uid)).toEqual(['a']);
  });
});

describe('select all', () => {
  it('Ctrl+A selects the block’s text first, then every block (not the title); the keys of the Russian layout work too', () => {
    const { editor } = editorWith(doc(title(), t('a', 0), t('b', 0, 'bb', cursor(), 'b'), t('c', 0)));
    expect(editor.handleKey({ key: 'a', ctrlKey: true })).toBe(true);
    expect(editor.selection).toEqual({ anchor: { path: [2, 0], offset: 0 }, focus: { path: [2, 0], offset: 3 } });
    expect(editor.handleKey({ key: 'ф', metaKey: true })).toBe(true);
    expect(editor.selection).toEqual({ anchor: { path: [1, 0], offset: 0 }, focus: { path: [3, 0], offset: 1 } });
    // Deleting them leaves the title and one empty paragraph.
    editor.deleteFragment();
    expect(editor.children.map((n) => Editor.string(editor, [editor.children.indexOf(n)]))).toEqual(['Plan', '']);
  });

  it('in an empty block the first press selects every block; in the title it selects the title only', () => {
    const { editor } = editorWith(doc(title(), t('a', 0), t('b', 0, cursor())));
    editor.children = [...editor.children.slice(0, 2), { ...(editor.children[2] as object), children: [{ text: '' }] } as never];
    editor.selection = { anchor: { path: [2, 0], offset: 0 }, focus: { path: [2, 0], offset: 0 } };
    editor.handleKey({ key: 'a', ctrlKey: true });
    expect(editor.selection).toEqual({ anchor: { path: [1, 0], offset: 0 }, focus: { path: [2, 0], offset: 0 } });
    editor.selection = { anchor: { path: [0, 0], offset: 1 }, focus: { path: [0, 0], offset: 1 } };
    editor.handleKey({ key: 'a', ctrlKey: true });
    editor.handleKey({ key: 'a', ctrlKey: true });
    expect(editor.selection).toEqual({ anchor: { path: [0, 0], offset: 0 }, focus: { path: [0, 0], offset: 4 } });
  });
});

describe('page start and end', () => {
  it('Ctrl+End goes to the end of the page, Ctrl+Shift+Home selects from there to the start', () => {
    const { editor } = editorWith(doc(title(), t('a', 0, 'a', cursor()), t('b', 0), t('c', 0, 'cc')));
    expect(editor.handleKey({ key: 'End', ctrlKey: true })).toBe(true);
    expect(editor.selection).toEqual({ anchor: { path: [3, 0], offset: 2 }, focus: { path: [3, 0], offset: 2 } });
    expect(editor.handleKey({ key: 'Home', ctrlKey: true, shiftKey: true })).toBe(true);
    expect(editor.selection).toEqual({ anchor: { path: [3, 0], offset: 2 }, focus: { path: [0, 0], offset: 0 } });
  });
});

describe('duplicating a nested page', () => {
  it('Ctrl+D on a block pointing at a page points the copy at a new page id and asks for a copy of the page', () => {
    const { editor } = editorWith(doc(title(), t('a', 0, 'a', cursor())));
    const page = jsx('element', { type: 'documentBlock', uid: 'd', version: 1, pageId: '11111111-1111-4111-8111-111111111111' }, jsx('text', {}));
    editor.children = [...editor.children, page as never];
    editor.selection = { anchor: { path: [2, 0], offset: 0 }, focus: { path: [2, 0], offset: 0 } };
    const asked: Array<{ from: string; to: string }> = [];
    editor.copyPages = (pairs) => asked.push(...pairs);
    expect(editor.handleKey({ key: 'd', ctrlKey: true })).toBe(true);
    const [original, copy] = editor.children.slice(2) as Array<{ pageId: string; uid: string }>;
    expect(original.pageId).toBe('11111111-1111-4111-8111-111111111111');
    expect(copy.pageId).not.toBe(original.pageId);
    expect(asked).toEqual([{ from: original.pageId, to: copy.pageId }]);
  });
});
