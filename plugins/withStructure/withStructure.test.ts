import { Editor } from 'slate';
import { jsx } from 'slate-hyperscript';
import '../types';
import { anchor, blockWith, cursor, doc, editorWith, focus, title } from '../testDocument';
import { createWorkspaceEditor } from '../index';
import type { BlockElementType } from '../../schema/slate';
import { positionInFlatList } from '../../schema/block';

/*
 * Fixtures (slate-hyperscript without JSX): a flat document whose blocks carry depths, a caret,
 * an action, and the expected document. `b(type, uid, depth, ...children)`.
 */
const b = (type: BlockElementType, uid: string, depth: number, ...children: unknown[]) => blockWith(type, uid, { depth }, ...children);
const text = (uid: string, depth: number, ...children: unknown[]) => b('textBlock', uid, depth, ...children);

/** uid:depth of every block after the title. */
const shape = (editor: Editor) => editor.children.slice(1).map((n) => `${(n as { uid: string }).uid}:${(n as { depth?: number }).depth ?? 0}`);
const types = (editor: Editor) => editor.children.slice(1).map((n) => (n as { type: string }).type);
const tab = (editor: ReturnType<typeof createWorkspaceEditor>, shiftKey = false) => editor.handleKey({ key: 'Tab', shiftKey });

describe('Tab and Shift+Tab', () => {
  it('Tab nests a block under the one before it, and its children come along', () => {
    const editor = editorWith(doc(title(), text('a', 0, 'a'), text('b', 0, 'b', cursor()), text('b1', 1, 'b1'), text('c', 0, 'c')));
    expect(tab(editor)).toBe(true);
    expect(shape(editor)).toEqual(['a:0', 'b:1', 'b1:2', 'c:0']);
    expect(positionInFlatList(editor.children.slice(1) as never[], 1)).toEqual({ parentId: 'a', placeAfter: null });
  });

  it('Tab on the first block, or on a block already one below its predecessor, changes nothing but is handled', () => {
    const editor = editorWith(doc(title(), text('a', 0, cursor(), 'a'), text('b', 1, 'b')));
    expect(tab(editor)).toBe(true);
    expect(shape(editor)).toEqual(['a:0', 'b:1']);
    editor.selection = { anchor: { path: [2, 0], offset: 0 }, focus: { path: [2, 0], offset: 0 } };
    expect(tab(editor)).toBe(true);
    expect(shape(editor)).toEqual(['a:0', 'b:1']);
  });

  it('Shift+Tab brings a block and its subtree up a level; at the top level nothing changes', () => {
    const editor = editorWith(doc(title(), text('a', 0, 'a'), text('b', 1, 'b', cursor()), text('b1', 2, 'b1'), text('c', 1, 'c')));
    expect(tab(editor, true)).toBe(true);
    // c now follows b one level down: it became b's child, as in Notion.
    expect(shape(editor)).toEqual(['a:0', 'b:0', 'b1:1', 'c:1']);
    expect(tab(editor, true)).toBe(true);
    expect(shape(editor)).toEqual(['a:0', 'b:0', 'b1:1', 'c:1']);
  });

  it('several selected blocks indent and outdent together', () => {
    const editor = editorWith(doc(title(), text('a', 0, 'a'), text('b', 0, anchor(), 'b'), text('c', 0, 'c', focus()), text('d', 0, 'd')));
    tab(editor);
    expect(shape(editor)).toEqual(['a:0', 'b:1', 'c:1', 'd:0']);
    tab(editor, true);
    expect(shape(editor)).toEqual(['a:0', 'b:0', 'c:0', 'd:0']);
  });

  it('other keys pass on down the chain', () => {
    const editor = editorWith(doc(title(), text('a', 0, cursor())));
    expect(editor.handleKey({ key: 'x' })).toBe(false);
    expect(editor.handleKey({ key: 'Tab', ctrlKey: true })).toBe(false);
  });
});

describe('depths stay sound', () => {
  it('removing a parent brings its children up to fit', () => {
    const editor = editorWith(doc(title(), text('a', 0, 'a'), text('a1', 1, 'a1'), text('a2', 2, 'a2'), text('b', 0, 'b')));
    Editor.withoutNormalizing(editor, () => editor.apply({ type: 'remove_node', path: [1], node: editor.children[1] }));
    expect(shape(editor)).toEqual(['a1:0', 'a2:1', 'b:0']);
  });

  it('a block inserted too deep is brought to one below its predecessor', () => {
    const editor = editorWith(doc(title(), text('a', 0, 'a')));
    editor.apply({ type: 'insert_node', path: [2], node: { type: 'textBlock', uid: 'x', version: 1, depth: 3, children: [{ text: 'x' }] } as never });
    Editor.normalize(editor, { force: false });
    expect(shape(editor)).toEqual(['a:0', 'x:1']);
  });

  it('depth 0 is written as no depth', () => {
    const editor = editorWith(doc(title(), text('a', 0, 'a')));
    editor.apply({ type: 'set_node', path: [1], properties: {}, newProperties: { depth: 0 } as never });
    expect('depth' in editor.children[1]).toBe(false);
  });

  it('Enter in a nested block makes the next block at the same depth', () => {
    const editor = editorWith(doc(title(), text('a', 0, 'a'), text('b', 1, 'b', cursor())));
    editor.insertBreak();
    expect(shape(editor)).toEqual(['a:0', 'b:1', expect.stringMatching(/:1$/)]);
  });
});

describe('list keys', () => {
  it('Enter in an empty nested list item outdents it; at the top level it becomes text', () => {
    const editor = editorWith(doc(title(), b('bulletListBlock', 'a', 0, 'a'), b('bulletListBlock', 'b', 1, cursor())));
    editor.insertBreak();
    expect(shape(editor)).toEqual(['a:0', 'b:0']);
    expect(types(editor)).toEqual(['bulletListBlock', 'bulletListBlock']);
    editor.insertBreak();
    expect(types(editor)).toEqual(['bulletListBlock', 'textBlock']);
  });

  it('Enter at the end of a checked item continues the list unchecked', () => {
    const editor = editorWith(doc(title(), jsx('element', { type: 'checkboxBlock', uid: 'a', version: 1, checked: true }, 'done', cursor())));
    editor.insertBreak();
    expect(editor.children[2]).toMatchObject({ type: 'checkboxBlock', checked: false });
  });

  it.each(['bulletListBlock', 'orderedListBlock', 'checkboxBlock', 'quoteBlock'] as const)(
    'Backspace at the start of a %s makes it text, keeping depth and text',
    (type) => {
      const editor = editorWith(doc(title(), text('a', 0, 'a'), b(type, 'b', 1, cursor(), 'item')));
      editor.deleteBackward('character');
      expect(types(editor)).toEqual(['textBlock', 'textBlock']);
      expect(shape(editor)).toEqual(['a:0', 'b:1']);
      expect(Editor.string(editor, [2])).toBe('item');
    },
  );

  it('Backspace at the start of a nested text block outdents it; at the top level it merges as usual', () => {
    const editor = editorWith(doc(title(), text('a', 0, 'a'), text('b', 1, cursor(), 'b')));
    editor.deleteBackward('character');
    expect(shape(editor)).toEqual(['a:0', 'b:0']);
    editor.deleteBackward('character');
    expect(shape(editor)).toEqual(['a:0']);
    expect(Editor.string(editor, [1])).toBe('ab');
  });
});

describe('Enter after special blocks', () => {
  it('a quote continues with a paragraph; a callout with a paragraph inside it', () => {
    const editor = editorWith(doc(title(), b('quoteBlock', 'q', 0, 'quote', cursor())));
    editor.insertBreak();
    expect(types(editor)).toEqual(['quoteBlock', 'textBlock']);
    const callout = editorWith(doc(title(), jsx('element', { type: 'calloutBlock', uid: 'c', version: 1, icon: '💡' }, 'note', cursor())));
    callout.insertBreak();
    expect(types(callout)).toEqual(['calloutBlock', 'textBlock']);
    expect(shape(callout)[1]).toMatch(/:1$/);
    expect('icon' in callout.children[2]).toBe(false);
  });

  it('a numbered item continues counting (a forced number is not copied)', () => {
    const editor = editorWith(doc(title(), jsx('element', { type: 'orderedListBlock', uid: 'o', version: 1, forcedOrder: 5 }, 'five', cursor())));
    editor.insertBreak();
    expect(types(editor)).toEqual(['orderedListBlock', 'orderedListBlock']);
    expect('forcedOrder' in editor.children[2]).toBe(false);
  });
});

describe('the last block', () => {
  it('a void block is never last: an empty paragraph follows it', () => {
    const editor = editorWith(doc(title(), text('a', 0, 'a', cursor())));
    editor.insertNodes({ type: 'dividerBlock', uid: 'd', version: 1, children: [{ text: '' }] } as never, { at: [2] });
    expect(types(editor)).toEqual(['textBlock', 'dividerBlock', 'textBlock']);
  });
});

describe('what typing costs', () => {
  it('a keystroke inside a block does not normalize the whole document (the editor node)', () => {
    const editor = editorWith(doc(title(), text('a', 0, 'a', cursor()), text('b', 0, 'b')));
    const normalized: string[] = [];
    const { normalizeNode } = editor;
    editor.normalizeNode = (entry, options) => {
      normalized.push(JSON.stringify(entry[1]));
      normalizeNode(entry, options);
    };
    editor.insertText('x');
    expect(normalized).not.toContain('[]');
    expect(normalized).toContain('[1]');
    // A structural change still does.
    normalized.length = 0;
    editor.insertBreak();
    expect(normalized).toContain('[]');
  });
});
