import type { BlockIcons, BlockViews } from '../blockView';

/**
 * The view of each block type that is not plain text or a heading (those are drawn by
 * BlockElementView itself): every block type's folder's View.tsx (plugins/blocks/<type>/, and
 * the worked example's examples/blocks/<type>/), found
 * by the folder — a block type is registered once, in schema/blocks/index.ts. Each exports
 * `blockViews` (element type → component: the table's file draws its rows and cells too), and may
 * export `blockIcons` (wire type → the slash menu's picture of it; without one: «Aa»).
 * Vite reads the glob at build time; Jest through test/helpers/globTransform.cjs.
 */
const modules = import.meta.glob<{ blockViews: BlockViews; blockIcons?: BlockIcons }>(
  ['../../../plugins/blocks/*/View.tsx', '../../../examples/blocks/*/View.tsx'],
  { eager: true },
);

export const BLOCK_VIEWS: BlockViews = Object.assign({}, ...Object.values(modules).map((module) => module.blockViews)) as BlockViews;

/** The slash menu's pictures the block types' views give (src/editor/blockTypeIcons.tsx has the built-in ones). */
export const BLOCK_ICONS: BlockIcons = Object.assign({}, ...Object.values(modules).map((module) => module.blockIcons ?? {})) as BlockIcons;
