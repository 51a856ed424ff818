import type { BlockViews } from '../blockView';

/**
 * The view of each block type that is not plain text or a heading (those are drawn by
 * BlockElementView itself): every block type's folder's View.tsx (plugins/blocks/<type>/), found
 * by the folder — a block type is registered once, in schema/blocks/index.ts. Each exports
 * `blockViews` (element type → component: the table's file draws its rows and cells too).
 * Vite reads the glob at build time; Jest through test/helpers/globTransform.cjs.
 */
const modules = import.meta.glob<{ blockViews: BlockViews }>('../../../plugins/blocks/*/View.tsx', { eager: true });

export const BLOCK_VIEWS: BlockViews = Object.assign({}, ...Object.values(modules).map((module) => module.blockViews)) as BlockViews;
