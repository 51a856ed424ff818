import type { Editor } from 'slate';
import { ReactEditor } from 'slate-react';
import { depthOf, type BlockElement } from '../../../schema/slate';
import { MIN_COLUMN_SHARE, type ColumnElement } from './block';

/*
 * Laying columns out (issue 39 §2). The page's blocks are one flat list of elements
 * (docs/adr/0005-flat-blocks.md): a column's blocks are siblings of the list's, one column's
 * after the other's, so no CSS can put them side by side. The list's view does it: each block of
 * a column is taken out of the flow (absolute), placed in its column under the one before it,
 * and the list keeps the height of its tallest column, so what follows it flows below. The
 * browser hit-tests, selects and draws carets in the blocks where they are placed. Done after
 * every change of the page (typing changes heights) and whenever a block's size changes (a
 * picture loads, the window narrows). Narrower than STACK_BELOW_PX (a phone) the columns are
 * left one under the other, in the flow.
 */

/** Narrower than this, the columns stack (docs/web-app.md «Columns»). */
export const STACK_BELOW_PX = 480;
/**
 * The space between two columns: the resize handle sits in its left part (columns.css), the
 * next column's blocks' drag handles (22 px, BlockHandle) in its right part — they must not overlap.
 */
export const COLUMN_GAP_PX = 48;
/** One level of nesting (editor.css `.block[data-depth]`). */
const INDENT_PX = 26;

export interface ColumnMember {
  block: BlockElement;
  element: HTMLElement | null;
}

export interface ColumnOfList {
  column: ColumnElement;
  element: HTMLElement | null;
  blocks: ColumnMember[];
}

function domOf(editor: Editor, block: BlockElement): HTMLElement | null {
  try {
    return ReactEditor.toDOMNode(editor as ReactEditor, block);
  } catch {
    // Not drawn (a chunk of a big page not mounted).
    return null;
  }
}

/** The list's columns and their blocks, from the list at `index`. */
export function columnsOf(editor: Editor, index: number, withElements = true): ColumnOfList[] {
  const depth = depthOf(editor.children[index] as BlockElement);
  const columns: ColumnOfList[] = [];
  for (let i = index + 1; i < editor.children.length; i++) {
    const block = editor.children[i] as BlockElement;
    const at = depthOf(block);
    if (at <= depth) break;
    const element = withElements ? domOf(editor, block) : null;
    if (at === depth + 1 && block.type === 'columnBlock') columns.push({ column: block as ColumnElement, element, blocks: [] });
    else columns[columns.length - 1]?.blocks.push({ block, element });
  }
  return columns;
}

/** Each column's share of the width, summing to 1 (a column without one: an equal share). */
export function sharesOf(columns: ReadonlyArray<{ width?: number | null }>): number[] {
  const equal = 1 / Math.max(1, columns.length);
  const raw = columns.map((c) => (typeof c.width === 'number' && c.width >= MIN_COLUMN_SHARE ? c.width : equal));
  const sum = raw.reduce((a, b) => a + b, 0) || 1;
  return raw.map((share) => share / sum);
}

const PLACED = ['position', 'top', 'left', 'width', 'height', 'marginLeft'] as const;

/** Puts a block back in the page's flow (out of a column, or its list gone). */
export function reset(element: HTMLElement): void {
  for (const property of PLACED) element.style[property] = '';
  element.classList.remove('is-in-column', 'is-stacked');
}

/**
 * Places `element` at (x, y) of the list's box, `width` wide, out of the flow. `boxes` keeps the
 * containing blocks' boxes read in this layout (the blocks of a list share one: read once, not
 * once per block — each read after a style write is a layout of the page).
 */
function place(element: HTMLElement, list: DOMRect, x: number, y: number, width: number, boxes: Map<HTMLElement, DOMRect>): void {
  element.style.position = 'absolute';
  element.style.marginLeft = '0';
  element.style.width = `${Math.max(0, width)}px`;
  const parent = (element.offsetParent as HTMLElement | null) ?? document.body;
  let box = boxes.get(parent);
  if (!box) {
    box = parent.getBoundingClientRect();
    boxes.set(parent, box);
  }
  element.style.left = `${list.left - box.left - parent.clientLeft + parent.scrollLeft + x}px`;
  element.style.top = `${list.top - box.top - parent.clientTop + parent.scrollTop + y}px`;
}

const outerHeight = (element: HTMLElement): number => {
  if (element.offsetParent === null && getComputedStyle(element).display === 'none') return 0;
  const style = getComputedStyle(element);
  return element.offsetHeight + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
};

/**
 * Lays the list at `index` out (see the file's comment); `placed` holds the elements placed last
 * time: those no longer in the list are put back in the flow. Returns the elements placed now,
 * and whether every block of the list was drawn (slate-react maps a block just made or moved
 * to its element only after the render: then it is laid out again a frame later).
 */
export function layoutColumns(
  editor: Editor,
  index: number,
  listElement: HTMLElement,
  placed: ReadonlySet<HTMLElement>,
): { placed: Set<HTMLElement>; complete: boolean } {
  const listDepth = depthOf(editor.children[index] as BlockElement);
  const columns = columnsOf(editor, index);
  const now = new Set<HTMLElement>();
  const stacked = listElement.clientWidth < STACK_BELOW_PX || columns.length < 2;
  listElement.classList.toggle('is-stacked', stacked);
  // A lazy chunk (content-visibility: auto) would clip and hold what is placed over it: not around columns.
  const chunks = new Set<HTMLElement>();
  for (const { element, blocks } of columns)
    for (const member of [element, ...blocks.map((b) => b.element)]) {
      const chunk = member?.closest<HTMLElement>('.block-chunk');
      if (chunk) chunks.add(chunk);
    }
  for (const chunk of chunks) chunk.style.contentVisibility = 'visible';

  if (stacked) {
    listElement.style.height = '';
    for (const { element, blocks } of columns) {
      if (element) {
        reset(element);
        const handle = element.querySelector<HTMLElement>('.column-resize');
        if (handle) handle.hidden = true;
        element.classList.add('is-stacked');
        element.style.marginLeft = `${listDepth * INDENT_PX}px`;
        now.add(element);
      }
      for (const { block, element: member } of blocks) {
        if (!member) continue;
        reset(member);
        member.style.marginLeft = `${(listDepth + depthOf(block) - (listDepth + 2)) * INDENT_PX}px`;
        now.add(member);
      }
    }
  } else {
    const list = listElement.getBoundingClientRect();
    const boxes = new Map<HTMLElement, DOMRect>();
    const shares = sharesOf(columns.map((c) => c.column));
    const usable = listElement.clientWidth - COLUMN_GAP_PX * (columns.length - 1);
    let x = 0;
    let tallest = 0;
    for (const [k, { element, blocks }] of columns.entries()) {
      const width = usable * shares[k];
      let y = 0;
      for (const { block, element: member } of blocks) {
        if (!member) continue;
        const indent = (depthOf(block) - (listDepth + 2)) * INDENT_PX;
        place(member, list, x + indent, y, width - indent, boxes);
        member.classList.add('is-in-column');
        y += outerHeight(member);
        now.add(member);
      }
      if (element) {
        // The handle before it (not before the first): its value is the share of the column before it.
        const handle = element.querySelector<HTMLElement>('.column-resize');
        if (handle) {
          handle.hidden = k === 0;
          if (k > 0) handle.setAttribute('aria-valuenow', String(Math.round(shares[k - 1] * 100)));
        }
        place(element, list, x, 0, width, boxes);
        element.style.height = `${y}px`;
        element.classList.add('is-in-column');
        now.add(element);
      }
      tallest = Math.max(tallest, y);
      x += width + COLUMN_GAP_PX;
    }
    listElement.style.height = `${tallest}px`;
  }
  for (const element of placed) if (!now.has(element)) reset(element);
  const complete = columns.every(({ element, blocks }) => element !== null && blocks.every((b) => b.element !== null));
  return { placed: now, complete };
}
