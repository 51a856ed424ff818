import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';

/**
 * A backup (docs/deploy.md «Backups») is a directory:
 *
 *   manifest.json      what is inside, with a SHA-256 of every other file (written last)
 *   database.sqlite    SQLite: an online copy of the database (better-sqlite3's backup API)
 *   database.pgdump    PostgreSQL: `pg_dump --format=custom`
 *   files/…            the uploaded files and finished exports the database refers to, by storage key
 */

/** A backup's refusals and failures: the CLI prints the message alone and exits 1. */
export class BackupError extends Error {}

export const MANIFEST_FILE = 'manifest.json';
export const FILES_DIR = 'files';
export const DATABASE_FILES = { sqlite: 'database.sqlite', postgres: 'database.pgdump' } as const;
/** The manifest's format name: written by every backup and checked by restore, so kept as the first backups wrote it (from before the package was named after the product). */
export const BACKUP_FORMAT = 'blocknote-workspace-backup';
export const BACKUP_FORMAT_VERSION = 1;

const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex');

/** A storage key as the file store uses it: relative, `/`-separated, never leading out of the files directory. */
export function isSafeStorageKey(key: string): boolean {
  const parts = key.split('/');
  return (
    key.length > 0 && key.length <= 500 && !key.includes('\\') && !key.includes('\0') && parts.every((part) => part !== '' && part !== '.' && part !== '..')
  );
}

const storedFileSchema = z.object({
  key: z.string().refine(isSafeStorageKey, 'a relative storage key'),
  bytes: z.number().int().nonnegative(),
  sha256: sha256Schema,
});
export type StoredFile = z.infer<typeof storedFileSchema>;

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.literal(BACKUP_FORMAT_VERSION),
  app: z.object({ name: z.string(), version: z.string() }),
  /** When the backup started: everything committed before is in it (the snapshot is taken right after). */
  startedAt: z.string(),
  finishedAt: z.string(),
  database: z.object({
    kind: z.enum(['sqlite', 'postgres']),
    file: z.enum([DATABASE_FILES.sqlite, DATABASE_FILES.postgres]),
    bytes: z.number().int().nonnegative(),
    sha256: sha256Schema,
    /** The newest migration applied (server/db/migrate.ts), null for a database never migrated. */
    migration: z.string().nullable(),
    /** PostgreSQL: the server's and pg_dump's versions. */
    serverVersion: z.string().optional(),
    dumpVersion: z.string().optional(),
  }),
  files: z.object({
    count: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    list: z.array(storedFileSchema),
    /** Files the database refers to whose bytes were not in the file store when the backup copied it. */
    missing: z.array(z.string()),
  }),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** The SHA-256 (hex) and size of a file. */
export async function hashFile(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/**
 * Copies a file, hashing the bytes as they are written (what the copy holds, even if the source
 * is replaced meanwhile); the copy is flushed to disk. Undefined when the source does not exist.
 */
export async function copyHashed(source: string | (() => Promise<Readable | null>), target: string): Promise<{ sha256: string; bytes: number } | undefined> {
  let input: Readable;
  try {
    const opened = typeof source === 'string' ? await openForReading(source) : await source();
    if (!opened) return undefined;
    input = opened;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  input.on('data', (chunk) => {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  });
  const output = fs.createWriteStream(target, { flags: 'wx', flush: true });
  await pipeline(input, output);
  return { sha256: hash.digest('hex'), bytes };
}

/** A read stream once the file is open (so a missing file is an error here, not a stream event later). */
function openForReading(file: string): Promise<fs.ReadStream> {
  return new Promise((resolve, reject) => {
    const stream = fs.createReadStream(file);
    stream.once('open', () => resolve(stream));
    stream.once('error', reject);
  });
}

/** Reads and checks a backup's manifest; a BackupError says what is wrong. */
export async function readManifest(backupDir: string): Promise<Manifest> {
  const stat = await fs.promises.stat(backupDir).catch(() => undefined);
  if (!stat) throw new BackupError(`no backup at ${backupDir}: the directory does not exist`);
  if (!stat.isDirectory()) throw new BackupError(`${backupDir} is not a backup: a backup is a directory (with ${MANIFEST_FILE} inside)`);
  const text = await fs.promises.readFile(path.join(backupDir, MANIFEST_FILE), 'utf8').catch(() => undefined);
  if (text === undefined) throw new BackupError(`${backupDir} is not a complete backup: it has no ${MANIFEST_FILE} (a backup that was interrupted has none)`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupError(`the backup's ${MANIFEST_FILE} is damaged: it is not valid JSON`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupError(`the backup's ${MANIFEST_FILE} is not one this version can read: ${issue.path.join('.') || 'manifest'}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Checks every file of a backup against its manifest (size and SHA-256), the database first;
 * throws a BackupError naming the first file that is missing or differs.
 */
export async function verifyBackup(backupDir: string, manifest: Manifest): Promise<void> {
  const check = async (relative: string, expected: { bytes: number; sha256: string }) => {
    const actual = await hashFile(path.join(backupDir, relative)).catch(() => undefined);
    if (!actual) throw new BackupError(`the backup is incomplete: ${relative} is missing`);
    if (actual.bytes !== expected.bytes || actual.sha256 !== expected.sha256) {
      throw new BackupError(`the backup is damaged: ${relative} does not match its checksum in ${MANIFEST_FILE}`);
    }
  };
  await check(manifest.database.file, manifest.database);
  for (const file of manifest.files.list) await check(`${FILES_DIR}/${file.key}`, file);
}
