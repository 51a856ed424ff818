import { z } from 'zod';

/**
 * Outgoing webhooks (issue 38, docs/api/webhooks.md): what a workspace's admin sets up, and what
 * the delivery log shows.
 */

/** The events a webhook may hear, by group: `page.changed`, `block.changed`, `row.changed`, `cell.changed`, `comment.changed`. */
export const WEBHOOK_EVENTS = ['page', 'block', 'row', 'cell', 'comment'] as const;
export type WebhookEventGroup = (typeof WEBHOOK_EVENTS)[number];

/** A workspace's webhooks, at most. */
export const MAX_WEBHOOKS = 20;

export const createWebhookBodySchema = z
  .object({
    url: z.string().trim().min(1).max(2_000),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length),
  })
  .strict();
export type CreateWebhookBody = z.infer<typeof createWebhookBodySchema>;

export const updateWebhookBodySchema = z
  .object({ active: z.boolean().optional(), events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length).optional() })
  .strict();
export type UpdateWebhookBody = z.infer<typeof updateWebhookBodySchema>;

export interface WireWebhook {
  id: string;
  url: string;
  events: WebhookEventGroup[];
  active: boolean;
  createdAt: string;
  /** Given once, in the answer that made it: deliveries are signed with it. */
  secret?: string;
}

export interface WireWebhookDelivery {
  id: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** When it is tried next (pending), or was tried last. */
  nextAt: string;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  /** What was sent. */
  payload: unknown;
}
