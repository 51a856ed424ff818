import { act, render } from '@testing-library/react';
import { createEditor, Editor, Node, Transforms, type Descendant } from 'slate';
import { Editable, ReactEditor, Slate, withReact, type RenderChunkProps, type RenderElementProps } from 'slate-react';
import { chunkOf, type ChunkRoot } from './lazyChunks';

/*
 * Jest loads slate-react through the same patch as the app's build (test/helpers/slateReactTransform.cjs;
 * that it applies: server/web/slateReactChunkPatch.guard.test.ts). These tests check that its fast paths are
 * taken (an edit inside one block does not look at every block) and that whatever mix of
 * operations is applied, the rendered blocks are the model's blocks, in order, each knowing its index.
 */

function paragraphs(count: number): Descendant[] {
  return Array.from({ length: count }, (_, i) => ({ type: 'textBlock', uid: `b${i}`, children: [{ text: `Абзац ${i}` }] }) as unknown as Descendant);
}

function chunkedEditor(count: number, chunk: number): Editor {
  const editor = withReact(createEditor());
  editor.getChunkSize = (node) => (Editor.isEditor(node) ? chunk : null);
  editor.children = paragraphs(count);
  return editor;
}

function renderElement({ attributes, children }: RenderElementProps) {
  return <p {...attributes}>{children}</p>;
}

function mount(editor: Editor) {
  return render(
    <Slate editor={editor} initialValue={editor.children}>
      <Editable renderElement={renderElement} />
    </Slate>,
  );
}

/** The DOM's blocks are the model's, in order, and each node maps to its own index and element. */
function expectDomMatchesModel(editor: Editor, container: HTMLElement) {
  const texts = Array.from(container.querySelectorAll('p'), (p) => p.textContent?.replace(/\uFEFF/g, '') ?? '');
  expect(texts).toEqual(editor.children.map((node) => Node.string(node)));
  editor.children.forEach((node, i) => {
    expect(ReactEditor.findPath(editor, node)).toEqual([i]);
    expect(ReactEditor.toDOMNode(editor, node)).toBe(container.querySelectorAll('p')[i]);
  });
}

describe('slateReactChunkPatch', () => {
  test('typing in one block of a big page neither walks the chunk tree nor splits decorations per block', async () => {
    const editor = chunkedEditor(600, 8);
    let root: (ChunkRoot & { fastIndex?: object | null }) | null = null;
    const recordingRenderChunk = ({ attributes, children }: RenderChunkProps) => {
      root = (chunkOf(children)?.root as typeof root) ?? root;
      return <div {...attributes}>{children}</div>;
    };
    const { container } = render(
      <Slate editor={editor} initialValue={editor.children}>
        <Editable renderElement={renderElement} renderChunk={recordingRenderChunk} />
      </Slate>,
    );
    await act(async () => {
      Transforms.select(editor, { path: [300, 0], offset: 3 });
      Transforms.insertText(editor, 'ж');
    });
    // The full reconcile indexes the leaves; a fast one keeps that index and moves it on.
    const index = root!.fastIndex;
    expect(index).toBeTruthy();
    const arrayFrom = jest.spyOn(Array, 'from');
    try {
      await act(async () => Transforms.insertText(editor, 'щ'));
      // Unpatched, splitDecorationsByChild makes one array per block: Array.from(editor.children, …).
      expect(arrayFrom.mock.calls.filter(([list]) => (list as unknown[] | undefined)?.length === 600)).toEqual([]);
    } finally {
      arrayFrom.mockRestore();
    }
    expect(root!.fastIndex).toBe(index);
    expect(Node.string(editor.children[300])).toBe('Абзжщац 300');
    expectDomMatchesModel(editor, container);
    // A new block is a full reconcile, after which a fresh index is taken.
    await act(async () => Transforms.splitNodes(editor, { at: { path: [300, 0], offset: 2 } }));
    expect(root!.fastIndex).not.toBe(index);
    expect(root!.fastIndex).toBeTruthy();
    expectDomMatchesModel(editor, container);
  });

  test('a block replaced in place by another is a new element, as without the patch', async () => {
    const editor = chunkedEditor(40, 4);
    const { container } = mount(editor);
    await act(async () => Transforms.insertText(editor, '!', { at: { path: [20, 0], offset: 0 } }));
    const before = container.querySelectorAll('p')[20];
    await act(async () => {
      Transforms.removeNodes(editor, { at: [20] });
      Transforms.insertNodes(editor, { type: 'textBlock', uid: 'x', children: [{ text: 'другой' }] } as unknown as Node, { at: [20] });
    });
    expect(container.querySelectorAll('p')[20]).not.toBe(before);
    expect(before.isConnected).toBe(false);
    expectDomMatchesModel(editor, container);
  });

  test('any mix of edits, inserts, removals, moves, splits and merges renders exactly the model', async () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const editor = chunkedEditor(40, 4);
    const { container } = mount(editor);
    let made = 0;
    const step = () => {
      const count = editor.children.length;
      const at = random(count);
      switch (random(8)) {
        case 0:
        case 1:
          Transforms.insertText(editor, `+${made++}`, { at: { path: [at, 0], offset: 0 } });
          break;
        case 2:
          Transforms.setNodes(editor, { checked: random(2) === 0 } as never, { at: [at] });
          break;
        case 3:
          Transforms.insertNodes(editor, { type: 'textBlock', uid: `n${made}`, children: [{ text: `новый ${made++}` }] } as unknown as Node, { at: [at] });
          break;
        case 4:
          if (count > 3) Transforms.removeNodes(editor, { at: [at] });
          break;
        case 5:
          Transforms.moveNodes(editor, { at: [at], to: [random(count)] });
          break;
        case 6: {
          const text = Node.string(editor.children[at]);
          if (text.length > 1) Transforms.splitNodes(editor, { at: { path: [at, 0], offset: 1 + random(text.length - 1) } });
          break;
        }
        default:
          if (at > 0) Transforms.mergeNodes(editor, { at: [at] });
      }
    };
    for (let round = 0; round < 120; round++) {
      // Several operations per render sometimes, as a paste or a remote batch does.
      const batch = 1 + (random(4) === 0 ? random(4) : 0);
      await act(async () => {
        for (let i = 0; i < batch; i++) step();
      });
      expectDomMatchesModel(editor, container);
    }
  });
});
