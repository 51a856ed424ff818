import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';

/** Bytes `start` to `end`, both included (as HTTP's Range counts them). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where uploaded files and export zips keep their bytes (docs/api/files.md, docs/deploy.md): a
 * directory on this machine (`FILES_DIR`, the default) or an S3-compatible bucket (`FILES_S3_*`),
 * which several server processes share. Keys are the rows' `storage_key`s (`4e/4e2…`,
 * `exports/….zip`). Every read and write of stored bytes goes through this.
 */
export interface FileStore {
  /** Where the bytes live, for the log: the directory, or `s3://bucket/prefix`. */
  readonly where: string;
  /**
   * Streams `body` in under `key` and answers how many bytes it held. What was under `key` stays
   * until the new bytes are complete; when the put fails (the body errors) nothing new is left.
   */
  put(key: string, body: Readable | Uint8Array, contentType?: string): Promise<number>;
  /** The bytes under `key` — only those of `range` when given (it must lie within them) — or null when there are none. */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  /** The size of what is under `key`, or null when there is nothing. */
  stat(key: string): Promise<{ size: number } | null>;
  /**
   * Removes what is under `key` and what a put of it left half-way (on disk, `.part` files of a
   * process that stopped mid-upload; in S3, the bucket's lifecycle rule takes unfinished multipart
   * uploads: docs/deploy.md). Nothing there is fine.
   */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The store of uploaded files' bytes (server/files/store.ts). */
    fileStore: FileStore;
  }
}

/**
 * A key's path segments: letters, digits, `.`, `_`, `-`, never `.` or `..`; a key read from the
 * database that is anything else (`../keep.txt`) is refused, so no key leads out of the store.
 */
export function keySegments(key: string): string[] {
  const segments = key.split('/');
  if (segments.some((s) => !/^[A-Za-z0-9._-]+$/.test(s) || s === '.' || s === '..')) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  return segments;
}

/** Removes deleted files' bytes; a failure is logged, never shown (their rows are gone already). */
export async function removeStoredFiles(store: FileStore, keys: readonly string[], log: FastifyBaseLogger): Promise<void> {
  for (const key of keys) {
    await store.delete(key).catch((error: unknown) => log.warn({ err: error, key }, 'could not remove a stored file'));
  }
}
