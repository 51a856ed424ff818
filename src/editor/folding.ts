import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { Editor } from 'slate';
import { useSlateStatic } from 'slate-react';
import type { WireBlockFold, WirePageFolds } from '../../schema/blockFolds';
import { foldedAway, onFoldedAwayChange, type FoldState } from '../../plugins/withFolding';
import { api } from '../app/api';

/*
 * The reader's open and closed toggles (issue 39; the rules: plugins/withFolding), kept by the
 * server per person (docs/api/blocks.md «Toggle folds»): read once per page when a toggle is first
 * drawn, written when one opens or closes. Closed until known, as with nothing stored.
 */

const foldsPath = (pageId: string) => `/api/v3/spaces/note/${encodeURIComponent(pageId)}/folds`;
const foldPath = (blockId: string) => `/api/v3/spaces/block/${encodeURIComponent(blockId)}/fold`;

/** A toggle just made is not on the server yet (its block is saved a moment later): its fold is written then. */
const MADE_RETRIES = 5;
const MADE_RETRY_MS = 1_500;

function createAppFolds(): FoldState & { load(pageId: string): void; reset(): void } {
  const open = new Set<string>();
  /** Toggled here since the page's read was asked for: the read does not undo them. */
  const touched = new Set<string>();
  const loaded = new Map<string, Promise<void>>();
  const listeners = new Set<() => void>();
  let version = 0;
  const emit = () => {
    version += 1;
    for (const listener of [...listeners]) listener();
  };
  const write = (uid: string, value: boolean, attemptsLeft: number) => {
    api<WireBlockFold>(foldPath(uid), { method: 'PUT', body: { open: value }, changesOnly: foldPath(uid), expected: [404] }).catch((error: unknown) => {
      const status = (error as { status?: number }).status;
      // Not saved yet (a toggle just made), or a passing failure: tried again a little later; kept here meanwhile.
      if (attemptsLeft > 0 && (status === 404 || status === undefined || status >= 500)) {
        setTimeout(() => {
          if (open.has(uid) === value) write(uid, value, attemptsLeft - 1);
        }, MADE_RETRY_MS);
      }
    });
  };
  return {
    isOpen: (uid) => open.has(uid),
    version: () => version,
    setOpen: (uid, value, made = false) => {
      touched.add(uid);
      if (open.has(uid) !== value) {
        if (value) open.add(uid);
        else open.delete(uid);
        emit();
      }
      write(uid, value, made ? MADE_RETRIES : 1);
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    load: (pageId) => {
      if (loaded.has(pageId)) return;
      loaded.set(
        pageId,
        api<WirePageFolds>(foldsPath(pageId), { expected: [401, 403, 404] })
          .then(({ data }) => {
            let changed = false;
            for (const uid of data.open) {
              if (!touched.has(uid) && !open.has(uid)) {
                open.add(uid);
                changed = true;
              }
            }
            if (changed) emit();
          })
          .catch(() => {
            // Not readable (a public page read anonymously) or a failure: closed, as by default; read again on the next visit.
            loaded.delete(pageId);
          }),
      );
    },
    reset: () => {
      open.clear();
      touched.clear();
      loaded.clear();
      emit();
    },
  };
}

/** The signed-in reader's folds, shared by every page editor of the app. */
export const appFolds = createAppFolds();

/** Reads the page's folds once, when a toggle of it is first drawn. */
export function usePageFolds(pageId: string | null): void {
  useEffect(() => {
    if (pageId) appFolds.load(pageId);
  }, [pageId]);
}

/** Whether this toggle is open for the reader (re-renders when it opens or closes). */
export function useFoldOpen(uid: string): boolean {
  const editor = useSlateStatic();
  const subscribe = useCallback((listener: () => void) => editor.folds.subscribe(listener), [editor]);
  return useSyncExternalStore(
    subscribe,
    () => editor.folds.isOpen(uid),
    () => false,
  );
}

const noFolds = () => () => undefined;

/**
 * Whether the block is folded away under a closed toggle: it is then drawn as an empty hidden
 * element, without its text or its view (renderers.tsx; the caret is never in it). Each
 * block reads the one set computed per change of the page's shape (plugins/withFolding), so a
 * keystroke of typing costs nothing here.
 */
export function useFoldedAway(editor: Editor, uid: string | undefined): boolean {
  const subscribe = useCallback((listener: () => void) => (uid === undefined ? noFolds() : onFoldedAwayChange(editor, listener)), [editor, uid]);
  const read = () => uid !== undefined && foldedAway(editor).has(uid);
  return useSyncExternalStore(subscribe, read, read);
}
