import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { MIGRATIONS } from '../db/migrate';
import { SQLITE_FILE } from '../plugins/db';
import { createFileStore } from '../files';
import { DiskStore } from '../files/diskStore';
import { BackupError, copyHashed, FILES_DIR, readManifest, verifyBackup, type Manifest } from './manifest';
import { checkPgArchive, postgresTargetState, restorePostgres } from './postgres';
import { inspectSqliteCopy, sqliteTargetState } from './sqlite';

export interface RestoreResult {
  manifest: Manifest;
  /** Where the data that was there before now is (moved aside, never deleted): paths, or a PostgreSQL schema. */
  keptAside: string[];
}

/** A time for names of things moved aside: `20261126T150345Z`. */
function stampOf(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** The SQLite database and the files it leaves beside itself (WAL, shared memory, rollback journal). */
const SQLITE_SIDE_FILES = ['', '-wal', '-shm', '-journal'];

/**
 * Restores a backup (docs/deploy.md «Backups») into the data location of `config` (DATA_DIR's
 * SQLite and FILES_DIR, or DATABASE_URL's database and FILES_DIR), for a server that is
 * stopped; the server's next start runs the migrations newer than the backup as usual.
 *
 * Everything is checked before anything is touched: the manifest, every file's checksum, the
 * database copy itself, that the target is not in use and, without `force`, that it holds no
 * data. The data that was there is moved aside (answered in `keptAside`), never deleted.
 */
export async function restoreBackup(config: Config, backupDir: string, options: { force?: boolean; now?: Date } = {}): Promise<RestoreResult> {
  backupDir = path.resolve(backupDir);
  const manifest = await readManifest(backupDir);
  const kind = config.databaseUrl ? 'postgres' : 'sqlite';
  if (manifest.database.kind !== kind) {
    throw new BackupError(
      kind === 'postgres'
        ? 'this backup is of a SQLite database, and DATABASE_URL points at PostgreSQL: unset DATABASE_URL to restore it into DATA_DIR'
        : 'this backup is of a PostgreSQL database: set DATABASE_URL to the (empty) PostgreSQL database to restore it into',
    );
  }
  const migration = manifest.database.migration;
  if (migration !== null && !(migration in MIGRATIONS)) {
    throw new BackupError(
      `this backup was taken by a newer version of the app (${manifest.app.version}; its database has migration ${migration}, unknown here): restore it with that version or a later one`,
    );
  }
  await verifyBackup(backupDir, manifest);
  const backupDatabase = path.join(backupDir, manifest.database.file);
  const pgRestore = kind === 'postgres' ? await checkPgArchive(backupDatabase, Number((manifest.database.dumpVersion ?? '0').split('.')[0])) : undefined;
  if (kind === 'sqlite') inspectSqliteCopy(backupDatabase);

  // The target.
  const sqliteFile = path.join(config.dataDir, SQLITE_FILE);
  const target = config.databaseUrl ? await postgresTargetState(config.databaseUrl) : { kind: sqliteTargetState(sqliteFile) };
  const where = config.databaseUrl ? 'the database of DATABASE_URL' : sqliteFile;
  if (target.kind === 'in-use') {
    const sessions =
      'sessions' in target
        ? ` (${target.sessions.length} other sessions: ${target.sessions.slice(0, 5).join('; ')}${target.sessions.length > 5 ? '; …' : ''})`
        : '';
    throw new BackupError(`${where} is in use${sessions}: stop the server first (nothing was changed)`);
  }
  // In S3 (FILES_S3_*) the files are put into the bucket under their keys after the database;
  // on disk they take FILES_DIR's place, what was there kept aside.
  const s3 = config.s3 !== undefined;
  const filesPresent = !s3 && (await fs.promises.readdir(config.filesDir).catch(() => [])).length > 0;
  if (!options.force && (target.kind === 'has-content' || filesPresent)) {
    const what = target.kind === 'has-content' ? where : config.filesDir;
    throw new BackupError(
      `${what} already holds data: restore into an empty data location, or pass --force to replace it (what is there is moved aside, not deleted; nothing was changed)`,
    );
  }

  const stamp = stampOf(options.now ?? new Date());
  const suffix = crypto.randomBytes(4).toString('hex');
  const keptAside: string[] = [];
  const movedAside: Array<[from: string, to: string]> = [];
  const stagedFiles = `${config.filesDir}.restoring-${suffix}`;
  const stagedDatabase = `${sqliteFile}.restoring-${suffix}`;
  try {
    // The files, into a directory beside FILES_DIR, checked again as they are written.
    if (!s3) {
      await fs.promises.mkdir(stagedFiles, { recursive: true });
      const staged = new DiskStore(stagedFiles);
      for (const file of manifest.files.list) {
        const copied = await copyHashed(path.join(backupDir, FILES_DIR, ...file.key.split('/')), staged.path(file.key));
        if (copied?.sha256 !== file.sha256) throw new BackupError(`${FILES_DIR}/${file.key} changed while it was restored`);
      }
    }

    // The database, once more checked not in use (copying the files may have taken a while).
    const now = config.databaseUrl ? await postgresTargetState(config.databaseUrl) : { kind: sqliteTargetState(sqliteFile) };
    if (now.kind === 'in-use')
      throw new BackupError(`${where} came into use during the restore: stop the server and run the restore again (nothing was changed)`);
    if (config.databaseUrl && pgRestore) {
      const aside = await restorePostgres(config.databaseUrl, backupDatabase, pgRestore, { stamp, dropAside: target.kind !== 'has-content' });
      if (aside) keptAside.push(`schema ${aside} in the database of DATABASE_URL`);
    } else {
      await fs.promises.mkdir(config.dataDir, { recursive: true });
      const copied = await copyHashed(backupDatabase, stagedDatabase);
      if (copied?.sha256 !== manifest.database.sha256) throw new BackupError(`${manifest.database.file} changed while it was restored`);
      // An old WAL beside the new database would be applied to it: the side files go aside too.
      for (const side of SQLITE_SIDE_FILES) {
        const file = `${sqliteFile}${side}`;
        if (!fs.existsSync(file)) continue;
        await fs.promises.rename(file, `${file}.before-restore-${stamp}`);
        movedAside.push([file, `${file}.before-restore-${stamp}`]);
      }
      await fs.promises.rename(stagedDatabase, sqliteFile);
      if (movedAside.length > 0) keptAside.push(movedAside[0][1]);
    }
  } catch (error) {
    for (const [from, to] of movedAside) await fs.promises.rename(to, from).catch(() => {});
    await fs.promises.rm(stagedFiles, { recursive: true, force: true });
    await fs.promises.rm(stagedDatabase, { force: true });
    throw error;
  }

  if (s3) {
    // Into the bucket: keys are unique per upload, so a put never replaces another file's bytes.
    const store = await createFileStore(config);
    try {
      for (const file of manifest.files.list) await store.put(file.key, fs.createReadStream(path.join(backupDir, FILES_DIR, ...file.key.split('/'))));
    } finally {
      await store.close();
    }
    return { manifest, keptAside };
  }
  // The files take FILES_DIR's place.
  if (fs.existsSync(config.filesDir)) {
    if (filesPresent) {
      await fs.promises.rename(config.filesDir, `${config.filesDir}.before-restore-${stamp}`);
      keptAside.push(`${config.filesDir}.before-restore-${stamp}`);
    } else {
      await fs.promises.rmdir(config.filesDir);
    }
  }
  await fs.promises.rename(stagedFiles, config.filesDir);
  return { manifest, keptAside };
}
