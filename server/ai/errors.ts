import { AI_ERROR_MESSAGES, aiErrorReason, type AiErrorReason } from '../../schema/ai';

/**
 * The messages a failed AI request sends in its `error` event (docs/ai.md). The first five are
 * the spec's messages with their own reasons (schema/ai.ts); the rest are the spec's unknownError
 * messages (provider answers by HTTP status, and the request-building/sending failures).
 */
export const AI_MESSAGES = {
  ...AI_ERROR_MESSAGES,
  badRequest: 'Bad request',
  unauthorized: 'Invalid authentication credentials',
  insufficientBalance: 'Insufficient account balance',
  notFound: 'Requested resource not found',
  unexpected: 'Unexpected API response',
  /** The provider could not be reached (connection refused, DNS, TLS…). */
  sending: 'failed to send request',
  /** The model answered, but with no text at all. */
  empty: 'empty answer',
} as const;
export type AiMessage = (typeof AI_MESSAGES)[keyof typeof AI_MESSAGES];

/** A failure of an AI request, carrying the message the client gets; `detail` is for the log only. */
export class AiError extends Error {
  constructor(
    override readonly message: AiMessage,
    readonly detail?: string,
    /** The provider's HTTP status, when it answered one. */
    readonly status?: number,
  ) {
    super(message);
  }

  /** The provider's 429: the seconds it asked to wait, when it said (sent with the `error` event). */
  retryAfter?: number;

  get reason(): AiErrorReason {
    return aiErrorReason(this.message);
  }
}

/** The spec's message for a provider's HTTP error status. */
export function messageForStatus(status: number): AiMessage {
  if (status === 429) return AI_MESSAGES.rateLimit;
  if (status >= 500) return AI_MESSAGES.internal;
  if (status === 400) return AI_MESSAGES.badRequest;
  if (status === 401 || status === 403) return AI_MESSAGES.unauthorized;
  if (status === 402) return AI_MESSAGES.insufficientBalance;
  if (status === 404) return AI_MESSAGES.notFound;
  return AI_MESSAGES.unexpected;
}
