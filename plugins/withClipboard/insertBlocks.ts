import { Editor, Element, Node, Range, Transforms } from 'slate';
import { HistoryEditor } from 'slate-history';
import { newId } from '../../schema/ids';
import type { BlockElement, DocumentElement } from '../../schema/slate';
import { tokensText, type Token } from '../../schema/token';
import { isTextLike, soundDepths, type PastedContent } from './content';
import { depthOf } from '../../schema/slate';

/** The plain text of pasted content: tokens as typed, blocks one per line. */
export function contentText(content: PastedContent): string {
  if (content.kind === 'inline') return tokensText(content.tokens);
  return content.blocks
    .map((block) => (isTextLike(block) || block.type === 'codeBlock' ? Node.string(block) : ''))
    .filter((line) => line !== '')
    .join('\n');
}

/** Where the caret is: the title, a table cell, code, or a block. */
function caretPlace(editor: Editor): 'title' | 'plain' | 'block' | null {
  const { selection } = editor;
  if (!selection) return null;
  const block = editor.children[selection.anchor.path[0]] as BlockElement | undefined;
  if (!block) return null;
  if (block.type === 'pageHeadingBlock') return 'title';
  if (block.type === 'codeBlock' || block.type === 'tableBlock') return 'plain';
  return 'block';
}

/**
 * Runs a change (a paste, an accepted AI result) as one undo step: the batches it makes (the
 * undo window may start a new one at its first text change) are joined into one.
 */
export function asOneUndoStep(editor: Editor, change: () => void): void {
  if (!HistoryEditor.isHistoryEditor(editor)) {
    change();
    return;
  }
  const { undos } = editor.history;
  const last = undos[undos.length - 1];
  HistoryEditor.withNewBatch(editor, change);
  const at = last ? undos.lastIndexOf(last) : -1;
  // (When the history limit pushed the step before the paste out, its batches are left as they are.)
  if (last && at < 0) return;
  const from = at + 1;
  if (undos.length - from > 1) {
    const batches = undos.splice(from);
    undos.push({ operations: batches.flatMap((b) => b.operations), selectionBefore: batches[0].selectionBefore });
  }
}

/** Plain text at the caret (title, code, table cells): line breaks kept except in the title. */
function insertPlainText(editor: Editor, text: string, inTitle: boolean): void {
  const value = inTitle ? text.replace(/\s*[\r\n]+\s*/g, ' ').trim() : text.replace(/\r\n?/g, '\n');
  if (value === '') return;
  // insertText goes through the plugins (tables keep the grid, code keeps its text plain).
  editor.insertText(value);
}

/** Tokens at the caret of a text-like block, marks kept; the caret ends after them. */
function insertTokens(editor: Editor, tokens: readonly Token[]): void {
  if (tokens.length === 0) return;
  Transforms.insertNodes(
    editor,
    tokens.map((t) => ({ ...t })),
    { select: true },
  );
}

/**
 * Blocks to insert, with an empty uid: withPageHeading gives every inserted block without a uid
 * a fresh one as it goes in, without comparing it to every block of the page (which it does for
 * a block that comes with a uid, and which costs the page's length per pasted block).
 */
function fresh(blocks: readonly BlockElement[]): BlockElement[] {
  return blocks.map((block) => ({ ...block, uid: '' }));
}

/**
 * Nested-page blocks pasted where a block of this page already shows that page point at a copy
 * of it instead (as Duplicate does; the app makes the copy through editor.copyPages, and removes
 * the block if it cannot). A page shown by no block here (cut and pasted) keeps being shown by
 * the pasted block. Returns the blocks and the copies to make.
 */
function withPageCopies(editor: Editor, blocks: readonly BlockElement[]): { blocks: BlockElement[]; copies: Array<{ from: string; to: string }> } {
  const copies: Array<{ from: string; to: string }> = [];
  if (!blocks.some((b) => b.type === 'documentBlock')) return { blocks: [...blocks], copies };
  const shown = new Set(editor.children.flatMap((n) => ((n as BlockElement).type === 'documentBlock' ? [(n as DocumentElement).pageId] : [])));
  const out = blocks.map((block) => {
    if (block.type !== 'documentBlock') return block;
    if (!shown.has(block.pageId)) {
      shown.add(block.pageId);
      return block;
    }
    const to = newId();
    copies.push({ from: block.pageId, to });
    return { ...block, pageId: to };
  });
  return { blocks: out, copies };
}

/** Inserts pasted blocks at `at` with fresh uids, copying the nested pages they would show twice. */
function insertFresh(editor: Editor, blocks: readonly BlockElement[], at: number): void {
  const { blocks: placed, copies } = withPageCopies(editor, blocks);
  Transforms.insertNodes(editor, fresh(placed), { at: [at], select: false });
  if (copies.length > 0) editor.copyPages?.(copies);
}

/** Blocks at the caret (see insertPastedContent). */
function insertBlockList(editor: Editor, pasted: readonly BlockElement[]): void {
  const point = editor.selection!.anchor;
  const index = point.path[0];
  const current = editor.children[index] as BlockElement;
  const depth = depthOf(current);
  const next = editor.children[index + 1] as BlockElement | undefined;
  const hasChildren = next !== undefined && depthOf(next) > depth;
  let at: number;
  let base = depth;
  Editor.withoutNormalizing(editor, () => {
    const textLike = isTextLike(current);
    if (textLike && Node.string(current) === '') {
      // An empty block is replaced by the pasted ones.
      Transforms.removeNodes(editor, { at: [index] });
      at = index;
    } else if (!textLike || Editor.isEnd(editor, point, [index])) {
      // After the block (as its first children when it has some, so they keep their parent).
      at = index + 1;
      if (hasChildren) base = depth + 1;
    } else if (Editor.isStart(editor, point, [index])) {
      at = index;
    } else {
      Transforms.splitNodes(editor, { at: point, match: (n, p) => Element.isElement(n) && p.length === 1, always: true });
      at = index + 1;
    }
    insertFresh(editor, soundDepths(pasted, base), at);
  });
  const last = [at! + pasted.length - 1];
  Transforms.select(editor, Editor.end(editor, last));
}

/**
 * Puts pasted content at the selection (a selected range is deleted first), as one undo step:
 * - in the title only plain text goes in (the blocks after the first go below the title);
 * - in a table cell or a code block only plain text goes in;
 * - inline content (or one pasted paragraph) goes in at the caret of a text-like block, marks kept;
 * - blocks replace the caret's block when it is empty; otherwise the block is split at the
 *   caret and the blocks go in between (at its start: before it; at its end: after it). They
 *   take the depth of the caret's block. The caret ends at the end of the last pasted block.
 */
export function insertPastedContent(editor: Editor, content: PastedContent, plainText?: string): void {
  asOneUndoStep(editor, () => {
    if (editor.selection && Range.isExpanded(editor.selection)) editor.deleteFragment();
    const place = caretPlace(editor);
    if (!place) return;
    const single =
      content.kind === 'blocks' && content.blocks.length === 1 && content.blocks[0].type === 'textBlock'
        ? (content.blocks[0].children as Token[]).filter((t) => t.text !== '')
        : null;
    const tokens = content.kind === 'inline' ? content.tokens : single;
    if (place === 'plain') {
      insertPlainText(editor, plainText ?? contentText(content), false);
      return;
    }
    if (place === 'title') {
      if (tokens || content.kind === 'inline') {
        insertPlainText(editor, tokensText(tokens ?? []), true);
        return;
      }
      const blocks = (content as { blocks: BlockElement[] }).blocks;
      const [head, ...rest] = blocks;
      if (isTextLike(head)) insertPlainText(editor, Node.string(head), true);
      const remaining = isTextLike(head) ? rest : blocks;
      if (remaining.length === 0) return;
      insertFresh(editor, soundDepths(remaining), 1);
      Transforms.select(editor, Editor.end(editor, [remaining.length]));
      return;
    }
    const current = editor.children[editor.selection!.anchor.path[0]] as BlockElement;
    if (tokens && isTextLike(current)) {
      insertTokens(editor, tokens);
      return;
    }
    const blocks =
      content.kind === 'blocks'
        ? content.blocks
        : soundDepths([{ type: 'textBlock', uid: '', version: 1, children: tokens!.map((t) => ({ ...t })) } as BlockElement]);
    if (blocks.length > 0) insertBlockList(editor, blocks);
  });
}
