import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';

/** The messenger bot webhook (enabled by TELEGRAM_BOT_TOKEN): routes arrive with issue 3. */
export async function telegramRoutes(server: FastifyInstance, { config }: { config: Config }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  void app;
  void config;
}
