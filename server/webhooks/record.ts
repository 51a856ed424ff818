import type { Kysely } from 'kysely';
import { newId } from '../../schema/ids';
import type { WebhookEventGroup } from '../../schema/webhook';
import { inChunks } from '../db/inChunks';
import type { Database, WebhookDeliveryTable } from '../db/types';
import type { DomainEvent } from '../events/events';
import { ROW_TEMPLATE } from '../db/types';
import { nowIso } from '../time';

/*
 * What a workspace's webhooks hear (docs/api/webhooks.md «Events»): each domain event a command
 * made, as `<group>.changed` with the ids it touched — never the content (titles, text, values):
 * the webhook's receiver reads what it needs through the API with its own access, so a webhook
 * gives nobody what their access does not. Events of pages in someone's private section are not
 * sent (an admin's webhook would learn of others' private pages); those of the shared section
 * and of pages shared from there are. One delivery per event and webhook, in the transaction of
 * none (recorded after the change committed, as the realtime messages are sent).
 */

export interface WebhookEvent {
  /** The page the event is about (a row's, a block's, a comment's page; a database's holder). */
  pageId: string;
  group: WebhookEventGroup;
  data: Record<string, unknown>;
  at: string;
}

/** A block event as webhooks hear it: the page, what happened, the blocks' ids (never their content). */
const blockEvent = (pageId: string, action: 'added' | 'changed' | 'removed', blocks: ReadonlyArray<{ id: string }>, at: string): WebhookEvent => ({
  pageId,
  group: 'block',
  data: { pageId, action, blockIds: blocks.map((b) => b.id) },
  at,
});

/** The events as webhooks hear them, each with the page it is about. */
export function webhookEventsOf(events: readonly DomainEvent[]): WebhookEvent[] {
  const out: WebhookEvent[] = [];
  for (const event of events) {
    switch (event.kind) {
      case 'treeChanged':
        // A database's row template is no row (docs/api/databases.md «Row templates»): not told.
        if (event.page.in_trash === ROW_TEMPLATE) break;
        out.push({
          pageId: event.page.id,
          group: event.page.database_id === null ? 'page' : 'row',
          data:
            event.page.database_id === null
              ? { pageId: event.page.id, parentId: event.page.parent_id, inTrash: event.page.in_trash === 1 }
              : { databaseId: event.page.database_id, rowIds: [event.page.id], inTrash: event.page.in_trash === 1 },
          at: nowIso(),
        });
        break;
      case 'pageChanged':
        out.push({ pageId: event.page.id, group: 'page', data: { pageId: event.page.id }, at: event.at });
        break;
      case 'blocksAdded':
        out.push(blockEvent(event.pageId, 'added', event.blocks, event.at));
        break;
      case 'blockChanged':
        out.push(blockEvent(event.block.pageId, 'changed', [event.block], event.at));
        break;
      case 'blocksRemoved':
        out.push(blockEvent(event.pageId, 'removed', event.removed, event.at));
        break;
      case 'rowsChanged': {
        const { change } = event;
        const rowIds = change.kind === 'rows' ? change.rows.map((row) => row.id) : change.kind === 'removed' ? [...change.ids] : [];
        out.push({ pageId: event.holderId, group: 'row', data: { databaseId: event.databaseId, action: change.kind, rowIds }, at: event.at });
        break;
      }
      case 'cellsWritten': {
        // A row template's cells are no row's.
        const written = event.written.filter((cell) => event.rows.get(cell.rowId)?.in_trash !== ROW_TEMPLATE);
        if (written.length === 0) break;
        out.push({
          pageId: event.holderId,
          group: 'cell',
          data: { databaseId: event.databaseId, cells: written.map((cell) => ({ rowId: cell.rowId, fieldId: cell.fieldId, version: cell.version })) },
          at: written[written.length - 1].updatedAt,
        });
        break;
      }
      case 'commentChanged':
        out.push({ pageId: event.pageId, group: 'comment', data: { pageId: event.pageId, commentId: event.commentId, action: event.action }, at: event.at });
        break;
      default:
        // Access lost, notifications: a person's, not the workspace's.
        break;
    }
  }
  return out;
}

/**
 * The deliveries of `events` to the active webhooks of their pages' workspaces that hear their
 * group, pages of a private section left out. Answers how many were recorded.
 */
export async function recordWebhookDeliveries(db: Kysely<Database>, events: readonly DomainEvent[]): Promise<number> {
  const heard = webhookEventsOf(events);
  if (heard.length === 0) return 0;
  // Most servers have none: one look at the (small) table first.
  if (!(await db.selectFrom('webhooks').select('id').where('active', '=', 1).limit(1).executeTakeFirst())) return 0;
  // Each page's workspace and whether it sits in a private section (the root of its path).
  const pages = new Map<string, { workspace: string; root: string }>();
  for (const chunk of inChunks([...new Set(heard.map((e) => e.pageId))]))
    for (const page of await db.selectFrom('pages').select(['id', 'workspace_id', 'path']).where('id', 'in', chunk).execute()) {
      const path = JSON.parse(page.path) as string[];
      pages.set(page.id, { workspace: page.workspace_id, root: path[0] ?? page.id });
    }
  const workspaces = [...new Set([...pages.values()].map((p) => p.workspace))];
  if (workspaces.length === 0) return 0;
  const hooks = await db
    .selectFrom('webhooks')
    .select(['id', 'workspace_id', 'events'])
    .where('workspace_id', 'in', workspaces)
    .where('active', '=', 1)
    .execute();
  if (hooks.length === 0) return 0;
  const roots = new Map<string, string | null>();
  for (const chunk of inChunks([...new Set([...pages.values()].map((p) => p.root))]))
    for (const root of await db.selectFrom('pages').select(['id', 'section']).where('id', 'in', chunk).execute()) roots.set(root.id, root.section);
  const now = nowIso();
  const deliveries: WebhookDeliveryTable[] = [];
  for (const event of heard) {
    const page = pages.get(event.pageId);
    if (!page || roots.get(page.root) === 'private') continue;
    for (const hook of hooks) {
      if (hook.workspace_id !== page.workspace || !(JSON.parse(hook.events) as string[]).includes(event.group)) continue;
      const id = newId();
      const payload = { id, event: `${event.group}.changed`, workspaceId: page.workspace, at: event.at, data: event.data };
      deliveries.push({
        id,
        webhook_id: hook.id,
        event: payload.event,
        payload: JSON.stringify(payload),
        status: 'pending',
        attempts: 0,
        next_at: now,
        last_status: null,
        last_error: null,
        created_at: now,
        delivered_at: null,
      });
    }
  }
  for (const chunk of inChunks(deliveries, 100)) await db.insertInto('webhook_deliveries').values(chunk).execute();
  return deliveries.length;
}
