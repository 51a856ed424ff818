import { useLayoutEffect, useState } from 'react';
import type { EarlyKey } from './earlyStart';
import './serverTop.css';

/**
 * The page's top the server drew into index.html (`#server-top`; server/web/serverTop.ts,
 * docs/web-app.md «The first screen from the server») lies over the app until the app's page
 * screen shows the page: then, in the same frame, the app's page takes the scroll position and
 * the top is removed. The click and keys the person gave it meanwhile are index.html's early
 * script's (`recordEarlyInput`); the editor takes them (src/editor/earlyInput.ts).
 */

const SCROLLERS = '.shell-main, .public-page';

/** How long the takeover waits for the app's grid to have the rows the server's top shows. */
const GRID_WAIT_MS = 2_000;

/**
 * Whether the app's page can stand for the top yet: a database the top draws with its rows is in
 * the app's page with its rows too (its Table view's code loaded and its first rows in: not the
 * card standing in, not busy).
 */
function gridReady(top: HTMLElement): boolean {
  if (!top.querySelector('.database-block')) return true;
  const database = document.getElementById('root')?.querySelector('.database-block');
  return !!database && !database.querySelector('.database-card, [aria-busy="true"]');
}

/**
 * The server's top, gone: its scroll goes to the app's page under it. Once; nothing when there is
 * none. A database it draws is waited for (each frame, before it is painted) until the app's
 * holds its rows too — at most GRID_WAIT_MS — or the grid would blink empty; `now`: at once (the
 * address was left).
 */
export function takeOverServerTop(now = false, since = performance.now()): void {
  const top = document.getElementById('server-top');
  if (!top) return;
  if (!now && !gridReady(top) && performance.now() - since < GRID_WAIT_MS) {
    requestAnimationFrame(() => takeOverServerTop(false, since));
    return;
  }
  const from = top.querySelector(SCROLLERS);
  const to = document.getElementById('root')?.querySelector(SCROLLERS);
  if (from && to) to.scrollTop = from.scrollTop;
  top.remove();
}

/** Takes over from the server's top as soon as `shown` (the screen draws the page, or says why not), before the frame is painted. */
export function useServerTopTakeover(shown: boolean): void {
  useLayoutEffect(() => {
    if (shown) takeOverServerTop();
  }, [shown]);
}

/** The address the server drew a top for is left (a link, a redirect to sign in): the top goes, and with it what was recorded. */
export function useServerTopLeft(pathname: string): void {
  const [first] = useState(pathname);
  useLayoutEffect(() => {
    if (pathname === first) return;
    takeOverServerTop(true);
    stopEarlyInput();
  }, [pathname, first]);
}

/** The keys kept for the editor, taken once: recording stops (the editor has the keys from now on). */
export function takeEarlyKeys(): EarlyKey[] {
  const input = window.__earlyInput;
  if (!input) return [];
  input.stop();
  window.__earlyInput = undefined;
  return input.keys;
}

/** Nothing is recorded any more (the page is not the reader's to edit, or it was left). */
export function stopEarlyInput(): void {
  takeEarlyKeys();
}

/** The click kept from the server's top, taken once. */
export function takeEarlyClick(): { blockId: string; offset: number } | null {
  const input = window.__earlyInput;
  if (!input?.click) return null;
  const { click } = input;
  input.click = null;
  return click;
}
