import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../../server/config';

/** s3rver's fixed credentials (it checks every request's signature against them). */
const KEY = 'S3RVER';

export interface S3Server {
  /** http://127.0.0.1:port */
  endpoint: string;
  bucket: string;
  /** The server's `s3` configuration for this bucket (createTestApp's overrides). */
  config: S3Config;
  /** The same as FILES_S3_* variables (startServerProcess). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver, in this process) on a free loopback port with one empty
 * bucket, its objects in a temporary directory removed on stop. Our S3 client speaks to it exactly
 * as to AWS S3 or MinIO (path-style addresses, SigV4 signatures).
 */
export async function startS3Server(bucket = 'test-files'): Promise<S3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    config: { bucket, region: 'us-east-1', endpoint, forcePathStyle: true, prefix: '', credentials: { accessKeyId: KEY, secretAccessKey: KEY } },
    env: { FILES_S3_BUCKET: bucket, FILES_S3_ENDPOINT: endpoint, FILES_S3_ACCESS_KEY_ID: KEY, FILES_S3_SECRET_ACCESS_KEY: KEY },
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
