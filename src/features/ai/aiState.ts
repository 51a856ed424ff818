import type { AiErrorReason } from '../../../schema/ai';

/**
 * The assistant's states (spec: AI — rest, pending(sending), pending(receiving), then result or
 * error). Editor-only: kept by the panel, never in the document, on the wire or in the undo history.
 */
export type AiPhase =
  /** Waiting for the user (generate: the prompt). */
  | { status: 'rest' }
  /** sending: the call is on its way; receiving: the text streams in. */
  | { status: 'pending'; reason: 'sending' | 'receiving'; text: string }
  | { status: 'result'; text: string }
  | { status: 'error'; reason: AiErrorReason; message: string; hint?: AiErrorHint; retryAfter?: number };

/** Failures the panel finds before calling (shown in place of the reason's text). */
export type AiErrorHint = 'nothingToContinue' | 'tooLong' | 'emptyResult' | 'notConfigured';

export type AiPhaseEvent =
  | { type: 'send' }
  | { type: 'delta'; text: string }
  | { type: 'result'; text: string }
  | { type: 'fail'; reason: AiErrorReason; message: string; hint?: AiErrorHint; retryAfter?: number }
  | { type: 'reset' };

/** The next state. Events that do not belong to the current state (a late piece after an error) change nothing. */
export function nextPhase(phase: AiPhase, event: AiPhaseEvent): AiPhase {
  switch (event.type) {
    case 'send':
      return { status: 'pending', reason: 'sending', text: '' };
    case 'delta':
      if (phase.status !== 'pending') return phase;
      return { status: 'pending', reason: 'receiving', text: event.text };
    case 'result': {
      if (phase.status !== 'pending') return phase;
      const text = event.text.trim() === '' ? phase.text : event.text;
      if (text.trim() === '') return { status: 'error', reason: 'unknownError', message: 'empty result', hint: 'emptyResult' };
      return { status: 'result', text };
    }
    case 'fail':
      if (phase.status === 'result') return phase;
      return {
        status: 'error',
        reason: event.reason,
        message: event.message,
        ...(event.hint ? { hint: event.hint } : {}),
        ...(event.retryAfter !== undefined ? { retryAfter: event.retryAfter } : {}),
      };
    case 'reset':
      return { status: 'rest' };
  }
}
