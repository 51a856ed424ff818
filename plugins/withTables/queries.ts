import { Editor, Element, Node, type Path } from 'slate';
import type { TableElement } from '../../schema/slate';

/* Reading tables: which element is one, where a path is in one. Nothing here changes the document. */

export const isTableElement = (node: unknown): node is TableElement => Element.isElement(node) && node.type === 'tableBlock';

/** The table with this uid and its top-level index. */
export function findTable(editor: Editor, uid: string): { table: TableElement; index: number } | null {
  const index = editor.children.findIndex((n) => isTableElement(n) && n.uid === uid);
  return index < 0 ? null : { table: editor.children[index] as TableElement, index };
}

/** Where a path is inside a table: the table's index, the row and the column; null outside tables. */
export function cellAt(editor: Editor, path: Path): { table: number; row: number; column: number } | null {
  if (path.length < 3 || !isTableElement(editor.children[path[0]])) return null;
  return { table: path[0], row: path[1], column: path[2] };
}

/** Whether either end of the selection is in a table cell. */
export function selectionInTable(editor: Editor): boolean {
  const { selection } = editor;
  return !!selection && (!!cellAt(editor, selection.anchor.path) || !!cellAt(editor, selection.focus.path));
}

/** The plain text of a fragment, blocks on their own lines and a row's cells apart by tabs (what a cell can hold). */
export function fragmentText(fragment: readonly Node[]): string {
  const lines: string[] = [];
  const walk = (node: Node) => {
    if (Element.isElement(node) && node.type === 'tableRow') {
      lines.push(node.children.map((cell) => Node.string(cell)).join('\t'));
      return;
    }
    if (Element.isElement(node) && (node.children as Node[]).some((c) => Element.isElement(c))) {
      node.children.forEach(walk);
      return;
    }
    lines.push(Node.string(node));
  };
  fragment.forEach(walk);
  return lines.join('\n');
}
