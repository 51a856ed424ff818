import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { requireUser } from '../plugins/auth';
import { envelope, presentUser } from '../presenters';

export async function userRoutes(app: FastifyInstance, { config }: { config: Config }) {
  void config;
  app.get('/api/user/current', { schema: { tags: ['users'], summary: 'The signed-in user' } }, async (request) => envelope(presentUser(requireUser(request))));
}
