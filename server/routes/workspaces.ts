import type { FastifyInstance } from 'fastify';
import { requireUser } from '../plugins/auth';
import { envelope, presentWorkspace } from '../presenters';
import { listUserWorkspaces } from '../repositories/workspaces';

export async function workspaceRoutes(app: FastifyInstance) {
  app.get('/api/v3/spaces/workspace', async (request) => {
    const user = requireUser(request);
    const workspaces = (await listUserWorkspaces(app.db, user.id)).map(presentWorkspace);
    return envelope(workspaces, { count: workspaces.length, hasMoreNext: false });
  });
}
