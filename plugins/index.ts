import { createEditor, Editor } from 'slate';
import { withHistory } from 'slate-history';
import { withReact } from 'slate-react';
import { orderedNumberAt, previousSiblingIndex } from '../schema/blocks';
import type { BlockElement } from '../schema/slate';
import './types';
import type { WorkspaceEditor } from './types';
import { withBlockActions } from './withBlockActions';
import { withBlockSync, type BlockSyncHandlers } from './withBlockSync';
import { withClipboard } from './withClipboard';
import { withDatabaseGuard, type ConfirmDatabaseRemoval } from './withDatabaseGuard';
import { withCodeBlocks } from './withCodeBlocks';
import { withMarkdownShortcuts } from './withMarkdownShortcuts';
import { withMarks } from './withMarks';
import { withPageHeading } from './withPageHeading';
import { withPageLinks } from './withPageLinks';
import { withStructure } from './withStructure';
import { withTables } from './withTables';
import { withUndoWindow } from './withUndoWindow';
import { withVoidBlocks } from './withVoidBlocks';

/**
 * Top-level blocks per render chunk (and chunks per higher chunk): slate-react re-renders only
 * the chunks an edit is in; a chunk far from the viewport is not mounted (src/editor/lazyChunks.tsx).
 */
export const BLOCK_CHUNK_SIZE = 64;

/** The number an ordered item at `index` would get: one after the ordered sibling before it, or 1. */
function nextOrderedNumber(elements: readonly BlockElement[], index: number): number {
  const previous = previousSiblingIndex(elements, index, elements[index]?.depth ?? 0);
  return previous < 0 ? 1 : orderedNumberAt(elements, previous) + 1;
}

/**
 * The editor with every plugin, in order: React and history outermost, then document shape,
 * shortcuts, and (when the page is editable) block sync, which sees every operation.
 */
export function createWorkspaceEditor(sync?: BlockSyncHandlers, options: { confirmDatabaseRemoval?: ConfirmDatabaseRemoval } = {}): WorkspaceEditor {
  const base = withHistory(withReact(createEditor())) as WorkspaceEditor;
  base.handleKey = () => false;
  // Big pages: the top-level blocks render in chunks (see BLOCK_CHUNK_SIZE and src/editor/lazyChunks.tsx).
  base.getChunkSize = (node) => (Editor.isEditor(node) ? BLOCK_CHUNK_SIZE : null);
  // Tables are the innermost rule set: the block rules above see a cell's keys first and pass them on.
  withTables(base);
  let editor = withPageLinks(withBlockActions(withMarks(withUndoWindow(withMarkdownShortcuts(withCodeBlocks(withStructure(withPageHeading(withVoidBlocks(base)))), { orderedNumberAt: nextOrderedNumber })))));
  editor = withClipboard(editor);
  if (sync) editor = withBlockSync(editor, sync);
  // Outermost: an edit that removed a database is taken back before anything else sees it settle.
  if (sync && options.confirmDatabaseRemoval) editor = withDatabaseGuard(editor, options.confirmDatabaseRemoval);
  return editor;
}

export * from './withBlockActions';
export * from './withBlockSync';
export * from './withClipboard';
export * from './withDatabaseGuard';
export * from './withCodeBlocks';
export * from './withMarkdownShortcuts';
export * from './withMarks';
export * from './withUndoWindow';
export * from './withPageHeading';
export * from './withPageLinks';
export * from './withStructure';
export * from './withTables';
export * from './withVoidBlocks';
export * from './queries';
export type { KeyPress, WorkspaceEditor } from './types';
