import type { BaseEditor } from 'slate';
import type { HistoryEditor } from 'slate-history';
import type { SlateElement, SlateText } from '../schema/slate';

/** The parts of a keyboard event the key rules read (a DOM KeyboardEvent fits; tests pass plain objects). */
export interface KeyPress {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

export interface KeyRules {
  /**
   * Key rules of the plugins, as a chain: each plugin wraps it, handles the keys it owns and
   * passes the rest on. True when the key was handled (the editor then prevents the default).
   * Enter, Backspace and typing go through Slate's own methods (insertBreak, deleteBackward,
   * insertText); this is for the other keys (Tab, shortcuts with modifiers, Escape, arrows).
   */
  handleKey(event: KeyPress): boolean;
}

export interface PageCopies {
  /**
   * Set by the app: blocks pointing at nested pages were duplicated, and each copy points at a
   * new page id (`to`) that should become a deep copy of the page `from` (docs/api/pages.md, page/clone).
   */
  copyPages?(pairs: Array<{ from: string; to: string }>): void;
}

export interface PageLinkTitles {
  /**
   * Set by the app: the current title of a linked page as this reader may see it (or null while
   * unknown / not readable). Copy writes it as the link's text in HTML and plain text, so a
   * page link pasted elsewhere reads as the page's title (docs/plugins.md, «Page links»).
   */
  pageLinkTitle?(pageId: string): string | null;
}

/**
 * Clipboard data in and out of the editor, by the names slate-react's DOM editor gives them: the
 * web app's editor has Slate's own (withReact, src/editor/pageEditor.ts) and withClipboard
 * extends them; headless, withClipboard brings a base of its own.
 */
export interface ClipboardData {
  /** Paste or drop: insert what `data` holds at the selection. */
  insertData(data: DataTransfer): void;
  /** Copy, cut or drag: put the selection on `data`. */
  setFragmentData(data: DataTransfer, originEvent?: 'drag' | 'copy' | 'cut'): void;
}

/** Whether each folding block (a toggle) is open, for the reader of this editor (plugins/withFolding). */
export interface FoldState {
  isOpen(uid: string): boolean;
  /** Opens or closes a block; `made`: it has just been made (by this reader), not toggled. */
  setOpen(uid: string, open: boolean, made?: boolean): void;
  /** Calls `listener` when any block opens or closes; answers the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Counts the changes (any block opened or closed): what is computed from the folds is kept while it is the same. */
  version(): number;
}

export interface FoldingEditor {
  /** The reader's open and closed folding blocks: a set in memory unless the app sets its own (src/editor/folding.ts). */
  folds: FoldState;
}

/**
 * What rendering adds to the editor. Empty here: plugins/ are headless and import nothing of
 * slate-react (eslint.config.js). The web app renders the editor and merges slate-react's
 * `ReactEditor` in (src/editor/pageEditor.ts), so in its code Slate's `Editor` is the rendered
 * editor; headless (plugins' tests, the server's HTML import and export) it adds nothing.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RenderedEditor {}

export type WorkspaceEditor = BaseEditor & HistoryEditor & ClipboardData & KeyRules & PageCopies & PageLinkTitles & FoldingEditor & RenderedEditor;

declare module 'slate' {
  interface CustomTypes {
    Editor: WorkspaceEditor;
    Element: SlateElement;
    Text: SlateText;
  }
}
