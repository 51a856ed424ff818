import { Editor, Node, Path, Range, Transforms, type NodeEntry, type Operation } from 'slate';
import type { BlockElement, TableElement } from '../../schema/slate';
import type { KeyPress } from '../types';
import { normalizeTables } from './normalize';
import { cellAt, fragmentText, isTableElement, selectionInTable } from './queries';
import { deleteAcrossCells, insertRow } from './transforms';

export { cellAt, findTable, isTableElement } from './queries';
export { deleteColumn, deleteRow, insertColumn, insertRow, setColumnSize, toggleHeaderColumn, toggleHeaderRow } from './transforms';

/**
 * Tables, the one block with structure inside (docs/adr/0005-flat-blocks.md): tableBlock →
 * tableRow → tableCell → text. The structure is the truth: the normalizer (normalize.ts) keeps
 * every row at the same number of cells and the element's tableLayout equal to it, so a token's
 * tableAddress (given by toWire from the cell's place) is always right after rows and columns
 * come and go (transforms.ts; reading tables: queries.ts).
 *
 * Keys: Tab / Shift+Tab move between cells (Tab in the last cell adds a row); Enter in a cell is
 * a line break; Backspace at the start of a cell (and Delete at its end) does nothing, so cells,
 * rows and the table never merge with anything. A selection that starts in a table ends in the
 * same table; deleting across cells empties them and keeps the grid.
 */
export function withTables<E extends Editor & { handleKey(event: KeyPress): boolean }>(editor: E): E {
  const { normalizeNode, apply, insertBreak, insertSoftBreak, deleteBackward, deleteForward, deleteFragment, insertText, insertFragment, handleKey } = editor;

  editor.normalizeNode = (entry: NodeEntry, options) => {
    if (normalizeTables(editor, entry)) return;
    normalizeNode(entry, options);
  };

  // A selection that starts in a table stays in that table: its other end is clamped to the table's cells.
  let clamping = false;
  editor.apply = (op: Operation) => {
    apply(op);
    if (op.type !== 'set_selection' || clamping || !editor.selection) return;
    const { anchor, focus } = editor.selection;
    const start = cellAt(editor, anchor.path);
    if (!start || (focus.path[0] === start.table && cellAt(editor, focus.path))) return;
    const edge = Path.isAfter(focus.path, anchor.path) ? Editor.end(editor, [start.table]) : Editor.start(editor, [start.table]);
    clamping = true;
    try {
      Transforms.setSelection(editor, { focus: edge });
    } finally {
      clamping = false;
    }
  };

  editor.deleteFragment = (options) => {
    if (editor.selection && Range.isExpanded(editor.selection) && deleteAcrossCells(editor, editor.selection)) return;
    deleteFragment(options);
  };

  editor.insertText = (text, options) => {
    if (editor.selection && Range.isExpanded(editor.selection)) deleteAcrossCells(editor, editor.selection);
    insertText(text, options);
  };

  const lineBreak = () => {
    if (editor.selection && Range.isExpanded(editor.selection)) editor.deleteFragment();
    Transforms.insertText(editor, '\n');
  };

  editor.insertBreak = () => {
    if (selectionInTable(editor)) lineBreak();
    else insertBreak();
  };

  editor.insertSoftBreak = () => {
    if (selectionInTable(editor)) lineBreak();
    else insertSoftBreak();
  };

  editor.insertFragment = (fragment, options) => {
    if (!selectionInTable(editor)) {
      insertFragment(fragment, options);
      return;
    }
    // A cell holds text only: pasted blocks arrive as lines of text.
    if (editor.selection && Range.isExpanded(editor.selection)) editor.deleteFragment();
    Transforms.insertText(editor, fragmentText(fragment));
  };

  /** The caret, when it is collapsed. */
  const caret = () => (editor.selection && Range.isCollapsed(editor.selection) ? editor.selection.anchor : null);

  editor.deleteBackward = (unit) => {
    const point = caret();
    if (point) {
      const cell = cellAt(editor, point.path);
      if (cell) {
        if (Editor.isStart(editor, point, point.path.slice(0, 3))) return; // never merge cells, rows or the table
      } else if (point.path.length === 2 && point.path[0] > 0 && isTableElement(editor.children[point.path[0] - 1])) {
        const index = point.path[0];
        if (Editor.isStart(editor, point, [index])) {
          // Right after a table: go into its last cell instead of merging into it; an empty block goes away.
          const block = editor.children[index] as BlockElement;
          const end = Editor.end(editor, [index - 1]);
          Editor.withoutNormalizing(editor, () => {
            // (The last block stays: a table is never the last block.)
            if (!Editor.isVoid(editor, block) && Node.string(block) === '' && index < editor.children.length - 1) {
              Transforms.removeNodes(editor, { at: [index] });
            }
            Transforms.select(editor, end);
          });
          return;
        }
      }
    }
    deleteBackward(unit);
  };

  editor.deleteForward = (unit) => {
    const point = caret();
    if (point) {
      const cell = cellAt(editor, point.path);
      if (cell) {
        if (Editor.isEnd(editor, point, point.path.slice(0, 3))) return;
      } else if (point.path.length === 2 && isTableElement(editor.children[point.path[0] + 1])) {
        const index = point.path[0];
        if (Editor.isEnd(editor, point, [index])) {
          const block = editor.children[index] as BlockElement;
          if (index > 0 && block.type !== 'pageHeadingBlock' && !Editor.isVoid(editor, block) && Node.string(block) === '') {
            Transforms.removeNodes(editor, { at: [index] });
            Transforms.select(editor, Editor.start(editor, [index]));
          }
          return;
        }
      }
    }
    deleteForward(unit);
  };

  editor.handleKey = (event) => {
    if (event.key !== 'Tab' || event.ctrlKey || event.metaKey || event.altKey || !editor.selection) return handleKey(event);
    const cell = cellAt(editor, editor.selection.anchor.path);
    if (!cell) return handleKey(event);
    const table = editor.children[cell.table] as TableElement;
    const columns = table.children[cell.row].children.length;
    let row = cell.row;
    let column = cell.column + (event.shiftKey ? -1 : 1);
    if (column >= columns) {
      row += 1;
      column = 0;
    } else if (column < 0) {
      row -= 1;
      column = columns - 1;
    }
    if (row < 0) return true; // Shift+Tab in the first cell: stay.
    if (row >= table.children.length) {
      // Tab in the last cell adds a row and goes to its first cell.
      if (!insertRow(editor, table.uid, table.children.length)) return true;
    }
    Transforms.select(editor, Editor.end(editor, [cell.table, row, column]));
    return true;
  };

  return editor;
}
