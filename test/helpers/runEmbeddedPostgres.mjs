// Runs an embedded PostgreSQL as its own process (Jest's module system cannot load the ESM-only
// package inside a test): prints `READY <url>`, and stops and cleans up on SIGTERM or SIGINT.
import { startEmbeddedPostgres } from './embeddedPostgres.mjs';

const pg = await startEmbeddedPostgres();
process.stdout.write(`READY ${pg.url}\n`);
const stop = async () => {
  await pg.stop();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
setInterval(() => {}, 1 << 30);
