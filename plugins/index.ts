import { createEditor, type Editor } from 'slate';
import { withHistory } from 'slate-history';
import { orderedNumberAt, previousSiblingIndex } from '../schema/blocks';
import type { BlockElement } from '../schema/slate';
import './types';
import type { WorkspaceEditor } from './types';
import { withBlockActions } from './withBlockActions';
import { withBlockSync, type BlockSyncHandlers } from './withBlockSync';
import { withClipboard } from './withClipboard';
import { withDatabaseGuard, type ConfirmDatabaseRemoval } from './withDatabaseGuard';
import { withDateMentions } from './withDateMentions';
import { withCodeBlocks } from './withCodeBlocks';
import { withColumns } from './withColumns';
import { withFolding } from './withFolding';
import { withMarkdownShortcuts } from './withMarkdownShortcuts';
import { withMarks } from './withMarks';
import { withPageHeading } from './withPageHeading';
import { withPageLinks } from './withPageLinks';
import { withStructure } from './withStructure';
import { withTables } from './withTables';
import { withUndoWindow } from './withUndoWindow';
import { withVoidBlocks } from './withVoidBlocks';

/** The number an ordered item at `index` would get: one after the ordered sibling before it, or 1. */
function nextOrderedNumber(elements: readonly BlockElement[], index: number): number {
  const previous = previousSiblingIndex(elements, index, elements[index]?.depth ?? 0);
  return previous < 0 ? 1 : orderedNumberAt(elements, previous) + 1;
}

/** What the editor is built with besides the block-sync handlers. */
export interface WorkspaceEditorOptions {
  /** Asked before an edit that removed a database settles (only with block sync). */
  confirmDatabaseRemoval?: ConfirmDatabaseRemoval;
  /**
   * The core editor to build on: Slate's `createEditor()` by default (headless). The web app
   * passes slate-react's (src/editor/pageEditor.ts): it sets some methods outright rather than
   * wrapping them (insertData, setFragmentData), so it goes under every plugin.
   */
  base?: Editor;
}

/**
 * The editor with every plugin, in order: the core editor and history underneath, then document
 * shape, shortcuts, and (when the page is editable) block sync, which sees every operation.
 * Headless unless `options.base` is a rendered editor: the web app's is `createPageEditor()`
 * (src/editor/pageEditor.ts), this over slate-react's.
 */
export function createWorkspaceEditor(sync?: BlockSyncHandlers, options: WorkspaceEditorOptions = {}): WorkspaceEditor {
  const base = withHistory(options.base ?? createEditor()) as WorkspaceEditor;
  base.handleKey = () => false;
  // Tables are the innermost rule set: the block rules above see a cell's keys first and pass them on.
  withTables(base);
  let editor = withDateMentions(
    withPageLinks(
      withBlockActions(
        withMarks(
          withUndoWindow(
            withFolding(
              withMarkdownShortcuts(withCodeBlocks(withColumns(withStructure(withPageHeading(withVoidBlocks(base))))), { orderedNumberAt: nextOrderedNumber }),
            ),
          ),
        ),
      ),
    ),
  );
  editor = withClipboard(editor);
  if (sync) editor = withBlockSync(editor, sync);
  // Outermost: an edit that removed a database is taken back before anything else sees it settle.
  if (sync && options.confirmDatabaseRemoval) editor = withDatabaseGuard(editor, options.confirmDatabaseRemoval);
  return editor;
}

export * from './withBlockActions';
export * from './withBlockSync';
export * from './withClipboard';
export * from './withColumns';
export * from './withDatabaseGuard';
export * from './withDateMentions';
export * from './withCodeBlocks';
export * from './withFolding';
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
