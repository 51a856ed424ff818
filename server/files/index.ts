import type { Config } from '../config';
import { DiskStore } from './diskStore';
import { S3Store } from './s3Store';
import type { FileStore } from './store';

/** The store the configuration asks for: S3 when FILES_S3_BUCKET is set, else FILES_DIR (server/files/store.ts). */
export function createFileStore(config: Pick<Config, 'filesDir' | 's3'>): FileStore {
  return config.s3 ? new S3Store(config.s3) : new DiskStore(config.filesDir);
}
