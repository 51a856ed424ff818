import { createEditor, Editor } from 'slate';
import { withReact, type ReactEditor } from 'slate-react';
import { createWorkspaceEditor, type BlockSyncHandlers, type WorkspaceEditor, type WorkspaceEditorOptions } from '../../plugins';
import { appFolds } from './folding';

declare module '../../plugins/types' {
  /** The web app renders the editor: here Slate's `Editor` is slate-react's too (plugins/types.ts). */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface RenderedEditor extends ReactEditor {}
}

/**
 * Top-level blocks per render chunk (and chunks per higher chunk): slate-react re-renders only
 * the chunks an edit is in; a chunk far from the viewport is not mounted (lazyChunks.tsx, ADR 6).
 */
export const BLOCK_CHUNK_SIZE = 64;

/**
 * The web app's editor: the plugins' editor (plugins/index.ts) over slate-react's, with the
 * top-level blocks rendered in chunks. withReact goes underneath every plugin, as it always
 * has: it sets `insertData`, `setFragmentData` and `getChunkSize` outright rather than wrapping
 * them, so over the plugins it would drop withClipboard's copy and paste. (slate-react's docs
 * put withReact over withHistory; we keep it under, where the plugins' overrides see it.)
 */
export function createPageEditor(sync?: BlockSyncHandlers, options: Omit<WorkspaceEditorOptions, 'base'> = {}): WorkspaceEditor {
  const base = withReact(createEditor());
  base.getChunkSize = (node) => (Editor.isEditor(node) ? BLOCK_CHUNK_SIZE : null);
  const editor = createWorkspaceEditor(sync, { ...options, base });
  // The reader's open toggles, kept by the server (src/editor/folding.ts).
  editor.folds = appFolds;
  return editor;
}
