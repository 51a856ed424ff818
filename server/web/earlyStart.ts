import path from 'node:path';
import type { OutputBundle } from 'rolldown';
import type { Plugin } from 'vite';
import { earlyInputScript, earlyScript, earlyThemeScript, type EarlyPlan } from '../../src/app/earlyStart.ts';
import { SCRIPT_HASHES, SERVER_TOP_STYLES, type ServerTopStyles } from './topStyles.ts';
import { scriptHash } from './securityHeaders.ts';
import { BOARD_WINDOW, CALENDAR_WINDOW, DATABASE_WINDOW } from '../../src/editor/blocks/rowsAddress.ts';

type Bundle = OutputBundle;
type Chunk = Extract<Bundle[string], { type: 'chunk' }>;

/** The page screen's module (src/app/App.tsx loads it lazily): its code is asked for early on a page's address. */
const SCREEN_MODULE = path.join('src', 'features', 'shell', 'PageScreen.tsx');
/** The Table view's module (src/editor/blocks/databaseRows.ts loads it lazily): asked for early when a page's top holds a database. */
const DATABASE_MODULE = path.join('src', 'features', 'database', 'DatabaseBlock.tsx');
/** The Calendar view's module (DatabaseBlock loads it lazily): asked for early when a database opens on a calendar. */
const CALENDAR_MODULE = path.join('src', 'features', 'database', 'calendar', 'CalendarView.tsx');
/** The search screen (src/app/App.tsx loads it lazily): its code is asked for early on its address. */
const SEARCH_MODULE = path.join('src', 'features', 'search', 'SearchScreen.tsx');
/** The published page's screen (src/app/App.tsx loads it lazily): its style sheets go with a published page's top drawn by the server. */
const PUBLIC_MODULE = path.join('src', 'features', 'public', 'PublicPageScreen.tsx');
/** KaTeX's style sheet (plugins/blocks/latex/katex.ts loads it with KaTeX): it goes with a drawn top that holds a formula. */
const KATEX_STYLES = 'katex/dist/katex.min.css';
/** The translation files (src/app/translations.ts). */
const WORDS = /(^|\/)locales\/ru\/[^/]+\.json$/;

/**
 * What the early script asks for, from the build's output: the translation files' URLs, the page
 * screen's chunks and style sheets that the entry's own do not already bring, and the Table
 * view's that neither brings.
 */
export function earlyPlan(bundle: Bundle, base = '/'): EarlyPlan & { publicScreen: EarlyPlan['screen']; formulas: EarlyPlan['screen'] } {
  const chunks = Object.values(bundle).filter((output): output is Chunk => output.type === 'chunk');
  const words = Object.values(bundle)
    .filter((output) => output.type === 'asset' && output.originalFileNames.some((name) => WORDS.test(name.split(path.sep).join('/'))))
    .map((asset) => base + asset.fileName)
    .sort();
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  /** A chunk and every chunk it imports statically, in order, without those in `skip`. */
  const closure = (start: Chunk | undefined, skip: ReadonlySet<string>): Chunk[] => {
    const seen = new Set<string>();
    const out: Chunk[] = [];
    const visit = (chunk: Chunk | undefined) => {
      if (!chunk || seen.has(chunk.fileName) || skip.has(chunk.fileName)) return;
      seen.add(chunk.fileName);
      out.push(chunk);
      for (const name of chunk.imports) visit(byName.get(name));
    };
    visit(start);
    return out;
  };
  const entry = chunks.find((chunk) => chunk.isEntry);
  const started = new Set(closure(entry, new Set()).map((chunk) => chunk.fileName));
  /** A lazily loaded module's chunks and style sheets that those loaded already (`loaded`) do not bring. */
  const lazy = (module: string, loaded: ReadonlySet<string>) => {
    const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(module));
    if (!chunk) throw new Error(`earlyStart: no chunk for ${module}`);
    const own = closure(chunk, loaded);
    const loadedCss = new Set([...loaded].flatMap((name) => [...(byName.get(name)?.viteMetadata?.importedCss ?? [])]));
    const styles = [...new Set(own.flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]))].filter((name) => !loadedCss.has(name));
    return { chunks: own, files: { scripts: own.map((c) => base + c.fileName), styles: styles.map((name) => base + name) } };
  };
  const screen = lazy(SCREEN_MODULE, started);
  const database = lazy(DATABASE_MODULE, new Set([...started, ...screen.chunks.map((c) => c.fileName)]));
  const calendar = lazy(CALENDAR_MODULE, new Set([...started, ...screen.chunks.map((c) => c.fileName), ...database.chunks.map((c) => c.fileName)]));
  const publicScreen = lazy(PUBLIC_MODULE, started);
  const search = lazy(SEARCH_MODULE, started);
  // A style sheet imported by itself (not a chunk's): found by its source file.
  const formulas = {
    files: {
      scripts: [] as string[],
      styles: Object.values(bundle)
        .filter((output) => output.type === 'asset' && output.originalFileNames.some((name) => name.split(path.sep).join('/').endsWith(KATEX_STYLES)))
        .map((asset) => base + asset.fileName),
    },
  };
  return {
    words,
    publicScreen: publicScreen.files,
    formulas: formulas.files,
    screen: screen.files,
    database: database.files,
    calendar: calendar.files,
    search: search.files,
    rowsWindow: DATABASE_WINDOW,
    boardWindow: BOARD_WINDOW,
    calendarWindow: CALENDAR_WINDOW,
  };
}

/**
 * Puts the early script (src/app/earlyStart.ts) first in the built index.html's head: the app's
 * first requests leave while the HTML is read, not after its code has come and run. A file of
 * the build (assets/early-<hash>.js), not inline: the CSP allows no inline script
 * (server/web/securityHeaders.ts). A plain `<script src>`, neither async nor deferred, so it runs
 * before the app's code. Build only (the dev server has no bundle; the app asks for everything
 * itself there).
 */
export function earlyStartPlugin(): Plugin {
  let base = '/';
  return {
    name: 'early-start',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    generateBundle: {
      // After Vite's own HTML plugin has written index.html into the bundle.
      order: 'post',
      handler(_options, bundle) {
        const html = bundle['index.html'];
        if (!html || html.type !== 'asset') return;
        const source = String(html.source);
        // After the title (the charset stays in the first 1,024 bytes) and before the style
        // sheets (a script after them would wait for them).
        if (!source.includes('</title>')) throw new Error('earlyStart: index.html has no <title>');
        const { publicScreen, formulas, ...plan } = earlyPlan(bundle, base);
        const reference = this.emitFile({ type: 'asset', name: 'early.js', source: earlyScript(plan) });
        // The style sheets a page's top drawn by the server needs (server/web/serverTop.ts): the
        // page screen's (with the editor's) and the published page screen's.
        const serverTop: ServerTopStyles = {
          page: plan.screen.styles,
          published: publicScreen.styles,
          formulas: formulas.styles,
          database: plan.database.styles,
        };
        this.emitFile({ type: 'asset', fileName: SERVER_TOP_STYLES, source: JSON.stringify(serverTop) });
        const input = this.emitFile({ type: 'asset', name: 'input.js', source: earlyInputScript() });
        const src = base + this.getFileName(reference);
        // The theme inline (before anything is painted, whatever comes when), allowed by its hash.
        const theme = earlyThemeScript();
        this.emitFile({ type: 'asset', fileName: SCRIPT_HASHES, source: JSON.stringify([scriptHash(theme)]) });
        html.source = source.replace(
          '</title>',
          () =>
            `</title>\n    <script>${theme}</script>\n    <script async src="${base + this.getFileName(input)}"></script>\n    <script src="${src}"></script>`,
        );
      },
    },
  };
}
