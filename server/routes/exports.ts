import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '../../schema/params';
import { jsonQuery } from '../../schema/query';
import type { Config } from '../config';
import { notFound } from '../errors';
import { requireUser } from '../plugins/auth';
import { authorizePage } from '../policies/page';
import { findPage } from '../repositories/pages';
import { EXPORT_FORMATS, exportZip, fileName, pagesToExport } from '../export/pageExport';
import { importExport, ImportError, readExport } from '../export/jsonImport';
import { lockTree } from '../db/locks';
import { AppError, forbidden } from '../errors';
import { ERROR_CODES } from '../../schema/errors';
import { canCreateInSection } from '../policies/workspace';
import { findMembership, listUserWorkspaces } from '../repositories/workspaces';
import { presentElement, envelope } from '../presenters';

/**
 * Export (issue 18, docs/import-export.md): `GET element/{id}/export` — the page (with
 * `subpages`, its subpages the caller may read) as a zip of Markdown, HTML or our JSON, with the
 * files its blocks show. Streamed: a big page starts downloading at once.
 */
export async function exportRoutes(server: FastifyInstance, { config }: { config: Config }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  // An import's upload: a few fields, one file within the upload limit.
  await app.register(multipart, { limits: { fields: 5, fieldSize: 256, files: 1, parts: 10, fileSize: Math.min(config.uploadLimitBytes, 2_147_483_647) } });
  app.get('/api/v3/spaces/element/:id/export', { schema: { tags: ['export'], summary: 'A page (and its readable subpages) as a zip of Markdown, HTML or JSON, with its files', params: idParams, querystring: jsonQuery({ format: z.enum(EXPORT_FORMATS).optional(), subpages: z.boolean().optional() }) } }, async (request, reply) => {
    const user = requireUser(request);
    const page = await findPage(app.db, request.params.id);
    if (!page) throw notFound('page');
    await authorizePage(app.db, user.id, page, 'read');
    const format = request.query.format ?? 'markdown';
    const pages = await pagesToExport(app.db, user.id, page, request.query.subpages ?? false);
    const name = `${fileName(page.title, 'Без названия')}.zip`;
    reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="export.zip"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('cache-control', 'no-store');
    const stream = exportZip(app.db, config.filesDir, pages, format, 'Без названия');
    stream.on('error', (error) => request.log.error({ err: error }, 'export failed half-way'));
    return reply.send(stream);
  });

  /**
   * Import (docs/import-export.md «Importing»): multipart — `parentId` (a page to put it under) or
   * `section` (private or all, of the X-Workspace-Id workspace), then `file`: our JSON export (its
   * zip, or export.json), a Notion «Markdown & CSV» export, a zip of Markdown files, or one `.md`.
   * 201 with what was made and the problems met; 422 when the file is none of those (or its zips
   * unpack beyond ARCHIVE_LIMITS).
   */
  app.post('/api/v3/spaces/import', { schema: { tags: ['export'], summary: 'Import our JSON export, a Notion Markdown & CSV export, Markdown files (a zip or one .md) under a page or into a section' } }, async (request, reply) => {
    const user = requireUser(request);
    if (!request.isMultipart()) throw new AppError(415, ERROR_CODES.validationFailed, 'send the file as multipart/form-data');
    const fields: Record<string, string> = Object.create(null);
    let bytes: Buffer | null = null;
    let uploadName = '';
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      bytes = await part.toBuffer();
      uploadName = part.filename;
    }
    if (!bytes) throw new AppError(422, ERROR_CODES.validationFailed, 'the form holds no file', [{ path: 'file', message: 'required' }]);
    const parentId = fields.parentId || null;
    const section = fields.section === 'all' || fields.section === 'private' ? fields.section : null;
    let workspaceId: string;
    let parent = null;
    if (parentId) {
      parent = await findPage(app.db, parentId);
      if (!parent) throw notFound('page');
      await authorizePage(app.db, user.id, parent, 'edit');
      if (parent.in_trash) throw new AppError(422, ERROR_CODES.pageInTrash, 'the page is in the trash');
      workspaceId = parent.workspace_id;
    } else {
      const wanted = request.headers['x-workspace-id'];
      const workspace = typeof wanted === 'string' && wanted ? await findMembership(app.db, wanted, user.id) : (await listUserWorkspaces(app.db, user.id))[0];
      if (!workspace) throw forbidden('this workspace');
      if (!canCreateInSection(workspace.role, section ?? 'private', workspace.is_private === 1)) throw forbidden('creating pages in this section');
      workspaceId = workspace.id;
    }
    // Read only for whoever may import there (a Notion export's zips are unpacked here).
    let read: ReturnType<typeof readExport>;
    try {
      read = readExport(new Uint8Array(bytes), uploadName);
    } catch (error) {
      if (error instanceof ImportError) throw new AppError(422, ERROR_CODES.validationFailed, error.message, [{ path: 'file', message: error.message }]);
      throw error;
    }
    const report = await app.db.transaction().execute(async (trx) => {
      await lockTree(trx, workspaceId);
      const under = parent ? await findPage(trx, parent.id) : null;
      return importExport(trx, { document: read.document, files: read.files, workspaceId, parent: under ?? null, section: parent ? null : (section ?? 'private'), userId: user.id, filesDir: config.filesDir });
    });
    report.problems.unshift(...read.problems);
    const first = report.pages[0];
    if (first) app.realtime.childrenChanged([parent?.id ?? null], workspaceId, first.id);
    const root = first ? await findPage(app.db, first.id) : undefined;
    reply.status(201);
    return envelope({ page: root ? presentElement(root, 'full') : null, pages: report.pages.length, blocks: report.blocks, files: report.files, problems: report.problems });
  });
}
