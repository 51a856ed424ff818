import type { ApiResponse } from '../../schema/envelope';
import { ERROR_CODES, type ErrorCode } from '../../schema/errors';
import { newId } from '../../schema/ids';
import { clearEarly, dropEarly, takeEarly } from './earlyStart';
import { asErrorCode, type ApiFailure } from './errors';
import { isExpectedFailure, reportError } from './report';

/** The standard words of a status, for an answer that came without its own (HTTP/2 sends none). */
const STATUS_TEXTS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The status's words: the answer's own, else the standard ones, else none ('' — no status: the call never reached the server). */
export const statusTextOf = (status: number | undefined, given = ''): string => given || (status === undefined ? '' : (STATUS_TEXTS[status] ?? ''));

/** An answer that was empty, or not the API's envelope (spec §8: with status 422 when the answer itself was a success). */
export const EMPTY_CONTENT_MESSAGE = 'Content from request not of ApiResponse type';
/** The user service's (`/api/user…`, `/api/auth…`) answer that is no JSON at all (spec §8, its wording kept as it is). */
export const USER_BODY_UNPARSABLE_MESSAGE = 'Body can`t be pasrsed';
/** Any other refusal of the user service (spec §8); the server's own words stay in `serverMessage`. */
export const USER_SERVICE_ERROR_MESSAGE = 'User service response with error';

/** The user service: who is signed in, sign-in and out, the profile and settings (spec §8's «user» calls). */
export const isUserServicePath = (path: string): boolean => /^\/api\/(user|auth)(\/|\?|$)/.test(path);

/**
 * A failed API call (spec §8: it carries the status code, the status text and the message): HTTP
 * status (none: the call never reached the server), its words (`statusText`: the answer's, else
 * the standard ones), the stable error code when it is one of the schema's (any other is
 * dropped), and any `data` the server sent with it. `serverMessage`: the server's own message
 * where `message` is the spec's fixed one (the user service).
 */
export class ApiRequestError extends Error {
  readonly code: ErrorCode | undefined;
  readonly statusText: string;
  constructor(
    readonly status: number | undefined,
    code: unknown,
    message: string,
    readonly data: unknown = null,
    readonly details: unknown = undefined,
    statusText = '',
    readonly serverMessage: string | undefined = undefined,
  ) {
    super(message);
    this.name = 'ApiRequestError';
    this.code = asErrorCode(code);
    this.statusText = statusTextOf(status, statusText);
  }
}

/** Any thrown error as plain data for the store (a thunk's rejectValue, an RTK Query error). */
export function toFailure(error: unknown): ApiFailure {
  return error instanceof ApiRequestError
    ? { status: error.status, statusText: error.statusText, code: error.code, message: error.message, data: error.data, details: error.details }
    : { message: error instanceof Error ? error.message : String(error) };
}

/**
 * 503 storage.busy: the server's database stayed locked by another process; the write was not
 * made and may be sent again in a few seconds (docs/api.md «Errors»).
 */
export function isServerBusy(error: unknown): boolean {
  return error instanceof ApiRequestError && error.code === ERROR_CODES.storageBusy;
}

/** Only these are retried, at most this many times (spec: network rules). */
const RETRY_STATUSES = new Set([500, 502]);
const MAX_RETRIES = 3;

let workspaceId: string | null = null;

/**
 * This open app's id (one per tab): sent as X-Client-Id with every call and used by its realtime
 * connection, so the echo of its own block writes is told apart (docs/realtime.md).
 */
export const CLIENT_ID = newId();

/** The workspace the app acts in; sent as X-Workspace-Id on every call. */
export function setActiveWorkspace(id: string | null) {
  workspaceId = id;
}

/** A page's address in the API (`element/:id`), the start of its parts' (children, members, versions, comments…). */
export const elementUrl = (id: string) => `/api/v3/spaces/element/${encodeURIComponent(id)}`;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain object is sent as JSON; FormData as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  /** Let the request outlive the page (a last save when the tab closes). */
  keepalive?: boolean;
  /** Act in this workspace rather than the active one (search in another workspace). */
  workspaceId?: string;
  /**
   * A write that can change no GET's answer but this one's (a user setting): only that prefetched
   * answer is dropped. Otherwise a write drops them all (`clearPrefetched`).
   */
  changesOnly?: string;
  /** Statuses this call answers as a matter of course (a 400 of auth/register: no such person): not reported, beside `EXPECTED_STATUSES`. */
  expected?: readonly number[];
  /** How many times a 500 or 502 is asked again (default MAX_RETRIES); 0 where the server answers a 502 of its own (a link preview: the page it read did not answer). */
  retries?: number;
  /**
   * The origin the write is told to others with (`X-Client-Id`; default this tab's, CLIENT_ID):
   * an editor of its own in the tab (a synced block's) writes as itself, so that another editor
   * of the same page here does not take its writes for its own echo.
   */
  clientId?: string;
}

/** A prefetched GET is taken by api() only this soon after it was asked for. */
const PREFETCH_FRESH_MS = 10_000;
const prefetched = new Map<string, { at: number; response: Promise<Response> }>();

/**
 * Asks for `GET path` now (at start, before the screens that need it are drawn); the first api()
 * call of the same path within 10 s takes this answer instead of asking again.
 */
export function prefetchGet(path: string): void {
  // Asked for by index.html's early script already (src/app/earlyStart.ts): that answer is this one.
  const response = takeEarly(path) ?? fetch(path, { headers: { 'X-App-Type': 'Web', 'X-Client-Id': CLIENT_ID }, credentials: 'same-origin' });
  response.catch(() => undefined);
  prefetched.set(path, { at: Date.now(), response });
}

/** An answer asked for ahead and read as it comes (`prefetchAnswer`): the promise, and the answer once it is in. */
export interface PrefetchedAnswer<T> {
  at: number;
  answer: Promise<ApiResponse<T>>;
  value?: ApiResponse<T>;
}
const answers = new Map<string, PrefetchedAnswer<unknown>>();

/**
 * Asks for `GET path` now and reads its answer as soon as it comes, for a screen that wants it
 * at its first drawing, in the same turn (`takeAnswer(path, true)`), or awaits it otherwise. Like a
 * prefetched GET: fresh for 10 s, dropped by any write and by signing out.
 */
export function prefetchAnswer(path: string): void {
  // One fresh is there already (asked, or given with the page: `giveAnswer`).
  const had = answers.get(path);
  if (had && Date.now() - had.at < PREFETCH_FRESH_MS) return;
  const entry: PrefetchedAnswer<unknown> = { at: Date.now(), answer: api<unknown>(path) };
  entry.answer.then(
    (value) => (entry.value = value),
    () => answers.get(path) === entry && answers.delete(path),
  );
  answers.set(path, entry);
}

/**
 * An answer given with the page, in: taken as `prefetchAnswer`'s would be. The server's drawing
 * of a page's top (src/ssr/pageTop.tsx) gives its database's first rows so, then drops them
 * (`clearPrefetched`).
 */
export function giveAnswer<T>(path: string, value: ApiResponse<T>): void {
  answers.set(path, { at: Date.now(), answer: Promise.resolve(value), value });
}

/**
 * The answer `prefetchAnswer` asked for (taken once), or null when none is fresh; `whenIn`: only
 * if it is in already; `peek`: left there (a render that may be thrown away reads it; its effect takes it).
 */
export function takeAnswer<T>(path: string, whenIn = false, peek = false): PrefetchedAnswer<T> | null {
  const entry = answers.get(path);
  if (!entry || (whenIn && !entry.value)) return null;
  if (!peek) answers.delete(path);
  return Date.now() - entry.at < PREFETCH_FRESH_MS ? (entry as PrefetchedAnswer<T>) : null;
}

/** Drops every prefetched answer (signing out, any write: it may change what they would say), or `path`'s alone. */
export function clearPrefetched(path?: string): void {
  if (path !== undefined) {
    prefetched.delete(path);
    answers.delete(path);
    dropEarly(path);
    return;
  }
  prefetched.clear();
  answers.clear();
  clearEarly();
}

/**
 * The prefetched answer of `path`, when it is fresh and a success (a failure, such as the 401 of
 * someone not signed in yet, is asked again: the answer may be different by now).
 */
async function takePrefetched(path: string, workspace: string | null): Promise<Response | null> {
  const entry = prefetched.get(path);
  prefetched.delete(path);
  const early = entry ? (Date.now() - entry.at < PREFETCH_FRESH_MS ? entry.response : null) : takeEarly(path, PREFETCH_FRESH_MS, workspace);
  if (!early) return null;
  const response = await early.catch(() => null);
  return response?.ok ? response : null;
}

/** Calls the API and unwraps the envelope; throws ApiRequestError for any failure. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { 'X-App-Type': 'Web', 'X-Client-Id': options.clientId ?? CLIENT_ID };
  const acting = options.workspaceId ?? workspaceId;
  if (acting) headers['X-Workspace-Id'] = acting;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    const get = (options.method ?? 'GET') === 'GET';
    // A write (signing in, say) may change what a prefetched answer would say.
    if (!get) clearPrefetched(options.changesOnly);
    // A prefetched answer is taken with or without a signal (an abort then only stops the wait).
    const early = attempt === 0 && get ? await takePrefetched(path, acting) : null;
    if (early && options.signal?.aborted) throw new ApiRequestError(undefined, undefined, 'aborted');
    try {
      response =
        early ??
        (await fetch(path, {
          method: options.method ?? 'GET',
          headers,
          body,
          credentials: 'same-origin',
          signal: options.signal,
          keepalive: options.keepalive,
        }));
    } catch (error) {
      throw new ApiRequestError(undefined, undefined, error instanceof Error ? error.message : 'network error');
    }
    if (RETRY_STATUSES.has(response.status) && attempt < (options.retries ?? MAX_RETRIES)) {
      await new Promise((resolve) => setTimeout(resolve, 300 * 2 ** attempt));
      continue;
    }
    const read = await readBody(response);
    const failure = answerFailure<T>(path, response, read);
    if (!(failure instanceof ApiRequestError)) return failure;
    // An answer that is not the envelope is no refusal the caller expects, whatever its status says.
    const malformed = read.kind !== 'json' || !isEnvelope(read.value);
    if (malformed || !(isExpectedFailure(failure) || options.expected?.includes(response.status))) reportFailure(options.method ?? 'GET', path, failure);
    throw failure;
  }
}

type Body = { kind: 'empty' } | { kind: 'unparsable' } | { kind: 'json'; value: unknown };

/** An answer's body: nothing, not JSON, or JSON. (An answer without `text()` — a test's — is read with `json()`.) */
async function readBody(response: Response): Promise<Body> {
  if (typeof response.text !== 'function') {
    return response.json().then(
      (value: unknown) => ({ kind: 'json', value }),
      () => ({ kind: 'unparsable' }),
    );
  }
  const text = await response.text().catch(() => null);
  if (text === null) return { kind: 'unparsable' };
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'unparsable' };
  }
}

const isEnvelope = (value: unknown): value is ApiResponse<unknown> => typeof value === 'object' && value !== null && 'data' in value;

/**
 * The envelope of a success, or the ApiRequestError of anything else (spec §8). An empty answer
 * or one that is not the envelope: «Content from request not of ApiResponse type», with status 422
 * when the answer itself was a success (else its own status, which says more: a proxy's 502).
 * The user service's answer that is no JSON: «Body can`t be pasrsed»; its refusals: «User service
 * response with error», the server's words in `serverMessage`.
 */
function answerFailure<T>(path: string, response: Response, body: Body): ApiResponse<T> | ApiRequestError {
  const userService = isUserServicePath(path);
  const status = response.ok ? 422 : response.status;
  const statusText = response.ok ? '' : response.statusText;
  if (body.kind !== 'json' || !isEnvelope(body.value)) {
    const message = body.kind === 'unparsable' && userService ? USER_BODY_UNPARSABLE_MESSAGE : EMPTY_CONTENT_MESSAGE;
    return new ApiRequestError(status, undefined, message, null, undefined, statusText);
  }
  const payload = body.value as ApiResponse<T>;
  if (response.ok) return payload;
  const first = payload.errors?.[0];
  const said = first?.message || statusTextOf(response.status, response.statusText);
  return new ApiRequestError(
    response.status,
    first?.code,
    userService ? USER_SERVICE_ERROR_MESSAGE : said,
    payload.data,
    first?.details,
    response.statusText,
    userService ? said : undefined,
  );
}

/**
 * A failure the caller is not expected to meet, reported (`request`): not the expected refusals
 * (401, 403, 404, 409, 422: `EXPECTED_STATUSES`, and those the call names), which the screens
 * handle and are not logged at all, nor a call that never reached the server (the offline note
 * says so). A 429 or 503 (wait and send again) is a warning.
 */
function reportFailure(method: string, path: string, error: ApiRequestError): void {
  if (error.status === undefined) return;
  const level = error.status === 429 || error.status === 503 ? 'warning' : 'error';
  reportError('request', {
    message: `${method} ${path}: ${error.status} ${error.statusText} — ${error.message}`,
    level,
    status: error.status,
    statusText: error.statusText,
    code: error.code,
    ...(error.serverMessage !== undefined ? { serverMessage: error.serverMessage } : {}),
  });
}
