import { Editor, Transforms } from 'slate';
import { HistoryEditor } from 'slate-history';
import { jsx } from 'slate-hyperscript';
import '../types';
import { blockWith, cursor, doc, text, title } from '../testDocument';
import { createWorkspaceEditor } from '../index';
import type { WireBlock } from '../../schema/block';
import type { BlockElement, BlockElementType } from '../../schema/slate';
import { applyRemoteBlock, applyRemoteTitle, readBlock, removeRemoteBlocks, replaceWithServerCopy, revertRefusedBlock } from './withBlockSync';

/*
 * Fixtures: a document with a cursor (slate-hyperscript without JSX syntax), one editor action,
 * then what the handlers heard. The editor is the full workspace editor with sync handlers.
 */

const PAGE_ID = 'p1';
const block = (type: BlockElementType, uid: string, version: number, ...children: unknown[]) => blockWith(type, uid, { version }, ...children);

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
    doc(title('Plan'), block('heading1Block', 'a', 3, 'Goals'), block('textBlock', 'b', 5, jsx('text', { bold: true }, 'Ship'), ' it'), text('c'));

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
      doc(title('Plan'), text('a', 'Hello'), block('heading2Block', 'b', 9, 'Their ', jsx('text', { italic: true }, 'words')), text('c', 'after')).children,
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

describe('withBlockSync: others’ changes (applyRemoteBlock, removeRemoteBlocks, applyRemoteTitle)', () => {
  const nested = (uid: string, depth: number, ...children: unknown[]) =>
    jsx('element', { type: 'textBlock', uid, version: 1, depth }, ...(children.length > 0 ? children : [jsx('text', {})]));
  const remote = (id: string, value: string, extra: Partial<WireBlock> = {}): WireBlock => ({
    id,
    contentType: 'Block',
    pageId: PAGE_ID,
    type: 'text',
    version: 2,
    parentId: null,
    placeAfter: null,
    data: { tokens: value ? [{ text: value }] : [] },
    ...extra,
  });
  /** The blocks after the title as uid:depth. */
  const layout = (editor: Editor) => editor.children.slice(1).map((n) => `${(n as BlockElement).uid}:${(n as BlockElement).depth ?? 0}`);
  const texts = (editor: Editor) => editor.children.map((_, i) => Editor.string(editor, [i]));
  /** Nothing reported to the sync, no undo or redo step. */
  const expectUnreportedAndNotUndoable = (s: ReturnType<typeof setup>) => {
    expect(s.changed).toEqual([]);
    expect(s.titles).toEqual([]);
    expect(s.editor.history.undos).toEqual([]);
    expect(s.editor.history.redos).toEqual([]);
  };

  it('replaces a block’s content and type; a caret in it stays by its text', () => {
    const s = setup(doc(title('Plan'), text('a', 'ab', cursor(), 'c'), text('b', 'B')));
    const { editor } = s;

    applyRemoteBlock(editor, remote('a', 'xabc', { version: 3 }));

    expect(texts(editor)).toEqual(['Plan', 'xabc', 'B']);
    expect(editor.children[1]).toMatchObject({ uid: 'a', version: 3, type: 'textBlock' });
    // After "ab", which now starts one character later.
    expect(editor.selection).toEqual({ anchor: { path: [1, 0], offset: 3 }, focus: { path: [1, 0], offset: 3 } });

    applyRemoteBlock(editor, remote('a', 'Goals: xabc', { version: 4, type: 'heading1' }));
    expect(editor.children[1]).toMatchObject({ uid: 'a', version: 4, type: 'heading1Block' });
    expect(editor.selection?.anchor).toEqual({ path: [1, 0], offset: 10 });
    expectUnreportedAndNotUndoable(s);
  });

  it('keeps both ends of a selection in the replaced block by their text; a selection elsewhere is not touched', () => {
    const s = setup(doc(title('Plan'), text('a', 'one two three'), text('b', 'B')));
    const { editor } = s;
    // "two" selected backwards.
    Transforms.select(editor, { anchor: { path: [1, 0], offset: 7 }, focus: { path: [1, 0], offset: 4 } });

    applyRemoteBlock(editor, remote('a', 'zero one two three!'));

    expect(Editor.string(editor, editor.selection!)).toBe('two');
    expect(editor.selection).toEqual({ anchor: { path: [1, 0], offset: 12 }, focus: { path: [1, 0], offset: 9 } });

    Transforms.select(editor, { path: [2, 0], offset: 1 });
    applyRemoteBlock(editor, remote('a', 'zero', { version: 3 }));
    expect(editor.selection).toEqual({ anchor: { path: [2, 0], offset: 1 }, focus: { path: [2, 0], offset: 1 } });
    expect(texts(editor)).toEqual(['Plan', 'zero', 'B']);
    expect(s.changed).toEqual([]);
  });

  it('moves a block with the blocks nested under it to the server’s place: after a sibling’s subtree, or first under a parent', () => {
    const s = setup(doc(title('Plan'), text('a', 'A'), text('b', 'B'), nested('b1', 1, 'B1'), nested('b2', 2, 'B2'), text('c', 'C'), nested('c1', 1, 'C1')));
    const { editor } = s;

    // b was moved after c (its subtree goes along; c1 stays under c).
    applyRemoteBlock(editor, remote('b', 'B', { version: 1, placeAfter: 'c' }));
    expect(layout(editor)).toEqual(['a:0', 'c:0', 'c1:1', 'b:0', 'b1:1', 'b2:2']);
    expect(readBlock(editor, PAGE_ID, 'b')).toMatchObject({ parentId: null, placeAfter: 'c' });
    expect(readBlock(editor, PAGE_ID, 'b2')).toMatchObject({ parentId: 'b1', placeAfter: null });

    // Then under a, first: one level deeper, with its subtree.
    applyRemoteBlock(editor, remote('b', 'B', { version: 1, parentId: 'a', placeAfter: null }));
    expect(layout(editor)).toEqual(['a:0', 'b:1', 'b1:2', 'b2:3', 'c:0', 'c1:1']);
    expect(readBlock(editor, PAGE_ID, 'b')).toMatchObject({ parentId: 'a', placeAfter: null });
    expect(readBlock(editor, PAGE_ID, 'c')).toMatchObject({ parentId: null, placeAfter: 'a' });
    expect(texts(editor)).toEqual(['Plan', 'A', 'B', 'B1', 'B2', 'C', 'C1']);

    // Out from under a to the top of the page (first under its parent before, first on the page now).
    applyRemoteBlock(editor, remote('b', 'B', { version: 1, parentId: null, placeAfter: null }));
    expect(layout(editor)).toEqual(['b:0', 'b1:1', 'b2:2', 'a:0', 'c:0', 'c1:1']);
    expectUnreportedAndNotUndoable(s);
  });

  it('inserts a new block after the subtree of the block it follows, first on the page, or at the end when that block is not here', () => {
    const s = setup(doc(title('Plan'), text('a', 'A'), nested('a1', 1, 'A1'), text('b', 'B')));
    const { editor } = s;

    applyRemoteBlock(editor, remote('n', 'new', { version: 1, placeAfter: 'a' }));
    expect(layout(editor)).toEqual(['a:0', 'a1:1', 'n:0', 'b:0']);
    expect(readBlock(editor, PAGE_ID, 'n')).toEqual(remote('n', 'new', { version: 1, placeAfter: 'a' }));

    applyRemoteBlock(editor, remote('f', 'first', { version: 1, placeAfter: null }));
    expect(layout(editor)).toEqual(['f:0', 'a:0', 'a1:1', 'n:0', 'b:0']);

    applyRemoteBlock(editor, remote('k', 'child', { version: 1, parentId: 'a', placeAfter: 'a1' }));
    expect(layout(editor)).toEqual(['f:0', 'a:0', 'a1:1', 'k:1', 'n:0', 'b:0']);

    // The block it follows has not arrived yet.
    applyRemoteBlock(editor, remote('z', 'orphan', { version: 1, placeAfter: 'not-here-yet' }));
    expect(layout(editor)).toEqual(['f:0', 'a:0', 'a1:1', 'k:1', 'n:0', 'b:0', 'z:0']);
    expect(Editor.string(editor, [7])).toBe('orphan');
    expectUnreportedAndNotUndoable(s);
  });

  it('a block at its place with the same content is left alone (a version seen again changes nothing)', () => {
    const s = setup(doc(title('Plan'), text('a', 'A', cursor()), text('b', 'B')));
    const before = s.editor.children;

    applyRemoteBlock(s.editor, remote('b', 'B', { version: 1, placeAfter: 'a' }));

    expect(s.editor.children).toBe(before);
  });

  it('removeRemoteBlocks removes those blocks only (not their children here, not the title, unknown ids ignored)', () => {
    const s = setup(doc(title('Plan'), text('a', 'A'), text('b', 'B'), nested('b1', 1, 'B1'), text('c', 'C'), text('d', 'D', cursor())));
    const { editor } = s;

    removeRemoteBlocks(editor, ['b', 'd', 'nope', `pageHeading_${PAGE_ID}`]);

    expect(layout(editor)).toEqual(['a:0', 'b1:1', 'c:0']);
    expect(texts(editor)).toEqual(['Plan', 'A', 'B1', 'C']);
    // The caret was in d: it goes to the end of the block before.
    expect(editor.selection).toEqual({ anchor: { path: [3, 0], offset: 1 }, focus: { path: [3, 0], offset: 1 } });
    expectUnreportedAndNotUndoable(s);
  });

  it('none of the remote changes is undoable: undo after them changes nothing', () => {
    const s = setup(doc(title('Plan'), text('a', 'A'), text('b', 'B')));
    const { editor } = s;
    applyRemoteBlock(editor, remote('a', 'A!'));
    applyRemoteBlock(editor, remote('n', 'N', { version: 1, placeAfter: 'b' }));
    applyRemoteBlock(editor, remote('a', 'A!', { placeAfter: 'n' }));
    removeRemoteBlocks(editor, ['b']);
    applyRemoteTitle(editor, 'Renamed');
    const after = structuredClone(editor.children);
    expect(texts(editor)).toEqual(['Renamed', 'N', 'A!']);

    editor.undo();

    expect(editor.children).toEqual(after);
    expectUnreportedAndNotUndoable(s);
  });

  it('the undo history stays valid: typing in a block that a remote insert moved down is undone in that block', () => {
    const s = setup(doc(title('Plan'), text('a', 'A'), text('b', 'B'), text('c', 'C', cursor())));
    const { editor } = s;
    editor.insertText('!');
    expect(texts(editor)).toEqual(['Plan', 'A', 'B', 'C!']);

    applyRemoteBlock(editor, remote('n', 'new', { version: 1, placeAfter: null }));
    expect(layout(editor)).toEqual(['n:0', 'a:0', 'b:0', 'c:0']);

    editor.undo();

    expect(texts(editor)).toEqual(['Plan', 'new', 'A', 'B', 'C']);
    expect(layout(editor)).toEqual(['n:0', 'a:0', 'b:0', 'c:0']);
    // The caret goes back to where it was before the typing, in the moved block.
    expect(editor.selection).toEqual({ anchor: { path: [4, 0], offset: 1 }, focus: { path: [4, 0], offset: 1 } });
    // And redo puts it back in the same block.
    editor.redo();
    expect(texts(editor)).toEqual(['Plan', 'new', 'A', 'B', 'C!']);
  });

  it('the undo history stays valid across a remote removal above the typing', () => {
    const s = setup(doc(title('Plan'), text('a', 'A'), text('b', 'B'), text('c', 'C', cursor())));
    const { editor } = s;
    editor.insertText('!');
    removeRemoteBlocks(editor, ['a']);

    editor.undo();

    expect(texts(editor)).toEqual(['Plan', 'B', 'C']);
  });

  it('a remote replace of a block drops its undo steps (and older ones); newer steps elsewhere stay and undo correctly', () => {
    const s = setup(doc(title('Plan'), text('a', 'A'), text('b', 'B', cursor()), text('c', 'C')));
    const { editor } = s;
    editor.insertText('1');
    Transforms.select(editor, Editor.end(editor, [3]));
    // Typed later (a separate undo step, as it is once the editor has flushed its changes).
    HistoryEditor.withNewBatch(editor, () => editor.insertText('2'));
    expect(editor.history.undos).toHaveLength(2);

    applyRemoteBlock(editor, remote('b', 'Theirs', { placeAfter: 'a' }));

    // The step in b no longer fits its text: gone; the newer one in c is kept.
    expect(editor.history.undos).toHaveLength(1);
    editor.undo();
    expect(texts(editor)).toEqual(['Plan', 'A', 'Theirs', 'C']);
    expect(editor.history.undos).toEqual([]);
    editor.undo();
    expect(texts(editor)).toEqual(['Plan', 'A', 'Theirs', 'C']);

    // A redo step would not fit the changed document either: a remote change clears it.
    editor.redo();
    expect(texts(editor)).toEqual(['Plan', 'A', 'Theirs', 'C2']);
    editor.undo();
    expect(editor.history.redos).toHaveLength(1);
    applyRemoteBlock(editor, remote('a', 'A!'));
    expect(editor.history.redos).toEqual([]);
    editor.redo();
    expect(texts(editor)).toEqual(['Plan', 'A!', 'Theirs', 'C']);
  });

  it('a remote replace of the block just typed in: undo does not touch its new text (nor undo older steps elsewhere)', () => {
    const s = setup(doc(title('Plan'), text('a', 'A', cursor()), text('b', 'Bee')));
    const { editor } = s;
    editor.insertText('1');
    Transforms.select(editor, Editor.end(editor, [2]));
    HistoryEditor.withNewBatch(editor, () => editor.insertText('s'));
    expect(editor.history.undos).toHaveLength(2);

    applyRemoteBlock(editor, remote('b', 'X', { placeAfter: 'a' }));

    // The older step in a would have to be undone after the one in b: it goes too.
    expect(editor.history.undos).toEqual([]);
    editor.undo();
    expect(texts(editor)).toEqual(['Plan', 'A1', 'X']);
  });

  it('applyRemoteTitle changes the title line, is not reported as a title change, and keeps a caret in it by its text', () => {
    const s = setup(doc(title('Pl', cursor(), 'an'), text('a', 'A')));
    const { editor } = s;

    applyRemoteTitle(editor, 'My Plan');

    expect(texts(editor)).toEqual(['My Plan', 'A']);
    expect(editor.children[0]).toMatchObject({ type: 'pageHeadingBlock', uid: `pageHeading_${PAGE_ID}` });
    expect(editor.selection).toEqual({ anchor: { path: [0, 0], offset: 5 }, focus: { path: [0, 0], offset: 5 } });
    expectUnreportedAndNotUndoable(s);

    // A caret in a block is left where it is.
    Transforms.select(editor, { path: [1, 0], offset: 1 });
    applyRemoteTitle(editor, 'Plan');
    expect(texts(editor)).toEqual(['Plan', 'A']);
    expect(editor.selection).toEqual({ anchor: { path: [1, 0], offset: 1 }, focus: { path: [1, 0], offset: 1 } });
    expect(s.titles).toEqual([]);
  });
});

/*
 * A split or a merge stands for two neighbouring blocks: after a remote block lands between
 * them, Ctrl+Z must not split or merge the wrong one.
 */
describe('withBlockSync: undo of a split or merge after a remote insert between the two blocks', () => {
  const remoteNew: WireBlock = {
    id: 'n',
    contentType: 'Block',
    pageId: PAGE_ID,
    type: 'text',
    version: 1,
    parentId: null,
    placeAfter: 'a',
    data: { tokens: [{ text: 'new' }] },
  };
  const byUid = (editor: Editor) => Object.fromEntries(editor.children.slice(1).map((n, i) => [(n as BlockElement).uid, Editor.string(editor, [i + 1])]));

  it('undoing Enter does not merge their new block into ours', () => {
    const { editor } = setup(doc(title('Plan'), text('a', 'Hello', cursor(), 'World'), text('c', 'C')));
    editor.insertBreak();
    const fresh = uidAt(editor, 2);
    // Their block lands right after a (the server does not have our new block yet).
    applyRemoteBlock(editor, remoteNew);
    expect(byUid(editor)).toEqual({ a: 'Hello', n: 'new', [fresh]: 'World', c: 'C' });

    editor.undo();

    // Today: a becomes "Hellonew" and their block is gone.
    expect(byUid(editor).n).toBe('new');
    expect(byUid(editor).a).not.toContain('new');
  });

  it('undoing Backspace (a merge) brings our block back instead of splitting theirs', () => {
    const { editor } = setup(doc(title('Plan'), text('a', 'Hello'), text('b', cursor(), 'World'), text('c', 'C')));
    editor.deleteBackward('character');
    applyRemoteBlock(editor, remoteNew);
    expect(byUid(editor)).toEqual({ a: 'HelloWorld', n: 'new', c: 'C' });

    editor.undo();

    // Today: "HelloWorld" stays, and an empty block split off theirs appears. (An undone merge
    // brings the block back under a fresh uid, as without a remote change.)
    const after = byUid(editor);
    expect(after).toMatchObject({ a: 'Hello', n: 'new', c: 'C' });
    expect(Object.values(after).sort()).toEqual(['C', 'Hello', 'World', 'new']);
  });
});
