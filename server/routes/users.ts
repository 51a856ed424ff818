import type { FastifyInstance } from 'fastify';
import { requireUser } from '../plugins/auth';
import { envelope, presentUser } from '../presenters';

export async function userRoutes(app: FastifyInstance) {
  app.get('/api/user/current', async (request) => envelope(presentUser(requireUser(request))));
}
