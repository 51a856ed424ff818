import type { AiAction } from '../../schema/ai';
import type { AiConfig } from '../config';
import { AI_MESSAGES, AiError, messageForStatus } from './errors';
import { buildMessages, TEMPERATURE } from './prompts';
import type { AiProvider } from './provider';
import { sseData } from './sse';

/** The parts of a chat-completions chunk (or a whole non-streamed answer) that are read. */
interface Choice {
  delta?: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown } | null;
  message?: { content?: unknown } | null;
  text?: unknown;
  finish_reason?: unknown;
}

/** At most this much of an error body is read (for the log). */
const ERROR_BODY_LIMIT = 4096;

/**
 * The provider for any OpenAI-compatible chat-completions API (Ollama, llama.cpp's server, vLLM,
 * LM Studio, hosted APIs): `POST ${baseUrl}/chat/completions` with `stream: true` and the prompts
 * of server/ai/prompts.ts, reading the server-sent events as they come. Yields each piece of
 * content; yields '' for a chunk that carries no text but shows the model is working (reasoning
 * tokens), so the caller's stall timer starts again. Failures are AiErrors with the spec's
 * messages: an HTTP error by its status (429, 5xx, 400, 401, 402, 404, other), an `error` object
 * inside the stream by its code (else 'Internal server error'), bad JSON or a non-event-stream body
 * 'failed to decode', an unreachable server 'failed to send request', a stream cut off before
 * `[DONE]` or a finish reason 'Unexpected API response'.
 */
export function createOpenAiProvider(config: AiConfig & { baseUrl: string }): AiProvider {
  const url = `${config.baseUrl}/chat/completions`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
  };

  return {
    name: 'openai',
    async *stream(action: AiAction, text: string, context: string, signal: AbortSignal) {
      const body = JSON.stringify({
        ...(config.model ? { model: config.model } : {}),
        messages: buildMessages(action, text, context),
        stream: true,
        temperature: TEMPERATURE[action],
        max_tokens: config.maxTokens,
      });
      let response: Response;
      try {
        response = await fetch(url, { method: 'POST', headers, body, signal });
      } catch (error) {
        if (signal.aborted) throw error;
        throw new AiError(AI_MESSAGES.sending, describe(error));
      }
      if (!response.ok) {
        const detail = await errorDetail(response).catch(() => '');
        const failure = new AiError(messageForStatus(response.status), `HTTP ${response.status}${detail ? `: ${detail}` : ''}`, response.status);
        if (response.status === 429) failure.retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
        throw failure;
      }
      if (!response.body) throw new AiError(AI_MESSAGES.unexpected, 'an answer without a body');

      // A server that ignores `stream: true` answers the whole completion as JSON.
      if ((response.headers.get('content-type') ?? '').includes('application/json')) {
        const whole = parseJson(await readText(response, signal));
        const content = choicesOf(whole)[0]?.message?.content;
        if (typeof content !== 'string') throw new AiError(AI_MESSAGES.decode, 'a JSON answer without choices[0].message.content');
        yield content;
        return;
      }

      let finished = false;
      try {
        for await (const data of sseData(chunksOf(response.body))) {
          if (data === '[DONE]') return;
          const chunk = parseJson(data);
          const choice = choicesOf(chunk)[0];
          if (!choice) continue; // e.g. a usage-only chunk
          const content = choice.delta?.content ?? choice.message?.content ?? choice.text;
          if (typeof content === 'string' && content !== '') yield content;
          else if (typeof choice.delta?.reasoning_content === 'string' || typeof choice.delta?.reasoning === 'string') yield '';
          if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') finished = true;
        }
      } catch (error) {
        if (error instanceof AiError || signal.aborted) throw error;
        throw new AiError(AI_MESSAGES.unexpected, `the stream broke: ${describe(error)}`);
      }
      if (!finished) throw new AiError(AI_MESSAGES.unexpected, 'the stream ended before [DONE]');
    },
  };
}

/** A Retry-After header (seconds, or an HTTP date) as whole seconds from now, at least 1 and at most an hour; undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : (Date.parse(value) - now) / 1000;
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(3600, Math.max(1, Math.ceil(seconds)));
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new AiError(AI_MESSAGES.decode, `an event that is not JSON (${data.length} characters)`);
  }
}

/** The choices of a chunk; an `error` object in the stream fails by its code. */
function choicesOf(value: unknown): Choice[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new AiError(AI_MESSAGES.decode, 'a chunk that is not an object');
  const record = value as { choices?: unknown; error?: unknown };
  if (record.error !== undefined && record.error !== null) {
    const error = record.error as { code?: unknown; status?: unknown; message?: unknown } | string;
    const status = typeof error === 'object' ? [error.code, error.status].map(Number).find((n) => Number.isInteger(n) && n >= 400 && n < 600) : undefined;
    const message = typeof error === 'string' ? error : String(error.message ?? '');
    throw new AiError(status ? messageForStatus(status) : AI_MESSAGES.internal, `an error in the stream: ${message.slice(0, 300)}`, status);
  }
  if (record.choices === undefined) return [];
  if (!Array.isArray(record.choices)) throw new AiError(AI_MESSAGES.decode, 'choices is not a list');
  return record.choices.filter((choice): choice is Choice => choice !== null && typeof choice === 'object');
}

/** The provider's own words about an HTTP error (OpenAI: `{ error: { message } }`), bounded, for the log. */
async function errorDetail(response: Response): Promise<string> {
  const text = await readText(response, undefined, ERROR_BODY_LIMIT);
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string') return message.slice(0, 300);
  } catch {
    // not JSON: the start of the body
  }
  return text.slice(0, 300).replace(/\s+/g, ' ');
}

/** A body as text, at most `limit` bytes (the rest is not read). */
async function readText(response: Response, signal?: AbortSignal, limit = 10 * 1024 * 1024): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunksOf(response.body)) {
    if (signal?.aborted) break;
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size >= limit) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The chunks of a body; stopping early cancels it (the connection is let go). */
export async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const message = error instanceof Error ? error.message : String(error);
  return cause ? `${message} (${String(cause.code ?? cause.message ?? '')})` : message;
}
