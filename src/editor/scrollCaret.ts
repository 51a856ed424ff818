import { Range, type Editor } from 'slate';
import { defaultScrollSelectionIntoView, ReactEditor } from 'slate-react';

/** The ancestors of the editable that clip it (overflow other than visible), found once per editable. */
const clippersOf = new WeakMap<HTMLElement, HTMLElement[]>();

function clippers(editable: HTMLElement): HTMLElement[] {
  let found = clippersOf.get(editable);
  if (!found || (found.length > 0 && !found[0].contains(editable))) {
    found = [];
    for (let node = editable.parentElement; node && node !== document.body && node !== document.documentElement; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') found.push(node);
    }
    clippersOf.set(editable, found);
  }
  return found;
}

const inside = (rect: DOMRect, top: number, left: number, bottom: number, right: number) =>
  rect.top >= top && rect.bottom <= bottom && rect.left >= left && rect.right <= right;

/**
 * Editable's scrollSelectionIntoView: slate-react's own (scroll-into-view-if-needed, which reads
 * the style of every scrolling ancestor) only when the caret is not already in view. Slate calls
 * it after every change of the selection — every keystroke — and the caret being typed at is in
 * view almost always: one rectangle read (a layout the frame makes anyway) then settles it.
 */
export function scrollCaretIntoView(editor: ReactEditor, domRange: globalThis.Range): void {
  if (editor.selection && Range.isCollapsed(editor.selection)) {
    const rect = domRange.getBoundingClientRect();
    const drawn = rect.width > 0 || rect.height > 0 || rect.x !== 0 || rect.y !== 0;
    // What is on screen of the window (a phone's keyboard takes the visual viewport's bottom).
    const viewport = window.visualViewport;
    const top = viewport?.offsetTop ?? 0;
    const left = viewport?.offsetLeft ?? 0;
    if (
      drawn &&
      inside(rect, top, left, top + (viewport?.height ?? window.innerHeight), left + (viewport?.width ?? window.innerWidth)) &&
      clippers(ReactEditor.toDOMNode(editor, editor as unknown as Editor)).every((clipper) => {
        const box = clipper.getBoundingClientRect();
        return inside(rect, box.top, box.left, box.bottom, box.right);
      })
    )
      return;
  }
  defaultScrollSelectionIntoView(editor, domRange);
}
