import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RETENTION_GOALS, type RetentionGoal } from '../../schema/constants';
import { ERROR_CODES } from '../../schema/errors';
import { AppError } from '../errors';
import { requireUser } from '../plugins/auth';
import { envelope } from '../presenters';
import { recordGoal } from '../repositories/users';

const DAY_MS = 24 * 60 * 60 * 1000;

const goalBodySchema = z.object({ goal: z.enum(Object.keys(RETENTION_GOALS) as [RetentionGoal, ...RetentionGoal[]]) }).strict();

/**
 * Retention goals, first-party (no third-party analytics): the web app posts a goal when a
 * signed-in user comes back more than 1, 7 or 30 days after their account was made. Stored once
 * per user and goal (a repeat answers the first time); a goal not reached yet is refused.
 */
export async function goalRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/goals',
    { schema: { tags: ['goals'], summary: 'Record a retention goal the signed-in user reached', body: goalBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const { goal } = request.body;
      const days = RETENTION_GOALS[goal];
      if (Date.now() - Date.parse(user.created_at) <= days * DAY_MS) {
        throw new AppError(422, ERROR_CODES.goalNotReached, `the account is not more than ${days} days old`);
      }
      return envelope({ goal, reachedAt: await recordGoal(app.db, user.id, goal) });
    },
  );
}
