import { createContext, useContext } from 'react';
import type { DatabaseConfig, DatabaseField, DatabaseLayout } from '../../../schema/blocks/database';
import type { DatabaseChange } from '../../../schema/database';
import type { WireUser } from '../../../schema/user';
import type { DatabaseApi, DatabaseBlock } from './api';

/** Something that hears the database's realtime changes while it is drawn (a row store, a chart). */
export interface LiveView {
  applyChange(change: DatabaseChange): void;
  refreshSoon(): void;
  /** Reads again only if what it holds was read at another revision than `revision` (the database's now); without it, `refreshSoon`. */
  refreshUnless?(revision: string): void;
  /** The database's fields now (a row store drops the cells of those deleted: `RowStore.setFields`). */
  setFields?(fieldIds: readonly string[]): void;
}

/** What every part of one database's view shares: the database, its fields, the calls, and whether it may be changed. */
export interface DatabaseContextValue {
  databaseId: string;
  pageId: string;
  config: DatabaseConfig;
  editable: boolean;
  api: DatabaseApi;
  /** The database block the server answered (a field or view changed): into the editor. */
  apply(block: DatabaseBlock): void;
  /** Changes keys of a view (POST database/{id}/views/{viewId}); a failure is a toast. */
  saveView(viewId: string, patch: Partial<Omit<DatabaseLayout, 'uid'>>): Promise<void>;
  /** Saves a field (rename, options, format); a failure is a toast. */
  saveField(fieldId: string, field: DatabaseField): Promise<boolean>;
  members: WireUser[];
  /** Opens a row in the side peek; missing on a published page (rows do not open there). */
  openRow?(rowId: string): void;
  /** Opens a page as the page screen (a row template, to change it); missing where there is none. */
  openPage?(pageId: string): void;
  /**
   * The database's default row template as its data says (docs/api/databases.md «Row templates»):
   * null none; undefined where the view does not know its data's (the templates' list says).
   */
  defaultTemplate?: string | null;
}

export const DatabaseContext = createContext<DatabaseContextValue | null>(null);

export function useDatabase(): DatabaseContextValue {
  const value = useContext(DatabaseContext);
  if (!value) throw new Error('useDatabase outside a database view');
  return value;
}
