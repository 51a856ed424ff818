import type { BlockIcons, BlockMakers, BlockMenuItem, BlockMenuItems, BlockTypedOnto, BlockViews } from '../blockView';

/**
 * The view of each block type that is not plain text or a heading (those are drawn by
 * BlockElementView itself): every block type's folder's View.tsx (plugins/blocks/<type>/, and
 * the worked example's examples/blocks/<type>/), found
 * by the folder — a block type is registered once, in schema/blocks/index.ts. Each exports
 * `blockViews` (element type → component: the table's file draws its rows and cells too), and may
 * export `blockIcons` (wire type → the slash menu's picture of it; without one: «Aa») and
 * `blockMakers` (element type → what makes a type whose definition says `madeInEditor`) and
 * `blockMenuItems` (element type, or `any` → items of the block menu) and `blockTypedOnto` (a void
 * element type → where text typed with the caret on it goes).
 * Vite reads the glob at build time; Jest through test/helpers/globTransform.cjs.
 */
const modules = import.meta.glob<{
  blockViews: BlockViews;
  blockIcons?: BlockIcons;
  blockMakers?: BlockMakers;
  blockMenuItems?: BlockMenuItems;
  blockTypedOnto?: BlockTypedOnto;
}>(['../../../plugins/blocks/*/View.tsx', '../../../examples/blocks/*/View.tsx'], { eager: true });

export const BLOCK_VIEWS: BlockViews = Object.assign({}, ...Object.values(modules).map((module) => module.blockViews)) as BlockViews;

/** The slash menu's pictures the block types' views give (src/editor/blockTypeIcons.tsx has the built-in ones). */
export const BLOCK_ICONS: BlockIcons = Object.assign({}, ...Object.values(modules).map((module) => module.blockIcons ?? {})) as BlockIcons;

/** The makers of the types made in the editor (a definition's `madeInEditor`; the slash menu runs them). */
export const BLOCK_MAKERS: BlockMakers = Object.assign({}, ...Object.values(modules).map((module) => module.blockMakers ?? {})) as BlockMakers;

/** Where text typed with the caret on a void block goes, by element type (none: dropped). */
export const BLOCK_TYPED_ONTO: BlockTypedOnto = Object.assign({}, ...Object.values(modules).map((module) => module.blockTypedOnto ?? {})) as BlockTypedOnto;

/** The block menu's items the views add, by element type (`any`: every block's), in the folders' order. */
export const BLOCK_MENU_ITEMS: Readonly<Record<string, readonly BlockMenuItem[]>> = Object.values(modules).reduce<Record<string, BlockMenuItem[]>>(
  (all, module) => {
    for (const [type, items] of Object.entries(module.blockMenuItems ?? {})) all[type] = [...(all[type] ?? []), ...(items ?? [])];
    return all;
  },
  {},
);
