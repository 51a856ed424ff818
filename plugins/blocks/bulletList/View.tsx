import type { RenderElementProps } from 'slate-react';
import '../../../src/editor/blocks/listBlocks.css';
import { blockRootProps, editorT, isEmptyBlock, type BlockViews } from '../../../src/editor/blockView';

/** Bullets change shape with depth, as in most editors. */
const BULLETS = ['•', '◦', '▪'];

/**
 * A bulleted list item. The blocks are flat (a depth, not a nested tree), so each is a list of its
 * own item for assistive technology (role="list" around role="listitem"), its nesting told by
 * aria-level (docs/web-app.md, «Accessibility» → «Editor and menus»); the text stays editable.
 */
export function BulletListView({ element, attributes, children }: RenderElementProps) {
  const depth = element.depth ?? 0;
  return (
    <div {...attributes} {...blockRootProps(element, 'block-list')} role="list">
      <span className="block-list-marker" contentEditable={false} aria-hidden="true">
        {BULLETS[depth % BULLETS.length]}
      </span>
      <div
        className="block-list-content"
        role="listitem"
        aria-level={depth + 1}
        data-placeholder={isEmptyBlock(element) ? editorT('listPlaceholder') : undefined}
      >
        {children}
      </div>
    </div>
  );
}

export const blockViews: BlockViews = { bulletListBlock: BulletListView };
