import type { FastifyInstance } from 'fastify';
import { PUBLIC_ROUTE } from '../plugins/auth';
import { createLimit } from '../plugins/rateLimit';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERROR_CODES } from '../../schema/errors';
import { feedbackBodySchema } from '../../schema/user';
import type { Config } from '../config';
import { AppError, rateLimited } from '../errors';
import type { Mailer } from '../mail';
import { envelope } from '../presenters';

/** Feedback messages allowed per client address per window. */
export const FEEDBACK_LIMIT_PER_IP = 5;
export const FEEDBACK_WINDOW_MS = 60 * 60 * 1000;

/** One line, no control characters: safe in a subject. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim(); // eslint-disable-line no-control-regex

/**
 * The feedback form: POST /api/email/hello mails FEEDBACK_EMAIL (reply-to the sender), or logs
 * the message when no address is set. Anyone may send; per-address limit.
 */
export async function feedbackRoutes(server: FastifyInstance, { config, mailer }: { config: Config; mailer: Mailer }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const limit = createLimit(app, {
    name: 'feedback',
    max: FEEDBACK_LIMIT_PER_IP,
    windowMs: FEEDBACK_WINDOW_MS,
    key: (request) => request.ip,
    refusal: () => rateLimited('too much feedback from this address, try again later'),
  });

  app.post(
    '/api/email/hello',
    { ...PUBLIC_ROUTE, schema: { tags: ['feedback'], summary: 'Send feedback to the people running this server', body: feedbackBodySchema } },
    async (request, reply) => {
      const { username, text, email } = request.body;
      await limit(request, reply);
      const signedIn = request.user ? `\nАккаунт: ${request.user.email} (${request.user.id})` : '';
      const body = `От: ${username} <${email}>${signedIn}\n\n${text}\n`;
      if (!config.feedbackEmail) {
        request.log.info({ from: email }, `feedback (FEEDBACK_EMAIL not set) from ${username} <${email}>:\n${text}`);
        return envelope({ status: 'success' });
      }
      try {
        await mailer.send({ to: config.feedbackEmail, replyTo: email, subject: `Обратная связь: ${oneLine(username).slice(0, 100)}`, text: body });
      } catch (error) {
        request.log.error({ err: error }, 'feedback could not be mailed');
        throw new AppError(502, ERROR_CODES.feedbackFailed, 'the message could not be sent; try again later');
      }
      return envelope({ status: 'success' });
    },
  );
}
