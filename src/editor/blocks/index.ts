import type { ComponentType } from 'react';
import type { RenderElementProps } from 'slate-react';
import type { SlateElement } from '../../../schema/slate';
import { BulletListView } from './BulletListView';
import { CalloutView } from './CalloutView';
import { CheckboxView } from './CheckboxView';
import { CodeView } from './CodeView';
import { DatabaseRowView, DatabaseView } from './DatabaseView';
import { DividerView } from '../../../plugins/blocks/divider/View';
import { DocumentView } from './DocumentView';
import { EmbedView } from './EmbedView';
import { FileView } from './FileView';
import { ImageView } from './ImageView';
import { LatexView } from './LatexView';
import { OrderedListView } from './OrderedListView';
import { QuoteView } from './QuoteView';
import { TableCellView, TableRowView, TableView } from './table/TableView';

/**
 * The view of each block type that is not plain text or a heading (those are drawn by
 * BlockElementView itself). One file per type in this folder, registered here.
 * A view spreads `attributes` on its root, renders `children` (for void blocks: inside, hidden)
 * and gives its root `blockRootProps(element)` so nesting and ids are uniform.
 */
export const BLOCK_VIEWS: Partial<Record<SlateElement['type'], ComponentType<RenderElementProps>>> = {
  imageBlock: ImageView,
  fileBlock: FileView,
  embedBlock: EmbedView,
  documentBlock: DocumentView,
  quoteBlock: QuoteView,
  bulletListBlock: BulletListView,
  orderedListBlock: OrderedListView,
  checkboxBlock: CheckboxView,
  codeBlock: CodeView,
  calloutBlock: CalloutView,
  dividerBlock: DividerView,
  latexBlock: LatexView,
  tableBlock: TableView,
  databaseBlock: DatabaseView,
  databaseRowBlock: DatabaseRowView,
  tableRow: TableRowView,
  tableCell: TableCellView,
};
