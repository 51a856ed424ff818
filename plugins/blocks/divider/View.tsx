import { useFocused, useSelected, type RenderElementProps } from 'slate-react';
import { blockRootProps } from '../../../src/editor/renderers';
import './divider.css';
import { editorT } from '../../../src/editor/blocks/textBlockParts';

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
