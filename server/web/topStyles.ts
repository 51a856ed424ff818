/**
 * The build's list of the style sheets a page's top drawn by the server needs (written by
 * server/web/earlyStart.ts into the web build's folder, read by server/web/serverTop.ts): the
 * page screen's (with the editor's) and the published page screen's, KaTeX's for a top with a
 * formula, and the data tables' for a database page (its layout is theirs). Those are loaded lazily, so index.html does not link them.
 */
export const SERVER_TOP_STYLES = 'server-top.json';

export interface ServerTopStyles {
  page: string[];
  published: string[];
  formulas: string[];
  database: string[];
}

/**
 * The build's list of the hashes of index.html's inline scripts (written by
 * server/web/earlyStart.ts, read by server/web/securityHeaders.ts): the CSP allows those scripts
 * and no other inline one.
 */
export const SCRIPT_HASHES = 'script-hashes.json';
