/** @jest-environment jsdom */
import { Editor, Transforms } from 'slate';
import '../types';
import { createWorkspaceEditor } from '../index';
import type { BlockElement } from '../../schema/slate';
import { tokenSchema } from '../../schema/token';
import { insertDateMention } from './withDateMentions';

const title: BlockElement = { type: 'pageHeadingBlock', uid: 'pageHeading_p1', version: 1, children: [{ text: 'Страница' }] };
const date = { start: '2026-12-11T15:00', remindAt: '2026-12-11T12:00:00.000Z' };

function editorWith(text: string) {
  const editor = createWorkspaceEditor();
  editor.children = [title, { type: 'textBlock', uid: 'a', version: 1, children: [{ text }] } as BlockElement];
  Editor.normalize(editor, { force: true });
  return editor;
}
const children = (editor: Editor) => (editor.children[1] as BlockElement).children;

/** «Встреча @пят» with the caret at the end, then the mention chosen. */
function withMention() {
  const editor = editorWith('Встреча @пят');
  Transforms.select(editor, Editor.end(editor, [1]));
  insertDateMention(editor, { anchor: { path: [1, 0], offset: 8 }, focus: { path: [1, 0], offset: 12 } }, '11 декабря 2026, 15:00', date);
  return editor;
}

describe('date mentions', () => {
  test('the typed @-text becomes the mention and a space; the caret after them; a valid token', () => {
    const editor = withMention();
    expect(children(editor)).toEqual([{ text: 'Встреча ' }, { text: '11 декабря 2026, 15:00', date }, { text: ' ' }]);
    expect(editor.selection?.anchor).toEqual({ path: [1, 2], offset: 1 });
    expect(tokenSchema.safeParse(children(editor)[1]).success).toBe(true);
    // One undo step takes it back to what was typed.
    editor.undo();
    expect(children(editor)).toEqual([{ text: 'Встреча @пят' }]);
  });

  test('typing next to it or inside it never joins it', () => {
    const editor = withMention();
    // Right after the mention (before the space).
    Transforms.select(editor, { path: [1, 1], offset: '11 декабря 2026, 15:00'.length });
    editor.insertText('!');
    expect(children(editor)).toEqual([{ text: 'Встреча ' }, { text: '11 декабря 2026, 15:00', date }, { text: '! ' }]);
    // Inside: the text goes after it.
    Transforms.select(editor, { path: [1, 1], offset: 3 });
    editor.insertText('x');
    expect(children(editor)[1]).toEqual({ text: '11 декабря 2026, 15:00', date });
    expect(Editor.string(editor, [1])).toBe('Встреча 11 декабря 2026, 15:00x! ');
  });

  test('Backspace after it and Delete before it remove it whole', () => {
    const editor = withMention();
    Transforms.select(editor, { path: [1, 2], offset: 0 });
    editor.deleteBackward('character');
    expect(children(editor)).toEqual([{ text: 'Встреча  ' }]);
    const other = withMention();
    Transforms.select(other, { path: [1, 0], offset: 8 });
    other.deleteForward('character');
    expect(children(other)).toEqual([{ text: 'Встреча  ' }]);
    // Plain text is deleted a character at a time as ever.
    other.deleteBackward('character');
    expect(Editor.string(other, [1])).toBe('Встреча ');
  });
});
