import { ERROR_CODES, type ErrorCode } from '../schema/errors';
import type { z } from 'zod';

/** An error a client caused or may expect, with its HTTP status and stable code. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Sent as `data` beside the error, e.g. the server copy of a block on a conflict. */
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

export const unauthorized = () => new AppError(401, ERROR_CODES.unauthorized, 'sign in first');
export const forbidden = (what = 'this') => new AppError(403, ERROR_CODES.forbidden, `no access to ${what}`);
export const notFound = (what = 'resource') => new AppError(404, ERROR_CODES.notFound, `${what} not found`);
/** 422 validation_failed: the request is well formed but its content is refused (`details` say where, when known). */
export const invalid = (message: string, details?: unknown) => new AppError(422, ERROR_CODES.validationFailed, message, details);
/** 422 validation_failed about one field of the request (`path` names it: `body.dst`, `query.scope`). */
export const invalidField = (message: string, path: string) => invalid(message, [{ path, message }]);
export const rateLimited = (message = 'too many requests, try again later', details?: unknown) => new AppError(429, ERROR_CODES.rateLimited, message, details);

/**
 * 503 storage.busy: another process held the database's write lock (SQLite) for longer than
 * DB_BUSY_TIMEOUT_MS, so the write that waited for it was not made (a transaction is refused
 * whole). Sent with Retry-After (server/db/busy.ts).
 */
export class StorageBusyError extends AppError {
  constructor(readonly retryAfterSeconds = 1) {
    super(503, ERROR_CODES.storageBusy, 'the database is busy with another writer; try again shortly');
  }
}

/** True for a primary-key or unique violation in either dialect: a concurrent insert won the race. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Parses a request part with a zod schema; a mismatch answers 422 validation_failed with the issues. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw invalid('the request does not match the schema', issues);
  }
  return result.data;
}
