import { useSyncExternalStore } from 'react';
import { useAppSelector } from '../../app/store';

/**
 * The comments panel's width: the setting (`commentsPanel.width`, kept by the server), or while
 * its edge is dragged the width drawn now — shared by the panel and the shell, which gives the
 * page the room beside it (`--comments-width`), without saving every step of the drag.
 */
let live: number | null = null;
const listeners = new Set<() => void>();

export function setLiveCommentsWidth(width: number | null): void {
  if (live === width) return;
  live = width;
  listeners.forEach((listener) => listener());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export function useCommentsWidth(): number {
  const stored = useAppSelector((state) => state.uiSettings.commentsPanel.width);
  const dragged = useSyncExternalStore(
    subscribe,
    () => live,
    () => null,
  );
  return dragged ?? stored;
}
