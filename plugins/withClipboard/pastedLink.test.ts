/** @jest-environment jsdom */
import { Editor, Transforms } from 'slate';
import '../types';
import { createWorkspaceEditor } from '../index';
import type { BlockElement } from '../../schema/slate';
import { CLIPBOARD_MIME } from './content';
import { bareLinkOf, linkBlockChoices, turnPastedLink } from './pastedLink';
import { readClipboard } from './withClipboard';
import { insertPastedContent } from './insertBlocks';

const clip = (formats: Record<string, string>) => ({ getData: (type: string) => formats[type] ?? '' });
const title: BlockElement = { type: 'pageHeadingBlock', uid: 'pageHeading_p1', version: 1, children: [{ text: 'Страница' }] };
const para = (uid: string, text: string, extra: Record<string, unknown> = {}) =>
  ({ type: 'textBlock', uid, version: 1, children: [{ text }], ...extra }) as BlockElement;

function editorWith(blocks: BlockElement[]) {
  const editor = createWorkspaceEditor();
  editor.children = [title, ...blocks];
  Editor.normalize(editor, { force: true });
  return editor;
}

/** Pastes `url` as plain text at the end of block `index` (as a person pasting a copied address). */
function pasteUrl(editor: Editor, index: number, url: string) {
  Transforms.select(editor, Editor.end(editor, [index]));
  const data = clip({ 'text/plain': url });
  insertPastedContent(editor, readClipboard(data)!, url);
}

const shape = (editor: Editor) =>
  editor.children.slice(1).map((node) => {
    const { uid: _uid, version: _version, ...rest } = node as BlockElement;
    return rest;
  });

const url = 'https://example.com/article?id=7';
const bookmarkChoice = () => linkBlockChoices(url).find((c) => c.definition.wireType === 'bookmark')!;

describe('a bare link pasted', () => {
  test('is offered only for one http(s) address on the clipboard, not for our own copy or more text', () => {
    expect(bareLinkOf(clip({ 'text/plain': `  ${url}\n` }))).toBe(url);
    expect(bareLinkOf(clip({ 'text/plain': `смотри ${url}` }))).toBeNull();
    expect(bareLinkOf(clip({ 'text/plain': 'javascript:alert(1)' }))).toBeNull();
    expect(bareLinkOf(clip({ 'text/plain': 'ftp://example.com/' }))).toBeNull();
    expect(bareLinkOf(clip({ 'text/plain': url, [CLIPBOARD_MIME]: '{}' }))).toBeNull();
  });

  test('may become a bookmark, and an embed only for an allowed host', () => {
    expect(linkBlockChoices(url).map((c) => c.definition.wireType)).toEqual(['bookmark']);
    expect(linkBlockChoices('https://www.youtube.com/watch?v=dQw4w9WgXcQ').map((c) => c.definition.wireType)).toEqual(['bookmark', 'embed']);
  });

  test('alone on its line: the line becomes the bookmark, writing goes on in a paragraph after it', () => {
    const editor = editorWith([para('a', ''), para('b', 'после')]);
    pasteUrl(editor, 1, url);
    expect((editor.children[1] as BlockElement).children).toEqual([{ text: url, link: { href: url } }]);
    const { definition, data } = bookmarkChoice();
    expect(turnPastedLink(editor, 'a', url, definition, data)).toBe(true);
    expect(shape(editor)).toEqual([
      { type: 'bookmarkBlock', url, preview: null, children: [{ text: '' }] },
      { type: 'textBlock', children: [{ text: '' }] },
      { type: 'textBlock', children: [{ text: 'после' }] },
    ]);
    expect((editor.children[1] as BlockElement).uid).toBe('a');
    expect(editor.selection?.anchor.path).toEqual([2, 0]);
  });

  test('after other text: the text stays, the bookmark follows the line at its depth', () => {
    const editor = editorWith([para('p', 'Ссылки'), para('a', 'Читайте: ', { depth: 1 }), para('b', 'дальше')]);
    pasteUrl(editor, 2, url);
    const { definition, data } = bookmarkChoice();
    expect(turnPastedLink(editor, 'a', url, definition, data)).toBe(true);
    expect(shape(editor)).toEqual([
      { type: 'textBlock', children: [{ text: 'Ссылки' }] },
      { type: 'textBlock', depth: 1, children: [{ text: 'Читайте: ' }] },
      { type: 'bookmarkBlock', depth: 1, url, preview: null, children: [{ text: '' }] },
      { type: 'textBlock', children: [{ text: 'дальше' }] },
    ]);
  });

  test('a link typed over or gone is not turned: nothing changes', () => {
    const editor = editorWith([para('a', '')]);
    pasteUrl(editor, 1, url);
    Transforms.insertText(editor, 'X', { at: { path: [1, 0], offset: 3 } });
    const before = JSON.stringify(editor.children);
    const { definition, data } = bookmarkChoice();
    expect(turnPastedLink(editor, 'a', url, definition, data)).toBe(false);
    expect(turnPastedLink(editor, 'missing', url, definition, data)).toBe(false);
    expect(JSON.stringify(editor.children)).toBe(before);
  });

  test('an embed of an allowed host takes its data from the definition', () => {
    const video = 'https://youtu.be/dQw4w9WgXcQ';
    const editor = editorWith([para('a', '')]);
    pasteUrl(editor, 1, video);
    const embed = linkBlockChoices(video).find((c) => c.definition.wireType === 'embed')!;
    expect(turnPastedLink(editor, 'a', video, embed.definition, embed.data)).toBe(true);
    expect(shape(editor)[0]).toEqual({ type: 'embedBlock', url: video, scale: 1, align: 'center', children: [{ text: '' }] });
  });
});
