import { createParser } from 'eventsource-parser';
import { AI_MESSAGES, AiError } from './errors';

/**
 * The `data` of each server-sent event of a byte stream, as soon as its blank line arrives. The
 * event-stream format is read by `eventsource-parser` (the WHATWG parsing rules: chunks may split
 * lines and CRLF pairs anywhere; lines end with LF, CRLF or CR; `:` lines are comments
 * (keep-alives); several `data:` lines of one event are joined with LF; `event`, `id` and `retry`
 * are ignored here). The bytes are decoded here, so a UTF-8 character cut between chunks is whole.
 * An event still open when the stream ends is given too (servers that omit the last blank line).
 *
 * Stricter than a browser where an OpenAI stream cannot be meant: bytes that are not UTF-8, or a
 * line that is no field of the format (an HTML error page, a JSON body), fail with
 * 'failed to decode'.
 */
export async function* sseData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const ready: string[] = [];
  let failure: AiError | null = null;
  const parser = createParser({
    onEvent: (event) => ready.push(event.data),
    onError: (error) => {
      // A `retry` that is no number is ignored, as browsers do; any other line is not an event stream.
      if (error.type === 'unknown-field')
        failure ??= new AiError(AI_MESSAGES.decode, `not an event-stream line (starts ${JSON.stringify((error.line ?? '').slice(0, 12))})`);
    },
  });

  /** Feeds text to the parser; then the events it completed, or the failure it met. */
  function* feed(text: string): Generator<string> {
    parser.feed(text);
    if (failure) throw failure;
    yield* ready.splice(0);
  }

  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw new AiError(AI_MESSAGES.decode, 'the stream is not UTF-8');
    }
  };

  for await (const chunk of body) yield* feed(decode(chunk));
  // The end of the stream ends the last line and the last event.
  yield* feed(`${decode()}\n\n`);
}
