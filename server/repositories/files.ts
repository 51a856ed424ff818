import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Insertable, Kysely, Selectable } from 'kysely';
import { isId } from '../../schema/ids';
import type { Database, FileTable } from '../db/types';
import { nowIso } from '../time';

export type FileRow = Selectable<FileTable>;

/**
 * A file's life: 'pending' (an upload URL was handed out) → 'uploading' (its one-time token was
 * used and the bytes are arriving) → 'ready'. Only ready files are ever served.
 */
export const FILE_STATUS = { pending: 'pending', uploading: 'uploading', ready: 'ready' } as const;

export function findFile(db: Kysely<Database>, id: string): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertFile(db: Kysely<Database>, row: Insertable<FileTable>): Promise<void> {
  await db.insertInto('files').values(row).execute();
}

/**
 * Uses an upload token up: one conditional update, so two requests with the same token cannot
 * both upload. Undefined when the token is wrong, used or expired.
 */
export function claimUpload(db: Kysely<Database>, id: string, tokenHash: string): Promise<FileRow | undefined> {
  return db
    .updateTable('files')
    .set({ status: FILE_STATUS.uploading, upload_token_hash: null })
    .where('id', '=', id)
    .where('status', '=', FILE_STATUS.pending)
    .where('upload_token_hash', '=', tokenHash)
    .where('upload_expires_at', '>', nowIso())
    .returningAll()
    .executeTakeFirst();
}

export async function markFileReady(db: Kysely<Database>, id: string, size: number): Promise<void> {
  await db.updateTable('files').set({ status: FILE_STATUS.ready, size, upload_expires_at: null }).where('id', '=', id).execute();
}

export async function deleteFileRow(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('files').where('id', '=', id).execute();
}

/** A user's upload URLs that expired unused (they have no bytes). */
export async function deleteExpiredUploads(db: Kysely<Database>, ownerId: string): Promise<void> {
  await db
    .deleteFrom('files')
    .where('owner_id', '=', ownerId)
    .where('status', '=', FILE_STATUS.pending)
    .where('upload_expires_at', '<', nowIso())
    .execute();
}

/**
 * An upload whose bytes may still be arriving is left alone this long after its URL expired (or,
 * for a one-step page upload, which has no URL, after it began): only then is it abandoned.
 */
export const UPLOAD_STALE_MS = 24 * 60 * 60 * 1000;

/** How many abandoned uploads one sweep removes at most (the next round takes the rest). */
const SWEEP_BATCH = 500;

/**
 * Removes abandoned uploads: upload URLs that expired unused ('pending'), and uploads that
 * started but never finished ('uploading', stale for UPLOAD_STALE_MS — a server that stopped
 * mid-upload) — their rows and whatever bytes reached the disk (the file, its partial `.part`
 * files). Answers how many were removed.
 */
export async function sweepAbandonedUploads(db: Kysely<Database>, filesDir: string, now = Date.now()): Promise<number> {
  const stale = new Date(now - UPLOAD_STALE_MS).toISOString();
  const rows = await db
    .selectFrom('files')
    .select(['id', 'storage_key'])
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', FILE_STATUS.pending), eb('upload_expires_at', '<', new Date(now).toISOString())]),
        eb.and([
          eb('status', '=', FILE_STATUS.uploading),
          eb.or([eb('upload_expires_at', '<', stale), eb.and([eb('upload_expires_at', 'is', null), eb('created_at', '<', stale)])]),
        ]),
      ]),
    )
    .limit(SWEEP_BATCH)
    .execute();
  for (const row of rows) {
    // The row goes only while it is still abandoned: an upload that just finished stays.
    const gone = await db.deleteFrom('files').where('id', '=', row.id).where('status', '!=', FILE_STATUS.ready).executeTakeFirst();
    if (gone.numDeletedRows > 0n) await removeStoredBytes(filesDir, row.storage_key);
  }
  return rows.length;
}

/** Removes a file's bytes and any partial uploads of it (`{file}.{random}.part`); what is gone already is fine. */
async function removeStoredBytes(filesDir: string, storageKey: string): Promise<void> {
  const target = storagePath(filesDir, storageKey);
  const dir = path.dirname(target);
  const prefix = `${path.basename(target)}.`;
  const partials = (await fs.promises.readdir(dir).catch(() => [] as string[])).filter((name) => name.startsWith(prefix) && name.endsWith('.part'));
  await Promise.all([target, ...partials.map((name) => path.join(dir, name))].map((file) => fs.promises.rm(file, { force: true })));
}

/**
 * The bytes a workspace's files take or have reserved: ready files by their size, uploads under
 * way by their declared size (so two uploads cannot race past the quota); expired upload URLs
 * are not counted.
 */
export async function workspaceStoredBytes(db: Kysely<Database>, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.sum<string | number | null>('size').as('total'))
    .where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or([eb('status', '!=', FILE_STATUS.pending), eb('upload_expires_at', '>', nowIso())]))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Where a file's bytes live, relative to the file store: fanned out by the id's first two characters. */
export function storageKeyFor(id: string): string {
  return `${id.slice(0, 2)}/${id}`;
}

export function storagePath(filesDir: string, storageKey: string): string {
  return path.join(filesDir, ...storageKey.split('/'));
}

/** The path for an app-relative or absolute link to one of our files, `/api/file/{id}`. */
export function fileUrl(id: string): string {
  return `/api/file/${id}`;
}

/** The id of one of our files when the URL is `/api/file/{id}` here (relative, or absolute on PUBLIC_URL). */
export function fileIdFromOurUrl(url: string, publicUrl: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url, publicUrl);
  } catch {
    return undefined;
  }
  if (parsed.origin !== new URL(publicUrl).origin) return undefined;
  const match = /^\/api\/file\/([^/]+)$/.exec(parsed.pathname);
  return match && isId(match[1]) ? match[1] : undefined;
}

export class UploadTooLargeError extends Error {}

/**
 * Streams an upload into the file store: into a temporary file beside the target, renamed into
 * place once complete; a truncated (too large) or failed upload leaves nothing behind. Answers
 * the byte count. `check` may look at the complete temporary file before it is kept.
 */
export async function storeUpload(
  filesDir: string,
  storageKey: string,
  source: Readable & { truncated?: boolean },
  check?: (tempPath: string) => Promise<void>,
): Promise<number> {
  const target = storagePath(filesDir, storageKey);
  const temp = `${target}.${crypto.randomBytes(6).toString('hex')}.part`;
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  try {
    await pipeline(source, fs.createWriteStream(temp, { flags: 'wx' }));
    if (source.truncated) throw new UploadTooLargeError('the file is larger than allowed');
    await check?.(temp);
    const { size } = await fs.promises.stat(temp);
    await fs.promises.rename(temp, target);
    return size;
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

/** The first bytes of a file (for type sniffing). */
export async function readHead(filePath: string, length: number): Promise<Buffer> {
  const handle = await fs.promises.open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Whether the bytes start like an image of this type (avatars must be what they claim). */
export function looksLikeImage(head: Buffer, mimeType: string): boolean {
  const starts = (bytes: number[], offset = 0) => bytes.every((b, i) => head[offset + i] === b);
  switch (mimeType) {
    case 'image/png':
      return starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return starts([0xff, 0xd8, 0xff]);
    case 'image/gif':
      return starts([0x47, 0x49, 0x46, 0x38]);
    case 'image/webp':
      return starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8);
    default:
      return false;
  }
}
