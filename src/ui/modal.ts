import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { tabbables } from './tabbable';

/**
 * Modal behaviour shared by every modal surface (`Dialog`, the leave guard, the wizard): while
 * open, Tab and Shift+Tab go round the modal's own controls, everything else on the page is
 * `inert` (only the innermost modal is live), Escape closes only the innermost, and on close the
 * focus goes back to what had it when the modal opened (or, when that was an item of a menu that
 * is gone now, to the menu's button). docs/web-app.md «Dialogs and announcements».
 */

/** Open modals, innermost last. */
const stack: HTMLElement[] = [];

/** How many open modals made an element inert (an element inert by itself is never touched). */
const inertBy = new Map<Element, number>();

/** The popovers' panels and the buttons they hang from: where focus goes when an item of a closed menu opened a modal. */
const popoverAnchors = new WeakMap<Element, HTMLElement>();

/** A popover's panel says which element it hangs from (Popover). */
export function registerPopoverAnchor(panel: Element, anchor: HTMLElement | null): void {
  if (anchor) popoverAnchors.set(panel, anchor);
  else popoverAnchors.delete(panel);
}

/**
 * The last element that had the focus, and the button of the popover it was in: a modal drawn
 * later (its code loaded lazily, after the menu whose item asked for it went away) still knows
 * where it came from.
 */
let lastFocus: { element: HTMLElement; anchor: HTMLElement | null } | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener(
    'focusin',
    (event) => {
      if (event.target instanceof HTMLElement) lastFocus = { element: event.target, anchor: anchorOf(event.target) };
    },
    true,
  );
}

function anchorOf(element: Element): HTMLElement | null {
  for (let node: Element | null = element; node; node = node.parentElement) {
    const anchor = popoverAnchors.get(node);
    if (anchor) return anchor;
  }
  return null;
}

/** Whether `element` is the innermost open modal. */
export function isInnermostModal(element: HTMLElement | null): boolean {
  return element !== null && stack[stack.length - 1] === element;
}

/** What is open over the page now (tests). */
export function openModalCount(): number {
  return stack.length;
}

function makeInert(except: Element): Element[] {
  const made: Element[] = [];
  for (const child of [...document.body.children]) {
    if (child === except || child.contains(except) || child.hasAttribute('data-live-region') || child.tagName === 'SCRIPT') continue;
    const count = inertBy.get(child) ?? 0;
    if (count === 0 && child.hasAttribute('inert')) continue;
    if (count === 0) child.setAttribute('inert', '');
    inertBy.set(child, count + 1);
    made.push(child);
  }
  return made;
}

function releaseInert(made: Element[]) {
  for (const child of made) {
    const count = (inertBy.get(child) ?? 1) - 1;
    if (count > 0) inertBy.set(child, count);
    else {
      inertBy.delete(child);
      child.removeAttribute('inert');
    }
  }
}

function canTakeFocus(element: HTMLElement | null | undefined): element is HTMLElement {
  return !!element && element.isConnected && element !== document.body && !element.closest('[inert]') && !(element as HTMLButtonElement).disabled;
}

/**
 * Makes `box` a modal while the component is mounted: `box` must be inside an element that is a
 * child of `document.body` (a portal's), or be one. `onEscape` runs on Escape when it is the
 * innermost modal; `initialFocus` picks what gets focus first (default: `[autofocus]`, else the
 * first control).
 */
export function useModal(
  box: RefObject<HTMLElement | null>,
  { onEscape, initialFocus }: { onEscape?(): void; initialFocus?(box: HTMLElement): HTMLElement | null | undefined } = {},
): void {
  // What had the focus when the modal was asked for: read while rendering, before a menu whose
  // item opened it is taken away.
  const [opener] = useState(() => {
    const active = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    if (active) return { element: active, fallback: anchorOf(active) };
    return lastFocus ? { element: lastFocus.element, fallback: lastFocus.anchor } : { element: null, fallback: null };
  });
  const escape = useRef(onEscape);
  escape.current = onEscape;
  const first = useRef(initialFocus);
  first.current = initialFocus;

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    let top: Element = element;
    while (top.parentElement && top.parentElement !== document.body) top = top.parentElement;
    stack.push(element);
    const made = makeInert(top);
    // A control that took the focus as it was drawn (`autoFocus`) keeps it.
    const target = element.contains(document.activeElement)
      ? null
      : (first.current?.(element) ?? element.querySelector<HTMLElement>('[autofocus]') ?? tabbables(element)[0]);
    if (target) target.focus();
    else if (!element.contains(document.activeElement)) {
      if (!element.hasAttribute('tabindex')) element.tabIndex = -1;
      element.focus();
    }

    const onKey = (event: KeyboardEvent) => {
      if (!isInnermostModal(element)) return;
      const active = document.activeElement as HTMLElement | null;
      const inside = active !== null && element.contains(active);
      // The focus in a popover opened from the modal (a later child of the body): its keys are its own.
      if (!inside && active && active !== document.body && !active.closest('[inert]')) return;
      if (event.key === 'Escape' && escape.current) {
        event.stopPropagation();
        escape.current();
        return;
      }
      if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      const stops = tabbables(element);
      const index = inside ? stops.indexOf(active) : -1;
      const last = stops.length - 1;
      // Inside, between two stops, the browser moves on by itself; at either end (or from
      // outside) the focus goes round to the other end.
      if (event.shiftKey ? index <= 0 : index === last || index === -1) {
        event.preventDefault();
        stops[event.shiftKey ? last : 0]?.focus();
      }
    };
    // Bubbling, on the document: a control inside that keeps Escape (a list it closes first) stops it on the way.
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      stack.splice(stack.indexOf(element), 1);
      const active = document.activeElement;
      const focusWasInside = active === null || active === document.body || element.contains(active);
      releaseInert(made);
      if (!focusWasInside) return;
      const back = [opener.element, opener.fallback].find(canTakeFocus);
      back?.focus();
    };
  }, [box, opener]);
}
