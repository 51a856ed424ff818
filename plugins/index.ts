import { createEditor } from 'slate';
import { withHistory } from 'slate-history';
import { withReact } from 'slate-react';
import './types';
import type { WorkspaceEditor } from './types';
import { withBlockSync, type BlockSyncHandlers } from './withBlockSync';
import { withMarkdownShortcuts } from './withMarkdownShortcuts';
import { withPageHeading } from './withPageHeading';
import { withVoidBlocks } from './withVoidBlocks';

/**
 * The editor with every plugin, in order: React and history outermost, then document shape,
 * shortcuts, and (when the page is editable) block sync, which sees every operation.
 */
export function createWorkspaceEditor(sync?: BlockSyncHandlers): WorkspaceEditor {
  let editor = withMarkdownShortcuts(withPageHeading(withVoidBlocks(withHistory(withReact(createEditor())))));
  if (sync) editor = withBlockSync(editor, sync);
  return editor;
}

export * from './withBlockSync';
export * from './withMarkdownShortcuts';
export * from './withPageHeading';
export * from './withVoidBlocks';
export * from './queries';
export type { WorkspaceEditor } from './types';
