import { Editor, Element, Node, Path, Range, Transforms, type Operation } from 'slate';
import { newId } from '../../schema/ids';
import type { BlockElement } from '../../schema/slate';
import { blockAt, topBlocks } from '../queries';

/** A fresh empty paragraph. */
export function emptyTextBlock(): BlockElement {
  return { type: 'textBlock', uid: newId(), version: 1, children: [{ text: '' }] };
}

const isHeading = (type: BlockElement['type']) => type === 'heading1Block' || type === 'heading2Block' || type === 'heading3Block';

/**
 * The document's shape: the page heading (title) is always first and only first, at least one
 * block follows it, and every block has a unique uid (a split or a paste never duplicates one).
 * Enter in the title or at the end of a heading continues with a paragraph; Backspace at the
 * start of a heading turns it into a paragraph.
 */
export function withPageHeading<E extends Editor>(editor: E): E {
  const { apply, normalizeNode, insertBreak, deleteBackward } = editor;

  editor.apply = (op: Operation) => {
    if (op.type === 'split_node' && op.path.length === 1) {
      const original = blockAt(editor, op.path[0]);
      const properties = { ...op.properties, uid: newId(), version: 1 } as Partial<BlockElement>;
      if (original?.type === 'pageHeadingBlock') properties.type = 'textBlock';
      apply({ ...op, properties });
      return;
    }
    if (op.type === 'insert_node' && op.path.length === 1 && Element.isElement(op.node)) {
      const uid = op.node.uid;
      if (!uid || topBlocks(editor).some((child) => child.uid === uid)) {
        apply({ ...op, node: { ...op.node, uid: newId(), version: 1 } });
        return;
      }
    }
    apply(op);
  };

  editor.normalizeNode = (entry) => {
    const [node, path] = entry;
    if (path.length === 0 && Editor.isEditor(node)) {
      const first = blockAt(editor, 0);
      if (!first || first.type !== 'pageHeadingBlock') {
        Transforms.insertNodes(editor, { type: 'pageHeadingBlock', uid: `pageHeading_${newId()}`, version: 1, children: [{ text: '' }] }, { at: [0] });
        return;
      }
      if (editor.children.length < 2) {
        Transforms.insertNodes(editor, emptyTextBlock(), { at: [1] });
        return;
      }
    }
    if (path.length === 1 && Element.isElement(node) && node.type === 'pageHeadingBlock' && path[0] > 0) {
      Transforms.setNodes(editor, { type: 'textBlock' }, { at: path });
      return;
    }
    if (path.length === 2 && path[0] === 0 && Node.has(editor, path) && !Element.isElement(node)) {
      // Titles are plain text: no bold or links in the page heading.
      const marks = Object.keys(node).filter((key) => key !== 'text');
      if (marks.length > 0) {
        Transforms.unsetNodes(editor, marks, { at: path });
        return;
      }
    }
    normalizeNode(entry);
  };

  editor.insertBreak = () => {
    const { selection } = editor;
    if (selection && Range.isCollapsed(selection)) {
      const index = selection.anchor.path[0];
      const block = blockAt(editor, index);
      const atEnd = Editor.isEnd(editor, selection.anchor, [index]);
      if (block && atEnd && (block.type === 'pageHeadingBlock' || isHeading(block.type))) {
        const at = Path.next([index]);
        const next = blockAt(editor, at[0]);
        if (block.type === 'pageHeadingBlock' && next?.type === 'textBlock' && Node.string(next) === '') {
          // An empty first line is already waiting under the title: go there.
          Transforms.select(editor, Editor.start(editor, at));
          return;
        }
        Transforms.insertNodes(editor, emptyTextBlock(), { at, select: true });
        return;
      }
    }
    insertBreak();
  };

  editor.deleteBackward = (unit) => {
    const { selection } = editor;
    if (selection && Range.isCollapsed(selection)) {
      const index = selection.anchor.path[0];
      const block = blockAt(editor, index);
      if (block && isHeading(block.type) && Editor.isStart(editor, selection.anchor, [index])) {
        Transforms.setNodes(editor, { type: 'textBlock' }, { at: [index] });
        return;
      }
    }
    deleteBackward(unit);
  };

  return editor;
}
