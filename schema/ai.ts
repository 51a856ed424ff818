import { z } from 'zod';

/**
 * The AI writing assistant's wire (docs/ai.md): the three actions, the request body, the events
 * that stream the result over the realtime connection on `aiproxy:{websocket_id}`, and the
 * spec's table of server messages → reasons. Shared by the server, the web app and the tests.
 */
export const AI_ACTIONS = ['generate', 'continue', 'improve'] as const;
export type AiAction = (typeof AI_ACTIONS)[number];

/** Largest `text` and `context` a request may carry (characters); beyond: 413. */
export const AI_LIMITS = { text: 20_000, context: 20_000 } as const;

export const aiRequestBodySchema = z.strictObject({
  /** The id of an `aiproxy:{id}` channel the caller's connection has joined: the result goes there only. */
  websocket_id: z.string().uuid(),
  /** generate: the instruction; continue: the text to go on from; improve: the text to improve. */
  text: z.string().min(1),
  /** The surrounding blocks as plain text (bounded), for style and language. */
  context: z.string().default(''),
});
export type AiRequestBody = z.infer<typeof aiRequestBodySchema>;

/** The answer of POST /api/ai/{action} (202): the result comes over the realtime connection. */
export interface AiAccepted {
  requestId: string;
  websocket_id: string;
  type: AiAction;
}

/**
 * Events on `aiproxy:{websocket_id}` (socket.io event names from the realtime table):
 * `add` — a piece of the text as it is generated; `edit` — the whole text, last; `error` — it
 * failed (`message` is one of AI_ERROR_MESSAGES, or another provider message).
 */
export interface AiDelta {
  channel: string;
  requestId: string;
  type: AiAction;
  delta: string;
}
export interface AiResult {
  channel: string;
  requestId: string;
  type: AiAction;
  text: string;
}
export interface AiFailure {
  channel: string;
  requestId: string;
  type: AiAction;
  message: string;
  reason: AiErrorReason;
  /** rateLimitError from the model's provider: the seconds it asked to wait (its Retry-After), when it said. */
  retryAfter?: number;
}

/** What `GET /api/config` says of the assistant (`data.ai`). */
export interface AiInstallation {
  /** A model is configured: generate and continue work (without one, only improve, offline). */
  model: boolean;
  /** The server gives a call up after this long without a token (AI_TIMEOUT_MS): clients wait at least as long. */
  timeoutMs: number;
}

/** The reasons of the spec (AI block data and the error catalogue); fetchError is the client's own (the call itself failed). */
export const AI_ERROR_REASONS = ['emptyChangeError', 'timeoutError', 'rateLimitError', 'serverError', 'decodeError', 'unknownError', 'fetchError'] as const;
export type AiErrorReason = (typeof AI_ERROR_REASONS)[number];

/** Server messages the spec maps to a reason; any other message is unknownError. */
export const AI_ERROR_MESSAGES = {
  nothingToChange: 'nothing to change',
  timeout: 'timeout context',
  rateLimit: 'Rate limit exceeded',
  internal: 'Internal server error',
  decode: 'failed to decode',
} as const;

const REASON_BY_MESSAGE: Record<string, AiErrorReason> = {
  [AI_ERROR_MESSAGES.nothingToChange]: 'emptyChangeError',
  [AI_ERROR_MESSAGES.timeout]: 'timeoutError',
  [AI_ERROR_MESSAGES.rateLimit]: 'rateLimitError',
  [AI_ERROR_MESSAGES.internal]: 'serverError',
  [AI_ERROR_MESSAGES.decode]: 'decodeError',
};

/** The spec's table: a server message → its reason (Bad request, Insufficient account balance, … and anything else: unknownError). */
export function aiErrorReason(message: string): AiErrorReason {
  return REASON_BY_MESSAGE[message] ?? 'unknownError';
}
