import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply } from 'fastify';
import { ERROR_CODES, type ErrorCode } from '../../schema/errors';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isStorageBusy } from '../db/busy';
import { AppError, StorageBusyError } from '../errors';
import { errorEnvelope } from '../presenters';

/** Fastify's own client errors, mapped to our stable codes. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ERROR_CODES.unsupportedMediaType,
  FST_ERR_CTP_BODY_TOO_LARGE: ERROR_CODES.payloadTooLarge,
  FST_ERR_CTP_INVALID_JSON: ERROR_CODES.badRequest,
  FST_ERR_CTP_EMPTY_JSON_BODY: ERROR_CODES.badRequest,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ERROR_CODES.badRequest,
};

/** PostgreSQL's SQLSTATE for text it cannot store, e.g. "invalid byte sequence for encoding UTF8: 0x00". */
const PG_CHARACTER_NOT_IN_REPERTOIRE = '22021';

function codeForStatus(status: number): ErrorCode {
  if (status === 413) return ERROR_CODES.payloadTooLarge;
  if (status === 415) return ERROR_CODES.unsupportedMediaType;
  if (status === 429) return ERROR_CODES.rateLimited;
  if (status === 404) return ERROR_CODES.notFound;
  return ERROR_CODES.badRequest;
}

/** Every error leaves as the envelope with a stable code; never a stack trace, never a 500 for a client's mistake. */
export const errorsPlugin = fp(async (app) => {
  app.setErrorHandler((thrown: FastifyError | AppError, request, reply) => {
    // SQLite's own SQLITE_BUSY (a statement inside a transaction, which is never retried) is the
    // same refusal as the one after waiting: the transaction was rolled back whole.
    const error = isStorageBusy(thrown) && !(thrown instanceof AppError) ? new StorageBusyError() : thrown;
    if (error instanceof StorageBusyError) {
      request.log.warn('the database stayed locked by another writer: 503 storage.busy');
      reply.header('retry-after', String(error.retryAfterSeconds));
    }
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(errorEnvelope(error.code, error.message, error.details, error.data));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = (error as { validationContext?: string }).validationContext;
      const details = error.validation.map((issue) => ({
        path: [where, ...issue.instancePath.split('/').filter(Boolean)].filter(Boolean).join('.'),
        message: issue.message,
      }));
      return reply.status(422).send(errorEnvelope(ERROR_CODES.validationFailed, 'the request does not match the schema', details));
    }
    if ((error as { code?: unknown }).code === PG_CHARACTER_NOT_IN_REPERTOIRE) {
      // Text PostgreSQL cannot hold (a NUL character) in a path, header or body.
      return reply.status(400).send(errorEnvelope(ERROR_CODES.badRequest, 'the request holds a character that cannot be stored (NUL)'));
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send(errorEnvelope(ERROR_CODES.internal, 'something went wrong on the server'));
    }
    const code = FASTIFY_CODES[error.code] ?? codeForStatus(status);
    return reply.status(status).send(errorEnvelope(code, error.message));
  });
});

/**
 * For Fastify's `frameworkErrors`: what it answers before routing (a malformed or too long URL)
 * leaves as the same envelope too.
 */
export function sendFrameworkError(error: FastifyError, reply: FastifyReply): FastifyReply {
  return reply.status(error.statusCode ?? 400).send(errorEnvelope(ERROR_CODES.badRequest, error.message));
}
