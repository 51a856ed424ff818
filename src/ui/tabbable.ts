/**
 * The keyboard's Tab stops (issue 37, docs/web-app.md «Accessibility»): the one rule the modal's
 * focus trap (modal.ts), the regions' moves (focusRegions.ts: out of the editor, F6, the skip
 * links) and the grid's way out (database/table/leaveGrid.ts) share.
 */

/** What may take the focus, before `isTabbable`'s checks. */
export const FOCUSABLE = 'a[href], area[href], button, input, select, textarea, iframe, summary, [tabindex], [contenteditable]:not([contenteditable="false"])';

/** Shown: Chromium's own check (`checkVisibility`), no empty box; jsdom (no layout): what styles and `hidden` say. */
function visible(element: HTMLElement): boolean {
  if (typeof element.checkVisibility === 'function') {
    if (!element.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions)) return false;
    const box = element.getBoundingClientRect();
    return box.width > 0 || box.height > 0;
  }
  for (let node: HTMLElement | null = element; node; node = node.parentElement) {
    if (node.hidden) return false;
    const style = getComputedStyle(node);
    if (style.display === 'none' || style.visibility === 'hidden') return false;
  }
  return true;
}

/**
 * Whether Tab stops at the element: not taken out (tabindex −1), not disabled or a hidden input,
 * not inside something inert, hidden or aria-hidden, not inside an editable text (only the
 * editable root is a stop; a non-editable island in it, such as a database block, has its own), and shown.
 */
export function isTabbable(element: HTMLElement): boolean {
  if (element.tabIndex < 0) return false;
  if ((element as HTMLButtonElement).disabled) return false;
  if (element instanceof HTMLInputElement && element.type === 'hidden') return false;
  if (element.closest('[inert], [hidden], [aria-hidden="true"]')) return false;
  // Inside editable text only its root is a stop; a block's own controls (a database in the
  // editor, in a contenteditable="false" island) are stops of their own.
  const editableHost = element.parentElement?.closest('[contenteditable]');
  if (editableHost && editableHost.getAttribute('contenteditable') !== 'false') return false;
  return visible(element);
}

/** The Tab stops inside `root` in document order; a radio group stops once (at its checked radio, else its first). */
export function tabbables(root: ParentNode = document): HTMLElement[] {
  const found = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(isTabbable);
  return found.filter((element) => {
    if (!(element instanceof HTMLInputElement) || element.type !== 'radio' || !element.name) return true;
    const group = found.filter((other) => other instanceof HTMLInputElement && other.type === 'radio' && other.name === element.name) as HTMLInputElement[];
    const checked = group.find((radio) => radio.checked);
    return checked ? checked === element : group[0] === element;
  });
}
