/**
 * Leaving the grid with the keyboard (docs/web-app.md «Accessibility» → «Databases»): the grid's
 * keyboard target lives at the end of the page's body (a portal), so the browser's own Tab from it
 * would go nowhere near the grid; Tab past the last cell and Shift+Tab before the first go to the
 * element the page's tab order has after or before the grid instead.
 */

import { tabbables } from '../../../ui/tabbable';

/**
 * The element Tab reaches after `container` (`back`: Shift+Tab's, before it), none of its own
 * descendants; elements with a positive tabindex are taken in document order like the rest (the
 * app gives none).
 */
export function tabbableBeyond(container: HTMLElement, back: boolean): HTMLElement | null {
  // The grid's own keyboard target (the sink, at the end of the body) is no stop of the page's.
  const beyond = tabbables(container.ownerDocument).filter((element) => {
    if (element === container || container.contains(element) || element.classList.contains('db-sink')) return false;
    const where = container.compareDocumentPosition(element);
    return back ? (where & Node.DOCUMENT_POSITION_PRECEDING) !== 0 : (where & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  });
  return (back ? beyond[beyond.length - 1] : beyond[0]) ?? null;
}
