import { loadConfigOrExit } from '../config';
import { count, filesLocation, humanBytes, runCli } from './cli';
import { BackupError } from './manifest';
import { restoreBackup } from './restoreBackup';

/**
 * `npm run restore -- DIR [--force]`: restores a backup into the data location the server would
 * use (DATABASE_URL, else DATA_DIR's SQLite, and FILES_DIR); the server must be stopped. Without
 * --force the location must hold no data. docs/deploy.md «Backups».
 */
const USAGE = 'npm run restore -- DIR [--force]';
runCli('restore', USAGE, { force: { type: 'boolean' } }, async ({ values, positionals }) => {
  if (positionals.length !== 1) throw new BackupError(`name the backup directory to restore: ${USAGE}`);
  const config = loadConfigOrExit();
  const { manifest, keptAside } = await restoreBackup(config, positionals[0], { force: values.force === true });
  const { database, files } = manifest;
  console.log(
    `restored the backup of ${manifest.startedAt} (app ${manifest.app.version}): ${database.kind} database at migration ${database.migration ?? 'none'}, ` +
      `${count(files.count, 'file')} (${humanBytes(files.bytes)}), into ${database.kind === 'postgres' ? 'the database of DATABASE_URL' : config.dataDir} and ${filesLocation(config)}. ` +
      'Start the server: it applies newer migrations as usual.',
  );
  if (keptAside.length > 0) console.log(`what was there before is kept aside (remove it once you are sure): ${keptAside.join(', ')}`);
});
