/**
 * Leaving the grid with the keyboard (docs/web-app.md «Accessibility» → «Databases»): the grid's
 * keyboard target lives at the end of the page's body (a portal), so the browser's own Tab from it
 * would go nowhere near the grid; Tab past the last cell and Shift+Tab before the first go to the
 * element the page's tab order has after or before the grid instead.
 */

const TABBABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]',
  '[contenteditable=""]',
  '[contenteditable="true"]',
].join(',');

/** Whether an element takes part in Tab's order: not taken out (tabindex −1), not a grid's keyboard target, not hidden or inert. */
function inTabOrder(element: HTMLElement): boolean {
  if (element.tabIndex < 0 || element.classList.contains('db-sink')) return false;
  if (element.closest('[inert], [hidden], [aria-hidden="true"]')) return false;
  if (element.getClientRects().length === 0) return false;
  const style = getComputedStyle(element);
  return style.visibility !== 'hidden' && style.display !== 'none';
}

/**
 * The element Tab reaches after `container` (`back`: Shift+Tab's, before it), none of its own
 * descendants; elements with a positive tabindex are taken in document order like the rest (the
 * app gives none).
 */
export function tabbableBeyond(container: HTMLElement, back: boolean): HTMLElement | null {
  const all = Array.from(container.ownerDocument.querySelectorAll<HTMLElement>(TABBABLE));
  const beyond = all.filter((element) => {
    if (element === container || container.contains(element)) return false;
    const where = container.compareDocumentPosition(element);
    return back ? (where & Node.DOCUMENT_POSITION_PRECEDING) !== 0 : (where & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  });
  if (back) {
    for (let i = beyond.length - 1; i >= 0; i -= 1) if (inTabOrder(beyond[i])) return beyond[i];
  } else {
    for (const element of beyond) if (inTabOrder(element)) return element;
  }
  return null;
}
