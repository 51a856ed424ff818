import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DATE_GROUPINGS,
  MAIN_FIELD_ID,
  makesLanes,
  splitsRows,
  type DatabaseConfig,
  type DatabaseField,
  type DatabaseLayout,
  type DatabaseView,
} from '../../../schema/blocks/database';
import { asStoredField } from '../../../schema/formula/field';
import type { DatabaseEvent } from '../../../schema/database';
import { newId } from '../../../schema/ids';
import { channels } from '../../../schema/realtime';
import type { DatabaseHost } from '../../editor/blocks/databaseHost';
import { CalendarChunk, ChartChunk } from '../../editor/blocks/databaseRows';
import { titlesChanged } from './rows/relationTitles';
import { Popover } from '../../ui/Popover';
import { ActionMenu, MenuItem } from '../../ui/ActionMenu';
import { showToast } from '../../ui/Toast';
import { useMentionable } from '../comments/members';
import { databaseApi, type DatabaseApi, type DatabaseBlock as WireDatabaseBlock } from './api';
import { DatabaseContext, useDatabase, type DatabaseContextValue } from './context';
import { DatabaseHeading } from './DatabaseHeading';
import { FilterBar } from './filters/FilterBar';
import { PropertiesButton } from './fields/PropertiesPanel';
import { RowPeek } from './rows/RowPeek';
import { SearchBox } from './filters/SearchBox';
import { movedItem, useReorderable, type DropSide } from './useReorderable';
import type { RowStore } from './rows/rowStore';
import { TableView } from './table/TableView';
import { TimelineView } from './timeline/TimelineView';
import { BoardView, CoverButton, makesBoardColumns } from './board/BoardView';
import { CardsButton, GalleryView, ListView } from './gallery/GalleryView';
import { FormView } from './form/FormBuilder';
import { defaultChart } from './chart/chartConfig';
import type { LiveView } from './context';
import { FormulaProgressBar } from './FormulaProgressBar';
import { noteFormulaProgress } from './formulaProgress';
import './database.css';

export interface DatabaseBlockProps {
  databaseId: string;
  config: DatabaseConfig;
  view: DatabaseView;
  host: DatabaseHost;
  /** The database of a Database page: full width and height. */
  fill?: boolean;
  api?: DatabaseApi;
  /** A linked view (a WidgetView page, LinkedView.tsx): only this view of the database; views are neither added nor deleted here. */
  linkedViewId?: string;
  /** An inline database's title and description, shown above its tabs (not on a Database page nor in a linked view: their page's title names them). */
  title?: string;
  description?: string;
  /**
   * The row template «Новая строка» starts from, as the database's data says (null: none);
   * undefined where the data is not known here (the templates' list says: rows/rowTemplates.ts).
   */
  defaultTemplate?: string | null;
}

/** For a part that reports its one store as it changes (the table's, the side peek's): that store tracked in its place. */
function trackedOne(track: (store: LiveView) => () => void): (store: RowStore | null) => void {
  let untrack: (() => void) | undefined;
  return (store) => {
    untrack?.();
    untrack = store ? track(store) : undefined;
  };
}

/** Chart views draw with Recharts, calendars with FullCalendar: chunks of their own, loaded only where one is shown (databaseRows.ts). */
const ChartView = ChartChunk;
const CalendarView = CalendarChunk;

/** Field types a view can be grouped by. */
const GROUPABLE = new Set(['select', 'status', 'checkbox', 'person', 'date', 'number', 'text', 'url', 'email', 'phone']);
/** A number field's group ranges to choose from. */
const GROUP_STEPS = [1, 10, 100, 1000, 10000] as const;

/** A new Table view showing every field. */
export function newTableLayout(config: DatabaseConfig, name: string): DatabaseLayout {
  const ids = Object.keys(config.fields);
  const ordered = [MAIN_FIELD_ID, ...ids.filter((id) => id !== MAIN_FIELD_ID)].filter((id) => ids.includes(id));
  return { uid: newId(), type: 'table', name, orderedFields: ordered.map((fieldId) => ({ fieldId, isWrap: false })) };
}

/** A new chart view (`chart`: bars, lines or a pie, the user's choice): the rows counted by a first field (ChartView's `defaultChart`). */
export function newChartLayout(config: DatabaseConfig, name: string): DatabaseLayout {
  return { ...newTableLayout(config, name), type: 'chart', chart: defaultChart(config) };
}

/** A new Calendar view: every field in its rows, by the first date field, if any, a month at a time. */
export function newCalendarLayout(config: DatabaseConfig, name: string): DatabaseLayout {
  const date = Object.entries(config.fields).find(([, f]) => f.type === 'date')?.[0];
  // Its items show their titles alone until properties are chosen for them («Свойства»), as in Notion.
  return {
    ...newTableLayout(config, name),
    type: 'calendar',
    orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }],
    calendar: date ? { fieldId: date, mode: 'month' } : null,
  };
}

/** A new Timeline view: every field in its rows, bars from the first date field, to the second if there is one (else the first's ranges), by weeks. */
export function newTimelineLayout(config: DatabaseConfig, name: string): DatabaseLayout {
  const [start, end] = Object.entries(config.fields)
    .filter(([, f]) => f.type === 'date')
    .map(([id]) => id);
  return { ...newTableLayout(config, name), type: 'timeline', timeline: start ? { startFieldId: start, endFieldId: end ?? null, scale: 'week' } : null };
}

/** A new Gallery or List view: the title alone on its cards or lines (fields are added from «Свойства»), pictures from the pages' content. */
export function newCardsLayout(type: 'gallery' | 'list') {
  return (config: DatabaseConfig, name: string): DatabaseLayout => ({
    ...newTableLayout(config, name),
    type,
    orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }],
  });
}

/** A new Form view: it asks for the title alone at first (questions are added in its builder), filled in by the page's readers. */
export function newFormLayout(config: DatabaseConfig, name: string): DatabaseLayout {
  return { ...newTableLayout(config, name), type: 'form', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }], form: { access: 'page' } };
}

/** A new Board view: every field on its cards, its columns from the first status (else select, else checkbox) field, if any. */
export function newBoardLayout(config: DatabaseConfig, name: string): DatabaseLayout {
  const fields = Object.entries(config.fields);
  const columns = ['status', 'select', 'checkbox'].map((type) => fields.find(([, f]) => f.type === type)?.[0]).find(Boolean);
  return { ...newTableLayout(config, name), type: 'board', groupBy: columns ? { fieldId: columns } : null };
}

/**
 * A database in the page (the lazy part of the database block's view): its views as tabs, the
 * filter and sort bar, the active view as a table, and a row opened in the side peek. Fields and
 * views are changed through the API; the database block the server answers goes into the editor
 * (host.receiveBlock), and this component draws what the element then holds.
 */
export default function DatabaseBlock({
  databaseId,
  config,
  view,
  host,
  fill,
  api = databaseApi,
  linkedViewId,
  title,
  description,
  defaultTemplate,
}: DatabaseBlockProps) {
  const { t } = useTranslation('automation');
  // A view shows its changes at once: each saved patch goes over the view until the server's
  // answer for the last of them is in (then the block's own view shows), and the next patch is
  // made from what is shown — two quick changes of one key do not undo each other.
  const [optimistic, setOptimistic] = useState<Readonly<Record<string, DatabaseLayout>>>({});
  const optimisticRef = useRef(optimistic);
  const savesInFlight = useRef(new Map<string, number>());
  /**
   * Each view's saves, one after another: two sent at once (a filter's condition, then its value)
   * may be applied by the server in the other order (its optimistic retry), which would leave the
   * first one's state — and the next edit built on it — as the view's.
   */
  const saveChains = useRef(new Map<string, Promise<unknown>>());
  const layouts = useMemo(
    () => view.layouts.filter((l) => !linkedViewId || l.uid === linkedViewId).map((l) => optimistic[l.uid] ?? l),
    [view.layouts, optimistic, linkedViewId],
  );
  const serverLayouts = useRef(view.layouts);
  serverLayouts.current = view.layouts;
  const [activeId, setActiveId] = useState<string | null>(layouts[0]?.uid ?? null);
  const layout = layouts.find((l) => l.uid === activeId) ?? layouts[0];
  const [barOpen, setBarOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [peekRow, setPeekRow] = useState<string | null>(null);
  const editable = host.canEdit;
  // A database just made here is on the server only after the sync queue sent it: its rows are asked for then.
  const [saved, setSaved] = useState(() => host.isSaved(databaseId));
  useEffect(() => {
    if (saved) return;
    let cancelled = false;
    void host.flush().then(() => !cancelled && setSaved(host.isSaved(databaseId)));
    return () => {
      cancelled = true;
    };
  }, [saved, host, databaseId]);
  const hasPeople = Object.values(config.fields).some((f) => f.type === 'person');
  const members = useMentionable(host.workspaceId, host.pageId, !host.published && (hasPeople || peekRow !== null));

  const apply = useCallback((block: WireDatabaseBlock) => host.receiveBlock(block), [host]);
  const failed = useCallback(() => showToast(t('database.writeFailed'), 'error'), [t]);
  const context = useMemo<DatabaseContextValue>(
    () => ({
      databaseId,
      pageId: host.pageId,
      config,
      editable,
      api,
      apply,
      members,
      openRow: host.published ? undefined : setPeekRow,
      openPage: host.published ? undefined : host.openPage,
      defaultTemplate,
      async saveView(viewId, patch) {
        const base = optimisticRef.current[viewId] ?? serverLayouts.current.find((l) => l.uid === viewId);
        if (!base) return;
        const show = (next: Readonly<Record<string, DatabaseLayout>>) => {
          optimisticRef.current = next;
          setOptimistic(next);
        };
        show({ ...optimisticRef.current, [viewId]: { ...base, ...patch } });
        savesInFlight.current.set(viewId, (savesInFlight.current.get(viewId) ?? 0) + 1);
        const previous = saveChains.current.get(viewId) ?? Promise.resolve();
        const saving = previous.then(() => api.updateView(databaseId, viewId, patch));
        const settled = saving.catch(() => undefined);
        saveChains.current.set(viewId, settled);
        try {
          apply(await saving);
        } catch {
          failed();
        } finally {
          if (saveChains.current.get(viewId) === settled) saveChains.current.delete(viewId);
          const left = (savesInFlight.current.get(viewId) ?? 1) - 1;
          savesInFlight.current.set(viewId, left);
          if (left === 0) {
            const rest = { ...optimisticRef.current };
            delete rest[viewId];
            show(rest);
          }
        }
      },
      async saveField(fieldId, field) {
        try {
          apply((await api.updateField(databaseId, fieldId, field)).block);
          return true;
        } catch {
          failed();
          return false;
        }
      },
    }),
    [databaseId, host.pageId, host.published, host.openPage, defaultTemplate, config, editable, api, apply, members, failed],
  );

  /** The title or description changed here: saved, and the block the server answers goes into the editor (others get it as the block's edit). */
  const saveAbout = useCallback(
    async (about: { title?: string | null; description?: string | null }) => {
      try {
        apply(await api.describe(databaseId, about));
        return true;
      } catch {
        failed();
        return false;
      }
    },
    [api, apply, databaseId, failed],
  );

  // Others' changes of the rows: the `database` events of the holding page's channel.
  const stores = useRef(new Set<LiveView>());
  const live = host.live;
  useEffect(() => {
    if (!live) return;
    return live.connection.subscribe(channels.element(host.pageId, live.userId), {
      onJoined: () => {
        // Joined (first, or back after a drop): what changed since the views read their rows is
        // read again — unless the database has not moved since (one small call, not every window).
        const all = [...stores.current];
        if (!all.some((store) => store.refreshUnless)) return all.forEach((store) => store.refreshSoon());
        api.revision(databaseId).then(
          (revision) => all.forEach((store) => (store.refreshUnless ? store.refreshUnless(revision) : store.refreshSoon())),
          () => all.forEach((store) => store.refreshSoon()),
        );
      },
      onEvent(event, payload) {
        if (event !== 'database') return;
        const change = payload as unknown as DatabaseEvent;
        if (change.databaseId !== databaseId) return;
        titlesChanged(databaseId, change.change);
        if (change.change.kind === 'computing') noteFormulaProgress(databaseId, change.change);
        else if (change.change.kind === 'reset') noteFormulaProgress(databaseId, undefined);
        for (const store of stores.current) store.applyChange(change.change);
      },
    });
  }, [live, host.pageId, databaseId, api]);
  // The fields as they are now go to every store (a field deleted: its cells out of the rows in memory).
  const fieldIds = Object.keys(config.fields);
  const fieldList = useRef(fieldIds);
  fieldList.current = fieldIds;
  const fieldKey = fieldIds.join(' ');
  useEffect(() => {
    for (const store of stores.current) store.setFields?.(fieldList.current);
  }, [fieldKey]);
  /** What the view drawn reads (the table's rows, a board's columns, a chart) hears others' changes while it is there. */
  const track = useCallback((store: LiveView) => {
    stores.current.add(store);
    store.setFields?.(fieldList.current);
    return () => void stores.current.delete(store);
  }, []);
  const onTableStore = useMemo(() => trackedOne(track), [track]);
  const onPeekStore = useMemo(() => trackedOne(track), [track]);

  /** A view's tab dropped beside another (or moved a step from its menu): its place among the views is saved. */
  const moveView = async (id: string, target: string, side: DropSide) => {
    const order = movedItem(
      layouts.map((l) => ({ id: l.uid })),
      id,
      target,
      side,
    );
    const at = order.findIndex((entry) => entry.id === id);
    if (order.map((entry) => entry.id).join() === layouts.map((l) => l.uid).join()) return;
    try {
      apply(await api.moveView(databaseId, id, at > 0 ? order[at - 1].id : null));
    } catch {
      failed();
    }
  };

  const addView = async (type: NewViewType) => {
    const made = {
      board: newBoardLayout,
      chart: newChartLayout,
      calendar: newCalendarLayout,
      timeline: newTimelineLayout,
      table: newTableLayout,
      gallery: newCardsLayout('gallery'),
      list: newCardsLayout('list'),
      form: newFormLayout,
    };
    const next = made[type](config, type === 'table' ? t('database.tableView') : t(`database.layouts.${type}`));
    try {
      apply(await api.addView(databaseId, next));
      setActiveId(next.uid);
    } catch {
      failed();
    }
  };

  /** «Дублировать»: the view with all its settings and its own order of rows, named «… (копия)», right after it, and shown. */
  const duplicateView = async (l: DatabaseLayout) => {
    const copy = { ...structuredClone(l), uid: newId(), name: t('database.copyOf', { name: l.name || t(`database.layouts.${l.type}`) }) };
    try {
      // The copy starts with the view's own order of rows (docs/api/databases.md «Order per view»).
      apply(await api.addView(databaseId, copy, l.uid, l.uid));
      setActiveId(copy.uid);
    } catch {
      failed();
    }
  };

  // «Создать связанное представление»: a page showing this view alone, opened once made.
  const { createLinkedView } = host;
  const linkView =
    createLinkedView && !linkedViewId
      ? async (l: DatabaseLayout) => {
          try {
            host.openPage?.(await createLinkedView(l.uid, l.name || t(`database.layouts.${l.type}`)));
          } catch {
            showToast(t('database.linked.createFailed'), 'error');
          }
        }
      : undefined;

  const filters = (layout?.filter?.rules.length ?? 0) + (layout?.sorts?.length ?? 0);
  return (
    <DatabaseContext.Provider value={context}>
      <div className={`db${fill ? ' is-fill' : ''}`} data-database-id={databaseId}>
        {!fill && !linkedViewId && <DatabaseHeading title={title} description={description} editable={editable} onSave={saveAbout} />}
        <div className="db-toolbar">
          {/* The tabs' list holds tabs alone (ARIA's tablist); «+» follows it. */}
          <div className="db-tabs">
            <div className="db-tablist" role="tablist" aria-label={t('database.views')}>
              {layouts.map((l, index) => (
                <ViewTab
                  key={l.uid}
                  layout={l}
                  active={l.uid === layout?.uid}
                  onSelect={() => setActiveId(l.uid)}
                  canDelete={linkedViewId ? null : layouts.length > 1}
                  onLinkView={linkView && (() => void linkView(l))}
                  onDuplicate={linkedViewId ? undefined : () => void duplicateView(l)}
                  neighbours={linkedViewId ? null : [layouts[index - 1]?.uid ?? null, layouts[index + 1]?.uid ?? null]}
                  onMove={(id, target, side) => void moveView(id, target, side)}
                />
              ))}
            </div>
            {editable && !linkedViewId && <AddViewButton onAdd={(type) => void addView(type)} />}
          </div>
          {/* A form shows no rows: nothing to search, filter, sort, group or show. */}
          {layout && layout.type !== 'form' && (
            <div className="db-actions">
              <SearchBox onSearch={setSearch} />
              <button type="button" className={`db-button${barOpen || filters ? ' is-on' : ''}`} aria-expanded={barOpen} onClick={() => setBarOpen((v) => !v)}>
                {t('database.filterAndSort')}
                {filters > 0 && <span className="db-badge">{filters}</span>}
              </button>
              {!CHART_TYPES.has(layout.type) && !['calendar', 'timeline', 'gallery', 'list'].includes(layout.type) && <GroupButton layout={layout} />}
              {!CHART_TYPES.has(layout.type) && <PropertiesButton layout={layout} />}
              {layout.type === 'board' && <CoverButton layout={layout} />}
              {layout.type === 'gallery' && <CardsButton layout={layout} />}
            </div>
          )}
        </div>
        {layout && barOpen && layout.type !== 'form' && <FilterBar layout={layout} />}
        <FormulaProgressBar databaseId={databaseId} config={config} />
        {!saved ? (
          <div className="db-empty">{t('database.loading')}</div>
        ) : layout ? (
          <>
            {layout.type === 'form' ? (
              <FormView key={layout.uid} layout={layout} published={host.published} />
            ) : layout.type === 'board' ? (
              <BoardView key={layout.uid} layout={layout} savedLayout={view.layouts.find((l) => l.uid === layout.uid) ?? layout} track={track} />
            ) : layout.type === 'gallery' ? (
              <GalleryView key={layout.uid} layout={layout} onStore={onTableStore} search={search} />
            ) : layout.type === 'list' ? (
              <ListView key={layout.uid} layout={layout} onStore={onTableStore} search={search} />
            ) : layout.type === 'calendar' ? (
              <Suspense fallback={<div className="db-empty">{t('database.loading')}</div>}>
                <CalendarView key={layout.uid} layout={layout} track={track} />
              </Suspense>
            ) : layout.type === 'timeline' ? (
              <TimelineView key={layout.uid} layout={layout} onStore={onTableStore} fill={fill} search={search} />
            ) : CHART_TYPES.has(layout.type) ? (
              <Suspense fallback={<div className="db-empty">{t('database.loading')}</div>}>
                <ChartView key={layout.uid} layout={layout} track={track} />
              </Suspense>
            ) : (
              <TableView
                key={layout.uid}
                layout={layout}
                savedLayout={view.layouts.find((l) => l.uid === layout.uid) ?? layout}
                onStore={onTableStore}
                fill={fill}
                search={search}
              />
            )}
          </>
        ) : (
          <div className="db-empty">{t('database.noViews')}</div>
        )}
        {peekRow && (
          <RowPeek
            rowId={peekRow}
            onClose={() => setPeekRow(null)}
            onOpenPage={(id) => {
              setPeekRow(null);
              host.openPage?.(id);
            }}
            fields={{ databaseId, config, editable, api, members, saveField: context.saveField, onStore: onPeekStore }}
          />
        )}
      </div>
    </DatabaseContext.Provider>
  );
}

/** A view's tab; its menu (the active tab, for editors): rename, a linked view of it, delete (`canDelete` null: not here — a linked view). */
interface ViewTabProps {
  layout: DatabaseLayout;
  active: boolean;
  onSelect(): void;
  /** null: the view cannot be deleted here (a linked view); false: it is the last one. */
  canDelete: boolean | null;
  onLinkView?(): void;
  /** «Дублировать» (not in a linked view). */
  onDuplicate?(): void;
  /** The views left and right of it, for «Сдвинуть влево/вправо»; null where views are not reordered. */
  neighbours: [string | null, string | null] | null;
  /** A view (by id) put on one side of another. */
  onMove(id: string, target: string, side: DropSide): void;
}

function ViewTab({ layout, active, onSelect, canDelete, onLinkView, onDuplicate, neighbours, onMove }: ViewTabProps) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const [renaming, setRenaming] = useState(false);
  const [menu, setMenu] = useState(false);
  const [name, setName] = useState(layout.name ?? '');
  const button = useRef<HTMLButtonElement>(null);
  const label = layout.name || t(`database.layouts.${layout.type}`);
  // Tabs reorder by dragging (editors, where there is more than the one view).
  const over = useReorderable(button, { kind: 'db-view', scope: db.databaseId, id: layout.uid }, 'x', (id, side) => onMove(id, layout.uid, side), {
    enabled: db.editable && neighbours !== null,
  });
  const rename = () => {
    setRenaming(false);
    if (name.trim() && name.trim() !== layout.name) void db.saveView(layout.uid, { name: name.trim() });
  };
  /** A menu item: the menu closes, then the item acts. */
  const choose = (act: () => void) => () => {
    setMenu(false);
    act();
  };
  const remove = async () => {
    setMenu(false);
    try {
      db.apply(await db.api.deleteView(db.databaseId, layout.uid));
    } catch {
      showToast(t('database.writeFailed'), 'error');
    }
  };
  if (renaming) {
    return (
      <input
        className="db-tab db-tab-input"
        value={name}
        autoFocus
        aria-label={t('database.viewName')}
        onChange={(e) => setName(e.target.value)}
        onBlur={rename}
        onKeyDown={(e) => {
          if (e.key === 'Enter') rename();
          if (e.key === 'Escape') setRenaming(false);
        }}
      />
    );
  }
  return (
    <>
      <button
        ref={button}
        type="button"
        role="tab"
        aria-selected={active}
        className={['db-tab', active ? 'is-active' : '', over ? `is-drop-${over}` : ''].filter(Boolean).join(' ')}
        onClick={() => (active && db.editable ? setMenu(true) : onSelect())}
        onDoubleClick={() => db.editable && setRenaming(true)}
      >
        <span aria-hidden>
          {layout.type === 'board'
            ? '▥'
            : layout.type === 'gallery'
              ? '⊞'
              : layout.type === 'list'
                ? '≡'
                : layout.type === 'calendar'
                  ? '▤'
                  : layout.type === 'timeline'
                    ? '☰'
                    : CHART_TYPES.has(layout.type)
                      ? '▮'
                      : layout.type === 'form'
                        ? '✎'
                        : '▦'}
        </span>{' '}
        {label}
      </button>
      {menu && (
        <Popover anchor={button.current} onClose={() => setMenu(false)} label={t('database.viewMenu')} className="menu db-menu" role="menu">
          <button
            type="button"
            className="menu-item"
            role="menuitem"
            onClick={choose(() => {
              setName(layout.name ?? label);
              setRenaming(true);
            })}
          >
            {t('database.renameView')}
          </button>
          {neighbours?.[0] && (
            <button type="button" className="menu-item" role="menuitem" onClick={choose(() => onMove(layout.uid, neighbours[0]!, 'before'))}>
              {t('database.moveViewLeft')}
            </button>
          )}
          {neighbours?.[1] && (
            <button type="button" className="menu-item" role="menuitem" onClick={choose(() => onMove(layout.uid, neighbours[1]!, 'after'))}>
              {t('database.moveViewRight')}
            </button>
          )}
          {onDuplicate && (
            <button type="button" className="menu-item" role="menuitem" onClick={choose(onDuplicate)}>
              {t('database.duplicateView')}
            </button>
          )}
          {onLinkView && (
            <button type="button" className="menu-item" role="menuitem" onClick={choose(onLinkView)}>
              {t('database.linked.create')}
            </button>
          )}
          {canDelete !== null && (
            <button type="button" className="menu-item is-danger" role="menuitem" disabled={!canDelete} onClick={() => void remove()}>
              {t('database.deleteView')}
            </button>
          )}
        </Popover>
      )}
    </>
  );
}

function GroupButton({ layout }: { layout: DatabaseLayout }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const board = layout.type === 'board';
  // A board's columns: one of its field types, always some.
  // A formula or a rollup groups as the type of its values (a unique ID as its number): schema/formula/field.ts.
  const storedType = (id: string) => (db.config.fields[id] ? asStoredField(db.config.fields, id).type : undefined);
  // A table by a multi-select or a relation to its own rows: a row in each of its values' groups.
  const splits = (id: string) => splitsRows(db.config, db.databaseId, id);
  const candidates = Object.entries(db.config.fields).filter(([id, f]: [string, DatabaseField]) =>
    board ? makesBoardColumns(f) : (GROUPABLE.has(storedType(id) ?? '') || splits(id)) && id !== MAIN_FIELD_ID,
  );
  const currentType = layout.groupBy ? storedType(layout.groupBy.fieldId) : undefined;
  const current = layout.groupBy?.fieldId;
  if (!db.editable && !current) return null;
  return (
    <ActionMenu
      label={t('database.group')}
      iconOnly={false}
      trigger={
        current
          ? t(board ? 'database.board.columnsOf' : 'database.groupedBy', { name: db.config.fields[current]?.name ?? '' })
          : t(board ? 'database.board.columnsBy' : 'database.group')
      }
      buttonClassName={`db-button${current ? ' is-on' : ''}`}
      menuClassName="db-menu"
      disabled={!db.editable}
    >
      {(close) => {
        const choose = (fieldId: string | null) => () => {
          close();
          // A board's swimlanes stay when its columns change to another field than theirs.
          const lanes = board && layout.groupBy?.sub && layout.groupBy.sub.fieldId !== fieldId ? { sub: layout.groupBy.sub } : {};
          void db.saveView(layout.uid, { groupBy: fieldId ? { fieldId, ...lanes } : null });
        };
        return (
          <>
            {!board && (
              <MenuItem role="menuitemradio" checked={!current} onClick={choose(null)}>
                {t('database.noGroup')}
              </MenuItem>
            )}
            {candidates.map(([id, f]) => (
              <MenuItem key={id} role="menuitemradio" checked={current === id} onClick={choose(id)}>
                {f.name}
              </MenuItem>
            ))}
            {!board && layout.groupBy && (currentType === 'date' || currentType === 'number') && (
              // How a date's or a number's rows fall into groups (buckets: schema/groupBuckets.ts).
              <div role="group" aria-label={t(currentType === 'date' ? 'database.groupDatesBy' : 'database.groupStep')} className="db-menu-section">
                <div className="menu-separator" role="separator" />
                <div className="db-menu-heading" aria-hidden>
                  {t(currentType === 'date' ? 'database.groupDatesBy' : 'database.groupStep')}
                </div>
                {(currentType === 'date'
                  ? DATE_GROUPINGS.map((by) => ({
                      key: by,
                      label: t(`database.dateGroupings.${by}`),
                      on: (layout.groupBy?.by ?? 'relative') === by,
                      patch: { by },
                    }))
                  : GROUP_STEPS.map((step) => ({
                      key: String(step),
                      label: t('database.groupStepOf', { step: step.toLocaleString('ru-RU') }),
                      on: (layout.groupBy?.step ?? 10) === step,
                      patch: { step },
                    }))
                ).map((choice) => (
                  <MenuItem
                    key={choice.key}
                    role="menuitemradio"
                    checked={choice.on}
                    onClick={() => {
                      close();
                      void db.saveView(layout.uid, { groupBy: { ...layout.groupBy!, ...choice.patch } });
                    }}
                  >
                    {choice.label}
                  </MenuItem>
                ))}
              </div>
            )}
            {current && (board || (layout.type === 'table' && !splits(current))) && (
              // A board's swimlanes (a lane per value of another field, each with the board's columns) or a
              // table's sub-groups (each group's rows grouped again by another field): docs/api/databases.md «Grouping».
              <div role="group" aria-label={t(board ? 'database.board.lanes' : 'database.subGroup')} className="db-menu-section">
                <div className="menu-separator" role="separator" />
                <div className="db-menu-heading" aria-hidden>
                  {t(board ? 'database.board.lanes' : 'database.subGroup')}
                </div>
                <MenuItem
                  role="menuitemradio"
                  checked={!layout.groupBy?.sub}
                  onClick={() => {
                    close();
                    void db.saveView(layout.uid, { groupBy: { ...layout.groupBy!, sub: null } });
                  }}
                >
                  {t(board ? 'database.board.noLanes' : 'database.noSubGroup')}
                </MenuItem>
                {(board ? Object.entries(db.config.fields).filter(([, f]) => makesLanes(f)) : candidates.filter(([id]) => !splits(id)))
                  .filter(([id]) => id !== current)
                  .map(([id, f]) => (
                    <MenuItem
                      key={id}
                      role="menuitemradio"
                      checked={layout.groupBy?.sub?.fieldId === id}
                      onClick={() => {
                        close();
                        void db.saveView(layout.uid, { groupBy: { ...layout.groupBy!, sub: { fieldId: id } } });
                      }}
                    >
                      {f.name}
                    </MenuItem>
                  ))}
              </div>
            )}
          </>
        );
      }}
    </ActionMenu>
  );
}

/** Views made from the «+» after the tabs. */
const NEW_VIEW_TYPES = ['table', 'board', 'gallery', 'list', 'calendar', 'timeline', 'chart', 'form'] as const;
type NewViewType = (typeof NEW_VIEW_TYPES)[number];
/** Layout types drawn as a chart. */
const CHART_TYPES: ReadonlySet<string> = new Set(['chart', 'barChart', 'lineChart', 'pieChart']);

/** The «+» after the tabs: a new view, a table, a board, a gallery, a list, a calendar, a timeline, a chart or a form. */
function AddViewButton({ onAdd }: { onAdd(type: NewViewType): void }) {
  const { t } = useTranslation('automation');
  return (
    <ActionMenu label={t('database.addView')} trigger="+" buttonClassName="db-tab db-tab-add" menuClassName="db-menu" align="start">
      {(close) =>
        NEW_VIEW_TYPES.map((type) => (
          <MenuItem
            key={type}
            onClick={() => {
              close();
              onAdd(type);
            }}
          >
            {t(`database.layouts.${type}`)}
          </MenuItem>
        ))
      }
    </ActionMenu>
  );
}
