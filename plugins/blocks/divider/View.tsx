import { useFocused, useSelected, type RenderElementProps } from 'slate-react';
import './divider.css';
import { blockRootProps, editorT, type BlockViews } from '../../../src/editor/blockView';

/** A horizontal rule (void): click it to select it, then Backspace or Delete removes it. */
export function DividerView({ element, attributes, children }: RenderElementProps) {
  const selected = useSelected();
  const focused = useFocused();
  return (
    <div {...attributes} {...blockRootProps(element, `block-void block-divider${selected && focused ? ' is-selected' : ''}`)}>
      <div contentEditable={false} className="divider-line" role="separator" aria-label={editorT('dividerLabel')}>
        <hr />
      </div>
      {children}
    </div>
  );
}

export const blockViews: BlockViews = { dividerBlock: DividerView };
