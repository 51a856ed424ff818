import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';

/*
 * Test databases on PostgreSQL used again (issue 35). `CREATE DATABASE` costs ≈ 0.5 s here and a
 * test app is made hundreds of times a run; emptying a database back to what the migrations left
 * costs a fraction of it. A test app's database, once the app is closed, is emptied (every table
 * truncated, the rows the migrations wrote put back, the sequences where they were) and renamed
 * `<TEST_PG_KEPT_PREFIX><worker>_…`; the next test app of that Jest worker takes it by renaming it back. A
 * database whose schema a test changed (its fingerprint differs from the template's), that
 * someone is still connected to, or that cannot be emptied is dropped instead, as before.
 */

/** What the migrations leave in a fresh database: its tables' rows, its sequences, its schema's fingerprint. */
interface Seed {
  /** Every table to empty (the migration bookkeeping's are left alone). */
  tables: string[];
  /** The rows of the tables the migrations wrote to, by table, with the columns to insert. */
  rows: Array<{ table: string; columns: string[]; rows: unknown[] }>;
  sequences: Array<{ name: string; start: string; last: string | null }>;
  fingerprint: string;
}

const KEPT_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

/** The schema as text: tables, columns, constraints, indexes, triggers and functions (a test that altered any of them leaves a database not used again). */
const FINGERPRINT = `
  SELECT md5(coalesce(string_agg(x, E'\\n' ORDER BY x), '')) AS fingerprint FROM (
    SELECT 'c ' || table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS x
      FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
    UNION ALL SELECT 'k ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      FROM pg_constraint WHERE connamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
    UNION ALL SELECT 'i ' || pg_get_indexdef(i.indexrelid)
      FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relnamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace)
    UNION ALL SELECT 't ' || tgrelid::regclass::text || ' ' || tgname || ' ' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT 'f ' || p.oid::regprocedure::text || ' ' || md5(p.prosrc)
      FROM pg_proc p WHERE p.pronamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
    UNION ALL SELECT 'n ' || nspname FROM pg_namespace
  ) s`;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Reads what the migrations left in the database at `url` (the template, before anyone copies it)
 * into this run's seed file (TEST_PG_SEED_FILE, named by the global setup); nothing without one.
 */
export async function captureSeed(url: string): Promise<void> {
  const file = process.env.TEST_PG_SEED_FILE;
  if (!file) return;
  await withClient(url, async (client) => {
    const tables = (
      await client.query<{ name: string }>(`SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables
         WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`)
    ).rows
      .map((row) => row.name)
      .filter((name) => !KEPT_TABLES.has(name.replace(/^public\./, '')));
    const rows: Seed['rows'] = [];
    for (const table of tables) {
      const found = await client.query(`SELECT to_jsonb(t) AS row FROM ${table} t`);
      if (found.rowCount === 0) continue;
      const columns = (
        await client.query<{ column_name: string }>(
          `SELECT column_name FROM information_schema.columns
            WHERE (quote_ident(table_schema) || '.' || quote_ident(table_name)) = $1 AND is_generated = 'NEVER' AND identity_generation IS DISTINCT FROM 'ALWAYS'
            ORDER BY ordinal_position`,
          [table],
        )
      ).rows.map((row) => row.column_name);
      rows.push({ table, columns, rows: found.rows.map((row: { row: unknown }) => row.row) });
    }
    const sequences = (
      await client.query<{ name: string; start: string; last: string | null }>(
        `SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name, start_value::text AS start, last_value::text AS last FROM pg_sequences`,
      )
    ).rows;
    const { fingerprint } = (await client.query<{ fingerprint: string }>(FINGERPRINT)).rows[0];
    const seed: Seed = { tables, rows, sequences, fingerprint };
    fs.writeFileSync(`${file}.${process.pid}`, JSON.stringify(seed));
    fs.renameSync(`${file}.${process.pid}`, file);
  });
}

let seedRead: Seed | null = null;
function seed(): Seed | null {
  if (seedRead || !process.env.TEST_PG_SEED_FILE) return seedRead;
  try {
    seedRead = JSON.parse(fs.readFileSync(process.env.TEST_PG_SEED_FILE, 'utf8')) as Seed;
  } catch {
    return null;
  }
  return seedRead;
}

/** The names of the databases this worker keeps free in this run (TEST_PG_KEPT_PREFIX: the run's, named by the global setup). */
export const keptPrefix = (worker = process.env.JEST_WORKER_ID ?? '0') => `${process.env.TEST_PG_KEPT_PREFIX ?? 'tf_'}${worker.replace(/\D/g, '')}_`;

/** Runs `work` with a client of the database at `url`, closed after. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The URL of the database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A database as the migrations left it, for one test app: one this worker emptied before, or
 * else `fresh()` (a copy of the template). Its `drop` empties it and puts it back for the next
 * app — or drops it, when it cannot be used again.
 */
export async function takePostgresDatabase(
  adminUrl: string,
  fresh: () => Promise<{ url: string; drop: () => Promise<void> }>,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const migrated = seed();
  if (!migrated) return fresh();
  const name = `t_${crypto.randomBytes(8).toString('hex')}`;
  const taken = await withClient(adminUrl, async (admin) => {
    const free = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [keptPrefix()]);
    for (const { datname } of free.rows) {
      try {
        await admin.query(`ALTER DATABASE ${quoted(datname)} RENAME TO ${name}`);
        return true;
      } catch {
        // Taken by another app of this worker at the same moment: the next one.
      }
    }
    return false;
  });
  const database = taken ? { url: databaseUrl(adminUrl, name), drop: () => dropDatabase(adminUrl, name) } : await fresh();
  return { url: database.url, drop: () => putBack(adminUrl, database, migrated) };
}

/** Drops the database `name` on the server of `adminUrl`, ending any session still on it. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`));
}

/** Empties the database back to `seed` and renames it free for this worker; drops it when that cannot be done. */
async function putBack(adminUrl: string, database: { url: string; drop: () => Promise<void> }, seed: Seed): Promise<void> {
  const name = new URL(database.url).pathname.slice(1);
  try {
    let own = 0;
    const same = await withClient(database.url, async (client) => {
      own = (client as unknown as { processID: number }).processID;
      await client.query("SET lock_timeout = '2s'");
      const { fingerprint } = (await client.query<{ fingerprint: string }>(FINGERPRINT)).rows[0];
      if (fingerprint !== seed.fingerprint) return false;
      await client.query('BEGIN');
      // Only the tables with rows (a test writes to a few of ~60; truncating one costs new files).
      const holding = (
        await client.query<Record<string, boolean>>(`SELECT ${seed.tables.map((table, i) => `EXISTS (SELECT FROM ${table}) AS t${i}`).join(', ')}`)
      ).rows[0];
      const written = seed.tables.filter((_, i) => holding[`t${i}`]);
      if (written.length > 0) await client.query(`TRUNCATE ${written.join(', ')} CASCADE`);
      for (const { table, columns, rows } of seed.rows) {
        const list = columns.map(quoted).join(', ');
        await client.query(`INSERT INTO ${table} (${list}) SELECT ${list} FROM jsonb_populate_recordset(null::${table}, $1)`, [JSON.stringify(rows)]);
      }
      if (seed.sequences.length > 0)
        await client.query(
          `SELECT ${seed.sequences.map((_, i) => `setval($${2 * i + 1}::regclass, $${2 * i + 2}::bigint, ${seed.sequences[i].last !== null})`).join(', ')}`,
          seed.sequences.flatMap(({ name: sequence, start, last }) => [sequence, last ?? start]),
        );
      await client.query('COMMIT');
      return true;
    });
    if (!same) return database.drop();
    const free = `${keptPrefix()}${crypto.randomBytes(6).toString('hex')}`;
    await withClient(adminUrl, async (admin) => {
      // Someone still connected (a server process of the test left running): dropped at once. A
      // rename would wait 5 s for them to leave, as PostgreSQL waits for a closing session — ours
      // may take a moment to be gone after its client closed.
      const others = await admin.query('SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND pid <> $2', [name, own]);
      if (others.rowCount) throw new Error(`${name} is still in use`);
      await admin.query(`ALTER DATABASE ${name} RENAME TO ${free}`);
    });
  } catch {
    await database.drop();
  }
}
