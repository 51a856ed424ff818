import { Editor, Element, Node, Path, Range, Text, Transforms } from 'slate';
import { HistoryEditor } from 'slate-history';
import { MARKDOWN_FENCES, MARKDOWN_SHORTCUTS, definitionForSlateType } from '../../schema/blocks';
import { depthOf, type BlockElement, type BlockElementType } from '../../schema/slate';
import { newId } from '../../schema/ids';
import { emptyTextBlock } from '../withPageHeading';
import { applyInlineMarker, closedInlineMarker, inlineContext, INLINE_MARKER_CHARS } from './inlineMarks';

/** `1.` or `1)`: an ordered list item (the number decides forcedOrder, see orderedListNumber). */
const ORDERED_MARKER = /^(\d{1,6})[.)]$/;

/**
 * What the item at `index` would be numbered if it joined the list before it: one more than the
 * ordered item right before it at the same depth, or 1.
 */
export type OrderedNumbering = (elements: readonly BlockElement[], index: number) => number;

export interface MarkdownShortcutOptions {
  /** The number an ordered item at an index gets; the list types' schema supplies it. */
  orderedNumberAt?: OrderedNumbering;
}

/** Element fields every block keeps through a change of type. */
const KEPT_FIELDS: ReadonlySet<string> = new Set(['type', 'uid', 'version', 'depth', 'children']);

/**
 * Whether «Превратить в…» can offer other types for `element`: it holds text (all its children are
 * text) and is a type a new block can be made of. Not voids (a divider, image, file, embed,
 * formula, nested page, database or row: their data would go), nor a table (rows of cells).
 */
export function canConvertBlock(element: BlockElement): boolean {
  const definition = definitionForSlateType(element.type);
  if (!definition || definition.isVoid || !definition.defaultData || element.type === 'pageHeadingBlock') return false;
  return (element.children as Node[]).every((child) => Text.isText(child));
}

/**
 * Turns the block at `path` into `type`, as a new empty block of that type would be (its
 * definition's defaultData), keeping uid, version and depth, and dropping the old type's own
 * fields (a checkbox's `checked`, a callout's `icon`). A type that holds text keeps the text (a
 * table puts it in its first cell: its normalizer builds the grid); a void type (divider, image,
 * formula) cannot, so the text moves to a paragraph right after it — nothing typed is lost.
 */
/**
 * A block type's slash-menu variant made at `path` (the columns: the list, then its columns with
 * a paragraph in each): the block converted, the variant's blocks inserted right after it at
 * their depths below it, and the caret in the first one that takes text.
 */
export function convertToVariant(editor: Editor, path: Path, type: BlockElementType, variantId: string): boolean {
  const variant = definitionForSlateType(type)?.menuVariants?.find((v) => v.id === variantId);
  if (!variant) return false;
  Editor.withoutNormalizing(editor, () => {
    convertBlock(editor, path, type);
    const depth = depthOf(Editor.node(editor, path)[0] as BlockElement);
    const made = variant.children().map(({ type: childType, fields, depth: below }) => {
      const child = definitionForSlateType(childType);
      const base = child?.defaultData ? (child.toSlateFields(child.defaultData()) as Record<string, unknown>) : { children: [{ text: '' }] };
      return { ...base, ...fields, type: childType, uid: newId(), version: 1, depth: depth + below } as unknown as BlockElement;
    });
    Transforms.insertNodes(editor, made, { at: [path[0] + 1] });
    const first = made.findIndex((block) => !editor.isVoid(block));
    if (first >= 0) Transforms.select(editor, Editor.start(editor, [path[0] + 1 + first]));
  });
  return true;
}

export function convertBlock(editor: Editor, path: Path, type: BlockElementType, extra: Partial<BlockElement> = {}): void {
  const definition = definitionForSlateType(type);
  const current = Editor.node(editor, path)[0] as BlockElement;
  const { children, ...fields } = (definition?.defaultData ? definition.toSlateFields(definition.defaultData()) : { children: [] }) as {
    children: unknown[];
  } & Record<string, unknown>;
  const next = { ...fields, ...extra } as Record<string, unknown>;
  const stale = Object.keys(current).filter((key) => !KEPT_FIELDS.has(key) && !(key in next));
  if (!definition?.isVoid) {
    Editor.withoutNormalizing(editor, () => {
      if (stale.length > 0) Transforms.unsetNodes(editor, stale, { at: path });
      Transforms.setNodes<BlockElement>(editor, { type, ...next } as Partial<BlockElement>, { at: path });
    });
    // Into the block's first editable place (a table's first cell) when the structure changed.
    if (editor.selection && !Path.isDescendant(editor.selection.anchor.path, path)) Transforms.select(editor, Editor.start(editor, path));
    return;
  }
  const replacement = {
    ...next,
    type,
    uid: current.uid,
    version: current.version,
    children,
    ...(current.depth ? { depth: current.depth } : {}),
  } as BlockElement;
  const text = Node.string(current);
  const texts = (current.children as Node[]).filter((child) => Text.isText(child));
  Editor.withoutNormalizing(editor, () => {
    Transforms.removeNodes(editor, { at: path });
    Transforms.insertNodes(editor, replacement, { at: path });
    // A void block is not typed into: writing goes on in a paragraph after it, which keeps any
    // text the block had.
    const after = [path[0] + 1];
    const paragraph: BlockElement = {
      ...emptyTextBlock(),
      ...(current.depth ? { depth: current.depth } : {}),
      ...(text !== '' ? { children: texts.length > 0 ? texts : [{ text }] } : {}),
    } as BlockElement;
    Transforms.insertNodes(editor, paragraph, { at: after });
    Transforms.select(editor, Editor.start(editor, after));
  });
}

/** The block a fence typed before the caret (```, ```js) makes, with the fields its word gives. */
function fenceOf(before: string): { type: BlockElementType; extra: Partial<BlockElement> } | null {
  for (const fence of MARKDOWN_FENCES) {
    if (!before.startsWith(fence.marker)) continue;
    const info = before.slice(fence.marker.length);
    if (!/^[\w+#.-]*$/.test(info)) continue;
    return { type: fence.slateType as BlockElementType, extra: fence.fields(info) as Partial<BlockElement> };
  }
  return null;
}

/**
 * Typing a block's shortcut at the start of a text block and then a space turns the block into
 * that type (`#`, `*`, `[]`, `"`, `>`, `/table`, …: the rules come from the block definitions in
 * schema/blocks); `1.`/`1)` and a space make an ordered item; `--` then `-` makes a divider; a
 * fence (``` for code, ```js with a language) then a space or Enter makes its block. The marker
 * goes in as typed and the conversion is its own undo step: undo gives back `# `.
 *
 * Inline markdown while typing: when the closing marker of `**bold**`, `*italic*`, `_italic_`,
 * `` `code` `` or `~~strike~~` is typed, the markers go and the text between gets the mark (not in
 * code or the title; see inlineMarks.ts for what counts); undo right after gives the markers back.
 */
export function withMarkdownShortcuts<E extends Editor>(editor: E, options: MarkdownShortcutOptions = {}): E {
  const { insertText, insertBreak } = editor;

  /** The text block the caret is in and the text before the caret, or null. */
  const textBefore = () => {
    const { selection } = editor;
    if (!selection || !Range.isCollapsed(selection)) return null;
    const entry = Editor.above<BlockElement>(editor, { match: (n) => Element.isElement(n) && Editor.isBlock(editor, n) });
    if (!entry || entry[0].type !== 'textBlock' || entry[1].length !== 1) return null;
    const [block, path] = entry;
    const start = Editor.start(editor, path);
    return { block, path, start, before: Editor.string(editor, { anchor: start, focus: selection.anchor }) };
  };

  const asOwnUndoStep = (change: () => void) => {
    if (HistoryEditor.isHistoryEditor(editor)) HistoryEditor.withNewBatch(editor, change);
    else change();
  };

  editor.insertBreak = () => {
    const found = textBefore();
    const fence = found ? fenceOf(found.before) : null;
    if (!found || !fence || !definitionForSlateType(fence.type)) {
      insertBreak();
      return;
    }
    const { path, start } = found;
    asOwnUndoStep(() =>
      Editor.withoutNormalizing(editor, () => {
        Transforms.delete(editor, { at: { anchor: start, focus: editor.selection ? editor.selection.anchor : start } });
        convertBlock(editor, path, fence.type, fence.extra);
      }),
    );
  };

  editor.insertText = (text, insertOptions) => {
    if (INLINE_MARKER_CHARS.has(text)) {
      insertText(text, insertOptions);
      const context = inlineContext(editor);
      const match = context ? closedInlineMarker(context.before) : null;
      if (context && match) asOwnUndoStep(() => applyInlineMarker(editor, context.path, match));
      return;
    }
    const found = text === ' ' || text === '-' ? textBefore() : null;
    if (!found) {
      insertText(text, insertOptions);
      return;
    }
    const { path, start, before } = found;
    let type: BlockElementType | undefined;
    let extra: Partial<BlockElement> = {};
    if (text === '-') {
      if (before === '--') type = 'dividerBlock' as BlockElementType;
    } else {
      type = MARKDOWN_SHORTCUTS.get(before);
      const fence = type ? null : fenceOf(before);
      if (fence) ({ type, extra } = fence);
      const ordered = ORDERED_MARKER.exec(before);
      if (!type && ordered && definitionForSlateType('orderedListBlock')) {
        type = 'orderedListBlock' as BlockElementType;
        const number = Number(ordered[1]);
        const expected = options.orderedNumberAt ? options.orderedNumberAt(editor.children as BlockElement[], path[0]) : 1;
        if (number !== expected) extra = { forcedOrder: number } as Partial<BlockElement>;
      }
    }
    if (!type || !definitionForSlateType(type)) {
      insertText(text, insertOptions);
      return;
    }
    insertText(text, insertOptions);
    const target = type;
    asOwnUndoStep(() =>
      Editor.withoutNormalizing(editor, () => {
        const typed = editor.selection ? editor.selection.anchor : start;
        Transforms.delete(editor, { at: { anchor: start, focus: typed } });
        convertBlock(editor, path, target, extra);
      }),
    );
  };

  return editor;
}
