import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '../../schema/params';
import { copyTemplateBodySchema } from '../../schema/template';
import { lockTree } from '../db/locks';
import { forbidden, notFound } from '../errors';
import { requireUser } from '../plugins/auth';
import { canCreateInSection } from '../../schema/policies/workspace';
import { envelope, presentElement } from '../presenters';
import { findMembership } from '../repositories/workspaces';
import { copyTemplate } from '../templates/copy';
import { findTemplate, presentTemplate, TEMPLATE_DEFAULTS, TEMPLATES } from '../templates';

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
      const template = findTemplate(request.params.id);
      if (!template) throw notFound('template');
      const { workspaceId, section } = request.body;
      const { root, count } = await app.db.transaction().execute(async (trx) => {
        await lockTree(trx, workspaceId);
        // The caller's role is read inside the tree lock, as a page create in that section checks it.
        const workspace = await findMembership(trx, workspaceId, user.id);
        if (!workspace) throw forbidden('this workspace');
        if (!canCreateInSection(workspace.role, section, workspace.is_private === 1)) throw forbidden('creating pages in this section');
        const copy = await copyTemplate(trx, { template, workspaceId: workspace.id, section, userId: user.id });
        return { root: copy.root, count: copy.pages.length };
      });
      app.realtime.childrenChanged([root.parent_id], root.workspace_id, root.id);
      reply.status(201);
      return envelope(presentElement(root, 'full', false), { copiedPages: count });
    },
  );
}
