import { Editor, Element, Node, Transforms, type Range } from 'slate';
import { newId } from '../../../schema/ids';
import { depthOf, type BlockElement } from '../../../schema/slate';
import { asOneUndoStep, insertPastedContent, parseMarkdown } from '../../../plugins';

export function blockIndex(editor: Editor, uid: string): number {
  return editor.children.findIndex((node) => Element.isElement(node) && (node as BlockElement).uid === uid);
}

function isEmptyParagraph(block: BlockElement): boolean {
  return block.type === 'textBlock' && Node.string(block) === '';
}

export type AiInsertTarget =
  /** Under the block `uid` (into it when it is an empty paragraph: the one the slash menu was opened in). */
  | { mode: 'below'; uid: string }
  /** In place of a range (the improved selection). */
  | { mode: 'replace'; range: Range };

/**
 * Puts the assistant's text into the document as ordinary blocks: markdown becomes headings,
 * lists, quotes, code… through the paste pipeline (plugins/withClipboard), and the whole insertion
 * is one undo step. The caret ends after the inserted text. False when there is nothing to insert
 * or the target is gone.
 */
export function insertAiResult(editor: Editor, text: string, target: AiInsertTarget): boolean {
  const content = parseMarkdown(text);
  if (!content) return false;
  let inserted = false;
  asOneUndoStep(editor, () => {
    if (target.mode === 'replace') {
      Transforms.select(editor, target.range);
      insertPastedContent(editor, content, text);
      inserted = true;
      return;
    }
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
