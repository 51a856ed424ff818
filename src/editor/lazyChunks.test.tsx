import { act, render } from '@testing-library/react';
import { createElement, useRef, type ReactNode } from 'react';
import { createEditor, Editor, Transforms, type Descendant } from 'slate';
import { Editable, Slate, withReact, type RenderChunkProps, type RenderElementProps } from 'slate-react';
import { withFolding } from '../../plugins/withFolding';
import { chunkOf, ChunkVisibilityProvider, chunkVisibilityOf, renderChunk, type ChunkNode } from './lazyChunks';

/*
 * lazyChunks.tsx reads slate-react's internal props of a renderChunk call (chunkOf): these tests
 * fail when an update of slate-react changes their shape. In jsdom there is no
 * ResizeObserver, so every chunk is drawn (the fallback); with a stand-in one and laid-out chunks, the far
 * chunks are placeholders holding their text.
 */

const CHUNK = 3;
const COUNT = 10;

function paragraphs(count = COUNT): Descendant[] {
  return Array.from(
    { length: count },
    (_, i) => ({ type: 'textBlock', uid: `b${i}`, version: 1, children: [{ text: `Абзац ${i}` }] }) as unknown as Descendant,
  );
}

function smallChunkEditor(count = COUNT): Editor {
  const editor = withReact(createEditor());
  editor.getChunkSize = (node) => (Editor.isEditor(node) ? CHUNK : null);
  editor.children = paragraphs(count);
  return editor;
}

function renderElement({ attributes, children, element }: RenderElementProps) {
  return (
    <p {...attributes} data-block-id={(element as unknown as { uid: string }).uid}>
      {children}
    </p>
  );
}

/** The indexes and nodes a lowest chunk's leaves name. */
const leavesOf = (chunk: ChunkNode) => chunk.children.map((leaf) => ({ index: leaf.index, node: leaf.node }));

describe('chunkOf: slate-react renderChunk props', () => {
  test('every lowest chunk names its chunk, whose leaves carry the right nodes and indexes; other chunks and elements give null', async () => {
    const editor = smallChunkEditor();
    const lowest: ChunkNode[] = [];
    const roots = new Set<unknown>();
    let higherCalls = 0;
    let higherFound = 0;
    const recordingRenderChunk = ({ attributes, children, lowest: isLowest }: RenderChunkProps) => {
      const found = chunkOf(children);
      if (isLowest) {
        expect(found).not.toBeNull();
        if (found && !lowest.includes(found.chunk)) lowest.push(found.chunk);
        if (found) roots.add(found.root);
      } else {
        higherCalls += 1;
        if (found) higherFound += 1;
      }
      return <div {...attributes}>{children}</div>;
    };
    const { container } = render(
      <Slate editor={editor} initialValue={editor.children}>
        <Editable renderElement={renderElement} renderChunk={recordingRenderChunk} />
      </Slate>,
    );

    // 10 blocks in chunks of 3: 0-2, 3-5, 6-8, 9, in document order.
    expect(lowest.map((chunk) => chunk.type)).toEqual(['chunk', 'chunk', 'chunk', 'chunk']);
    expect(lowest.map((chunk) => chunk.children.map((leaf) => leaf.index))).toEqual([[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]);
    for (const chunk of lowest) for (const { index, node } of leavesOf(chunk)) expect(node).toBe(editor.children[index]);
    // One tree for the editor, with the set slate-react marks changed chunks in.
    expect(roots.size).toBe(1);
    const [root] = [...roots] as { modifiedChunks: unknown }[];
    expect(root.modifiedChunks).toBeInstanceOf(Set);
    // Four lowest chunks of three make higher chunks, whose children are chunks, not leaves.
    expect(higherCalls).toBeGreaterThan(0);
    expect(higherFound).toBe(0);
    expect(container.querySelectorAll('[data-block-id]')).toHaveLength(COUNT);

    // slate-react keeps the leaves current in place: after the first block is removed, every leaf
    // still names the node at its index.
    // (Slate calls onChange in a microtask: the async act lets the editor re-render.)
    await act(async () => Transforms.removeNodes(editor, { at: [0] }));
    const leaves = lowest.flatMap(leavesOf).filter(({ node }) => editor.children.includes(node as Descendant));
    expect(leaves).toHaveLength(COUNT - 1);
    for (const { index, node } of leaves) expect(editor.children[index]).toBe(node);
    expect(leaves.map(({ index }) => index).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  test('chunkOf is null for anything that is not a lowest chunk’s children', () => {
    const Any = ({ children }: { children?: ReactNode }) => <>{children}</>;
    expect(chunkOf(null)).toBeNull();
    expect(chunkOf(undefined)).toBeNull();
    expect(chunkOf('text')).toBeNull();
    expect(chunkOf(<div>x</div>)).toBeNull();
    expect(chunkOf([<div key="a" />])).toBeNull();
    // Props that look almost right: no root, a non-chunk ancestor, children that are not leaves.
    const leaf = { type: 'leaf', node: { children: [{ text: '' }] }, index: 0 };
    const root = { modifiedChunks: new Set() };
    expect(chunkOf(createElement(Any, { ancestor: { type: 'chunk', children: [leaf] } } as object))).toBeNull();
    expect(chunkOf(createElement(Any, { ancestor: { type: 'root', children: [leaf] }, root } as object))).toBeNull();
    expect(chunkOf(createElement(Any, { ancestor: { type: 'chunk', children: [{ type: 'chunk', children: [leaf] }] }, root } as object))).toBeNull();
    // The same shape with leaves is found (so the nulls above are not all the function can say).
    expect(chunkOf(createElement(Any, { ancestor: { type: 'chunk', children: [leaf] }, root } as object))?.chunk.children[0]).toBe(leaf);
  });
});

function LazyEditor({ editor }: { editor: Editor }) {
  const frame = useRef<HTMLDivElement>(null);
  return (
    <Slate editor={editor} initialValue={editor.children}>
      <div ref={frame}>
        <ChunkVisibilityProvider editor={editor} frame={frame}>
          <Editable renderElement={renderElement} renderChunk={renderChunk} />
        </ChunkVisibilityProvider>
      </div>
    </Slate>
  );
}

describe('lazy chunks', () => {
  test('without ResizeObserver (jsdom) every chunk is drawn: all the blocks are in the DOM, no placeholder', () => {
    expect(typeof ResizeObserver).toBe('undefined');
    const editor = smallChunkEditor();
    const { container } = render(<LazyEditor editor={editor} />);
    expect(chunkVisibilityOf(editor).lazy).toBe(false);
    expect(container.querySelectorAll('.block-chunk-placeholder')).toHaveLength(0);
    expect(container.querySelectorAll('.block-chunk[data-mounted="true"]')).toHaveLength(4);
    expect([...container.querySelectorAll('[data-block-id]')].map((element) => element.textContent)).toEqual(
      Array.from({ length: COUNT }, (_, i) => `Абзац ${i}`),
    );
  });

  describe('in a browser that can say where chunks are', () => {
    /*
     * jsdom lays nothing out: each chunk (drawn or placeholder) is placed 1,000 px below the one
     * before it, the window scrolled by `scrolled`; the window is 768 px tall, so one screen away
     * is 768 px and three are 2,304 px. A stand-in ResizeObserver makes the editor lazy.
     */
    let scrolled = 0;
    class StandInResizeObserver {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    const chunkTop = (element: Element) => {
      const all = [...document.querySelectorAll('[data-slate-chunk]')].filter((chunk) => chunk.querySelector('[data-slate-chunk]') === null);
      return all.indexOf(element) * 1000 - scrolled;
    };
    const original = Element.prototype.getBoundingClientRect;
    beforeEach(() => {
      scrolled = 0;
      (globalThis as { ResizeObserver?: unknown }).ResizeObserver = StandInResizeObserver;
      Element.prototype.getBoundingClientRect = function (this: Element) {
        if (!this.hasAttribute('data-slate-chunk')) return original.call(this);
        const top = chunkTop(this);
        return { top, bottom: top + 1000, height: 1000, left: 0, right: 700, width: 700, x: 0, y: top, toJSON: () => ({}) } as DOMRect;
      };
    });
    afterEach(() => {
      delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
      Element.prototype.getBoundingClientRect = original;
    });
    /** Scrolls the window to `y` and lets the check that follows (next frame) and React run. */
    const scrollTo = (y: number) =>
      act(async () => {
        scrolled = y;
        window.dispatchEvent(new Event('scroll'));
        await new Promise((resolve) => requestAnimationFrame(resolve));
      });

    test('only the chunks within a screen of the view are drawn; the others are placeholders holding their text; scrolling draws and undraws; the caret pins its chunks', async () => {
      // 200 blocks in chunks of 3: the caret's 50-block margin leaves the far end unpinned.
      const editor = smallChunkEditor(200);
      const { container } = render(<LazyEditor editor={editor} />);
      expect(chunkVisibilityOf(editor).lazy).toBe(true);
      const drawn = () => [...container.querySelectorAll('[data-block-id]')].map((element) => element.getAttribute('data-block-id'));
      // Before the first check only the page's start; then the chunk 232 px below the view too.
      expect(drawn()).toEqual(['b0', 'b1', 'b2']);
      await scrollTo(0);
      expect(drawn()).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5']);
      const placeholders = [...container.querySelectorAll('.block-chunk-placeholder')];
      expect(placeholders).toHaveLength(Math.ceil(200 / CHUNK) - 2);
      expect(placeholders[0].getAttribute('contenteditable')).toBe('false');
      expect(placeholders[0].textContent).toBe('Абзац 6\nАбзац 7\nАбзац 8');
      expect(placeholders[placeholders.length - 1].textContent).toBe('Абзац 198\nАбзац 199');

      // Scrolled to the end: the last chunks are drawn; chunk 1 (more than three screens up) is
      // not any more; chunk 0, the page's start, always is.
      await scrollTo(66 * 1000 - 500);
      const ids = () => drawn().map((id) => Number(id!.slice(1)));
      expect(ids()).toContain(198);
      expect(ids()).toContain(199);
      expect(ids()).not.toContain(4);
      expect(ids()).toContain(0);

      // The caret in block 100 draws every chunk within 50 blocks of it, and no other in between.
      await act(async () => Transforms.select(editor, Editor.start(editor, [100])));
      expect(ids()).toContain(100);
      expect(ids()).toContain(51);
      expect(ids()).toContain(149);
      expect(ids()).not.toContain(47);
      expect(ids()).not.toContain(153);

      // The caret gone, back at the top: the chunks around block 100 and at the end are placeholders again.
      await act(async () => Transforms.deselect(editor));
      await scrollTo(0);
      expect(drawn()).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5']);
      expect([...container.querySelectorAll('.block-chunk-placeholder')].pop()?.textContent).toBe('Абзац 198\nАбзац 199');
    });

    test('a placeholder leaves out what is folded away under a closed toggle: neither its text nor its height', async () => {
      const editor = withFolding(Object.assign(smallChunkEditor(20), { handleKey: () => false }));
      // Blocks 9–11 (the fourth chunk): a closed toggle and two blocks nested under it.
      editor.children = paragraphs(20).map((block, i) =>
        i === 9 ? { ...block, type: 'toggleBlock' } : i === 10 || i === 11 ? { ...block, depth: 1 } : block,
      ) as Descendant[];
      const { container } = render(<LazyEditor editor={editor} />);
      await scrollTo(0);
      const [third, fourth] = [...container.querySelectorAll<HTMLElement>('.block-chunk-placeholder')];
      expect(third.textContent).toBe('Абзац 6\nАбзац 7\nАбзац 8');
      expect(fourth.textContent).toBe('Абзац 9');
      expect(parseFloat(fourth.style.height)).toBeCloseTo(parseFloat(third.style.height) / 3);
    });

    test('after a delete that leaves one chunk, that chunk is drawn at once (the page start and the caret are in it)', async () => {
      const editor = smallChunkEditor(200);
      const { container } = render(<LazyEditor editor={editor} />);
      await scrollTo(0);
      // Everything selected and deleted: the block left is held by what was the last chunk, whose
      // new indexes the selection subscription sees too late.
      await act(async () => Transforms.select(editor, Editor.range(editor, [])));
      await act(async () => Editor.deleteFragment(editor, { direction: 'backward' }));
      expect(editor.children).toHaveLength(1);
      expect(container.querySelectorAll('.block-chunk-placeholder')).toHaveLength(0);
      expect(container.querySelectorAll('[data-block-id]')).toHaveLength(1);
    });
  });
});
