/**
 * What a block type's view (plugins/blocks/<type>/View.tsx) may use of the editor: one module, so
 * a view does not reach into the editor's files (docs/plugins.md «A block type's view»).
 *
 * A view is a React component given Slate's RenderElementProps. It spreads `attributes` on its
 * root, gives the root `blockRootProps(element, classes)` (nesting, ids and selection are then
 * drawn as for every block), renders `children` (for a void block: inside its root, hidden) and
 * wraps what is not editable text in `contentEditable={false}`. Its file exports `blockViews`,
 * the view of each element type it draws; the editor finds it by the folder (src/editor/blocks/index.ts).
 */
import type { ComponentType, ReactNode } from 'react';
import type { RenderElementProps } from 'slate-react';
import type { SlateElement } from '../../schema/slate';

export type BlockView = ComponentType<RenderElementProps>;
/** The views a View.tsx exports: element type → component. */
export type BlockViews = Partial<Record<SlateElement['type'], BlockView>>;
/** The slash menu's pictures a View.tsx may export: wire type → a 24×24 line icon (`Icon` of src/ui/icons.tsx, in currentColor). */
export type BlockIcons = Readonly<Record<string, () => ReactNode>>;
/**
 * The makers a View.tsx may export: element type → what the slash menu runs for a type that is
 * made in the editor (its definition's `madeInEditor`: no default data — a synced block's page is
 * made on the server first).
 */
export type BlockMakers = Partial<Record<SlateElement['type'], BlockMaker>>;
/**
 * What a View.tsx may export for a void block that takes text typed with the page's caret on it
 * (a synced block: into its own editor): element type → handler, true when it took the text (else
 * the text is dropped, as on any void).
 */
export type BlockTypedOnto = Partial<Record<SlateElement['type'], (editor: Editor, index: number, text: string) => boolean>>;
/** An item a block type's view adds to the block menu (a View.tsx's `blockMenuItems`). */
export interface BlockMenuItem {
  id: string;
  /** Its words: a key of the editor's strings (`documentEditor`, where a block type's `ru.json` goes). */
  label: string;
  /** Whether it is offered for the block at `index` (default: always). */
  shows?(editor: Editor, index: number, context: BlockMakerContext): boolean;
  run(editor: Editor, index: number, context: BlockMakerContext): void;
}
/** The block menu's items a View.tsx adds: by element type, or `any` for every block. */
export type BlockMenuItems = Partial<Record<SlateElement['type'] | 'any', readonly BlockMenuItem[]>>;
export {
  HostBlockMenuContext,
  NestedEditorsContext,
  type HostMenuItem,
  type NestedEditor,
  type NestedEditors,
  type BlockMaker,
  type BlockMakerContext,
} from './nestedEditors';
import type { BlockMaker, BlockMakerContext } from './nestedEditors';
import type { Editor } from 'slate';

export { Icon } from '../ui/icons';

export { blockRootProps } from './renderers';
export { editorT, isEmptyBlock } from './blocks/textBlockParts';
export { AlignButtons, LinkPanel, ScaledBox, UploadPanel, stopKeys, useSetBlockFields } from './blocks/mediaParts';
export { editorPageId } from './upload';
/** Scrolls a block of the page into view, its chunk mounted first if it is far away. */
export { revealBlock } from './lazyChunks';
