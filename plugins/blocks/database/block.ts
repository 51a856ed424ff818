import type { BlockDefinition } from '../../../schema/blocks/definition';
import {
  aboutOf,
  copyConfig,
  copyView,
  databaseDataSchema,
  databaseRowDataSchema,
  type DatabaseConfig,
  type DatabaseData,
  type DatabaseRowData,
  type DatabaseView,
  type RowValue,
} from '../../../schema/blocks/database';
import type { BlockElementBase } from '../../../schema/slate';

/**
 * The database block types. Their data model — fields, views, values, limits — is the database
 * feature's and lives in schema/blocks/database.ts (the server and src/features/database read it);
 * this folder holds the two block types made of it.
 */

/** A database (void): the columns and layouts live on the element; its rows are separate blocks. */
export interface DatabaseElement extends BlockElementBase {
  type: 'databaseBlock';
  config: DatabaseConfig;
  view: DatabaseView;
  /** An inline database's title and description (absent: none). */
  title?: string;
  description?: string;
  /** The row template «Новая строка» starts from (docs/api/databases.md «Row templates»). */
  defaultTemplate?: string | null;
}
/** A database row (void): its title, icon and cell values live on the element. */
export interface DatabaseRowElement extends BlockElementBase {
  type: 'databaseRowBlock';
  title: string;
  icon: string | null;
  values: Record<string, RowValue>;
}

/** A database: a void element in the editor that carries its config and view, and its title and description when it has them. */
export const databaseBlock: BlockDefinition<'database', DatabaseData, DatabaseElement> = {
  wireType: 'database',
  slateType: 'databaseBlock',
  dataSchema: databaseDataSchema,
  shortcuts: [],
  menuGroup: 'database',
  searchText: (data) =>
    [data.title, data.description]
      .filter((text): text is string => typeof text === 'string')
      .map((text) => text.trim())
      .filter(Boolean)
      .join('\n'),
  isVoid: true,
  canonicalize: (data) => data,
  // Its first view as a table and a link to its CSV, as the export writes them (server/export/pageExport.ts).
  markdown: { serialize: (_data, md) => md.database(md.blockId) },
  toSlateFields: (data) => ({ children: [{ text: '' }], config: copyConfig(data.config), view: copyView(data.view), ...aboutOf(data) }),
  toWireData: (element) => ({ config: copyConfig(element.config), view: copyView(element.view), ...aboutOf(element) }),
};

/** A database row: a void element that carries its title, icon and values. */
export const databaseRowBlock: BlockDefinition<'databaseRow', DatabaseRowData, DatabaseRowElement> = {
  wireType: 'databaseRow',
  slateType: 'databaseRowBlock',
  dataSchema: databaseRowDataSchema,
  shortcuts: [],
  isVoid: true,
  canonicalize: (data) => data,
  toSlateFields: (data) => ({ children: [{ text: '' }], title: data.title, icon: data.icon, values: { ...data.values } }),
  toWireData: (element) => ({ title: element.title, icon: element.icon, values: { ...element.values } }),
};
