/**
 * Error reporting of the web app: the one place a problem the person is not shown goes to
 * (docs/web-app.md «Error reporting»). Everything «reported» in the spec's sense comes through
 * `reportError`: realtime error codes and unknown events, undo/redo actions not supported, a
 * failed page copy, an incoming item dropped by its schema, a screen that threw, an API call
 * that failed unexpectedly.
 *
 * Decision: reports go to the browser's console (one line: `kind: message`, then the details),
 * nowhere else. They do not reach the server: the server logs every request it refuses or fails
 * itself (pino), and a client log endpoint would need its own limits and storage for what is
 * mostly already there. No words for the person here: what they see stays each screen's own.
 */

/** What a report is about. */
export type ReportKind =
  /** A realtime error code (100–112) from the server, an error event, a refused join or acknowledgement. */
  | 'realtime'
  /** A realtime event the client does not know (a newer server, a wrong name). */
  | 'realtimeEvent'
  /** An undo or redo action type the app does not support (the browser's `history*` input types). */
  | 'history'
  /** A page copy (page/clone) that failed: the page, its new parent and workspace. */
  | 'clone'
  /** An incoming item (page, comment, notification, user) that does not match its schema: dropped. */
  | 'validation'
  /** A screen that threw (the error boundary). */
  | 'render'
  /** An API call that failed unexpectedly (`api()`). */
  | 'request'
  /** The AI assistant's calls. */
  | 'ai'
  /** A live list read again after a realtime event, failed. */
  | 'refetch'
  /** A user setting (server-kept) not read or not saved; the app goes on with what it has. */
  | 'settings'
  /** The service worker (offline start) not registered. */
  | 'serviceWorker';

/** `info`: expected (a 401, 403, 404 or 422 — not logged as an error); `warning`; `error`. */
export type ReportLevel = 'info' | 'warning' | 'error';

export interface ReportDetails {
  /** What happened, in one line (default: the error's message). */
  message?: string;
  /** The error behind it, if any; an expected API failure lowers the report to `info`. */
  error?: unknown;
  /** Default: the kind's (`KIND_LEVELS`). */
  level?: ReportLevel;
  [key: string]: unknown;
}

export interface ErrorReport {
  kind: ReportKind;
  level: ReportLevel;
  message: string;
  /** Everything else the call site gave (the page, the code, the channel…), the error among them. */
  details: Record<string, unknown>;
}

/**
 * The API statuses the app expects and handles where they come (spec §8): not logged as errors.
 * 409 is ours too: a version conflict is how two people's writes meet, merged by the sync queue.
 */
export const EXPECTED_STATUSES: ReadonlySet<number> = new Set([401, 403, 404, 409, 422]);

/** Whether a failure is an API refusal with an expected status. */
export function isExpectedFailure(error: unknown): boolean {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  return typeof status === 'number' && EXPECTED_STATUSES.has(status);
}

/** Realtime codes and dropped items are news, not breakage: warnings. */
const KIND_LEVELS: Record<ReportKind, ReportLevel> = {
  realtime: 'warning',
  realtimeEvent: 'error',
  history: 'error',
  clone: 'error',
  validation: 'warning',
  render: 'error',
  request: 'error',
  ai: 'warning',
  refetch: 'warning',
  settings: 'warning',
  serviceWorker: 'warning',
};

const CONSOLE: Record<ReportLevel, 'info' | 'warn' | 'error'> = { info: 'info', warning: 'warn', error: 'error' };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : error === undefined ? '' : String(error));

/** Reports a problem (see the module's comment); answers the report as it was written. */
export function reportError(kind: ReportKind, { message, error, level, ...rest }: ReportDetails = {}): ErrorReport {
  const report: ErrorReport = {
    kind,
    level: isExpectedFailure(error) ? 'info' : (level ?? KIND_LEVELS[kind]),
    message: message ?? (messageOf(error) || kind),
    details: error === undefined ? rest : { ...rest, error },
  };
  console[CONSOLE[report.level]](`${kind}: ${report.message}`, report.details);
  return report;
}
