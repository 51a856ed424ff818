import { useEffect, useSyncExternalStore } from 'react';
import { MAIN_FIELD_ID, type DatabaseField, type RowValue } from '../../../../schema/blocks/database';
import { rowValue, type DatabaseChange, type WireRow } from '../../../../schema/database';
import { DATABASE_WINDOW } from '../../../editor/blocks/databaseRows';
import type { RowsQuery, RowsWindow } from '../api';
import { movedItem } from '../useReorderable';

/** Rows per read (`GET database/{id}/rows?limit=`). */
export const WINDOW_SIZE = DATABASE_WINDOW;
/** Windows kept either side of the visible ones; farther ones are dropped (the heap stays small at 50,000 rows). */
export const KEEP_WINDOWS = 3;
/** Rows per read of a range beyond the windows (the API's most). */
export const RANGE_READ = 500;
/** Reads of a range in flight at once. */
const RANGE_READS_AT_ONCE = 4;
/** Realtime changes that need the windows read again are gathered this long. */
export const REFRESH_DELAY_MS = 120;

/**
 * Reads a window. `first`: the store's first read of the view's first window — the one read that
 * may take an answer asked for early, with the page's blocks (`databaseApi.rows`); any later read
 * (after a write, a change elsewhere) must be the server's answer now.
 */
export type ReadRows = (query: RowsQuery, signal: AbortSignal, first?: boolean) => Promise<RowsWindow>;

interface Window {
  rows: WireRow[];
  /** Bumped on every read started for this window; an older answer is dropped. */
  generation: number;
}

/** A cell's value on a row (MAIN_FIELD is the row's title). */
export function cellOf(row: WireRow, fieldId: string): RowValue | undefined {
  return fieldId === MAIN_FIELD_ID ? row.data.title : row.data.values[fieldId];
}

/**
 * What a cell shows: its value, or what the row says for a computed field (created and edited
 * time and by are the row's, not cells: `cellOf` has nothing for them).
 */
export function shownOf(row: WireRow, fieldId: string, field: DatabaseField | undefined): RowValue | undefined {
  return field ? rowValue(row, fieldId, field) : cellOf(row, fieldId);
}

/** The row with one cell changed (a new object: memoized row views see the change, others do not). */
export function withCell(row: WireRow, fieldId: string, value: RowValue, version?: number): WireRow {
  const data =
    fieldId === MAIN_FIELD_ID
      ? { ...row.data, title: typeof value === 'string' ? value : '' }
      : { ...row.data, values: value === null ? omit(row.data.values, fieldId) : { ...row.data.values, [fieldId]: value } };
  return { ...row, data, versions: version === undefined ? row.versions : { ...row.versions, [fieldId]: version } };
}

/**
 * A row as read, with any cell that is newer in memory kept: a read that left before a write was
 * answered (or before someone's change came in) must not put the older cell back.
 */
export function keepNewerCells(read: WireRow, known: WireRow | undefined): WireRow {
  if (!known) return read;
  let row = read;
  for (const [fieldId, version] of Object.entries(known.versions)) {
    if (version > (read.versions[fieldId] ?? 0)) row = withCell(row, fieldId, cellOf(known, fieldId) ?? null, version);
  }
  return row;
}

function omit(values: Record<string, RowValue>, key: string): Record<string, RowValue> {
  if (!Object.hasOwn(values, key)) return values;
  const copy = { ...values };
  delete copy[key];
  return copy;
}

/** A background computation of formulas makes a view read its rows again at most this often. */
const COMPUTING_READ_MS = 2_000;

/**
 * The rows of one view of a database, held by windows of 100 (offset / 100): only the windows
 * near what is on screen are in memory; `count` (the server's `meta.count`) gives the scroll
 * height. Cells written here show at once (`setLocal`, kept over any read until the write is
 * answered); others' changes come in through `applyChange` (the realtime `database` event).
 * No React here; `useRowStore` subscribes a component.
 */
export class RowStore {
  count: number | null = null;
  /** Set when a read failed (the grid says so); cleared by the next success. */
  error: unknown = null;
  private readonly windows = new Map<number, Window>();
  /** Whether the first window has been read (or given at the start) once: later reads are never an early answer. */
  private firstRead = false;
  private readonly loading = new Map<number, AbortController>();
  private readonly local = new Map<string, Map<string, RowValue>>();
  /** Rows moved here whose move is not answered yet: put in their place again over every read. */
  private readonly moves = new Set<RowMove>();
  private readonly listeners = new Set<() => void>();
  private visible: [number, number] = [0, 0];
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** The database's fields as last told (`setFields`; null: not told). */
  private fields: ReadonlySet<string> | null = null;
  /** Fields deleted while this store held rows: their cells are dropped from every row, whenever it comes. */
  private readonly gone = new Set<string>();
  /**
   * Cells heard for rows not in memory while reads were under way (a row just made or restored):
   * a read that left before such a cell was written brings its row without it, so they are put
   * over those reads' rows (when newer). Forgotten once no read is under way: any later read has them.
   */
  private readonly heard = new Map<string, Map<string, { value: RowValue; version: number }>>();
  /** Goes up with every change; what useSyncExternalStore compares. */
  version = 0;
  /** When the rows were last read for a background computation's progress. */
  private computingReadAt = 0;
  /** Goes up when rows or cells changed (not when windows were only read): footers and groups read again. */
  changes = 0;

  /** `seed`: the first window, when its rows are in already (asked for early): the first drawing shows them. */
  constructor(
    private readonly read: ReadRows,
    private query: RowsQuery,
    seed?: RowsWindow | null,
    /** Rows a window holds (a board's column reads fewer at a time than a table). */
    private readonly size: number = WINDOW_SIZE,
  ) {
    if (seed) {
      this.windows.set(0, { rows: seed.rows, generation: 0 });
      this.count = seed.count;
      this.firstRead = true;
      this.noteRevision(seed.revision);
    }
  }

  /**
   * The revision all the windows in memory were read at: null once they were read at several
   * (or one said none) — then a join reads them again whatever the database's revision is.
   */
  private revision: string | null | undefined = undefined;
  private noteRevision(revision: string | undefined): void {
    this.revision = revision === undefined ? null : this.revision === undefined || this.revision === revision ? revision : null;
  }

  /** A join's revision waiting for the reads under way (their answers say where they were read). */
  private joinedAt: string | undefined;

  /** Reads again unless every window in memory was read at `revision` (the database's now): a join that missed nothing reads nothing. */
  refreshUnless(revision: string): void {
    if (this.loading.size > 0) {
      this.joinedAt = revision;
      return;
    }
    if (this.revision !== revision) this.refreshSoon();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  private emit(): void {
    this.version += 1;
    for (const listener of this.listeners) listener();
  }

  /** The row at a position of the view, or undefined while its window is not loaded. */
  rowAt(index: number): WireRow | undefined {
    return this.windows.get(Math.floor(index / this.size))?.rows[index % this.size];
  }

  /** Whether rows `first`..`last` are all in memory. */
  hasRows(first: number, last: number): boolean {
    for (let w = Math.floor(first / this.size); w <= Math.floor(last / this.size); w += 1) if (!this.windows.has(w)) return false;
    return true;
  }

  /**
   * Rows `first`..`last` of the view, in its order, one entry per index (a copied or cleared
   * range; undefined past the view's end): those in memory as they are, the others read now —
   * RANGE_READ a request, a few at once — and not kept (the windows stay what the screen needs).
   */
  async rowsIn(first: number, last: number): Promise<Array<WireRow | undefined>> {
    const total = Math.max(0, last - first + 1);
    const rows: Array<WireRow | undefined> = Array.from({ length: total }, (_, i) => this.rowAt(first + i));
    const reads: Array<[number, number]> = [];
    for (let i = 0; i < total; i += 1) {
      if (rows[i]) continue;
      const span = reads[reads.length - 1];
      if (span && span[0] + span[1] === i && span[1] < RANGE_READ) span[1] += 1;
      else reads.push([i, 1]);
    }
    const controller = new AbortController();
    let next = 0;
    const worker = async () => {
      while (next < reads.length) {
        const [at, limit] = reads[next++];
        const answer = await this.read({ ...this.query, offset: first + at, limit }, controller.signal);
        answer.rows.forEach((row, k) => (rows[at + k] = row));
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(RANGE_READS_AT_ONCE, reads.length) }, worker));
    } catch (error) {
      controller.abort();
      throw error;
    }
    return rows;
  }

  /** Where a loaded row is in the view (-1: not loaded). */
  indexOf(rowId: string): number {
    for (const [w, window] of this.windows) {
      const at = window.rows.findIndex((row) => row.id === rowId);
      if (at >= 0) return w * this.size + at;
    }
    return -1;
  }

  /** The loaded row with this id. */
  rowById(rowId: string): WireRow | undefined {
    for (const window of this.windows.values()) {
      const row = window.rows.find((r) => r.id === rowId);
      if (row) return row;
    }
    return undefined;
  }

  /** Every row in memory by id. */
  private loadedRows(): Map<string, WireRow> {
    const rows = new Map<string, WireRow>();
    for (const window of this.windows.values()) for (const row of window.rows) rows.set(row.id, row);
    return rows;
  }

  /** Which windows are in memory (tests, and the heap check). */
  loadedWindows(): number[] {
    return [...this.windows.keys()].sort((a, b) => a - b);
  }

  /** A new filter, sort or search: everything is read again from the top. */
  setQuery(query: RowsQuery): void {
    if (JSON.stringify(query) === JSON.stringify(this.query)) return;
    this.query = query;
    for (const controller of this.loading.values()) controller.abort();
    this.loading.clear();
    this.windows.clear();
    this.count = null;
    this.emit();
    this.ensureVisible();
  }

  /**
   * Rows `first`..`last` are on screen: their windows and one more either side are read if they
   * are not in memory; windows more than KEEP_WINDOWS away are dropped.
   */
  setVisible(first: number, last: number): void {
    this.visible = [Math.max(0, first), Math.max(first, last)];
    this.ensureVisible();
  }

  private wanted(): [number, number] {
    const lastWindow = this.count === null ? Infinity : Math.max(0, Math.ceil(this.count / this.size) - 1);
    const from = Math.max(0, Math.floor(this.visible[0] / this.size) - 1);
    const to = Math.min(lastWindow, Math.floor(this.visible[1] / this.size) + 1);
    return [from, Math.max(from, to)];
  }

  private ensureVisible(): void {
    if (this.disposed) return;
    const [from, to] = this.wanted();
    let dropped = false;
    for (const w of [...this.windows.keys()]) {
      if (w < from - KEEP_WINDOWS || w > to + KEEP_WINDOWS) {
        this.windows.delete(w);
        dropped = true;
      }
    }
    if (dropped) this.emit();
    // Until the count is known, only the first window is asked for.
    const last = this.count === null ? from : to;
    for (let w = from; w <= last; w += 1) if (!this.windows.has(w) && !this.loading.has(w)) void this.load(w);
  }

  /** Each window's latest read (a refresh awaits it). */
  private readonly runs = new Map<number, Promise<void>>();

  /**
   * Reads window `w`. Done once the window holds rows read after this call: a later read of the
   * same window that took over from it (a realtime event's refresh) is awaited, else a refresh
   * would answer with the rows it meant to replace.
   */
  private load(w: number): Promise<void> {
    const run: Promise<void> = this.readWindow(w)
      .then(() => {
        const later = this.runs.get(w);
        return later && later !== run && !this.disposed ? later : undefined;
      })
      .finally(() => {
        if (this.runs.get(w) === run) this.runs.delete(w);
      });
    this.runs.set(w, run);
    return run;
  }

  private async readWindow(w: number): Promise<void> {
    const controller = new AbortController();
    this.loading.get(w)?.abort();
    this.loading.set(w, controller);
    const generation = (this.windows.get(w)?.generation ?? 0) + 1;
    const existing = this.windows.get(w);
    if (existing) existing.generation = generation;
    try {
      const first = w === 0 && !this.firstRead;
      if (w === 0) this.firstRead = true;
      const answer = await this.read({ ...this.query, offset: w * this.size, limit: this.size }, controller.signal, first);
      if (this.disposed || controller.signal.aborted) return;
      const current = this.windows.get(w);
      if (current && current.generation > generation) return;
      const known = this.loadedRows();
      this.windows.set(w, {
        rows: answer.rows.map((row) => this.withoutGone(this.overlay(keepNewerCells(this.withHeard(row), known.get(row.id))))),
        generation,
      });
      this.noteRevision(answer.revision);
      for (const move of this.moves) this.applyMove(move);
      const countChanged = this.count !== answer.count;
      this.count = answer.count;
      this.error = null;
      this.emit();
      if (countChanged) this.ensureVisible();
    } catch (error) {
      if (controller.signal.aborted || this.disposed) return;
      this.error = error;
      this.emit();
    } finally {
      if (this.loading.get(w) === controller) this.loading.delete(w);
      if (this.loading.size === 0) this.heard.clear();
      if (this.loading.size === 0 && this.joinedAt !== undefined && !this.disposed) {
        const joined = this.joinedAt;
        this.joinedAt = undefined;
        this.refreshUnless(joined);
      }
    }
  }

  /** Reads every window in memory (and those on screen) again: after rows were added, moved or removed. */
  refresh(): Promise<void> {
    clearTimeout(this.refreshTimer);
    this.changes += 1;
    // Every window is read again: the revision is the one they come back with.
    this.revision = undefined;
    const [from, to] = this.wanted();
    const targets = new Set([...this.windows.keys()]);
    for (let w = from; w <= (this.count === null ? from : to); w += 1) targets.add(w);
    return Promise.all([...targets].map((w) => this.load(w))).then(() => undefined);
  }

  /** A refresh shortly (several realtime changes in a row make one). */
  refreshSoon(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), REFRESH_DELAY_MS);
  }

  /** A row as read with the cells heard meanwhile that are newer put over it. */
  private withHeard(row: WireRow): WireRow {
    const cells = this.heard.get(row.id);
    if (!cells) return row;
    let result = row;
    for (const [fieldId, cell] of cells) if (cell.version > (row.versions[fieldId] ?? 0)) result = withCell(result, fieldId, cell.value, cell.version);
    return result;
  }

  /** A row with the cells written here and not yet answered put over it. */
  private overlay(row: WireRow): WireRow {
    const mine = this.local.get(row.id);
    if (!mine) return row;
    let result = row;
    for (const [fieldId, value] of mine) result = withCell(result, fieldId, value);
    return result;
  }

  /**
   * The database's fields now (its block's config; a field deleted goes out of it by the block's
   * `edit`). The cells of a field no longer there are dropped from the rows in memory — the server
   * deleted them, and a read keeps a cell it lacks that is newer here (`keepNewerCells`) — and
   * from whatever still comes with them: a read that left before the delete, a cells event sent
   * before it, a write of ours answered or put back after it. A field that comes back (a version
   * of the page restored) counts again.
   */
  setFields(fieldIds: readonly string[]): void {
    const now = new Set(fieldIds);
    for (const id of now) this.gone.delete(id);
    let dropped = false;
    for (const id of this.fields ?? []) {
      if (now.has(id)) continue;
      this.gone.add(id);
      dropped = true;
    }
    this.fields = now;
    if (!dropped) return;
    for (const window of this.windows.values()) window.rows = window.rows.map((row) => this.withoutGone(row));
    this.changes += 1;
    this.emit();
  }

  /** A row without the cells of deleted fields (the same object when it has none). */
  private withoutGone(row: WireRow): WireRow {
    if (this.gone.size === 0 || ![...this.gone].some((id) => Object.hasOwn(row.versions, id) || Object.hasOwn(row.data.values, id))) return row;
    const values = { ...row.data.values };
    const versions = { ...row.versions };
    for (const id of this.gone) {
      delete values[id];
      delete versions[id];
    }
    return { ...row, data: { ...row.data, values }, versions };
  }

  /**
   * Replaces a loaded row (by id) through `change` (never with a deleted field's cells) — every
   * place it is at (a table grouped by a multi-select shows a row in each of its options' groups);
   * false when it is not in memory.
   */
  private replaceRow(rowId: string, change: (row: WireRow) => WireRow): boolean {
    // Its places may have been read at different times: the change goes over the newest cells of them all.
    let known: WireRow | undefined;
    for (const window of this.windows.values()) for (const row of window.rows) if (row.id === rowId) known = known ? keepNewerCells(row, known) : row;
    if (!known) return false;
    // Changed once: every place shows the same object.
    const changed = this.withoutGone(change(known));
    for (const window of this.windows.values())
      if (window.rows.some((row) => row.id === rowId && row !== changed)) window.rows = window.rows.map((row) => (row.id === rowId ? changed : row));
    return true;
  }

  /** A cell written here: shown at once, and kept over reads until `settleLocal`. */
  setLocal(rowId: string, fieldId: string, value: RowValue): void {
    let mine = this.local.get(rowId);
    if (!mine) this.local.set(rowId, (mine = new Map()));
    mine.set(fieldId, value);
    this.replaceRow(rowId, (row) => withCell(row, fieldId, value));
    this.emit();
  }

  /**
   * The write of a cell is over: the server's cell (or, after a failure, `revertTo` with its
   * version) shows — with when and by whom, when the answer says (so the write's own realtime
   * echo, the same version, has nothing left to change: `applyChange`).
   */
  settleLocal(rowId: string, fieldId: string, cell: { value: RowValue; version?: number; updatedAt?: string; updatedBy?: string | null }): void {
    const mine = this.local.get(rowId);
    mine?.delete(fieldId);
    if (mine?.size === 0) this.local.delete(rowId);
    this.replaceRow(rowId, (row) => {
      const next = withCell(row, fieldId, cell.value, cell.version);
      return cell.updatedAt === undefined ? next : { ...next, updatedAt: cell.updatedAt, updatedBy: cell.updatedBy ?? null };
    });
    this.changes += 1;
    this.emit();
  }

  /** Whether a cell has a write of ours in flight. */
  hasLocal(rowId: string, fieldId: string): boolean {
    return this.local.get(rowId)?.has(fieldId) ?? false;
  }

  /**
   * Rows moved here (`POST …/rows/move`, `ids` in their new order after `placeAfter`, null: first):
   * shown in their new place at once where they and the row they go after are in memory, and kept
   * there over reads until the returned function says the call is over (then read again).
   */
  moveLocal(ids: readonly string[], placeAfter: string | null): () => void {
    const move = { ids, placeAfter };
    this.moves.add(move);
    if (this.applyMove(move)) {
      this.changes += 1;
      this.emit();
    }
    return () => void this.moves.delete(move);
  }

  /** A move over the windows in memory: those from the first to the last row it touches, all loaded. */
  private applyMove({ ids, placeAfter }: RowMove): boolean {
    const positions = [...ids, ...(placeAfter === null ? [] : [placeAfter])].map((id) => this.indexOf(id));
    if (positions.some((at) => at < 0)) return false;
    const from = placeAfter === null ? 0 : Math.floor(Math.min(...positions) / this.size);
    const to = Math.floor(Math.max(...positions) / this.size);
    const windows: Window[] = [];
    for (let w = from; w <= to; w += 1) {
      const window = this.windows.get(w);
      if (!window) return false;
      windows.push(window);
    }
    const rows = windows.flatMap((window) => window.rows);
    const moved = movedItem(rows, ids, placeAfter, 'after');
    if (moved.every((row, i) => row === rows[i])) return false;
    let at = 0;
    for (const window of windows) {
      const size = window.rows.length;
      window.rows = moved.slice(at, at + size);
      at += size;
    }
    return true;
  }

  /** Someone's change of the rows (realtime `database` event, docs/api/databases.md). */
  applyChange(change: DatabaseChange): void {
    switch (change.kind) {
      case 'cells': {
        let changed = false;
        const inMemory = this.replaceRow(change.rowId, (row) => {
          let next = row;
          for (const cell of change.cells) {
            const known = row.versions[cell.fieldId] ?? 0;
            // As old as what is here (the echo of a write of ours, already settled with its
            // answer: the same version is the same write) or older, or a cell being written here
            // (its answer decides): nothing to apply.
            if (cell.version <= known || this.hasLocal(row.id, cell.fieldId)) continue;
            next = withCell(next, cell.fieldId, cell.value, cell.version);
          }
          changed = next !== row;
          return changed ? { ...next, updatedAt: change.updatedAt, updatedBy: change.updatedBy } : row;
        });
        // A row here that took nothing (an echo of ours) changed nothing; one not in memory did
        // (the footer's figures and the groups count it).
        if (changed || !inMemory) this.changes += 1;
        if (changed) this.emit();
        else if (!inMemory && this.loading.size > 0) {
          // Not in memory (yet): a read under way may bring the row as it was before this.
          const cells = this.heard.get(change.rowId) ?? new Map<string, { value: RowValue; version: number }>();
          for (const cell of change.cells) if (cell.version > (cells.get(cell.fieldId)?.version ?? 0)) cells.set(cell.fieldId, cell);
          this.heard.set(change.rowId, cells);
        }
        return;
      }
      case 'rows': {
        this.changes += 1;
        // Rows here change in place at once; where rows are (new, moved, restored) comes with a read.
        // A row read before a cell's write was answered (its event came late) keeps the newer cell.
        let any = false;
        // A gallery card's picture is read with the windows, never told: the one known stays.
        for (const row of change.rows)
          any =
            this.replaceRow(row.id, (known) =>
              this.overlay(keepNewerCells(known?.preview && !row.preview ? { ...row, preview: known.preview } : row, known)),
            ) || any;
        if (any) this.emit();
        // Moved in another view's own order: nothing moved here (docs/api/databases.md «Order per view»).
        if (change.viewId !== undefined && change.viewId !== this.query.viewId) return;
        this.refreshSoon();
        return;
      }
      case 'removed':
      case 'reset':
        this.changes += 1;
        this.refreshSoon();
        return;
      case 'computing': {
        // Formulas computed in the background: the values landed so far are read, every few seconds
        // at most (each read sorts again: on SQLite it shares the one connection with the job).
        const now = Date.now();
        if (now - this.computingReadAt < COMPUTING_READ_MS) return;
        this.computingReadAt = now;
        this.changes += 1;
        this.refreshSoon();
        return;
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.refreshTimer);
    for (const controller of this.loading.values()) controller.abort();
    this.loading.clear();
    this.listeners.clear();
  }
}

interface RowMove {
  ids: readonly string[];
  placeAfter: string | null;
}

interface CachedStore {
  store: RowStore;
  users: number;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * The stores by key. A render that React throws away (a concurrent render interrupted, a
 * suspense retry) would lose a store made in it, and the store asks for its first window as soon
 * as it is made: so stores are kept here, shared by the renders of one key, and dropped when the
 * last component using them unmounts (or, never mounted, after a while).
 */
const stores = new Map<string, CachedStore>();
const UNUSED_MS = 10_000;

function dropLater(key: string, entry: CachedStore, ms: number): void {
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => {
    if (entry.users > 0 || stores.get(key) !== entry) return;
    entry.store.dispose();
    stores.delete(key);
  }, ms);
}

/** Drops every kept store (tests, between renders of the same database). */
export function clearRowStores(): void {
  for (const entry of stores.values()) {
    clearTimeout(entry.timer);
    entry.store.dispose();
  }
  stores.clear();
}

/** A row store for a view, one per key (database and view; `size`: rows a window holds); re-renders on every change of it. */
export function useRowStore(read: ReadRows, key: string, query: RowsQuery, seed?: () => RowsWindow | null, size?: number): RowStore {
  let entry = stores.get(key);
  if (!entry) {
    entry = { store: new RowStore(read, query, seed?.(), size), users: 0 };
    stores.set(key, entry);
    // The first window is asked for at once, not after the first paint (the effects' turn).
    entry.store.setVisible(0, 0);
    dropLater(key, entry, UNUSED_MS);
  }
  const { store } = entry;
  useEffect(() => {
    const current = stores.get(key);
    if (!current || current.store !== store) return;
    current.users += 1;
    clearTimeout(current.timer);
    return () => {
      current.users -= 1;
      // Not at once: React's StrictMode mounts again right away.
      if (current.users === 0) dropLater(key, current, 0);
    };
  }, [key, store]);
  useEffect(() => store.setQuery(query), [store, query]);
  // On the server too (the page's top drawn into index.html, src/ssr/pageTop.tsx): its first window is given.
  useSyncExternalStore(store.subscribe, store.getVersion, store.getVersion);
  return store;
}
