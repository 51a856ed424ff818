import { Editor } from 'slate';
import { jsx } from 'slate-hyperscript';
import '../types';
import { createWorkspaceEditor } from '../index';
import type { BlockElementType } from '../../schema/slate';

/*
 * Fixtures: a document with a cursor (slate-hyperscript without JSX syntax), keystrokes typed
 * one by one (each in its own tick, as in a browser, so Slate's history sees separate changes),
 * then the expected document and caret.
 */

const cursor = () => jsx('cursor');
const block = (type: BlockElementType, uid: string, ...children: unknown[]) =>
  jsx('element', { type, uid, version: 1 }, ...(children.length > 0 ? children : [jsx('text', {})]));
const title = (...children: unknown[]) => block('pageHeadingBlock', 'pageHeading_p1', ...children);
const doc = (...blocks: unknown[]) => jsx('editor', {}, ...blocks) as Editor;

function editorWith(input: Editor) {
  const editor = createWorkspaceEditor();
  editor.children = input.children;
  editor.selection = input.selection;
  return editor;
}

/** Types each character as its own keystroke, letting Slate flush between them. */
async function type(editor: Editor, keys: string) {
  for (const key of keys) {
    editor.insertText(key);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

function expectDocument(editor: Editor, expected: Editor) {
  expect(editor.children).toEqual(expected.children);
  expect(editor.selection).toEqual(expected.selection);
}

describe('withMarkdownShortcuts', () => {
  it.each([
    ['#', 'heading1Block'],
    ['##', 'heading2Block'],
    ['###', 'heading3Block'],
  ] as const)('`%s` and a space at the start of a text block make a %s and drop the marker', async (marker, heading) => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', cursor()), block('textBlock', 'b', 'next')));

    await type(editor, `${marker} `);

    expectDocument(editor, doc(title('Plan'), block(heading, 'a', cursor()), block('textBlock', 'b', 'next')));
  });

  it('keeps the text after the cursor', async () => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', cursor(), 'Goals for the week')));

    await type(editor, '# ');

    expectDocument(editor, doc(title('Plan'), block('heading1Block', 'a', cursor(), 'Goals for the week')));
  });

  it('leaves `#` in the middle of text alone', async () => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', 'Item', cursor())));

    await type(editor, ' # ');

    expectDocument(editor, doc(title('Plan'), block('textBlock', 'a', 'Item # ', cursor())));
  });

  it('leaves `#` alone when text comes before it in the block, even with the cursor just after it', async () => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', 'x#', cursor(), 'y')));

    await type(editor, ' ');

    expectDocument(editor, doc(title('Plan'), block('textBlock', 'a', 'x# ', cursor(), 'y')));
  });

  it('does nothing for `####`', async () => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', cursor())));

    await type(editor, '#### ');

    expectDocument(editor, doc(title('Plan'), block('textBlock', 'a', '#### ', cursor())));
  });

  it('does nothing in a heading', async () => {
    const editor = editorWith(doc(title('Plan'), block('heading2Block', 'a', cursor(), 'Notes')));

    await type(editor, '# ');

    expectDocument(editor, doc(title('Plan'), block('heading2Block', 'a', '# ', cursor(), 'Notes')));
  });

  it('does nothing in the page heading', async () => {
    const editor = editorWith(doc(title(cursor()), block('textBlock', 'a', 'body')));

    await type(editor, '# ');

    expectDocument(editor, doc(title('# ', cursor()), block('textBlock', 'a', 'body')));
  });

  it('does nothing when the marker is followed by something other than a space', async () => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', cursor())));

    await type(editor, '#a');

    expectDocument(editor, doc(title('Plan'), block('textBlock', 'a', '#a', cursor())));
  });

  it('undo turns the heading back into the text block with `# ` in it', async () => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', cursor())));
    await type(editor, '# ');
    expect(editor.children[1]).toMatchObject({ type: 'heading1Block' });

    editor.undo();

    expectDocument(editor, doc(title('Plan'), block('textBlock', 'a', '# ', cursor())));
  });

  it('undo restores `# ` even when both keys arrive in the same tick', () => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', cursor(), 'Goals')));
    editor.insertText('#');
    editor.insertText(' ');
    expect(editor.children[1]).toMatchObject({ type: 'heading1Block' });

    editor.undo();

    expectDocument(editor, doc(title('Plan'), block('textBlock', 'a', '# ', cursor(), 'Goals')));
  });
});
