import type { Kysely } from 'kysely';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import { valueToText, type WireRow } from '../../schema/database';
import { CSV_EXPORT_OPTIONS } from '../../schema/csvColumns';
import type { BlockRow, Database } from '../db/types';
import { findRowPages, readRows, type RowQuery, type ViewOrders } from './databases';

/** One read of `databaseCells`: how many rows the query finds in all, and these rows' cells as text (numbers as numbers). */
export interface CellsRead {
  total: number;
  rows: Array<{ id: string; title: string; cells: Array<string | number> }>;
}

/**
 * A database's rows as the CSV export and the exports' tables write them, 1,000 rows a read, the
 * first `limit` of those the query finds: each row's cells of `columns` as text (people by the
 * names the caller may see, relations by the titles of the rows still there), a number field's
 * values as numbers.
 */
export async function* databaseCells(
  db: Kysely<Database>,
  orders: ViewOrders,
  block: BlockRow,
  data: DatabaseData,
  columns: readonly string[],
  query: RowQuery,
  /** People's names as the caller may see them (a placeholder for the others: server/commands/databases/people.ts). */
  peopleNames: (ids: readonly string[]) => Promise<Map<string, string>>,
  limit = Infinity,
  /** The rows as the caller may read them (relations to another database: the rows of it they may read; docs/relations.md). */
  readable: (rows: WireRow[]) => Promise<WireRow[]> = async (rows) => rows,
): AsyncGenerator<CellsRead> {
  const found = await orders.ids(db, block, data.config, query);
  const all = found.slice(0, limit);
  for (let at = 0; at < all.length; at += 1000) {
    const rows = await readable(await readRows(db, block.id, all.slice(at, at + 1000)));
    // A relation's rows by their titles (those still there, of the database each relation names).
    const related = new Map<string, string[]>();
    for (const id of columns) {
      const field = data.config.fields[id];
      if (field.type !== 'relation') continue;
      const target = field.databaseId ?? block.id;
      related.set(target, [
        ...(related.get(target) ?? []),
        ...rows.flatMap((row) => (Array.isArray(row.data.values[id]) ? (row.data.values[id] as string[]) : [])),
      ]);
    }
    // People by the names the caller may see: the cells' people, who made and last edited each row.
    const people = columns
      .filter((id) => data.config.fields[id].type === 'person')
      .flatMap((id) => rows.flatMap((row) => (Array.isArray(row.data.values[id]) ? (row.data.values[id] as string[]) : [])));
    const names = await peopleNames([...people, ...rows.flatMap((row) => (row.updatedBy ? [row.createdBy, row.updatedBy] : [row.createdBy]))]);
    const titles = new Map<string, string>();
    for (const [target, ids] of related)
      for (const page of ids.length ? await findRowPages(db, target, ids) : []) if (page.in_trash === 0) titles.set(page.id, page.title);
    yield {
      total: found.length,
      rows: rows.map((row) => ({
        id: row.id,
        title: row.data.title,
        cells: columns.map((id): string | number => {
          const field = data.config.fields[id];
          if (id === MAIN_FIELD_ID) return row.data.title;
          if (field.type === 'createdTime') return row.createdAt;
          if (field.type === 'editedTime') return row.updatedAt;
          if (field.type === 'createdBy') return names.get(row.createdBy) ?? row.createdBy;
          if (field.type === 'editedBy') return row.updatedBy ? (names.get(row.updatedBy) ?? row.updatedBy) : '';
          // A number as a number: `-5` is no formula, and papaparse escapes only text.
          if (field.type === 'number' && typeof row.data.values[id] === 'number') return row.data.values[id];
          return valueToText(field, row.data.values[id], { userName: (uid) => names.get(uid), rowTitle: (rid) => titles.get(rid) });
        }),
      })),
    };
  }
}

/**
 * A database's rows as CSV (docs/api/databases.md «CSV export»): a header of the columns' names,
 * then each row's cells as `databaseCells` writes them. With a byte-order mark, for spreadsheets.
 * A text cell a spreadsheet would run as a formula gets a leading apostrophe (CSV_EXPORT_OPTIONS,
 * schema/csvColumns.ts); a number field's values go as numbers, never changed.
 */
export async function* databaseCsv(
  db: Kysely<Database>,
  orders: ViewOrders,
  block: BlockRow,
  data: DatabaseData,
  columns: readonly string[],
  query: RowQuery,
  peopleNames: (ids: readonly string[]) => Promise<Map<string, string>>,
  readable?: (rows: WireRow[]) => Promise<WireRow[]>,
): AsyncGenerator<string> {
  // papaparse is CommonJS (UMD): under Node's ESM loader (the real server) its functions are on
  // the default export only; a named `unparse` is undefined there (Jest's CommonJS hides that).
  const papaparse = await import('papaparse');
  const unparse = (papaparse.default ?? papaparse).unparse;
  yield '\ufeff' + unparse([columns.map((id) => data.config.fields[id].name || id)], CSV_EXPORT_OPTIONS) + '\r\n';
  for await (const read of databaseCells(db, orders, block, data, columns, query, peopleNames, Infinity, readable)) {
    yield (
      unparse(
        read.rows.map((row) => row.cells),
        CSV_EXPORT_OPTIONS,
      ) + '\r\n'
    );
  }
}
