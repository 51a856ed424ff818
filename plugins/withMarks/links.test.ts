import { Transforms } from 'slate';
import '../types';
import { createWorkspaceEditor, linkAtCaret, linkRangeAt, removeLinkAt } from '../index';
import type { BlockElement } from '../../schema/slate';

/* The link card's helpers (src/editor/LinkCard.tsx): the whole link around a text, and removing it. */

const HREF = 'https://example.com/a';

function setup() {
  const editor = createWorkspaceEditor();
  editor.children = [
    { type: 'pageHeadingBlock', uid: 'pageHeading_p', version: 1, children: [{ text: 'Ссылки' }] },
    {
      type: 'textBlock',
      uid: 't',
      version: 1,
      children: [
        { text: 'см. ' },
        { text: 'при', link: { href: HREF } },
        { text: 'мер', link: { href: HREF }, bold: true },
        { text: 'и ' },
        { text: 'другой', link: { href: 'https://example.org/' } },
      ],
    } as BlockElement,
  ];
  return editor;
}

describe('link helpers', () => {
  it('the whole link around a text: neighbours with the same address, across other marks', () => {
    const editor = setup();
    expect(linkRangeAt(editor, [1, 2])).toEqual({ href: HREF, range: { anchor: { path: [1, 1], offset: 0 }, focus: { path: [1, 2], offset: 3 } } });
    expect(linkRangeAt(editor, [1, 4])).toEqual({
      href: 'https://example.org/',
      range: { anchor: { path: [1, 4], offset: 0 }, focus: { path: [1, 4], offset: 6 } },
    });
    expect(linkRangeAt(editor, [1, 0])).toBeNull();
    expect(linkRangeAt(editor, [9, 0])).toBeNull();
  });

  it('the link at the caret; none for an expanded selection or plain text', () => {
    const editor = setup();
    Transforms.select(editor, { path: [1, 1], offset: 2 });
    expect(linkAtCaret(editor)?.href).toBe(HREF);
    Transforms.select(editor, { path: [1, 0], offset: 1 });
    expect(linkAtCaret(editor)).toBeNull();
    Transforms.select(editor, { anchor: { path: [1, 1], offset: 0 }, focus: { path: [1, 1], offset: 2 } });
    expect(linkAtCaret(editor)).toBeNull();
  });

  it('removing a link unlinks all of it and keeps its text and other marks; other links stay', () => {
    const editor = setup();
    expect(removeLinkAt(editor, [1, 1])).toBe(true);
    expect((editor.children[1] as BlockElement).children).toEqual([
      { text: 'см. при' },
      { text: 'мер', bold: true },
      { text: 'и ' },
      { text: 'другой', link: { href: 'https://example.org/' } },
    ]);
    expect(removeLinkAt(editor, [1, 0])).toBe(false);
  });
});
