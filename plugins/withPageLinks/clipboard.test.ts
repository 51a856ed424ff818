/** @jest-environment jsdom */
import { Editor, Transforms } from 'slate';
import '../types';
import { createWorkspaceEditor } from '../index';
import { copyContent } from '../withClipboard/serialize';
import { readClipboard } from '../withClipboard/withClipboard';
import { tokensToMarkdown } from '../../schema/markdown/write';
import type { BlockElement } from '../../schema/slate';

/* Page links through copy, paste and markdown: they stay page links (docs/plugins.md, «Page links»). */

const PAGE = '0f7c1a52-3e0b-4a5e-9f1d-2b8c6d4e5a10';
const LINK = { href: `/${PAGE}`, pageId: PAGE };

function setup() {
  const editor = createWorkspaceEditor();
  editor.children = [
    { type: 'pageHeadingBlock', uid: 'pageHeading_p', version: 1, children: [{ text: 'Заголовок' }] },
    { type: 'textBlock', uid: 't', version: 1, children: [{ text: 'см. ' }, { text: '↗', link: LINK }, { text: ' тут' }] } as BlockElement,
    { type: 'textBlock', uid: 'u', version: 1, children: [{ text: 'ещё' }] } as BlockElement,
  ];
  editor.pageLinkTitle = (id) => (id === PAGE ? 'План на год' : null);
  return editor;
}

const clip = (formats: Record<string, string>) => ({ getData: (type: string) => formats[type] ?? '' });

describe('copy', () => {
  it('inside a block: the JSON keeps the page link; HTML and text carry the current title', () => {
    const editor = setup();
    Transforms.select(editor, { anchor: { path: [1, 0], offset: 0 }, focus: { path: [1, 2], offset: 4 } });
    const copied = copyContent(editor)!;
    expect(copied.json).toEqual({ format: 'workspace-blocks', version: 1, tokens: [{ text: 'см. ' }, { text: '↗', link: LINK }, { text: ' тут' }] });
    expect(copied.html).toBe(`см. <a href="/${PAGE}" data-page-id="${PAGE}">План на год</a> тут`);
    expect(copied.text).toBe('см. План на год тут');
  });

  it('across blocks too; without a known title the link keeps its own text', () => {
    const editor = setup();
    Transforms.select(editor, { anchor: Editor.start(editor, [1]), focus: Editor.end(editor, [2]) });
    expect(copyContent(editor)!.text).toBe('см. План на год тут\nещё');
    editor.pageLinkTitle = () => null;
    expect(copyContent(editor)!.text).toBe('см. ↗ тут\nещё');
  });
});

describe('paste and markdown', () => {
  it('pasted HTML of a page link gives the page link back (its text is the link mark, not the old title)', () => {
    const pasted = readClipboard(clip({ 'text/html': `<p>см. <a href="/${PAGE}" data-page-id="${PAGE}">План</a> тут</p>` }));
    expect(pasted).toEqual({ kind: 'inline', tokens: [{ text: 'см. ' }, { text: '↗', link: LINK }, { text: ' тут' }] });
  });

  it('an <a> claiming a page id with another address is a plain (refused) link: only its text stays', () => {
    const pasted = readClipboard(clip({ 'text/html': `<p><a href="javascript:alert(1)" data-page-id="${PAGE}">x</a></p>` }));
    expect(pasted).toEqual({ kind: 'inline', tokens: [{ text: 'x' }] });
  });

  it('markdown writes [text](/{pageId}) and reads it back as the page link', () => {
    const markdown = tokensToMarkdown([{ text: 'см. ' }, { text: '↗', link: LINK }]);
    expect(markdown).toBe(`см. [↗](/${PAGE})`);
    const pasted = readClipboard(clip({ 'text/plain': `см. [План](/${PAGE})` }));
    expect(pasted).toMatchObject({ kind: 'inline', tokens: [{ text: 'см. ' }, { text: '↗', link: LINK }] });
  });
});
