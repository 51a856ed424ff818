/**
 * ours: the real DocumentEditor with every plugin, i18n initialised as the app does, fed the
 * document as wire blocks (the editor converts them with blocksToSlate), with a block API that
 * answers like the server without any network.
 */
import { runBench } from './harness';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { Node } from 'slate';
import { ELEMENT_TO_NODE } from 'slate-dom';
import type { WireBlock } from '../../../schema/block';
import type { BlockWireType } from '../../../schema/blocks';
import { newElement, type WireElement } from '../../../schema/element';
import type { BlockSyncApi } from '../../../plugins/withBlockSync';
import type { BlockElement } from '../../../schema/slate';
import type { WorkspaceEditor } from '../../../plugins';
import { DocumentEditor } from '../../../src/editor/DocumentEditor';
import { createStore } from '../../../src/app/store';
import { revealBlock } from '../../../src/editor/lazyChunks';
import '../../../src/app/i18n';
import '../../../src/ui/theme.css';
import type { BenchBlockKind } from './document';
import './bench.css';

const WIRE_TYPE = { p: 'text', h1: 'heading1', h2: 'heading2', h3: 'heading3', li: 'bulletList' } as const satisfies Record<BenchBlockKind, BlockWireType>;
const PAGE_ID = 'bench-page';

const page: WireElement = newElement({ id: PAGE_ID, title: 'Editor benchmark', section: 'private' }, '2026-01-01T00:00:00.000Z');

/** Answers as the server would (the saved block, one version up), at once and with no network. */
const offlineApi: BlockSyncApi = {
  createBlock: async (body) => ({ contentType: 'Block', version: 1, parentId: null, placeAfter: null, ...body }) as WireBlock,
  updateBlock: async (id, body) => ({
    id,
    contentType: 'Block',
    pageId: PAGE_ID,
    parentId: null,
    placeAfter: null,
    type: body.type,
    data: body.data,
    version: body.version + 1,
  }),
  moveBlock: async (id, body) => ({ id, contentType: 'Block', pageId: PAGE_ID, type: 'text', data: { tokens: [] }, version: 1, ...body }) as WireBlock,
  deleteBlock: async () => undefined,
};

let editable: HTMLElement;
const targetElement = () => editable.querySelector<HTMLElement>(`[data-block-id="${window.bench.document.targetId}"]`);
const noop = () => undefined;

let blocks: WireBlock[] = [];

/**
 * The method's second variant (`?variant=mixed`): ours may also get a few code, table, formula,
 * toggle (closed), progress, bookmark, date-mention, column and synced blocks (every type of issue 39).
 */
const MIXED_EVERY = 333;
const MIXED_KINDS = 9;
/** The kind that is a synced block: an editor of its own page (three paragraphs) inside the block. */
const SYNCED_KIND = 8;
const syncedPageId = (index: number) => `5e1c0000-0000-4000-8000-${String(index).padStart(12, '0')}`;

/**
 * The synced blocks' pages, answered in the page as the server would (a fetch stand-in: the
 * benchmark measures the editor, not the network): the page, and three paragraphs in it.
 */
function answerSyncedPages(): void {
  const fetchFromNetwork = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const element = /\/api\/v3\/spaces\/element\/([^/?]+)$/.exec(url);
    const blocks = /\/api\/v3\/spaces\/note\/([^/?]+)\/blocks/.exec(url);
    const json = (data: unknown) =>
      new Response(JSON.stringify({ data, meta: { at: '2026-01-01T00:00:00.000Z' } }), { headers: { 'content-type': 'application/json' } });
    if (element) return json({ ...newElement({ id: element[1], parentId: PAGE_ID, path: [PAGE_ID] }, '2026-01-01T00:00:00.000Z'), synced: true });
    if (blocks) {
      let after: string | null = null;
      return json(
        ['Общий абзац синхронизированного блока', 'Второй его абзац', 'И третий'].map((text, n) => {
          const id = `${blocks[1].slice(0, 24)}${String(n).padStart(12, '0')}`.replace(/^5e1c/, '5e1d');
          const block = {
            id,
            contentType: 'Block',
            pageId: blocks[1],
            version: 1,
            parentId: null,
            placeAfter: after,
            type: 'text',
            data: { tokens: [{ text }] },
          };
          after = id;
          return block;
        }),
      );
    }
    return fetchFromNetwork(input, init);
  };
}
/** The kind that makes a column list of the block and the four after it (two columns of one paragraph). */
const COLUMNS_KIND = 7;
function mixedData(index: number, text: string): Pick<WireBlock, 'type' | 'data'> {
  switch (Math.floor(index / MIXED_EVERY) % MIXED_KINDS) {
    case 0:
      return {
        type: 'code',
        data: {
          language: 'typescript',
          tokens: [{ text: `const line${index} = ${JSON.stringify(text.slice(0, 30))};\nexport function f${index}(x: number) {\n  return x * ${index};\n}` }],
        },
      };
    case 1:
      return {
        type: 'table',
        data: {
          tableLayout: { columns: 3, rows: 3, columnSizes: [120, 120, 120] },
          headerRow: true,
          headerColumn: false,
          tokens: Array.from({ length: 9 }, (_, cell) => ({
            text: text.split(' ')[cell % 5] || 'cell',
            tableAddress: { x: cell % 3, y: Math.floor(cell / 3) },
          })),
        },
      };
    case 2:
      return { type: 'latex', data: { formula: `\\sum_{k=1}^{${index}} k^2 = \\frac{n(n+1)(2n+1)}{6}` } };
    case 3:
      return { type: 'toggle', data: { tokens: [{ text }] } };
    case 4:
      return { type: 'progress', data: { tokens: [{ text }], value: index % 101 } };
    case SYNCED_KIND:
      return { type: 'synced', data: { pageId: syncedPageId(index) } };
    case 5:
      return {
        type: 'bookmark',
        data: {
          url: `https://example.com/articles/${index}`,
          preview: { title: text.slice(0, 60), description: text, image: null, icon: null, siteName: 'Пример' },
        },
      };
    default:
      return {
        type: 'text',
        data: { tokens: [{ text: `${text.slice(0, 40)} ` }, { text: '11 декабря 2026, 15:00', date: { start: '2026-12-11T15:00' } }] },
      };
  }
}

runBench('ours', {
  prepare(document_) {
    const mixed = new URLSearchParams(location.search).get('variant') === 'mixed';
    if (mixed) answerSyncedPages();
    let previous: string | null = null;
    // A column list: its block and the four after it are the list, a column, a paragraph, a column, a paragraph.
    const lists = new Map<number, string>();
    blocks = document_.blocks.map((block, index) => {
      const special = mixed && index % MIXED_EVERY === MIXED_EVERY - 1 && index !== document_.targetIndex;
      const target = document_.targetIndex;
      const columns =
        special &&
        Math.floor(index / MIXED_EVERY) % MIXED_KINDS === COLUMNS_KIND &&
        !(target > index && target <= index + 4) &&
        index + 4 < document_.blocks.length;
      if (columns) lists.set(index, block.id);
      const start = [index - 1, index - 2, index - 3, index - 4].find((at) => lists.has(at));
      if (start !== undefined) {
        const role = index - start;
        const column = (role <= 2 ? document_.blocks[start + 1] : document_.blocks[start + 3]).id;
        const isColumn = role === 1 || role === 3;
        // The list's children (columns) and the columns' paragraphs; the page's next block follows the list.
        return {
          id: block.id,
          contentType: 'Block',
          pageId: PAGE_ID,
          version: 1,
          parentId: isColumn ? lists.get(start)! : column,
          placeAfter: role === 3 ? document_.blocks[start + 1].id : null,
          ...(isColumn ? { type: 'column', data: { width: null } } : { type: 'text', data: { tokens: [{ text: block.text }] } }),
        } as WireBlock;
      }
      const content = columns
        ? { type: 'columnList', data: {} }
        : special
          ? mixedData(index, block.text)
          : { type: WIRE_TYPE[block.kind], data: { tokens: [{ text: block.text }] } };
      const wire = { id: block.id, contentType: 'Block', pageId: PAGE_ID, version: 1, parentId: null, placeAfter: previous, ...content } as WireBlock;
      previous = block.id;
      return wire;
    });
  },
  mount(root) {
    flushSync(() => {
      // The editor reads the app's store (page links, linked views), as inside the app.
      createRoot(root).render(
        <Provider store={createStore()}>
          <DocumentEditor page={page} blocks={blocks} canEdit onTitleEdited={noop} saveTitle={async () => undefined} onSyncStatus={noop} api={offlineApi} />
        </Provider>,
      );
    });
    editable = root.querySelector('[data-slate-editor]') as HTMLElement;
    // The method turns spell checking off everywhere; the editor asks for it, so the page overrides it.
    editable.spellcheck = false;
  },
  editable: () => editable,
  targetElement,
  reveal() {
    revealBlock(ELEMENT_TO_NODE.get(editable) as unknown as WorkspaceEditor, window.bench.document.targetId);
  },
  modelTargetText() {
    // slate-react maps the editable element to its editor: read the model, not the DOM.
    const editor = ELEMENT_TO_NODE.get(editable) as unknown as WorkspaceEditor;
    const element = editor.children.find((node) => (node as BlockElement).uid === window.bench.document.targetId);
    return element ? Node.string(element) : '';
  },
});
