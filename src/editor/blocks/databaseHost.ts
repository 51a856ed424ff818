import { createContext, useContext } from 'react';
import type { WireBlock } from '../../../schema/block';
import { holdsDatabase, type WireElement } from '../../../schema/element';
import type { RealtimeConnection } from '../../app/realtimeConnection';

/**
 * What a database block in the editor needs from the page around it (src/features/database):
 * the page, whether it may be edited, a way to put the database block the server answered
 * (after a field or view change) into the editor — through the sync queue, as someone else's
 * change would come — and the realtime connection for the rows' `database` events.
 */
export interface DatabaseHost {
  pageId: string;
  workspaceId: string | null;
  canEdit: boolean;
  receiveBlock(block: WireBlock): void;
  /** Whether the server has the block yet (a database just made from the slash menu has not, for up to a second). */
  isSaved(uid: string): boolean;
  /** Sends the page's unsent edits now (the new database block first reaches the server). */
  flush(): Promise<void>;
  live: { connection: RealtimeConnection; userId: string } | null;
  /** The database a page of type Database holds (its first database block): drawn full width and height. */
  fillDatabaseId?: string;
  /** A published page shown to anyone: rows are listed, not opened (their pages are not published with it), and members' names are not asked for. */
  published?: boolean;
  /** Opens a page (a row as a full page). */
  openPage?(pageId: string): void;
  /** Makes a page showing the view `layoutId` of this database (a WidgetView page) and answers its id; absent where there is no page tree to put it in. */
  createLinkedView?(layoutId: string, viewName: string): Promise<string>;
}

/** The database a page of type Database draws full width and height: its first database block (`DatabaseHost.fillDatabaseId`). */
export function fillDatabaseOf(page: Pick<WireElement, 'type'>, blocks: readonly WireBlock[]): string | undefined {
  return holdsDatabase(page.type) ? blocks.find((block) => block.type === 'database')?.id : undefined;
}

export const DatabaseHostContext = createContext<DatabaseHost | null>(null);

export function useDatabaseHost(): DatabaseHost | null {
  return useContext(DatabaseHostContext);
}
