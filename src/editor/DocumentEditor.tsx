import { useEffect, useMemo, useRef } from 'react';
import { Editor, Transforms, type Descendant } from 'slate';
import { Editable, ReactEditor, Slate } from 'slate-react';
import { toSlate, type WireBlock } from '../../schema/block';
import { titleToSlate } from '../../schema/blocks';
import { PAGE_RENAME_DEBOUNCE_MS } from '../../schema/constants';
import type { WireElement } from '../../schema/element';
import {
  createBlockSyncQueue,
  createWorkspaceEditor,
  readBlock,
  replaceWithServerCopy,
  type BlockSyncQueue,
  type SyncStatus,
} from '../../plugins';
import { blockApi } from './blockApi';
import { BlockElementView, TokenLeaf } from './renderers';
import './editor.css';

export interface DocumentEditorProps {
  page: WireElement;
  blocks: WireBlock[];
  canEdit: boolean;
  /** Every title keystroke (for the sidebar); the server hears of it debounced. */
  onTitleEdited(title: string): void;
  /** Sends the title to the server. */
  saveTitle(title: string): Promise<void>;
  onSyncStatus(status: SyncStatus): void;
}

/**
 * The page editor: the title and the blocks in one Slate document. Edits go to the server
 * through the block-sync queue (1 s per block, one request at a time); the title is saved 500 ms
 * after the last keystroke. Nothing is sent when the page is read-only.
 */
export function DocumentEditor({ page, blocks, canEdit, onTitleEdited, saveTitle, onSyncStatus }: DocumentEditorProps) {
  const callbacks = useRef({ onTitleEdited, saveTitle, onSyncStatus });
  callbacks.current = { onTitleEdited, saveTitle, onSyncStatus };

  const { editor, queue, title } = useMemo(() => {
    const titleSync = { timer: undefined as ReturnType<typeof setTimeout> | undefined, pending: null as string | null };
    const flushTitle = () => {
      clearTimeout(titleSync.timer);
      const value = titleSync.pending;
      titleSync.pending = null;
      if (value !== null) void callbacks.current.saveTitle(value);
    };
    let syncQueue: BlockSyncQueue | null = null;
    const workspaceEditor = createWorkspaceEditor(
      canEdit
        ? {
            onBlockChanged: (uid) => syncQueue?.markDirty(uid),
            onTitleChanged: (value) => {
              callbacks.current.onTitleEdited(value);
              titleSync.pending = value;
              clearTimeout(titleSync.timer);
              titleSync.timer = setTimeout(flushTitle, PAGE_RENAME_DEBOUNCE_MS);
            },
          }
        : undefined,
    );
    syncQueue = createBlockSyncQueue({
      api: blockApi,
      read: (uid) => readBlock(workspaceEditor, page.id, uid),
      onServerCopy: (block) => replaceWithServerCopy(workspaceEditor, block),
      onStatus: (status) => callbacks.current.onSyncStatus(status),
    });
    syncQueue.seed(blocks);
    return { editor: workspaceEditor, queue: syncQueue, title: { state: titleSync, flush: flushTitle } };
    // The editor is made once per page: the component is keyed by page id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const initialValue = useMemo<Descendant[]>(
    () => [titleToSlate(page.id, page.title), ...blocks.map(toSlate)],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  const isNewPage = canEdit && page.title === '' && blocks.length === 0;
  useEffect(() => {
    // A new page starts with the caret in its title, as in Notion.
    if (!isNewPage) return;
    Transforms.select(editor, Editor.start(editor, [0]));
    ReactEditor.focus(editor);
  }, [editor, isNewPage]);

  useEffect(() => {
    const warnIfUnsaved = (event: BeforeUnloadEvent) => {
      if (queue.hasPending() || title.state.pending !== null) {
        // Send what we can right away; the browser asks the user whether to leave.
        void queue.flush();
        title.flush();
        event.preventDefault();
      }
    };
    window.addEventListener('beforeunload', warnIfUnsaved);
    return () => {
      window.removeEventListener('beforeunload', warnIfUnsaved);
      // Leaving the page inside the app: send everything now rather than lose it.
      title.flush();
      void queue.flush().then(() => queue.dispose());
    };
  }, [queue, title]);

  return (
    <Slate editor={editor} initialValue={initialValue}>
      <Editable
        className="document-editor"
        readOnly={!canEdit}
        spellCheck
        renderElement={BlockElementView}
        renderLeaf={TokenLeaf}
      />
    </Slate>
  );
}
