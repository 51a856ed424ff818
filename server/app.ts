import Fastify, { LogController, type FastifyInstance } from 'fastify';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import type { Config } from './config';
import { createFileStore } from './files';
import { createMailer, type Mailer } from './mail';
import { authPlugin } from './plugins/auth';
import { dbPlugin } from './plugins/db';
import { errorsPlugin, sendFrameworkError } from './plugins/errors';
import { openapiPlugin } from './plugins/openapi';
import { rateLimitPlugin } from './plugins/rateLimit';
import { eventsPlugin } from './plugins/events';
import { realtimePlugin } from './plugins/realtime';
import { textInputPlugin } from './plugins/textInput';
import { aiRoutes } from './routes/ai';
import { authRoutes } from './routes/auth';
import { blockRoutes } from './routes/blocks';
import { blockFoldRoutes } from './routes/blockFolds';
import { linkPreviewRoutes } from './routes/linkPreview';
import { reminderRoutes } from './routes/reminders';
import { databaseRoutes } from './routes/databases';
import { databaseFormRoutes } from './routes/databaseForms';
import { databaseTemplateRoutes } from './routes/databaseTemplates';
import { commentsRoutes } from './routes/comments';
import { appConfigRoutes } from './routes/appConfig';
import { feedbackRoutes } from './routes/feedback';
import { goalRoutes } from './routes/goals';
import { templateRoutes } from './routes/templates';
import { filesRoutes } from './routes/files';
import { notificationsRoutes } from './routes/notifications';
import { sharingRoutes } from './routes/sharing';
import { telegramRoutes } from './routes/telegram';
import { pageRoutes } from './routes/pages';
import { searchRoutes } from './routes/search';
import { trackRequests } from './requestActivity';
import { historyRoutes } from './routes/history';
import { exportRoutes } from './routes/exports';
import { versionAnnouncer } from './history/announcements';
import { backgroundWorkers } from './workers';
import { userRoutes } from './routes/users';
import { webRoutes } from './routes/web';
import { securityHeaders } from './web/securityHeaders';
import { setCellHistoryBurst } from './repositories/cellHistory';
import { setFormulaTimeZone } from './commands/databases/formulas';
import { setWebhooksAllowPrivate } from './webhooks/targets';
import { webhookRoutes } from './routes/webhooks';
import { workspaceTokenRoutes } from './routes/workspaceTokens';
import { setFormulaInlineRows } from './commands/databases/formulaJobs';
import { workspaceRoutes } from './routes/workspaces';

export interface BuildOptions {
  /** false silences the log (tests); a pino options object or true logs. */
  logger?: boolean | object;
  /** Replaces the mailer (tests that read codes without SMTP). */
  mailer?: Mailer;
}

/** The whole server: plugins first, then routes by resource. Tests call this and use app.inject. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
    bodyLimit: 1024 * 1024,
    trustProxy: typeof config.trustProxy === 'number' ? (_address: string, hop: number) => hop < (config.trustProxy as number) : config.trustProxy,
    frameworkErrors: (error, _request, reply) => sendFrameworkError(error, reply),
  });
  // The API takes JSON (and forms for sign-in); a text/plain body is answered 415, not parsed as a string.
  app.removeContentTypeParser('text/plain');
  const mailer = options.mailer ?? createMailer(config, app.log);
  app.addHook('onClose', async () => mailer.close());
  // Uploaded files' bytes: FILES_DIR or an S3 bucket (server/files/store.ts).
  const fileStore = await createFileStore(config);
  app.decorate('fileStore', fileStore);
  app.addHook('onClose', async () => fileStore.close());

  // nosniff and Referrer-Policy on every answer, the CSP on HTML (docs/security.md).
  securityHeaders(app, config.webDir);
  // Whether people use the server now: the search indexer's backlog gives way to them (docs/search.md).
  const activity = trackRequests(app);
  await app.register(errorsPlugin);
  await app.register(openapiPlugin);
  await app.register(textInputPlugin);
  // Answers of 1 KiB and more, compressed as the client accepts (brotli, else gzip), streams
  // included; brotli at quality 1 keeps up with a page of megabytes (docs/deploy.md).
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
    zlibOptions: { level: 6 },
  });
  await app.register(cookie);
  await app.register(dbPlugin, { config });
  await app.register(authPlugin, { authCacheTtlMs: config.authCacheTtlMs });
  // Request limits counted in the database, shared by every process (docs/security.md).
  await app.register(rateLimitPlugin);
  await app.register(realtimePlugin, { config });
  await app.register(eventsPlugin);

  await app.register(authRoutes, { config, mailer });
  await app.register(userRoutes, { config });
  await app.register(workspaceRoutes, { config, mailer });
  await app.register(pageRoutes, { config, mailer });
  await app.register(searchRoutes, { limits: config.userLimits });
  await app.register(exportRoutes, { config });
  setCellHistoryBurst(config.historyCellBurstMs);
  setFormulaTimeZone(config.formulaTimeZone);
  setFormulaInlineRows(config.formulaInlineRows);
  setWebhooksAllowPrivate(config.webhooksAllowPrivate);
  const announcer = versionAnnouncer(app);
  await app.register(historyRoutes, { announcer });
  await app.register(blockRoutes, { config });
  await app.register(blockFoldRoutes);
  await app.register(linkPreviewRoutes, { allowPrivate: config.linkPreviewAllowPrivate });
  await app.register(reminderRoutes);
  await app.register(databaseRoutes, { limits: config.userLimits });
  await app.register(databaseFormRoutes, { limits: config.userLimits });
  await app.register(databaseTemplateRoutes);
  await app.register(sharingRoutes, { config, mailer });
  await app.register(commentsRoutes);
  await app.register(notificationsRoutes);
  await app.register(filesRoutes, { config });
  await app.register(feedbackRoutes, { config, mailer });
  await app.register(appConfigRoutes, { config });
  await app.register(goalRoutes);
  await app.register(telegramRoutes, { config });
  await app.register(templateRoutes);
  await app.register(webhookRoutes);
  await app.register(workspaceTokenRoutes);
  await app.register(aiRoutes, { config });
  await app.register(webRoutes, { webDir: config.webDir });
  await app.register(backgroundWorkers, { config, activity, announcer, mailer });
  return app;
}
