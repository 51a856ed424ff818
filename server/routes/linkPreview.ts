import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { linkPreviewBodySchema } from '../../schema/linkPreview';
import { linkPreview } from '../commands/links/preview';
import { requireUser } from '../plugins/auth';
import { userLimit } from '../plugins/rateLimit';
import { envelope } from '../presenters';

/** Previews a person may ask for in a minute (a kept one counts too): pasting links is far below it, a script is bounded. */
export const PREVIEWS_PER_MINUTE = 30;

/**
 * Link previews for bookmarks (issue 39 §2, docs/api/blocks.md «Link previews»): the server
 * reads a page's title, description, icon and picture for a signed-in person, safely
 * (docs/security.md «Fetching links»), and keeps them a day. Nothing is stored in a page here:
 * the web app writes the preview into the bookmark block it made.
 */
export async function linkPreviewRoutes(server: FastifyInstance, options: { allowPrivate: boolean }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const limit = userLimit(app, 'link preview', PREVIEWS_PER_MINUTE, 60_000, requireUser);
  // LINK_PREVIEW_ALLOW_PRIVATE (tests, a server whose links all point inside its network): any address.
  const fetchOptions = options.allowPrivate ? { allow: () => true } : {};

  app.post(
    '/api/v3/spaces/link/preview',
    {
      schema: { tags: ['blocks'], summary: "A link's title, description, icon and picture, read by the server (for a bookmark)", body: linkPreviewBodySchema },
    },
    async (request, reply) => {
      requireUser(request);
      await limit(request, reply);
      return envelope(await linkPreview(app.db, request.body.url, { fetchOptions, fresh: request.body.fresh === true }));
    },
  );
}
