/** Page history on the wire (docs/history.md «API»). */
import type { DatabaseField, RowValue } from './blocks/database';

/** A version of a page, as listed. */
export interface WirePageVersion {
  id: number;
  createdAt: string;
  title: string;
  /** Who changed the page since the version before (names as the caller may see them). */
  authors: Array<{ id: string; name: string; email: string }>;
  /** `restore`: made by restoring `restoredFrom`. */
  kind: 'edit' | 'restore';
  restoredFrom: number | null;
  /** Blocks it changed since the version before. */
  changed: number;
}

/** A block as a version kept it. */
export interface WireVersionBlock {
  id: string;
  type: string;
  data: Record<string, unknown>;
  parentId: string | null;
}

/** A version's page: its blocks in document order, and what it changed since the version before. */
export interface WireVersionContent {
  version: WirePageVersion;
  blocks: WireVersionBlock[];
  changes: Array<{ blockId: string; kind: 'added' | 'changed' | 'removed'; before: WireVersionBlock | null }>;
}

/**
 * A change of a row's cell (docs/history.md «A row's property changes»): a burst of one person's
 * changes of the cell is one entry, from its first value to its last.
 */
export interface WireCellChange {
  id: number;
  rowId: string;
  fieldId: string;
  /** The field as it is now (its name, options, format); its type may differ from `fieldType` when it was retyped since. */
  field: DatabaseField;
  /** The field's type when the change was made. */
  fieldType: string;
  from: RowValue;
  to: RowValue;
  /** The values as text: options by name, people by the names the caller may see, relations by title, as CSV writes them. */
  fromText: string;
  toText: string;
  /** Who made it (the name as the caller may see it). */
  author: { id: string; name: string };
  /** The burst's first change and its last. */
  startedAt: string;
  at: string;
  /** False when the field was retyped since: shown, not brought back (409 database.history_field_changed). */
  restorable: boolean;
  /** A restore: the entry whose earlier value it brought back. */
  restoredFrom: number | null;
}

/** `POST row/{id}/history/{entryId}/restore`: the cell as written (a cell write's answer). */
export interface WireCellRestore {
  rowId: string;
  fieldId: string;
  value: RowValue;
  version: number;
  updatedAt: string;
  updatedBy: string;
}
