import { Readable } from 'node:stream';
import type { ApiMeta } from '../schema/envelope';

/** Items written out per turn of the event loop: a few milliseconds of work. */
const ITEMS_PER_TURN = 500;

/**
 * The envelope `{ data: [...], included: [], meta, errors: [] }` as a stream of JSON text, written
 * a slice of items at a time with the event loop free in between: a list of megabytes is neither
 * built as one string nor serialized in one go while every other request waits. `itemJson` gives
 * one item's JSON text. The stream pauses when the client (or the compressor) is slower.
 */
export function streamedEnvelope<T>(items: readonly T[], itemJson: (item: T) => string, meta: ApiMeta): Readable {
  async function* chunks() {
    yield '{"data":[';
    for (let at = 0; at < items.length; at += ITEMS_PER_TURN) {
      const slice = items.slice(at, at + ITEMS_PER_TURN).map(itemJson).join(',');
      yield at === 0 ? slice : ',' + slice;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    yield `],"included":[],"meta":${JSON.stringify(meta)},"errors":[]}`;
  }
  return Readable.from(chunks(), { objectMode: false });
}
