import type { Config } from '../config';
import { DiskStore } from './diskStore';
import type { FileStore } from './store';

/**
 * The store the configuration asks for: S3 when FILES_S3_BUCKET is set, else FILES_DIR
 * (server/files/store.ts). The AWS SDK (half a second and ~20 MB to load) is loaded only then.
 */
export async function createFileStore(config: Pick<Config, 'filesDir' | 's3'>): Promise<FileStore> {
  if (!config.s3) return new DiskStore(config.filesDir);
  const { S3Store } = await import('./s3Store');
  return new S3Store(config.s3);
}
