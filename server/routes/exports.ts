import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '../../schema/params';
import { jsonQuery } from '../../schema/query';
import type { Config } from '../config';
import { contentDispositionOf } from '../disposition';
import { requireUser } from '../plugins/auth';
import { concurrencyCap, userLimit } from '../plugins/rateLimit';
import { authorizePage } from '../policies/page';
import { loadPage } from '../repositories/pages';
import { EXPORT_FORMATS, exportZip, fileName, pagesToExport } from '../export/pageExport';
import { ImportError } from '../export/archive';
import { readImport, type ImportReading } from '../export/importRead';
import { AppError, forbidden, invalid, invalidField, notFound } from '../errors';
import { findMembership } from '../repositories/workspaces';
import { ERROR_CODES } from '../../schema/errors';
import { assertStorablePart } from '../plugins/textInput';
import { presentElement, envelope } from '../presenters';
import { startExportBodySchema } from '../../schema/exportJob';
import { findExportJob, listRecentExportJobs, presentExportJob } from '../export/exportJobs';
import { importAt, importPlace, startExport } from '../commands/export/exports';
import { openStored, sendStored, STORED_BYTES_ROUTE } from '../files/serve';

/**
 * Export (issue 18, docs/import-export.md): `GET element/{id}/export` — the page (with
 * `subpages`, its subpages the caller may read) as a zip of Markdown, HTML or our JSON, with the
 * files its blocks show. Streamed: a big page starts downloading at once.
 */
export async function exportRoutes(server: FastifyInstance, { config }: { config: Config }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  // An import's upload: a few fields, one file within the upload limit.
  await app.register(multipart, { limits: { fields: 5, fieldSize: 256, files: 1, parts: 10, fileSize: Math.min(config.uploadLimitBytes, 2_147_483_647) } });
  // Per user (docs/security.md «Request limits»): exports started (jobs and streamed zips together)
  // and imports, counted for all processes together; imports also at most a few at once.
  const limits = config.userLimits;
  const exportLimit = userLimit(app, 'export', limits.exportsPer10Min, 10 * 60_000, requireUser);
  const importLimit = userLimit(app, 'import', limits.importsPer10Min, 10 * 60_000, requireUser);
  const importsAtOnce = concurrencyCap(limits.importsAtOnce, 5, limits.importsAtOnceTotal);

  /**
   * Export jobs (docs/import-export.md «Export jobs»): `POST exports` queues a page's export (with
   * its subpages) or a whole workspace's; a server process writes the zip in the background; the
   * starter follows it (`GET exports/{id}`), finds it again (`GET exports?workspaceId=`) and
   * downloads it once done — theirs alone.
   */
  app.post(
    '/api/v3/spaces/exports',
    { schema: { tags: ['export'], summary: 'Start an export of a page or a whole workspace in the background', body: startExportBodySchema } },
    async (request, reply) => {
      const user = requireUser(request);
      // A workspace token's reach ends with its request: a job runs later, out of it (docs/api/auth.md «Workspace tokens»).
      if (request.tokenLimits?.workspaceId)
        throw new AppError(403, ERROR_CODES.tokenNotAllowed, 'a workspace token does not start export jobs: export a page with GET element/{id}/export');
      await exportLimit(request, reply);
      const job = await startExport(app.db, user.id, request.body);
      reply.status(202);
      return envelope(presentExportJob(job));
    },
  );

  app.get(
    '/api/v3/spaces/exports',
    {
      schema: {
        tags: ['export'],
        summary: "The caller's recent exports in a workspace, newest first",
        querystring: jsonQuery({ workspaceId: z.string().min(1).max(128) }),
      },
    },
    async (request) => {
      const user = requireUser(request);
      if (!(await findMembership(app.db, request.query.workspaceId, user.id))) throw forbidden('this workspace');
      const jobs = await listRecentExportJobs(app.db, user.id, request.query.workspaceId, 10);
      return envelope(jobs.map(presentExportJob));
    },
  );

  /**
   * The caller's own job in a workspace they are (still) a member of — for a workspace token's
   * request, its workspace — else not found: another's existence is not theirs to know.
   */
  const ownJob = async (userId: string, id: string) => {
    const job = await findExportJob(app.db, id);
    if (!job || job.user_id !== userId || !(await findMembership(app.db, job.workspace_id, userId))) throw notFound('export');
    return job;
  };

  app.get('/api/v3/spaces/exports/:id', { schema: { tags: ['export'], summary: 'An export: its status and progress', params: idParams } }, async (request) =>
    envelope(presentExportJob(await ownJob(requireUser(request).id, request.params.id))),
  );

  app.route({
    ...STORED_BYTES_ROUTE,
    url: '/api/v3/spaces/exports/:id/download',
    schema: { tags: ['export'], summary: "A finished export's zip, whole or a range (an interrupted download resumes)", params: idParams },
    handler: async (request, reply) => {
      const job = await ownJob(requireUser(request).id, request.params.id);
      if (job.status !== 'done' || !job.storage_key || job.size === null)
        throw new AppError(409, ERROR_CODES.exportNotReady, job.status === 'failed' ? 'the export failed' : 'the export is not finished yet');
      const bytes = await openStored(request, reply, app.fileStore, { key: job.storage_key, size: Number(job.size), etag: `"${job.id}"` });
      reply
        .header('content-type', 'application/zip')
        .header('content-disposition', contentDispositionOf(`${job.title}.zip`))
        .header('cache-control', 'no-store');
      return sendStored(reply, bytes);
    },
  });

  app.get(
    '/api/v3/spaces/element/:id/export',
    {
      schema: {
        tags: ['export'],
        summary: 'A page (and its readable subpages) as a zip of Markdown, HTML or JSON, with its files',
        params: idParams,
        querystring: jsonQuery({ format: z.enum(EXPORT_FORMATS).optional(), subpages: z.boolean().optional(), comments: z.boolean().optional() }),
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const page = await loadPage(app.db, request.params.id);
      await authorizePage(app.db, user.id, page, 'read');
      await exportLimit(request, reply);
      const format = request.query.format ?? 'markdown';
      const pages = await pagesToExport(app.db, user.id, page, request.query.subpages ?? false);
      reply
        .header('content-type', 'application/zip')
        .header('content-disposition', contentDispositionOf(`${fileName(page.title, 'Без названия')}.zip`))
        .header('cache-control', 'no-store');
      const stream = exportZip(app.db, app.fileStore, pages, {
        format,
        untitled: 'Без названия',
        comments: request.query.comments ?? false,
        viewerId: user.id,
      });
      stream.on('error', (error) => request.log.error({ err: error }, 'export failed half-way'));
      return reply.send(stream);
    },
  );

  /**
   * Import (docs/import-export.md «Importing»): multipart — `parentId` (a page to put it under) or
   * `section` (private or all, of the X-Workspace-Id workspace), then `file`: our JSON export (its
   * zip, or export.json), a Notion «Markdown & CSV» export, a zip of Markdown or HTML files, or one
   * `.md` or `.html`. 201 with what was made and the problems met; 422 when the file is none of
   * those (or its zips unpack beyond ARCHIVE_LIMITS).
   */
  app.post(
    '/api/v3/spaces/import',
    {
      schema: {
        tags: ['export'],
        summary: 'Import our JSON export, a Notion Markdown & CSV export, Markdown or HTML files (a zip or one .md/.html) under a page or into a section',
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      // The rate counts an import that runs, not one the cap on imports at once refused.
      return importsAtOnce(user.id, reply, async () => {
        await importLimit(request, reply);
        if (!request.isMultipart()) throw new AppError(415, ERROR_CODES.validationFailed, 'send the file as multipart/form-data');
        const fields: Record<string, string> = Object.create(null);
        let bytes: Buffer | null = null;
        let uploadName = '';
        for await (const part of request.parts()) {
          assertStorablePart(part);
          if (part.type === 'field') {
            if (typeof part.value === 'string') fields[part.fieldname] = part.value;
            continue;
          }
          bytes = await part.toBuffer();
          uploadName = part.filename;
        }
        if (!bytes) throw invalid('the form holds no file', [{ path: 'file', message: 'required' }]);
        const parentId = fields.parentId || null;
        const section = fields.section === 'all' || fields.section === 'private' ? fields.section : null;
        const wanted = request.headers['x-workspace-id'];
        const place = await importPlace(app.db, user.id, { parentId, section, workspaceId: typeof wanted === 'string' && wanted ? wanted : undefined });
        // Read once the caller may import here, in a worker thread: its zips are unpacked, its files parsed (HTML in a DOM).
        // The worker is ended if the sender goes away before the answer (nobody would get it).
        const gone = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableEnded) gone.abort();
        });
        let read: ImportReading;
        try {
          read = await readImport(bytes, uploadName, { signal: gone.signal });
        } catch (error) {
          if (error instanceof ImportError && error.tooBig) throw new AppError(422, ERROR_CODES.importTooBig, error.message);
          if (error instanceof ImportError) throw invalidField(error.message, 'file');
          throw error;
        }
        const report = await importAt(app.db, user.id, place, read, { store: app.fileStore, quotaBytes: config.storageQuotaBytes });
        report.problems.unshift(...read.problems);
        await app.events.dispatch(report.events, null);
        const { root } = report;
        reply.status(201);
        return envelope({
          page: root ? presentElement(root, 'full') : null,
          pages: report.pages.length,
          blocks: report.blocks,
          files: report.files,
          problems: report.problems,
        });
      });
    },
  );
}
