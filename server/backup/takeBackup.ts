import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import packageJson from '../../package.json';
import type { Config } from '../config';
import { SQLITE_FILE } from '../plugins/db';
import { createFileStore } from '../files';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupError,
  copyHashed,
  DATABASE_FILES,
  FILES_DIR,
  hashFile,
  isSafeStorageKey,
  MANIFEST_FILE,
  type Manifest,
  type StoredFile,
} from './manifest';
import { dumpPostgres } from './postgres';
import { backupSqlite, inspectSqliteCopy } from './sqlite';

/** A backup's directory name by default: `backup-2026-11-26T15-03-45Z`. */
export function defaultBackupName(now = new Date()): string {
  return `backup-${now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-')}`;
}

/**
 * Takes a backup of a running (or stopped) server's data into `target`, a directory that must
 * not exist yet (docs/deploy.md «Backups»): the database first, as of one moment, then the files
 * that state refers to, then the manifest. It is written under a temporary name beside the
 * target and renamed at the end, so a directory with the target's name is always complete.
 */
export async function takeBackup(config: Config, target: string): Promise<Manifest> {
  target = path.resolve(target);
  if (fs.existsSync(target)) throw new BackupError(`${target} exists already: a backup goes into a new directory`);
  const parent = path.dirname(target);
  await fs.promises.mkdir(parent, { recursive: true });
  const staging = path.join(parent, `.${path.basename(target)}.partial-${crypto.randomBytes(4).toString('hex')}`);
  // It holds everything, sessions and tokens too: as private as DATA_DIR should be.
  await fs.promises.mkdir(staging, { mode: 0o700 });
  try {
    const manifest = await writeBackup(config, staging);
    await fs.promises.rename(staging, target);
    return manifest;
  } catch (error) {
    await fs.promises.rm(staging, { recursive: true, force: true });
    throw error;
  }
}

async function writeBackup(config: Config, dir: string): Promise<Manifest> {
  const startedAt = new Date().toISOString();
  const kind = config.databaseUrl ? 'postgres' : 'sqlite';
  const databaseFile = path.join(dir, DATABASE_FILES[kind]);
  let state: { migration: string | null; storageKeys: string[]; serverVersion?: string; dumpVersion?: string };
  if (config.databaseUrl) {
    state = await dumpPostgres(config.databaseUrl, databaseFile);
  } else {
    await backupSqlite(path.join(config.dataDir, SQLITE_FILE), databaseFile);
    state = inspectSqliteCopy(databaseFile);
  }
  const database = await hashFile(databaseFile);

  // The files the snapshot refers to: each was complete before its row said so (server/repositories/files.ts, storeUpload).
  // They are read from wherever the server keeps them: FILES_DIR or the S3 bucket (server/files).
  const list: StoredFile[] = [];
  const missing: string[] = [];
  const store = await createFileStore(config);
  try {
    for (const key of [...new Set(state.storageKeys)].sort()) {
      if (!isSafeStorageKey(key)) throw new BackupError(`the database refers to a file outside the file store (${JSON.stringify(key)})`);
      const copied = await copyHashed(() => store.get(key), path.join(dir, FILES_DIR, ...key.split('/')));
      if (copied) list.push({ key, ...copied });
      else missing.push(key);
    }
  } finally {
    await store.close();
  }

  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    app: { name: packageJson.name, version: packageJson.version },
    startedAt,
    finishedAt: new Date().toISOString(),
    database: {
      kind,
      file: DATABASE_FILES[kind],
      ...database,
      migration: state.migration,
      ...(state.serverVersion ? { serverVersion: state.serverVersion, dumpVersion: state.dumpVersion } : {}),
    },
    files: { count: list.length, bytes: list.reduce((sum, file) => sum + file.bytes, 0), list, missing },
  };
  await fs.promises.writeFile(path.join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { flush: true });
  return manifest;
}
