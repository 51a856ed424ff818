import { act } from '@testing-library/react';
import { Editor, Transforms } from 'slate';
import { ReactEditor } from 'slate-react';
import type { BlockElement } from '../../../schema/slate';
import { renderEditor } from '../../../src/editor/blocks/testing';

describe('divider view', () => {
  test('a rule that is void and shows when it is selected', async () => {
    const { editor, container } = renderEditor([
      { type: 'textBlock', uid: 't', version: 1, children: [{ text: 'до' }] },
      { type: 'dividerBlock', uid: 'd', version: 1, children: [{ text: '' }] } as BlockElement,
    ]);
    const root = container.querySelector('[data-block-id="d"]')!;
    expect(root.querySelector('[role="separator"] hr')).not.toBeNull();
    expect(root.querySelector('[role="separator"]')!.getAttribute('aria-label')).toBe('Разделитель');
    expect(editor.isVoid(editor.children[2] as BlockElement)).toBe(true);
    expect(root.classList.contains('is-selected')).toBe(false);
    jest.spyOn(ReactEditor, 'isFocused').mockReturnValue(true);
    await act(async () => {
      ReactEditor.focus(editor);
      Transforms.select(editor, Editor.start(editor, [2]));
    });
    expect(container.querySelector('[data-block-id="d"]')!.classList.contains('is-selected')).toBe(true);
  });
});
