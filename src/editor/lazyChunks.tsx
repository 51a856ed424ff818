/**
 * Big pages (docs/adr/0006-lazy-chunks.md): slate-react renders the top-level blocks in chunks
 * (BLOCK_CHUNK_SIZE, pageEditor.ts); a chunk far from the viewport, the caret and the selection is not
 * mounted at all. In its place stands a light placeholder as tall as the chunk was (or is
 * estimated to be) that holds the chunk's plain text, so scrolling, the scroll bar and the
 * browser's find-in-page behave as on a fully drawn page. A chunk mounts when it comes within a
 * screen of the viewport and unmounts when it is more than three screens away.
 *
 * Mounting is a rendering matter only: the Slate document always holds every block, and sync,
 * undo, copy and paste work on it, never on the DOM.
 */
import {
  createContext,
  memo,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
  type RefObject,
} from 'react';
import { flushSync } from 'react-dom';
import { Editor, Element as SlateElementApi, Node, Range } from 'slate';
import { ReactEditor, useSlateSelector, useSlateStatic, type RenderChunkProps } from 'slate-react';
import { foldChanges, foldedAway, unfoldAround } from '../../plugins/withFolding';
import type { SlateElement } from '../../schema/slate';
import { scrollingAncestor } from '../ui/scrolling';

/** Within this many blocks of a chunk, the caret or a selection edge keeps it mounted (arrow keys never meet a placeholder). */
const PIN_MARGIN_BLOCKS = 50;
/** Mount within this many screens of the visible area, unmount beyond the second. */
const MOUNT_SCREENS = 1;
const UNMOUNT_SCREENS = 3;

/** What slate-react passes as a lowest chunk's children: a memoized chunk element whose props name the chunk. */
interface ChunkLeaf {
  type: 'leaf';
  node: Node;
  index: number;
}
export interface ChunkNode {
  type: 'chunk';
  children: ChunkLeaf[];
}
export interface ChunkRoot {
  modifiedChunks: Set<unknown>;
}

/** The chunk and tree behind a renderChunk call (slate-react's internal props; `lazyChunks.test.tsx` fails if they change). */
export function chunkOf(children: unknown): { chunk: ChunkNode; root: ChunkRoot } | null {
  const props = (children as ReactElement<{ ancestor?: ChunkNode; root?: ChunkRoot }> | null)?.props;
  const chunk = props?.ancestor;
  if (!chunk || chunk.type !== 'chunk' || !props.root || !Array.isArray(chunk.children)) return null;
  // A lowest chunk holds leaves only (slate-react's `lowest`): the first one tells.
  if (chunk.children[0]?.type !== 'leaf') return null;
  return { chunk, root: props.root };
}

/** The first and last top-level index a lowest chunk holds (slate-react keeps its leaves' indexes current). */
function chunkRange(chunk: ChunkNode): [number, number] {
  return [chunk.children[0]?.index ?? 0, chunk.children[chunk.children.length - 1]?.index ?? -1];
}

const LINE_CHARACTERS = 80;
/** Pixels of one line and of the rest of a block, by type, from editor.css (a first guess, corrected by measuring). */
const LINE_PX: Record<string, [number, number]> = {
  heading1Block: [39, 38],
  heading2Block: [31, 30],
  heading3Block: [26, 24],
  codeBlock: [21, 40],
  tableBlock: [37, 30],
  imageBlock: [300, 20],
  embedBlock: [340, 20],
  dividerBlock: [0, 26],
  latexBlock: [40, 20],
};

/** A block's plain text (a one-run block without the generic walk: this runs for every block of a big page). */
function blockText(node: Node): string {
  const children = (node as { children?: Node[] }).children;
  if (children?.length === 1 && 'text' in children[0]) return children[0].text;
  return Node.string(node);
}

function estimatedHeight(element: SlateElement, text: string): number {
  if (element.type === 'tableBlock') return (element.children.length || 1) * LINE_PX.tableBlock[0] + LINE_PX.tableBlock[1];
  const [line, rest] = LINE_PX[element.type] ?? [24, 6];
  const lines = element.type === 'codeBlock' ? text.split('\n').length : Math.max(1, Math.ceil(text.length / LINE_CHARACTERS));
  return lines * line + rest;
}

/** An editor that folds (the page editor); other editors fold nothing away. */
const NOTHING_FOLDED: ReadonlySet<string> = new Set();
const folding = (editor: Editor | null): editor is Editor => editor !== null && 'folds' in editor;

/**
 * A chunk's plain text, for its placeholder (find-in-page finds it; a scroll there mounts the
 * chunk), and its estimated height; kept until slate-react says the chunk changed or a toggle
 * opens or closes. Blocks folded away under closed toggles (drawn as nothing: plugins/withFolding)
 * count neither text nor height.
 */
const summaries = new WeakMap<ChunkNode, { text: string; estimate: number; folds: number }>();
function summaryOf(chunk: ChunkNode, modified: boolean, editor: Editor | null): { text: string; estimate: number } {
  const changes = folding(editor) ? foldChanges(editor) : 0;
  let summary = modified ? undefined : summaries.get(chunk);
  if (!summary || summary.folds !== changes) {
    const away = folding(editor) ? foldedAway(editor) : NOTHING_FOLDED;
    const texts: string[] = [];
    let estimate = 0;
    for (const leaf of chunk.children) {
      if (!SlateElementApi.isElement(leaf.node) || away.has((leaf.node as SlateElement).uid ?? '')) continue;
      const text = blockText(leaf.node);
      texts.push(text);
      estimate += estimatedHeight(leaf.node as SlateElement, text);
    }
    summary = { text: texts.join('\n'), estimate, folds: changes };
    summaries.set(chunk, summary);
  }
  return summary;
}

interface ChunkEntry {
  chunk: ChunkNode;
  /** Drawn now (watched for going far) or a placeholder (watched for coming near). */
  mounted: boolean;
  show(): void;
  hide(): void;
}

/**
 * Which chunks are mounted, shared by the chunks of one editor: where they are relative to the
 * visible area, the heights they had when last drawn, and a running correction of the estimates.
 */
export class ChunkVisibility {
  /** `editor`: whose blocks folded away the estimates leave out. */
  constructor(private readonly editor: Editor | null = null) {}

  private scrollRoot: Element | null = null;
  private scrollTarget: Element | Window | null = null;
  private resize: ResizeObserver | null = null;
  private frame = 0;
  /** Every chunk's element (drawn or placeholder) and what it holds. */
  private readonly elements = new Map<Element, ChunkEntry>();
  private readonly heights = new WeakMap<ChunkNode, number>();
  private estimateScale = 1;
  /**
   * Chunks are left unmounted only where the browser can say where they are (not in jsdom).
   * Where they are is checked when something can move them: a scroll, a resize of the window or
   * of the editor's content, a chunk appearing. Typing that does not change the page's height
   * costs nothing here (an IntersectionObserver recomputed every chunk on every frame: ≈ 1 ms
   * per keystroke at 20,000 blocks).
   */
  readonly lazy = typeof ResizeObserver !== 'undefined' && typeof requestAnimationFrame === 'function';

  /** Watches `scrollRoot` (the nearest scrolling ancestor, or the window when null) and the size of `content`. */
  attach(scrollRoot: Element | null, content: Element | null): void {
    this.detach();
    if (!this.lazy) return;
    this.scrollRoot = scrollRoot;
    this.scrollTarget = scrollRoot ?? window;
    this.scrollTarget.addEventListener('scroll', this.schedule, { passive: true });
    window.addEventListener('resize', this.schedule);
    this.resize = new ResizeObserver(this.schedule);
    if (content) this.resize.observe(content);
    this.schedule();
  }

  detach(): void {
    this.scrollTarget?.removeEventListener('scroll', this.schedule);
    window.removeEventListener('resize', this.schedule);
    this.resize?.disconnect();
    this.resize = null;
    this.scrollTarget = null;
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  /** Checks where the chunks are in the next frame (once, however often it is asked). */
  readonly schedule = (): void => {
    if (this.frame || !this.lazy) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.check();
    });
  };

  /** Mounts the placeholders within MOUNT_SCREENS of the visible area; unmounts drawn chunks beyond UNMOUNT_SCREENS. */
  check(): void {
    // One chunk (a page of up to BLOCK_CHUNK_SIZE blocks) is the page's start, always drawn:
    // nothing to place, and no layout forced for nothing — on a Database page this check came
    // between the editor's drawing and the grid's, a whole layout.
    if (!this.scrollTarget || this.elements.size < 2) return;
    const view = this.scrollRoot ? this.scrollRoot.getBoundingClientRect() : { top: 0, bottom: window.innerHeight };
    const screen = Math.max(1, view.bottom - view.top);
    for (const [element, handlers] of this.elements) {
      const rect = element.getBoundingClientRect();
      const distance = rect.bottom < view.top ? view.top - rect.bottom : rect.top > view.bottom ? rect.top - view.bottom : 0;
      if (!handlers.mounted && distance <= screen * MOUNT_SCREENS) handlers.show();
      else if (handlers.mounted && distance > screen * UNMOUNT_SCREENS) handlers.hide();
    }
  }

  register(element: HTMLElement, entry: ChunkEntry): () => void {
    this.elements.set(element, entry);
    this.schedule();
    return () => {
      if (this.elements.get(element) === entry) this.elements.delete(element);
    };
  }

  /** Records a drawn chunk's height, and how far off the estimate was. */
  measured(chunk: ChunkNode, height: number): void {
    if (height <= 0) return;
    this.heights.set(chunk, height);
    const estimate = summaryOf(chunk, false, this.editor).estimate;
    if (estimate > 0) this.estimateScale = height / estimate;
  }

  /** The placeholder's height: as drawn last time, else estimated from the blocks. */
  height(chunk: ChunkNode, modified = false): number {
    return this.heights.get(chunk) ?? Math.round(summaryOf(chunk, modified, this.editor).estimate * this.estimateScale);
  }

  /** Mounts the chunk holding top-level block `index` now. */
  mountIndex(index: number): void {
    for (const entry of this.elements.values()) {
      const [first, last] = chunkRange(entry.chunk);
      if (index < first || index > last) continue;
      flushSync(() => entry.show());
      return;
    }
  }
}

const EDITOR_TO_VISIBILITY = new WeakMap<Editor, ChunkVisibility>();
const VisibilityContext = createContext<ChunkVisibility | null>(null);
/**
 * The top-level indexes of the selection's edges ("start:end"; "" without a selection). One
 * subscription for the whole editor: every chunk re-renders (to check its pin) when the caret
 * goes to another block, and none when it moves within one — typing.
 */
const SelectionEdgesContext = createContext('');

/** The top-level indexes of the selection's edges, "start:end" ("" without one): re-renders when the caret goes to another block, not while typing in one. */
export const useSelectionEdges = (): string => useContext(SelectionEdgesContext);

function selectionEdges(editor: Editor): string {
  const { selection } = editor;
  if (!selection) return '';
  const [start, end] = Range.edges(selection);
  return `${start.path[0]}:${end.path[0]}`;
}

export function chunkVisibilityOf(editor: Editor): ChunkVisibility {
  let visibility = EDITOR_TO_VISIBILITY.get(editor);
  if (!visibility) {
    visibility = new ChunkVisibility(editor);
    EDITOR_TO_VISIBILITY.set(editor, visibility);
  }
  return visibility;
}

/** Provides the editor's chunk visibility to its chunks and watches the scrolling ancestor of `frame`. */
export function ChunkVisibilityProvider({ editor, frame, children }: { editor: Editor; frame: RefObject<HTMLElement | null>; children: ReactNode }) {
  const visibility = chunkVisibilityOf(editor);
  // A passive effect: the frame's ref is set only after the layout effects below it have run.
  useEffect(() => {
    visibility.attach(scrollingAncestor(frame.current), frame.current);
    return () => visibility.detach();
  }, [visibility, frame]);
  const edges = useSlateSelector(selectionEdges);
  return (
    <VisibilityContext.Provider value={visibility}>
      <SelectionEdgesContext.Provider value={edges}>{children}</SelectionEdgesContext.Provider>
    </VisibilityContext.Provider>
  );
}

/**
 * Scrolls top-level block `uid` to the middle of the screen, opening the toggles it is folded in
 * and mounting its chunk first (a link to a block, search results, a table of contents, the
 * benchmark's way to the middle of a page). False when it is not there.
 */
export function revealBlock(editor: Editor, uid: string): boolean {
  const index = editor.children.findIndex((node) => (node as SlateElement).uid === uid);
  if (index < 0) return false;
  if (folding(editor)) flushSync(() => unfoldAround(editor, index));
  chunkVisibilityOf(editor).mountIndex(index);
  const element = ReactEditor.toDOMNode(editor as ReactEditor, editor).querySelector(`[data-block-id="${CSS.escape(uid)}"]`);
  element?.scrollIntoView({ block: 'center' });
  return Boolean(element);
}

/** Whether the caret or a selection edge is within PIN_MARGIN_BLOCKS of the chunk. */
function pinnedBySelection(editor: Editor, chunk: ChunkNode): boolean {
  const selection = editor.selection;
  if (!selection) return false;
  const [first, last] = chunkRange(chunk);
  const [start, end] = Range.edges(selection);
  const near = (index: number | undefined) => index !== undefined && index >= first - PIN_MARGIN_BLOCKS && index <= last + PIN_MARGIN_BLOCKS;
  return near(start.path[0]) || near(end.path[0]);
}

interface LazyChunkProps {
  chunk: ChunkNode;
  root: ChunkRoot;
  attributes: RenderChunkProps['attributes'];
  children: ReactNode;
}

/**
 * A chunk re-renders only when slate-react says its blocks changed (as its memoized children
 * would): a keystroke re-renders one chunk, not its 63 siblings. It follows the selection and the
 * viewport through its own subscriptions.
 */
const LazyChunk = memo(
  LazyChunkView,
  (previous, next) => previous.chunk === next.chunk && previous.root === next.root && !next.root.modifiedChunks.has(next.chunk),
);

function LazyChunkView({ chunk, root, attributes, children }: LazyChunkProps) {
  const editor = useSlateStatic();
  const visibility = useContext(VisibilityContext);
  const ref = useRef<HTMLDivElement>(null);
  // A chunk starts mounted when it holds the start of the page (the first screen) or the caret.
  const [mounted, setMounted] = useState(() => chunkRange(chunk)[0] === 0);
  // A chunk re-renders when its own blocks change and when the caret goes to another block (the
  // edges' context), and checks its pin then, with the chunks' indexes as slate-react has just
  // updated them; the page's start is always drawn.
  useSelectionEdges();
  const pinned = pinnedBySelection(editor, chunk) || chunkRange(chunk)[0] === 0;
  const show = !visibility?.lazy || mounted || pinned;
  const modified = root.modifiedChunks.has(chunk);
  // Off screen, a drawn chunk skips layout (content-visibility) and keeps this size until first drawn.
  const intrinsicHeight = useMemo(() => visibility?.height(chunk), [visibility, chunk]);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!visibility || !element) return;
    return visibility.register(element, {
      chunk,
      mounted: show,
      show: () => setMounted(true),
      hide: () => {
        if (ref.current) visibility.measured(chunk, ref.current.getBoundingClientRect().height);
        setMounted(false);
      },
    });
  }, [visibility, chunk, show]);

  if (show) {
    return (
      <div
        {...attributes}
        ref={ref}
        className="block-chunk"
        data-mounted="true"
        style={intrinsicHeight ? { containIntrinsicSize: `auto ${intrinsicHeight}px` } : undefined}
      >
        {children}
      </div>
    );
  }
  return (
    <div {...attributes} ref={ref} className="block-chunk-placeholder" contentEditable={false} style={{ height: visibility?.height(chunk, modified) }}>
      {summaryOf(chunk, false, editor).text}
    </div>
  );
}

/** Editable's renderChunk: lowest chunks mount lazily (LazyChunk); higher ones are plain wrappers. */
export function renderChunk({ attributes, children, lowest }: RenderChunkProps) {
  const found = lowest ? chunkOf(children) : null;
  if (!found) return <div {...attributes}>{children}</div>;
  return (
    <LazyChunk chunk={found.chunk} root={found.root} attributes={attributes}>
      {children}
    </LazyChunk>
  );
}
