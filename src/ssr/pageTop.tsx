import type { CSSProperties } from 'react';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { createStore } from '../app/store';
import type { Descendant } from 'slate';
import { Editable, Slate } from 'slate-react';
import { blocksToSlate } from '../../schema/block';
import { titleToSlate } from '../../schema/blocks';
import { holdsDatabase } from '../../schema/element';
import type { PageTop, PageTopInput, ReadAnswer } from '../../schema/pageTop';
import type { ApiResponse } from '../../schema/envelope';
import { createPageEditor } from '../editor/pageEditor';
import { BlockElementView, TokenLeaf } from '../editor/renderers';
import { renderChunk } from '../editor/lazyChunks';
import { decorateCode } from '../../plugins/blocks/code/decorate';
import { loadLanguage } from '../../plugins/blocks/code/prism';
import { loadKatex } from '../../plugins/blocks/latex/katex';
import type { CodeLanguage } from '../../plugins/blocks/code/block';
import { initI18n, type Translations } from '../app/i18n';
import i18next from 'i18next';
import { StaticPageHeader } from '../features/pages/StaticPageHeader';
import { SCREEN_PAGE_TYPES } from '../features/pageTypes/TypedPage';
import { Breadcrumbs } from '../features/shell/Breadcrumbs';
import { PublicTopbar } from '../features/public/PublicTopbar';
import common from '../locales/ru/common.json';
import documentEditor from '../locales/ru/documentEditor.json';
import automation from '../locales/ru/automation.json';
import { clearPrefetched, giveAnswer } from '../app/api';
import { DatabaseHostContext, fillDatabaseOf, type DatabaseHost } from '../editor/blocks/databaseHost';
import { preloadDatabaseView } from '../editor/blocks/databaseRows';
import { DATABASE_WINDOW, firstLayoutOf, firstRowsPath } from '../editor/blocks/rowsAddress';
import { clearRowStores } from '../features/database/rows/rowStore';

/**
 * The top of a page as the server writes it into index.html (issue 35 §5; docs/web-app.md «The
 * first screen from the server»): the page screen's frame, its header and the editor's first
 * blocks, drawn by the app's own block views (read-only; React escapes every text), so the first
 * screen is there before the app's code has come. The app draws its own under it and takes over
 * when its page screen shows the page (src/app/serverTop.ts).
 *
 * Built by Vite as an SSR bundle of its own (dist-ssr/pageTop.mjs, with React's production
 * build in it), which the server imports (server/web/serverTop.ts).
 */

function words(): void {
  if (!i18next.isInitialized) initI18n({ common, documentEditor, automation } as Translations);
}

/**
 * What a database drawn here needs from the page around it: only what its first drawing reads (a
 * database whose rows are given is drawn; nothing here is ever saved, sent or listened to).
 */
function databaseHost({ page, blocks, editable, published }: PageTopInput): DatabaseHost {
  return {
    pageId: page.id,
    workspaceId: page.workspaceId,
    canEdit: editable,
    receiveBlock: () => undefined,
    isSaved: () => true,
    flush: () => Promise.resolve(),
    live: null,
    fillDatabaseId: fillDatabaseOf(page, blocks),
    published,
  };
}

function Blocks({ input }: { input: PageTopInput }) {
  const { page, blocks } = input;
  const editor = createPageEditor();
  editor.children = [titleToSlate(page.id, page.title), ...blocksToSlate(blocks)] as Descendant[];
  return (
    <DatabaseHostContext.Provider value={databaseHost(input)}>
      <div className="document-editor-frame">
        <Slate editor={editor} initialValue={editor.children}>
          <Editable
            className="document-editor"
            readOnly
            renderElement={BlockElementView}
            renderLeaf={TokenLeaf}
            renderChunk={renderChunk}
            decorate={decorateCode}
          />
        </Slate>
      </div>
    </DatabaseHostContext.Provider>
  );
}

function PageTop(input: PageTopInput) {
  const { page, editable, tree, published } = input;
  if (published) {
    return (
      <div className="public-page page">
        {/* A visitor signed out (the server draws published pages for anyone): the app says so too. */}
        <PublicTopbar signedIn={false} />
        <StaticPageHeader page={page} />
        <Blocks input={input} />
      </div>
    );
  }
  return (
    <div className={tree.open ? 'shell' : 'shell is-tree-closed'} style={tree.open ? ({ '--tree-width': `${tree.width}px` } as CSSProperties) : undefined}>
      {tree.open && (
        <div className="shell-sidebar">
          {/* The sidebar's room only (its tree is the app's): not `.sidebar`, which names the live one. */}
          <div className="server-top-sidebar" />
        </div>
      )}
      <main className="shell-main">
        <div className={holdsDatabase(page.type) ? 'page is-database' : 'page'} aria-busy="true">
          <header className="page-topbar">
            {/* The pages above are «…» until the app has read them, as in its first drawing. */}
            <Breadcrumbs page={page} />
            <div className="page-topbar-actions" />
          </header>
          <StaticPageHeader page={page} editable={editable} />
          <Blocks input={input} />
        </div>
      </main>
    </div>
  );
}

/**
 * The drawing is not an editor: the names by which the app finds its live editor and its blocks
 * (`data-slate-editor`, `data-block-id`) become the top's own (`data-top-editor`,
 * `data-top-block`), so nothing looking for the page's blocks — the block handle, the assistant,
 * a search result's reveal, a test — ever finds this copy while both are in the document. (A
 * text cannot hold them: React writes `"` in text as `&quot;`.)
 */
export function inert(html: string): string {
  return html.replaceAll('data-slate-editor="', 'data-top-editor="').replaceAll('data-block-id="', 'data-top-block="');
}

/** A database's first rows as the app's Table view first reads them, with that view's code loaded; null for another view or when refused. */
async function firstRows(block: PageTopInput['blocks'][number], read: ReadAnswer): Promise<{ path: string; answer: ApiResponse<unknown> } | null> {
  const layout = firstLayoutOf(block.data);
  if (layout?.type !== 'table') return null;
  const path = firstRowsPath(block.id, layout, DATABASE_WINDOW);
  const [answer] = await Promise.all([read(path), preloadDatabaseView()]);
  return answer && { path, answer };
}

/**
 * The page's top for index.html, or null for a page the app does not open as a plain document (a
 * folder, an embed, a linked view: their screens draw no blocks; a trashed page; a row page).
 */
export async function renderPageTop(input: PageTopInput, read: ReadAnswer): Promise<PageTop | null> {
  // What the page screen draws around the blocks that the top does not (a folder's cards, a
  // trashed page's banner, a row page's fields under its title) would push the drawing about when
  // the app takes over: those pages are left to the app.
  if (SCREEN_PAGE_TYPES.has(input.page.type) || input.page.inTrash || input.page.databaseId) return null;
  words();
  // The first database is drawn when its first view is a table whose first rows the reader may
  // read (the Table view draws them as the app's first drawing will), and the top stops after it;
  // else it stops before it. Either way the app's grid appears where the drawing ends instead of
  // pushing it. (A board, a calendar… are the app's: their first drawing reads more than one window.)
  const database = input.blocks.findIndex((block) => block.type === 'database');
  const rows = database >= 0 ? await firstRows(input.blocks[database], read) : null;
  if (database >= 0) input = { ...input, blocks: input.blocks.slice(0, rows ? database + 1 : database) };
  // What the views load on first use is loaded first, so they draw it at once as the app will:
  // KaTeX for formulas, Prism's languages for code (a failed load leaves that one plain).
  const formulas = input.blocks.some((block) => block.type === 'latex');
  const languages = new Set(input.blocks.flatMap((block) => (block.type === 'code' ? [(block.data as { language: CodeLanguage }).language] : [])));
  await Promise.all(
    [...(formulas ? [loadKatex()] : []), ...[...languages].map((language) => loadLanguage(language))].map((load) => load.catch(() => undefined)),
  );
  // The views' contexts as the app gives them: a store (empty: a child page's or a linked page's
  // title shows as loading, as in the app's first drawing — and nothing of one reader's is kept
  // for the next) and a router (links are drawn as links; nothing navigates here).
  // The rows are given as answers the app had asked for ahead (the Table view's store starts with
  // them), and taken back at once with every row store made: nothing of this reader's is left for
  // the next (the drawing is one synchronous turn).
  if (rows) giveAnswer(rows.path, rows.answer);
  let html: string;
  try {
    html = renderToString(
      <Provider store={createStore()}>
        <MemoryRouter>
          <PageTop {...input} />
        </MemoryRouter>
      </Provider>,
    );
  } finally {
    clearPrefetched();
    clearRowStores();
  }
  return {
    html: inert(html),
    title: input.page.title || i18next.t('untitled'),
    formulas,
    database: holdsDatabase(input.page.type),
  };
}
