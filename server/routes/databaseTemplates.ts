import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createTemplateBodySchema, defaultTemplateBodySchema } from '../../schema/database';
import { CLIENT_ID_HEADER } from '../../schema/realtime';
import { requireUser } from '../plugins/auth';
import { requestOrigin } from '../realtime/sockets';
import { envelope } from '../presenters';
import { createTemplate, deleteTemplate, listTemplates, setDefaultTemplate } from '../commands/databases/templates';
import type { Changer } from '../commands/databases/structure';
import { removeStoredFiles } from '../files/store';

const databaseParams = z.object({ id: z.string().min(1).max(128) }).strict();
const templateParams = databaseParams.extend({ templateId: z.string().min(1).max(128) });

/**
 * A database's row templates (docs/api/databases.md «Row templates»): listed by its readers,
 * made, made the default and deleted by its editors. A template is changed on its page (`/{id}`)
 * as a row is; a row starts from one with `templateId` on `POST database/{id}/rows`.
 */
export async function databaseTemplateRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const changerOf = (request: FastifyRequest): Changer => ({ userId: requireUser(request).id, origin: requestOrigin(request.headers[CLIENT_ID_HEADER]) });

  app.get(
    '/api/v3/spaces/database/:id/templates',
    { schema: { tags: ['databases'], summary: "A database's row templates in their order, the default marked", params: databaseParams } },
    async (request) => envelope(await listTemplates(app.db, requireUser(request).id, request.params.id)),
  );

  app.post(
    '/api/v3/spaces/database/:id/templates',
    {
      schema: {
        tags: ['databases'],
        summary: 'Make a row template with a title, icon and values; its content is written on its page',
        params: databaseParams,
        body: createTemplateBodySchema,
      },
    },
    async (request, reply) => {
      reply.status(201);
      return envelope(await createTemplate(app.db, requireUser(request).id, request.params.id, request.body));
    },
  );

  app.post(
    '/api/v3/spaces/database/:id/templates/default',
    {
      schema: {
        tags: ['databases'],
        summary: 'The row template «Новая строка» starts from (null: none)',
        params: databaseParams,
        body: defaultTemplateBodySchema,
      },
    },
    async (request) => {
      const { block, events } = await setDefaultTemplate(app.db, changerOf(request), request.params.id, request.body.templateId);
      await app.events.dispatch(events, changerOf(request).origin);
      return envelope(block);
    },
  );

  app.delete(
    '/api/v3/spaces/database/:id/templates/:templateId',
    { schema: { tags: ['databases'], summary: 'Delete a row template for good (rows made from it keep what they took)', params: templateParams } },
    async (request) => {
      const changer = changerOf(request);
      const { events, storageKeys } = await deleteTemplate(app.db, changer, request.params.id, request.params.templateId);
      await removeStoredFiles(app.fileStore, storageKeys, request.log);
      await app.events.dispatch(events, changer.origin);
      return envelope({ id: request.params.templateId, status: 'success' });
    },
  );
}
