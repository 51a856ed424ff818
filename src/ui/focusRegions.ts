/**
 * Moving the keyboard focus between the app's regions (issue 37; docs/web-app.md «Accessibility» →
 * «Editor and menus»): out of the editor (Escape twice), F6 / Shift+F6 between the sidebar, the
 * page's top bar, its content and the open side panels, and the skip links.
 */

import { FOCUSABLE, tabbables } from './tabbable';

/**
 * Focuses the first Tab stop after `element` and everything inside it (the next region of the
 * page), as Tab would from its end; past the last one, the first of the document (the skip links).
 * Returns the element focused.
 */
export function focusAfter(element: HTMLElement): HTMLElement | null {
  const all = tabbables();
  const next =
    all.find((candidate) => !element.contains(candidate) && element.compareDocumentPosition(candidate) & Node.DOCUMENT_POSITION_FOLLOWING) ??
    all.find((candidate) => !element.contains(candidate)) ??
    null;
  next?.focus();
  return next;
}

/** The regions F6 cycles through, in document order: the sidebar, the page's top bar, its content, the open panels. */
function regions(): HTMLElement[] {
  const found = [
    // The sidebar, or (hidden, or on a phone) the button that shows it.
    document.querySelector<HTMLElement>('.shell nav.sidebar') ?? document.querySelector<HTMLElement>('.shell .shell-reopen'),
    document.querySelector<HTMLElement>('.shell-main .page-topbar'),
    document.querySelector<HTMLElement>('.shell-main [data-slate-editor]') ?? document.querySelector<HTMLElement>('.shell-main'),
    ...Array.from(document.querySelectorAll<HTMLElement>('.shell aside')),
  ].filter((element): element is HTMLElement => element !== null);
  return found.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
}

/** Focuses a region: an editor (or another Tab stop) itself, else its first Tab stop, else the region (made focusable). */
export function focusRegion(region: HTMLElement): void {
  if (region.isContentEditable || region.matches(FOCUSABLE)) {
    region.focus();
    return;
  }
  const first = tabbables(region)[0];
  if (first) {
    first.focus();
    return;
  }
  if (!region.hasAttribute('tabindex')) region.setAttribute('tabindex', '-1');
  region.focus();
}

/** F6 (step 1) or Shift+F6 (step -1): the focus goes to the next or previous region, around. */
export function cycleRegion(step: 1 | -1): void {
  const all = regions();
  if (all.length === 0) return;
  const active = document.activeElement;
  const at = all.findIndex((region) => active instanceof Node && region.contains(active));
  const next = at < 0 ? (step > 0 ? 0 : all.length - 1) : (at + step + all.length) % all.length;
  focusRegion(all[next]);
}
