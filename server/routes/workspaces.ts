import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Mailer } from '../mail';
import { requireUser } from '../plugins/auth';
import { envelope, presentWorkspace } from '../presenters';
import { listUserWorkspaces } from '../repositories/workspaces';

export async function workspaceRoutes(app: FastifyInstance, { config, mailer }: { config: Config; mailer: Mailer }) {
  void config;
  void mailer;
  app.get('/api/v3/spaces/workspace', { schema: { tags: ['workspaces'], summary: 'Workspaces of the signed-in user' } }, async (request) => {
    const user = requireUser(request);
    const workspaces = (await listUserWorkspaces(app.db, user.id)).map(presentWorkspace);
    return envelope(workspaces, { count: workspaces.length, hasMoreNext: false });
  });
}
