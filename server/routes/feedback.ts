import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Mailer } from '../mail';

/** feedback: routes arrive with issue 3. */
export async function feedbackRoutes(server: FastifyInstance, { config, mailer }: { config: Config; mailer: Mailer }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  void app;
  void config;
  void mailer;
}
