import crypto from 'node:crypto';
import { PUBLIC_ROUTE } from '../plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linkMessengerAccount } from '../auth/messengerLinks';
import { hashSecret } from '../auth/tokens';
import type { Config } from '../config';
import { forbidden } from '../errors';
import { envelope } from '../presenters';

const SEND_TIMEOUT_MS = 10_000;

/**
 * The webhook's path: derived from the bot token, so only the bot platform (told by setWebhook)
 * knows it. The server logs it at start.
 */
export function telegramWebhookPath(botToken: string): string {
  return `/api/telegram/webhook/${hashSecret(`telegram-webhook:${botToken}`).slice(0, 32)}`;
}

/** The part of a Bot API Update we read; everything else is let through and ignored. */
const updateSchema = z
  .object({
    update_id: z.number().int(),
    message: z
      .object({
        chat: z.object({ id: z.number().int() }).loose(),
        from: z.object({ id: z.number().int() }).loose().optional(),
        text: z.string().max(4096).optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

/** `/start`, `/start <token>`, also `/start@botname <token>`. */
const START_COMMAND = /^\/start(?:@\w+)?(?:\s+(\S+))?\s*$/;
const LINK_TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

export const BOT_REPLIES = {
  linked: 'Готово: аккаунт связан с этим Telegram.',
  invalid: 'Ссылка устарела или уже использована. Откройте новую ссылку в приложении.',
  howTo: 'Чтобы связать аккаунт, откройте ссылку для мессенджера в настройках приложения.',
} as const;

function sameSecret(a: string, b: string): boolean {
  return crypto.timingSafeEqual(crypto.createHash('sha256').update(a).digest(), crypto.createHash('sha256').update(b).digest());
}

/**
 * The messenger bot's webhook (only when TELEGRAM_BOT_TOKEN is set): `/start <token>` with a
 * token from GET /api/user/telegram/code links the sender's messenger account to that user, and
 * the bot answers through the Bot API's sendMessage.
 */
export async function telegramRoutes(server: FastifyInstance, { config }: { config: Config }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const botToken = config.telegramBotToken;
  if (!botToken) return;
  const path = telegramWebhookPath(botToken);
  app.log.info(`messenger bot webhook: ${config.publicUrl.replace(/\/+$/, '')}${path}`);

  async function sendMessage(chatId: number, text: string): Promise<void> {
    try {
      const response = await fetch(`${config.telegramApiUrl}/bot${botToken}/sendMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: chatId, text }),
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      if (!response.ok) app.log.warn({ status: response.status }, 'the messenger bot API refused sendMessage');
    } catch (error) {
      app.log.warn({ err: error }, 'the messenger bot API cannot be reached');
    }
  }

  app.post(
    path,
    { ...PUBLIC_ROUTE, schema: { tags: ['messenger'], summary: 'Bot platform webhook (Update JSON)', hide: true, body: updateSchema } },
    async (request) => {
      const secret = config.telegramWebhookSecret;
      if (secret !== undefined) {
        const sent = request.headers['x-telegram-bot-api-secret-token'];
        if (typeof sent !== 'string' || !sameSecret(sent, secret)) throw forbidden('this webhook');
      }
      const message = request.body.message;
      const command = message?.text ? START_COMMAND.exec(message.text.trim()) : null;
      // Anything but /start is not ours to answer; the platform still gets its 200.
      if (!message || !message.from || !command) return envelope({ status: 'success' });
      const token = command[1];
      if (token === undefined) {
        await sendMessage(message.chat.id, BOT_REPLIES.howTo);
        return envelope({ status: 'success' });
      }
      const user = LINK_TOKEN.test(token) ? await linkMessengerAccount(app.db, token, String(message.from.id)) : undefined;
      await sendMessage(message.chat.id, user ? BOT_REPLIES.linked : BOT_REPLIES.invalid);
      if (user) request.log.info({ userId: user.id }, 'messenger account linked');
      return envelope({ status: 'success' });
    },
  );
}
