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
import type { PageTop, PageTopInput } from '../../schema/pageTop';
import { createPageEditor } from '../editor/pageEditor';
import { BlockElementView, TokenLeaf } from '../editor/renderers';
import { renderChunk } from '../editor/lazyChunks';
import { decorateCode } from '../editor/blocks/code/decorate';
import { loadLanguage } from '../editor/blocks/code/prism';
import { loadKatex } from '../editor/blocks/latex/katex';
import type { CodeLanguage } from '../../schema/blocks/code';
import { initI18n, type Translations } from '../app/i18n';
import i18next from 'i18next';
import { StaticPageHeader } from '../features/pages/StaticPageHeader';
import { SCREEN_PAGE_TYPES } from '../features/pageTypes/TypedPage';
import { Breadcrumbs } from '../features/shell/Breadcrumbs';
import { PublicTopbar } from '../features/public/PublicTopbar';
import common from '../locales/ru/common.json';
import documentEditor from '../locales/ru/documentEditor.json';
import automation from '../locales/ru/automation.json';

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

function Blocks({ page, blocks }: Pick<PageTopInput, 'page' | 'blocks'>) {
  const editor = createPageEditor();
  editor.children = [titleToSlate(page.id, page.title), ...blocksToSlate(blocks)] as Descendant[];
  return (
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
  );
}

function PageTop({ page, blocks, editable, tree, published }: PageTopInput) {
  if (published) {
    return (
      <div className="public-page page">
        {/* A visitor signed out (the server draws published pages for anyone): the app says so too. */}
        <PublicTopbar signedIn={false} />
        <StaticPageHeader page={page} />
        <Blocks page={page} blocks={blocks} />
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
          <Blocks page={page} blocks={blocks} />
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

/**
 * The page's top for index.html, or null for a page the app does not open as a plain document (a
 * folder, an embed, a linked view: their screens draw no blocks; a trashed page; a row page).
 */
export async function renderPageTop(input: PageTopInput): Promise<PageTop | null> {
  // What the page screen draws around the blocks that the top does not (a folder's cards, a
  // trashed page's banner, a row page's fields under its title) would push the drawing about when
  // the app takes over: those pages are left to the app.
  if (SCREEN_PAGE_TYPES.has(input.page.type) || input.page.inTrash || input.page.databaseId) return null;
  words();
  // A database's rows are the app's to draw (its row store reads them, live): the top stops
  // before the first database, so the grid appears below what is drawn instead of pushing it.
  const database = input.blocks.findIndex((block) => block.type === 'database');
  if (database >= 0) input = { ...input, blocks: input.blocks.slice(0, database) };
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
  const html = renderToString(
    <Provider store={createStore()}>
      <MemoryRouter>
        <PageTop {...input} />
      </MemoryRouter>
    </Provider>,
  );
  return {
    html: inert(html),
    title: input.page.title || i18next.t('untitled'),
    formulas,
    database: holdsDatabase(input.page.type),
  };
}
