import { Editor, Transforms, type Descendant } from 'slate';
import { titleToSlate } from '../../schema/blocks';
import { blocksToSlate } from '../../schema/block';
import { createPageEditor } from './pageEditor';
import { clickToRange, replayKeys } from './earlyInput';

/** The page the server drew: a title and a paragraph of two leaves («Жирный» bold, « и обычный»). */
function page() {
  const editor = createPageEditor({ onBlockChanged: () => undefined, onTitleChanged: () => undefined });
  editor.children = [
    titleToSlate('p', 'Заголовок'),
    ...blocksToSlate([
      {
        id: 'b1',
        contentType: 'Block',
        pageId: 'p',
        parentId: null,
        placeAfter: null,
        type: 'text',
        version: 1,
        data: { tokens: [{ text: 'Жирный', bold: true }, { text: ' и обычный' }] },
      } as never,
    ]),
  ] as Descendant[];
  return editor;
}

test('a kept click becomes a caret in the right leaf of the right block; past the end, at its end; an unknown block, none', () => {
  const editor = page();
  const point = (path: number[], offset: number) => ({ anchor: { path, offset }, focus: { path, offset } });
  expect(clickToRange(editor, { blockId: 'b1', offset: 3 })).toEqual(point([1, 0], 3));
  expect(clickToRange(editor, { blockId: 'b1', offset: 'Жирный'.length + 2 })).toEqual(point([1, 1], 2));
  expect(clickToRange(editor, { blockId: 'b1', offset: 999 })).toEqual(point([1, 1], ' и обычный'.length));
  expect(clickToRange(editor, { blockId: 'pageHeading_p', offset: 4 })).toEqual(point([0, 0], 4));
  expect(clickToRange(editor, { blockId: 'gone', offset: 0 })).toBeNull();
});

test('kept keys are typed where the caret is, in order: characters, Enter and Backspace', () => {
  const editor = page();
  Transforms.select(editor, clickToRange(editor, { blockId: 'b1', offset: 'Жирный'.length })!);
  replayKeys(editor, ['!', '!', 'Backspace', ' ', 'О', 'Enter', 'Н']);
  expect(Editor.string(editor, [1])).toBe('Жирный! О');
  expect(Editor.string(editor, [2])).toBe('Н и обычный');
  // Nothing is typed without a caret.
  const other = page();
  replayKeys(other, ['x']);
  expect(Editor.string(other, [1])).toBe('Жирный и обычный');
});
