import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type RefObject } from 'react';
import { Range, type Editor } from 'slate';
import { ReactEditor, useFocused, useSlate, useSlateSelection, useSlateStatic } from 'slate-react';
import type { Caret, PresenceMember } from '../../../schema/realtime';
import { BlockIndex, sameCaret, toCaret, toSlateRange } from './caretMapping';
import { useCaretSender, usePresenceMembers } from './usePresence';
import { scrollingAncestor } from '../../ui/scrolling';
import './presence.css';

/*
 * Carets of the other people on the page, drawn over the editor (docs/realtime.md: `position`),
 * and this tab's own caret sent to them. Mounted once inside the editor's frame, under <Slate>.
 */

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** What is drawn for one remote connection, in pixels from the editor frame's top left corner. */
export interface DrawnCaret {
  clientId: string;
  userId: string;
  name: string;
  color: string;
  /** The bar at the focus end; null when that end is not drawn (its block is far off-screen). */
  caret: Box | null;
  /** The selection, one box per line piece. */
  selection: Box[];
  /** Counts the caret's moves: the name label shows again after each. */
  moves: number;
  /** Near the frame's right edge the name goes to the left of the bar. */
  flipped: boolean;
}

/** More boxes than this for one selection are not drawn (a selection over a whole long page). */
const MAX_SELECTION_BOXES = 400;

/** The DOM range of a Slate range if both ends are drawn in this frame (a block of an unmounted chunk is not). */
function domRangeOf(editor: Editor, range: Range, frame: HTMLElement): globalThis.Range | null {
  try {
    const dom = ReactEditor.toDOMRange(editor as ReactEditor, range);
    return frame.contains(dom.startContainer) && frame.contains(dom.endContainer) ? dom : null;
  } catch {
    return null;
  }
}

/** Where a collapsed DOM range is drawn (an empty line has no text box: its element's box then). */
function caretBox(dom: globalThis.Range, origin: DOMRect): Box | null {
  let rect: DOMRect | undefined = dom.getClientRects()[0];
  if (!rect || rect.height === 0) {
    const node = dom.startContainer;
    const element = node instanceof Element ? node : node.parentElement;
    rect = element?.getClientRects()[0];
  }
  if (!rect || rect.height === 0) return null;
  return { left: rect.left - origin.left, top: rect.top - origin.top, width: 0, height: rect.height };
}

/**
 * The boxes of a selection: the range's client rects without the empty ones and without those
 * inside another (an element wholly selected gives its own box as well as its lines').
 */
export function selectionBoxes(rects: ArrayLike<Box>, origin: { left: number; top: number }): Box[] {
  const all: Box[] = [];
  for (let i = 0; i < rects.length && all.length < MAX_SELECTION_BOXES * 2; i++) {
    const r = rects[i];
    if (r.width >= 1 && r.height >= 1) all.push({ left: r.left - origin.left, top: r.top - origin.top, width: r.width, height: r.height });
  }
  const inside = (a: Box, b: Box) =>
    a.left >= b.left - 0.5 && a.top >= b.top - 0.5 && a.left + a.width <= b.left + b.width + 0.5 && a.top + a.height <= b.top + b.height + 0.5;
  return all.filter((box, i) => !all.some((other, j) => j !== i && inside(box, other) && !(inside(other, box) && j > i))).slice(0, MAX_SELECTION_BOXES);
}

/** Dark or light text on a colour (#rrggbb), whichever reads better. */
export function textColorOn(color: string): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!match) return '#fff';
  const [r, g, b] = match.slice(1).map((hex) => {
    const c = parseInt(hex, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.4 ? '#1f1f1f' : '#fff';
}

/**
 * Sends this tab's caret as { blockId, offset } whenever the selection or the focus changes;
 * null when the editor loses the focus and when the page closes.
 */
function LocalCaret({ pageId }: { pageId: string }) {
  const editor = useSlateStatic();
  const selection = useSlateSelection();
  const focused = useFocused();
  const send = useCaretSender(pageId);
  const sent = useRef<Caret>(null);
  useEffect(() => {
    const caret = focused ? toCaret(editor, selection) : null;
    if (sameCaret(caret, sent.current)) return;
    sent.current = caret;
    send(caret);
  }, [editor, selection, focused, send]);
  useEffect(
    () => () => {
      if (sent.current) send(null);
      sent.current = null;
    },
    [send],
  );
  return null;
}

/**
 * The other people's carets: a 2 px bar in their colour with their name above it (the name fades
 * after a few seconds without a move and comes back with the next one), and their selection as a
 * translucent highlight. Placed from Slate points (never from the local selection, which it does
 * not touch) once a frame at most: when their carets move, when the document changes, on scroll
 * (far chunks mount) and on resize. Only the few remote carets are mapped; alone on the page it
 * costs nothing.
 */
function RemoteCarets({ pageId, container }: { pageId: string; container: RefObject<HTMLElement | null> }) {
  // Re-rendered on every change of the document or the selection: the carets are placed again.
  const editor = useSlate();
  const members = usePresenceMembers(pageId);
  const withCaret = useMemo(() => members.filter((m) => m.caret), [members]);
  const [drawn, setDrawn] = useState<DrawnCaret[]>([]);
  const index = useMemo(() => new BlockIndex(editor), [editor]);
  const moves = useRef(new Map<string, { caret: Caret; moves: number }>());
  const latest = useRef<PresenceMember[]>(withCaret);
  latest.current = withCaret;
  const frameRequest = useRef(0);
  /** Measure once more in a frame after the one asked for (see `settle` below). */
  const again = useRef(false);

  const measure = useCallback(() => {
    const frame = container.current;
    const people = latest.current;
    if (!frame || people.length === 0) {
      setDrawn((previous) => (previous.length === 0 ? previous : []));
      return;
    }
    const origin = frame.getBoundingClientRect();
    const next: DrawnCaret[] = [];
    for (const member of people) {
      let moved = moves.current.get(member.clientId);
      if (!moved) moves.current.set(member.clientId, (moved = { caret: member.caret, moves: 0 }));
      else if (!sameCaret(moved.caret, member.caret)) moved = { caret: member.caret, moves: moved.moves + 1 };
      moves.current.set(member.clientId, moved);
      const range = toSlateRange(editor, member.caret, index);
      if (!range) continue;
      const focus = domRangeOf(editor, { anchor: range.focus, focus: range.focus }, frame);
      const caret = focus ? caretBox(focus, origin) : null;
      let selection: Box[] = [];
      if (!Range.isCollapsed(range)) {
        const dom = domRangeOf(editor, range, frame);
        if (dom) selection = selectionBoxes(dom.getClientRects(), origin);
      }
      if (!caret && selection.length === 0) continue;
      next.push({
        clientId: member.clientId,
        userId: member.userId,
        name: member.name,
        color: member.color,
        caret,
        selection,
        moves: moved.moves,
        flipped: !!caret && caret.left > origin.width - 120,
      });
    }
    for (const clientId of moves.current.keys()) if (!people.some((m) => m.clientId === clientId)) moves.current.delete(clientId);
    setDrawn((previous) => (JSON.stringify(previous) === JSON.stringify(next) ? previous : next));
  }, [container, editor, index]);

  const schedule = useCallback(() => {
    if (frameRequest.current) return;
    frameRequest.current = requestAnimationFrame(() => {
      frameRequest.current = 0;
      measure();
      if (again.current) {
        again.current = false;
        schedule();
      }
    });
  }, [measure]);

  // After every render: the document, the selection or the carets changed.
  useLayoutEffect(() => {
    if (withCaret.length > 0 || drawn.length > 0) schedule();
  });

  useEffect(() => {
    const frame = container.current;
    if (!frame) return;
    const scroller = scrollingAncestor(frame) ?? window;
    let settle: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      if (latest.current.length === 0) return;
      schedule();
      // Chunks coming into view mount a moment later (in a frame of their own): look again once
      // the scrolling settles, in a frame after any already asked for. When frames come late (a
      // loaded machine) that one may still be before the mount, and a caret there was never drawn.
      clearTimeout(settle);
      settle = setTimeout(() => {
        if (frameRequest.current) again.current = true;
        else schedule();
      }, 150);
    };
    const onResize = () => latest.current.length > 0 && schedule();
    scroller.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onResize);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(onResize);
    observer?.observe(frame);
    return () => {
      clearTimeout(settle);
      scroller.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onResize);
      observer?.disconnect();
      cancelAnimationFrame(frameRequest.current);
      frameRequest.current = 0;
      again.current = false;
    };
  }, [container, schedule]);

  if (drawn.length === 0) return null;
  return (
    <div className="presence-layer" aria-hidden="true">
      {drawn.map((d) => (
        <div
          key={d.clientId}
          className="presence-remote"
          data-client-id={d.clientId}
          data-user-id={d.userId}
          style={{ '--presence-color': d.color } as CSSProperties}
        >
          {d.selection.map((box, i) => (
            <div key={i} className="presence-selection" style={{ left: box.left, top: box.top, width: box.width, height: box.height }} />
          ))}
          {d.caret && (
            <div className="presence-caret" style={{ left: d.caret.left, top: d.caret.top, height: d.caret.height }}>
              <span key={d.moves} className={d.flipped ? 'presence-caret-label is-flipped' : 'presence-caret-label'} style={{ color: textColorOn(d.color) }}>
                {d.name}
              </span>
            </div>
          )}
        </div>
      ))}
    </div>
  );
}

/** The presence layer of the editor: sends this tab's caret, draws everyone else's. */
export function PresenceCarets({ pageId, container }: { pageId: string; container: RefObject<HTMLElement | null> }) {
  return (
    <>
      <LocalCaret pageId={pageId} />
      <RemoteCarets pageId={pageId} container={container} />
    </>
  );
}
