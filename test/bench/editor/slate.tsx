/**
 * slate-chunk-cv: vanilla slate + slate-react + slate-history, top-level chunks of 1000 with
 * `content-visibility: auto` on the lowest chunks. Elements carry the workspace's shapes (type,
 * uid, children) only because the repository's Slate types are global; nothing of ours runs here.
 */
import { runBench } from './harness';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createEditor, Editor, Node, type Descendant } from 'slate';
import { withHistory } from 'slate-history';
import { Editable, Slate, withReact, type RenderChunkProps, type RenderElementProps } from 'slate-react';
import type { BlockElement } from '../../../schema/slate';
import type { BenchBlockKind } from './document';
import './bench.css';

const SLATE_TYPE = { p: 'textBlock', h1: 'heading1Block', h2: 'heading2Block', h3: 'heading3Block', li: 'bulletListBlock' } as const satisfies Record<
  BenchBlockKind,
  string
>;

const editor = withHistory(withReact(createEditor()));
editor.getChunkSize = (node) => (Editor.isEditor(node) ? 1000 : null);

function renderChunk({ attributes, children, lowest }: RenderChunkProps) {
  return (
    <div {...attributes} className={lowest ? 'bench-group' : undefined}>
      {children}
    </div>
  );
}

function renderElement({ attributes, children, element }: RenderElementProps) {
  const props = { ...attributes, 'data-id': element.uid };
  switch (element.type) {
    case 'heading1Block':
      return <h2 {...props}>{children}</h2>;
    case 'heading2Block':
      return <h3 {...props}>{children}</h3>;
    case 'heading3Block':
      return <h4 {...props}>{children}</h4>;
    case 'bulletListBlock':
      return <li {...props}>{children}</li>;
    default:
      return <p {...props}>{children}</p>;
  }
}

let editable: HTMLElement;
const targetElement = () => editable.querySelector<HTMLElement>(`[data-id="${window.bench.document.targetId}"]`);

let value: Descendant[] = [];

runBench('slate-chunk-cv', {
  prepare(document_) {
    value = document_.blocks.map(
      (block) => ({ type: SLATE_TYPE[block.kind], uid: block.id, version: 1, children: [{ text: block.text }] }) as BlockElement,
    ) as Descendant[];
  },
  mount(root) {
    flushSync(() => {
      createRoot(root).render(
        <Slate editor={editor} initialValue={value}>
          <Editable className="bench-editor" spellCheck={false} renderElement={renderElement} renderChunk={renderChunk} />
        </Slate>,
      );
    });
    editable = root.querySelector('[data-slate-editor]') as HTMLElement;
  },
  editable: () => editable,
  targetElement,
  modelTargetText() {
    const element = editor.children.find((node) => (node as BlockElement).uid === window.bench.document.targetId);
    return element ? Node.string(element) : '';
  },
});
