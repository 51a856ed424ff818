import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** notifications: routes arrive with issue 3. */
export async function notificationsRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  void app;
}
