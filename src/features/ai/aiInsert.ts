import { Editor, Element, Node, Text, Transforms, type Range } from 'slate';
import { newId } from '../../../schema/ids';
import { depthOf, type BlockElement } from '../../../schema/slate';
import { canonicalTokens, type Token } from '../../../schema/token';
import { asOneUndoStep, insertPastedContent, parseMarkdown, type PastedContent } from '../../../plugins';
import { improveTarget } from './aiText';

export function blockIndex(editor: Editor, uid: string): number {
  return editor.children.findIndex((node) => Element.isElement(node) && (node as BlockElement).uid === uid);
}

function isEmptyParagraph(block: BlockElement): boolean {
  return block.type === 'textBlock' && Node.string(block) === '';
}

export type AiInsertTarget =
  /** Under the block `uid` (into it when it is an empty paragraph: the one the slash menu was opened in). */
  | { mode: 'below'; uid: string }
  /** In place of a range (the improved selection; across blocks: the whole blocks, see improveTarget). */
  | { mode: 'replace'; range: Range };

/**
 * Puts the assistant's text into the document as ordinary blocks: markdown becomes headings,
 * lists, quotes, code… through the paste pipeline (plugins/withClipboard), and the whole insertion
 * is one undo step. The caret ends after the inserted text. False when there is nothing to insert
 * or the target is gone.
 */
export function insertAiResult(editor: Editor, text: string, target: AiInsertTarget): boolean {
  if (target.mode === 'replace') return replaceSelection(editor, text.trim(), target.range);
  const content = parseMarkdown(text);
  if (!content) return false;
  let inserted = false;
  asOneUndoStep(editor, () => {
    const index = blockIndex(editor, target.uid);
    if (index < 1) return;
    const block = editor.children[index] as BlockElement;
    if (isEmptyParagraph(block)) {
      Transforms.select(editor, Editor.start(editor, [index]));
    } else {
      // A new paragraph under the block (its first child when it has children, so they keep their parent).
      const depth = depthOf(block);
      const next = editor.children[index + 1] as BlockElement | undefined;
      const nested = next !== undefined && depthOf(next) > depth ? depth + 1 : depth;
      const paragraph = { type: 'textBlock', uid: newId(), version: 1, children: [{ text: '' }], ...(nested > 0 ? { depth: nested } : {}) } as BlockElement;
      Transforms.insertNodes(editor, paragraph, { at: [index + 1], select: false });
      Transforms.select(editor, Editor.start(editor, [index + 1]));
    }
    insertPastedContent(editor, content, text);
    inserted = true;
  });
  return inserted;
}

/** Block types markdown has a form of: the same type comes back from it. Others (callout…) come back as paragraphs. */
const MARKDOWN_TYPES: ReadonlySet<string> = new Set([
  'textBlock',
  'heading1Block',
  'heading2Block',
  'heading3Block',
  'quoteBlock',
  'bulletListBlock',
  'orderedListBlock',
  'checkboxBlock',
  'codeBlock',
]);

/** Would the original block be written as markdown that reads back as this one's type? */
function sameKind(original: BlockElement, result: BlockElement): boolean {
  return result.type === original.type || (!MARKDOWN_TYPES.has(original.type) && result.type === 'textBlock');
}

/** Text nodes as compared: marks, not comments (which a rewrite cannot keep). */
function textKey(children: readonly unknown[]): string {
  const tokens = children
    .filter((c): c is Text => Text.isText(c))
    .map((c) => {
      const { comments: _comments, ...rest } = c as Token;
      return rest;
    });
  return JSON.stringify(canonicalTokens(tokens).map((t) => Object.fromEntries(Object.entries(t).sort(([a], [b]) => (a < b ? -1 : 1)))));
}

/** The block's text nodes replaced by these (its type, uid, depth and other fields kept). */
function setText(editor: Editor, index: number, children: readonly unknown[]): void {
  const count = (editor.children[index] as BlockElement).children.length;
  Transforms.insertNodes(
    editor,
    children.map((c) => ({ ...(c as Text) })),
    { at: [index, count] },
  );
  for (let k = count - 1; k >= 0; k--) Transforms.removeNodes(editor, { at: [index, k] });
}

/**
 * «Заменить»: the improved text in place of what was sent (docs/ai.md «Replacing a selection»).
 * Inside one block: in place of the selected part; the whitespace at its edges stays (the answer
 * comes trimmed). Across blocks: in place of the whole blocks — when the answer has as many
 * blocks of the same kinds, each keeps its type, uid, depth and fields and only takes the new
 * text (an unchanged one is not touched); else the blocks go and the answer's blocks (markdown
 * through the paste pipeline) come at the first one's place and depth. One undo step.
 */
function replaceSelection(editor: Editor, text: string, range: Range): boolean {
  const target = improveTarget(editor, range);
  const content = parseMarkdown(text);
  if (!target || !content) return false;
  if (target.kind === 'inline') {
    asOneUndoStep(editor, () => {
      Transforms.select(editor, target.range);
      insertPastedContent(editor, content, text);
    });
    return true;
  }
  asOneUndoStep(editor, () => replaceBlocks(editor, target.indices, content, text));
  return true;
}

function replaceBlocks(editor: Editor, indices: readonly number[], content: PastedContent, text: string): void {
  const originals = indices.map((index) => editor.children[index] as BlockElement);
  // One line of text reads as inline content: a paragraph here.
  const results = content.kind === 'blocks' ? content.blocks : [{ type: 'textBlock', uid: '', version: 1, children: content.tokens } as BlockElement];
  if (results.length === originals.length && results.every((result, k) => sameKind(originals[k], result))) {
    Editor.withoutNormalizing(editor, () => {
      indices.forEach((index, k) => {
        if (textKey(originals[k].children) !== textKey(results[k].children)) setText(editor, index, results[k].children);
      });
    });
    Transforms.select(editor, Editor.end(editor, [indices[indices.length - 1]]));
    return;
  }
  const depth = depthOf(originals[0]);
  Editor.withoutNormalizing(editor, () => {
    for (const index of [...indices].reverse()) Transforms.removeNodes(editor, { at: [index] });
    const paragraph = { type: 'textBlock', uid: newId(), version: 1, children: [{ text: '' }], ...(depth > 0 ? { depth } : {}) } as BlockElement;
    Transforms.insertNodes(editor, paragraph, { at: [indices[0]], select: false });
  });
  Transforms.select(editor, Editor.start(editor, [indices[0]]));
  insertPastedContent(editor, content, text);
}
