import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../schema/params';
import { createWebhookBodySchema, updateWebhookBodySchema } from '../../schema/webhook';
import { requireUser } from '../plugins/auth';
import { envelope } from '../presenters';
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook, webhookDeliveries } from '../webhooks/manage';

/** A workspace's outgoing webhooks, for its admins (docs/api/webhooks.md). */
export async function webhookRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const hookParams = idParams.extend({ webhookId: z.string().min(1).max(64) });

  app.get(
    '/api/v3/spaces/workspace/:id/webhooks',
    { schema: { tags: ['webhooks'], summary: "The workspace's webhooks (admins)", params: idParams } },
    async (request) => envelope(await listWebhooks(app.db, requireUser(request).id, request.params.id)),
  );
  app.post(
    '/api/v3/spaces/workspace/:id/webhooks',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Make a webhook: a public http(s) URL and the events it hears; its signing secret is in this answer only (admins)',
        params: idParams,
        body: createWebhookBodySchema,
      },
    },
    async (request, reply) => {
      reply.code(201);
      return envelope(await createWebhook(app.db, requireUser(request).id, request.params.id, request.body));
    },
  );
  app.post(
    '/api/v3/spaces/workspace/:id/webhooks/:webhookId',
    { schema: { tags: ['webhooks'], summary: 'Turn a webhook off or on, or change its events (admins)', params: hookParams, body: updateWebhookBodySchema } },
    async (request) => envelope(await updateWebhook(app.db, requireUser(request).id, request.params.id, request.params.webhookId, request.body)),
  );
  app.delete(
    '/api/v3/spaces/workspace/:id/webhooks/:webhookId',
    { schema: { tags: ['webhooks'], summary: 'Delete a webhook and its log (admins)', params: hookParams } },
    async (request) => {
      await deleteWebhook(app.db, requireUser(request).id, request.params.id, request.params.webhookId);
      return envelope({ id: request.params.webhookId, status: 'success' });
    },
  );
  app.get(
    '/api/v3/spaces/workspace/:id/webhooks/:webhookId/deliveries',
    { schema: { tags: ['webhooks'], summary: "A webhook's delivery log: its last 100 deliveries, newest first (admins)", params: hookParams } },
    async (request) => envelope(await webhookDeliveries(app.db, requireUser(request).id, request.params.id, request.params.webhookId)),
  );
}
