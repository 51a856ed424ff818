import { Editor, Transforms } from 'slate';
import { jsx } from 'slate-hyperscript';
import '../types';
import { createWorkspaceEditor } from '../index';
import type { WireBlock } from '../../schema/block';
import type { BlockElement, BlockElementType } from '../../schema/slate';
import { readBlock, replaceWithServerCopy, revertRefusedBlock } from './withBlockSync';

/*
 * Fixtures: a document with a cursor (slate-hyperscript without JSX syntax), one editor action,
 * then what the handlers heard. The editor is the full workspace editor with sync handlers.
 */

const PAGE_ID = 'p1';
const cursor = () => jsx('cursor');
const block = (type: BlockElementType, uid: string, version: number, ...children: unknown[]) =>
  jsx('element', { type, uid, version }, ...(children.length > 0 ? children : [jsx('text', {})]));
const text = (uid: string, ...children: unknown[]) => block('textBlock', uid, 1, ...children);
const title = (...children: unknown[]) => block('pageHeadingBlock', `pageHeading_${PAGE_ID}`, 1, ...children);
const doc = (...blocks: unknown[]) => jsx('editor', {}, ...blocks) as Editor;

function setup(input: Editor) {
  const changed: string[] = [];
  const titles: string[] = [];
  const editor = createWorkspaceEditor({
    onBlockChanged: (uid) => changed.push(uid),
    onTitleChanged: (value) => titles.push(value),
  });
  editor.children = input.children;
  editor.selection = input.selection;
  /** The distinct uids reported, sorted. */
  const reported = () => [...new Set(changed)].sort();
  return { editor, changed, titles, reported };
}

const uidAt = (editor: Editor, index: number) => (editor.children[index] as BlockElement).uid;

describe('withBlockSync: reporting changes', () => {
  it('typing in a block reports that block', () => {
    const { editor, titles, reported } = setup(doc(title('Plan'), text('a', 'Hello', cursor()), text('b', 'World')));

    editor.insertText('!');

    expect(reported()).toEqual(['a']);
    expect(titles).toEqual([]);
  });

  it('deleting a character reports the block', () => {
    const { editor, reported } = setup(doc(title('Plan'), text('a', 'Hello'), text('b', 'Wor', cursor(), 'ld')));

    editor.deleteBackward('character');

    expect(Editor.string(editor, [2])).toBe('Wold');
    expect(reported()).toEqual(['b']);
  });

  it('splitting a block reports both halves, the new one by its fresh uid', () => {
    const { editor, reported } = setup(doc(title('Plan'), text('a', 'Hel', cursor(), 'lo'), text('b', 'World')));

    editor.insertBreak();

    const created = uidAt(editor, 2);
    expect(created).not.toBe('a');
    expect(Editor.string(editor, [2])).toBe('lo');
    expect(reported()).toEqual(['a', created].sort());
  });

  it('merging (Backspace at the start of a block) reports the removed and the grown block', () => {
    const { editor, reported, titles } = setup(doc(title('Plan'), text('a', 'Hello'), text('b', cursor(), 'World')));

    editor.deleteBackward('character');

    expect(editor.children).toHaveLength(2);
    expect(editor.children[1]).toMatchObject({ uid: 'a', children: [{ text: 'HelloWorld' }] });
    expect(reported()).toEqual(['a', 'b']);
    expect(titles).toEqual([]);
  });

  it('removing a block reports its uid', () => {
    const { editor, reported } = setup(doc(title('Plan'), text('a', 'Hello'), text('b', 'World')));

    Transforms.removeNodes(editor, { at: [2] });

    expect(reported()).toEqual(['b']);
  });

  it('changing a block type reports the block', () => {
    const { editor, reported } = setup(doc(title('Plan'), text('a', 'Hello'), text('b', cursor(), 'World')));

    editor.insertText('#');
    editor.insertText(' ');

    expect(editor.children[2]).toMatchObject({ type: 'heading1Block', uid: 'b' });
    expect(reported()).toEqual(['b']);
  });

  it('editing the title reports the new title and no block', () => {
    const { editor, reported, titles } = setup(doc(title('Plan', cursor()), text('a', 'Hello')));

    editor.insertText('s');

    expect(titles).toEqual(['Plans']);
    expect(reported()).toEqual([]);
  });

  it('splitting the title reports the shorter title and the new block', () => {
    const { editor, reported, titles } = setup(doc(title('Plan', cursor(), 'ning'), text('a', 'Hello')));

    editor.insertBreak();

    expect(titles[titles.length - 1]).toBe('Plan');
    expect(reported()).toEqual([uidAt(editor, 1)]);
    expect(uidAt(editor, 1)).not.toBe(`pageHeading_${PAGE_ID}`);
  });
});

describe('withBlockSync: readBlock', () => {
  const input = () =>
    doc(
      title('Plan'),
      block('heading1Block', 'a', 3, 'Goals'),
      block('textBlock', 'b', 5, jsx('text', { bold: true }, 'Ship'), ' it'),
      text('c'),
    );

  it('returns the wire block with placeAfter = the previous block', () => {
    const { editor } = setup(input());

    expect(readBlock(editor, PAGE_ID, 'b')).toEqual<WireBlock>({
      id: 'b',
      contentType: 'Block',
      pageId: PAGE_ID,
      type: 'text',
      version: 5,
      parentId: null,
      placeAfter: 'a',
      data: { tokens: [{ text: 'Ship', bold: true }, { text: ' it' }] },
    });
    expect(readBlock(editor, PAGE_ID, 'c')).toEqual<WireBlock>({
      id: 'c',
      contentType: 'Block',
      pageId: PAGE_ID,
      type: 'text',
      version: 1,
      parentId: null,
      placeAfter: 'b',
      data: { tokens: [] },
    });
  });

  it('gives the first block after the title placeAfter null', () => {
    const { editor } = setup(input());

    expect(readBlock(editor, PAGE_ID, 'a')).toEqual<WireBlock>({
      id: 'a',
      contentType: 'Block',
      pageId: PAGE_ID,
      type: 'heading1',
      version: 3,
      parentId: null,
      placeAfter: null,
      data: { tokens: [{ text: 'Goals' }] },
    });
  });

  it('returns null for a missing uid and for the title', () => {
    const { editor } = setup(input());

    expect(readBlock(editor, PAGE_ID, 'missing')).toBeNull();
    expect(readBlock(editor, PAGE_ID, `pageHeading_${PAGE_ID}`)).toBeNull();
  });

  it('follows the document: after a removal placeAfter names the new neighbour', () => {
    const { editor } = setup(input());

    Transforms.removeNodes(editor, { at: [2] });

    expect(readBlock(editor, PAGE_ID, 'b')).toBeNull();
    expect(readBlock(editor, PAGE_ID, 'c')?.placeAfter).toBe('a');
  });
});

describe('withBlockSync: replaceWithServerCopy', () => {
  const serverCopy: WireBlock = {
    id: 'b',
    contentType: 'Block',
    pageId: PAGE_ID,
    type: 'heading2',
    version: 9,
    parentId: null,
    placeAfter: 'a',
    data: { tokens: [{ text: 'Their ' }, { text: 'words', italic: true }] },
  };

  it('keeps the caret by the same text in the replaced block', () => {
    const { editor } = setup(doc(title('Plan'), text('a', 'Hello'), text('b', 'Mi', cursor(), 'ne'), text('c', 'after')));

    // Text arrived before the caret: it moves along ("Oh Mi|ne").
    replaceWithServerCopy(editor, { ...serverCopy, data: { tokens: [{ text: 'Oh ' }, { text: 'Mine', italic: true }] } });
    expect(editor.selection).toEqual({ anchor: { path: [2, 1], offset: 2 }, focus: { path: [2, 1], offset: 2 } });

    // The text around the caret was replaced: it goes where that text was.
    const other: WireBlock = { ...serverCopy, version: 10, data: { tokens: [{ text: 'X' }] } };
    Transforms.select(editor, { path: [2, 1], offset: 3 });
    replaceWithServerCopy(editor, other);
    expect(editor.selection).toEqual({ anchor: { path: [2, 0], offset: 0 }, focus: { path: [2, 0], offset: 0 } });
  });

  it('replaces the content and type of the block with the server copy', () => {
    const { editor } = setup(doc(title('Plan'), text('a', 'Hello'), text('b', 'Mine', cursor()), text('c', 'after')));

    replaceWithServerCopy(editor, serverCopy);

    expect(editor.children).toEqual(
      doc(
        title('Plan'),
        text('a', 'Hello'),
        block('heading2Block', 'b', 9, 'Their ', jsx('text', { italic: true }, 'words')),
        text('c', 'after'),
      ).children,
    );
    expect(readBlock(editor, PAGE_ID, 'b')).toEqual(serverCopy);
  });

  it('does not add an undo step', () => {
    const { editor } = setup(doc(title('Plan'), text('a', 'Hello'), text('b', 'Mine', cursor())));
    editor.insertText('!');
    const undos = structuredClone(editor.history.undos);
    expect(undos).toHaveLength(1);

    replaceWithServerCopy(editor, serverCopy);

    expect(editor.history.undos).toEqual(undos);
    expect(editor.history.redos).toEqual([]);
  });

  it('ignores a block that is not in the document', () => {
    const { editor } = setup(doc(title('Plan'), text('a', 'Hello')));
    const before = structuredClone(editor.children);

    replaceWithServerCopy(editor, { ...serverCopy, id: 'gone' });

    expect(editor.children).toEqual(before);
  });
});

describe('withBlockSync: the tree in a flat document', () => {
  const nested = (uid: string, depth: number, ...children: unknown[]) =>
    jsx('element', { type: 'textBlock', uid, version: 1, depth }, ...(children.length > 0 ? children : [jsx('text', {})]));

  it('Tab reports the block and its subtree, and readBlock gives the new parent', () => {
    const { editor, reported } = setup(doc(title('Plan'), text('a', 'a'), text('b', 'b', cursor()), nested('b1', 1, 'b1'), text('c', 'c')));
    editor.handleKey({ key: 'Tab' });
    expect(reported()).toEqual(['b', 'b1']);
    expect(readBlock(editor, PAGE_ID, 'b')).toMatchObject({ parentId: 'a', placeAfter: null });
    expect(readBlock(editor, PAGE_ID, 'b1')).toMatchObject({ parentId: 'b', placeAfter: null });
    expect(readBlock(editor, PAGE_ID, 'c')).toMatchObject({ parentId: null, placeAfter: 'a' });
  });

  it('Shift+Tab reports the following siblings, which became its children', () => {
    const { editor, reported } = setup(doc(title('Plan'), text('a', 'a'), nested('b', 1, 'b', cursor()), nested('c', 1, 'c'), text('d', 'd')));
    editor.handleKey({ key: 'Tab', shiftKey: true });
    expect(reported()).toEqual(['b', 'c']);
    expect(readBlock(editor, PAGE_ID, 'c')).toMatchObject({ parentId: 'b', placeAfter: null });
  });

  it('removing a block reports it and the children that lost their parent', () => {
    const { editor, reported } = setup(doc(title('Plan'), text('z', 'z'), text('a', 'a'), nested('a1', 1, 'a1'), text('b', 'b')));
    Transforms.removeNodes(editor, { at: [2] });
    expect(reported()).toEqual(['a', 'a1']);
    expect(readBlock(editor, PAGE_ID, 'a1')).toMatchObject({ parentId: 'z' });
  });

  it('splitting a block with children reports them: they now follow the new block', () => {
    const { editor, reported } = setup(doc(title('Plan'), text('a', 'ab', cursor()), nested('a1', 1, 'a1')));
    editor.insertBreak();
    const fresh = uidAt(editor, 2);
    expect(reported()).toEqual(['a', 'a1', fresh].sort());
    expect(readBlock(editor, PAGE_ID, 'a1')).toMatchObject({ parentId: fresh });
  });
});

describe('withBlockSync: revertRefusedBlock', () => {
  it('puts back what the server has, as an undoable change: Ctrl+Z returns the refused text; the caret stays by its text', () => {
    const { editor, reported } = setup(doc(title('Plan'), text('a', 'Saved and refused', cursor()), text('b', 'after')));
    revertRefusedBlock(editor, 'a', { type: 'text', data: { tokens: [{ text: 'Saved' }] } });
    expect(Editor.string(editor, [1])).toBe('Saved');
    expect(uidAt(editor, 1)).toBe('a');
    expect(editor.selection?.anchor).toEqual({ path: [1, 0], offset: 5 });
    // The sync hears of it (and finds nothing to send: the block equals the server's).
    expect(reported()).toContain('a');
    editor.undo();
    expect(Editor.string(editor, [1])).toBe('Saved and refused');
  });

  const nested = (uid: string, depth: number, value: string) => jsx('element', { type: 'textBlock', uid, version: 1, depth }, value);
  const serverBlock = (id: string, value: string, parentId: string | null, placeAfter: string | null): WireBlock => ({
    id,
    contentType: 'Block',
    pageId: PAGE_ID,
    type: 'text',
    version: 3,
    parentId,
    placeAfter,
    data: { tokens: [{ text: value }] },
  });
  const layout = (editor: Editor) => editor.children.slice(1).map((n) => `${(n as BlockElement).uid}:${(n as BlockElement).depth ?? 0}`);

  it('a refused delete brings the block back where the server has it (after the subtree of the block it follows); undo removes it again', () => {
    const { editor, reported } = setup(doc(title('Plan'), text('a', 'A'), nested('a1', 1, 'A1'), text('c', 'C')));
    revertRefusedBlock(editor, 'b', serverBlock('b', 'B', null, 'a'));
    expect(layout(editor)).toEqual(['a:0', 'a1:1', 'b:0', 'c:0']);
    expect(Editor.string(editor, [3])).toBe('B');
    expect(readBlock(editor, PAGE_ID, 'b')).toMatchObject({ parentId: null, placeAfter: 'a', version: 3 });
    expect(reported()).toContain('b');
    editor.undo();
    expect(layout(editor)).toEqual(['a:0', 'a1:1', 'c:0']);
  });

  it('a refused move puts the block back at its server place with the blocks nested under it here, in one undo step', () => {
    // c (with c1 under it) was moved under a here; the server keeps c at the top level after b.
    const { editor } = setup(doc(title('Plan'), text('a', 'A'), nested('c', 1, 'C'), nested('c1', 2, 'C1'), text('b', 'B')));
    revertRefusedBlock(editor, 'c', serverBlock('c', 'C', null, 'b'));
    expect(layout(editor)).toEqual(['a:0', 'b:0', 'c:0', 'c1:1']);
    expect(readBlock(editor, PAGE_ID, 'c')).toMatchObject({ parentId: null, placeAfter: 'b' });
    expect(readBlock(editor, PAGE_ID, 'c1')).toMatchObject({ parentId: 'c', placeAfter: null });
    editor.undo();
    expect(layout(editor)).toEqual(['a:0', 'c:1', 'c1:2', 'b:0']);
  });

  it('first under its parent, or first on the page; a place not in the editor leaves the block where it is, with the server text', () => {
    const { editor } = setup(doc(title('Plan'), text('a', 'A'), nested('a1', 1, 'A1'), text('b', 'B moved here')));
    revertRefusedBlock(editor, 'b', serverBlock('b', 'B', 'a', null));
    expect(layout(editor)).toEqual(['a:0', 'b:1', 'a1:1']);
    revertRefusedBlock(editor, 'a1', serverBlock('a1', 'A1', null, null));
    expect(layout(editor)).toEqual(['a1:0', 'a:0', 'b:1']);
    revertRefusedBlock(editor, 'b', serverBlock('b', 'B on the server', 'gone', null));
    expect(layout(editor)).toEqual(['a1:0', 'a:0', 'b:1']);
    expect(Editor.string(editor, [3])).toBe('B on the server');
  });

  it('removes a block the server never had; undo brings it back', () => {
    const { editor } = setup(doc(title('Plan'), text('a', 'Kept'), text('n', 'Never saved')));
    revertRefusedBlock(editor, 'n', null);
    expect(editor.children.map((_, i) => uidAt(editor, i))).toEqual(['pageHeading_p1', 'a']);
    editor.undo();
    expect(Editor.string(editor, [2])).toBe('Never saved');
  });
});
