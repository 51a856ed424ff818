import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { newId } from '../../schema/ids';
import {
  MAX_WEBHOOKS,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  type WireWebhook,
  type WireWebhookDelivery,
  type WebhookEventGroup,
} from '../../schema/webhook';
import { authorizeWorkspace } from '../commands/workspaces/members';
import type { Database, WebhookDeliveryTable, WebhookTable } from '../db/types';
import { invalid, notFound } from '../errors';
import { nowIso } from '../time';
import { checkedTarget } from './targets';

/*
 * A workspace's webhooks, set up by its admins (docs/api/webhooks.md): made (the URL checked, a
 * secret made and shown once), turned off and on, their events changed, deleted; and the
 * delivery log of each.
 */

/** Deliveries the log lists, newest first. */
const LOG_LIMIT = 100;

const present = (hook: WebhookTable, withSecret = false): WireWebhook => ({
  id: hook.id,
  url: hook.url,
  events: JSON.parse(hook.events) as WebhookEventGroup[],
  active: hook.active === 1,
  createdAt: hook.created_at,
  ...(withSecret ? { secret: hook.secret } : {}),
});

const presentDelivery = (d: WebhookDeliveryTable): WireWebhookDelivery => ({
  id: d.id,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  nextAt: d.next_at,
  lastStatus: d.last_status,
  lastError: d.last_error,
  createdAt: d.created_at,
  deliveredAt: d.delivered_at,
  payload: JSON.parse(d.payload) as unknown,
});

/** A webhook of the workspace (404 otherwise), its admin asking (403). */
async function ownWebhook(db: Kysely<Database>, userId: string, workspaceId: string, webhookId: string): Promise<WebhookTable> {
  await authorizeWorkspace(db, workspaceId, userId, 'update');
  const hook = await db.selectFrom('webhooks').selectAll().where('id', '=', webhookId).where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (!hook) throw notFound('webhook');
  return hook;
}

export async function listWebhooks(db: Kysely<Database>, userId: string, workspaceId: string): Promise<WireWebhook[]> {
  await authorizeWorkspace(db, workspaceId, userId, 'update');
  return (await db.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').execute()).map((hook) => present(hook));
}

/** Makes a webhook (admins; 422 webhook.target_refused for a URL it may not send to; at most MAX_WEBHOOKS). Its secret is in this answer only. */
export async function createWebhook(db: Kysely<Database>, userId: string, workspaceId: string, body: CreateWebhookBody): Promise<WireWebhook> {
  await authorizeWorkspace(db, workspaceId, userId, 'update');
  const url = await checkedTarget(body.url);
  const { n } = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  if (Number(n) >= MAX_WEBHOOKS) throw invalid(`a workspace has at most ${MAX_WEBHOOKS} webhooks`);
  const hook: WebhookTable = {
    id: newId(),
    workspace_id: workspaceId,
    url: url.toString(),
    secret: randomBytes(32).toString('hex'),
    events: JSON.stringify([...new Set(body.events)]),
    active: 1,
    created_by: userId,
    created_at: nowIso(),
  };
  await db.insertInto('webhooks').values(hook).execute();
  return present(hook, true);
}

export async function updateWebhook(
  db: Kysely<Database>,
  userId: string,
  workspaceId: string,
  webhookId: string,
  body: UpdateWebhookBody,
): Promise<WireWebhook> {
  const hook = await ownWebhook(db, userId, workspaceId, webhookId);
  const next = {
    ...(body.active === undefined ? {} : { active: body.active ? 1 : 0 }),
    ...(body.events === undefined ? {} : { events: JSON.stringify([...new Set(body.events)]) }),
  };
  if (Object.keys(next).length > 0) await db.updateTable('webhooks').set(next).where('id', '=', hook.id).execute();
  return present({ ...hook, ...next });
}

export async function deleteWebhook(db: Kysely<Database>, userId: string, workspaceId: string, webhookId: string): Promise<void> {
  const hook = await ownWebhook(db, userId, workspaceId, webhookId);
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', hook.id).execute();
  await db.deleteFrom('webhooks').where('id', '=', hook.id).execute();
}

/** A webhook's delivery log: the last LOG_LIMIT deliveries, newest first. */
export async function webhookDeliveries(db: Kysely<Database>, userId: string, workspaceId: string, webhookId: string): Promise<WireWebhookDelivery[]> {
  const hook = await ownWebhook(db, userId, workspaceId, webhookId);
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', hook.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(LOG_LIMIT)
    .execute();
  return rows.map(presentDelivery);
}
