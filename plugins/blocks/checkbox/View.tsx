import { Node, Transforms } from 'slate';
import { ReactEditor, useReadOnly, useSlateStatic, type RenderElementProps } from 'slate-react';
import type { CheckboxElement } from '../../../schema/slate';
import '../../../src/editor/blocks/listBlocks.css';
import { blockRootProps, editorT, isEmptyBlock, type BlockViews } from '../../../src/editor/blockView';

/** A to-do item: a real checkbox (mouse, or Space when it has focus) and the text, struck through when done. */
export function CheckboxView({ element, attributes, children }: RenderElementProps) {
  const editor = useSlateStatic();
  const readOnly = useReadOnly();
  const checked = element.type === 'checkboxBlock' && element.checked === true;
  return (
    <div {...attributes} {...blockRootProps(element, `block-list${checked ? ' is-checked' : ''}`)}>
      <span className="block-list-marker todo-box" contentEditable={false}>
        <input
          type="checkbox"
          checked={checked}
          disabled={readOnly}
          // Named by its item's text (the element is new on every edit, so this follows the typing); empty, by what it does.
          aria-label={Node.string(element).trim() || editorT('checkboxLabel')}
          onChange={(event) => {
            if (readOnly) return;
            Transforms.setNodes<CheckboxElement>(editor, { checked: event.target.checked }, { at: ReactEditor.findPath(editor, element) });
          }}
        />
      </span>
      <div className="block-list-content" data-placeholder={isEmptyBlock(element) ? editorT('checkboxPlaceholder') : undefined}>
        {children}
      </div>
    </div>
  );
}

export const blockViews: BlockViews = { checkboxBlock: CheckboxView };
