import { Editor, Transforms } from 'slate';
import { HistoryEditor } from 'slate-history';
import '../types';
import { createWorkspaceEditor } from '../index';
import { toWire } from '../../schema/block';
import type { BlockElement } from '../../schema/slate';
import { insertPageLink, pageLinkAt, pageLinkQuery } from './withPageLinks';

const PAGE = '0f7c1a52-3e0b-4a5e-9f1d-2b8c6d4e5a10';
const LINK = { href: `/${PAGE}`, pageId: PAGE };

function setup(block: Partial<BlockElement> & { type: BlockElement['type'] } = { type: 'textBlock' }) {
  const editor = createWorkspaceEditor();
  editor.children = [
    { type: 'pageHeadingBlock', uid: 'pageHeading_p', version: 1, children: [{ text: 'Заголовок' }] },
    { uid: 't', version: 1, children: [{ text: '' }], ...block } as BlockElement,
  ];
  Transforms.select(editor, Editor.end(editor, [1]));
  return editor;
}

function texts(editor: Editor) {
  return (editor.children[1] as BlockElement).children as Array<{ text: string }>;
}

function type(editor: Editor, text: string) {
  for (const ch of text) editor.insertText(ch);
}

describe('trigger detection', () => {
  it('[[ and @ open a search with what follows them', () => {
    const editor = setup();
    type(editor, 'см. [[Пла');
    expect(pageLinkQuery(editor)).toMatchObject({
      trigger: '[[',
      query: 'Пла',
      range: { anchor: { path: [1, 0], offset: 4 }, focus: { path: [1, 0], offset: 9 } },
    });
    const other = setup();
    type(other, '@');
    expect(pageLinkQuery(other)).toMatchObject({ trigger: '@', query: '' });
    type(other, 'план года');
    expect(pageLinkQuery(other)?.query).toBe('план года');
  });

  it('an @ inside a word (an e-mail), a query starting with a space, a line break or a closed ]] are not a search', () => {
    for (const text of ['anna@mail', '@ план', '[[a\nb', '[[План]]', 'просто текст']) {
      const editor = setup();
      type(editor, text);
      expect(pageLinkQuery(editor)).toBeNull();
    }
  });

  it('not in the title, a code block or a table cell', () => {
    const editor = setup();
    Transforms.select(editor, Editor.end(editor, [0]));
    type(editor, ' [[Пла');
    expect(pageLinkQuery(editor)).toBeNull();
    const code = setup({ type: 'codeBlock', language: 'javascript' });
    type(code, '[[Пла');
    expect(pageLinkQuery(code)).toBeNull();
    const inlineCode = setup({ type: 'textBlock', children: [{ text: 'x @a', code: true }] });
    expect(pageLinkQuery(inlineCode)).toBeNull();
  });

  it('other text blocks (lists, headings, quotes) take it', () => {
    const editor = setup({ type: 'bulletListBlock' });
    type(editor, '@Пл');
    expect(pageLinkQuery(editor)?.query).toBe('Пл');
  });
});

describe('inserting a page link', () => {
  it('replaces the trigger and query with the link and a space; the wire keeps a link to /{pageId}', () => {
    const editor = setup();
    type(editor, 'см. [[Пла');
    insertPageLink(editor, pageLinkQuery(editor)!.range, PAGE);
    expect(texts(editor)).toEqual([{ text: 'см. ' }, { text: '↗', link: LINK }, { text: ' ' }]);
    expect(toWire(editor.children[1] as BlockElement, { pageId: 'p', parentId: null, placeAfter: null }).data).toEqual({
      tokens: [{ text: 'см. ' }, { text: '↗', link: LINK }, { text: ' ' }],
    });
    expect(pageLinkAt(editor, [1, 1])).toBe(PAGE);
    expect(pageLinkAt(editor, [1, 0])).toBeNull();
    // The caret is after the space; what is typed next is plain text.
    type(editor, 'далее');
    expect(texts(editor)).toEqual([{ text: 'см. ' }, { text: '↗', link: LINK }, { text: ' далее' }]);
  });

  it('typing right after the link (the space deleted) or before it does not join the link', () => {
    const editor = setup();
    type(editor, '@П');
    insertPageLink(editor, pageLinkQuery(editor)!.range, PAGE);
    editor.deleteBackward('character');
    type(editor, 'x');
    expect(texts(editor)).toEqual([{ text: '↗', link: LINK }, { text: 'x' }]);
    Transforms.select(editor, { path: [1, 0], offset: 0 });
    type(editor, 'y');
    expect(texts(editor).filter((c) => c.text !== '')).toEqual([{ text: 'y' }, { text: '↗', link: LINK }, { text: 'x' }]);
  });

  it('keeps an existing space after the caret instead of adding one', () => {
    const editor = setup({ type: 'textBlock', children: [{ text: 'a @Пл b' }] });
    Transforms.select(editor, { path: [1, 0], offset: 5 });
    insertPageLink(editor, pageLinkQuery(editor)!.range, PAGE);
    expect(texts(editor)).toEqual([{ text: 'a ' }, { text: '↗', link: LINK }, { text: ' b' }]);
    expect(editor.selection?.anchor).toEqual({ path: [1, 2], offset: 1 });
  });

  it('undo removes the link in one step and gives the typed search back', () => {
    const editor = setup();
    type(editor, 'см. [[Пла');
    HistoryEditor.setSplittingOnce(editor, true);
    insertPageLink(editor, pageLinkQuery(editor)!.range, PAGE);
    editor.undo();
    expect(texts(editor)).toEqual([{ text: 'см. [[Пла' }]);
  });
});
