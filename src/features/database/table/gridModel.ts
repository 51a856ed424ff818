import Papa from 'papaparse';

/**
 * The spreadsheet part of the Table view, without React: the active cell and the selected
 * range (rows and columns are positions in the view: row = index among the view's rows,
 * column = index among its visible columns), what a key does, and clipboard text (TSV) both ways.
 */

export interface CellPos {
  row: number;
  col: number;
}

/** A selection: the anchor (where it started) and the focus (the active cell, which moves). */
export interface GridSelection {
  anchor: CellPos;
  focus: CellPos;
}

export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export interface GridSize {
  rows: number;
  cols: number;
}

export function rangeOf(selection: GridSelection): CellRange {
  return {
    top: Math.min(selection.anchor.row, selection.focus.row),
    bottom: Math.max(selection.anchor.row, selection.focus.row),
    left: Math.min(selection.anchor.col, selection.focus.col),
    right: Math.max(selection.anchor.col, selection.focus.col),
  };
}

const clamp = (value: number, max: number) => Math.max(0, Math.min(max, value));

export function clampPos(pos: CellPos, size: GridSize): CellPos {
  return { row: clamp(pos.row, size.rows - 1), col: clamp(pos.col, size.cols - 1) };
}

/** One cell selected. */
/** Whether the selection is the one cell `pos`. */
export function isOnlyCell(selection: GridSelection, pos: CellPos): boolean {
  const { anchor, focus } = selection;
  return anchor.row === focus.row && anchor.col === focus.col && focus.row === pos.row && focus.col === pos.col;
}

export function cellSelection(pos: CellPos): GridSelection {
  return { anchor: pos, focus: pos };
}

/** The focus moved by (dRow, dCol); with `extend` the anchor stays (Shift), else it follows. */
export function moveSelection(selection: GridSelection, dRow: number, dCol: number, size: GridSize, extend: boolean): GridSelection {
  const focus = clampPos({ row: selection.focus.row + dRow, col: selection.focus.col + dCol }, size);
  return extend ? { anchor: selection.anchor, focus } : cellSelection(focus);
}

/** Tab and Shift+Tab: right and left, on to the next or previous row at the ends. */
export function tabSelection(selection: GridSelection, back: boolean, size: GridSize): GridSelection {
  let { row, col } = selection.focus;
  col += back ? -1 : 1;
  if (col >= size.cols) {
    if (row < size.rows - 1) {
      row += 1;
      col = 0;
    } else col = size.cols - 1;
  } else if (col < 0) {
    if (row > 0) {
      row -= 1;
      col = size.cols - 1;
    } else col = 0;
  }
  return cellSelection({ row, col });
}

export interface KeyLike {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/** What a key does in the grid. */
export type GridKeyAction =
  | { type: 'move'; dRow: number; dCol: number; extend: boolean }
  | { type: 'tab'; back: boolean }
  | { type: 'edit'; initial?: string }
  | { type: 'commit'; then: 'down' | 'right' | 'left' | 'stay' }
  | { type: 'cancel' }
  | { type: 'clear' }
  | { type: 'toggle' }
  | { type: 'selectAll' }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'moveRows'; step: -1 | 1 }
  | { type: 'fillDown' }
  | { type: 'open' }
  | null;

const ARROWS: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/**
 * The key's action. While a cell is edited, only Enter (commit and down; Shift+Enter stays, for
 * a line in wrapped text is typed with Shift+Enter in Notion — here it commits in place), Tab
 * (commit and right/left) and Escape (cancel) belong to the grid; the editor has the rest.
 * On a checkbox cell (`opts.checkbox`) Space and Enter toggle it and nothing else does: a typed
 * character or F2 leaves it as it is.
 */
export function gridKeyAction(event: KeyLike, editing: boolean, opts: { checkbox?: boolean } = {}): GridKeyAction {
  const mod = event.ctrlKey || event.metaKey;
  if (editing) {
    if (event.key === 'Enter' && !event.altKey) return { type: 'commit', then: event.shiftKey ? 'stay' : 'down' };
    if (event.key === 'Tab') return { type: 'commit', then: event.shiftKey ? 'left' : 'right' };
    if (event.key === 'Escape') return { type: 'cancel' };
    return null;
  }
  // Alt+Shift+↑/↓: the active row (with the rows checked along with it) a step up or down.
  if (event.altKey && event.shiftKey && !mod && (event.key === 'ArrowUp' || event.key === 'ArrowDown'))
    return { type: 'moveRows', step: event.key === 'ArrowUp' ? -1 : 1 };
  const arrow = ARROWS[event.key];
  if (arrow && !event.altKey) {
    // Ctrl/Cmd+arrow jumps to the edge.
    const far = mod ? 1_000_000_000 : 1;
    return { type: 'move', dRow: arrow[0] * far, dCol: arrow[1] * far, extend: !!event.shiftKey };
  }
  if (event.key === 'Tab') return { type: 'tab', back: !!event.shiftKey };
  // Ctrl/⌘+Enter opens the active cell's row (the keyboard's «Открыть»), a checkbox's too.
  if (mod && !event.altKey && !event.shiftKey && event.key === 'Enter') return { type: 'open' };
  if (opts.checkbox && !mod && !event.altKey && (event.key === ' ' || event.key === 'Enter')) return { type: 'toggle' };
  if (event.key === 'Enter' || event.key === 'F2') return opts.checkbox ? null : { type: 'edit' };
  if (event.key === 'Escape') return { type: 'cancel' };
  if (event.key === 'Delete' || event.key === 'Backspace') return { type: 'clear' };
  if (mod && (event.key === 'a' || event.key === 'A' || event.key === 'ф' || event.key === 'Ф')) return { type: 'selectAll' };
  // Z and Y, also with a Russian layout on (я, н).
  if (mod && ['z', 'Z', 'я', 'Я'].includes(event.key)) return { type: event.shiftKey ? 'redo' : 'undo' };
  if (mod && ['y', 'Y', 'н', 'Н'].includes(event.key)) return { type: 'redo' };
  // Ctrl/⌘+D fills down, as in spreadsheets (в: a Russian layout's D).
  if (mod && !event.shiftKey && !event.altKey && ['d', 'D', 'в', 'В'].includes(event.key)) return { type: 'fillDown' };
  if (event.key.length === 1 && !mod && !event.altKey) return opts.checkbox ? null : { type: 'edit', initial: event.key };
  return null;
}

/** Cells' text as TSV (what spreadsheets put on and read from the clipboard). */
export function toTsv(cells: readonly (readonly string[])[]): string {
  return Papa.unparse(cells as string[][], { delimiter: '\t', newline: '\n', quotes: false });
}

/** TSV from the clipboard as rows of cells (a trailing line break does not make an empty row). */
export function parseTsv(text: string): string[][] {
  const trimmed = text.replace(/\r\n?/g, '\n').replace(/\n$/, '');
  if (trimmed === '') return [['']];
  // A single line with no tab is one cell as it is (quotes and all).
  if (!trimmed.includes('\t') && !trimmed.includes('\n')) return [[trimmed]];
  const parsed = Papa.parse<string[]>(trimmed, { delimiter: '\t', newline: '\n', skipEmptyLines: false });
  return parsed.data.map((row) => row.map((cell) => cell ?? ''));
}

export interface PastePlan {
  /** Cells to write: position in the view and the text for it. */
  cells: Array<{ row: number; col: number; text: string }>;
  /** Rows past the end of the view the paste needs (made at the bottom). */
  newRows: number;
}

/**
 * Where pasted cells go: from the selection's top-left, as many rows and columns as were copied
 * (columns past the last are dropped; rows past the last are made); one copied cell fills the
 * whole selected range, and a block that fits the range a whole number of times is repeated
 * over it, as spreadsheets do.
 */
export function planPaste(grid: readonly (readonly string[])[], selection: GridSelection, size: GridSize): PastePlan {
  const range = rangeOf(selection);
  const height = grid.length;
  const width = Math.max(...grid.map((r) => r.length));
  const rangeRows = range.bottom - range.top + 1;
  const rangeCols = range.right - range.left + 1;
  const repeat = (rangeRows > height || rangeCols > width) && rangeRows % height === 0 && rangeCols % width === 0;
  const rows = repeat ? rangeRows : height;
  const cols = repeat ? rangeCols : width;
  const cells: PastePlan['cells'] = [];
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1) {
      const col = range.left + c;
      if (col >= size.cols) break;
      const text = grid[r % height][c % width];
      if (text === undefined) continue;
      cells.push({ row: range.top + r, col, text });
    }
  }
  const lastRow = range.top + rows - 1;
  return { cells, newRows: Math.max(0, lastRow - (size.rows - 1)) };
}

/**
 * Where rows moved together go (`POST …/rows/move`'s `placeAfter`) when they are put at a line of
 * the view: `line` is the position of the row below it (rows 0…line − 1 are above), `moving` the
 * positions of the rows moved. They go after the last row above the line that is not one of them
 * (null: at the top). undefined: nothing would move (rows side by side put where they are), or
 * the row above is not in memory.
 */
export function movePlacement(idAt: (row: number) => string | undefined, moving: readonly number[], line: number): string | null | undefined {
  const rows = [...moving].sort((a, b) => a - b);
  if (rows.length === 0) return undefined;
  const together = rows.every((r, i) => r === rows[0] + i);
  if (together && line >= rows[0] && line <= rows[rows.length - 1] + 1) return undefined;
  const set = new Set(rows);
  for (let r = line - 1; r >= 0; r -= 1) if (!set.has(r)) return idAt(r);
  return null;
}

/** The line a step (Alt+Shift+↑/↓) puts rows at: above the row over the first of them, or below the row under the last. */
export function stepLine(moving: readonly number[], step: -1 | 1, count: number): number {
  return step < 0 ? Math.max(0, Math.min(...moving) - 1) : Math.min(count, Math.max(...moving) + 2);
}

/** Where virtual items are when a grouped view puts a header before each group's rows. */
export interface GroupedLayout {
  /** Items to draw: headers and the rows of open groups. */
  size: number;
  itemAt(index: number): { kind: 'group'; group: number } | { kind: 'row'; row: number };
  /** The item index of a row (of a collapsed group: its header). */
  itemOfRow(row: number): number;
  /** Whether a row is in a collapsed group (not drawn). */
  isHidden(row: number): boolean;
  /** The nearest row from `row` on in direction `dir` (itself included) that is drawn; null: none. */
  visibleRow(row: number, dir: -1 | 1): number | null;
}

/**
 * Headers before each group's rows; counts as the server gave them (in the view's order). A
 * collapsed group (its index in `collapsed`) is its header alone: its rows keep their positions
 * in the view but take no item. A header in `hidden` (a sub-group of a collapsed group) takes no
 * item either (its group is collapsed too).
 */
export function groupedLayout(counts: readonly number[], collapsed: ReadonlySet<number> = new Set(), hidden: ReadonlySet<number> = new Set()): GroupedLayout {
  // starts[g]: the item index of group g's header (a hidden one: where it would be).
  const starts: number[] = [];
  const firstRows: number[] = [];
  // The groups whose header is drawn, and their headers' items.
  const shown: number[] = [];
  const shownStarts: number[] = [];
  let item = 0;
  let row = 0;
  counts.forEach((count, g) => {
    starts.push(item);
    firstRows.push(row);
    if (!hidden.has(g)) {
      shown.push(g);
      shownStarts.push(item);
    }
    item += (hidden.has(g) ? 0 : 1) + (collapsed.has(g) ? 0 : count);
    row += count;
  });
  const last = (list: number[], value: number) => {
    let lo = 0;
    let hi = list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (list[mid] <= value) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  /** The group holding row r: the last whose first row is ≤ r and which is not empty. */
  const groupOf = (r: number) => {
    let g = last(firstRows, r);
    while (g > 0 && counts[g] === 0) g -= 1;
    return g;
  };
  const isHidden = (r: number) => counts.length > 0 && collapsed.has(groupOf(r));
  return {
    size: item,
    itemAt(index) {
      const g = shown[last(shownStarts, index)];
      return index === starts[g] ? { kind: 'group', group: g } : { kind: 'row', row: firstRows[g] + (index - starts[g] - 1) };
    },
    itemOfRow(r) {
      if (counts.length === 0) return r;
      const g = groupOf(r);
      // Under a hidden header: the drawn header before it (its collapsed group's).
      if (hidden.has(g)) {
        for (let k = g - 1; k >= 0; k -= 1) if (!hidden.has(k)) return starts[k];
        return 0;
      }
      return collapsed.has(g) ? starts[g] : starts[g] + 1 + (r - firstRows[g]);
    },
    isHidden,
    visibleRow(r, dir) {
      if (r < 0 || r >= row) return null;
      if (!isHidden(r)) return r;
      for (let g = groupOf(r) + dir; g >= 0 && g < counts.length; g += dir) {
        if (counts[g] > 0 && !collapsed.has(g)) return dir > 0 ? firstRows[g] : firstRows[g] + counts[g] - 1;
      }
      return null;
    },
  };
}

/**
 * A selection that went from `from` to a row not drawn (a collapsed group's): its focus goes on
 * past the hidden rows the way it went, else back; with nowhere to go it stays at `from`.
 */
export function skipHidden(next: GridSelection, from: CellPos, layout: GroupedLayout | null): GridSelection {
  if (!layout || !layout.isHidden(next.focus.row)) return next;
  const dir = next.focus.row < from.row ? -1 : 1;
  const row = layout.visibleRow(next.focus.row, dir) ?? layout.visibleRow(next.focus.row, dir < 0 ? 1 : -1) ?? from.row;
  const focus = { row, col: next.focus.col };
  const single = next.anchor.row === next.focus.row && next.anchor.col === next.focus.col;
  return single ? cellSelection(focus) : { anchor: next.anchor, focus };
}
