import { AI_MESSAGES, AiError } from './errors';

const KNOWN_FIELDS = new Set(['data', 'event', 'id', 'retry']);

/**
 * The `data` of each server-sent event of a byte stream (the WHATWG event-stream format), as
 * soon as its blank line arrives: chunks may split lines, CRLF pairs and UTF-8 characters
 * anywhere; lines end with LF, CRLF or CR; `:` lines are comments (keep-alives); several `data:`
 * lines of one event are joined with LF; `event`, `id` and `retry` are ignored. An event still
 * open when the stream ends is given too (servers that omit the last blank line).
 *
 * Stricter than a browser where an OpenAI stream cannot be meant: bytes that are not UTF-8, or a
 * line that is no field of the format (an HTML error page, a JSON body), fail with
 * 'failed to decode'.
 */
export async function* sseData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let buffer = '';
  let data: string[] | null = null;

  /** One line: a field of the event being read, or the blank line that ends it (then its data). */
  function line(text: string): string | null {
    if (text === '') {
      const done = data;
      data = null;
      return done ? done.join('\n') : null;
    }
    if (text.charCodeAt(0) === 58 /* : */) return null;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    if (!KNOWN_FIELDS.has(field)) throw new AiError(AI_MESSAGES.decode, `not an event-stream line (starts ${JSON.stringify(text.slice(0, 12))})`);
    if (field === 'data') {
      let value = colon < 0 ? '' : text.slice(colon + 1);
      if (value.charCodeAt(0) === 32) value = value.slice(1);
      (data ??= []).push(value);
    }
    return null;
  }

  /** The events completed by the lines in the buffer; keeps the unfinished last line. */
  function* lines(final: boolean): Generator<string> {
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      // A CR at the end of a chunk may be the first half of a CRLF.
      if (c === 13 && i === buffer.length - 1 && !final) break;
      const event = line(buffer.slice(start, i));
      if (c === 13 && buffer.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
      if (event !== null) yield event;
    }
    buffer = buffer.slice(start);
  }

  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw new AiError(AI_MESSAGES.decode, 'the stream is not UTF-8');
    }
  };

  for await (const chunk of body) {
    buffer += decode(chunk);
    yield* lines(false);
  }
  buffer += decode();
  yield* lines(true);
  if (buffer !== '') {
    const event = line(buffer);
    buffer = '';
    if (event !== null) yield event;
  }
  if (data !== null) yield (data as string[]).join('\n');
}
