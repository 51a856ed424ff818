import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import { WakeableLoop, type BackgroundLoop, type LoopLog } from '../background';
import type { Database, WebhookDeliveryTable } from '../db/types';
import { nowIso } from '../time';
import { safeFetch } from '../net/safeFetch';
import { checkedTarget, webhooksAllowPrivate } from './targets';

/*
 * Sending webhook deliveries (docs/api/webhooks.md «Delivery»): each pending delivery whose time
 * came is POSTed to its webhook's URL as JSON, signed (`X-Webhook-Signature: t=<seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>" with the webhook's secret>`), within TIMEOUT_MS, redirects not
 * followed. A 2xx answer delivers it; anything else (another status, a timeout, a refused
 * address) is tried again after BACKOFF_MS[attempt], and after the last it is failed. Several
 * processes share the work: a delivery is taken by moving its time past the lease first (only
 * one process's update matches its old time).
 */

const TIMEOUT_MS = 10_000;
/** Waits after the 1st, 2nd, … failed try: a minute, five, half an hour, two hours, six; then failed. */
export const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];
/** A delivery taken is not taken by another process for this long (a try lasts TIMEOUT_MS at most). */
const LEASE_MS = 60_000;
/** Deliveries sent a round. */
const BATCH = 20;
/** How often a process looks for due deliveries when nobody woke it. */
const TICK_MS = 2_000;

let backoff = BACKOFF_MS;
/** Tests shorten the waits between tries (the same sequence, in ms given). */
export function setWebhookBackoff(waits: readonly number[] | null): void {
  backoff = waits ? [...waits] : BACKOFF_MS;
}

/** The signature header of a body sent at `seconds` with `secret`. */
export function webhookSignature(secret: string, seconds: number, body: string): string {
  return `t=${seconds},v1=${createHmac('sha256', secret).update(`${seconds}.${body}`).digest('hex')}`;
}

/** Sends one delivery; answers its outcome (the row as it is to be stored). */
async function send(delivery: WebhookDeliveryTable, hook: { url: string; secret: string }): Promise<Partial<WebhookDeliveryTable>> {
  const attempts = delivery.attempts + 1;
  const again = (status: number | null, error: string): Partial<WebhookDeliveryTable> =>
    attempts > backoff.length
      ? { status: 'failed', attempts, last_status: status, last_error: error, next_at: nowIso() }
      : { status: 'pending', attempts, last_status: status, last_error: error, next_at: new Date(Date.now() + backoff[attempts - 1]).toISOString() };
  try {
    const url = await checkedTarget(hook.url);
    const seconds = Math.floor(Date.now() / 1000);
    // Sent to the address checked (server/net/safeFetch.ts pins the connection to it: a name cannot answer another meanwhile).
    const response = await safeFetch(url, {
      method: 'POST',
      followRedirects: false,
      timeoutMs: TIMEOUT_MS,
      maxBytes: 64 * 1024,
      ...(webhooksAllowPrivate() ? { allow: () => true } : {}),
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Stranitsy-Webhooks/1',
        'X-Webhook-Id': delivery.id,
        'X-Webhook-Event': delivery.event,
        'X-Webhook-Signature': webhookSignature(hook.secret, seconds, delivery.payload),
      },
      body: delivery.payload,
    });
    if (response.status >= 200 && response.status < 300)
      return { status: 'delivered', attempts, last_status: response.status, last_error: null, delivered_at: nowIso(), next_at: nowIso() };
    return again(response.status, `answered ${response.status}`);
  } catch (error) {
    return again(null, error instanceof Error ? error.message.slice(0, 500) : 'failed');
  }
}

/** One round: the due deliveries (oldest first), each taken then sent. Answers how many were sent. */
export async function deliverDue(db: Kysely<Database>): Promise<number> {
  const due = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_at', '<=', nowIso())
    .orderBy('next_at')
    .limit(BATCH)
    .execute();
  let sent = 0;
  for (const delivery of due) {
    const taken = await db
      .updateTable('webhook_deliveries')
      .set({ next_at: new Date(Date.now() + LEASE_MS).toISOString() })
      .where('id', '=', delivery.id)
      .where('status', '=', 'pending')
      .where('next_at', '=', delivery.next_at)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) continue;
    const hook = await db.selectFrom('webhooks').select(['url', 'secret', 'active']).where('id', '=', delivery.webhook_id).executeTakeFirst();
    if (!hook) continue;
    const outcome = hook.active ? await send(delivery, hook) : { status: 'failed' as const, last_error: 'the webhook was turned off', next_at: nowIso() };
    await db.updateTable('webhook_deliveries').set(outcome).where('id', '=', delivery.id).execute();
    sent++;
  }
  return sent;
}

/** The workers of this process, woken when a change here recorded deliveries. */
const wakers = new Set<() => void>();
export function wakeWebhooks(): void {
  for (const wake of wakers) wake();
}

/** The webhook sender of a server process (server/workers/index.ts). */
export function webhookWorker(db: Kysely<Database>, log: LoopLog): BackgroundLoop {
  return new WakeableLoop(wakers, async () => ((await deliverDue(db)) >= BATCH ? 0 : TICK_MS), log, 'sending webhooks failed; trying again', TICK_MS * 5);
}
