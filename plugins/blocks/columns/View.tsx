import { useLayoutEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { Transforms, type Node } from 'slate';
import { ReactEditor, useReadOnly, useSlate, useSlateStatic, type RenderElementProps } from 'slate-react';
import { parentIndex } from '../../../plugins/withColumns';
import { depthOf, type BlockElement } from '../../../schema/slate';
import { blockRootProps, editorT, Icon, type BlockIcons, type BlockViews } from '../../../src/editor/blockView';
import { MIN_COLUMN_SHARE, type ColumnElement, type ColumnListElement } from './block';
import { COLUMN_GAP_PX, columnsOf, layoutColumns, reset, sharesOf } from './layout';
import './columns.css';

/**
 * A column list: an empty box as tall as its tallest column, over which its columns' blocks are
 * laid out side by side after every change (layout.ts). It re-renders with every change of the
 * page (useSlate) to do so; a size change of any of its blocks lays it out again too.
 */
export function ColumnListView({ attributes, children, element }: RenderElementProps) {
  const list = element as ColumnListElement;
  const editor = useSlate();
  const box = useRef<HTMLDivElement | null>(null);
  const placed = useRef<Set<HTMLElement>>(new Set());
  const observer = useRef<ResizeObserver | null>(null);
  const frame = useRef(0);

  /** What the last layout was made for: the list's blocks (Slate's nodes: a new one for every change of it) and the list's box. */
  const last = useRef<{ nodes: unknown[]; top: number; left: number; width: number } | null>(null);
  const retries = useRef(0);

  const layout = (force = false) => {
    const element = box.current;
    if (!element) return;
    let index: number;
    try {
      index = ReactEditor.findPath(editor as ReactEditor, list)[0];
    } catch {
      return;
    }
    // Typing elsewhere changes neither the list's blocks nor its place: nothing is written then
    // (reading the box costs the layout the browser makes before painting anyway).
    const depth = depthOf(list);
    const nodes: unknown[] = [];
    for (let i = index + 1; i < editor.children.length && depthOf(editor.children[i] as BlockElement) > depth; i++) nodes.push(editor.children[i]);
    const rect = element.getBoundingClientRect();
    const seen = { nodes, top: rect.top + window.scrollY, left: rect.left + window.scrollX, width: rect.width };
    const previous = last.current;
    if (
      !force &&
      previous &&
      previous.top === seen.top &&
      previous.left === seen.left &&
      previous.width === seen.width &&
      previous.nodes.length === nodes.length &&
      previous.nodes.every((node, i) => node === nodes[i])
    )
      return;
    const { placed: now, complete } = layoutColumns(editor, index, element, placed.current);
    // A block not drawn yet (just moved or made): again after the frame, not skipped meanwhile.
    // (At most a few frames: a block in a chunk of a big page that is not mounted waits for the next change.)
    last.current = complete ? seen : null;
    retries.current = complete ? 0 : retries.current + 1;
    if (!complete && retries.current <= 3) {
      cancelAnimationFrame(frame.current);
      frame.current = requestAnimationFrame(() => layout(true));
    }
    // Sizes change without the page changing (a picture loads, the window narrows): watched, the
    // page's editor too (a block above growing moves the list).
    const watcher = (observer.current ??= new ResizeObserver(() => {
      cancelAnimationFrame(frame.current);
      frame.current = requestAnimationFrame(() => layout(true));
    }));
    for (const old of placed.current) if (!now.has(old)) watcher.unobserve(old);
    for (const member of now) if (!placed.current.has(member)) watcher.observe(member);
    watcher.observe(element);
    try {
      watcher.observe(ReactEditor.toDOMNode(editor as ReactEditor, editor));
    } catch {
      // Not drawn yet.
    }
    placed.current = now;
  };

  useLayoutEffect(() => layout());
  useLayoutEffect(
    () => () => {
      // The list went (unwrapped, deleted): its blocks go back into the flow.
      cancelAnimationFrame(frame.current);
      observer.current?.disconnect();
      for (const member of placed.current) reset(member);
    },
    [],
  );

  return (
    <div
      {...attributes}
      {...blockRootProps(list, 'block-void block-columns')}
      ref={(node: HTMLDivElement | null) => {
        box.current = node;
        const ref = attributes.ref as unknown;
        if (typeof ref === 'function') ref(node);
        else if (ref && typeof ref === 'object') (ref as { current: HTMLDivElement | null }).current = node;
      }}
      aria-label={editorT('columns.label')}
      role="group"
    >
      {children}
    </div>
  );
}

/** The arrow keys move a boundary by this share of the list. */
const KEY_STEP = 0.05;

/**
 * A column: a box behind its blocks (placed by the list's layout). Between it and the column
 * before it is the handle that resizes the two (drag, or ←/→ when focused); writers only.
 */
export function ColumnView({ attributes, children, element }: RenderElementProps) {
  const column = element as ColumnElement;
  const editor = useSlateStatic();
  const readOnly = useReadOnly();
  const drag = useRef<{ startX: number; startShares: number[]; width: number; k: number } | null>(null);

  /** The list's columns, this one's place among them, and the list's usable width. */
  const context = () => {
    try {
      const index = ReactEditor.findPath(editor as ReactEditor, column)[0];
      const list = parentIndex(editor, index);
      const columns = columnsOf(editor, list, false).map((c) => c.column);
      const listElement = ReactEditor.toDOMNode(editor as ReactEditor, editor.children[list] as Node);
      return { list, columns, k: columns.indexOf(column), width: listElement.clientWidth - COLUMN_GAP_PX * (columns.length - 1) };
    } catch {
      return null;
    }
  };

  /** Moves the boundary before column k so that column k - 1 gets `delta` more of the list. */
  const resize = (shares: number[], k: number, delta: number) => {
    const pair = shares[k - 1] + shares[k];
    const before = Math.min(pair - MIN_COLUMN_SHARE, Math.max(MIN_COLUMN_SHARE, shares[k - 1] + delta));
    const next = [...shares];
    next[k - 1] = before;
    next[k] = pair - before;
    const found = context();
    if (!found) return;
    // Every column of the list gets its share written (those without one had an equal share).
    const listDepth = depthOf(editor.children[found.list] as BlockElement);
    let c = 0;
    for (let at = found.list + 1; at < editor.children.length; at++) {
      const node = editor.children[at] as BlockElement;
      if (depthOf(node) <= listDepth) break;
      if (depthOf(node) === listDepth + 1 && node.type === 'columnBlock') {
        Transforms.setNodes<Node>(editor, { width: Math.round(next[c] * 100) / 100 } as Partial<Node>, { at: [at] });
        c += 1;
      }
    }
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const found = context();
    if (!found || found.k < 1) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startX: event.clientX, startShares: sharesOf(found.columns), width: found.width, k: found.k };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const state = drag.current;
    if (!state || state.width <= 0) return;
    resize(state.startShares, state.k, (event.clientX - state.startX) / state.width);
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    event.stopPropagation();
    const found = context();
    if (!found || found.k < 1) return;
    resize(sharesOf(found.columns), found.k, event.key === 'ArrowLeft' ? -KEY_STEP : KEY_STEP);
  };

  // Drawn hidden: the list's layout shows it before every column but the first, with the share of the column before it.
  return (
    <div {...attributes} {...blockRootProps(column, 'block-void block-column')}>
      {readOnly ? null : (
        <div
          className="column-resize"
          contentEditable={false}
          hidden
          role="separator"
          aria-orientation="vertical"
          aria-label={editorT('columns.resize')}
          aria-valuemin={Math.round(MIN_COLUMN_SHARE * 100)}
          aria-valuemax={100 - Math.round(MIN_COLUMN_SHARE * 100)}
          tabIndex={0}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onKeyDown}
        />
      )}
      {children}
    </div>
  );
}

export const blockViews: BlockViews = { columnListBlock: ColumnListView, columnBlock: ColumnView };

/** The slash menu's pictures of «2 колонки» … «5 колонок». */
const columnsIcon = (count: number) => () => (
  <Icon>
    {Array.from({ length: count }, (_, i) => {
      const width = 18 / count;
      return <rect key={i} x={3 + i * width + 0.6} y="5" width={width - 1.2} height="14" rx="1" />;
    })}
  </Icon>
);

export const blockIcons: BlockIcons = { columns2: columnsIcon(2), columns3: columnsIcon(3), columns4: columnsIcon(4), columns5: columnsIcon(5) };
