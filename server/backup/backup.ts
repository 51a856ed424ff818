import path from 'node:path';
import { loadConfigOrExit } from '../config';
import { count, filesLocation, humanBytes, runCli } from './cli';
import { BackupError } from './manifest';
import { defaultBackupName, takeBackup } from './takeBackup';

/**
 * `npm run backup [-- DIR]`: a backup of the data the server would use (DATABASE_URL, else
 * DATA_DIR's SQLite, and FILES_DIR) into DIR, a new directory (default `backups/backup-<time>`).
 * Safe while the server runs. docs/deploy.md «Backups».
 */
const USAGE = 'npm run backup [-- DIR]';
runCli('backup', USAGE, {}, async ({ positionals }) => {
  if (positionals.length > 1) throw new BackupError(`one backup directory at most: ${USAGE}`);
  const config = loadConfigOrExit();
  const target = path.resolve(positionals[0] ?? path.join('backups', defaultBackupName()));
  const started = Date.now();
  const manifest = await takeBackup(config, target);
  const { database, files } = manifest;
  console.log(
    `backup written to ${target} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${database.kind === 'postgres' ? `PostgreSQL ${database.serverVersion} (pg_dump ${database.dumpVersion})` : 'SQLite'} ` +
      `database ${humanBytes(database.bytes)} at migration ${database.migration ?? 'none'}, ${count(files.count, 'file')} (${humanBytes(files.bytes)})`,
  );
  if (files.missing.length > 0) {
    console.warn(
      `warning: ${count(files.missing.length, 'file')} that the database refers to ${files.missing.length === 1 ? 'was' : 'were'} not in ${filesLocation(config)} (deleted meanwhile, or lost before): ${files.missing.slice(0, 5).join(', ')}${files.missing.length > 5 ? ', …' : ''}`,
    );
  }
});
