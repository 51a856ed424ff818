import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AI_ACTIONS, AI_LIMITS, aiRequestBodySchema, type AiAccepted, type AiAction } from '../../schema/ai';
import { ERROR_CODES } from '../../schema/errors';
import { createAiRunner } from '../ai/runner';
import type { Config } from '../config';
import { AppError, rateLimited } from '../errors';
import { requireUser } from '../plugins/auth';
import { createLimit } from '../plugins/rateLimit';
import { envelope } from '../presenters';

/** What generate and continue answer without a model: how to configure one. */
export const NOT_CONFIGURED_MESSAGE =
  'no AI model is configured on this server: set AI_BASE_URL to an OpenAI-compatible API and AI_MODEL to a model ' +
  '(for Ollama: AI_BASE_URL=http://localhost:11434/v1 AI_MODEL=qwen2.5), then restart; see README, «AI assistant»';

const SUMMARY: Record<AiAction, string> = {
  generate: 'Write text from an instruction; the result streams to aiproxy:{websocket_id}',
  continue: 'Continue a text in its style and language; the result streams to aiproxy:{websocket_id}',
  improve: 'Improve spelling, grammar and style of a text (offline without a model); the result streams to aiproxy:{websocket_id}',
};

/**
 * The AI assistant (docs/ai.md): POST /api/ai/{generate,continue,improve} checks the call and
 * answers 202 at once; the text streams over the realtime connection to `aiproxy:{websocket_id}`,
 * a channel the caller's connection must have joined (only its owner's connections can).
 */
export async function aiRoutes(server: FastifyInstance, { config }: { config: Config }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const runner = createAiRunner(server, config.ai);
  server.addHook('preClose', () => runner.close());
  const perMinute = config.ai.rateLimitPerMinute;
  // Per user, shared by every process (docs/security.md); 0: no limit.
  const limit =
    perMinute > 0
      ? createLimit(app, {
          name: 'ai',
          max: perMinute,
          windowMs: 60_000,
          key: (request) => requireUser(request).id,
          refusal: (retryAfter) => rateLimited(`at most ${perMinute} AI requests a minute; try again in ${retryAfter} s`, { retryAfter }),
        })
      : undefined;

  for (const action of AI_ACTIONS) {
    app.post(`/api/ai/${action}`, { schema: { tags: ['ai'], summary: SUMMARY[action], body: aiRequestBodySchema } }, async (request, reply) => {
      const user = requireUser(request);
      const { websocket_id: websocketId, text, context } = request.body;
      if (text.length > AI_LIMITS.text || context.length > AI_LIMITS.context) {
        throw new AppError(413, ERROR_CODES.aiTooLarge, `text and context may have at most ${AI_LIMITS.text} and ${AI_LIMITS.context} characters`);
      }
      if (!runner.available(action)) throw new AppError(503, ERROR_CODES.aiNotConfigured, NOT_CONFIGURED_MESSAGE);
      if (!(await server.realtime.ownsAiProxy(websocketId, user.id))) {
        throw new AppError(409, ERROR_CODES.aiChannelNotJoined, `join the realtime channel aiproxy:${websocketId} first: the result goes there`);
      }
      await limit?.(request, reply);
      const requestId = crypto.randomUUID();
      runner.start({ requestId, websocketId, action, userId: user.id, text, context }, request.log);
      return reply.status(202).send(envelope<AiAccepted>({ requestId, websocket_id: websocketId, type: action }));
    });
  }
}
