import type { FastifyBaseLogger } from 'fastify';

/** How long the Bot API's getMe may take before the link goes without the bot's name. */
const GET_ME_TIMEOUT_MS = 3_000;
/** After a failed getMe, how long before it is asked again (meanwhile: no deep link). */
const RETRY_AFTER_MS = 60_000;

/** A Telegram username: 5–32 letters, digits and underscores. */
const USERNAME = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

/**
 * The deep link that opens the bot with the link token as its start parameter: one tap sends it
 * `/start <token>` (the token fits the platform's start parameter: ≤ 64 of A-Z a-z 0-9 _ -).
 */
export function messengerDeepLink(username: string, token: string): string {
  return `https://t.me/${username}?start=${encodeURIComponent(token)}`;
}

/**
 * The bot's username, asked of the Bot API (getMe) the first time it is needed and kept for the
 * process's life. While the API cannot be reached (or answers no username) it is null, and asked
 * again RETRY_AFTER_MS later; callers at the same moment share one request.
 */
export function botUsername(options: { apiUrl: string; botToken: string; log: FastifyBaseLogger; now?: () => number }): () => Promise<string | null> {
  const now = options.now ?? Date.now;
  let known: string | null = null;
  let pending: Promise<string | null> | null = null;
  let failedAt = -Infinity;
  const ask = async (): Promise<string | null> => {
    try {
      const response = await fetch(`${options.apiUrl}/bot${options.botToken}/getMe`, { signal: AbortSignal.timeout(GET_ME_TIMEOUT_MS) });
      const answer = (await response.json()) as { ok?: boolean; result?: { username?: unknown } };
      const username = answer.ok ? answer.result?.username : undefined;
      if (typeof username === 'string' && USERNAME.test(username)) return username;
      options.log.warn({ status: response.status }, 'the messenger bot API gave no username (getMe): links to the bot go without it');
    } catch (error) {
      options.log.warn({ err: error }, 'the messenger bot API cannot be reached (getMe): links to the bot go without its name');
    }
    return null;
  };
  return async () => {
    if (known) return known;
    if (pending) return pending;
    if (now() - failedAt < RETRY_AFTER_MS) return null;
    pending = ask().then((username) => {
      pending = null;
      if (username) known = username;
      else failedAt = now();
      return username;
    });
    return pending;
  };
}
