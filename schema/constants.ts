/** Product constants shared by the server and the web app (spec: business constants and limits). */

/** The build label served at /version. */
export const VERSION_LABEL = 'v2510.17';

/** Block edits are sent at most once per this window, per block. */
export const BLOCK_UPDATE_DEBOUNCE_MS = 1000;
/** Page rename and cover change are debounced by this much. */
export const PAGE_RENAME_DEBOUNCE_MS = 500;
/** Slate history: entries kept and the window in which single text edits merge. */
export const UNDO_HISTORY_LIMIT = 100;
export const UNDO_MERGE_WINDOW_MS = 300;
/** A link's card (address, open, edit, remove) shows after the pointer or the caret rests on it this long. */
export const LINK_TOOLTIP_DEBOUNCE_MS = 300;

/** A block's version starts here and goes up by one with every accepted update. */
export const BLOCK_VERSION_START = 1;

/** Sign-in codes: length, lifetime, wrong tries allowed per code. */
export const LOGIN_CODE_LENGTH = 6;
export const LOGIN_CODE_TTL_MS = 10 * 60 * 1000;
export const LOGIN_CODE_MAX_ATTEMPTS = 5;

/** Sidebar sections: fixed root ids. */
export const SECTION_IDS = ['favorite', 'all', 'shared', 'private'] as const;
export type SectionId = (typeof SECTION_IDS)[number];

/** Page types on the wire. */
export const PAGE_TYPES = ['Note', 'Database', 'Iframe', 'Space', 'Widget', 'WidgetView'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

/** Page access levels, weakest first. */
export const ACCESS_LEVELS = ['none', 'read', 'edit', 'full'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** Workspace roles as they travel on the wire. */
export const WORKSPACE_ROLES = ['admin', 'participant', 'guest'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** Size limits that keep one request from swallowing the server. */
export const LIMITS = {
  titleLength: 1000,
  blockTextLength: 100_000,
  tokensPerBlock: 10_000,
  emailLength: 254,
} as const;

/** Retention goals (spec: returning after more than 1, 7 and 30 days since the account was made), by name → days. */
export const RETENTION_GOALS = { return_1d: 1, return_7d: 7, return_30d: 30 } as const;
export type RetentionGoal = keyof typeof RETENTION_GOALS;

/**
 * Blocks the top of a page is drawn from while the rest loads, by the app and by the server
 * (server/web/serverTop.ts): more than two screens of paragraphs (also in src/app/earlyStart.ts).
 */
export const PAGE_HEAD_BLOCKS = 100;
