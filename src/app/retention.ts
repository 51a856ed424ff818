import { RETENTION_GOALS, type RetentionGoal } from '../../schema/constants';
import { api } from './api';

const DAY_MS = 24 * 60 * 60 * 1000;
const sentKey = (userId: string, goal: RetentionGoal) => `goal:${userId}:${goal}`;

/**
 * Posts the retention goals a returning user has reached (more than 1, 7 or 30 days since the
 * account was made) to our own server (POST /api/goals), each once per browser: no third-party
 * analytics. Failures are silent and tried again next time.
 */
export async function reportRetentionGoals(
  user: { id: string; createdAt: string; anonymous?: boolean },
  now = Date.now(),
  storage: Storage = localStorage,
): Promise<RetentionGoal[]> {
  const created = Date.parse(user.createdAt);
  if (user.anonymous || !Number.isFinite(created)) return [];
  const sent: RetentionGoal[] = [];
  for (const [goal, days] of Object.entries(RETENTION_GOALS) as [RetentionGoal, number][]) {
    if (now - created <= days * DAY_MS || storage.getItem(sentKey(user.id, goal))) continue;
    try {
      // It changes no answer the app reads: the answers asked for ahead stay.
      await api('/api/goals', { method: 'POST', body: { goal }, changesOnly: '/api/goals' });
      storage.setItem(sentKey(user.id, goal), '1');
      sent.push(goal);
    } catch {
      // Next visit.
    }
  }
  return sent;
}
