/** Stable error codes: clients branch on these, never on messages. */
export const ERROR_CODES = {
  badRequest: 'bad_request',
  validationFailed: 'validation_failed',
  unsupportedMediaType: 'unsupported_media_type',
  payloadTooLarge: 'payload_too_large',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not_found',
  rateLimited: 'rate_limited',
  internal: 'internal_error',
  invalidPin: 'auth.invalid_pin',
  codeExpired: 'auth.code_expired',
  tooManyAttempts: 'auth.too_many_attempts',
  blockVersionConflict: 'block.version_conflict',
  blockExists: 'block.already_exists',
  pageExists: 'page.already_exists',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
