import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { dropTargetForElements } from '@atlaskit/pragmatic-drag-and-drop/element/adapter';
import { useVirtualizer } from '@tanstack/react-virtual';
import { MAIN_FIELD_ID, hasOptions, makesLanes, type DatabaseField, type DatabaseLayout, type RowValue } from '../../../../schema/blocks/database';
import type { WireGroup, WireRow } from '../../../../schema/database';
import type { WireUser } from '../../../../schema/user';
import { ActionMenu, MenuItem } from '../../../ui/ActionMenu';
import { showToast } from '../../../ui/Toast';
import { displayName, useUsers } from '../../comments/userLookup';
import { CellContent, OptionChip, fileHref } from '../cells/cells';
import { BOARD_WINDOW, viewRowsQuery, type RowsQuery } from '../../../editor/blocks/databaseRows';
import { boardColumnValues } from '../../../editor/blocks/rowsAddress';
import { useDatabase } from '../context';
import { cellOf, shownOf, useRowStore, withCell, type RowStore } from '../rows/rowStore';
import { useReorderable, type DropSide } from '../useReorderable';
import { conflictCell } from '../cells/cellWrites';
import { groupKey, useCollapsedGroups } from '../rows/collapsedGroups';
import { fromTemplate, madeFromTemplate, templateFor } from '../rows/rowTemplates';
import type { LiveView } from '../context';
import {
  CARD_BASE,
  cardEstimate,
  cardKeyAction,
  cardMove,
  cellKey,
  columnCell,
  coverFile,
  isEmptyCell,
  laneCellOf,
  type CardMove,
  type ColumnValue,
} from './boardCards';

/** Whether a field's values make a board's columns: the one rule is `boardColumnValues` (rowsAddress.ts). */
export const makesBoardColumns = (field: DatabaseField | undefined): boolean => boardColumnValues(field) !== null;

const CARD_KIND = 'database-card';
/** A person board's columns are read again this long after the rows change (several changes, one read). */
const PEOPLE_REFRESH_MS = 300;
/** A card's move is sent at most this often: again from the server's cell after each conflict (someone changed the card's options meanwhile). */
const MOVE_ATTEMPTS = 3;

/** A card dropped and not yet answered (then read again): drawn in its new place meanwhile. */
export interface PendingMove {
  row: WireRow;
  from: ColumnValue;
  to: ColumnValue;
  /** The lanes it left and went to, on a board with swimlanes (undefined: none). */
  fromLane?: ColumnValue;
  toLane?: ColumnValue;
  /** The card it was dropped beside, or null: the column's end. */
  target: string | null;
  side: DropSide;
  /** The column it went to held it already (a person's column: a card of several people): it moves there as within a column. */
  wasThere?: boolean;
  /** Other columns that keep the card (a multi-select card's other options): it does not leave them. */
  stays?: ColumnValue[];
  /** Other lanes that keep the card (its lane field's other values): it does not leave their cells of the columns it is in. */
  laneStays?: ColumnValue[];
}

/** Where the keyboard's focus goes: a card of a cell (`cellKey`: a column, in a lane) by its row, or its index there; `n` tells two requests apart. */
interface FocusRequest {
  column: string;
  rowId?: string;
  index?: number;
  n: number;
}

/**
 * The Board view of a database (issue 17): its rows as cards in columns, one per value of the
 * view's group field (`groupBy`: a select, status or checkbox field's values, or the people a
 * person field holds), «Без значения» last. Each column reads its own windows of rows
 * (`GET …/rows?group=`), drawn as they are scrolled to; a card dragged to another place (or moved
 * with Ctrl+Shift and an arrow) is one call (`POST …/rows/move` with `placeBefore`/`placeAfter`
 * and the column's value in `set`), and the columns are read again. Cards show the view's
 * visible fields and the cover (`cover`); a click or Enter opens the row.
 */
export function BoardView({
  layout,
  savedLayout = layout,
  track,
}: {
  layout: DatabaseLayout;
  /** The view as the server has it (its swimlanes are read from it: a lane chosen and not saved yet has none to read). */
  savedLayout?: DatabaseLayout;
  track(view: LiveView): () => void;
}) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const field = layout.groupBy ? db.config.fields[layout.groupBy.fieldId] : undefined;
  if (!layout.groupBy || !field || !makesBoardColumns(field)) return <BoardSetup layout={layout} />;
  // Lanes once saved, and while still chosen (lanes turned off show none at once).
  const savedSub = savedLayout.groupBy?.sub?.fieldId;
  const subId = savedSub !== undefined && layout.groupBy.sub?.fieldId === savedSub ? savedSub : undefined;
  return <Board key={layout.groupBy.fieldId} layout={layout} subId={subId} fieldId={layout.groupBy.fieldId} field={field} track={track} t={t} />;
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

/** «Обложка карточки» in a board's toolbar (editors): none, or a files field whose first picture tops each card. */
export function CoverButton({ layout }: { layout: DatabaseLayout }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  if (!db.editable) return null;
  const files = Object.entries(db.config.fields).filter(([, f]) => f.type === 'files');
  const current = layout.cover ? db.config.fields[layout.cover.fieldId] : undefined;
  return (
    <ActionMenu
      label={t('database.board.cover')}
      iconOnly={false}
      trigger={current ? t('database.board.coverOf', { name: current.name }) : t('database.board.cover')}
      buttonClassName={`db-button${current ? ' is-on' : ''}`}
      menuClassName="db-menu"
    >
      {(close) => {
        const choose = (fieldId: string | null) => () => {
          close();
          void db.saveView(layout.uid, { cover: fieldId ? { fieldId } : null });
        };
        return (
          <>
            <MenuItem role="menuitemradio" checked={!current} onClick={choose(null)}>
              {t('database.board.noCover')}
            </MenuItem>
            {files.map(([id, f]) => (
              <MenuItem key={id} role="menuitemradio" checked={layout.cover?.fieldId === id} onClick={choose(id)}>
                {f.name}
              </MenuItem>
            ))}
            {files.length === 0 && <p className="db-menu-note">{t('database.board.noFilesField')}</p>}
          </>
        );
      }}
    </ActionMenu>
  );
}

interface BoardProps {
  layout: DatabaseLayout;
  /** The swimlanes' field (`groupBy.sub` as saved), if any. */
  subId?: string;
  fieldId: string;
  field: DatabaseField;
  track(view: LiveView): () => void;
  t: (key: string, options?: Record<string, unknown>) => string;
}

/**
 * A count of reads that goes up PEOPLE_REFRESH_MS after the rows change (several changes, one
 * read) while `enabled`: what a board's groups read from the server (its listed columns, its
 * lanes) depend on. `again`: the same after a change made here.
 */
function useReadAgain(enabled: boolean, track: BoardProps['track']): { reads: number; again(): void } {
  const [reads, setReads] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const again = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setReads((n) => n + 1), PEOPLE_REFRESH_MS);
  }, []);
  useEffect(() => (enabled ? track({ applyChange: again, refreshSoon: again }) : undefined), [enabled, track, again]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return { reads, again };
}

/**
 * The columns a board reads from its view's groups (`GET …/groups`): a person field's people (by
 * name), a relation's related rows (by title, `labels`), then «Без значения»; read again when the
 * rows change. Null while the first answer is coming, or when the board is neither (`enabled`).
 * `counts`: each column's cards by its `groupKey` (a board with swimlanes shows them over its lanes).
 */
function useListedColumns(
  enabled: boolean,
  layout: DatabaseLayout,
  track: BoardProps['track'],
): { columns: ColumnValue[] | null; labels: ReadonlyMap<string, string>; counts: ReadonlyMap<string, number> | null; again(): void } {
  const db = useDatabase();
  const [people, setPeople] = useState<string[] | null>(null);
  // A related row's column is named by its title (the group's label).
  const [labels, setLabels] = useState<ReadonlyMap<string, string>>(new Map());
  const [counts, setCounts] = useState<ReadonlyMap<string, number> | null>(null);
  const { reads, again } = useReadAgain(enabled, track);
  const key = JSON.stringify([layout.groupBy?.fieldId ?? null, layout.filter ?? null]);
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    db.api.groups(db.databaseId, layout.uid).then(
      (groups) => {
        if (cancelled) return;
        const next = groups.map((g) => g.value).filter((value): value is string => typeof value === 'string');
        setPeople((previous) => (previous && previous.join('|') === next.join('|') ? previous : next));
        setLabels(new Map(groups.flatMap((g) => (typeof g.value === 'string' && g.label !== undefined ? [[g.value, g.label] as const] : []))));
        setCounts(new Map(groups.map((g) => [groupKey(g.value), g.count])));
      },
      () => !cancelled && setPeople((previous) => previous ?? []),
    );
    return () => {
      cancelled = true;
    };
    // Read again when the view's group field or filter change (`key`: by value) and when the rows do (`reads`).
  }, [enabled, db.api, db.databaseId, layout.uid, key, reads]);
  const columns = useMemo(() => (people ? [...people, null] : null), [people]);
  return { columns: enabled ? columns : null, labels, counts: enabled ? counts : null, again };
}

/**
 * A board's swimlanes (`groupBy.sub`, by the field `subFieldId`): its view's lanes as `GET
 * …/groups?lanes=true` answers them (those that hold rows, «Без значения» last), read again when
 * the rows change and when the view does (a lane field just chosen is read once the server has it).
 * Null while the first answer is coming, or when the board has no lanes.
 */
function useLanes(subFieldId: string | undefined, layout: DatabaseLayout, track: BoardProps['track']): { lanes: WireGroup[] | null; again(): void } {
  const db = useDatabase();
  const [read, setRead] = useState<{ fieldId: string; lanes: WireGroup[] } | null>(null);
  const { reads, again } = useReadAgain(!!subFieldId, track);
  useEffect(() => {
    if (!subFieldId) return;
    let cancelled = false;
    const keep = (lanes: WireGroup[]) =>
      setRead((previous) =>
        previous && previous.fieldId === subFieldId && JSON.stringify(previous.lanes) === JSON.stringify(lanes) ? previous : { fieldId: subFieldId, lanes },
      );
    db.api.groups(db.databaseId, layout.uid, true).then(
      (lanes) => !cancelled && keep(lanes),
      () => !cancelled && setRead((previous) => (previous?.fieldId === subFieldId ? previous : { fieldId: subFieldId, lanes: [] })),
    );
    return () => {
      cancelled = true;
    };
    // Read again when the view changes (`layout`: its filter, its lane field — saved, or just chosen and
    // not yet saved: read again once it is) and when the rows do (`reads`).
  }, [subFieldId, db.api, db.databaseId, layout, reads]);
  return { lanes: subFieldId && read?.fieldId === subFieldId ? read.lanes : null, again };
}

/** A lane of a board with swimlanes, as its cells know it. */
interface Lane {
  value: ColumnValue;
  label: string;
  fieldId: string;
  field: DatabaseField;
}

/**
 * Mounted once it has come near the screen (a board's lane: its cells' stores read rows only
 * then); at once where the browser cannot tell.
 */
function useNearScreen(element: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const node = element.current;
    if (near || !node) return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && setNear(true), { rootMargin: '600px' });
    observer.observe(node);
    return () => observer.disconnect();
  }, [element, near]);
  return near;
}

/** A row of a store at an index: in memory, or read. */
async function rowIn(store: RowStore, index: number): Promise<WireRow | undefined> {
  return store.rowAt(index) ?? (await store.rowsIn(index, index))[0];
}

/**
 * Where a card goes in `destination`: beside `target`, or at the column's end (`target` null).
 * Null: nowhere to go (already last of its own column).
 */
async function placeIn(
  destination: RowStore | undefined,
  rowId: string,
  target: string | null,
  side: DropSide,
  sameColumn: boolean,
): Promise<{ placeAfter?: string | null; placeBefore?: string } | null> {
  if (target && target !== rowId) return side === 'before' ? { placeBefore: target } : { placeAfter: target };
  const count = destination?.count ?? 0;
  const last = count > 0 && destination ? await rowIn(destination, count - 1) : undefined;
  if (last?.id !== rowId) return { placeAfter: last ? last.id : null };
  if (sameColumn) return null;
  // Last of the column it goes to already (a person's column it shares): after the card before it.
  const before = count > 1 && destination ? await rowIn(destination, count - 2) : undefined;
  return { placeAfter: before ? before.id : null };
}

function Board({ layout, subId, fieldId, field, track, t }: BoardProps) {
  const db = useDatabase();
  const fixed = useMemo(() => boardColumnValues(field), [field]);
  // Columns read from the view's groups: a person field's people, a relation's related rows.
  const listed = fixed === 'people' || fixed === 'related';
  // Swimlanes (`groupBy.sub`): a lane per value of another field, each with the board's columns.
  const subField = subId !== undefined && subId !== fieldId ? db.config.fields[subId] : undefined;
  const laneFieldId = subField && makesLanes(subField) ? subId : undefined;
  const laneField = laneFieldId !== undefined ? subField : undefined;
  const laned = laneField !== undefined;
  // A board with lanes reads its columns' groups too: their counts over every lane, in their heads.
  const people = useListedColumns(listed || laned, layout, track);
  const lanesRead = useLanes(laneFieldId, layout, track);
  const columns: ColumnValue[] | null = Array.isArray(fixed) ? fixed : people.columns;
  const personIds = useMemo(
    () => (fixed === 'people' && columns ? columns.filter((value): value is string => typeof value === 'string') : []),
    [fixed, columns],
  );
  const users = useUsers(personIds);
  const userOf = (value: ColumnValue) => (typeof value === 'string' && fixed === 'people' ? users[personIds.indexOf(value)] : undefined);
  const labelOf = (value: ColumnValue) =>
    fixed === 'related' && typeof value === 'string' ? people.labels.get(value) || t('database.untitledRow') : columnLabel(field, value, t, userOf(value));
  const [collapsed, toggleCollapsed] = useCollapsedGroups(db.databaseId, layout.uid, fieldId);
  const [pending, setPending] = useState<PendingMove | null>(null);
  const pendingNow = useRef(pending);
  pendingNow.current = pending;
  const [focusTo, setFocusTo] = useState<FocusRequest | null>(null);
  const [current, setCurrent] = useState<{ column: string; rowId: string } | null>(null);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [announced, setAnnounced] = useState('');

  // The lanes: those holding the view's rows; none yet (no rows): one to make a card in («Без значения», a box not checked).
  const lanes = useMemo<WireGroup[] | null>(() => {
    if (!laneField || !lanesRead.lanes) return null;
    return lanesRead.lanes.length > 0 ? lanesRead.lanes : [{ value: laneField.type === 'checkbox' ? false : null, count: 0 }];
  }, [laneField, lanesRead.lanes]);
  const lanePersonIds = useMemo(
    () => (laneField?.type === 'person' && lanes ? lanes.map((lane) => lane.value).filter((value): value is string => typeof value === 'string') : []),
    [laneField, lanes],
  );
  const laneUsers = useUsers(lanePersonIds);
  const laneUserOf = (value: ColumnValue) => (typeof value === 'string' && laneField?.type === 'person' ? laneUsers[lanePersonIds.indexOf(value)] : undefined);
  const laneLabelOf = (lane: WireGroup): string => {
    if (!laneField) return '';
    // A box's lanes say whose box they are («Срочно: Да»): «Да» alone says nothing.
    if (laneField.type === 'checkbox') return `${laneField.name}: ${t(lane.value === true ? 'database.yes' : 'database.no')}`;
    if (laneField.type === 'relation' && typeof lane.value === 'string') return lane.label || t('database.untitledRow');
    return columnLabel(laneField, lane.value, t, laneUserOf(lane.value));
  };
  // Each lane as its cells know it: the same object while its name stays (a new card's field is memoized).
  const laneNames = lanes ? lanes.map(laneLabelOf) : [];
  const laneNamesKey = JSON.stringify(laneNames);
  const laneCells = useMemo<Lane[]>(
    () =>
      lanes && laneField && laneFieldId
        ? lanes.map((group, at) => ({ value: group.value, label: (JSON.parse(laneNamesKey) as string[])[at] ?? '', fieldId: laneFieldId, field: laneField }))
        : [],
    [lanes, laneField, laneFieldId, laneNamesKey],
  );
  // Folded lanes: kept as a table's groups are, under a key of their own (the columns' stay apart).
  const [collapsedLanes, toggleLane] = useCollapsedGroups(db.databaseId, `${layout.uid}:lanes`, laneFieldId);
  const laneOf = useMemo(() => (laneField && laneFieldId ? { fieldId: laneFieldId, field: laneField } : undefined), [laneField, laneFieldId]);
  const lanesNow = useRef(lanes);
  lanesNow.current = lanes;

  // Each cell's store (a column's, or a column's in a lane), by its `cellKey`.
  const stores = useRef(new Map<string, RowStore>());
  const storeOf = useCallback((value: ColumnValue, lane?: ColumnValue) => stores.current.get(cellKey(value, lane)), []);
  const register = useCallback(
    (value: ColumnValue, store: RowStore, lane?: ColumnValue) => {
      const key = cellKey(value, lane);
      stores.current.set(key, store);
      const untrack = track(store);
      return () => {
        untrack();
        if (stores.current.get(key) === store) stores.current.delete(key);
      };
    },
    [track],
  );
  const onCount = useCallback((value: ColumnValue, count: number, lane?: ColumnValue) => {
    const key = cellKey(value, lane);
    setCounts((all) => (all[key] === count ? all : { ...all, [key]: count }));
  }, []);
  const againPeople = people.again;
  const againLanes = lanesRead.again;
  // The groups read again after a card is made or moved: the columns' (people, related rows; counts over lanes) and the lanes.
  const againGroups = useCallback(() => {
    againPeople();
    if (laned) againLanes();
  }, [againPeople, againLanes, laned]);

  /**
   * A card put in a column (dropped, or moved with the keys): beside another card (`target`), or
   * at the column's end (`target` null), from the column `from`; on a board with lanes, from the
   * lane `lanes.from` to `lanes.to` (both cells written in one call). Drawn there at once; true
   * once the cells have it where it went. `focus`: the keyboard's focus follows it.
   */
  const move = useCallback(
    async (
      rowId: string,
      from: ColumnValue,
      to: ColumnValue,
      target: string | null,
      side: DropSide,
      focus = false,
      lanes?: { from: ColumnValue; to: ColumnValue },
    ): Promise<boolean> => {
      const destination = storeOf(to, lanes?.to);
      const same = from === to && lanes?.from === lanes?.to;
      // Every cell showing the card (a person board's card is in each of its people's).
      const holders = [...stores.current.values()].filter((store) => store.rowById(rowId));
      let place: Awaited<ReturnType<typeof placeIn>>;
      try {
        place = await placeIn(destination, rowId, target, side, same);
      } catch {
        showToast(t('database.writeFailed'), 'error');
        return false;
      }
      if (!place) return false;
      const row = storeOf(from, lanes?.from)?.rowById(rowId) ?? holders[0]?.rowById(rowId);
      // The column's value (and the lane's, to another lane): a multi-select card stays in its other options' columns and lanes.
      const moveFrom = (values: Record<string, RowValue> | undefined, versions: Record<string, number> | undefined) =>
        cardMove({ fieldId, field }, lanes ? laneOf : undefined, values, { column: from, lane: lanes?.from }, { column: to, lane: lanes?.to }, versions);
      /** The card as the move draws it: its cells with the move's values. */
      const moved = (card: WireRow, written: CardMove) => written.set.reduce((drawn, cell) => withCell(drawn, cell.fieldId, cell.value), card);
      let change = moveFrom(row?.data.values, row?.versions);
      if (row)
        setPending({
          row: moved(row, change),
          from,
          to,
          ...(lanes ? { fromLane: lanes.from, toLane: lanes.to, laneStays: change.laneStays } : {}),
          target,
          side,
          wasThere: !same && (destination?.indexOf(rowId) ?? -1) >= 0,
          stays: change.stays,
        });
      if (focus) setFocusTo({ column: cellKey(to, lanes?.to), rowId, n: Date.now() });
      let written = true;
      let values = row?.data.values;
      let versions = row?.versions;
      for (let attempt = 0; ; attempt += 1) {
        try {
          // In the board's own order: the table and the other views keep theirs (docs/api/databases.md «Order per view»).
          const set = change.set.length === 0 ? undefined : change.set.length === 1 ? change.set[0] : change.set;
          await db.api.moveRows(db.databaseId, [rowId], place, set, layout.uid);
          break;
        } catch (error) {
          // A value made from the card's cell (a multi-select's other options kept) that someone
          // changed meanwhile: made again from the cell as the server has it, so their change stays.
          const theirs = conflictCell(error);
          if (theirs && attempt + 1 < MOVE_ATTEMPTS) {
            values = { ...values, [theirs.fieldId]: theirs.value };
            versions = { ...versions, [theirs.fieldId]: theirs.version };
            change = moveFrom(values, versions);
            const again = change;
            // Drawn meanwhile with what it is to be now (their change in it).
            setPending((now) =>
              now?.row.id === rowId
                ? {
                    ...now,
                    row: moved(now.row, again),
                    stays: again.stays,
                    ...(lanes ? { laneStays: again.laneStays } : {}),
                  }
                : now,
            );
            continue;
          }
          written = false;
          showToast(theirs ? t('database.cardChangedMeanwhile') : t('database.writeFailed'), 'error');
          break;
        }
      }
      // The cells keeping the card: the column it went to and those of its other options, in each of the lanes it is in.
      const staying = new Set(
        lanes
          ? [to, ...change.stays].flatMap((column) => [lanes.to, ...change.laneStays].map((lane) => storeOf(column, lane)))
          : change.stays.map((option) => storeOf(option)),
      );
      await Promise.all([...new Set([...holders, destination, ...(lanes ? staying : [])])].map((store) => store?.refresh()));
      if (listed || laned) againGroups();
      // Drawn from the stores once they have it where it went: a read of our own move's realtime
      // event may have replaced the one just awaited (a little later, at most a second).
      const settled = () =>
        same || (holders.every((store) => store === destination || staying.has(store) || !store.rowById(rowId)) && !!destination?.rowById(rowId));
      for (let tries = 0; tries < 10 && !settled(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      setPending((now) => (now?.row.id === rowId ? null : now));
      // The focus lost with the card drawn anew from the stores goes back to it; one the person has
      // moved meanwhile (an arrow pressed before the answer came) stays where they put it.
      const active = document.activeElement;
      if (focus && (!active || active === document.body)) setFocusTo({ column: cellKey(to, lanes?.to), rowId, n: Date.now() });
      return written;
    },
    [storeOf, db.api, db.databaseId, field, fieldId, laneOf, listed, laned, againGroups, t, layout.uid],
  );

  // Columns hidden in the view (its config: for everyone), shown again from the list at the end.
  const hidden = layout.groupBy?.hidden ?? [];
  const isHidden = (value: ColumnValue) => hidden.some((h) => h === value);
  const setHidden = (next: ColumnValue[]) => void db.saveView(layout.uid, { groupBy: { ...layout.groupBy!, hidden: next } });
  const shown = (columns ?? []).filter((value) => !isHidden(value));
  const shownNow = useRef(shown);
  shownNow.current = shown;
  /**
   * A card dropped: `from` is the `cellKey` of the cell it was dragged out of (else the cell
   * holding it); `lane`: the lane of the cell it was dropped in, on a board with lanes.
   */
  const onDrop = useCallback(
    (rowId: string, to: ColumnValue, target: string | null, side: DropSide, from: string | undefined, lane?: ColumnValue) => {
      if (lane === undefined) {
        const all = shownNow.current;
        // By index: a column's value may be null («Без значения»).
        let at = all.findIndex((value) => groupKey(value) === from);
        if (at < 0) at = all.findIndex((value) => value !== to && storeOf(value)?.rowById(rowId));
        void move(rowId, at < 0 ? to : all[at], to, target, side);
        return;
      }
      // The cell it came from, else another one holding it, else the one it goes to (a move within it).
      let source = laneCellOf(from);
      if (!source || !storeOf(source.column, source.lane)?.rowById(rowId)) {
        const here = cellKey(to, lane);
        const other = [...stores.current.entries()].find(([key, store]) => key !== here && store.rowById(rowId));
        source = (other && laneCellOf(other[0])) ?? source ?? { column: to, lane };
      }
      void move(rowId, source.column, to, target, side, false, { from: source.lane, to: lane });
    },
    [move, storeOf],
  );

  /** A card moved with the keys: a place up or down its column (its cell), or to the top of another in its lane; the move is said aloud. */
  const keyMoves = useRef(Promise.resolve());
  const keyMove = async (rowId: string, from: ColumnValue, to: ColumnValue, place: 'up' | 'down' | 'top', lane?: ColumnValue) => {
    const source = storeOf(from, lane);
    const destination = storeOf(to, lane);
    if (!source || !destination) return;
    const view = withPending(source, from, pendingNow.current, lane);
    const index = view.indexOf(rowId);
    if (index < 0) return;
    let target: string | null | undefined;
    let side: DropSide = 'before';
    try {
      if (place === 'up') target = view.rowAt(index - 1)?.id;
      else if (place === 'down') [target, side] = [view.rowAt(index + 1)?.id, 'after'];
      else {
        const first = (destination.count ?? 0) > 0 ? await rowIn(destination, 0) : undefined;
        // Already the first of that column (a person's it shares): before the one after it.
        target = first?.id === rowId ? (destination.count! > 1 ? (await rowIn(destination, 1))?.id : null) : (first?.id ?? null);
      }
    } catch {
      showToast(t('database.writeFailed'), 'error');
      return;
    }
    if (target === undefined) return;
    const title = view.rowAt(index)?.data.title || t('database.untitledRow');
    if (!(await move(rowId, from, to, target, side, true, lane === undefined ? undefined : { from: lane, to: lane }))) return;
    const at = destination.indexOf(rowId);
    const where = { card: title, column: labelOf(to), position: at + 1, count: destination.count ?? 0 };
    const laneGroup = lane === undefined ? undefined : lanesNow.current?.find((group) => group.value === lane);
    setAnnounced(laneGroup ? t('database.board.movedInLane', { ...where, lane: laneLabelOf(laneGroup) }) : t('database.board.moved', where));
  };

  const onCardKey = (event: KeyboardEvent, rowId: string, column: ColumnValue, index: number, lane?: ColumnValue) => {
    const at = shown.findIndex((value) => value === column);
    if (at < 0) return;
    const sizes = shown.map((value) => {
      if (collapsed.has(groupKey(value))) return null;
      const store = storeOf(value, lane);
      return store ? withPending(store, value, pending, lane).count : 0;
    });
    const action = cardKeyAction(event, { column: at, index }, sizes, db.editable);
    if (!action) return;
    event.preventDefault();
    event.stopPropagation();
    if (action.kind === 'open') db.openRow?.(rowId);
    else if (action.kind === 'focus') setFocusTo({ column: cellKey(shown[action.column], lane), index: action.index, n: Date.now() });
    else {
      const to = shown[action.column];
      // One after another: each computes its place from what the one before left.
      keyMoves.current = keyMoves.current.then(() => keyMove(rowId, column, to, action.place, lane));
    }
  };

  if (!columns || (laned && !lanes)) return <div className="db-empty">{t('database.loading')}</div>;
  // The board's one stop for Tab: the card last focused, else the first card of the first cell with cards.
  const firstLaneCell = () => {
    for (const lane of lanes ?? []) {
      if (collapsedLanes.has(groupKey(lane.value))) continue;
      const value = shown.find((v) => !collapsed.has(groupKey(v)) && (counts[cellKey(v, lane.value)] ?? 0) > 0);
      if (value !== undefined) return cellKey(value, lane.value);
    }
    return cellKey(null, lanes?.[0]?.value ?? null);
  };
  const tabStop = current ?? {
    column: laned ? firstLaneCell() : groupKey(shown.find((value) => !collapsed.has(groupKey(value)) && (counts[groupKey(value)] ?? 0) > 0) ?? null),
    rowId: undefined,
  };
  /** A cell's column (`lane`: in that lane, on a board with lanes). */
  const cell = (value: ColumnValue, lane?: Lane) => {
    const key = cellKey(value, lane?.value);
    return (
      <Column
        key={key}
        layout={layout}
        fieldId={fieldId}
        field={field}
        value={value}
        label={labelOf(value)}
        user={userOf(value)}
        lane={lane}
        register={register}
        onCount={onCount}
        onMove={onDrop}
        onCardKey={onCardKey}
        onCardFocus={(rowId) => setCurrent((now) => (now?.rowId === rowId && now.column === key ? now : { column: key, rowId }))}
        tabStop={tabStop.column === key ? (tabStop.rowId ?? null) : undefined}
        focusTo={focusTo?.column === key ? focusTo : null}
        pending={pending}
        collapsed={!lane && collapsed.has(groupKey(value))}
        onToggle={() => toggleCollapsed(groupKey(value))}
        onHide={db.editable ? () => setHidden([...hidden, value]) : undefined}
        onMade={listed || laned ? againGroups : undefined}
        t={t}
      />
    );
  };
  const hiddenColumns = hidden.length > 0 && (
    <HiddenColumns
      values={columns.filter(isHidden)}
      labelOf={labelOf}
      onShow={db.editable ? (value) => setHidden(hidden.filter((h) => h !== value)) : undefined}
      inLanes={laned}
      t={t}
    />
  );
  // Said to screen readers: where a card moved with the keys went (beside the list: a list holds items alone).
  const live = (
    <div className="db-board-live visually-hidden" role="status" aria-live="polite">
      {announced}
    </div>
  );
  if (lanes && laneField && laneFieldId) {
    // Swimlanes: the columns' heads once on top, then each lane with its cells under them (of the same widths).
    return (
      <>
        <div className="db-board has-lanes" role="group" aria-label={t('database.layouts.board')}>
          <div className="db-board-lanes">
            <div className="db-board-heads">
              {shown.map((value) => {
                const folded = collapsed.has(groupKey(value));
                return (
                  <div key={groupKey(value)} className={`db-board-column db-board-head${folded ? ' is-collapsed' : ''}`}>
                    <ColumnHead
                      field={field}
                      value={value}
                      label={labelOf(value)}
                      user={userOf(value)}
                      count={people.counts ? (people.counts.get(groupKey(value)) ?? 0) : undefined}
                      collapsed={folded}
                      onToggle={() => toggleCollapsed(groupKey(value))}
                      onHide={db.editable ? () => setHidden([...hidden, value]) : undefined}
                      t={t}
                    />
                  </div>
                );
              })}
            </div>
            {lanes.map((group, at) => {
              const lane = laneCells[at];
              const folded = collapsedLanes.has(groupKey(group.value));
              return (
                <BoardLane
                  key={groupKey(group.value)}
                  lane={lane}
                  count={group.count}
                  user={laneUserOf(group.value)}
                  collapsed={folded}
                  onToggle={() => toggleLane(groupKey(group.value))}
                  t={t}
                >
                  {shown.map((value) =>
                    collapsed.has(groupKey(value)) ? (
                      <div
                        key={cellKey(value, group.value)}
                        className="db-board-column db-board-cell is-collapsed"
                        role="listitem"
                        aria-label={labelOf(value)}
                      />
                    ) : (
                      cell(value, lane)
                    ),
                  )}
                </BoardLane>
              );
            })}
          </div>
          {hiddenColumns}
        </div>
        {live}
      </>
    );
  }
  return (
    <>
      <div className="db-board" role="list" aria-label={t('database.layouts.board')}>
        {shown.map((value) => cell(value))}
        {hiddenColumns}
      </div>
      {live}
    </>
  );
}

/** A lane of a board with swimlanes: its head (folds it), then its cells, mounted once the lane comes near the screen. */
function BoardLane({
  lane,
  count,
  user,
  collapsed,
  onToggle,
  t,
  children,
}: {
  lane: Lane;
  count: number;
  user?: WireUser;
  collapsed: boolean;
  onToggle(): void;
  t: BoardProps['t'];
  children: ReactNode;
}) {
  const element = useRef<HTMLElement>(null);
  const near = useNearScreen(element);
  const toggle = t(collapsed ? 'database.board.expandLane' : 'database.board.collapseLane', { lane: lane.label });
  return (
    <section ref={element} className={`db-board-lane${collapsed ? ' is-collapsed' : ''}`} aria-label={t('database.board.lane', { lane: lane.label })}>
      <header className="db-board-lane-head">
        <button type="button" className="db-board-toggle" aria-expanded={!collapsed} aria-label={toggle} onClick={onToggle}>
          {collapsed ? '▸' : '▾'}
        </button>
        <ColumnTitle field={lane.field} value={lane.value} label={lane.label} user={user} />
        <span className="db-board-count">{count}</span>
      </header>
      {!collapsed &&
        (near ? (
          <div className="db-board-lane-cells" role="list" aria-label={t('database.board.laneCells', { lane: lane.label })}>
            {children}
          </div>
        ) : (
          <div className="db-board-lane-wait" />
        ))}
    </section>
  );
}

interface ColumnProps {
  layout: DatabaseLayout;
  fieldId: string;
  field: DatabaseField;
  value: ColumnValue;
  label: string;
  /** A person column's person. */
  user?: WireUser;
  /** The lane it is a cell of, on a board with swimlanes (its head is then the board's, on top): its cards are those of both values. */
  lane?: Lane;
  register(value: ColumnValue, store: RowStore, lane?: ColumnValue): () => void;
  onCount(value: ColumnValue, count: number, lane?: ColumnValue): void;
  /** A card dropped here (beside `target`, or at the end), dragged out of the cell `from` (its `cellKey`); `lane`: this cell's lane. */
  onMove(rowId: string, to: ColumnValue, target: string | null, side: DropSide, from: string | undefined, lane?: ColumnValue): void;
  onCardKey(event: KeyboardEvent, rowId: string, column: ColumnValue, index: number, lane?: ColumnValue): void;
  onCardFocus(rowId: string): void;
  /** The board's Tab stop is in this column: this row's card (null: the first card); undefined: not here. */
  tabStop: string | null | undefined;
  focusTo: FocusRequest | null;
  pending: PendingMove | null;
  /** Folded to its header (kept in this browser, as a table's groups are). */
  collapsed: boolean;
  onToggle(): void;
  /** «Скрыть» (editors): the column out of the view for everyone. */
  onHide?(): void;
  /** A card made in the column. */
  onMade?(): void;
  t: BoardProps['t'];
}

function Column({
  layout,
  fieldId,
  field,
  value,
  label,
  user,
  lane,
  register,
  onCount,
  onMove,
  onCardKey,
  onCardFocus,
  tabStop,
  focusTo,
  pending,
  collapsed,
  onToggle,
  onHide,
  onMade,
  t,
}: ColumnProps) {
  const db = useDatabase();
  const laneValue = lane?.value;
  const laneFieldId = lane?.fieldId;
  const query = useMemo<RowsQuery>(
    () => (laneValue === undefined ? { ...viewRowsQuery(layout), group: value } : { ...viewRowsQuery(layout), group: value, sub: laneValue }),
    [layout, value, laneValue],
  );
  const read = useCallback((q: RowsQuery, signal?: AbortSignal, first?: boolean) => db.api.rows(db.databaseId, q, signal, first), [db.api, db.databaseId]);
  // The first window may have been asked for with the page's top (rowsAddress.ts, boardColumnPath).
  const store = useRowStore(
    read,
    `${db.databaseId}:${layout.uid}:board:${fieldId}:${groupKey(value)}:${JSON.stringify(layout.filter ?? null)}:${JSON.stringify(layout.sorts ?? [])}${
      laneValue === undefined ? '' : `:lane:${laneFieldId}:${groupKey(laneValue)}`
    }`,
    query,
    () => db.api.earlyRows(db.databaseId, { ...query, offset: 0, limit: BOARD_WINDOW }),
    BOARD_WINDOW,
  );
  useEffect(() => register(value, store, laneValue), [register, value, store, laneValue]);
  const shownRows = withPending(store, value, pending, laneValue);
  const count = shownRows.count;
  useEffect(() => onCount(value, count, laneValue), [onCount, value, count, laneValue]);

  const body = useRef<HTMLDivElement>(null);
  const shown = useMemo(
    () => layout.orderedFields.filter((f) => f.fieldId !== MAIN_FIELD_ID && f.fieldId !== fieldId && db.config.fields[f.fieldId]),
    [layout.orderedFields, fieldId, db.config.fields],
  );
  const shownIds = useMemo(() => shown.map((f) => f.fieldId), [shown]);
  // The cover: a files field's first picture, of a fixed height (the card's is known before the picture comes).
  const coverId = layout.cover && db.config.fields[layout.cover.fieldId]?.type === 'files' ? layout.cover.fieldId : null;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => body.current,
    estimateSize: (index) => cardEstimate(shownRows.rowAt(index)?.data.values, shownIds, coverId),
    overscan: 4,
    gap: 8,
    initialRect: { width: 260, height: 600 },
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => store.setVisible(first, Math.max(first, last)), [store, first, last]);

  // The keyboard's focus sent here: the card scrolled to, then focused once it is drawn.
  useEffect(() => {
    if (!focusTo || collapsed) return;
    const index = focusTo.rowId !== undefined ? shownRows.indexOf(focusTo.rowId) : (focusTo.index ?? -1);
    if (index < 0) return;
    virtualizer.scrollToIndex(index, { align: 'auto' });
    let frame = 0;
    let tries = 0;
    const attempt = () => {
      const card = body.current?.querySelector<HTMLElement>(`.db-card-slot[data-index="${index}"] .db-card`);
      if (card) card.focus();
      else if (tries++ < 30) frame = requestAnimationFrame(attempt);
    };
    attempt();
    return () => cancelAnimationFrame(frame);
    // A request once, when it comes (`n`): not again as the rows change.
  }, [focusTo?.n]); // eslint-disable-line react-hooks/exhaustive-deps

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
        onMove(String(source.data.id), value, null, 'after', typeof source.data.from === 'string' ? source.data.from : undefined, laneValue);
      },
    });
  }, [db.editable, layout.uid, onMove, value, laneValue, collapsed]);

  // The column renders again on each frame its cards scroll: its words are translated once, not
  // on every frame (i18next's t was ≈ 1 ms of a scrolled frame).
  const laneLabel = lane?.label;
  const cardsLabel = useMemo(
    () => (laneLabel === undefined ? t('database.board.cards', { column: label }) : t('database.board.cellCards', { column: label, lane: laneLabel })),
    [t, label, laneLabel],
  );

  return (
    <section className={`db-board-column${lane ? ' db-board-cell' : ''}${collapsed ? ' is-collapsed' : ''}`} role="listitem" aria-label={label}>
      {!lane && (
        <ColumnHead field={field} value={value} label={label} user={user} count={count} collapsed={collapsed} onToggle={onToggle} onHide={onHide} t={t} />
      )}
      {!collapsed && (
        <>
          <div ref={body} className={`db-board-cards${over ? ' is-over' : ''}`} role="list" aria-label={cardsLabel}>
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((item) => {
                const row = shownRows.rowAt(item.index);
                return (
                  <div
                    key={item.key}
                    data-index={item.index}
                    ref={virtualizer.measureElement}
                    className="db-card-slot"
                    style={{ transform: `translateY(${item.start}px)` }}
                  >
                    {row ? (
                      <Card
                        row={row}
                        layout={layout}
                        shown={shown}
                        coverId={coverId}
                        column={value}
                        lane={laneValue}
                        tabbable={tabStop !== undefined && (tabStop === null ? item.index === 0 : tabStop === row.id)}
                        index={item.index}
                        onMove={onMove}
                        onCardKey={onCardKey}
                        onCardFocus={onCardFocus}
                      />
                    ) : (
                      <div className="db-card is-loading" style={{ height: CARD_BASE }} />
                    )}
                  </div>
                );
              })}
            </div>
          </div>
          {db.editable && <NewCard field={field} fieldId={fieldId} value={value} lane={lane} store={store} onMade={onMade} t={t} />}
        </>
      )}
    </section>
  );
}

/** A column's head: its fold, its title, its cards, «×» to hide it (editors). On a board with lanes, once on top. */
function ColumnHead({
  field,
  value,
  label,
  user,
  count,
  collapsed,
  onToggle,
  onHide,
  t,
}: {
  field: DatabaseField;
  value: ColumnValue;
  label: string;
  user?: WireUser;
  /** Undefined: not known yet. */
  count: number | undefined;
  collapsed: boolean;
  onToggle(): void;
  onHide?(): void;
  t: BoardProps['t'];
}) {
  // The column renders again on each frame its cards scroll: its words are translated once, not
  // on every frame (i18next's t was ≈ 1 ms of a scrolled frame).
  const words = useMemo(
    () => ({
      toggle: t(collapsed ? 'database.expandGroup' : 'database.collapseGroup', { name: label }),
      hide: t('database.board.hide', { column: label }),
    }),
    [t, collapsed, label],
  );
  return (
    <header className="db-board-column-head">
      <button type="button" className="db-board-toggle" aria-expanded={!collapsed} aria-label={words.toggle} onClick={onToggle}>
        {collapsed ? '▸' : '▾'}
      </button>
      <ColumnTitle field={field} value={value} label={label} user={user} />
      <span className="db-board-count">{count}</span>
      {onHide && !collapsed && (
        <button type="button" className="db-board-hide" aria-label={words.hide} title={words.hide} onClick={onHide}>
          ×
        </button>
      )}
    </header>
  );
}

/**
 * A column's cards with a pending move drawn (`pending`): the card left out of the columns it
 * leaves (every other one holding it: a person board's card leaves its other people's too) and
 * put in the one it went to, beside its target or last. Indexes of what is drawn → the store's rows.
 * On a board with swimlanes a cell is a column in a lane (`lane`): the card leaves every cell but
 * those of the columns and lanes it stays in, and goes to the column `to` of the lane `toLane`.
 */
export function withPending(
  store: Pick<RowStore, 'count' | 'rowAt' | 'indexOf'>,
  value: ColumnValue,
  pending: PendingMove | null,
  lane?: ColumnValue,
): { count: number; rowAt(i: number): WireRow | undefined; indexOf(rowId: string): number } {
  const stored = store.count ?? 0;
  // The card moves within the cell it went to: out of its place there, into the new one.
  const within = !!pending && ((pending.from === pending.to && pending.fromLane === pending.toLane) || pending.wasThere === true);
  const destination = !!pending && value === pending.to && lane === pending.toLane;
  // A cell it is in after the move (of a column and of a lane it has then).
  const keeps =
    !!pending &&
    (value === pending.to || !!pending.stays?.some((kept) => kept === value)) &&
    (lane === pending.toLane || !!pending.laneStays?.some((kept) => kept === lane));
  const leaves = !!pending && (destination ? within : !keeps);
  const removedAt = pending && leaves ? store.indexOf(pending.row.id) : -1;
  const remaining = stored - (removedAt >= 0 ? 1 : 0);
  let insertAt = -1;
  // A cell the card went to that has it already (its read came in) draws it where the read put it.
  if (pending && destination && (within || store.indexOf(pending.row.id) < 0)) {
    const at = pending.target === null ? -1 : store.indexOf(pending.target);
    insertAt = at < 0 ? remaining : at - (removedAt >= 0 && at > removedAt ? 1 : 0) + (pending.side === 'after' ? 1 : 0);
  }
  if (removedAt < 0 && insertAt < 0) return { count: stored, rowAt: (i) => store.rowAt(i), indexOf: (rowId) => store.indexOf(rowId) };
  return {
    count: remaining + (insertAt >= 0 ? 1 : 0),
    rowAt(i) {
      if (i === insertAt) return pending!.row;
      let at = insertAt >= 0 && i > insertAt ? i - 1 : i;
      if (removedAt >= 0 && at >= removedAt) at += 1;
      return store.rowAt(at);
    },
    indexOf(rowId) {
      if (rowId === pending!.row.id) return insertAt;
      const at = store.indexOf(rowId);
      if (at < 0) return -1;
      const kept = at - (removedAt >= 0 && at > removedAt ? 1 : 0);
      return insertAt >= 0 && kept >= insertAt ? kept + 1 : kept;
    },
  };
}

/** The hidden columns, at the board's end: each shown again with a click (editors). */
function HiddenColumns({
  values,
  labelOf,
  onShow,
  inLanes = false,
  t,
}: {
  values: ColumnValue[];
  labelOf(value: ColumnValue): string;
  onShow?(value: ColumnValue): void;
  /** On a board with swimlanes: under the lanes, in a row (not an item of the board's list). */
  inLanes?: boolean;
  t: BoardProps['t'];
}) {
  return (
    <section
      className={`db-board-hidden${inLanes ? ' is-under-lanes' : ''}`}
      role={inLanes ? undefined : 'listitem'}
      aria-label={t('database.board.hiddenColumns')}
    >
      <div className="db-board-column-head">{t('database.board.hiddenColumns')}</div>
      {values.map((value) => (
        <button
          key={groupKey(value)}
          type="button"
          className="db-board-add"
          disabled={!onShow}
          onClick={() => onShow?.(value)}
          aria-label={t('database.board.show', { column: labelOf(value) })}
        >
          {labelOf(value)}
        </button>
      ))}
    </section>
  );
}

function ColumnTitle({ field, value, label, user }: { field: DatabaseField; value: ColumnValue; label: string; user?: WireUser }) {
  if (typeof value === 'string' && hasOptions(field)) {
    const option = field.options.find((o) => o.id === value);
    if (option) return <OptionChip option={option} />;
  }
  if (typeof value === 'string' && field.type === 'person') {
    return (
      <span className="db-board-person">
        {user?.avatar_url ? (
          <img className="avatar" src={user.avatar_url} alt="" />
        ) : (
          <span className="avatar" aria-hidden>
            {label.trim().slice(0, 1).toUpperCase()}
          </span>
        )}
        <span className="db-board-column-name">{label}</span>
      </span>
    );
  }
  return <span className="db-board-column-name">{label}</span>;
}

function columnLabel(field: DatabaseField, value: ColumnValue, t: BoardProps['t'], user?: WireUser): string {
  if (value === null) return t('database.noValue');
  if (value === true) return t('database.checked');
  if (value === false) return t('database.unchecked');
  if (field.type === 'person') return displayName(user, t('database.someone'));
  return hasOptions(field) ? (field.options.find((o) => o.id === value)?.name ?? value) : value;
}

interface CardProps {
  row: WireRow;
  layout: DatabaseLayout;
  shown: DatabaseLayout['orderedFields'];
  /** The files field whose first picture tops the card (the view's `cover`), or null. */
  coverId: string | null;
  column: ColumnValue;
  /** Its cell's lane, on a board with swimlanes. */
  lane?: ColumnValue;
  /** The board's one Tab stop (roving focus: the arrows go on from there). */
  tabbable: boolean;
  /** Its place in the column (for the keyboard). */
  index: number;
  onMove: ColumnProps['onMove'];
  onCardKey: ColumnProps['onCardKey'];
  onCardFocus: ColumnProps['onCardFocus'];
}

const MOVE_KEYS = 'Control+Shift+ArrowUp Control+Shift+ArrowDown Control+Shift+ArrowLeft Control+Shift+ArrowRight';

/** A card: memoized, so a scrolled frame renders only the cards that come in (its column renders on each). */
const Card = memo(function Card({ row, layout, shown, coverId, column, lane, tabbable, index, onMove, onCardKey, onCardFocus }: CardProps) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const element = useRef<HTMLDivElement>(null);
  const from = cellKey(column, lane);
  const side = useReorderable(
    element,
    { kind: CARD_KIND, scope: layout.uid, id: row.id, from },
    'y',
    (id, where, source) => onMove(id, column, row.id, where, source, lane),
    { enabled: db.editable },
  );
  const title = row.data.title || t('database.untitledRow');
  const cover = coverId ? coverFile(cellOf(row, coverId)) : null;
  // A picture that cannot be read (a published page's reader may not read the row's files) is not shown broken.
  const [broken, setBroken] = useState<string | null>(null);
  return (
    <div
      ref={element}
      className={`db-card${side ? ` is-drop-${side}` : ''}`}
      role="listitem"
      tabIndex={tabbable ? 0 : -1}
      aria-label={title}
      aria-keyshortcuts={db.editable ? MOVE_KEYS : undefined}
      data-row-id={row.id}
      onClick={() => db.openRow?.(row.id)}
      onKeyDown={(event) => onCardKey(event, row.id, column, index, lane)}
      onFocus={(event) => event.target === event.currentTarget && onCardFocus(row.id)}
    >
      {cover && broken !== cover.id && (
        <img className="db-card-cover" src={fileHref(cover.id)} alt="" loading="lazy" draggable={false} onError={() => setBroken(cover.id)} />
      )}
      <div className="db-card-title">{title}</div>
      {shown.map(({ fieldId }) => {
        const value = shownOf(row, fieldId, db.config.fields[fieldId]);
        if (isEmptyCell(value)) return null;
        return (
          <div key={fieldId} className="db-card-field">
            <CellContent field={db.config.fields[fieldId]} fieldId={fieldId} value={value} databaseId={db.databaseId} />
          </div>
        );
      })}
    </div>
  );
});

/** «+ Новая карточка» at the end of a column: a title typed, Enter makes the card there (with the column's value, and its lane's in a lane). Memoized: not drawn again on each scrolled frame. */
const NewCard = memo(function NewCard({
  field,
  fieldId,
  value,
  lane,
  store,
  onMade,
  t,
}: {
  field: DatabaseField;
  fieldId: string;
  value: ColumnValue;
  lane?: Lane;
  store: RowStore;
  onMade?(): void;
  t: BoardProps['t'];
}) {
  const db = useDatabase();
  const [typing, setTyping] = useState(false);
  const [title, setTitle] = useState('');
  const make = async () => {
    const text = title.trim();
    if (!text) return setTyping(false);
    try {
      // From the database's default row template, if it has one (the column's value and the title typed over its own).
      const templateId = await templateFor(db);
      // The column's value, and in a lane the lane's too; an empty one («Без значения», a box not
      // checked) said only over a template, whose own value would put the card in another column or lane.
      const values: Record<string, RowValue> = {};
      const put = (id: string, cell: RowValue) => {
        if ((cell !== null && cell !== false) || templateId) values[id] = cell;
      };
      put(fieldId, columnCell(field, value));
      if (lane) put(lane.fieldId, columnCell(lane.field, lane.value));
      await madeFromTemplate(db, templateId, () => db.api.createRows(db.databaseId, [fromTemplate({ title: text, values }, templateId)]));
      // Kept when the card could not be made: typed again with Enter.
      setTitle('');
      onMade?.();
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
});
