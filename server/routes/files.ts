import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';

/** files: routes arrive with issue 3. */
export async function filesRoutes(server: FastifyInstance, { config }: { config: Config }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  void app;
  void config;
}
