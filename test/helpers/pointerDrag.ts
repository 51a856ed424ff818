import type { Locator, Page } from 'playwright-core';

/**
 * Presses the mouse at `from` and lets go over `to`, in steps, as a person drags (views that drag
 * with pointer events: a calendar's items, a timeline's bars): a small first move that starts the
 * drag, then the way there, a moment, and the release.
 */
export async function pointerDrag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  // A page behind another window of the context gets no frames: a drag waiting for one would stall.
  await page.bringToFront();
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 6, from.y + 6, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.waitForTimeout(100);
  await page.mouse.up();
}

/** The centre of an element on the page. */
export async function centreOf(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('the element is not on the page');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}
