import { Editor, Transforms } from 'slate';
import '../types';
import { createWorkspaceEditor } from '../index';
import type { BlockElement } from '../../schema/slate';

const database = {
  type: 'databaseBlock',
  uid: 'db',
  version: 1,
  children: [{ text: '' }],
  data: { config: { fields: { MAIN_FIELD: { name: 'Название', type: 'text' } } }, view: { layouts: [] } },
} as unknown as BlockElement;

describe('withVoidBlocks', () => {
  it('makes database blocks void and leaves text blocks editable', () => {
    const editor = createWorkspaceEditor();
    editor.children = [
      { type: 'pageHeadingBlock', uid: 'pageHeading_p', version: 1, children: [{ text: 'План' }] },
      database,
      { type: 'textBlock', uid: 't', version: 1, children: [{ text: 'после' }] },
    ];
    expect(editor.isVoid(database)).toBe(true);
    expect(editor.isVoid(editor.children[2] as BlockElement)).toBe(false);
    // Typing with the caret on the database does not put text into it.
    Transforms.select(editor, Editor.start(editor, [1]));
    editor.insertText('x');
    expect(Editor.string(editor, [1])).toBe('');
  });
});
