import type { RenderElementProps } from 'slate-react';
import '../../../src/editor/blocks/listBlocks.css';
import { blockRootProps, editorT, isEmptyBlock, type BlockViews } from '../../../src/editor/blockView';

/** A quote: text with a bar on its left. */
export function QuoteView({ element, attributes, children }: RenderElementProps) {
  return (
    <blockquote {...attributes} {...blockRootProps(element)} data-placeholder={isEmptyBlock(element) ? editorT('quotePlaceholder') : undefined}>
      {children}
    </blockquote>
  );
}

export const blockViews: BlockViews = { quoteBlock: QuoteView };
