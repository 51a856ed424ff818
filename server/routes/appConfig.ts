import type { FastifyInstance } from 'fastify';
import type { AiInstallation } from '../../schema/ai';
import type { Config } from '../config';
import { envelope } from '../presenters';
import { PUBLIC_ROUTE } from '../plugins/auth';

/** GET /api/config: what the web app needs to know about this installation, for anyone. */
export async function appConfigRoutes(app: FastifyInstance, { config }: { config: Config }) {
  // The service worker is registered only on the installation's own host (PUBLIC_URL's).
  const defaultHost = new URL(config.publicUrl).host;
  app.get(
    '/api/config',
    {
      ...PUBLIC_ROUTE,
      schema: {
        tags: ['config'],
        summary:
          'Links shown by the web app (help, privacy, terms, docs, templates), the default host, what the AI assistant can do, whether there is a messenger bot, and the time zone of formulas',
      },
    },
    async () =>
      envelope({
        links: config.links,
        defaultHost,
        ai: { model: Boolean(config.ai.baseUrl), timeoutMs: config.ai.timeoutMs } satisfies AiInstallation,
        // Whether this server has a messenger bot to link accounts with (the app offers it only then).
        messenger: { bot: Boolean(config.telegramBotToken) },
        // The zone the server computes formulas in: the formula editor's preview computes in it too.
        formulaTimeZone: config.formulaTimeZone,
      }),
  );
}
