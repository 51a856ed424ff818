import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { ERROR_CODES } from '../../schema/errors';
import { decodeJson } from '../../schema/query';
import { AppError } from '../errors';
import { textProblem } from '../../schema/text';

/**
 * The first string (a value or a key) in `value` that cannot be stored, as `{ path, message }`
 * with its dotted path from `where`; null when all text is fine. Iterative: a deeply nested body
 * cannot overflow the stack.
 */
export function findBadText(value: unknown, where: string): { path: string; message: string } | null {
  const stack: Array<[unknown, string]> = [[value, where]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) return { path, message: problem };
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push([item, `${path}.${i}`]));
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, item] of Object.entries(current)) {
        const keyProblem = textProblem(key);
        if (keyProblem) return { path, message: `a key ${keyProblem}` };
        stack.push([item, `${path}.${key}`]);
      }
    }
  }
  return null;
}

/** Throws 400 `bad_request` (details: `[{ path, message }]`) when `value` holds text that cannot be stored. */
export function assertStorableText(value: unknown, where: string): void {
  const bad = findBadText(value, where);
  if (bad) throw new AppError(400, ERROR_CODES.badRequest, `${bad.path} ${bad.message}`, [bad]);
}

/** A multipart part a route reads itself: a field's value (`body.<name>`) or a file's name (`body.<name>.filename`). */
export function assertStorablePart(part: Multipart): void {
  assertStorableText({ [part.fieldname]: part.type === 'field' ? part.value : { filename: part.filename } }, 'body');
}

/**
 * Query values as the routes read them: JSON-decoded when they parse (schema/query.ts), so
 * `"\u0000"` is seen too — only those holding an escape (`\u`), the only way decoding can make one.
 */
function decodedQuery(query: unknown): unknown {
  if (query === null || typeof query !== 'object') return undefined;
  const escaped = Object.entries(query).filter(([, value]) => (Array.isArray(value) ? value : [value]).some((v) => typeof v === 'string' && v.includes('\\u')));
  if (escaped.length === 0) return undefined;
  return Object.fromEntries(escaped.map(([key, value]) => [key, Array.isArray(value) ? value.map(decodeJson) : decodeJson(value)]));
}

function checkRequest(request: FastifyRequest): void {
  assertStorableText(request.params, 'params');
  assertStorableText(request.query, 'querystring');
  assertStorableText(decodedQuery(request.query), 'querystring');
  assertStorableText(request.body, 'body');
}

/** A check as a callback hook: no promise per request on the hot path. */
const hook = (check: (request: FastifyRequest) => void) => (request: FastifyRequest, _reply: unknown, done: (error?: Error) => void) => {
  try {
    check(request);
    done();
  } catch (error) {
    done(error as Error);
  }
};

/**
 * Every way text enters over HTTP is checked once, before any route reads it: path parameters,
 * query values (raw and JSON-decoded), JSON and form bodies before validation, and multipart
 * forms the multipart plugin attaches to the body (sign-in) before the handler. Routes that read
 * multipart parts themselves (files, import) call `assertStorableText` on each field and file name.
 */
export const textInputPlugin = fp(async (app) => {
  app.addHook('preValidation', hook(checkRequest));
  // A multipart body with attachFieldsToBody is filled by the route's own preValidation hook, after this one.
  app.addHook(
    'preHandler',
    hook((request) => {
      if (request.headers['content-type']?.startsWith('multipart/')) assertStorableText(request.body, 'body');
    }),
  );
});
