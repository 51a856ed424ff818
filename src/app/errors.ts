import { ERROR_CODES, type ErrorCode } from '../../schema/errors';

const KNOWN_CODES = new Set<string>(Object.values(ERROR_CODES));

/** The server's code when it is one of the schema's (`ErrorCode`); any other is dropped (the call is then judged by its status). */
export function asErrorCode(code: unknown): ErrorCode | undefined {
  return typeof code === 'string' && KNOWN_CODES.has(code) ? (code as ErrorCode) : undefined;
}

/**
 * A refused or failed call as the UI keeps it: plain data (a thunk's rejectValue, an RTK Query
 * error), so it may sit in the store. No status: the call never reached the server.
 */
export interface ApiFailure {
  status?: number;
  /** The status's words (`ApiRequestError.statusText`). */
  statusText?: string;
  code?: ErrorCode;
  message: string;
  /** What the server sent along with the refusal (`data`, `details` of the envelope). */
  data?: unknown;
  details?: unknown;
}

/** Why a call failed, for its message: the server's code, else its status's, else no connection or anything else. */
export type FailureReason = ErrorCode | 'network' | 'generic';

/** The code a status stands for when the server sent none the client knows. */
const STATUS_CODES: Record<number, ErrorCode> = {
  400: ERROR_CODES.badRequest,
  401: ERROR_CODES.unauthorized,
  403: ERROR_CODES.forbidden,
  404: ERROR_CODES.notFound,
  413: ERROR_CODES.payloadTooLarge,
  415: ERROR_CODES.unsupportedMediaType,
  422: ERROR_CODES.validationFailed,
  429: ERROR_CODES.rateLimited,
  500: ERROR_CODES.internal,
};

function isFailure(error: unknown): error is { status?: unknown; code?: unknown } {
  return typeof error === 'object' && error !== null && 'status' in error;
}

/** The reason of any thrown or kept failure (an ApiRequestError, an ApiFailure; anything else is 'generic'). */
export function failureReason(error: unknown): FailureReason {
  if (!isFailure(error)) return 'generic';
  if (typeof error.status !== 'number') return 'network';
  return asErrorCode(error.code) ?? STATUS_CODES[error.status] ?? 'generic';
}

/**
 * One message (a translation key under `errors.codes`) for every code the server may send. A
 * feature words its own where the context says more (`FeatureMessages`); null: the code says
 * nothing a person can act on, so the feature's generic message is shown.
 */
export const ERROR_MESSAGES: Record<ErrorCode | 'network', string | null> = {
  network: 'errors.codes.network',
  bad_request: null,
  validation_failed: 'errors.codes.validationFailed',
  'goal.not_reached': 'errors.codes.goalNotReached',
  unsupported_media_type: 'errors.codes.unsupportedMediaType',
  payload_too_large: 'errors.codes.payloadTooLarge',
  unauthorized: 'errors.codes.unauthorized',
  forbidden: 'errors.codes.forbidden',
  not_found: 'errors.codes.notFound',
  rate_limited: 'errors.codes.rateLimited',
  internal_error: null,
  'storage.busy': 'errors.busy',
  'auth.invalid_pin': 'errors.codes.invalidPin',
  'auth.code_expired': 'errors.codes.codeExpired',
  'auth.too_many_attempts': 'errors.codes.tooManyAttempts',
  'block.version_conflict': null,
  'block.already_exists': null,
  'block.not_a_toggle': null,
  'block.synced_unknown': 'errors.codes.syncedUnknown',
  'block.synced_nested': 'errors.codes.syncedNested',
  'link.address_refused': 'errors.codes.linkAddressRefused',
  'link.unreachable': 'errors.codes.linkUnreachable',
  'page.already_exists': 'errors.codes.pageExists',
  'auth.invalid_email': 'errors.codes.invalidEmail',
  'auth.oauth_disabled': 'errors.codes.oauthFailed',
  // Answered to API callers with access tokens, not to the web app's session: the generic refusal.
  'auth.token_read_only': 'errors.codes.forbidden',
  'auth.token_not_allowed': 'errors.codes.forbidden',
  'auth.oauth_unknown_service': 'errors.codes.oauthFailed',
  'auth.oauth_state_invalid': 'errors.codes.oauthStateInvalid',
  'auth.oauth_failed': 'errors.codes.oauthFailed',
  'auth.oauth_email_unverified': 'errors.codes.oauthEmailUnverified',
  'auth.oauth_provider_unavailable': 'errors.codes.oauthProviderUnavailable',
  'user.unknown_setting': null,
  'messenger.disabled': 'errors.codes.messengerDisabled',
  'file.upload_token_invalid': 'errors.codes.uploadTokenInvalid',
  'file.already_exists': null,
  'file.not_an_image': 'errors.codes.notAnImage',
  'file.quota_exceeded': 'errors.codes.quotaExceeded',
  range_not_satisfiable: null,
  'feedback.send_failed': 'errors.codes.feedbackFailed',
  'page.in_trash': 'errors.codes.pageInTrash',
  'page.synced_content': 'errors.codes.syncedContent',
  'database.row_template': 'errors.codes.rowTemplate',
  'page.not_in_trash': 'errors.codes.pageNotInTrash',
  'page.parent_in_trash': 'errors.codes.pageParentInTrash',
  'page.move_cycle': 'errors.codes.pageMoveCycle',
  'workspace.last_admin': 'errors.codes.workspaceLastAdmin',
  cross_site_request: null,
  'sharing.outsider_needs_admin': 'errors.codes.sharingOutsiderNeedsAdmin',
  'sharing.protected_member': 'errors.codes.sharingProtectedMember',
  'ai.too_large': 'errors.codes.aiTooLarge',
  'ai.not_configured': 'errors.codes.aiNotConfigured',
  'ai.channel_not_joined': null,
  'database.cell_conflict': 'errors.codes.databaseCellConflict',
  'database.main_field': 'errors.codes.databaseMainField',
  'database.field_computed': 'errors.codes.databaseFieldComputed',
  'database.person_unknown': 'errors.codes.databasePersonUnknown',
  'database.relation_unknown': 'errors.codes.databaseRelationUnknown',
  'webhook.target_refused': 'errors.codes.webhookTargetRefused',
  'database.not_published': 'errors.codes.forbidden',
  'database.history_field_changed': 'errors.codes.databaseHistoryFieldChanged',
  'export.not_ready': 'errors.codes.exportNotReady',
  'import.too_big': 'errors.codes.importTooBig',
  'comment.reaction_limit': null,
};

/** The status's own code: the feature's wording for «forbidden» serves a 403 whose code it does not word itself. */
const statusCodeOf = (error: unknown): ErrorCode | undefined => (isFailure(error) && typeof error.status === 'number' ? STATUS_CODES[error.status] : undefined);

/**
 * A feature's own name for a failure (its wording's key, kept in its state): by the server's
 * code, else by the code its status stands for, else `otherwise` (and for anything that is not a
 * call's failure).
 */
export function failureIn<K extends string>(error: unknown, names: Partial<Record<FailureReason, K>>, otherwise: K): K {
  const reason = failureReason(error);
  if (reason === 'generic') return otherwise;
  const byStatus = statusCodeOf(error);
  return names[reason] ?? (byStatus && names[byStatus]) ?? otherwise;
}

/** A feature's own wording (translation keys) by reason; `generic` when nothing more fitting is known. */
export type FeatureMessages = Partial<Record<FailureReason, string>> & { generic: string };

/**
 * The translation key for a failure: the feature's wording of its code, else of its status, else
 * the one shared message of the code (`ERROR_MESSAGES`), else the feature's generic one.
 */
export function errorKey(error: unknown, messages: FeatureMessages): string {
  const reason = failureReason(error);
  if (reason === 'generic') return messages.generic;
  const byStatus = statusCodeOf(error);
  return messages[reason] ?? (byStatus && messages[byStatus]) ?? ERROR_MESSAGES[reason] ?? messages.generic;
}

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The Russian message for a failure (see `errorKey`); a 429 the feature does not word itself says how long to wait (`rateLimitMessage`). */
export function errorMessage(t: Translate, error: unknown, messages: FeatureMessages, options?: Record<string, unknown>): string {
  const key = errorKey(error, messages);
  if (key === ERROR_MESSAGES.rate_limited) return rateLimitMessage(t, error) ?? t(key, options);
  return t(key, options);
}

/**
 * The seconds a 429 asks to wait: `details.retryAfter`, which the server's per-user limits send
 * along with `Retry-After` (docs/security.md «Request limits»); undefined for anything else.
 */
export function retryAfterOf(error: unknown): number | undefined {
  if (failureReason(error) !== ERROR_CODES.rateLimited) return undefined;
  const details = (error as { details?: unknown }).details;
  const seconds = typeof details === 'object' && details !== null ? (details as { retryAfter?: unknown }).retryAfter : undefined;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
}

/**
 * The calm line for a refusal by a request limit (429): «Слишком много запросов. Попробуйте через
 * N с» (or N мин from a minute on), or without a time when the server gave none; null for any other
 * failure, so a feature shows its own message then: `rateLimitMessage(t, e) ?? <its own words>`.
 */
export function rateLimitMessage(t: Translate, error: unknown): string | null {
  if (failureReason(error) !== ERROR_CODES.rateLimited) return null;
  const seconds = retryAfterOf(error);
  if (seconds === undefined) return t('errors.codes.rateLimited');
  return seconds < 60 ? t('errors.codes.rateLimitedSeconds', { seconds }) : t('errors.codes.rateLimitedMinutes', { minutes: Math.ceil(seconds / 60) });
}
