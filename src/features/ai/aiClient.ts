import { AI_LIMITS, AI_ERROR_REASONS, aiErrorReason, type AiAction, type AiErrorReason } from '../../../schema/ai';
import { newId } from '../../../schema/ids';
import { REALTIME_EVENTS, channels } from '../../../schema/realtime';
import { ApiRequestError, api } from '../../app/api';
import { aiInstallationNow } from '../../app/appConfig';
import type { RealtimeConnection } from '../../app/realtimeConnection';
import type { AiErrorHint } from './aiState';
import { reportError } from '../../app/report';

/** Why a call failed, as the panel explains it. */
export interface AiCallFailure {
  reason: AiErrorReason;
  /** The server's message (or the client's own, for fetchError). */
  message: string;
  /** Seconds to wait after a 429 (ours: its Retry-After; the model provider's: the event's `retryAfter`), when said. */
  retryAfter?: number;
  /** A failure the panel explains in its own words (no model configured, too much text). */
  hint?: AiErrorHint;
}

export interface AiCallHandlers {
  /** The server took the call (202): the text comes next. */
  onAccepted?(): void;
  /** A piece of the text; `text` is everything so far. */
  onDelta(delta: string, text: string): void;
  /** The whole text, last. */
  onResult(text: string): void;
  onError(failure: AiCallFailure): void;
}

export interface AiCallOptions {
  /** The channel must be joined within this time (ms), else fetchError. */
  joinTimeoutMs?: number;
  /**
   * The server's own timeout (ms; GET /api/config `ai.timeoutMs`, AI_TIMEOUT_MS): the server says
   * 'timeout context' after this long without a token. Default: what /api/config said (60 s until then).
   */
  serverTimeoutMs?: number;
  /** Nothing heard for this long (ms) after the join: timeoutError. Default: the server's timeout + SILENCE_MARGIN_MS, so the server's own answer comes first. */
  silenceTimeoutMs?: number;
  /** The connection down this long (ms) during the call: fetchError (the server drops a job whose channel stays empty 10 s). */
  offlineTimeoutMs?: number;
  /** The HTTP call (replaceable in tests; the app's `api` otherwise). */
  post?(path: string, body: unknown): Promise<unknown>;
}

/** What a call needs of the realtime connection. */
export type AiConnection = Pick<RealtimeConnection, 'subscribe'> & Partial<Pick<RealtimeConnection, 'onStatus'>>;

const DEFAULTS = { joinTimeoutMs: 10_000, offlineTimeoutMs: 12_000 };

/**
 * How much longer than the server the client waits for a sign of life: the server's timeout
 * runs from its call to the model, after the POST got through; a slow model (a CPU one under
 * Ollama) with a long AI_TIMEOUT_MS is never cut short by the client.
 */
export const SILENCE_MARGIN_MS = 30_000;

/** Seconds to wait, when a 429 said (a positive number: whole seconds, rounded up). */
function secondsOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 ? Math.ceil(n) : undefined;
}

/** The reason a failed POST gives (spec: 429 is rateLimitError; other failures fetchError or unknownError). */
export function failureOfRequest(error: unknown): AiCallFailure {
  if (!(error instanceof ApiRequestError)) return { reason: 'fetchError', message: error instanceof Error ? error.message : String(error) };
  if (error.status === 429) {
    // The wait: from the details when given, else from the server's message ("… try again in 42 s").
    const details = error.details as { retryAfter?: unknown } | undefined;
    const said = /(\d+)\s*s\b/.exec(error.message);
    const retryAfter = secondsOf(details?.retryAfter) ?? (said ? secondsOf(Number(said[1])) : undefined);
    return { reason: 'rateLimitError', message: error.message, ...(retryAfter !== undefined ? { retryAfter } : {}) };
  }
  // The server has no model for generate and continue (docs/ai.md): say so rather than "failed".
  if (error.code === 'ai.not_configured') return { reason: 'unknownError', message: error.message, hint: 'notConfigured' };
  // The channel was not joined (the connection dropped meanwhile): the call did not get through.
  if (error.code === 'ai.channel_not_joined') return { reason: 'fetchError', message: error.message };
  if (error.status === 413) return { reason: 'unknownError', message: error.message, hint: 'tooLong' };
  // No answer at all, or the server failed: the call did not get through.
  if (error.status === undefined || error.status >= 500) return { reason: 'fetchError', message: error.message };
  const mapped = aiErrorReason(error.message);
  return { reason: mapped, message: error.message };
}

/** The reason an `error` event carries (or the spec's mapping of its message), and the model provider's wait (rateLimitError). */
function failureOfEvent(payload: Record<string, unknown>): AiCallFailure {
  const message = typeof payload.message === 'string' ? payload.message : '';
  const reason =
    typeof payload.reason === 'string' && (AI_ERROR_REASONS as readonly string[]).includes(payload.reason)
      ? (payload.reason as AiErrorReason)
      : aiErrorReason(message);
  const retryAfter = reason === 'rateLimitError' ? secondsOf(payload.retryAfter) : undefined;
  return { reason, message, ...(retryAfter !== undefined ? { retryAfter } : {}) };
}

/**
 * One call of the AI assistant (docs/ai.md): joins a fresh `aiproxy:{id}` channel on the
 * realtime connection, and once joined posts `/api/ai/{action}` with that id; the text then
 * streams in as `add` pieces, and `edit` brings the whole text (or `error` says why not).
 * Exactly one of onResult and onError is called, unless the call is cancelled first. Returns
 * the cancel function (leaves the channel; later events are ignored).
 */
export function startAiCall(
  connection: AiConnection | null,
  action: AiAction,
  input: { text: string; context: string },
  handlers: AiCallHandlers,
  options: AiCallOptions = {},
): () => void {
  const { joinTimeoutMs, offlineTimeoutMs } = { ...DEFAULTS, ...options };
  const silenceTimeoutMs = options.silenceTimeoutMs ?? (options.serverTimeoutMs ?? aiInstallationNow().timeoutMs) + SILENCE_MARGIN_MS;
  const post = options.post ?? ((path: string, body: unknown) => api(path, { method: 'POST', body }));
  let done = false;
  let posted = false;
  let text = '';
  const timers: { join?: ReturnType<typeof setTimeout>; silence?: ReturnType<typeof setTimeout>; offline?: ReturnType<typeof setTimeout> } = {};
  let stopWatchingStatus = () => {};
  let unsubscribe = () => {};

  const finish = () => {
    done = true;
    clearTimeout(timers.join);
    clearTimeout(timers.silence);
    clearTimeout(timers.offline);
    stopWatchingStatus();
    // Left after the current event is handled (the connection is iterating its handlers).
    const leave = unsubscribe;
    queueMicrotask(leave);
  };
  const fail = (failure: AiCallFailure) => {
    if (done) return;
    finish();
    // Spec: a 429 (ours or the model provider's) is logged as a warning.
    if (failure.reason === 'rateLimitError')
      reportError('ai', {
        message: `rateLimitError (${failure.message})${failure.retryAfter !== undefined ? `, retry after ${failure.retryAfter} s` : ''}`,
        reason: failure.reason,
        retryAfter: failure.retryAfter,
      });
    handlers.onError(failure);
  };
  const heard = () => {
    clearTimeout(timers.silence);
    timers.silence = setTimeout(() => fail({ reason: 'timeoutError', message: 'no answer from the server' }), silenceTimeoutMs);
  };

  if (!connection) {
    queueMicrotask(() => fail({ reason: 'fetchError', message: 'no realtime connection' }));
    return () => {
      done = true;
    };
  }

  const id = newId();
  // A connection that stays down loses the call (the pieces sent meanwhile are gone, and the server gives the job up).
  stopWatchingStatus =
    connection.onStatus?.((status) => {
      if (done) return;
      if (status === 'online') {
        clearTimeout(timers.offline);
        timers.offline = undefined;
      } else if (status === 'offline' && timers.offline === undefined) {
        // From the first sign of it (still trying to reconnect meanwhile does not restart the wait).
        timers.offline = setTimeout(() => fail({ reason: 'fetchError', message: 'the realtime connection was lost' }), offlineTimeoutMs);
      }
    }) ?? stopWatchingStatus;
  timers.join = setTimeout(() => {
    if (!posted) fail({ reason: 'fetchError', message: 'the realtime channel was not joined' });
  }, joinTimeoutMs);

  unsubscribe = connection.subscribe(channels.aiproxy(id), {
    onJoined() {
      // Joined again after a reconnect: the call is out already.
      if (posted || done) return;
      posted = true;
      clearTimeout(timers.join);
      heard();
      const body = { websocket_id: id, text: input.text.slice(0, AI_LIMITS.text), context: input.context.slice(0, AI_LIMITS.context) };
      post(`/api/ai/${action}`, body).then(
        () => {
          if (!done) handlers.onAccepted?.();
        },
        (error: unknown) => fail(failureOfRequest(error)),
      );
    },
    onEvent(event, payload) {
      if (done) return;
      heard();
      if (event === REALTIME_EVENTS.add && typeof payload.delta === 'string') {
        text += payload.delta;
        handlers.onDelta(payload.delta, text);
      } else if (event === REALTIME_EVENTS.edit && typeof payload.text === 'string') {
        finish();
        handlers.onResult(payload.text);
      } else if (event === REALTIME_EVENTS.error) {
        fail(failureOfEvent(payload));
      }
    },
    onError(error) {
      // (The assistant's own failure, with a reason and no realtime code, arrives as an `error`
      // event above.) A realtime error here: the join was refused or the channel taken away, so
      // the call cannot be heard.
      fail({ reason: 'fetchError', message: `realtime error ${error.code}: ${error.message}` });
    },
  });

  return () => {
    if (done) return;
    finish();
  };
}
