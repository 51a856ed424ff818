/**
 * Test harness for the editor's views (jsdom): the web app's editor with every plugin
 * (`createPageEditor`), the views and leaves of renderers.tsx with code highlighting, a Redux
 * store and a router (the current path is shown in `data-testid="path"`); and the stand-ins the
 * views' tests need (pointer events, XMLHttpRequest, fetch).
 */
import { act, render } from '@testing-library/react';
import { useRef } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { Descendant } from 'slate';
import { Editable, Slate, useSlateStatic } from 'slate-react';
import { blocksToSlate, type BlockData, type WireBlock } from '../../../schema/block';
import { titleToSlate, type BlockWireType } from '../../../schema/blocks';
import type { BlockElement } from '../../../schema/slate';
import '../../app/i18n';
import { createStore, type AppStore } from '../../app/store';
import { createPageEditor } from '../pageEditor';
import { BlockElementView, TokenLeaf } from '../renderers';
import { ChunkVisibilityProvider } from '../lazyChunks';
import { useCodeDecorate } from '../../../plugins/blocks/code/decorate';

export const TEST_PAGE_ID = '11111111-2222-4333-8444-555555555555';

export function wireBlock(id: string, type: BlockWireType, data: BlockData): WireBlock {
  return { id, contentType: 'Block', pageId: TEST_PAGE_ID, type, version: 1, parentId: null, placeAfter: null, data };
}

function PathProbe() {
  return <div data-testid="path">{useLocation().pathname}</div>;
}

function TestEditable({ readOnly }: { readOnly: boolean }) {
  const decorate = useCodeDecorate();
  const editor = useSlateStatic();
  const frame = useRef<HTMLDivElement>(null);
  // As the page editor: the selection's edges known to the blocks (a folded block holding one is drawn whole).
  return (
    <div ref={frame}>
      <ChunkVisibilityProvider editor={editor} frame={frame}>
        <Editable readOnly={readOnly} renderElement={BlockElementView} renderLeaf={TokenLeaf} decorate={decorate} />
      </ChunkVisibilityProvider>
    </div>
  );
}

const isWire = (blocks: WireBlock[] | BlockElement[]): blocks is WireBlock[] => blocks.some((block) => 'contentType' in block);

interface RenderEditorOptions {
  readOnly?: boolean;
  /** The store the views read and write (a new one by default), for a test to look into or fill beforehand. */
  store?: AppStore;
}

/**
 * The page `TEST_PAGE_ID` (title «Страница») with these blocks after the title: wire blocks as
 * the server sends them (converted as the page editor does), or the editor's elements as they are.
 */
export function renderEditor(blocks: WireBlock[] | BlockElement[], options: RenderEditorOptions = {}) {
  const editor = createPageEditor();
  const store = options.store ?? createStore();
  const value = [titleToSlate(TEST_PAGE_ID, 'Страница'), ...(isWire(blocks) ? blocksToSlate(blocks) : blocks)] as Descendant[];
  const result = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[`/${TEST_PAGE_ID}`]}>
        <Routes>
          <Route
            path="/:pageUid"
            element={
              <>
                <Slate editor={editor} initialValue={value}>
                  <TestEditable readOnly={options.readOnly ?? false} />
                </Slate>
                <PathProbe />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  return { editor, store, ...result };
}

/** jsdom has no PointerEvent: a MouseEvent with a pointerId does for React's pointer handlers. */
export function installPointerEvents() {
  if (typeof window.PointerEvent === 'function') return;
  class PointerEventShim extends MouseEvent {
    readonly pointerId: number;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
    }
  }
  Object.assign(window, { PointerEvent: PointerEventShim });
}

interface FakeXhr {
  method: string;
  url: string;
  body: FormData | null;
  headers: Record<string, string>;
  progress(loaded: number, total: number): void;
  respond(status: number, body?: unknown): void;
  fail(): void;
}

/** Replaces XMLHttpRequest; each request made is pushed to the returned list, to be answered by the test. */
export function installFakeXhr(): FakeXhr[] {
  const made: FakeXhr[] = [];
  class Xhr {
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    status = 0;
    statusText = '';
    responseText = '';
    private record: FakeXhr | null = null;
    open(method: string, url: string) {
      this.record = {
        method,
        url,
        body: null,
        headers: {},
        progress: (loaded, total) => {
          this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
        },
        respond: (status, body) => {
          this.status = status;
          this.responseText = body === undefined ? '' : JSON.stringify(body);
          this.onload?.();
        },
        fail: () => {
          this.onerror?.();
        },
      };
    }
    setRequestHeader(name: string, value: string) {
      this.record!.headers[name] = value;
    }
    send(body: FormData) {
      this.record!.body = body;
      made.push(this.record!);
    }
    abort() {
      this.onabort?.();
    }
  }
  Object.assign(globalThis, { XMLHttpRequest: Xhr });
  return made;
}

export interface FetchCall {
  url: string;
  method: string;
  body: unknown;
}

/** Replaces fetch with `answer`, recording every call (JSON bodies parsed). */
export function installFetch(answer: (call: FetchCall) => { status: number; body: unknown }): FetchCall[] {
  const calls: FetchCall[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(input), method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body };
    calls.push(call);
    const { status, body } = answer(call);
    return { ok: status >= 200 && status < 300, status, statusText: '', json: async () => body } as Response;
  }) as typeof fetch;
  return calls;
}

/** Slate tells React of a change in a microtask: let it run, inside act. */
export async function flushEditor() {
  await act(async () => {
    await Promise.resolve();
  });
}
