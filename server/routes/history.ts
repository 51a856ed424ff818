import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WireVersionBlock, WireVersionContent } from '../../schema/history';
import { idParams } from '../../schema/params';
import { jsonQuery } from '../../schema/query';
import { requireUser } from '../plugins/auth';
import { authorizePage } from '../policies/page';
import { envelope } from '../presenters';
import { loadPage } from '../repositories/pages';
import { presentVersions, versionsById, type VersionAnnouncer } from '../history/announcements';
import { blocksAt, findVersion, listVersions, versionChanges, type VersionBlock } from '../history/versions';
import { restoreVersion } from '../commands/history/restore';
import { recordPageNow } from '../commands/history/record';

const versionParams = z.object({ id: z.string().min(1).max(128), versionId: z.coerce.number().int().min(1) });

/** A version's block on the wire. */
const wireBlock = (b: VersionBlock): WireVersionBlock => ({ id: b.id, type: b.type, data: b.data as Record<string, unknown>, parentId: b.parentId });

/**
 * Page history (issue 18, docs/history.md): the versions of a page (readers), one version's page
 * and what it changed, and a restore (editors) — itself recorded as a version, so it can be undone
 * by restoring the version before it. The process's historian (server/workers/) records versions as people edit.
 */
export async function historyRoutes(server: FastifyInstance, { announcer }: { announcer: VersionAnnouncer }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const { announce, announcing } = announcer;

  app.get(
    '/api/v3/spaces/element/:id/versions',
    {
      schema: {
        tags: ['history'],
        summary: "A page's versions, newest first (readers)",
        params: idParams,
        querystring: jsonQuery({ limit: z.number().int().min(1).max(200).optional(), before: z.number().int().min(1).optional() }),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const page = await loadPage(app.db, request.params.id);
      await authorizePage(app.db, user.id, page, 'read');
      const limit = request.query.limit ?? 50;
      const rows = await listVersions(app.db, page.id, limit + 1, request.query.before);
      const versions = await presentVersions(app.db, rows.slice(0, limit));
      return envelope(versions, { hasMoreNext: rows.length > limit });
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/versions',
    {
      schema: {
        tags: ['history'],
        summary: "Record the page as it is now, if it changed since its last version (the history panel opens on today's page; readers)",
        params: idParams,
      },
    },
    async (request) => {
      const user = requireUser(request);
      const pageId = request.params.id;
      return announcing(pageId, async (take) => {
        const id = await recordPageNow(app.db, user.id, pageId, take);
        const [version = null] = await versionsById(app.db, [id]);
        if (version) await announce(take(), pageId, async () => [version]);
        return envelope({ recorded: version });
      });
    },
  );

  app.get(
    '/api/v3/spaces/element/:id/versions/:versionId',
    { schema: { tags: ['history'], summary: 'A page as a version left it, and what the version changed (readers)', params: versionParams } },
    async (request) => {
      const user = requireUser(request);
      const page = await loadPage(app.db, request.params.id);
      await authorizePage(app.db, user.id, page, 'read');
      const row = await findVersion(app.db, page.id, request.params.versionId);
      const [version] = await presentVersions(app.db, [row]);
      const blocks = await blocksAt(app.db, page.id, version.id);
      const changes = (await versionChanges(app.db, page.id, version.id)).map((c) => ({
        blockId: c.blockId,
        kind: c.kind,
        before: c.before ? wireBlock({ id: c.blockId, ...c.before }) : null,
      }));
      const content: WireVersionContent = { version, blocks: blocks.map(wireBlock), changes };
      return envelope(content);
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/versions/:versionId/restore',
    { schema: { tags: ['history'], summary: 'Bring a page back to a version (editors); recorded as a new version', params: versionParams } },
    async (request) => {
      const user = requireUser(request);
      return announcing(request.params.id, async (take) => {
        const result = await restoreVersion(app.db, user.id, request.params.id, request.params.versionId, take);
        const { page } = result;
        // Told to every connection, the restorer's too: its editor did not make the change.
        await app.events.dispatch(result.events, null);
        // The page before the restore (if it was not recorded yet), then the restore.
        const recorded = await versionsById(app.db, [result.before, result.restored]);
        await announce(take(), page.id, async () => recorded);
        const restored = recorded[recorded.length - 1];
        return envelope({ version: restored, edited: result.edited.length, added: result.added.length, removed: result.removed.length });
      });
    },
  );
}
