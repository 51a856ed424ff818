import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '../../schema/params';
import { copyTemplateBodySchema } from '../../schema/template';
import { requireUser } from '../plugins/auth';
import { envelope, presentElement } from '../presenters';
import { copyTemplateInto } from '../commands/templates/copy';
import { presentTemplate, TEMPLATE_DEFAULTS, TEMPLATES } from '../templates';

/**
 * Page templates (server/templates/): the list the start-workspace wizard offers, and copying
 * one into a workspace as a new page tree. See docs/api/templates.md.
 */
export async function templateRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();

  app.get('/api/templates', { schema: { tags: ['templates'], summary: 'The page templates (no content) and the default one per set' } }, async (request) => {
    requireUser(request);
    const list = TEMPLATES.map(presentTemplate);
    return envelope(list, { count: list.length, hasMoreNext: false, defaults: TEMPLATE_DEFAULTS });
  });

  app.post(
    '/api/templates/:id/copy',
    {
      schema: {
        tags: ['templates'],
        summary: 'Copy a template into a section of a workspace (pages and blocks)',
        params: idParams,
        body: copyTemplateBodySchema,
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { root, count, events } = await copyTemplateInto(app.db, user.id, request.params.id, request.body);
      await app.events.dispatch(events, null);
      reply.status(201);
      return envelope(presentElement(root, 'full', false), { copiedPages: count });
    },
  );
}
