import { MAIN_FIELD_ID, type DatabaseConfig, type DatabaseView, type RowValue } from '../../../schema/blocks/database';
import { foldText, type WireRow, type WireRowTemplate } from '../../../schema/database';
import { newElement, type WireElement } from '../../../schema/element';
import { clearRowTemplates } from './rows/rowTemplates';
import { movedItem } from './useReorderable';

/**
 * A small in-memory stand-in for the database endpoints, as a `fetch` for jsdom tests (the real
 * server cannot run there): rows by window, cell writes with versions and 422 cell_conflict,
 * row creation, moves, delete and restore, view updates, a view found by its uid, groups (of the
 * rows in their order: keep them ordered by the group), row templates (listed, made, the default
 * set, deleted; rows made from one). What it answers follows docs/api/databases.md.
 */
export interface FakeDatabaseServer {
  fetch: typeof fetch;
  rows: WireRow[];
  trash: WireRow[];
  requests: Array<{ method: string; path: string; query: Record<string, unknown>; body: unknown }>;
  config: DatabaseConfig;
  view: DatabaseView;
  /** The page holding the database, as `database/view/{uid}` answers it (the caller's level on it). */
  holder: WireElement;
  /** The database's title and description (POST database/{id}). */
  about: { title?: string; description?: string };
  /** Its row templates, in order (their title, icon and values). */
  templates: Array<Omit<WireRowTemplate, 'isDefault'> & { values?: Record<string, RowValue> }>;
  /** The data's `defaultTemplate` (null: none). */
  defaultTemplate: string | null;
  /** Someone else writes a cell (its version goes up). */
  writeElsewhere(rowId: string, fieldId: string, value: RowValue): void;
  /** The next call whose path contains `part` fails with this status. */
  failNext(part: string, status: number): void;
}

export function makeRow(i: number, values: Record<string, RowValue> = {}, title = `Строка ${i}`): WireRow {
  return {
    id: `row-${i}`,
    contentType: 'Row',
    databaseId: 'db',
    pageId: 'page',
    sortKey: `a${String(i).padStart(6, '0')}`,
    data: { title, icon: null, values },
    versions: { [MAIN_FIELD_ID]: 1 },
    inTrash: false,
    createdAt: '2026-01-01T00:00:00Z',
    createdBy: 'u1',
    updatedAt: '2026-01-01T00:00:00Z',
    updatedBy: null,
  };
}

// jsdom has no Response: what api() reads of one is enough.
const json = (status: number, body: unknown) =>
  ({ ok: status < 400, status, statusText: String(status), json: async () => JSON.parse(JSON.stringify(body)) }) as unknown as Response;

export function fakeDatabaseServer(config: DatabaseConfig, view: DatabaseView, rows: WireRow[]): FakeDatabaseServer {
  // The templates the views know are this server's: none read yet.
  clearRowTemplates();
  const failures: Array<{ part: string; status: number }> = [];
  let made = 0;
  let madeTemplates = 0;
  const server: FakeDatabaseServer = {
    rows,
    trash: [],
    requests: [],
    config,
    view,
    holder: newElement({ id: 'page', title: 'Задачи', accessLevel: 'full' }, '2026-01-01T00:00:00Z'),
    about: {},
    templates: [],
    defaultTemplate: null,
    writeElsewhere(rowId, fieldId, value) {
      const row = server.rows.find((r) => r.id === rowId)!;
      if (fieldId === MAIN_FIELD_ID) row.data.title = String(value ?? '');
      else row.data.values[fieldId] = value;
      row.versions[fieldId] = (row.versions[fieldId] ?? 0) + 1;
    },
    failNext(part, status) {
      failures.push({ part, status });
    },
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://test');
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      const query = Object.fromEntries([...url.searchParams].map(([k, v]) => [k, JSON.parse(v)]));
      const path = url.pathname.replace('/api/v3/spaces/', '');
      server.requests.push({ method, path, query, body });
      const failure = failures.findIndex((f) => path.includes(f.part));
      if (failure >= 0) {
        const [{ status }] = failures.splice(failure, 1);
        return json(status, { data: null, errors: [{ code: 'server_error', message: 'failed' }] });
      }
      let match: RegExpExecArray | null;
      const block = () => ({
        id: 'db',
        type: 'database',
        version: 2,
        data: { config: server.config, view: server.view, ...server.about, ...(server.defaultTemplate ? { defaultTemplate: server.defaultTemplate } : {}) },
      });
      const invalid = (path: string) =>
        json(422, { data: null, errors: [{ code: 'validation_failed', message: 'invalid', details: [{ path, message: 'no' }] }] });
      if (method === 'GET' && /^database\/[^/]+\/templates$/.test(path)) {
        return json(200, { data: server.templates.map(({ values: _values, ...t }) => ({ ...t, isDefault: t.id === server.defaultTemplate })) });
      }
      if (method === 'POST' && /^database\/[^/]+\/templates$/.test(path)) {
        const template = { id: body.id ?? `tpl-${++madeTemplates}`, title: body.title ?? '', icon: body.icon ?? null, values: body.values ?? {} };
        server.templates.push(template);
        return json(201, { data: { id: template.id, title: template.title, icon: template.icon, isDefault: false } });
      }
      if (method === 'POST' && /^database\/[^/]+\/templates\/default$/.test(path)) {
        if (body.templateId !== null && !server.templates.some((t) => t.id === body.templateId)) return invalid('templateId');
        server.defaultTemplate = body.templateId;
        return json(200, { data: block() });
      }
      if (method === 'DELETE' && (match = /^database\/[^/]+\/templates\/([^/]+)$/.exec(path))) {
        const templateId = decodeURIComponent(match[1]);
        if (!server.templates.some((t) => t.id === templateId)) return json(404, { data: null, errors: [{ code: 'not_found', message: 'no template' }] });
        server.templates = server.templates.filter((t) => t.id !== templateId);
        if (server.defaultTemplate === templateId) server.defaultTemplate = null;
        return json(200, { data: { id: templateId, status: 'success' } });
      }
      if (method === 'POST' && /^database\/[^/]+$/.test(path)) {
        for (const key of ['title', 'description'] as const) {
          const value = (body as Record<string, string | null | undefined>)[key];
          if (value === null || value?.trim() === '') delete server.about[key];
          else if (value !== undefined) server.about[key] = value;
        }
        return json(200, { data: block() });
      }
      if (method === 'GET' && (match = /^database\/view\/([^/]+)$/.exec(path))) {
        const layout = server.view.layouts.find((l) => l.uid === decodeURIComponent(match![1]));
        if (!layout) return json(404, { data: null, errors: [{ code: 'not_found', message: 'no view' }] });
        return json(200, { data: block(), meta: { view: layout, page: server.holder, rowCount: server.rows.length } });
      }
      if (method === 'GET' && /^database\/[^/]+\/rows$/.test(path)) {
        const offset = Number(query.offset ?? 0);
        const limit = Number(query.limit ?? 100);
        // `search`: the rows whose title holds the text (as the server's, without its word folding).
        const search = typeof query.search === 'string' ? foldText(query.search) : '';
        const rows = search ? server.rows.filter((r) => foldText(r.data.title).includes(search)) : server.rows;
        const list = rows.slice(offset, offset + limit).map((r) => JSON.parse(JSON.stringify(r)) as WireRow);
        return json(200, { data: list, meta: { count: rows.length, offset, hasMoreNext: offset + limit < rows.length } });
      }
      if (method === 'GET' && (match = /^row\/([^/]+)$/.exec(path))) {
        const row = server.rows.find((r) => r.id === decodeURIComponent(match![1]));
        return row
          ? json(200, { data: JSON.parse(JSON.stringify(row)) as WireRow })
          : json(404, { data: null, errors: [{ code: 'not_found', message: 'no' }] });
      }
      if (method === 'POST' && (match = /^row\/([^/]+)\/cells\/([^/]+)$/.exec(path))) {
        const rowId = decodeURIComponent(match[1]);
        // A row in the trash takes no change (409 page.in_trash); one deleted for good is not found.
        if (server.trash.some((r) => r.id === rowId)) return json(409, { data: null, errors: [{ code: 'page.in_trash', message: 'in the trash' }] });
        const row = server.rows.find((r) => r.id === rowId);
        if (!row) return json(404, { data: null, errors: [{ code: 'not_found', message: 'no row' }] });
        const fieldId = decodeURIComponent(match[2]);
        const current = row.versions[fieldId] ?? 0;
        const cell = (value: RowValue, version: number) => ({ rowId: row.id, fieldId, value, version, updatedAt: '2026-01-02T00:00:00Z', updatedBy: 'u1' });
        const stored = fieldId === MAIN_FIELD_ID ? row.data.title : (row.data.values[fieldId] ?? null);
        if (body.version !== current) return json(422, { data: cell(stored, current), errors: [{ code: 'database.cell_conflict', message: 'conflict' }] });
        server.writeElsewhere(row.id, fieldId, body.value);
        return json(200, { data: cell(body.value, current + 1) });
      }
      if (method === 'POST' && /^database\/[^/]+\/cells$/.test(path)) {
        const written: unknown[] = [];
        const conflicts: unknown[] = [];
        for (const c of body.cells as Array<{ rowId: string; fieldId: string; value: RowValue; version: number }>) {
          const row = server.rows.find((r) => r.id === c.rowId)!;
          const current = row.versions[c.fieldId] ?? 0;
          const stored = c.fieldId === MAIN_FIELD_ID ? row.data.title : (row.data.values[c.fieldId] ?? null);
          const cell = (value: RowValue, version: number) => ({
            rowId: row.id,
            fieldId: c.fieldId,
            value,
            version,
            updatedAt: '2026-01-02T00:00:00Z',
            updatedBy: 'u1',
          });
          if (c.version !== current) conflicts.push(cell(stored, current));
          else {
            server.writeElsewhere(row.id, c.fieldId, c.value);
            written.push(cell(c.value, current + 1));
          }
        }
        return json(200, { data: { written, conflicts } });
      }
      if (method === 'POST' && /^database\/[^/]+\/rows$/.test(path)) {
        const asked = body.rows as Array<{ title?: string; icon?: string | null; values?: Record<string, RowValue>; templateId?: string }>;
        const unknown = asked.findIndex((r) => r.templateId !== undefined && !server.templates.some((t) => t.id === r.templateId));
        if (unknown >= 0) return invalid(`rows.${unknown}.templateId`);
        // From a template: its values under the row's own, its title and icon unless given.
        const made_ = asked.map((r) => {
          const template = server.templates.find((t) => t.id === r.templateId);
          const row = makeRow(1000 + made++, { ...template?.values, ...r.values }, r.title ?? template?.title ?? '');
          row.data.icon = r.icon !== undefined ? r.icon : (template?.icon ?? null);
          return row;
        });
        const at =
          body.placeAfter === undefined ? server.rows.length : body.placeAfter === null ? 0 : server.rows.findIndex((r) => r.id === body.placeAfter) + 1;
        server.rows.splice(at, 0, ...made_);
        return json(200, { data: made_ });
      }
      if (method === 'POST' && /^database\/[^/]+\/rows\/move$/.test(path)) {
        server.rows = movedItem(server.rows, body.ids as string[], body.placeAfter as string | null, 'after');
        const ids = new Set(body.ids as string[]);
        return json(200, { data: server.rows.filter((r) => ids.has(r.id)) });
      }
      if (method === 'POST' && /^database\/[^/]+\/rows\/delete$/.test(path)) {
        const ids = new Set(body.ids as string[]);
        server.trash.push(...server.rows.filter((r) => ids.has(r.id)));
        server.rows = server.rows.filter((r) => !ids.has(r.id));
        return json(200, { data: { ids: body.ids } });
      }
      if (method === 'POST' && /^database\/[^/]+\/rows\/restore$/.test(path)) {
        const ids = new Set(body.ids as string[]);
        const back = server.trash.filter((r) => ids.has(r.id));
        server.trash = server.trash.filter((r) => !ids.has(r.id));
        server.rows = [...server.rows, ...back].sort((a, b) => (a.sortKey < b.sortKey ? -1 : 1));
        return json(200, { data: back });
      }
      if (method === 'POST' && (match = /^database\/[^/]+\/views\/([^/]+)$/.exec(path))) {
        const layout = server.view.layouts.find((l) => l.uid === decodeURIComponent(match![1]))!;
        Object.assign(layout, body.layout);
        return json(200, { data: block() });
      }
      if (method === 'POST' && (match = /^database\/[^/]+\/fields\/([^/]+)$/.exec(path))) {
        if (body.dryRun) return json(200, { data: null, meta: { report: { converted: 0, dropped: 0, droppedExamples: [], newOptions: [] } } });
        server.config.fields[decodeURIComponent(match[1])] = body.field;
        return json(200, { data: block(), meta: { report: null } });
      }
      if (method === 'GET' && /groups$/.test(path)) {
        const fieldId = server.view.layouts.find((l) => l.uid === query.viewId)?.groupBy?.fieldId;
        const groups: Array<{ value: RowValue; count: number }> = [];
        for (const row of fieldId ? server.rows : []) {
          const value = row.data.values[fieldId!] ?? null;
          if (groups.at(-1)?.value === value) groups.at(-1)!.count += 1;
          else groups.push({ value, count: 1 });
        }
        return json(200, { data: groups });
      }
      if (method === 'GET' && /calculations/.test(path)) return json(200, { data: {} });
      return json(404, { data: null, errors: [{ code: 'not_found', message: `${method} ${path}` }] });
    }) as typeof fetch,
  };
  return server;
}

/**
 * jsdom lays nothing out: for the tests of a file, the grid's scroll box (a table's, a timeline's) says it is 1000 × 600,
 * as a browser would (call at the top of a test file).
 */
export function layOutGrid(): void {
  const box = (size: number) => ({
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('db-scroll') || this.classList.contains('db-timeline-scroll') ? size : 0;
    },
  });
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', box(1000));
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', box(600));
  });
  afterAll(() => {
    delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
    delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  });
}
