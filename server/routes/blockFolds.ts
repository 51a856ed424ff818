import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { blockFoldBodySchema, type WirePageFolds } from '../../schema/blockFolds';
import { idParams } from '../../schema/params';
import { setBlockFold } from '../commands/blocks/fold';
import { requireUser } from '../plugins/auth';
import { userLimit } from '../plugins/rateLimit';
import { authorizePage } from '../policies/page';
import { envelope } from '../presenters';
import { listOpenFolds } from '../repositories/blockFolds';
import { loadPage } from '../repositories/pages';

/** Folds a person may set in a minute, for all processes together: far above clicking, a bound on a script. */
export const FOLDS_PER_MINUTE = 600;

/**
 * Toggle folds per person (issue 39, docs/api/blocks.md «Toggle folds (per person)»): which
 * toggle blocks the caller has open, remembered by the server so it follows them to another
 * browser. Nothing stored is folded. Who may call: whoever may read the page (as `GET
 * note/{id}/blocks` and `GET block/{id}`); a read-only token is refused the PUT as any write.
 */
export async function blockFoldRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const foldLimit = userLimit(app, 'folds', FOLDS_PER_MINUTE, 60_000, requireUser);

  app.get(
    '/api/v3/spaces/note/:id/folds',
    { schema: { tags: ['blocks'], summary: "The ids of the page's toggle blocks the caller has open (the others are folded)", params: idParams } },
    async (request) => {
      const user = requireUser(request);
      const page = await loadPage(app.db, request.params.id);
      await authorizePage(app.db, user.id, page, 'read');
      const folds: WirePageFolds = { open: await listOpenFolds(app.db, user.id, page.id) };
      return envelope(folds);
    },
  );

  app.put(
    '/api/v3/spaces/block/:id/fold',
    {
      schema: {
        tags: ['blocks'],
        summary: 'Open or fold a toggle block for the caller alone (reading its page is enough)',
        params: idParams,
        body: blockFoldBodySchema,
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await foldLimit(request, reply);
      return envelope(await setBlockFold(app.db, user.id, request.params.id, request.body.open));
    },
  );
}
