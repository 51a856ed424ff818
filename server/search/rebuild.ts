import path from 'node:path';
import { loadConfigOrExit } from '../config';
import { connectDatabase } from '../db/connect';
import { migrateToLatest } from '../db/migrate';
import { SQLITE_FILE } from '../plugins/db';
import { indexAll, queueEverything } from './indexer';

/**
 * `npm run search:rebuild`: every page, block and text cell queued and indexed again (docs/search.md
 * «Rebuilding»), on the database the server would use (DATABASE_URL, else DATA_DIR's SQLite). Safe
 * while the server runs: its indexer and this one share the queue.
 */
async function main() {
  const config = loadConfigOrExit();
  const { db } = connectDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, SQLITE_FILE),
    busyTimeoutMs: config.dbBusyTimeoutMs,
  });
  try {
    await migrateToLatest(db);
    const started = Date.now();
    await queueEverything(db);
    const indexed = await indexAll(db);
    console.log(`search index rebuilt: ${indexed} titles, blocks and cells in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
