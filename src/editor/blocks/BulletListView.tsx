import type { RenderElementProps } from 'slate-react';
import { blockRootProps } from '../renderers';
import { isEmptyBlock, editorT } from './textBlockParts';
import './listBlocks.css';

/** Bullets change shape with depth, as in most editors. */
const BULLETS = ['•', '◦', '▪'];

/** A bulleted list item. */
export function BulletListView({ element, attributes, children }: RenderElementProps) {
  const depth = element.depth ?? 0;
  return (
    <div {...attributes} {...blockRootProps(element, 'block-list')}>
      <span className="block-list-marker" contentEditable={false} aria-hidden="true">
        {BULLETS[depth % BULLETS.length]}
      </span>
      <div className="block-list-content" data-placeholder={isEmptyBlock(element) ? editorT('listPlaceholder') : undefined}>
        {children}
      </div>
    </div>
  );
}
