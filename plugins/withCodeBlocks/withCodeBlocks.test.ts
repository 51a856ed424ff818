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
    editor.children = [editor.children[0], { type: 'textBlock', uid: 't', version: 1, children: [{ text: 'p' }] }, { ...(editor.children[1] as BlockElement), depth: 1 }];
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

  test('Ctrl/Cmd+Enter leaves the block: a new text block after it, caret there', () => {
    for (const mod of [{ ctrlKey: true }, { metaKey: true }]) {
      const editor = setup('x', [{ type: 'textBlock', uid: 't', version: 1, children: [{ text: 'после' }] }]);
      expect(editor.handleKey({ key: 'Enter', ...mod })).toBe(true);
      expect(editor.children.map((n) => (n as BlockElement).type)).toEqual(['pageHeadingBlock', 'codeBlock', 'textBlock', 'textBlock']);
      const created = editor.children[2] as BlockElement;
      expect(Editor.string(editor, [2])).toBe('');
      expect(created.uid).not.toBe('');
      expect(created.uid).not.toBe('t');
      expect(editor.selection?.anchor.path).toEqual([2, 0]);
      expect(Editor.string(editor, [1])).toBe('x');
    }
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
