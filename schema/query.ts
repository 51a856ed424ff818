import { z } from 'zod';

/**
 * Query parameters arrive JSON-encoded (`?filter="all"&isRead=false&ids=["a","b"]`, spec §7).
 * A value that parses as JSON is taken parsed; anything else is taken as the plain string, so
 * `?q=план` works too.
 */
export function decodeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** A query-string schema whose every field is JSON-decoded before it is checked. */
export function jsonQuery<T extends z.ZodRawShape>(shape: T): z.ZodObject<T> {
  const decoded = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, z.preprocess(decodeJson, field as z.ZodType)]));
  // Same output types as `shape`; only the input is decoded first.
  return z.object(decoded) as unknown as z.ZodObject<T>;
}

/** Lists are paged by a cursor `id::contentType` (the last item of the previous page). */
export const CURSOR_SEPARATOR = '::';
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** `cursor` and `limit`, for every paged list. */
export const pageQueryShape = {
  cursor: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
};

export function makeCursor(id: string, contentType: string): string {
  return `${id}${CURSOR_SEPARATOR}${contentType}`;
}
