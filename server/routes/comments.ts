import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** comments: routes arrive with issue 3. */
export async function commentsRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  void app;
}
