import type { ComponentType } from 'react';
import { preloadable } from '../../app/preloadable';
import type { WireBlock } from '../../../schema/block';
import type { DatabaseConfig, DatabaseLayout } from '../../../schema/blocks/database';
import { prefetchAnswer } from '../../app/api';
import type { DatabaseBlockProps } from '../../features/database/DatabaseBlock';
import type { LiveView } from '../../features/database/context';
import { BOARD_WINDOW, CALENDAR_WINDOW, DATABASE_WINDOW, firstRowsPaths } from './rowsAddress';

/**
 * What a page asks for a database before the Table view's code is there: that code (a chunk of
 * its own), and the first window of a view's rows. The address of a window is shared by the
 * Table view's calls (src/features/database/api.ts) and the page, which asks for the first window
 * as soon as its blocks are in (src/features/pages/pageLoad.ts) and again, once, when it draws the
 * database block; the Table view's row store starts with that answer, or its first read takes it.
 */

export { BOARD_WINDOW, CALENDAR_WINDOW, DATABASE_WINDOW, jsonQuery, rowsPath, viewRowsQuery, type RowsQuery } from './rowsAddress';

const asked = new Set<string>();

/**
 * Asks for the first window of a view's rows now (once per address and page load; the answer to
 * index.html's early script when it asked already), and reads its answer as soon as it comes
 * (`prefetchAnswer`): the Table view's first drawing then has its rows (`databaseApi.earlyRows`),
 * or its store's first read takes it. Any write drops it (a later read must not get rows from
 * before it).
 */
export function prefetchFirstRows(databaseId: string, config: DatabaseConfig, layout: DatabaseLayout | undefined): void {
  if (!layout) return;
  for (const path of firstRowsPaths(
    [{ id: databaseId, type: 'database', data: { config, view: { layouts: [layout] } } }],
    DATABASE_WINDOW,
    BOARD_WINDOW,
    CALENDAR_WINDOW,
  ))
    prefetchPath(path);
}

function prefetchPath(path: string): void {
  if (asked.has(path)) return;
  asked.add(path);
  prefetchAnswer(path);
  // Asked again later (another visit), it is asked for again.
  setTimeout(() => asked.delete(path), 10_000);
}

export type DatabaseBlockView = ComponentType<DatabaseBlockProps>;
let loadedView: DatabaseBlockView | null = null;
let loadingView: Promise<DatabaseBlockView> | null = null;

/** The Table view's code when it is loaded (else null). */
export const loadedDatabaseView = (): DatabaseBlockView | null => loadedView;

/** Asks for the live Table view and everything it needs (TanStack Table and Virtual, drag and drop): once, again after a failure. */
export function preloadDatabaseView(): Promise<DatabaseBlockView> {
  return (loadingView ??= import('../../features/database/DatabaseBlock').then(
    (module) => (loadedView = module.default),
    (error: unknown) => {
      loadingView = null;
      throw error;
    },
  ));
}

/**
 * Views with a chunk of their own, loaded only where one is shown: drawn without suspending once
 * loaded (`preloadable`), and a page that opens on one preloads it (`preloadDatabases`) — a
 * calendar that suspended for a chunk already on its way was drawn ≈ 150 ms late.
 */
type LiveViewProps = { layout: DatabaseLayout; track(view: LiveView): () => void };
/** The Calendar view (FullCalendar). */
export const CalendarChunk = preloadable<LiveViewProps>(() => import('../../features/database/calendar/CalendarView'));
/** The chart views (Recharts). */
export const ChartChunk = preloadable<LiveViewProps>(() => import('../../features/database/chart/ChartView'));

/** The chunk a view type draws with, if it has one of its own. */
function chunkOf(type: string | undefined): typeof CalendarChunk | null {
  if (type === 'calendar') return CalendarChunk;
  return type === 'chart' || type === 'barChart' || type === 'lineChart' || type === 'pieChart' ? ChartChunk : null;
}

/**
 * A page's first blocks are in, before the editor draws them (its code and first drawing take
 * ≈ 100 ms): when one is a database, the Table view's code and its first view's first window are
 * asked for now, so that both come while the editor draws. The code's load, or null when there is no database.
 */
export function preloadDatabases(blocks: readonly WireBlock[]): Promise<DatabaseBlockView> | null {
  const databases = blocks.filter((block) => block.type === 'database');
  if (databases.length === 0) return null;
  const view = preloadDatabaseView();
  // A database that opens on a calendar or a chart: that view's code too (index.html's script asked for it).
  const chunks = databases.flatMap((block) => {
    const layouts = (block.data as { view?: { layouts?: unknown } } | null)?.view?.layouts;
    const chunk = Array.isArray(layouts) ? chunkOf((layouts[0] as { type?: string } | undefined)?.type) : null;
    return chunk ? [chunk.preload()] : [];
  });
  const code = Promise.all([view, ...chunks]).then(() => view);
  code.catch(() => undefined);
  for (const path of firstRowsPaths(databases, DATABASE_WINDOW, BOARD_WINDOW, CALENDAR_WINDOW)) prefetchPath(path);
  return code;
}
