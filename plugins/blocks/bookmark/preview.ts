import { useSyncExternalStore } from 'react';
import { Transforms, type Editor, type Node } from 'slate';
import { HistoryEditor } from 'slate-history';
import { api } from '../../../src/app/api';
import { failureIn } from '../../../src/app/errors';
import type { WireLinkPreview } from '../../../schema/linkPreview';
import type { BookmarkPreview } from './block';

/*
 * Reading a bookmark's card (the web app's part of POST link/preview): the block's address is
 * sent to the server, and what it read is written into the block — if it still holds that
 * address — without an undo step of its own (undoing the address undoes the card with it). While
 * a read is under way, or after it failed, this tab shows so; nothing of that is stored, so after
 * a reload a card that was never read shows its address plainly, with «Обновить превью».
 */

export type PreviewFailure = 'refused' | 'busy' | 'failed';
export type PreviewState = { status: 'loading' } | { status: 'failed'; reason: PreviewFailure };

const states = new Map<string, PreviewState>();
const listeners = new Set<() => void>();

function setState(uid: string, state: PreviewState | null): void {
  if (state) states.set(uid, state);
  else states.delete(uid);
  listeners.forEach((listener) => listener());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** This tab's read of the block's card: under way, failed (why), or none. */
export function usePreviewState(uid: string): PreviewState | undefined {
  return useSyncExternalStore(subscribe, () => states.get(uid));
}

const cardOf = (preview: WireLinkPreview): BookmarkPreview => ({
  title: preview.title,
  description: preview.description,
  image: preview.image,
  icon: preview.icon,
  siteName: preview.siteName,
});

/** The block with `uid` if it is a bookmark of `url` still (it may have been deleted or given another address meanwhile). */
function bookmarkAt(editor: Editor, uid: string, url: string): number {
  return editor.children.findIndex((node) => {
    const block = node as { type?: string; uid?: string; url?: string | null };
    return block.type === 'bookmarkBlock' && block.uid === uid && block.url === url;
  });
}

/** The bookmarks (uid and address) whose card this tab has asked for: each once, unless asked again with «Обновить превью». */
const asked = new Set<string>();

/**
 * A writer's editor showing a bookmark whose card was never read (just made, or its read failed
 * before a reload) reads it, once per tab. Two writers may both do so: they write the same card,
 * and the sync's merge takes the second write as nothing new (docs/sync.md).
 */
export function readCardOnce(editor: Editor, uid: string, url: string): void {
  if (asked.has(`${uid} ${url}`) || states.has(uid)) return;
  void loadBookmarkPreview(editor, uid, url);
}

/**
 * Asks the server for `url`'s card and writes it into the bookmark `uid` (see the file's
 * comment); `fresh` («Обновить превью») has the page read again rather than the day's kept card.
 */
export async function loadBookmarkPreview(editor: Editor, uid: string, url: string, fresh = false): Promise<void> {
  asked.add(`${uid} ${url}`);
  setState(uid, { status: 'loading' });
  try {
    const { data } = await api<WireLinkPreview>('/api/v3/spaces/link/preview', {
      method: 'POST',
      body: fresh ? { url, fresh } : { url },
      retries: 0,
      expected: [422, 429, 502],
    });
    const index = bookmarkAt(editor, uid, url);
    if (index >= 0) HistoryEditor.withoutSaving(editor, () => Transforms.setNodes<Node>(editor, { preview: cardOf(data) } as Partial<Node>, { at: [index] }));
    setState(uid, null);
  } catch (error) {
    setState(uid, { status: 'failed', reason: failureIn<PreviewFailure>(error, { 'link.address_refused': 'refused', rate_limited: 'busy' }, 'failed') });
  }
}
