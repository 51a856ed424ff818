import { jsx } from 'slate-hyperscript';
import { canConvertBlock } from '../index';
import { block, cursor, doc, editorWith, title, type } from '../testDocument';
import type { BlockElement } from '../../schema/slate';
import { closedInlineMarker } from './inlineMarks';

/*
 * Issue 15's markdown habits: ``` (with a language) on space or Enter, `>` quotes, and inline
 * markdown (**bold**, *italic*, _italic_, `code`, ~~strike~~) as the closing marker is typed.
 */

const emptyParagraph = () => editorWith(doc(title('Plan'), block('textBlock', 'a', cursor())));

describe('closedInlineMarker', () => {
  it.each([
    ['**bold**', 'bold', 0, 6],
    ['say **два слова**', 'bold', 4, 15],
    ['*italic*', 'italic', 0, 7],
    ['_italic_', 'italic', 0, 7],
    ['run `npm i`', 'code', 4, 10],
    ['~~old~~', 'struckOut', 0, 5],
    ['(*a*', 'italic', 1, 3],
  ] as const)('%s closes %s', (text, mark, open, close) => {
    expect(closedInlineMarker(text)).toMatchObject({ mark, open, close });
  });

  it.each([
    ['****', 'nothing between'],
    ['**', 'nothing between'],
    ['**bold*', 'the first of two closing asterisks'],
    ['2*3*', 'an asterisk in the middle of a word'],
    ['snake_case_', 'underscores inside a word'],
    ['* not*', 'a space after the opening marker'],
    ['*not *', 'a space before the closing marker'],
    ['```', 'a code fence'],
    ['` `', 'blank code'],
    ['plain*', 'no opening marker'],
    ['~~a~', 'one tilde'],
  ])('%s does not close (%s)', (text) => {
    expect(closedInlineMarker(text)).toBeNull();
  });
});

describe('markdown habits in the editor', () => {
  it.each([[' '], ['Enter']])('``` then %j makes an empty code block in the default language', async (key) => {
    const editor = emptyParagraph();
    await type(editor, '```');
    if (key === 'Enter') editor.insertBreak();
    else await type(editor, key);
    expect(editor.children[1]).toEqual({ type: 'codeBlock', uid: 'a', version: 1, language: 'javascript', children: [{ text: '' }] });
    expect(editor.selection?.anchor).toEqual({ path: [1, 0], offset: 0 });
  });

  it.each([
    ['```js', 'javascript'],
    ['```python', 'python'],
    ['```ts', 'typescript'],
    ['```sh', 'bash'],
    ['```klingon', 'javascript'],
  ])('%s then Enter sets the language it names (%s; an unknown name keeps the default)', async (typed, language) => {
    const editor = emptyParagraph();
    await type(editor, typed);
    editor.insertBreak();
    expect(editor.children[1]).toMatchObject({ type: 'codeBlock', language, children: [{ text: '' }] });
  });

  it('undo after ``` and Enter gives the typed fence back in a paragraph', async () => {
    const editor = emptyParagraph();
    await type(editor, '```py');
    editor.insertBreak();
    editor.undo();
    expect(editor.children[1]).toEqual({ type: 'textBlock', uid: 'a', version: 1, children: [{ text: '```py' }] });
  });

  it('Enter after ``` with text before it in the block is an ordinary Enter', async () => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', 'x', cursor())));
    await type(editor, '```');
    editor.insertBreak();
    expect(editor.children.map((n) => (n as { type: string }).type)).toEqual(['pageHeadingBlock', 'textBlock', 'textBlock']);
    expect(editor.children[1]).toMatchObject({ children: [{ text: 'x```' }] });
  });

  it('`>` and a space make a toggle, as in Notion (a quote is `"` or `|`)', async () => {
    const editor = emptyParagraph();
    await type(editor, '> Цитата');
    expect(editor.children[1]).toEqual({ type: 'toggleBlock', uid: 'a', version: 1, children: [{ text: 'Цитата' }] });
  });

  it.each([
    ['**жирный**', 'bold'],
    ['*курсив*', 'italic'],
    ['_курсив_', 'italic'],
    ['`code`', 'code'],
    ['~~зачёркнутый~~', 'struckOut'],
  ])('typing %s marks the text between as %s and drops the markers; what follows is plain', async (typed, mark) => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', 'Это ', cursor())));
    await type(editor, typed);
    await type(editor, ' дальше');
    const word = typed.replace(/[*_`~]/g, '');
    expect(editor.children[1]).toEqual({
      type: 'textBlock',
      uid: 'a',
      version: 1,
      children: [{ text: 'Это ' }, { text: word, [mark]: true }, { text: ' дальше' }],
    });
  });

  it('undo right after gives back the typed markers, and redo marks again', async () => {
    const editor = editorWith(doc(title('Plan'), block('textBlock', 'a', 'Это ', cursor())));
    await type(editor, '**важно**');
    expect(editor.children[1]).toMatchObject({ children: [{ text: 'Это ' }, { text: 'важно', bold: true }] });
    editor.undo();
    expect(editor.children[1]).toMatchObject({ children: [{ text: 'Это **важно**' }] });
    expect(editor.selection?.anchor).toEqual({ path: [1, 0], offset: 13 });
    editor.redo();
    expect(editor.children[1]).toMatchObject({ children: [{ text: 'Это ' }, { text: 'важно', bold: true }] });
  });

  it('works in headings, lists and quotes, and keeps the marks the text already had', async () => {
    const editor = editorWith(
      doc(title('Plan'), block('bulletListBlock', 'a', jsx('text', { bold: true }, 'жир '), '*', jsx('text', { bold: true }, 'x', cursor()))),
    );
    await type(editor, '*');
    expect(editor.children[1]).toEqual({
      type: 'bulletListBlock',
      uid: 'a',
      version: 1,
      children: [
        { text: 'жир ', bold: true },
        { text: 'x', bold: true, italic: true },
      ],
    });
    const heading = editorWith(doc(title('Plan'), block('heading2Block', 'h', cursor())));
    await type(heading, '~~old~~');
    expect(heading.children[1]).toMatchObject({ type: 'heading2Block', children: [{ text: 'old', struckOut: true }] });
  });

  it.each([
    ['2*3*4', 'mid-word asterisks'],
    ['****', 'nothing between'],
    ['snake_case_name_', 'underscores in a word'],
  ])('leaves %s as typed (%s)', async (typed) => {
    const editor = emptyParagraph();
    await type(editor, typed);
    expect(editor.children[1]).toEqual({ type: 'textBlock', uid: 'a', version: 1, children: [{ text: typed }] });
  });

  it('does nothing in a code block or in the title', async () => {
    const editor = editorWith(doc(title(cursor()), { type: 'codeBlock', uid: 'c', version: 1, language: 'javascript', children: [{ text: 'a ' }] }));
    await type(editor, '**t**');
    expect(editor.children[0]).toMatchObject({ children: [{ text: '**t**' }] });
    editor.selection = { anchor: { path: [1, 0], offset: 2 }, focus: { path: [1, 0], offset: 2 } };
    await type(editor, '**x** `y`');
    expect(editor.children[1]).toEqual({ type: 'codeBlock', uid: 'c', version: 1, language: 'javascript', children: [{ text: 'a **x** `y`' }] });
  });
});

describe('canConvertBlock («Превратить в…» in the block menu)', () => {
  const element = (type: string, fields: Record<string, unknown> = {}, children: unknown[] = [{ text: 'x' }]) =>
    ({ type, uid: 'u', version: 1, children, ...fields }) as unknown as BlockElement;

  it.each(['textBlock', 'heading1Block', 'heading3Block', 'quoteBlock', 'bulletListBlock', 'orderedListBlock', 'checkboxBlock', 'codeBlock', 'calloutBlock'])(
    'a %s holds text: it can turn into another type',
    (type) => {
      expect(canConvertBlock(element(type))).toBe(true);
    },
  );

  it.each(['databaseBlock', 'databaseRowBlock', 'imageBlock', 'fileBlock', 'embedBlock', 'latexBlock', 'dividerBlock', 'documentBlock', 'pageHeadingBlock'])(
    'a %s cannot (void, or not a block type of the menu)',
    (type) => {
      expect(canConvertBlock(element(type, {}, [{ text: '' }]))).toBe(false);
    },
  );

  it('a table (rows of cells) cannot', () => {
    expect(canConvertBlock(element('tableBlock', {}, [{ type: 'tableRow', children: [{ type: 'tableCell', children: [{ text: 'a' }] }] }]))).toBe(false);
  });
});
