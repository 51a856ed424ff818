import fs from 'node:fs';

const EMBEDDED_PG_KEY = '__embeddedPostgres__';

/** Stops the embedded PostgreSQL started by postgresGlobalSetup.mjs (nothing to do with DATABASE_URL). */
export default async function postgresGlobalTeardown() {
  const instance = globalThis[EMBEDDED_PG_KEY];
  if (!instance) return;
  delete globalThis[EMBEDDED_PG_KEY];
  try {
    await instance.pg.stop();
  } finally {
    fs.rmSync(instance.baseDir, { recursive: true, force: true });
  }
}
