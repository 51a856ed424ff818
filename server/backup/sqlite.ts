import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { BackupError } from './manifest';

/**
 * The SQLite side of backups: an online copy through SQLite's backup API, and the checks of a
 * database file before a restore.
 */

/** Most pages the backup API may copy in one step: in practice, all of them. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies a live database into `target` (a new file) while the server keeps writing. SQLite's
 * backup API copies the pages under one read transaction per step; this takes every page in a
 * single step, so the copy is the database as of one moment (WAL: the server's writers are
 * not blocked meanwhile), and a write elsewhere cannot make the copy start over and over. The
 * copy is left in rollback-journal mode: one self-contained file (the server turns WAL on again
 * when it opens it).
 */
export async function backupSqlite(source: string, target: string): Promise<void> {
  if (!fs.existsSync(source)) throw new BackupError(`no database at ${source} (is DATA_DIR right?)`);
  const db = new SQLite(source, { fileMustExist: true, timeout: 5000 });
  try {
    // better-sqlite3's first step copies nothing; the progress callback sets the next one's size.
    await db.backup(target, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** What a database copy says of itself: checked sound, its newest migration, the files it refers to. */
export interface SqliteSnapshot {
  migration: string | null;
  storageKeys: string[];
}

/**
 * Opens a database copy read-only and checks it (`PRAGMA integrity_check`, foreign keys), then
 * reads its migration level and the storage keys of the files it refers to (ready uploads and
 * finished exports). Throws a BackupError for a file that is not a sound SQLite database.
 */
export function inspectSqliteCopy(file: string): SqliteSnapshot {
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupError(`the database copy cannot be opened: ${(error as Error).message}`);
  }
  try {
    let problems: string[];
    try {
      problems = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((row) => row.integrity_check);
    } catch (error) {
      throw new BackupError(`the database copy is not a sound SQLite database: ${(error as Error).message}`);
    }
    if (problems.join() !== 'ok') throw new BackupError(`the database copy is not sound (integrity_check: ${problems.slice(0, 3).join('; ')})`);
    const orphans = db.pragma('foreign_key_check') as unknown[];
    if (orphans.length > 0) throw new BackupError(`the database copy is not sound: ${orphans.length} rows refer to rows that are missing`);
    const hasTable = (name: string) => db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(name) !== undefined;
    const migration = hasTable('kysely_migration')
      ? ((db.prepare('select name from kysely_migration order by name desc limit 1').get() as { name: string } | undefined)?.name ?? null)
      : null;
    const storageKeys = [
      ...(hasTable('files') ? (db.prepare("select storage_key from files where status = 'ready'").pluck().all() as string[]) : []),
      ...(hasTable('export_jobs')
        ? (db.prepare("select storage_key from export_jobs where status = 'done' and storage_key is not null").pluck().all() as string[])
        : []),
    ];
    return { migration, storageKeys };
  } finally {
    db.close();
  }
}

/** What is at a restore's target: nothing, an empty database, or one with content; and whether a process has it open. */
export type SqliteTargetState = 'absent' | 'empty' | 'has-content' | 'in-use';

/**
 * Looks at the database a restore would replace without changing it. A server keeps its
 * database in WAL mode; leaving WAL needs every other connection closed, so trying that (and
 * going back) tells whether a process has the file open.
 */
export function sqliteTargetState(file: string): SqliteTargetState {
  if (!fs.existsSync(file)) return 'absent';
  const db = new SQLite(file, { fileMustExist: true, timeout: 0 });
  try {
    return databaseState(db);
  } catch (error) {
    // Not a database we can read (damaged, or not SQLite): there is something, and it is not empty.
    if (/^SQLITE_(NOTADB|CORRUPT)/.test((error as { code?: string }).code ?? '')) return 'has-content';
    throw error;
  } finally {
    db.close();
  }
}

function databaseState(db: SQLite.Database): SqliteTargetState {
  const mode = db.pragma('journal_mode', { simple: true }) as string;
  if (mode === 'wal') {
    try {
      db.pragma('journal_mode = DELETE');
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return 'in-use';
      throw error;
    }
    db.pragma('journal_mode = WAL');
  }
  const tables = db.prepare("select name from sqlite_master where type = 'table' and name in ('users', 'workspaces', 'pages')").pluck().all() as string[];
  const rows = tables.some((table) => db.prepare(`select 1 from "${table}" limit 1`).get() !== undefined);
  return rows ? 'has-content' : 'empty';
}
