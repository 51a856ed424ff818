import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FORM_LIMITS, submitFormBodySchema } from '../../schema/databaseForm';
import { CLIENT_ID_HEADER } from '../../schema/realtime';
import { rateLimited } from '../errors';
import { PUBLIC_ROUTE } from '../plugins/auth';
import { createLimit } from '../plugins/rateLimit';
import { requestOrigin } from '../realtime/sockets';
import { envelope } from '../presenters';
import { openForm, presentForm, submitForm } from '../commands/databases/forms';

const HOUR_MS = 3_600_000;
const formParams = z.object({ viewId: z.string().min(1).max(64) }).strict();

/**
 * Forms (docs/api/databases.md «Forms»): `GET database/form/{viewId}` reads a form view's
 * questions, `POST` the same answers it with a new row. Both open to anonymous callers, let in by
 * the form's access (server/commands/databases/forms.ts); an answer let in by the public link
 * alone is limited per address and per form.
 */
export async function databaseFormRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const perAddress = createLimit(app, {
    name: 'form-address',
    max: FORM_LIMITS.publicPerAddressPerHour,
    windowMs: HOUR_MS,
    key: (request) => `${(request.params as { viewId: string }).viewId}:${request.ip}`,
    refusal: (retryAfter) => rateLimited(`too many answers from this address; try again in ${retryAfter} s`, { retryAfter }),
  });
  const perForm = createLimit(app, {
    name: 'form',
    max: FORM_LIMITS.publicPerFormPerHour,
    windowMs: HOUR_MS,
    key: (request) => (request.params as { viewId: string }).viewId,
    refusal: (retryAfter) => rateLimited(`this form takes no more answers for now; try again in ${retryAfter} s`, { retryAfter }),
  });

  app.get(
    '/api/v3/spaces/database/form/:viewId',
    { ...PUBLIC_ROUTE, schema: { tags: ['databases'], summary: "A form view's questions, for whoever its access lets in", params: formParams } },
    async (request) => envelope(presentForm(await openForm(app.db, request.user, request.params.viewId))),
  );

  app.post(
    '/api/v3/spaces/database/form/:viewId',
    {
      ...PUBLIC_ROUTE,
      schema: { tags: ['databases'], summary: 'Answer a form: a new row of its database', params: formParams, body: submitFormBodySchema },
    },
    async (request, reply) => {
      const form = await openForm(app.db, request.user, request.params.viewId);
      if (form.anonymous) {
        await perAddress(request, reply);
        await perForm(request, reply);
      }
      const { outcome, rowId } = await submitForm(app.db, request.user, form, request.body);
      await app.events.dispatch(outcome.events, requestOrigin(request.headers[CLIENT_ID_HEADER]));
      reply.status(201);
      return envelope({ rowId });
    },
  );
}
