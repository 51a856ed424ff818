import { Editor, Element, Range, type Path } from 'slate';
import { MENU_GROUPS, REGISTERED_BLOCKS, type MenuGroup, type RegisteredBlock } from '../../schema/blocks';
import type { BlockElement, BlockElementType } from '../../schema/slate';

/** The slash menu's state: open while the caret's empty text block holds `/query` (no spaces). */
export interface SlashQuery {
  path: Path;
  query: string;
}

const SLASH = /^\/([^\s/]{0,30})$/;

/** The open slash query at the caret, or null. Reads only the caret's block. */
export function slashQueryAt(editor: Editor): SlashQuery | null {
  const { selection } = editor;
  if (!selection || !Range.isCollapsed(selection) || selection.anchor.path.length !== 2) return null;
  const path = [selection.anchor.path[0]];
  const node = editor.children[path[0]];
  if (!node || !Element.isElement(node) || node.type !== 'textBlock') return null;
  const text = Editor.string(editor, path);
  const match = SLASH.exec(text);
  if (!match || !Editor.isEnd(editor, selection.anchor, path)) return null;
  return { path, query: match[1] };
}

/** The menu's groups, in order (the AI's after them: `ai`); a type names its own (`menuGroup`). */
export const SLASH_GROUPS = MENU_GROUPS;
export type SlashGroup = MenuGroup;

/** The order within a group (as in Notion: text and headings, the lists, then the rest); a type not named goes last. */
const MENU_ORDER = [
  'text',
  'heading1',
  'heading2',
  'heading3',
  'bulletList',
  'orderedList',
  'checkbox',
  'toggle',
  'toggleHeading1',
  'toggleHeading2',
  'toggleHeading3',
  'quote',
  'callout',
  'divider',
  'table',
  'document',
];

export interface SlashItem {
  type: BlockElementType;
  wireType: string;
  label: string;
  /** Its group in the menu (shown as headings when nothing is typed after the slash). */
  group?: SlashGroup;
  /** Told apart from another item of the same type (the database has two names in the menu). */
  id?: string;
  /** An AI assistant action instead of a block type (src/features/ai). */
  ai?: SlashAiAction;
}

/** The menu's AI group (after the block types): «Написать с ИИ», «Продолжить текст». */
export const SLASH_AI_ACTIONS = ['generate', 'continue'] as const;
export type SlashAiAction = (typeof SLASH_AI_ACTIONS)[number];

/**
 * Block types a user can make from the menu: every type with defaultData or made by its view
 * (`madeInEditor`: the view's `blockMakers`), the nested page (made
 * by creating the page first: DocumentEditor's slash handler) and the database (made with fresh
 * field and view ids by the same handler).
 */
export const MENU_DEFINITIONS: readonly RegisteredBlock[] = [
  ...REGISTERED_BLOCKS.filter((d) => d.defaultData !== undefined || d.madeInEditor === true || d.slateType === 'documentBlock'),
  // Last of the block types, so «/таблица» still picks the simple table first.
  ...REGISTERED_BLOCKS.filter((d) => d.slateType === 'databaseBlock'),
];

/**
 * The menu's items for a query: the Russian name or the English type name starts with the query,
 * or contains it (those after), case-insensitive; by group (basic blocks, media, database,
 * advanced), the menu order within one, otherwise. The database is offered under two names,
 * «База данных» and «Таблица данных» (labels `blockTypes.database`, `blockTypes.databaseTable`).
 */
export function slashItems(query: string, labelOf: (wireType: string) => string): SlashItem[] {
  const items = MENU_DEFINITIONS.flatMap((d) => {
    const item: SlashItem = { type: d.slateType, wireType: d.wireType, label: labelOf(d.wireType), group: d.menuGroup ?? 'basic' };
    if (d.menuVariants) return d.menuVariants.map((variant) => ({ ...item, label: labelOf(variant.id), id: variant.id }));
    return d.slateType === 'databaseBlock' ? [item, { ...item, label: labelOf('databaseTable'), id: 'databaseTable' }] : [item];
  });
  const rank = (item: SlashItem) => {
    const at = MENU_ORDER.indexOf(item.wireType);
    return at < 0 ? MENU_ORDER.length : at;
  };
  const grouped = SLASH_GROUPS.flatMap((group) => items.filter((item) => item.group === group).sort((a, b) => rank(a) - rank(b)));
  return filterItems(grouped, query);
}

/** What the menu says of an item under its name (`blockDescriptions.*`): its block type's, the database's second name's, or the AI action's. */
export const descriptionKey = (item: SlashItem): string => item.ai ?? item.id ?? item.wireType;

/** The AI group's items for a query (found by their names, and by "ai" / "ии"). */
export function slashAiItems(query: string, labelOf: (action: SlashAiAction) => string): SlashItem[] {
  return filterItems(
    SLASH_AI_ACTIONS.map((action) => ({ type: 'textBlock' as const, wireType: `ai ии ${action}`, label: labelOf(action), ai: action })),
    query,
  );
}

function filterItems(items: SlashItem[], query: string): SlashItem[] {
  const q = query.toLocaleLowerCase('ru');
  if (q === '') return items;
  const words = (item: SlashItem) => [item.label.toLocaleLowerCase('ru'), item.wireType.toLowerCase()];
  const starts = items.filter((item) => words(item).some((w) => w.startsWith(q) || w.split(/\s+/).some((part) => part.startsWith(q))));
  const contains = items.filter((item) => !starts.includes(item) && words(item).some((w) => w.includes(q)));
  return [...starts, ...contains];
}

/** Whether an element is the block a slash query was typed in (guards against stale menus). */
export function isSlashTarget(editor: Editor, query: SlashQuery): boolean {
  const node = editor.children[query.path[0]];
  return !!node && Element.isElement(node) && (node as BlockElement).type === 'textBlock';
}
