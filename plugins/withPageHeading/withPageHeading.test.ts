import { createEditor, Editor, Transforms } from 'slate';
import { withHistory } from 'slate-history';
import { jsx } from 'slate-hyperscript';
import '../types';
import { block, cursor, doc, text, title } from '../testDocument';
import type { BlockElement } from '../../schema/slate';
import { withPageHeading } from './withPageHeading';

/*
 * Fixtures: an input document with a cursor (slate-hyperscript without JSX syntax), one editor
 * action, then the expected document and caret. Blocks made by the plugin get fresh uids, so the
 * expected document has `fresh` in their place and the test checks the uid separately.
 */

const fresh = expect.any(String);

function editorWith(input: Editor) {
  const editor = withPageHeading(withHistory(createEditor()));
  editor.children = input.children;
  editor.selection = input.selection;
  return editor;
}

function expectDocument(editor: Editor, expected: Editor) {
  expect(editor.children).toEqual(expected.children);
  expect(editor.selection).toEqual(expected.selection);
}

const uids = (editor: Editor) => (editor.children as BlockElement[]).map((b) => b.uid);

describe('withPageHeading: normalization', () => {
  it('inserts a page heading at index 0 when the document has none', () => {
    const editor = editorWith(doc(text('a', 'first'), text('b', 'second')));

    Editor.normalize(editor, { force: true });

    expect(editor.children).toEqual([
      { type: 'pageHeadingBlock', uid: expect.stringMatching(/^pageHeading_/), version: 1, children: [{ text: '' }] },
      { type: 'textBlock', uid: 'a', version: 1, children: [{ text: 'first' }] },
      { type: 'textBlock', uid: 'b', version: 1, children: [{ text: 'second' }] },
    ]);
  });

  it('adds an empty text block when only the heading exists', () => {
    const editor = editorWith(doc(title('Plan')));

    Editor.normalize(editor, { force: true });

    expectDocument(editor, doc(title('Plan'), text(fresh)));
    expect(uids(editor)[1]).not.toBe('pageHeading_p1');
  });

  it('turns an empty document into a heading and one text block', () => {
    const editor = editorWith(doc());

    Editor.normalize(editor, { force: true });

    expect(editor.children).toEqual([
      expect.objectContaining({ type: 'pageHeadingBlock', children: [{ text: '' }] }),
      expect.objectContaining({ type: 'textBlock', version: 1, children: [{ text: '' }] }),
    ]);
  });

  it('turns a second page heading deeper in the document into a text block', () => {
    const editor = editorWith(doc(title('Plan'), text('a', 'one'), block('pageHeadingBlock', 'stray', 'two')));

    Editor.normalize(editor, { force: true });

    expectDocument(editor, doc(title('Plan'), text('a', 'one'), text('stray', 'two')));
  });

  it('removes marks from the title', () => {
    const editor = editorWith(
      doc(
        title(jsx('text', {}, 'Plan '), jsx('text', { bold: true }, 'for'), jsx('text', { italic: true, code: true }, ' May')),
        text('a', jsx('text', { bold: true }, 'bold body')),
      ),
    );

    Editor.normalize(editor, { force: true });

    expectDocument(editor, doc(title('Plan for May'), text('a', jsx('text', { bold: true }, 'bold body'))));
  });

  it('keeps a well-formed document as it is', () => {
    const input = doc(title('Plan'), text('a', 'one'), block('heading1Block', 'b', 'two'));
    const editor = editorWith(input);

    Editor.normalize(editor, { force: true });

    expectDocument(editor, doc(title('Plan'), text('a', 'one'), block('heading1Block', 'b', 'two')));
  });
});

describe('withPageHeading: Enter', () => {
  it('splitting a block in the middle gives the new block a fresh uid at version 1', () => {
    const editor = editorWith(doc(title('Plan'), jsx('element', { type: 'textBlock', uid: 'a', version: 4 }, 'Hello', cursor(), ' world')));

    editor.insertBreak();

    expectDocument(editor, doc(title('Plan'), jsx('element', { type: 'textBlock', uid: 'a', version: 4 }, 'Hello'), text(fresh, cursor(), ' world')));
    expect(uids(editor)[2]).not.toBe('a');
  });

  it('every split makes a different uid', () => {
    const editor = editorWith(doc(title('Plan'), text('a', 'one', cursor(), 'twothree')));

    editor.insertBreak();
    Transforms.move(editor, { distance: 3 });
    editor.insertBreak();

    expect(editor.children.map((b) => Editor.string(editor, [editor.children.indexOf(b)]))).toEqual(['Plan', 'one', 'two', 'three']);
    expect(new Set(uids(editor)).size).toBe(4);
  });

  it('splitting the title makes the second half a text block', () => {
    const editor = editorWith(doc(title('Plan', cursor(), 'ning'), text('a', 'body')));

    editor.insertBreak();

    expectDocument(editor, doc(title('Plan'), text(fresh, cursor(), 'ning'), text('a', 'body')));
    expect(uids(editor)[1]).not.toBe('pageHeading_p1');
  });

  it.each(['heading1Block', 'heading2Block', 'heading3Block'] as const)(
    'Enter at the end of a %s makes a new empty text block and moves the caret there',
    (heading) => {
      const editor = editorWith(doc(title('Plan'), block(heading, 'h', 'Goals', cursor()), text('a', 'body')));

      editor.insertBreak();

      expectDocument(editor, doc(title('Plan'), block(heading, 'h', 'Goals'), text(fresh, cursor()), text('a', 'body')));
      expect(new Set(uids(editor)).size).toBe(4);
    },
  );

  it('Enter at the end of the title moves into an empty first text block instead of adding one', () => {
    const editor = editorWith(doc(title('Plan', cursor()), text('a'), text('b', 'body')));

    editor.insertBreak();

    expectDocument(editor, doc(title('Plan'), text('a', cursor()), text('b', 'body')));
  });

  it('Enter at the end of the title adds an empty text block when the next one has text', () => {
    const editor = editorWith(doc(title('Plan', cursor()), text('a', 'body')));

    editor.insertBreak();

    expectDocument(editor, doc(title('Plan'), text(fresh, cursor()), text('a', 'body')));
  });

  it('Enter at the end of the title adds a text block when the next block is an empty heading', () => {
    const editor = editorWith(doc(title('Plan', cursor()), block('heading1Block', 'h')));

    editor.insertBreak();

    expectDocument(editor, doc(title('Plan'), text(fresh, cursor()), block('heading1Block', 'h')));
  });
});

describe('withPageHeading: Backspace', () => {
  it.each(['heading1Block', 'heading2Block', 'heading3Block'] as const)('Backspace at the start of a %s turns it into a text block', (heading) => {
    const editor = editorWith(doc(title('Plan'), text('a', 'one'), block(heading, 'h', cursor(), 'Goals')));

    editor.deleteBackward('character');

    expectDocument(editor, doc(title('Plan'), text('a', 'one'), text('h', cursor(), 'Goals')));
  });

  it('Backspace inside a heading deletes a character as usual', () => {
    const editor = editorWith(doc(title('Plan'), block('heading1Block', 'h', 'Go', cursor(), 'als')));

    editor.deleteBackward('character');

    expectDocument(editor, doc(title('Plan'), block('heading1Block', 'h', 'G', cursor(), 'als')));
  });
});

describe('withPageHeading: unique uids', () => {
  it('inserting a copy of an existing block gives the copy a fresh uid at version 1', () => {
    const editor = editorWith(doc(title('Plan'), jsx('element', { type: 'textBlock', uid: 'a', version: 7 }, 'one')));
    const copy = structuredClone(editor.children[1]);

    Transforms.insertNodes(editor, copy, { at: [2] });

    expect(editor.children).toEqual([
      expect.objectContaining({ type: 'pageHeadingBlock', uid: 'pageHeading_p1' }),
      { type: 'textBlock', uid: 'a', version: 7, children: [{ text: 'one' }] },
      { type: 'textBlock', uid: fresh, version: 1, children: [{ text: 'one' }] },
    ]);
    expect(uids(editor)[2]).not.toBe('a');
  });

  it('inserting a block with a new uid keeps it', () => {
    const editor = editorWith(doc(title('Plan'), text('a', 'one')));

    Transforms.insertNodes(editor, { type: 'textBlock', uid: 'b', version: 3, children: [{ text: 'two' }] }, { at: [2] });

    expect(editor.children[2]).toEqual({ type: 'textBlock', uid: 'b', version: 3, children: [{ text: 'two' }] });
  });
});
