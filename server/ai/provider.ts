import type { AiAction } from '../../schema/ai';

/**
 * Where the text of an AI request comes from (docs/ai.md). `stream` yields the answer in pieces
 * as they are made; it ends when the answer is complete and throws an AiError (server/ai/errors.ts)
 * when it fails. `signal` aborts it (the caller's timeout, a newer request on the same channel,
 * the owner gone, the server closing): it then stops without yielding more.
 */
export interface AiProvider {
  /** For the log: 'openai' (any OpenAI-compatible API) or 'offline'. */
  readonly name: string;
  stream(action: AiAction, text: string, context: string, signal: AbortSignal): AsyncIterable<string>;
}
