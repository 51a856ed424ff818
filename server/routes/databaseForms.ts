import type { FastifyInstance, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FORM_LIMITS, submitFormBodySchema } from '../../schema/databaseForm';
import { CLIENT_ID_HEADER } from '../../schema/realtime';
import { rateLimited } from '../errors';
import { PUBLIC_ROUTE, requireUser } from '../plugins/auth';
import type { UserLimits } from '../config';
import { createLimit, userLimit } from '../plugins/rateLimit';
import { requestOrigin } from '../realtime/sockets';
import { envelope } from '../presenters';
import { openForm, presentForm, submitForm } from '../commands/databases/forms';

const HOUR_MS = 3_600_000;

/** A form's key in the limits: its database and view. */
const formKey = (request: FastifyRequest) => {
  const { id, viewId } = request.params as { id: string; viewId: string };
  return `${id}/${viewId}`;
};

/** Whose answers count together: an IPv4 address, or an IPv6 address's /64 (one household or host has a whole /64). */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
const formParams = z.object({ id: z.string().min(1).max(128), viewId: z.string().min(1).max(64) }).strict();

/**
 * Forms (docs/api/databases.md «Forms»): `GET database/{id}/form/{viewId}` reads a form view's
 * questions, `POST` the same answers it with a new row. Both open to anonymous callers, let in by
 * the form's access (server/commands/databases/forms.ts); an answer let in by the public link
 * alone is limited per address and per form.
 */
export async function databaseFormRoutes(server: FastifyInstance, { limits }: { limits: UserLimits }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  // A reader's or member's answers count as the row writes they are (docs/security.md «Request limits»).
  const rowBatchLimit = userLimit(app, 'rows', limits.rowBatchesPerMinute, 60_000, requireUser);
  const perAddress = createLimit(app, {
    name: 'form-address',
    max: FORM_LIMITS.publicPerAddressPerHour,
    windowMs: HOUR_MS,
    key: (request) => `${formKey(request)}:${addressKey(request.ip)}`,
    refusal: (retryAfter) => rateLimited(`too many answers from this address; try again in ${retryAfter} s`, { retryAfter }),
  });
  const perForm = createLimit(app, {
    name: 'form',
    max: FORM_LIMITS.publicPerFormPerHour,
    windowMs: HOUR_MS,
    key: formKey,
    refusal: (retryAfter) => rateLimited(`this form takes no more answers for now; try again in ${retryAfter} s`, { retryAfter }),
  });

  app.get(
    '/api/v3/spaces/database/:id/form/:viewId',
    { ...PUBLIC_ROUTE, schema: { tags: ['databases'], summary: "A form view's questions, for whoever its access lets in", params: formParams } },
    async (request) => envelope(presentForm(await openForm(app.db, request.user, request.params.id, request.params.viewId))),
  );

  app.post(
    '/api/v3/spaces/database/:id/form/:viewId',
    {
      ...PUBLIC_ROUTE,
      schema: { tags: ['databases'], summary: 'Answer a form: a new row of its database', params: formParams, body: submitFormBodySchema },
    },
    async (request, reply) => {
      const form = await openForm(app.db, request.user, request.params.id, request.params.viewId);
      // Counted once the answer is checked: a refused answer takes nothing of the limits.
      const { outcome, rowId } = await submitForm(app.db, request.user, form, request.body, async () => {
        if (form.anonymous) {
          await perAddress(request, reply);
          await perForm(request, reply);
        } else await rowBatchLimit(request, reply);
      });
      await app.events.dispatch(outcome.events, requestOrigin(request.headers[CLIENT_ID_HEADER]));
      reply.status(201);
      return envelope({ rowId });
    },
  );
}
