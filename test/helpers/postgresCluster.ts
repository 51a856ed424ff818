import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findPgTool, pgToolDirs, type PgTool } from '../../server/backup/postgres';
import { freePort } from './serverProcess';

/**
 * A PostgreSQL that `pg_dump` on this machine can dump, for the backup tests: the test
 * PostgreSQL (TEST_PG_ADMIN_URL) when a pg_dump as new as it is here, otherwise a server of the
 * newest pg_dump's own version started from that installation's binaries (Debian's
 * /usr/lib/postgresql/N/bin: initdb and postgres beside pg_dump). The embedded PostgreSQL
 * (18) ships no pg_dump, and Debian 12's client tools are 15, which refuse a newer server.
 */
export async function postgresForPgDump(): Promise<{ adminUrl: string; pgDump: PgTool; stop(): Promise<void> }> {
  const testAdminUrl = process.env.TEST_PG_ADMIN_URL;
  if (!testAdminUrl) throw new Error('TEST_PG_ADMIN_URL is not set: the postgres global setup did not run');
  const client = new pg.Client({ connectionString: testAdminUrl });
  await client.connect();
  const serverMajor = Math.floor(Number((await client.query<{ v: string }>("select current_setting('server_version_num') as v")).rows[0].v) / 10000);
  await client.end();
  const oldest = await findPgTool('pg_dump', 0).catch(() => {
    throw new Error('the PostgreSQL backup tests need pg_dump (Debian: apt-get install postgresql; .ci/run installs it)');
  });
  const usable = await findPgTool('pg_dump', serverMajor).catch(() => undefined);
  if (usable) return { adminUrl: testAdminUrl, pgDump: usable, stop: async () => {} };
  for (const dir of pgToolDirs()) {
    if (!['initdb', 'postgres', 'pg_dump'].every((name) => fs.existsSync(path.join(dir, name)))) continue;
    const pgDump = await findPgTool('pg_dump', 0, { PG_BIN_DIR: dir });
    const cluster = await startPostgresCluster(dir);
    return { adminUrl: cluster.url, pgDump, stop: cluster.stop };
  }
  throw new Error(`pg_dump ${oldest.version} cannot dump the test PostgreSQL (${serverMajor}) and no PostgreSQL server of its version was found to start`);
}

/**
 * Starts a PostgreSQL server from an installation's bin directory in a fresh temporary directory
 * on a free port (as the `postgres` user when this runs as root, as PostgreSQL insists); stop()
 * shuts it down and removes the directory.
 */
export async function startPostgresCluster(binDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-cluster-'));
  const dataDir = path.join(baseDir, 'data');
  const user =
    process.getuid?.() === 0
      ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) }
      : {};
  if (user.uid !== undefined) fs.chownSync(baseDir, user.uid, user.gid);
  execFileSync(path.join(binDir, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], {
    ...user,
    stdio: 'pipe',
  });
  const port = await freePort();
  const child = spawn(
    path.join(binDir, 'postgres'),
    ['-D', dataDir, '-p', String(port), '-k', baseDir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
    { ...user, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`PostgreSQL did not start:\n${output}`)), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL exited (${code}):\n${output}`));
    });
  });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
      }
      fs.rmSync(baseDir, { recursive: true, force: true });
    },
  };
}
