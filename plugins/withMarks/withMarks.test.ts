import { jsx } from 'slate-hyperscript';
import '../types';
import { anchor, doc, editorWith, focus, text, title } from '../testDocument';
import { activeLink, isMarkActive, selectionMarks, setLink } from './withMarks';

describe('withMarks', () => {
  it.each([
    ['b', 'bold'],
    ['i', 'italic'],
    ['u', 'underline'],
    ['e', 'code'],
    ['и', 'bold'],
  ] as const)('Ctrl+%s toggles %s on the selection, and again off', (key, mark) => {
    const editor = editorWith(doc(title(), text('a', 'one ', anchor(), 'two', focus(), ' three')));
    expect(editor.handleKey({ key, ctrlKey: true })).toBe(true);
    expect(editor.children[1]).toEqual({
      type: 'textBlock',
      uid: 'a',
      version: 1,
      children: [{ text: 'one ' }, { text: 'two', [mark]: true }, { text: ' three' }],
    });
    expect(isMarkActive(editor, mark)).toBe(true);
    expect(editor.handleKey({ key, metaKey: true })).toBe(true);
    expect(editor.children[1]).toEqual({ type: 'textBlock', uid: 'a', version: 1, children: [{ text: 'one two three' }] });
  });

  it('Ctrl+Shift+S strikes through; plain letters and Alt combinations pass on', () => {
    const editor = editorWith(doc(title(), text('a', anchor(), 'x', focus())));
    expect(editor.handleKey({ key: 'S', ctrlKey: true, shiftKey: true })).toBe(true);
    expect(editor.children[1]).toMatchObject({ children: [{ text: 'x', struckOut: true }] });
    expect(editor.handleKey({ key: 'b' })).toBe(false);
    expect(editor.handleKey({ key: 'b', ctrlKey: true, altKey: true })).toBe(false);
  });

  it('setLink links http(s) addresses (a bare domain gets https://) and refuses other schemes', () => {
    const editor = editorWith(doc(title(), text('a', 'see ', anchor(), 'docs', focus())));
    expect(setLink(editor, 'javascript:alert(1)')).toBe(false);
    expect(editor.children[1]).toMatchObject({ children: [{ text: 'see docs' }] });
    expect(setLink(editor, 'example.com/docs')).toBe(true);
    expect(editor.children[1]).toMatchObject({ children: [{ text: 'see ' }, { text: 'docs', link: { href: 'https://example.com/docs' } }] });
    expect(activeLink(editor)).toBe('https://example.com/docs');
    expect(setLink(editor, '')).toBe(true);
    expect(activeLink(editor)).toBeNull();
  });
});

describe('selectionMarks', () => {
  it('names the marks every selected text has, and the first link, in one pass', () => {
    const editor = editorWith(
      doc(
        title(),
        jsx(
          'element',
          { type: 'textBlock', uid: 'a', version: 1 },
          jsx('text', { bold: true, italic: true }, anchor(), 'one'),
          jsx('text', { bold: true, link: { href: 'https://x.example/' } }, ' two', focus()),
        ),
      ),
    );
    const { marks, link } = selectionMarks(editor);
    expect([...marks]).toEqual(['bold']);
    expect(link).toBe('https://x.example/');
  });
});
