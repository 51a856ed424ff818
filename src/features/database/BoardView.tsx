import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { dropTargetForElements } from '@atlaskit/pragmatic-drag-and-drop/element/adapter';
import { useVirtualizer } from '@tanstack/react-virtual';
import { MAIN_FIELD_ID, hasOptions, type DatabaseField, type DatabaseLayout } from '../../../schema/blocks/database';
import type { WireRow } from '../../../schema/database';
import { showToast } from '../../ui/Toast';
import { CellContent, OptionChip } from './cells';
import { BOARD_WINDOW, viewRowsQuery, type RowsQuery } from '../../editor/blocks/databaseRows';
import { boardColumnValues } from '../../editor/blocks/rowsAddress';
import { useDatabase } from './context';
import { cellOf, useRowStore, withCell, type RowStore } from './rowStore';
import { useReorderable, type DropSide } from './useReorderable';
import { groupKey, useCollapsedGroups } from './collapsedGroups';
import type { LiveView } from './chartConfig';

/** Whether a field's values make a board's columns: the one rule is `boardColumnValues` (rowsAddress.ts). */
export const makesBoardColumns = (field: DatabaseField | undefined): boolean => boardColumnValues(field) !== null;

/** A column's value: an option id, checked or not, or null («Без значения»). */
type ColumnValue = string | boolean | null;

const CARD_KIND = 'database-card';

/** A card dropped and not yet answered (then read again): drawn in its new place meanwhile. */
interface PendingMove {
  row: WireRow;
  from: ColumnValue;
  to: ColumnValue;
  /** The card it was dropped beside, or null: the column's end. */
  target: string | null;
  side: DropSide;
}
/** A card's height with its title alone, and what each field shown on it adds (the estimate before it is measured). */
const CARD_BASE = 40;
const CARD_LINE = 24;

/**
 * The Board view of a database (issue 17): its rows as cards in columns, one per value of the
 * view's group field (`groupBy`: a select, status or checkbox field), «Без значения» last.
 * Each column reads its own windows of rows (`GET …/rows?group=`), drawn as they are scrolled to;
 * a card dragged to another place is one call (`POST …/rows/move` with `placeBefore`/`placeAfter`
 * and the column's value in `set`), and both columns are read again. Cards show the view's
 * visible fields; a click opens the row.
 */
export function BoardView({ layout, track }: { layout: DatabaseLayout; track(view: LiveView): () => void }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const field = layout.groupBy ? db.config.fields[layout.groupBy.fieldId] : undefined;
  if (!layout.groupBy || !field || !makesBoardColumns(field)) return <BoardSetup layout={layout} />;
  return <Board key={layout.groupBy.fieldId} layout={layout} fieldId={layout.groupBy.fieldId} field={field} track={track} t={t} />;
}

/** No field to make columns of: choose one (or make a «Статус» field). */
function BoardSetup({ layout }: { layout: DatabaseLayout }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const choices = Object.entries(db.config.fields).filter(([, f]) => makesBoardColumns(f));
  return (
    <div className="db-board-setup">
      <p>{t('database.board.needsField')}</p>
      {db.editable && choices.length > 0 && (
        <label>
          {t('database.board.columnsBy')}{' '}
          <select value="" onChange={(e) => e.target.value && void db.saveView(layout.uid, { groupBy: { fieldId: e.target.value } })}>
            <option value="">—</option>
            {choices.map(([id, f]) => (
              <option key={id} value={id}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}

interface BoardProps {
  layout: DatabaseLayout;
  fieldId: string;
  field: DatabaseField;
  track(view: LiveView): () => void;
  t: (key: string, options?: Record<string, unknown>) => string;
}

function Board({ layout, fieldId, field, track, t }: BoardProps) {
  const db = useDatabase();
  const columns: ColumnValue[] = useMemo(() => boardColumnValues(field) ?? [], [field]);
  const [collapsed, toggleCollapsed] = useCollapsedGroups(db.databaseId, layout.uid, fieldId);
  const [pending, setPending] = useState<PendingMove | null>(null);

  const stores = useRef(new Map<string, RowStore>());
  const storeOf = useCallback((value: ColumnValue) => stores.current.get(groupKey(value)), []);
  const register = useCallback(
    (value: ColumnValue, store: RowStore) => {
      stores.current.set(groupKey(value), store);
      const untrack = track(store);
      return () => {
        untrack();
        if (stores.current.get(groupKey(value)) === store) stores.current.delete(groupKey(value));
      };
    },
    [track],
  );

  /** A card dropped: beside another card (`target`), or at the end of a column (`target` null). */
  const move = useCallback(
    async (rowId: string, to: ColumnValue, target: string | null, side: DropSide) => {
      const from = columns.find((value) => storeOf(value)?.rowById(rowId));
      const source = from === undefined ? undefined : storeOf(from);
      const destination = storeOf(to);
      let place: { placeAfter?: string | null; placeBefore?: string };
      if (target) place = side === 'before' ? { placeBefore: target } : { placeAfter: target };
      else {
        // The end of the column: after its last card (read if it is not in memory), or first when it has none.
        const count = destination?.count ?? 0;
        let last: WireRow | undefined;
        try {
          last = count > 0 && destination ? (destination.rowAt(count - 1) ?? (await destination.rowsIn(count - 1, count - 1))[0]) : undefined;
        } catch {
          showToast(t('database.writeFailed'), 'error');
          return;
        }
        if (last?.id === rowId) return;
        place = last ? { placeAfter: last.id } : { placeAfter: null };
      }
      const row = source?.rowById(rowId);
      if (row && from !== undefined) setPending({ row: from === to ? row : withCell(row, fieldId, to === false ? null : to), from, to, target, side });
      try {
        await db.api.moveRows(db.databaseId, [rowId], place, from === to ? undefined : { fieldId, value: to });
      } catch {
        showToast(t('database.writeFailed'), 'error');
      }
      await Promise.all([source?.refresh(), source === destination ? undefined : destination?.refresh()]);
      // Drawn from the stores once they have it where it went: a read of our own move's realtime
      // event may have replaced the one just awaited (a little later, at most a second).
      const settled = () => from === to || (!source?.rowById(rowId) && !!destination?.rowById(rowId));
      for (let tries = 0; tries < 10 && !settled(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      setPending((current) => (current?.row.id === rowId ? null : current));
    },
    [columns, storeOf, db.api, db.databaseId, fieldId, t],
  );

  // Columns hidden in the view (its config: for everyone), shown again from the list at the end.
  const hidden = layout.groupBy?.hidden ?? [];
  const isHidden = (value: ColumnValue) => hidden.some((h) => h === value);
  const setHidden = (next: ColumnValue[]) => void db.saveView(layout.uid, { groupBy: { ...layout.groupBy!, hidden: next } });
  return (
    <div className="db-board" role="list" aria-label={t('database.layouts.board')}>
      {columns
        .filter((value) => !isHidden(value))
        .map((value) => (
          <Column
            key={groupKey(value)}
            layout={layout}
            fieldId={fieldId}
            field={field}
            value={value}
            register={register}
            onMove={move}
            pending={pending}
            collapsed={collapsed.has(groupKey(value))}
            onToggle={() => toggleCollapsed(groupKey(value))}
            onHide={db.editable ? () => setHidden([...hidden, value]) : undefined}
            t={t}
          />
        ))}
      {hidden.length > 0 && <HiddenColumns field={field} values={columns.filter(isHidden)} onShow={db.editable ? (value) => setHidden(hidden.filter((h) => h !== value)) : undefined} t={t} />}
    </div>
  );
}

interface ColumnProps {
  layout: DatabaseLayout;
  fieldId: string;
  field: DatabaseField;
  value: ColumnValue;
  register(value: ColumnValue, store: RowStore): () => void;
  onMove(rowId: string, to: ColumnValue, target: string | null, side: DropSide): Promise<void>;
  pending: PendingMove | null;
  /** Folded to its header (kept in this browser, as a table's groups are). */
  collapsed: boolean;
  onToggle(): void;
  /** «Скрыть» (editors): the column out of the view for everyone. */
  onHide?(): void;
  t: BoardProps['t'];
}

function Column({ layout, fieldId, field, value, register, onMove, pending, collapsed, onToggle, onHide, t }: ColumnProps) {
  const db = useDatabase();
  const query = useMemo<RowsQuery>(() => ({ ...viewRowsQuery(layout), group: value }), [layout, value]);
  const read = useCallback((q: RowsQuery, signal?: AbortSignal, first?: boolean) => db.api.rows(db.databaseId, q, signal, first), [db.api, db.databaseId]);
  // The first window may have been asked for with the page's top (rowsAddress.ts, boardColumnPath).
  const store = useRowStore(
    read,
    `${db.databaseId}:${layout.uid}:board:${fieldId}:${groupKey(value)}:${JSON.stringify(layout.filter ?? null)}:${JSON.stringify(layout.sorts ?? [])}`,
    query,
    () => db.api.earlyRows(db.databaseId, { ...query, offset: 0, limit: BOARD_WINDOW }),
    BOARD_WINDOW,
  );
  useEffect(() => register(value, store), [register, value, store]);
  const shownRows = withPending(store, value, pending);
  const count = shownRows.count;

  const body = useRef<HTMLDivElement>(null);
  const shown = useMemo(() => layout.orderedFields.filter((f) => f.fieldId !== MAIN_FIELD_ID && f.fieldId !== fieldId && db.config.fields[f.fieldId]), [layout.orderedFields, fieldId, db.config.fields]);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => body.current,
    estimateSize: () => CARD_BASE + CARD_LINE * shown.length,
    overscan: 4,
    gap: 8,
    initialRect: { width: 260, height: 600 },
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => store.setVisible(first, Math.max(first, last)), [store, first, last]);

  // The column's free space takes a card at its end.
  const [over, setOver] = useState(false);
  useEffect(() => {
    const node = body.current;
    if (!node || !db.editable) return;
    return dropTargetForElements({
      element: node,
      canDrop: ({ source }) => source.data.kind === CARD_KIND && source.data.scope === layout.uid,
      onDrag: ({ location, self }) => setOver(location.current.dropTargets[0]?.element === self.element),
      onDragLeave: () => setOver(false),
      onDrop: ({ source, location, self }) => {
        setOver(false);
        // Dropped on a card, that card's own target took it.
        if (location.current.dropTargets[0]?.element !== self.element) return;
        void onMove(String(source.data.id), value, null, 'after');
      },
    });
  }, [db.editable, layout.uid, onMove, value]);

  const label = columnLabel(field, value, t);
  return (
    <section className={`db-board-column${collapsed ? ' is-collapsed' : ''}`} role="listitem" aria-label={label}>
      <header className="db-board-column-head">
        <button type="button" className="db-board-toggle" aria-expanded={!collapsed} aria-label={t(collapsed ? 'database.expandGroup' : 'database.collapseGroup', { name: label })} onClick={onToggle}>
          {collapsed ? '▸' : '▾'}
        </button>
        <ColumnTitle field={field} value={value} label={label} />
        <span className="db-board-count">{count}</span>
        {onHide && !collapsed && (
          <button type="button" className="db-board-hide" aria-label={t('database.board.hide', { column: label })} title={t('database.board.hide', { column: label })} onClick={onHide}>
            ×
          </button>
        )}
      </header>
      {!collapsed && (
        <>
          <div ref={body} className={`db-board-cards${over ? ' is-over' : ''}`} role="list" aria-label={t('database.board.cards', { column: label })}>
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((item) => {
                const row = shownRows.rowAt(item.index);
                return (
                  <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="db-card-slot" style={{ transform: `translateY(${item.start}px)` }}>
                    {row ? <Card row={row} layout={layout} shown={shown} column={value} onMove={onMove} /> : <div className="db-card is-loading" style={{ height: CARD_BASE }} />}
                  </div>
                );
              })}
            </div>
          </div>
          {db.editable && <NewCard fieldId={fieldId} value={value} store={store} t={t} />}
        </>
      )}
    </section>
  );
}

/**
 * A column's cards with a pending move drawn (`pending`): the card left out of the column it came
 * from and put in the one it went to, beside its target or last. Indexes of what is drawn → the
 * store's rows.
 */
export function withPending(store: Pick<RowStore, 'count' | 'rowAt' | 'indexOf'>, value: ColumnValue, pending: PendingMove | null): { count: number; rowAt(i: number): WireRow | undefined } {
  const stored = store.count ?? 0;
  const removedAt = pending && pending.from === value ? store.indexOf(pending.row.id) : -1;
  const remaining = stored - (removedAt >= 0 ? 1 : 0);
  let insertAt = -1;
  // A column the card went to that has it already (its read came in) draws it where the read put it.
  if (pending && pending.to === value && (pending.from === value || store.indexOf(pending.row.id) < 0)) {
    const at = pending.target === null ? -1 : store.indexOf(pending.target);
    insertAt = at < 0 ? remaining : at - (removedAt >= 0 && at > removedAt ? 1 : 0) + (pending.side === 'after' ? 1 : 0);
  }
  if (removedAt < 0 && insertAt < 0) return { count: stored, rowAt: (i) => store.rowAt(i) };
  return {
    count: remaining + (insertAt >= 0 ? 1 : 0),
    rowAt(i) {
      if (i === insertAt) return pending!.row;
      let at = insertAt >= 0 && i > insertAt ? i - 1 : i;
      if (removedAt >= 0 && at >= removedAt) at += 1;
      return store.rowAt(at);
    },
  };
}

/** The hidden columns, at the board's end: each shown again with a click (editors). */
function HiddenColumns({ field, values, onShow, t }: { field: DatabaseField; values: ColumnValue[]; onShow?(value: ColumnValue): void; t: BoardProps['t'] }) {
  return (
    <section className="db-board-hidden" role="listitem" aria-label={t('database.board.hiddenColumns')}>
      <div className="db-board-column-head">{t('database.board.hiddenColumns')}</div>
      {values.map((value) => (
        <button key={groupKey(value)} type="button" className="db-board-add" disabled={!onShow} onClick={() => onShow?.(value)} aria-label={t('database.board.show', { column: columnLabel(field, value, t) })}>
          {columnLabel(field, value, t)}
        </button>
      ))}
    </section>
  );
}

function ColumnTitle({ field, value, label }: { field: DatabaseField; value: ColumnValue; label: string }) {
  if (typeof value === 'string' && hasOptions(field)) {
    const option = field.options.find((o) => o.id === value);
    if (option) return <OptionChip option={option} />;
  }
  return <span className="db-board-column-name">{label}</span>;
}

function columnLabel(field: DatabaseField, value: ColumnValue, t: BoardProps['t']): string {
  if (value === null) return t('database.noValue');
  if (value === true) return t('database.checked');
  if (value === false) return t('database.unchecked');
  return hasOptions(field) ? (field.options.find((o) => o.id === value)?.name ?? value) : value;
}

function Card({ row, layout, shown, column, onMove }: { row: WireRow; layout: DatabaseLayout; shown: DatabaseLayout['orderedFields']; column: ColumnValue; onMove: ColumnProps['onMove'] }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const element = useRef<HTMLDivElement>(null);
  const side = useReorderable(element, { kind: CARD_KIND, scope: layout.uid, id: row.id }, 'y', (id, where) => void onMove(id, column, row.id, where), { enabled: db.editable });
  const title = row.data.title || t('database.untitledRow');
  const open = () => db.openRow?.(row.id);
  return (
    <div
      ref={element}
      className={`db-card${side ? ` is-drop-${side}` : ''}`}
      role="listitem"
      tabIndex={0}
      aria-label={title}
      onClick={open}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Enter') open();
      }}
    >
      <div className="db-card-title">{title}</div>
      {shown.map(({ fieldId }) => {
        const value = cellOf(row, fieldId);
        if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) return null;
        return (
          <div key={fieldId} className="db-card-field">
            <CellContent field={db.config.fields[fieldId]} fieldId={fieldId} value={value} />
          </div>
        );
      })}
    </div>
  );
}

/** «+ Новая карточка» at the end of a column: a title typed, Enter makes the card there (with the column's value). */
function NewCard({ fieldId, value, store, t }: { fieldId: string; value: ColumnValue; store: RowStore; t: BoardProps['t'] }) {
  const db = useDatabase();
  const [typing, setTyping] = useState(false);
  const [title, setTitle] = useState('');
  const make = async () => {
    const text = title.trim();
    if (!text) return setTyping(false);
    const values = value === null || value === false ? {} : { [fieldId]: value };
    try {
      await db.api.createRows(db.databaseId, [{ title: text, values }]);
      // Kept when the card could not be made: typed again with Enter.
      setTitle('');
    } catch {
      showToast(t('database.writeFailed'), 'error');
    }
    await store.refresh();
  };
  if (!typing) {
    return (
      <button type="button" className="db-board-add" onClick={() => setTyping(true)}>
        {t('database.board.newCard')}
      </button>
    );
  }
  return (
    <input
      className="db-board-new"
      autoFocus
      value={title}
      placeholder={t('database.board.cardTitle')}
      aria-label={t('database.board.cardTitle')}
      onChange={(e) => setTitle(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') void make();
        if (e.key === 'Escape') {
          setTitle('');
          setTyping(false);
        }
      }}
      onBlur={() => {
        if (!title.trim()) setTyping(false);
      }}
    />
  );
}
