import { Readable } from 'node:stream';
import type { ApiMeta } from '../schema/envelope';

/** Items written out per turn of the event loop: a few milliseconds of work. */
const ITEMS_PER_TURN = 500;

/** A list as JSON text, a slice of items at a time, the event loop free between two slices. */
async function* listJson<T>(items: readonly T[], itemJson: (item: T) => string, more: readonly unknown[] = []): AsyncGenerator<string> {
  yield '[';
  for (let at = 0; at < items.length; at += ITEMS_PER_TURN) {
    const slice = items
      .slice(at, at + ITEMS_PER_TURN)
      .map(itemJson)
      .join(',');
    yield at === 0 ? slice : ',' + slice;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (more.length > 0) yield (items.length > 0 ? ',' : '') + more.map((item) => JSON.stringify(item)).join(',');
  yield ']';
}

/**
 * The envelope `{ data: [...], included: [], meta, errors: [] }` as a stream of JSON text, written
 * a slice of items at a time with the event loop free in between: a list of megabytes is neither
 * built as one string nor serialized in one go while every other request waits. `itemJson` gives
 * one item's JSON text. The stream pauses when the client (or the compressor) is slower.
 */
export function streamedEnvelope<T>(items: readonly T[], itemJson: (item: T) => string, meta: ApiMeta): Readable {
  async function* chunks() {
    yield '{"data":';
    yield* listJson(items, itemJson);
    yield `,"included":[],"meta":${JSON.stringify(meta)},"errors":[]}`;
  }
  return Readable.from(chunks(), { objectMode: false });
}

/**
 * The envelope `{ data, included: [...items, ...more], meta, errors: [] }` as a stream, the
 * included items written out as streamedEnvelope writes its list (a public page and its blocks).
 */
export function streamedIncluded<T>(data: unknown, items: readonly T[], itemJson: (item: T) => string, more: readonly unknown[], meta: ApiMeta = {}): Readable {
  async function* chunks() {
    yield `{"data":${JSON.stringify(data)},"included":`;
    yield* listJson(items, itemJson, more);
    yield `,"meta":${JSON.stringify(meta)},"errors":[]}`;
  }
  return Readable.from(chunks(), { objectMode: false });
}
