import type { WireBlock } from '../../../../schema/block';
import type { DatabaseData } from '../../../../schema/blocks/database';
import { api } from '../../../app/api';

/*
 * The data-table calls the CSV import and export share (docs/api/databases.md). Kept apart from
 * the import, so the page menu's export does not load papaparse.
 */

const spaces = (path: string) => `/api/v3/spaces/${path}`;
export const databaseUrl = (id: string, rest = '') => spaces(`database/${encodeURIComponent(id)}${rest}`);

/** A database as the import needs it: the block's id and its fields and views. */
export interface DatabaseRef {
  id: string;
  data: DatabaseData;
}

export const asDatabase = (block: WireBlock): DatabaseRef => ({ id: block.id, data: block.data as unknown as DatabaseData });

/** The database block of a Database page (the first block of type database; none: null). */
export async function findDatabaseOfPage(pageId: string): Promise<DatabaseRef | null> {
  const { data } = await api<WireBlock[]>(spaces(`note/${encodeURIComponent(pageId)}/blocks`));
  const block = data.find((b) => b.type === 'database');
  return block ? asDatabase(block) : null;
}

export async function readDatabase(id: string): Promise<DatabaseRef> {
  return asDatabase((await api<WireBlock>(databaseUrl(id))).data);
}

/** The address the browser downloads a view's CSV from (the server streams it; cookies sign it in). */
export function exportCsvUrl(databaseId: string, viewId: string): string {
  return `${databaseUrl(databaseId, '/export.csv')}?viewId=${encodeURIComponent(JSON.stringify(viewId))}`;
}

/** Starts the download of a view's CSV. */
export function downloadCsv(databaseId: string, viewId: string): void {
  const link = document.createElement('a');
  link.href = exportCsvUrl(databaseId, viewId);
  link.download = '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
