import { pipeline, Readable, Transform } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { storableMimeType } from '../../schema/file';
import type { S3Config } from '../config';
import { keySegments, type ByteRange, type FileStore } from './store';

/** Parts of a multipart upload (S3's least), and how many are in flight at once: an upload holds about their product (plus the part being filled) in memory. */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/** Downloads stream from S3 for as long as the client reads: many sockets may be open at once. */
const MAX_SOCKETS = 256;

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/**
 * Files in an S3-compatible bucket (FILES_S3_*): a key is the object's key after FILES_S3_PREFIX.
 * A put streams through `Upload` (one PutObject for up to 5 MiB, else a multipart upload of 5 MiB
 * parts, two at a time), so an upload of any length is never held whole in memory; an object
 * appears only once complete. Checksums are computed only where S3 requires them, as most
 * S3-compatible services (MinIO, R2, Ceph) expect.
 */
export class S3Store implements FileStore {
  readonly where: string;
  private readonly client: S3Client;

  constructor(private readonly config: S3Config) {
    this.where = `s3://${config.bucket}/${config.prefix}`;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // An unreachable endpoint fails in seconds; a download may stream for as long as it takes.
      requestHandler: {
        connectionTimeout: 10_000,
        httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
        httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
      },
    });
  }

  private key(key: string): string {
    return `${this.config.prefix}${keySegments(key).join('/')}`;
  }

  async put(key: string, body: Readable | Uint8Array, type?: string): Promise<number> {
    const objectKey = this.key(key);
    // The object's Content-Type is a header of the request: only a checked type goes there.
    const contentType = type === undefined ? undefined : storableMimeType(type);
    if (body instanceof Uint8Array) {
      await new Upload({ client: this.client, params: { Bucket: this.config.bucket, Key: objectKey, Body: body, ContentType: contentType } }).done();
      return body.byteLength;
    }
    let size = 0;
    // The body's own failure is the one to tell (the multipart upload's abort may fail too).
    let failure: unknown;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const source = pipeline(body, counted, (error) => {
      if (error) failure ??= error;
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.config.bucket, Key: objectKey, Body: source, ContentType: contentType },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
    });
    try {
      await upload.done();
    } catch (error) {
      const cause = failure ?? error;
      // What the upload did not read is not waited for.
      source.destroy();
      throw cause;
    }
    return size;
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.config.bucket, Key: this.key(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.key(key) }));
      return { size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.key(key) }));
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
