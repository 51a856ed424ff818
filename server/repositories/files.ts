import { pipeline, Transform, type Readable } from 'node:stream';
import type { Insertable, Kysely, Selectable } from 'kysely';
import { isId } from '../../schema/ids';
import type { Database, FileTable } from '../db/types';
import type { FileStore } from '../files/store';
import { inChunks } from '../db/inChunks';
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

/** A file about to be stored: whose, where it is shown, what it is, and how far its bytes are. */
export interface NewFile {
  id: string;
  ownerId: string;
  /** The page that shows it (null: the owner's own, not on a page yet). */
  pageId: string | null;
  workspaceId: string | null;
  name: string;
  mimeType: string;
  /** Its bytes' size, or the size reserved for the quota until they are counted. */
  size: number;
  status: (typeof FILE_STATUS)[keyof typeof FILE_STATUS];
  isPublic?: boolean;
  /** A pending upload's token (its hash) and when it ends. */
  upload?: { tokenHash: string; expiresAt: string };
}

/** The files row of a new file (the one place one is made): its bytes under `storageKeyFor(id)`. */
export function newFileRow(file: NewFile): FileRow {
  return {
    id: file.id,
    owner_id: file.ownerId,
    page_id: file.pageId,
    workspace_id: file.workspaceId,
    name: file.name,
    mime_type: file.mimeType,
    size: file.size,
    storage_key: storageKeyFor(file.id),
    is_public: file.isPublic ? 1 : 0,
    status: file.status,
    upload_token_hash: file.upload?.tokenHash ?? null,
    upload_expires_at: file.upload?.expiresAt ?? null,
    created_at: nowIso(),
  };
}

export async function insertFile(db: Kysely<Database>, row: Insertable<FileTable>): Promise<void> {
  await db.insertInto('files').values(row).execute();
}

/** The files among `ids` that are ready (uploaded whole), 500 ids a query. */
export async function findReadyFiles(db: Kysely<Database>, ids: readonly string[]): Promise<FileRow[]> {
  const files: FileRow[] = [];
  for (const chunk of inChunks([...ids], 500))
    files.push(...(await db.selectFrom('files').selectAll().where('id', 'in', chunk).where('status', '=', FILE_STATUS.ready).execute()));
  return files;
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
  await db.deleteFrom('files').where('owner_id', '=', ownerId).where('status', '=', FILE_STATUS.pending).where('upload_expires_at', '<', nowIso()).execute();
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
 * mid-upload) — their rows and whatever bytes reached the store (the file, its partial `.part`
 * files on disk). Answers how many were removed.
 */
export async function sweepAbandonedUploads(db: Kysely<Database>, store: FileStore, now = Date.now()): Promise<number> {
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
    if (gone.numDeletedRows > 0n) await store.delete(row.storage_key);
  }
  return rows.length;
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

/** How many of an upload's first bytes `check` sees. */
const HEAD_BYTES = 16;

/**
 * Streams an upload into the file store (never whole in memory) and answers its byte count. An
 * upload past its size limit (the multipart stream's `limit`) stops at once with
 * UploadTooLargeError; `check` sees the first bytes once all arrived and may refuse them. Nothing
 * is kept when it fails.
 */
export async function storeUpload(
  store: FileStore,
  storageKey: string,
  source: Readable & { truncated?: boolean },
  options: { contentType?: string; check?: (head: Buffer) => void | Promise<void> } = {},
): Promise<number> {
  let head = Buffer.alloc(0);
  const watched = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
      done(null, chunk);
    },
  });
  source.once('limit', () => watched.destroy(new UploadTooLargeError('the file is larger than allowed')));
  const size = await store.put(
    storageKey,
    pipeline(source, watched, () => {}),
    options.contentType,
  );
  try {
    if (source.truncated) throw new UploadTooLargeError('the file is larger than allowed');
    await options.check?.(head);
  } catch (error) {
    await store.delete(storageKey);
    throw error;
  }
  return size;
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
