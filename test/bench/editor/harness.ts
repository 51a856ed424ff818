/**
 * The in-page half of the editor benchmark, shared by every configuration. Imported first by each
 * entry, so its capture-phase keydown listener on window is registered before any editor's.
 * The driver (test/bench/editorBench.ts) reads and calls what `window.bench` exposes.
 */
import { generateDocument, type BenchDocument } from './document';

export interface KeyTiming {
  key: string;
  /** keydown → end of the first frame after the first mutation, ms; null when nothing changed. */
  latency: number | null;
}

export interface MountResult {
  /** t0 (just before mounting) → the MessageChannel post after the first frame, ms. */
  mountToPaint: number;
  /** t0 → the mount call returned: the mount's own script work, ms (the rest of mountToPaint is style, layout, paint). */
  mountScript: number;
  /** t0 → the first frame whose viewport shows the document's first blocks, ms. */
  firstScreen: number | null;
  /** t0 → the end of the last long task before 500 ms without one (a simple time to interactive), ms. */
  interactive: number;
  blockCount: number;
}

export interface BenchPage {
  name: string;
  document: BenchDocument;
  mounted: Promise<MountResult>;
  /** The target's text in the DOM (zero-width fillers removed). */
  domTargetText(): string;
  /** The target's text in the editor's model (for plain-cv: the DOM, which is its model). */
  modelTargetText(): string;
  /** Scrolls the target to the centre of the viewport; returns where character `offset` is on screen. */
  locateCharacter(offset: number): { x: number; y: number } | null;
  /** Where the caret is in the target (character offset), or null when it is elsewhere. */
  caretOffset(): number | null;
  /** The longest long task (ms) that started after `since` (performance.now() time), or 0. */
  longestTaskSince(since: number): number;
  now(): number;
  startKey(): void;
  /** Resolves once the current key's frame is stamped and the DOM has been quiet 100 ms. */
  settle(): Promise<KeyTiming>;
}

declare global {
  interface Window {
    bench: BenchPage;
  }
}

const QUIET_MS = 100;
const SETTLE_TIMEOUT_MS = 3000;

/** Configuration pages pass these in; the harness does the timing. */
export interface BenchAdapter {
  /** Turns the document into what the editor is fed (before t0: the data has arrived). */
  prepare?(document: BenchDocument): void;
  /** Mounts the editor into `root`; synchronous, so t0 → return is the mount's main-thread work. */
  mount(root: HTMLElement, document: BenchDocument): void;
  /** The editable element to observe (after mount). */
  editable(): HTMLElement;
  /** The DOM element of the target block. */
  targetElement(): HTMLElement | null;
  /**
   * Brings the target block into the DOM when the editor draws only what is near the viewport
   * (ours: as a link to a block does, mounting its chunk); the harness then scrolls as for the others.
   */
  reveal?(): void;
  modelTargetText(): string;
}

function nextFrameEnd(): Promise<number> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.now());
      channel.port2.postMessage(null);
    });
  });
}

const longTasks: { start: number; end: number }[] = [];
try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  }).observe({ type: 'longtask', buffered: true });
} catch {
  // No long-task timing: `interactive` is then the paint.
}

// The keystroke clock: registered at import time, before any editor listens.
let keyStart = 0;
let measuring = false;
let firstMutationSeen = false;
let lastMutation = 0;
let frameEnd: number | null = null;
let currentKey = '';
window.addEventListener(
  'keydown',
  (event) => {
    if (!measuring) return;
    keyStart = performance.now();
    currentKey = event.key;
  },
  { capture: true },
);

function textOf(element: Element | null): string {
  return (element?.textContent ?? '').replace(/\uFEFF/g, '');
}

/** The text node and offset inside `root` at character `offset` (zero-width fillers skipped). */
function textPosition(root: Element, offset: number): { node: Text; offset: number } | null {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let left = offset;
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    if ((node.parentElement?.closest('[contenteditable="false"]') ?? null) !== null) continue;
    const text = node.data;
    if (text === '\uFEFF') continue;
    if (left < text.length) return { node, offset: left };
    left -= text.length;
  }
  return null;
}

export function runBench(name: string, adapter: BenchAdapter): void {
  const size = Number(new URLSearchParams(location.search).get('n') ?? 1000);
  const benchDocument = generateDocument(size);
  const root = document.getElementById('root') as HTMLElement;

  const mounted = (async (): Promise<MountResult> => {
    adapter.prepare?.(benchDocument);
    // Wait for the page's own load to settle so t0 measures the mount alone.
    await nextFrameEnd();
    let firstScreen: number | null = null;
    const t0 = performance.now();
    // Frames are polled until the first screen shows blocks (progressive renderers paint it early).
    const pollFirstScreen = async () => {
      while (firstScreen === null) {
        const end = await nextFrameEnd();
        // Points low on the first screen hold a block's text once it is drawn (cheap: no page-wide queries).
        const drawn = [560, 620, 680].some((y) => {
          const block = document.elementFromPoint(640, y)?.closest('p, li, h2, h3, h4, [data-block-id]');
          return block && root.contains(block) && textOf(block).length > 0;
        });
        if (drawn) firstScreen = end - t0;
        if (end - t0 > 30000) break;
      }
    };
    const polling = pollFirstScreen();
    adapter.mount(root, benchDocument);
    const script = performance.now() - t0;
    const paint = (await nextFrameEnd()) - t0;
    await polling;
    // Interactive: the end of the last long task followed by 500 ms without one.
    let interactiveAt: number;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const last = longTasks.filter((task) => task.end > t0).reduce((max, task) => Math.max(max, task.end), 0);
      interactiveAt = Math.max(t0 + paint, last);
      if (performance.now() - interactiveAt >= 500) break;
    }
    const editable = adapter.editable();
    new MutationObserver(() => {
      const now = performance.now();
      lastMutation = now;
      if (!measuring || firstMutationSeen) return;
      firstMutationSeen = true;
      void nextFrameEnd().then((end) => {
        frameEnd = end;
      });
    }).observe(editable, { subtree: true, childList: true, characterData: true, attributes: true });
    return {
      mountToPaint: paint,
      mountScript: script,
      firstScreen,
      interactive: interactiveAt - t0,
      blockCount: benchDocument.blocks.length,
    };
  })();

  window.bench = {
    name,
    document: benchDocument,
    mounted,
    domTargetText: () => textOf(adapter.targetElement()),
    modelTargetText: () => adapter.modelTargetText(),
    locateCharacter(offset) {
      if (!adapter.targetElement()) adapter.reveal?.();
      const target = adapter.targetElement();
      if (!target) return null;
      target.scrollIntoView({ block: 'center' });
      const position = textPosition(target, offset);
      if (!position) return null;
      const range = document.createRange();
      range.setStart(position.node, position.offset);
      range.setEnd(position.node, position.offset + 1);
      const rect = range.getBoundingClientRect();
      // A quarter into the character: the click's nearest caret boundary is before it.
      return { x: rect.left + rect.width * 0.25, y: rect.top + rect.height / 2 };
    },
    caretOffset() {
      const target = adapter.targetElement();
      const selection = window.getSelection();
      if (!target || !selection || selection.rangeCount === 0 || !target.contains(selection.anchorNode)) return null;
      const range = document.createRange();
      range.setStart(target, 0);
      range.setEnd(selection.anchorNode as Node, selection.anchorOffset);
      return range.toString().replace(/\uFEFF/g, '').length;
    },
    longestTaskSince: (since) => longTasks.filter((task) => task.start >= since).reduce((max, task) => Math.max(max, task.end - task.start), 0),
    now: () => performance.now(),
    startKey() {
      measuring = true;
      firstMutationSeen = false;
      frameEnd = null;
      keyStart = 0;
    },
    settle() {
      const began = performance.now();
      return new Promise<KeyTiming>((resolve) => {
        const check = () => {
          const now = performance.now();
          const done = frameEnd !== null && now - lastMutation >= QUIET_MS;
          if (done || now - began > SETTLE_TIMEOUT_MS) {
            measuring = false;
            resolve({ key: currentKey, latency: frameEnd !== null && keyStart > 0 ? frameEnd - keyStart : null });
            return;
          }
          setTimeout(check, 10);
        };
        check();
      });
    },
  };
}
