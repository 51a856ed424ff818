import type { FastifyInstance } from 'fastify';
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

/**
 * Export (issue 18, docs/import-export.md): `GET element/{id}/export` — the page (with
 * `subpages`, its subpages the caller may read) as a zip of Markdown, HTML or our JSON, with the
 * files its blocks show. Streamed: a big page starts downloading at once.
 */
export async function exportRoutes(server: FastifyInstance, { config }: { config: Config }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
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
}
