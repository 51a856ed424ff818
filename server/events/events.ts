import type { WireBlock } from '../../schema/block';
import type { DatabaseChange } from '../../schema/database';
import type { PageRow } from '../db/types';
import type { CellChange, WrittenCell } from '../repositories/databases';

/**
 * What a command did, in the domain's words (docs/server.md «Events»). A command returns them
 * after its transaction committed; the route hands them to the dispatcher (`server/events/dispatcher.ts`),
 * whose one presenter per kind tells the world: realtime messages, and the caches kept in this
 * process. A command never sends anything itself.
 */
export type DomainEvent =
  /** Blocks were made, revived, restored or cloned on a page (document order). */
  | { kind: 'blocksAdded'; pageId: string; blocks: readonly WireBlock[]; at: string }
  /** A block's content or place changed (a database's fields and views are its content). */
  | { kind: 'blockChanged'; block: WireBlock; at: string }
  /** Blocks were deleted (a block with the blocks under it). */
  | { kind: 'blocksRemoved'; pageId: string; removed: ReadonlyArray<{ id: string; version: number }>; at: string }
  /** Rows of a database on page `holderId` were made, moved, trashed or restored, or its cells must all be read again (`reset`). */
  | { kind: 'rowsChanged'; holderId: string; databaseId: string; change: Exclude<DatabaseChange, { kind: 'cells' }>; at: string }
  /**
   * Cells were written (`written`; one row's title renames its page) — `changes` also counts
   * writes that another write's conflict left out, for the caches. `rows`: the rows' pages.
   */
  | {
      kind: 'cellsWritten';
      holderId: string;
      databaseId: string;
      rows: ReadonlyMap<string, Pick<PageRow, 'id' | 'title' | 'icon' | 'cover' | 'in_trash'>>;
      written: readonly WrittenCell[];
      changes: readonly CellChange[];
      /** Fields whose cells go out per reader (relations to another database, docs/relations.md): the views read those rows again instead. */
      perReader?: ReadonlySet<string>;
    }
  /** A page's title, icon or cover changed (the page as stored). */
  | { kind: 'pageChanged'; page: Pick<PageRow, 'id' | 'title' | 'icon' | 'cover'>; at: string }
  /**
   * A page changed as the page tree lists it: made, renamed, moved, reordered, put in the trash,
   * restored, removed or cloned (under its parent, and under `before`'s parent it left). A database
   * row is no page of the sidebar: its database's views hear of it.
   */
  | { kind: 'treeChanged'; page: PageRow; before?: Pick<PageRow, 'parent_id'> }
  /** `userId` may have lost access to pages (a grant removed, a lower role, removed from a workspace). */
  | { kind: 'accessLost'; userId: string }
  /** A notification was made for `userId`. */
  | { kind: 'notified'; userId: string; workspaceId: string; notificationId: string }
  /** A comment was written, edited, deleted or reacted to on page `pageId` (webhooks hear it: docs/api/webhooks.md). */
  | { kind: 'commentChanged'; pageId: string; commentId: string; action: 'created' | 'edited' | 'deleted' | 'reacted'; at: string };

export type DomainEventKind = DomainEvent['kind'];
export type EventOf<K extends DomainEventKind> = Extract<DomainEvent, { kind: K }>;

/** A command's result with the events it made. */
export type WithEvents<T> = T & { events: DomainEvent[] };

/** The events of one kind among `events` (in their order). */
export function eventsOf<K extends DomainEventKind>(events: readonly DomainEvent[], kind: K): Array<EventOf<K>> {
  return events.filter((event): event is EventOf<K> => event.kind === kind);
}
