import { Editor } from 'slate';
import { jsx } from 'slate-hyperscript';
import { withHistory } from 'slate-history';
import { createEditor } from 'slate';
import '../types';
import { cursor, doc } from '../testDocument';
import { UNDO_MERGE_WINDOW_MS } from '../../schema/constants';
import { withUndoWindow } from './withUndoWindow';

const text = (...children: unknown[]) => jsx('element', { type: 'textBlock', uid: 'a', version: 1 }, ...children);

describe('withUndoWindow', () => {
  function setup() {
    let clock = 1000;
    const editor = withUndoWindow(withHistory(createEditor()), () => clock);
    const input = doc(text(cursor()));
    editor.children = input.children;
    editor.selection = input.selection;
    return { editor, advance: (ms: number) => (clock += ms) };
  }

  it('keystrokes within 300 ms of each other are one undo step', () => {
    const { editor, advance } = setup();
    for (const ch of 'abc') {
      editor.insertText(ch);
      advance(UNDO_MERGE_WINDOW_MS - 10);
    }
    expect(editor.history.undos).toHaveLength(1);
    editor.undo();
    expect(Editor.string(editor, [])).toBe('');
  });

  it('a pause longer than 300 ms starts a new step', () => {
    const { editor, advance } = setup();
    editor.insertText('a');
    editor.insertText('b');
    advance(UNDO_MERGE_WINDOW_MS + 1);
    editor.insertText('c');
    expect(editor.history.undos).toHaveLength(2);
    editor.undo();
    expect(Editor.string(editor, [])).toBe('ab');
    editor.redo();
    expect(Editor.string(editor, [])).toBe('abc');
  });

  it('keeps at most 100 steps', () => {
    const { editor, advance } = setup();
    for (let i = 0; i < 150; i++) {
      editor.insertText('x');
      advance(UNDO_MERGE_WINDOW_MS + 1);
    }
    expect(editor.history.undos).toHaveLength(100);
  });
});

describe('undo and redo keys', () => {
  it('Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo', async () => {
    const { createWorkspaceEditor } = await import('../index');
    const editor = createWorkspaceEditor();
    const input = doc(jsx('element', { type: 'pageHeadingBlock', uid: 'pageHeading_p', version: 1 }, 'T'), text('a', cursor()));
    editor.children = input.children;
    editor.selection = input.selection;
    editor.insertText('x');
    expect(editor.handleKey({ key: 'z', ctrlKey: true })).toBe(true);
    expect(Editor.string(editor, [1])).toBe('a');
    expect(editor.handleKey({ key: 'Z', ctrlKey: true, shiftKey: true })).toBe(true);
    expect(Editor.string(editor, [1])).toBe('ax');
    editor.handleKey({ key: 'z', metaKey: true });
    expect(editor.handleKey({ key: 'y', ctrlKey: true })).toBe(true);
    expect(Editor.string(editor, [1])).toBe('ax');
  });
});
