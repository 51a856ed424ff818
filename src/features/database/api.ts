import type { WireBlock } from '../../../schema/block';
import type { ChartConfig, DatabaseField, DatabaseLayout, RowValue } from '../../../schema/blocks/database';
import type { ChartAnswer } from '../../../schema/databaseChart';
import type { WireElement } from '../../../schema/element';
import {
  CELLS_PER_REQUEST,
  type CalculationResults,
  type DatabaseChoice,
  type FormulaProgress,
  type NewRow,
  type RetypeReport,
  type WireGroup,
  type WireRow,
  type WireRowTemplate,
  type CreateTemplateBody,
} from '../../../schema/database';
import type { ApiResponse } from '../../../schema/envelope';
import { api, takeAnswer } from '../../app/api';
import { jsonQuery, rowsPath, type RowsQuery } from '../../editor/blocks/databaseRows';
import { noteFormulaProgress } from './formulaProgress';

/**
 * The data-table API (docs/api/databases.md), typed. Paths are under /api/v3/spaces; query
 * parameters are JSON-encoded, as everywhere in the app (spec §7).
 */
const BASE = '/api/v3/spaces';
const id = (value: string) => encodeURIComponent(value);

export { jsonQuery, type RowsQuery };

export interface RowsWindow {
  rows: WireRow[];
  count: number;
  offset: number;
  hasMoreNext: boolean;
  /** Where the database stood when they were read (`GET …/revision` says where it stands now). */
  revision?: string;
  /** The database's formulas being computed in the background (docs/formulas.md). */
  computing?: FormulaProgress;
}

/** A cell a move writes on the rows moved; `version`: written only if the cell is still at it (else 422 database.cell_conflict, nothing moved). */
export interface MoveCell {
  fieldId: string;
  value: RowValue;
  version?: number;
}

/** A cell as the server has it after a write (and in a cell_conflict's `data`). */
export interface WireCell {
  rowId: string;
  fieldId: string;
  value: RowValue;
  version: number;
  updatedAt: string;
  updatedBy: string | null;
}

/** A row named by a relation: its title and icon. */
export interface RowTitle {
  id: string;
  title: string;
  icon: string | null;
}

/** A database block's answer carries the block (its data: config and view). */
export type DatabaseBlock = WireBlock;

async function post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  return (await api<T>(`${BASE}/${path}`, { method: 'POST', body, signal })).data;
}

function rowsWindow(answer: ApiResponse<WireRow[]>, query: RowsQuery): RowsWindow {
  const meta = (answer.meta ?? {}) as { count?: number; offset?: number; hasMoreNext?: boolean; revision?: string; computing?: FormulaProgress };
  return {
    rows: answer.data,
    count: meta.count ?? answer.data.length,
    offset: meta.offset ?? query.offset ?? 0,
    hasMoreNext: meta.hasMoreNext ?? false,
    revision: meta.revision,
    computing: meta.computing,
  };
}

export const databaseApi = {
  async database(databaseId: string): Promise<{ block: DatabaseBlock; rowCount: number }> {
    const answer = await api<DatabaseBlock>(`${BASE}/database/${id(databaseId)}`);
    return { block: answer.data, rowCount: Number((answer.meta as { rowCount?: number } | undefined)?.rowCount ?? 0) };
  },
  /** A view found by its uid (a WidgetView page's defaultLayoutId): its database, the view, and the page holding the database at the caller's level. */
  async linkedView(layoutId: string): Promise<{ block: DatabaseBlock; view: DatabaseLayout; page: WireElement }> {
    const answer = await api<DatabaseBlock>(`${BASE}/database/view/${id(layoutId)}`);
    const meta = answer.meta as { view: DatabaseLayout; page: WireElement };
    return { block: answer.data, view: meta.view, page: meta.page };
  },
  /** A window of rows; `first`: a store's first read of its first window, which may take the answer asked for with the page's blocks. */
  async rows(databaseId: string, query: RowsQuery, signal?: AbortSignal, first = false): Promise<RowsWindow> {
    const path = rowsPath(databaseId, query);
    // The first window, asked for with the page's blocks (src/editor/blocks/databaseRows.ts).
    const early = first ? takeAnswer<WireRow[]>(path) : null;
    const window = rowsWindow(early ? await early.answer : await api<WireRow[]>(path, { signal }), query);
    // Formulas computed in the background: the toolbar shows how far (not from earlyRows: that one runs while drawing).
    noteFormulaProgress(databaseId, window.computing);
    return window;
  },
  /** The first window when its early answer is in already (taken once; `peek`: left for the effect to take), else null: a view's first drawing shows its rows. */
  earlyRows(databaseId: string, query: RowsQuery, peek = false): RowsWindow | null {
    const early = takeAnswer<WireRow[]>(rowsPath(databaseId, query), true, peek);
    return early?.value ? rowsWindow(early.value, query) : null;
  },
  /** Rows after a row (null: first; missing: at the end); `viewId`: after that row in that view's own order too. */
  createRows(databaseId: string, rows: NewRow[], placeAfter?: string | null, viewId?: string): Promise<WireRow[]> {
    return post(`database/${id(databaseId)}/rows`, {
      rows,
      ...(placeAfter === undefined ? {} : { placeAfter }),
      ...(viewId !== undefined && typeof placeAfter === 'string' ? { viewId } : {}),
    });
  },
  async row(rowId: string): Promise<WireRow> {
    return (await api<WireRow>(`${BASE}/row/${id(rowId)}`)).data;
  },
  writeCell(rowId: string, fieldId: string, value: RowValue, version: number): Promise<WireCell> {
    return post(`row/${id(rowId)}/cells/${id(fieldId)}`, { value, version });
  },
  /**
   * Several cells in one call (a paste, a clear): each on its version; conflicts come back as the
   * server has them. Written in calls of CELLS_PER_REQUEST (a whole column of thousands of rows
   * cleared), one after another; the answers put together.
   */
  async writeCells(
    databaseId: string,
    cells: Array<{ rowId: string; fieldId: string; value: RowValue; version: number }>,
  ): Promise<{ written: WireCell[]; conflicts: WireCell[] }> {
    const all = { written: [] as WireCell[], conflicts: [] as WireCell[] };
    for (let at = 0; at < cells.length; at += CELLS_PER_REQUEST) {
      const answer = await post<{ written: WireCell[]; conflicts: WireCell[] }>(`database/${id(databaseId)}/cells`, {
        cells: cells.slice(at, at + CELLS_PER_REQUEST),
      });
      all.written.push(...answer.written);
      all.conflicts.push(...answer.conflicts);
    }
    return all;
  },
  /**
   * Rows after a row (null: first) or before one, in the view `viewId`'s own order (the other
   * views keep theirs: docs/api/databases.md «Order per view»); `set` writes a cell on each (a card
   * dropped in a board's column), or two at once (dropped in another swimlane's column: the lane's too).
   */
  moveRows(
    databaseId: string,
    ids: string[],
    place: { placeAfter: string | null } | { placeBefore: string } | { placeAfter?: string | null; placeBefore?: string },
    set?: MoveCell | MoveCell[],
    viewId?: string,
  ): Promise<WireRow[]> {
    return post(`database/${id(databaseId)}/rows/move`, { ids, ...place, ...(set ? { set } : {}), ...(viewId !== undefined ? { viewId } : {}) });
  },
  deleteRows(databaseId: string, ids: string[]): Promise<{ ids: string[] }> {
    return post(`database/${id(databaseId)}/rows/delete`, { ids });
  },
  restoreRows(databaseId: string, ids: string[]): Promise<WireRow[]> {
    return post(`database/${id(databaseId)}/rows/restore`, { ids });
  },
  addField(databaseId: string, field: DatabaseField, options: { id?: string; placeAfter?: string | null } = {}): Promise<DatabaseBlock> {
    return post(`database/${id(databaseId)}/fields`, { ...options, field });
  },
  async updateField(databaseId: string, fieldId: string, field: DatabaseField): Promise<{ block: DatabaseBlock; report: RetypeReport | null }> {
    const answer = await api<DatabaseBlock>(`${BASE}/database/${id(databaseId)}/fields/${id(fieldId)}`, { method: 'POST', body: { field } });
    return { block: answer.data, report: (answer.meta as { report?: RetypeReport } | undefined)?.report ?? null };
  },
  /** What a retype would do, without doing it. */
  async retypeReport(databaseId: string, fieldId: string, field: DatabaseField): Promise<RetypeReport> {
    const answer = await api<unknown>(`${BASE}/database/${id(databaseId)}/fields/${id(fieldId)}`, { method: 'POST', body: { field, dryRun: true } });
    const report = (answer.meta as { report?: RetypeReport } | undefined)?.report ?? (answer.data as RetypeReport | null);
    return report ?? { converted: 0, dropped: 0, droppedExamples: [], newOptions: [] };
  },
  async deleteField(databaseId: string, fieldId: string): Promise<DatabaseBlock> {
    return (await api<DatabaseBlock>(`${BASE}/database/${id(databaseId)}/fields/${id(fieldId)}`, { method: 'DELETE' })).data;
  },
  /** A view after another (null: first; missing: last); `orderOf`: a view whose own order it starts with (a view duplicated). */
  addView(databaseId: string, layout: DatabaseLayout, placeAfter?: string | null, orderOf?: string): Promise<DatabaseBlock> {
    return post(`database/${id(databaseId)}/views`, {
      layout,
      ...(placeAfter === undefined ? {} : { placeAfter }),
      ...(orderOf === undefined ? {} : { orderOf }),
    });
  },
  updateView(databaseId: string, viewId: string, layout: Partial<Omit<DatabaseLayout, 'uid'>>): Promise<DatabaseBlock> {
    return post(`database/${id(databaseId)}/views/${id(viewId)}`, { layout });
  },
  /** An inline database's title and description (null or blank: none; a key left out stays). */
  describe(databaseId: string, about: { title?: string | null; description?: string | null }): Promise<DatabaseBlock> {
    return post(`database/${id(databaseId)}`, about);
  },
  moveView(databaseId: string, viewId: string, placeAfter: string | null): Promise<DatabaseBlock> {
    return post(`database/${id(databaseId)}/views/${id(viewId)}/move`, { placeAfter });
  },
  async deleteView(databaseId: string, viewId: string): Promise<DatabaseBlock> {
    return (await api<DatabaseBlock>(`${BASE}/database/${id(databaseId)}/views/${id(viewId)}`, { method: 'DELETE' })).data;
  },
  async calculations(databaseId: string, viewId: string): Promise<CalculationResults> {
    return (await api<CalculationResults>(`${BASE}/database/${id(databaseId)}/calculations${jsonQuery({ viewId })}`)).data;
  },
  /** A chart of a view (its own config, or `chart` for a preview): grouped on the server. */
  async chart(databaseId: string, viewId: string, chart?: ChartConfig, signal?: AbortSignal): Promise<ChartAnswer> {
    return (await api<ChartAnswer>(`${BASE}/database/${id(databaseId)}/chart${jsonQuery({ viewId, chart })}`, { signal })).data;
  },
  /** Where the database stands now (as a rows answer's `revision`). */
  async revision(databaseId: string): Promise<string> {
    return (await api<{ revision: string }>(`${BASE}/database/${id(databaseId)}/revision`)).data.revision;
  },
  /** Rows' titles and icons by id (a relation's cells); rows not live in this database are left out. */
  async titles(databaseId: string, ids: string[]): Promise<RowTitle[]> {
    return (await api<RowTitle[]>(`${BASE}/database/${id(databaseId)}/titles${jsonQuery({ ids })}`)).data;
  },
  /** The databases of this one's workspace the caller may read (what a relation field of it can name), by title. */
  async relatable(databaseId: string, search?: string): Promise<DatabaseChoice[]> {
    return (await api<DatabaseChoice[]>(`${BASE}/database/${id(databaseId)}/relatable${jsonQuery(search ? { search } : {})}`)).data;
  },
  /** A grouped view's groups with their counts; `lanes`: a board's swimlanes (the groups of its `groupBy.sub` field) instead. */
  async groups(databaseId: string, viewId: string, lanes?: boolean): Promise<WireGroup[]> {
    return (await api<WireGroup[]>(`${BASE}/database/${id(databaseId)}/groups${jsonQuery({ viewId, ...(lanes ? { lanes: true } : {}) })}`)).data;
  },
  /** The view as CSV: a link to download (the browser follows it with the session cookie). */
  exportCsvUrl(databaseId: string, viewId: string): string {
    return `${BASE}/database/${id(databaseId)}/export.csv${jsonQuery({ viewId })}`;
  },
  /** The database's row templates in their order, the default marked (docs/api/databases.md «Row templates»). */
  async templates(databaseId: string): Promise<WireRowTemplate[]> {
    return (await api<WireRowTemplate[]>(`${BASE}/database/${id(databaseId)}/templates`)).data;
  },
  /** A new row template (its content is written on its page, `/{id}`). */
  createTemplate(databaseId: string, body: CreateTemplateBody = {}): Promise<WireRowTemplate> {
    return post(`database/${id(databaseId)}/templates`, body);
  },
  /** The template «Новая строка» starts from (null: none); answers the database block. */
  setDefaultTemplate(databaseId: string, templateId: string | null): Promise<DatabaseBlock> {
    return post(`database/${id(databaseId)}/templates/default`, { templateId });
  },
  /** A template deleted for good (rows made from it keep what they took; the default, if it was, is none). */
  async deleteTemplate(databaseId: string, templateId: string): Promise<void> {
    await api(`${BASE}/database/${id(databaseId)}/templates/${id(templateId)}`, { method: 'DELETE' });
  },
  /** A row's page icon (and title) is a page patch. */
  async patchRowPage(rowId: string, patch: { icon?: string | null; title?: string }): Promise<void> {
    await api(`${BASE}/element/${id(rowId)}`, { method: 'PATCH', body: patch });
  },
};

export type DatabaseApi = typeof databaseApi;
