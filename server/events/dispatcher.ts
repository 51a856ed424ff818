import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import type { Database } from '../db/types';
import type { Realtime } from '../realtime/emitter';
import { forEveryone } from '../commands/databases/relations';
import { databaseData, findDatabaseBlock, readRows, type ViewOrders, type WrittenCell } from '../repositories/databases';
import { nowIso } from '../time';
import type { DomainEvent, DomainEventKind, EventOf } from './events';
import { wakeWebhooks } from '../webhooks/deliver';
import { recordWebhookDeliveries } from '../webhooks/record';

/** Tells the world one kind of event: `origin` is the web app's connection that made it (its own echo is skipped by it). */
export type Presenter<K extends DomainEventKind> = (event: EventOf<K>, origin: string | null) => void | Promise<void>;
/** One presenter per kind of event: a kind without one does not compile (and `events.test.ts` checks it runs). */
export type Presenters = { [K in DomainEventKind]: Presenter<K> };

export interface Dispatcher {
  /**
   * Tells the world what a command did, in the order it happened; settles once every event was
   * handed on (and, for `accessLost`, once nobody keeps a room they lost). The route awaits it
   * before it answers.
   */
  dispatch(events: readonly DomainEvent[], origin: string | null): Promise<void>;
}

export interface DispatcherParts {
  db: Kysely<Database>;
  realtime: Realtime;
  /** The database views' orders and values this process keeps (cell writes bring them up to date). */
  orders: ViewOrders;
  log: FastifyBaseLogger;
}

/** The presenters: the one place that turns domain events into realtime messages and cache updates. */
export function presenters({ db, realtime, orders, log }: DispatcherParts): Presenters {
  return {
    blocksAdded: ({ pageId, blocks, at }, origin) => realtime.blocksAdded(pageId, [...blocks], origin, at),
    blockChanged: ({ block, at }, origin) => realtime.blockEdited(block, origin, at),
    blocksRemoved: ({ pageId, removed, at }, origin) => realtime.blocksRemoved(pageId, removed, origin, at),
    rowsChanged: ({ holderId, databaseId, change, at }, origin) => realtime.databaseChanged(holderId, databaseId, change, origin, at),
    cellsWritten: ({ holderId, databaseId, rows, written, changes, perReader }, origin) => {
      orders.cellsChanged(databaseId, changes);
      // One realtime change per row; a title also renames the row's page. A cell whose value each
      // reader is given their own way (a relation to another database) goes out as a prompt to read
      // the rows again: what the channel hears, everyone in it hears.
      const byRow = new Map<string, WrittenCell[]>();
      for (const cell of written) if (!perReader?.has(cell.fieldId)) byRow.set(cell.rowId, [...(byRow.get(cell.rowId) ?? []), cell]);
      if (written.some((cell) => perReader?.has(cell.fieldId))) realtime.databaseChanged(holderId, databaseId, { kind: 'reset' }, null, nowIso());
      for (const [rowId, cells] of byRow) {
        const last = cells[cells.length - 1];
        const change = {
          kind: 'cells' as const,
          rowId,
          cells: cells.map(({ fieldId, value, version }) => ({ fieldId, value, version })),
          updatedAt: last.updatedAt,
          updatedBy: last.updatedBy,
        };
        realtime.databaseChanged(holderId, databaseId, change, origin, nowIso());
        const title = cells.find((cell) => cell.fieldId === MAIN_FIELD_ID);
        const row = rows.get(rowId);
        if (title && row) realtime.pageEdited({ ...row, title: String(title.value ?? '') }, origin, title.updatedAt);
      }
    },
    pageChanged: ({ page, at }, origin) => realtime.pageEdited(page, origin, at),
    treeChanged: async ({ page, before }) => {
      if (page.database_id === null) {
        realtime.childrenChanged([page.parent_id, ...(before ? [before.parent_id] : [])], page.workspace_id, page.id);
        return;
      }
      // A database row is no child in the sidebar: its database's views hear of it (from every
      // connection, the writer's too: its views did not make the change).
      const databaseId = page.database_id;
      try {
        const block = page.in_trash === 1 ? undefined : await findDatabaseBlock(db, databaseId);
        const rows = block ? forEveryone(databaseData(block).config, databaseId, await readRows(db, databaseId, [page.id])) : null;
        realtime.databaseChanged(page.parent_id!, databaseId, rows ? { kind: 'rows', rows } : { kind: 'removed', ids: [page.id] }, null, nowIso());
      } catch (error) {
        log.warn({ err: error }, 'realtime: a changed row');
      }
    },
    accessLost: ({ userId }) => realtime.accessLost(userId),
    notified: ({ userId, workspaceId, notificationId }) => realtime.notified(userId, workspaceId, notificationId),
    // The comments' own channel tells their readers (comments realtime); only webhooks hear this one.
    commentChanged: () => undefined,
  };
}

export function eventDispatcher(parts: DispatcherParts): Dispatcher {
  const present = presenters(parts);
  return {
    async dispatch(events, origin) {
      for (const event of events) await (present[event.kind] as Presenter<DomainEventKind>)(event, origin);
      // The workspace's webhooks (server/webhooks/): their deliveries recorded, sent by the worker. The change is made: a failure here is logged, not answered.
      try {
        if ((await recordWebhookDeliveries(parts.db, events)) > 0) wakeWebhooks();
      } catch (error) {
        parts.log.error({ err: error }, 'recording webhook deliveries failed');
      }
    },
  };
}
