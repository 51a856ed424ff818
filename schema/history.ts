/** Page history on the wire (docs/history.md «API»). */

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
