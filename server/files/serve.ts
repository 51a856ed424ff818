import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { ERROR_CODES } from '../../schema/errors';
import { AppError, notFound } from '../errors';
import type { ByteRange, FileStore } from './store';

/**
 * What a Range header asks of `size` bytes (RFC 9110 §14): one range (`bytes=a-b`, `bytes=a-`,
 * `bytes=-n`, the end cut to the last byte) → 'part'; one that starts past the end, or `bytes=-0`
 * → 'unsatisfiable'; no header, another unit, a malformed one, several ranges, or an empty file →
 * the whole (a server may ignore Range; several ranges would take a multipart answer).
 */
export function requestedRange(header: string | undefined, size: number): ByteRange | 'whole' | 'unsatisfiable' {
  const match = header === undefined ? null : /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/.exec(header);
  if (!match || (match[1] === '' && match[2] === '') || size === 0) return 'whole';
  const [first, last] = [match[1], match[2]].map((digits) => (digits === '' ? undefined : Number(digits)));
  if (first === undefined) {
    // The last n bytes (all of them when the file is shorter).
    if (last === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - last!), end: size - 1 };
  }
  if (last !== undefined && last < first) return 'whole';
  if (first >= size) return 'unsatisfiable';
  return { start: first, end: Math.min(last ?? size - 1, size - 1) };
}

/** Whether an If-None-Match header names the etag (or is `*`); weak tags compare by their value. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * The route options of every download of stored bytes: GET and HEAD, and never compressed — a
 * compressed 206 would hold other bytes than its Content-Range says, and Content-Length is the
 * stored size.
 */
export const STORED_BYTES_ROUTE = { method: ['GET', 'HEAD'] as HTTPMethods[], compress: false as const };

/** Stored bytes to answer with: the store's key, the size the database holds, a strong etag when there is one. */
export interface StoredBytes {
  key: string;
  size: number;
  etag?: string;
}

export type StoredAnswer = { status: 304 } | { status: 200 | 206; range: ByteRange | null; size: number; body: Readable | null };

/**
 * Works out the answer to a GET or HEAD of stored bytes before any header is written, so that a
 * failure leaves as the error envelope: 304 when If-None-Match names the etag; the range asked
 * (206) unless If-Range names another version; 416 (`Content-Range: bytes *\/size`,
 * `range_not_satisfiable`) for a range past the end; 404 when the bytes are missing from the
 * store. A GET's bytes are opened here (only the range's); a HEAD only checks that they exist.
 */
export async function openStored(request: FastifyRequest, reply: FastifyReply, store: FileStore, stored: StoredBytes): Promise<StoredAnswer> {
  if (stored.etag !== undefined && matchesEtag(request.headers['if-none-match'], stored.etag)) return { status: 304 };
  // If-Range: the range only of this very version (a date, or another tag, asks for the whole).
  const ifRange = request.headers['if-range'];
  const otherVersion = ifRange !== undefined && (typeof ifRange !== 'string' || stored.etag === undefined || ifRange.trim() !== stored.etag);
  const asked = otherVersion ? 'whole' : requestedRange(request.headers.range, stored.size);
  if (asked === 'unsatisfiable') {
    reply.header('content-range', `bytes */${stored.size}`);
    throw new AppError(416, ERROR_CODES.rangeNotSatisfiable, `the range asked for lies outside the file's ${stored.size} bytes`);
  }
  const range = asked === 'whole' ? null : asked;
  if (request.method === 'HEAD') {
    if (!(await store.stat(stored.key))) throw notFound('file');
    return { status: range ? 206 : 200, range, size: stored.size, body: null };
  }
  const body = await store.get(stored.key, range ?? undefined);
  if (!body) throw notFound('file');
  return { status: range ? 206 : 200, range, size: stored.size, body };
}

/** Sends what openStored worked out, once the caller has set its own headers (type, disposition, caching). */
export function sendStored(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  reply.header('accept-ranges', 'bytes');
  if (answer.status === 304) return reply.status(304).send();
  const { range, size } = answer;
  if (range) reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
  reply.header('content-length', range ? range.end - range.start + 1 : size);
  reply.status(answer.status);
  return answer.body ? reply.send(answer.body) : reply.send();
}
