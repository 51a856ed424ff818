import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const EMBEDDED_PG_KEY = '__embeddedPostgres__';

/**
 * Stops the embedded PostgreSQL of postgresGlobalSetup.mjs and removes its directory; on a server
 * of DATABASE_URL, drops this run's template database and the test databases kept to use again instead.
 */
export default async function postgresGlobalTeardown() {
  const server = globalThis[EMBEDDED_PG_KEY];
  const template = process.env.TEST_PG_TEMPLATE;
  // What the emptied databases are filled back with (test/helpers/postgresPool.ts).
  if (template) fs.rmSync(path.join(os.tmpdir(), `${template}.seed.json`), { force: true });
  if (!server) {
    if (!process.env.DATABASE_URL || !template) return;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      // The template, and the databases the workers kept to use again (`tf_<run>_…`, runPrefix in postgresPool.ts).
      const run = `tf_${crypto.createHash('md5').update(template).digest('hex').slice(0, 8)}_`;
      const kept = await admin.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [run]);
      for (const name of [template, ...kept.rows.map((row) => row.datname)]) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
    return;
  }
  delete globalThis[EMBEDDED_PG_KEY];
  await server.stop();
}
