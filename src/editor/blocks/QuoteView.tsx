import type { RenderElementProps } from 'slate-react';
import { blockRootProps } from '../renderers';
import { isEmptyBlock, editorT } from './textBlockParts';
import './listBlocks.css';

/** A quote: text with a bar on its left. */
export function QuoteView({ element, attributes, children }: RenderElementProps) {
  return (
    <blockquote {...attributes} {...blockRootProps(element)} data-placeholder={isEmptyBlock(element) ? editorT('quotePlaceholder') : undefined}>
      {children}
    </blockquote>
  );
}
