import { Editor, Transforms } from 'slate';
import '../types';
import { createWorkspaceEditor } from '../index';
import type { BlockElement } from '../../schema/slate';

function setup(code = 'let a = 1;', extra: BlockElement[] = []) {
  const editor = createWorkspaceEditor();
  editor.children = [
    { type: 'pageHeadingBlock', uid: 'pageHeading_p', version: 1, children: [{ text: 'Код' }] },
    { type: 'codeBlock', uid: 'c', version: 1, language: 'javascript', children: [{ text: code }] },
    ...extra,
  ];
  Transforms.select(editor, Editor.end(editor, [1]));
  return editor;
}

describe('withCodeBlocks', () => {
  test('Enter inserts a line break in the same block', () => {
    const editor = setup();
    editor.insertBreak();
    editor.insertText('b');
    expect(editor.children).toHaveLength(2);
    expect(Editor.string(editor, [1])).toBe('let a = 1;\nb');
  });

  test('Enter in an empty nested code block stays a line break (no outdent)', () => {
    const editor = setup('');
    editor.children = [
      editor.children[0],
      { type: 'textBlock', uid: 't', version: 1, children: [{ text: 'p' }] },
      { ...(editor.children[1] as BlockElement), depth: 1 },
    ];
    Transforms.select(editor, Editor.end(editor, [2]));
    editor.insertBreak();
    expect(Editor.string(editor, [2])).toBe('\n');
    expect((editor.children[2] as BlockElement).depth).toBe(1);
  });

  test('Tab inserts two spaces, replacing a selection', () => {
    const editor = setup('abc');
    Transforms.select(editor, { path: [1, 0], offset: 1 });
    expect(editor.handleKey({ key: 'Tab' })).toBe(true);
    expect(Editor.string(editor, [1])).toBe('a  bc');
    Transforms.select(editor, { anchor: { path: [1, 0], offset: 0 }, focus: { path: [1, 0], offset: 5 } });
    expect(editor.handleKey({ key: 'Tab' })).toBe(true);
    expect(Editor.string(editor, [1])).toBe('  ');
    // Tab in code does not indent the block.
    expect('depth' in editor.children[1]).toBe(false);
  });

  test('Ctrl/Cmd+Enter and Shift+Enter stay in the block and insert a line break', () => {
    for (const mod of [{ ctrlKey: true }, { metaKey: true }]) {
      const editor = setup('x', [{ type: 'textBlock', uid: 't', version: 1, children: [{ text: 'после' }] }]);
      expect(editor.handleKey({ key: 'Enter', ...mod })).toBe(true);
      editor.insertText('y');
      expect(editor.children.map((n) => (n as BlockElement).type)).toEqual(['pageHeadingBlock', 'codeBlock', 'textBlock']);
      expect(Editor.string(editor, [1])).toBe('x\ny');
    }
    const editor = setup('ab');
    Transforms.select(editor, { anchor: { path: [1, 0], offset: 1 }, focus: { path: [1, 0], offset: 2 } });
    editor.handleKey({ key: 'Enter', ctrlKey: true });
    editor.insertSoftBreak();
    expect(Editor.string(editor, [1])).toBe('a\n\n');
    expect(editor.children).toHaveLength(2);
  });

  test('Enter on the empty last line leaves: the line goes, a new paragraph after the block has the caret', async () => {
    // Each key in its own tick, as in a browser (slate-history merges what one tick does).
    const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
    const editor = setup('let a = 1;', [{ type: 'textBlock', uid: 't', version: 1, children: [{ text: 'после' }] }]);
    editor.insertBreak();
    await tick();
    expect(Editor.string(editor, [1])).toBe('let a = 1;\n');
    editor.insertBreak();
    await tick();
    expect(editor.children.map((n) => (n as BlockElement).type)).toEqual(['pageHeadingBlock', 'codeBlock', 'textBlock', 'textBlock']);
    expect(Editor.string(editor, [1])).toBe('let a = 1;');
    expect(Editor.string(editor, [2])).toBe('');
    expect((editor.children[2] as BlockElement).uid).not.toBe('');
    expect(editor.selection?.anchor).toEqual({ path: [2, 0], offset: 0 });
    editor.insertText('дальше');
    await tick();
    expect(Editor.string(editor, [2])).toBe('дальше');
    // Undo takes the leaving back as one step: the empty line is there again.
    editor.undo();
    editor.undo();
    expect(editor.children).toHaveLength(3);
    expect(Editor.string(editor, [1])).toBe('let a = 1;\n');
  });

  test('Enter on an empty line that is not the last, or not at the end, is a line break', () => {
    const editor = setup('a\n\nb');
    Transforms.select(editor, { path: [1, 0], offset: 2 });
    editor.insertBreak();
    expect(Editor.string(editor, [1])).toBe('a\n\n\nb');
    const empty = setup('');
    empty.insertBreak();
    expect(Editor.string(empty, [1])).toBe('\n');
    expect(empty.children).toHaveLength(2);
  });

  test('ArrowDown at the very end goes to the next block, or makes a paragraph when the code is last', () => {
    const editor = setup('x\ny', [{ type: 'textBlock', uid: 't', version: 1, children: [{ text: 'после' }] }]);
    expect(editor.handleKey({ key: 'ArrowDown' })).toBe(true);
    expect(editor.selection?.anchor).toEqual({ path: [2, 0], offset: 0 });
    expect(editor.children).toHaveLength(3);

    const last = setup('x');
    expect(last.handleKey({ key: 'ArrowDown' })).toBe(true);
    expect(last.children.map((n) => (n as BlockElement).type)).toEqual(['pageHeadingBlock', 'codeBlock', 'textBlock']);
    expect(last.selection?.anchor).toEqual({ path: [2, 0], offset: 0 });

    // Not at the end: the browser moves the caret a line down.
    const middle = setup('x\ny');
    Transforms.select(middle, { path: [1, 0], offset: 1 });
    expect(middle.handleKey({ key: 'ArrowDown' })).toBe(false);
    expect(middle.handleKey({ key: 'ArrowDown', shiftKey: true })).toBe(false);
  });

  test('keys outside code blocks pass on', () => {
    const editor = setup('x', [{ type: 'textBlock', uid: 't', version: 1, children: [{ text: 'abc' }] }]);
    Transforms.select(editor, Editor.end(editor, [2]));
    expect(editor.handleKey({ key: 'Enter', ctrlKey: true })).toBe(false);
    editor.insertBreak();
    expect(editor.children).toHaveLength(4);
  });

  test('code text keeps no marks', () => {
    const editor = setup('ab');
    Transforms.select(editor, { anchor: { path: [1, 0], offset: 0 }, focus: { path: [1, 0], offset: 1 } });
    Editor.addMark(editor, 'bold', true);
    expect((editor.children[1] as BlockElement).children).toEqual([{ text: 'ab' }]);
  });

  test('a paste into code goes in as text with its line breaks, in the same block', () => {
    const editor = setup('x');
    const data = { getData: (type: string) => (type === 'text/plain' ? 'a\r\nb\nc' : '') } as unknown as DataTransfer;
    editor.insertData(data);
    expect(editor.children).toHaveLength(2);
    expect(Editor.string(editor, [1])).toBe('xa\nb\nc');
  });
});
