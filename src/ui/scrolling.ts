/**
 * The nearest ancestor of `element` that scrolls vertically (overflow-y auto, scroll or overlay),
 * or null when the document does (the window scrolls). The body and the root are the document's.
 * Reads computed styles up the tree: call it once per mount, not per frame.
 */
export function scrollingAncestor(element: Element | null): HTMLElement | null {
  for (let node = element?.parentElement ?? null; node && node !== document.body && node !== document.documentElement; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if (overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay') return node;
  }
  return null;
}
