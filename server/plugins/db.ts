import path from 'node:path';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { ChangeWatch } from '../db/changeWatch';
import { connectDatabase, type DatabaseKind } from '../db/connect';
import { migrateToLatest } from '../db/migrate';
import type { Database } from '../db/types';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbKind: DatabaseKind;
    /** Moves on writes that may change who is signed in or who may see what (see server/db/changeWatch.ts). */
    dbChanges: ChangeWatch;
  }
}

/** The SQLite database's file in DATA_DIR (without DATABASE_URL). */
export const SQLITE_FILE = 'workspace.sqlite';

/** Opens the database, applies migrations, and closes it with the app. */
export const dbPlugin = fp<{ config: Config }>(async (app, { config }) => {
  const { db, kind, changes } = connectDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, SQLITE_FILE),
    busyTimeoutMs: config.dbBusyTimeoutMs,
    onConnectionError: (error) => app.log.warn({ err: error }, 'a database connection was lost'),
  });
  await migrateToLatest(db);
  app.decorate('db', db);
  app.decorate('dbKind', kind);
  app.decorate('dbChanges', changes);
  app.addHook('onClose', async () => {
    await db.destroy();
  });
  app.log.info({ database: kind }, `database ready (${kind})`);
});
