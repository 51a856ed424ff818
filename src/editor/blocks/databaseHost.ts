import { createContext, useContext } from 'react';
import type { WireBlock } from '../../../schema/block';
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
  live: { connection: RealtimeConnection; userId: string } | null;
  /** Opens a page (a row as a full page). */
  openPage?(pageId: string): void;
}

export const DatabaseHostContext = createContext<DatabaseHost | null>(null);

export function useDatabaseHost(): DatabaseHost | null {
  return useContext(DatabaseHostContext);
}
