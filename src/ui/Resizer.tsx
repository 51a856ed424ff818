import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import './resizer.css';

/** How far one arrow key moves the edge. */
const KEY_STEP = 16;

export interface ResizerProps {
  /** The panel's width now (the live one while dragged). */
  width: number;
  min: number;
  max: number;
  /** What a double-click puts back. */
  defaultWidth: number;
  /** The panel's edge the handle is on: `right` grows to the right (the sidebar, the inbox), `left` to the left (the comments panel). */
  edge: 'left' | 'right';
  /** Its accessible name. */
  label: string;
  /** Each step of a drag (null when it ends): drawn at once, not saved yet. */
  onLive(width: number | null): void;
  /** The width chosen: the end of a drag, an arrow key, a double-click. */
  onDone(width: number): void;
  /** Classes beside `panel-resizer`. */
  className?: string;
}

/**
 * A side panel's edge: drag it (or arrow keys on it) to resize, double-click for the default
 * width. A drag draws each step through `onLive` and gives the width once, at its end, to
 * `onDone` (which saves it: the settings send one call for the whole drag).
 */
export function Resizer({ width, min, max, defaultWidth, edge, label, onLive, onDone, className }: ResizerProps) {
  const start = useRef<{ x: number; width: number } | null>(null);
  const clamp = (w: number) => Math.round(Math.min(max, Math.max(min, w)));
  const dragged = (x: number) => {
    const from = start.current as { x: number; width: number };
    return clamp(from.width + (edge === 'right' ? x - from.x : from.x - x));
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    start.current = { x: event.clientX, width };
    event.currentTarget.classList.add('is-dragging');
    document.body.classList.add('is-resizing');
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (start.current) onLive(dragged(event.clientX));
  };
  const finish = (event: PointerEvent<HTMLDivElement>) => {
    if (!start.current) return;
    const next = dragged(event.clientX);
    start.current = null;
    event.currentTarget.classList.remove('is-dragging');
    document.body.classList.remove('is-resizing');
    onLive(null);
    onDone(next);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const outward = event.key === (edge === 'right' ? 'ArrowRight' : 'ArrowLeft');
    onDone(clamp(width + (outward ? KEY_STEP : -KEY_STEP)));
  };
  return (
    <div
      className={['panel-resizer', `is-${edge}`, className].filter(Boolean).join(' ')}
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={finish}
      onPointerCancel={finish}
      onDoubleClick={() => onDone(defaultWidth)}
      onKeyDown={onKeyDown}
    />
  );
}
