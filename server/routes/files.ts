import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { ERROR_CODES } from '../../schema/errors';
import { assertStorablePart } from '../plugins/textInput';
import {
  INLINE_MIME_TYPES,
  PAGE_FILE_FIELDS,
  UNKNOWN_MIME_TYPE,
  cleanFileName,
  mimeTypeSchema,
  storableMimeType,
  uploadUrlBodySchema,
  type WireFile,
} from '../../schema/file';
import { isId, newId } from '../../schema/ids';
import { idParams } from '../../schema/params';
import { hashSecret, newSecret } from '../auth/tokens';
import type { Config } from '../config';
import { contentDispositionOf } from '../disposition';
import { AppError, invalid, isUniqueViolation, notFound, parseWith } from '../errors';
import { PUBLIC_ROUTE, requireUser } from '../plugins/auth';
import { assertWithinQuota, authorizeFileRead, authorizePageUpload } from '../policies/file';
import { envelope } from '../presenters';
import {
  FILE_STATUS,
  UploadTooLargeError,
  claimUpload,
  deleteExpiredUploads,
  deleteFileRow,
  fileUrl,
  findFile,
  insertFile,
  looksLikeImage,
  markFileReady,
  newFileRow,
  storeUpload,
  type FileRow,
} from '../repositories/files';

import { openStored, sendStored, STORED_BYTES_ROUTE } from '../files/serve';
import { isoIn } from '../time';
import { assertWritable } from '../policies/page';

/** An upload URL works this long. */
export const UPLOAD_URL_TTL_MS = 60 * 60 * 1000;

/** Files are never run on the app's origin: no scripts, no plugins, an opaque origin if rendered at all. */
const FILE_CSP = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/**
 * A file's bytes: GET and HEAD (which opens nothing), anyone may ask (the handler authorizes);
 * sent as stored, never compressed on the way, so a Range counts the stored bytes.
 */
const BYTES_ROUTE = { ...PUBLIC_ROUTE, ...STORED_BYTES_ROUTE };

const uploadQuery = z.object({ token: z.string().min(1).max(256) });
const protectedParams = z.object({ pageId: z.string().min(1).max(128), fileId: z.string().min(1).max(128) });
const pageFileFields = z.object({
  [PAGE_FILE_FIELDS.pageId]: z.string().min(1).max(128),
  [PAGE_FILE_FIELDS.id]: z.string().refine(isId, { message: 'not a uuid' }).optional(),
});

const tooLarge = (limit: number) => new AppError(413, ERROR_CODES.payloadTooLarge, `the file is larger than allowed (${limit} bytes)`);
const notMultipart = () => new AppError(415, ERROR_CODES.unsupportedMediaType, 'send the file as multipart/form-data');
const fileExists = () => new AppError(409, ERROR_CODES.fileExists, 'a file with this id exists');

function presentFile(file: FileRow): WireFile {
  return {
    id: file.id,
    contentType: 'File',
    name: file.name,
    mimeType: storableMimeType(file.mime_type),
    size: file.size,
    pageId: file.page_id,
    isPublic: file.is_public === 1,
    url: file.page_id ? `/api/file/protected/${file.page_id}/${file.id}` : fileUrl(file.id),
    createdAt: file.created_at,
  };
}

/**
 * Files: upload URLs and uploads (multipart, streamed to the file store: FILES_DIR or S3), the
 * one-step page upload, and reading files back (public ones by anyone, page files by the page's
 * readers), whole or a range of bytes.
 */
export async function filesRoutes(server: FastifyInstance, { config }: { config: Config }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  // files.size is a 32-bit integer column.
  const maxUploadBytes = Math.min(config.uploadLimitBytes, 2_147_483_647);
  await app.register(multipart, {
    limits: { fields: 20, fieldSize: 1024, files: 1, parts: 25, fileSize: maxUploadBytes },
  });

  /** Keeps a page upload's reservation only while the workspace's quota holds it (413 otherwise, the row removed). */
  async function reserveWithinQuota(row: FileRow): Promise<void> {
    if (row.workspace_id === null) return;
    await assertWithinQuota(app.db, config.storageQuotaBytes, row.workspace_id).catch(async (error: unknown) => {
      await deleteFileRow(app.db, row.id);
      throw error;
    });
  }

  async function serveFile(request: FastifyRequest, reply: FastifyReply, file: FileRow) {
    const isAvatar = file.is_public === 1 && file.page_id === null;
    const etag = `"${file.id}"`;
    const bytes = await openStored(request, reply, app.fileStore, { key: file.storage_key, size: file.size, etag });
    // The stored type is checked again on its way into a header: a row written before types were
    // checked (an import's) may hold anything — a line break would make every download a 500.
    const type = storableMimeType(file.mime_type);
    reply
      .header('content-type', type)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', FILE_CSP)
      .header('content-disposition', contentDispositionOf(file.name, INLINE_MIME_TYPES.includes(type) ? 'inline' : 'attachment'))
      // Access to page files can be taken away: browsers must ask again each time.
      .header('cache-control', isAvatar ? 'public, max-age=86400' : 'private, no-cache')
      .header('etag', etag);
    if (!isAvatar) reply.header('cross-origin-resource-policy', 'same-site');
    return sendStored(reply, bytes);
  }

  /** Forgets a file: its row and its bytes. */
  async function removeFile(file: FileRow): Promise<void> {
    await deleteFileRow(app.db, file.id);
    await app.fileStore.delete(file.storage_key);
  }

  async function loadFile(id: string): Promise<FileRow> {
    const file = await findFile(app.db, id);
    if (!file) throw notFound('file');
    return file;
  }

  app.post(
    '/api/file/upload_url',
    { schema: { tags: ['files'], summary: 'Get a one-time URL to upload a file to (a page file, or a public image)', body: uploadUrlBodySchema } },
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      if (body.size > maxUploadBytes) throw tooLarge(maxUploadBytes);
      const page = body.pageId !== undefined ? await authorizePageUpload(app.db, user.id, body.pageId) : null;
      // A page in the trash takes no new files (409 page.in_trash), like every other write into it.
      if (page) await assertWritable(app.db, page);
      await deleteExpiredUploads(app.db, user.id);
      const id = newId();
      const token = newSecret();
      const expiresAt = isoIn(UPLOAD_URL_TTL_MS);
      const row = newFileRow({
        id,
        ownerId: user.id,
        pageId: page?.id ?? null,
        workspaceId: page?.workspace_id ?? null,
        name: body.name,
        mimeType: body.mimeType,
        // The declared size until the bytes arrive; the upload may not be larger.
        size: body.size,
        isPublic: body.public,
        status: FILE_STATUS.pending,
        upload: { tokenHash: hashSecret(token), expiresAt },
      });
      await insertFile(app.db, row);
      // Reserved first, then checked: two uploads at once cannot both slip under the quota.
      await reserveWithinQuota(row);
      reply.status(201);
      return envelope({ id, uploadUrl: `/api/file/upload/${id}?token=${token}`, fields: {}, fileField: PAGE_FILE_FIELDS.file, expiresAt });
    },
  );

  app.post(
    '/api/file/upload/:id',
    {
      ...PUBLIC_ROUTE,
      schema: {
        tags: ['files'],
        summary: 'Upload the file (multipart) to the URL from upload_url; 204 when stored',
        params: idParams,
        querystring: uploadQuery,
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw notMultipart();
      await loadFile(request.params.id);
      const file = await claimUpload(app.db, request.params.id, hashSecret(request.query.token));
      if (!file) throw new AppError(403, ERROR_CODES.uploadTokenInvalid, 'this upload URL is wrong, used or expired; ask for a new one');
      try {
        // Access may have changed since the URL was handed out.
        if (file.page_id !== null) await assertWritable(app.db, await authorizePageUpload(app.db, file.owner_id, file.page_id));
        const part = await request.file({ limits: { fileSize: file.size } });
        if (!part) throw invalid('the form holds no file');
        const size = await storeUpload(app.fileStore, file.storage_key, part.file, {
          contentType: file.mime_type,
          check: (head) => {
            if (file.is_public === 1 && !looksLikeImage(head, file.mime_type))
              throw new AppError(422, ERROR_CODES.notAnImage, `the file is not a ${file.mime_type} image`);
          },
        });
        await markFileReady(app.db, file.id, size);
      } catch (error) {
        // The URL was used up: a failed upload leaves no file behind.
        await removeFile(file);
        throw error instanceof UploadTooLargeError ? tooLarge(file.size) : error;
      }
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/file/page',
    {
      schema: {
        tags: ['files'],
        summary: `Upload a file to a page in one step (multipart: ${PAGE_FILE_FIELDS.pageId}, optional ${PAGE_FILE_FIELDS.id}, then ${PAGE_FILE_FIELDS.file})`,
      },
    },
    async (request) => {
      const user = requireUser(request);
      if (!request.isMultipart()) throw notMultipart();
      const fields: Record<string, string> = Object.create(null);
      let stored: FileRow | undefined;
      try {
        for await (const part of request.parts()) {
          assertStorablePart(part);
          if (part.type === 'field') {
            if (typeof part.value === 'string' && !(part.fieldname in fields)) fields[part.fieldname] = part.value;
            continue;
          }
          const { pageId, id } = parseWith(pageFileFields, { ...fields });
          const page = await authorizePageUpload(app.db, user.id, pageId);
          await assertWritable(app.db, page);
          const fileId = id ?? newId();
          if (await findFile(app.db, fileId)) throw fileExists();
          const mime = mimeTypeSchema.safeParse(part.mimetype);
          const row = newFileRow({
            id: fileId,
            ownerId: user.id,
            pageId: page.id,
            workspaceId: page.workspace_id,
            name: cleanFileName(part.filename) || 'file',
            mimeType: mime.success ? mime.data : UNKNOWN_MIME_TYPE,
            // Reserved for the quota until the bytes are counted: the request's size bounds the file's.
            size: Math.min(Number(request.headers['content-length']) || maxUploadBytes, maxUploadBytes),
            status: FILE_STATUS.uploading,
          });
          await insertFile(app.db, row).catch((error: unknown) => {
            throw isUniqueViolation(error) ? fileExists() : error;
          });
          await reserveWithinQuota(row);
          stored = row;
          const size = await storeUpload(app.fileStore, row.storage_key, part.file, { contentType: row.mime_type });
          await markFileReady(app.db, fileId, size);
        }
      } catch (error) {
        // All or nothing: a request that fails (a second file, a cut upload) keeps no file.
        if (stored) await removeFile(stored);
        throw error instanceof UploadTooLargeError ? tooLarge(maxUploadBytes) : error;
      }
      const storedId = stored?.id;
      if (storedId === undefined) throw invalid('the form holds no file');
      return envelope({ status: 'success', data: storedId });
    },
  );

  app.get(
    '/api/file/get/:id',
    { ...PUBLIC_ROUTE, schema: { tags: ['files'], summary: "A file's details and its protected link", params: idParams } },
    async (request) => {
      const file = await loadFile(request.params.id);
      await authorizeFileRead(app.db, request.user, file);
      return envelope(presentFile(file));
    },
  );

  app.route({
    ...BYTES_ROUTE,
    url: '/api/file/protected/:pageId/:fileId',
    schema: { tags: ['files'], summary: "A page file's bytes, whole or a range (needs read access to the page)", params: protectedParams },
    handler: async (request, reply) => {
      const file = await loadFile(request.params.fileId);
      if (file.page_id !== request.params.pageId) throw notFound('file');
      await authorizeFileRead(app.db, request.user, file);
      return serveFile(request, reply, file);
    },
  });

  app.route({
    ...BYTES_ROUTE,
    url: '/api/file/:id',
    schema: { tags: ['files'], summary: "A file's bytes, whole or a range (public files: anyone; page files: the page's readers)", params: idParams },
    handler: async (request, reply) => {
      const file = await loadFile(request.params.id);
      await authorizeFileRead(app.db, request.user, file);
      return serveFile(request, reply, file);
    },
  });
}
