import type { ApiResponse } from '../../schema/envelope';
import { newId } from '../../schema/ids';

/** A failed API call: HTTP status, the stable error code, and any `data` the server sent with it. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly code: string | undefined,
    message: string,
    readonly data: unknown = null,
    readonly details: unknown = undefined,
  ) {
    super(message);
  }
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

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** A plain object is sent as JSON; FormData as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  /** Let the request outlive the page (a last save when the tab closes). */
  keepalive?: boolean;
}

/** Calls the API and unwraps the envelope; throws ApiRequestError for any failure. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { 'X-App-Type': 'Web', 'X-Client-Id': CLIENT_ID };
  if (workspaceId) headers['X-Workspace-Id'] = workspaceId;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    try {
      response = await fetch(path, { method: options.method ?? 'GET', headers, body, credentials: 'same-origin', signal: options.signal, keepalive: options.keepalive });
    } catch (error) {
      throw new ApiRequestError(undefined, undefined, error instanceof Error ? error.message : 'network error');
    }
    if (RETRY_STATUSES.has(response.status) && attempt < MAX_RETRIES) {
      await new Promise((resolve) => setTimeout(resolve, 300 * 2 ** attempt));
      continue;
    }
    const payload = (await response.json().catch(() => null)) as ApiResponse<T> | null;
    if (!payload || typeof payload !== 'object' || !('data' in payload)) {
      throw new ApiRequestError(response.ok ? 422 : response.status, undefined, 'Content from request not of ApiResponse type');
    }
    if (!response.ok) {
      const first = payload.errors?.[0];
      throw new ApiRequestError(response.status, first?.code, first?.message ?? response.statusText, payload.data, first?.details);
    }
    return payload;
  }
}
