import { Editor, Node, Transforms, type Descendant, type Point } from 'slate';
import { createPageEditor } from '../../editor/pageEditor';
import { BlockIndex, sameCaret, toCaret, toCaretPoint, toSlatePoint, toSlateRange } from './caretMapping';

/*
 * Carets travel as { blockId, offset } (docs/realtime.md). These tests map them to and from Slate
 * points in the real workspace editor, including between two editors whose documents differ in
 * the blocks around (what two people's screens are while edits are in flight).
 */

const title = (text: string) => ({ type: 'pageHeadingBlock', uid: 'pageHeading_p1', version: 1, children: [{ text }] });
const para = (uid: string, ...texts: Array<string | { text: string; bold?: true }>) => ({
  type: 'textBlock',
  uid,
  version: 1,
  children: texts.map((t) => (typeof t === 'string' ? { text: t } : t)),
});
const table = (uid: string, rows: string[][]) => ({
  type: 'tableBlock',
  uid,
  version: 1,
  tableLayout: { columns: rows[0].map(() => ({ width: 120 })) },
  headerRow: false,
  headerColumn: false,
  children: rows.map((cells) => ({ type: 'tableRow', children: cells.map((text) => ({ type: 'tableCell', children: [{ text }] })) })),
});

function editorWith(...blocks: unknown[]): Editor {
  const editor = createPageEditor();
  editor.children = blocks as Descendant[];
  return editor;
}

/** The text of a block before a point: what the offset counts. */
const textBefore = (editor: Editor, point: Point) => Editor.string(editor, { anchor: Editor.start(editor, [point.path[0]]), focus: point });

describe('caret points: Slate point → { blockId, offset }', () => {
  const editor = editorWith(title('План'), para('a', 'Привет, ', { text: 'мир', bold: true }, ' и все'), para('b', ''));

  it('counts the characters of the leaves before the point', () => {
    expect(toCaretPoint(editor, { path: [1, 0], offset: 3 })).toEqual({ blockId: 'a', offset: 3 });
    // In the bold leaf: 8 characters of the first leaf, then 2.
    expect(toCaretPoint(editor, { path: [1, 1], offset: 2 })).toEqual({ blockId: 'a', offset: 10 });
    expect(toCaretPoint(editor, { path: [1, 2], offset: 6 })).toEqual({ blockId: 'a', offset: 17 });
    expect(textBefore(editor, { path: [1, 2], offset: 6 })).toHaveLength(17);
  });

  it('the title is a block too, by its uid', () => {
    expect(toCaretPoint(editor, { path: [0, 0], offset: 4 })).toEqual({ blockId: 'pageHeading_p1', offset: 4 });
  });

  it('an empty block has offset 0', () => {
    expect(toCaretPoint(editor, { path: [2, 0], offset: 0 })).toEqual({ blockId: 'b', offset: 0 });
  });

  it('a table counts through its cells in reading order', () => {
    const withTable = editorWith(
      title(''),
      table('t', [
        ['ab', 'cde'],
        ['f', 'gh'],
      ]),
    );
    expect(toCaretPoint(withTable, { path: [1, 1, 0, 0], offset: 1 })).toEqual({ blockId: 't', offset: 6 });
    expect(toSlatePoint(withTable, { blockId: 't', offset: 6 })).toEqual({ path: [1, 1, 0, 0], offset: 1 });
  });

  it('a selection keeps its direction; none is null', () => {
    const backward = { anchor: { path: [1, 2], offset: 2 }, focus: { path: [1, 0], offset: 1 } };
    expect(toCaret(editor, backward)).toEqual({ anchor: { blockId: 'a', offset: 13 }, focus: { blockId: 'a', offset: 1 } });
    const across = { anchor: { path: [0, 0], offset: 2 }, focus: { path: [2, 0], offset: 0 } };
    expect(toCaret(editor, across)).toEqual({ anchor: { blockId: 'pageHeading_p1', offset: 2 }, focus: { blockId: 'b', offset: 0 } });
    expect(toCaret(editor, null)).toBeNull();
  });

  it('sameCaret compares by value', () => {
    const one = toCaret(editor, { anchor: { path: [1, 1], offset: 1 }, focus: { path: [1, 1], offset: 1 } });
    expect(sameCaret(one, { anchor: { blockId: 'a', offset: 9 }, focus: { blockId: 'a', offset: 9 } })).toBe(true);
    expect(sameCaret(one, { anchor: { blockId: 'a', offset: 9 }, focus: { blockId: 'a', offset: 10 } })).toBe(false);
    expect(sameCaret(one, null)).toBe(false);
    expect(sameCaret(null, null)).toBe(true);
  });
});

describe('caret points: { blockId, offset } → Slate point', () => {
  it('every point of a block comes back to the same text position', () => {
    const editor = editorWith(title('Заголовок'), para('a', 'раз ', { text: 'два', bold: true }, ' три'), para('b', 'четыре'));
    for (const [text, path] of Node.texts(editor)) {
      for (let offset = 0; offset <= text.text.length; offset++) {
        const point = { path, offset };
        const caret = toCaretPoint(editor, point);
        expect(caret).not.toBeNull();
        const back = toSlatePoint(editor, caret!);
        expect(back).not.toBeNull();
        // The same place in the text (a leaf's end and the next leaf's start are one place).
        expect(back!.path[0]).toBe(path[0]);
        expect(textBefore(editor, back!)).toBe(textBefore(editor, point));
      }
    }
  });

  it('an offset past the end is the block end; an unknown block is nowhere', () => {
    const editor = editorWith(title(''), para('a', 'abc', { text: 'de', bold: true }));
    expect(toSlatePoint(editor, { blockId: 'a', offset: 99 })).toEqual({ path: [1, 1], offset: 2 });
    expect(toSlatePoint(editor, { blockId: 'gone', offset: 0 })).toBeNull();
    expect(toSlateRange(editor, { anchor: { blockId: 'gone', offset: 0 }, focus: { blockId: 'a', offset: 1 } })).toBeNull();
  });

  it('another person’s caret lands on the same text here, though the blocks above differ', () => {
    // Bob's screen: a block "x" that has not reached Alice yet; his selection covers "world".
    const bob = editorWith(title('T'), para('x', 'new'), para('a', 'hello ', { text: 'world', bold: true }));
    const selection = { anchor: { path: [2, 1], offset: 0 }, focus: { path: [2, 1], offset: 5 } };
    const caret = toCaret(bob, selection);
    const alice = editorWith(title('T'), para('a', 'hello world'));
    const range = toSlateRange(alice, caret);
    expect(range).not.toBeNull();
    expect(Editor.string(alice, range!)).toBe('world');
  });
});

describe('BlockIndex', () => {
  it('finds a block again after blocks are added or removed above it, and forgets a deleted one', () => {
    const editor = editorWith(title(''), para('a', '1'), para('b', '2'), para('c', '3'));
    const index = new BlockIndex(editor);
    expect(index.indexOf('c')).toBe(3);
    Transforms.insertNodes(editor, para('n1', 'x') as Node, { at: [1] });
    Transforms.insertNodes(editor, para('n2', 'y') as Node, { at: [1] });
    expect(index.indexOf('c')).toBe(5);
    Transforms.removeNodes(editor, { at: [1] });
    expect(index.indexOf('c')).toBe(4);
    Transforms.removeNodes(editor, { at: [4] });
    expect(index.indexOf('c')).toBe(-1);
  });

  it('finds a block that moved far (not only near where it was)', () => {
    const blocks = Array.from({ length: 200 }, (_, i) => para(`b${i}`, String(i)));
    const editor = editorWith(title(''), ...blocks);
    const index = new BlockIndex(editor);
    expect(index.indexOf('b5')).toBe(6);
    Transforms.moveNodes(editor, { at: [6], to: [150] });
    expect(index.indexOf('b5')).toBe(150);
    expect((editor.children[150] as { uid: string }).uid).toBe('b5');
  });
});

/*
 * The spec's Selection entity ({ start, end } of { blockId, tokenIndex, offset }; a table selection
 * as { tableId, start, end }) is not what goes on the wire: carets are { anchor, focus } of
 * { blockId, offset }, the offset counted through the block's tokens (docs/realtime.md «Caret
 * points», docs/web-app.md «Selections on the wire»). These show why, and what stands in for it.
 */
describe('carets instead of the spec’s { blockId, tokenIndex, offset }', () => {
  /** The index of the token (leaf) a point is in, and the offset inside it: the spec's point. */
  const tokenPoint = (point: Point) => ({ tokenIndex: point.path[1], offset: point.offset });

  it('one caret is one character offset in every copy, though the copies cut the text into tokens differently', () => {
    // Bob has made «мир» bold; Alice's copy has not heard of it yet (edits are sent 1 s apart).
    const bob = editorWith(title(''), para('a', 'Привет, ', { text: 'мир', bold: true }, ' и все'));
    const alice = editorWith(title(''), para('a', 'Привет, мир и все'));
    const bobCaret = { path: [1, 2], offset: 2 };
    const caret = toCaret(bob, { anchor: bobCaret, focus: bobCaret });
    expect(caret).toEqual({ anchor: { blockId: 'a', offset: 13 }, focus: { blockId: 'a', offset: 13 } });
    const here = toSlateRange(alice, caret)!;
    expect(textBefore(alice, here.focus)).toBe(textBefore(bob, bobCaret));
    expect(textBefore(alice, here.focus)).toBe('Привет, мир и');
    // The same place as a token index: token 2 in Bob's copy, which Alice's copy does not have.
    expect(tokenPoint(bobCaret)).toEqual({ tokenIndex: 2, offset: 2 });
    expect(tokenPoint(here.focus)).toEqual({ tokenIndex: 0, offset: 13 });
    expect(Node.has(alice, [1, 2])).toBe(false);
  });

  it('a selection across table cells is a caret whose two ends name the table block (the table selection’s tableId)', () => {
    const editor = editorWith(
      title(''),
      table('t', [
        ['ab', 'cde'],
        ['f', 'gh'],
      ]),
    );
    // From «a|b» (row 0, column 0) to «g|h» (row 1, column 1).
    const selection = { anchor: { path: [1, 0, 0, 0], offset: 1 }, focus: { path: [1, 1, 1, 0], offset: 1 } };
    const caret = toCaret(editor, selection);
    expect(caret).toEqual({ anchor: { blockId: 't', offset: 1 }, focus: { blockId: 't', offset: 7 } });
    expect(toSlateRange(editor, caret)).toEqual(selection);
  });
});
