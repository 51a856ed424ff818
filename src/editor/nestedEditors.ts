import { createContext, type ComponentType } from 'react';
import type { Editor, Path } from 'slate';
import type { SyncStatus } from '../../plugins/withBlockSync';
import type { DocumentEditorProps } from './DocumentEditor';

/** An editor of another page drawn inside a block of this one (a synced block's): what this page's editor needs of it. */
export interface NestedEditor {
  /** Some edit of it has not reached the server yet. */
  unsaved(): boolean;
  /** Sends everything now; resolves when its queue is empty (or gave up for now). */
  save(): Promise<void>;
  /** It may be edited (a read-only one needs no leave guard). */
  editable: boolean;
}

/**
 * What a page's editor gives the blocks in it that draw an editor of another page (a synced
 * block: plugins/blocks/synced): the editor component itself (so a block type's view does not
 * import the page editor, which imports every view), and a place to report to — the page says
 * «Сохранено» only when they are saved too, and leaving the page waits for them as for its own
 * blocks (one leave guard: the page's).
 */
export interface NestedEditors {
  Editor: ComponentType<DocumentEditorProps>;
  /** Joins a nested editor to this page's «Сохранено» and leave guard; returns its leaving. */
  attach(editor: NestedEditor): () => void;
  /** A nested editor's status changed. */
  status(editor: NestedEditor, status: SyncStatus): void;
  /** How many editors this one is inside (0: the page's own). A synced block is not drawn inside another. */
  depth: number;
  /** The page this editor edits and its workspace. */
  pageId: string;
  /** Whose children its nested-page blocks are: the page's, or the page a synced block was made on (for that block's editor). */
  childPagesOf: string;
  workspaceId: string | null;
  /** A published page shown to anyone: a synced block's page is read as a public page. */
  published: boolean;
  /**
   * A block to show that this editor does not hold (a search result or a reminder in a synced
   * block): offered to the synced blocks drawn (`listeners`: the one holding it answers true and
   * shows it); when none holds it yet, kept (`pending`) for those still loading.
   */
  reveal: { pending: string | null; listeners: Set<(uid: string) => boolean> };
}

export const NestedEditorsContext = createContext<NestedEditors | null>(null);

/** What a block type's maker (a View.tsx's `blockMakers`) is given: the slash menu's block at `path` is replaced by the new block. */
export interface BlockMakerContext {
  path: Path;
  /** The page's id and workspace. */
  pageId: string;
  workspaceId: string | null;
  /** The editor is itself inside another page's (a synced block's). */
  nested: boolean;
}

/** Makes a block type that needs more than its default data (a synced block: its page first). */
export type BlockMaker = (editor: Editor, context: BlockMakerContext) => void;

/**
 * The block menu of the block an editor is drawn in (a synced block's «Отвязать», «Копировать и
 * синхронизировать»), offered in that editor's own block menu too: with the caret inside, Ctrl+/
 * is how a keyboard reaches them.
 */
export interface HostMenuItem {
  id: string;
  label: string;
  run(): void;
}
export const HostBlockMenuContext = createContext<{ title: string; items: readonly HostMenuItem[] } | null>(null);
