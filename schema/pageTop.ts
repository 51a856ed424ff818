import type { WireBlock } from './block';
import type { WireElement } from './element';
import type { ApiResponse } from './envelope';

/**
 * A page's top as the server draws it into index.html (docs/web-app.md «The first screen from
 * the server»): what the drawing (src/ssr/pageTop.tsx, built into dist-ssr/) is given by the
 * server (server/web/serverTop.ts), and what it gives back.
 */

export interface PageTopInput {
  page: WireElement;
  /** The first blocks (the top, `?limit=100`: what the app reads first). */
  blocks: WireBlock[];
  /** The reader may edit: the header keeps the room of its «add an icon, a cover» row. */
  editable: boolean;
  /** The page tree as the reader left it (their settings), for the shell's frame. */
  tree: { open: boolean; width: number };
  /** A published page read by anyone: the public screen's frame (no shell). */
  published: boolean;
}

export interface PageTop {
  /** For index.html's `#server-top`. */
  html: string;
  /** The document's title, as the app sets it (not escaped). */
  title: string;
  /** It holds a formula drawn by KaTeX (whose style sheet it needs). */
  formulas: boolean;
  /** A database page: laid out by the data tables' style sheet. */
  database: boolean;
}

/**
 * Reads `GET path` of the API as the reader of the page would (their cookie; none for a published
 * page's visitor): the answer, or null when it is refused or fails. The drawing reads its first
 * database's first rows with it, at the address the app reads them at.
 */
export type ReadAnswer = (path: string) => Promise<ApiResponse<unknown> | null>;
