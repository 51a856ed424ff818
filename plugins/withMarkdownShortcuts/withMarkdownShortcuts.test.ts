import { Editor, Transforms } from 'slate';
import type { BlockElement } from '../../schema/slate';
import { convertBlock, createWorkspaceEditor } from '../index';
import { block, cursor, doc, editorWith, title, type } from '../testDocument';

/*
 * Fixtures: a document with a cursor (slate-hyperscript without JSX syntax), keystrokes typed
 * one by one (each in its own tick, as in a browser, so Slate's history sees separate changes),
 * then the expected document and caret.
 */

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

describe('withMarkdownShortcuts: every block type', () => {
  const typesAfterTitle = (editor: Editor) => editor.children.slice(1).map((n) => (n as { type: string }).type);

  it.each([
    ['[]', 'checkboxBlock'],
    ['[ ]', 'checkboxBlock'],
    ['*', 'bulletListBlock'],
    ['-', 'bulletListBlock'],
    ['"', 'quoteBlock'],
    ['|', 'quoteBlock'],
    ['/callout', 'calloutBlock'],
  ] as const)('`%s` and a space make a %s that keeps the text after the caret', async (marker, type) => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', cursor(), 'item')));
    await type_(editor, `${marker} `);
    expect(editor.children[1]).toMatchObject({ type, uid: 'a', children: [{ text: 'item' }] });
  });

  it('a checkbox starts unchecked and a callout with the light bulb', async () => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', cursor()), block('textBlock', 'b', 'x')));
    await type_(editor, '[] ');
    expect(editor.children[1]).toMatchObject({ type: 'checkboxBlock', checked: false });
    editor.selection = { anchor: { path: [2, 0], offset: 0 }, focus: { path: [2, 0], offset: 0 } };
    await type_(editor, '/callout ');
    expect(editor.children[2]).toMatchObject({ type: 'calloutBlock', icon: '💡', children: [{ text: 'x' }] });
  });

  it('`1.` makes an ordered item; a number that does not follow the previous item is kept as forcedOrder', async () => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', cursor())));
    await type_(editor, '1. one');
    expect(editor.children[1]).toMatchObject({ type: 'orderedListBlock', children: [{ text: 'one' }] });
    expect('forcedOrder' in editor.children[1]).toBe(false);
    editor.insertBreak();
    expect(typesAfterTitle(editor)).toEqual(['orderedListBlock', 'orderedListBlock']);
    // The next item would be 2: typing "2." in a new text block continues the list unforced.
    Transforms.setNodes(editor, { type: 'textBlock' } as never, { at: [2] });
    await type_(editor, '2) two');
    expect(editor.children[2]).toMatchObject({ type: 'orderedListBlock' });
    expect('forcedOrder' in editor.children[2]).toBe(false);
    editor.insertBreak();
    Transforms.setNodes(editor, { type: 'textBlock' } as never, { at: [3] });
    await type_(editor, '7. seven');
    expect(editor.children[3]).toMatchObject({ type: 'orderedListBlock', forcedOrder: 7 });
  });

  it('`--` then `-` makes a divider, and writing goes on in a new paragraph below it', async () => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', cursor())));
    await type_(editor, '---after');
    expect(typesAfterTitle(editor)).toEqual(['dividerBlock', 'textBlock']);
    expect(editor.children[1]).toMatchObject({ uid: 'a' });
    expect(Editor.string(editor, [2])).toBe('after');
  });

  it('`/file` and a space turn the block into an empty file block (void), the caret below it', async () => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', cursor())));
    await type_(editor, '/file ');
    expect(editor.children[1]).toMatchObject({ type: 'fileBlock', uid: 'a' });
    expect(editor.selection?.anchor.path[0]).toBe(2);
    editor.undo();
    expect(editor.children[1]).toMatchObject({ type: 'textBlock', children: [{ text: '/file ' }] });
  });
});

async function type_(editor: Editor, keys: string) {
  for (const key of keys) {
    editor.insertText(key);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

describe('convertBlock', () => {
  it('turning a block with text into a void type keeps the text in a paragraph after it', () => {
    const editor = editorWith(doc(title('Plan'), block('checkboxBlock', 'a', 'keep me', cursor())));
    (editor.children[1] as unknown as { checked: boolean }).checked = true;
    convertBlock(editor, [1], 'dividerBlock');
    expect(editor.children[1]).toMatchObject({ type: 'dividerBlock', uid: 'a' });
    expect('checked' in editor.children[1]).toBe(false);
    expect(editor.children[2]).toMatchObject({ type: 'textBlock', children: [{ text: 'keep me' }] });
  });

  it('turning a list item into text drops the list fields', () => {
    const editor = editorWith(doc(title('Plan'), block('orderedListBlock', 'a', 'x', cursor())));
    (editor.children[1] as unknown as { forcedOrder: number }).forcedOrder = 4;
    convertBlock(editor, [1], 'textBlock');
    expect(editor.children[1]).toEqual({ type: 'textBlock', uid: 'a', version: 1, children: [{ text: 'x' }] });
  });
});

/* Moved from schema/blocks/textLike.test.ts: schema imports nothing from plugins/ (docs/ARCHITECTURE.md, «Boundaries»). */
describe('shortcuts typed in the editor make these types', () => {
  test.each([
    ['"', 'quoteBlock'],
    ['|', 'quoteBlock'],
    ['*', 'bulletListBlock'],
    ['-', 'bulletListBlock'],
    ['[]', 'checkboxBlock'],
    ['[ ]', 'checkboxBlock'],
    ['/callout', 'calloutBlock'],
    ['/latex', 'latexBlock'],
  ])('%s then a space', (typed, type) => {
    const editor = createWorkspaceEditor();
    editor.children = [
      { type: 'pageHeadingBlock', uid: 'pageHeading_p', version: 1, children: [{ text: 'T' }] },
      { type: 'textBlock', uid: 'b', version: 1, children: [{ text: '' }] },
    ];
    Transforms.select(editor, Editor.start(editor, [1]));
    for (const ch of typed) editor.insertText(ch);
    editor.insertText(' ');
    expect((editor.children[1] as BlockElement).type).toBe(type);
    expect(Editor.string(editor, [1])).toBe('');
  });
});
