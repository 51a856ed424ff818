import type { DatabaseField, FileRef, RowValue } from '../../../../schema/blocks/database';

/**
 * What a board's cards are made of, apart from React (BoardView.tsx): a column's value as a cell,
 * a card's cover and height, and what a key does to a focused card.
 */

/** A column's value: an option id, checked or not, a person (user id), or null («Без значения»). */
export type ColumnValue = string | boolean | null;

/**
 * The group field's value of a card put in a column (a drop, a keyboard move, a new card): the
 * option, checked or not; for a person field the column's person alone — the people of the column
 * the card came from are replaced, not added to (docs/web-app.md, «Board view»); for a
 * multi-select or a relation field the options (rows) it has with the column's in place of the one it came from
 * (`from`; `current`: the card's options), none in «Без значения»; null: none.
 */
export function columnCell(field: Pick<DatabaseField, 'type'>, column: ColumnValue, from?: ColumnValue, current?: RowValue): RowValue {
  if (field.type === 'person') return typeof column === 'string' ? [column] : null;
  if (field.type === 'multiSelect' || field.type === 'relation') {
    // «Без значения»: no option left (else the card would stay in its others' columns, not go there).
    if (column === null) return null;
    // A card moved from one option's column to another's: that option replaced by this one, the others kept (as Notion does).
    const kept = (Array.isArray(current) ? (current as string[]) : []).filter((id) => id !== from && id !== column);
    const next = typeof column === 'string' ? [...kept, column] : kept;
    return next.length > 0 ? next : null;
  }
  return column;
}

/**
 * A cell's name on a board: its column's value as JSON (as `groupKey`) on a board without lanes;
 * its lane's and its column's values (JSON of the pair) on one with swimlanes (`groupBy.sub`).
 */
export const cellKey = (column: ColumnValue, lane?: ColumnValue): string =>
  lane === undefined ? JSON.stringify(column ?? null) : JSON.stringify([lane ?? null, column ?? null]);

/** A board cell's values again from its `cellKey` with a lane (`[lane, column]`), or null: not one. */
export function laneCellOf(key: string | undefined): { lane: ColumnValue; column: ColumnValue } | null {
  if (!key) return null;
  try {
    const parsed: unknown = JSON.parse(key);
    const value = (v: unknown): v is ColumnValue => v === null || typeof v === 'string' || typeof v === 'boolean';
    return Array.isArray(parsed) && parsed.length === 2 && value(parsed[0]) && value(parsed[1]) ? { lane: parsed[0], column: parsed[1] } : null;
  } catch {
    return null;
  }
}

/**
 * The groups (columns, lanes) a card is in by its cell of a field: a checkbox's checked or not; a
 * list's (multi-select, person, relation) each of its values; an option; none: «Без значения» (null).
 */
export function cellGroups(field: Pick<DatabaseField, 'type'>, value: RowValue | undefined): ColumnValue[] {
  if (field.type === 'checkbox') return [value === true];
  if (Array.isArray(value)) {
    const ids = (value as unknown[]).filter((id): id is string => typeof id === 'string');
    return ids.length > 0 ? ids : [null];
  }
  return typeof value === 'string' ? [value] : [null];
}

/** A board's cell: a column, in a lane on a board with swimlanes (undefined: none). */
export interface BoardCell {
  column: ColumnValue;
  lane?: ColumnValue;
}

/** What a card moved from one cell to another writes, and where it is to be seen after. */
export interface CardMove {
  /**
   * The cells written, in one call: the column field's when the column changes, the lane field's
   * when the lane does; a value made from what the cell held (a multi-select's or relation's other
   * values kept) carries the version it was made from, so a change made meanwhile is not undone.
   */
  set: Array<{ fieldId: string; value: RowValue; version?: number }>;
  /** The other columns keeping the card (a multi-select's, a relation's other values). */
  stays: ColumnValue[];
  /** The other lanes keeping the card (its lane field's other values): none on a board without lanes. */
  laneStays: ColumnValue[];
}

/**
 * A card put from the cell `from` in the cell `to` (`values`: its cells, when in memory): the
 * column's value as `columnCell` makes it when the column changes, the lane's likewise when the
 * lane does (a multi-select or relation lane swaps the value it came from, a person lane holds its
 * person alone, «Без значения» clears); and the other columns and lanes the card stays in.
 * `versions`: the card's cells' versions, with `values` (a value made from those is written at its version).
 */
export function cardMove(
  columns: { fieldId: string; field: Pick<DatabaseField, 'type'> },
  lanes: { fieldId: string; field: Pick<DatabaseField, 'type'> } | undefined,
  values: Readonly<Record<string, RowValue>> | undefined,
  from: BoardCell,
  to: BoardCell,
  versions?: Readonly<Record<string, number>>,
): CardMove {
  const set: CardMove['set'] = [];
  /** The cell to write: at the version seen when its value keeps some of what it held. */
  const cell = (fieldId: string, field: Pick<DatabaseField, 'type'>, value: RowValue, toValue: ColumnValue) =>
    values && versions && toValue !== null && (field.type === 'multiSelect' || field.type === 'relation')
      ? { fieldId, value, version: versions[fieldId] ?? 0 }
      : { fieldId, value };
  const column = columnCell(columns.field, to.column, from.column, values?.[columns.fieldId]);
  if (from.column !== to.column) set.push(cell(columns.fieldId, columns.field, column, to.column));
  // A multi-select card stays in its other options' columns.
  const stays =
    (columns.field.type === 'multiSelect' || columns.field.type === 'relation') && Array.isArray(column)
      ? (column as string[]).filter((option) => option !== to.column)
      : [];
  if (!lanes || to.lane === undefined) return { set, stays, laneStays: [] };
  const current = values?.[lanes.fieldId];
  let lane = current;
  if (from.lane !== to.lane) {
    lane = columnCell(lanes.field, to.lane, from.lane, current);
    set.push(cell(lanes.fieldId, lanes.field, lane, to.lane));
  }
  return { set, stays, laneStays: cellGroups(lanes.field, lane).filter((value) => value !== to.lane) };
}

/** Pictures a cover shows: the types the files API serves inline (docs/api/files.md), by the file's name. */
const PICTURE_NAME = /\.(png|jpe?g|gif|webp|avif|bmp)$/i;

/** A card's cover: the first picture of its cover field's cell (a files value), or null. */
export function coverFile(value: RowValue | undefined): FileRef | null {
  if (!Array.isArray(value)) return null;
  for (const file of value) if (typeof file === 'object' && file !== null && PICTURE_NAME.test(file.name)) return file;
  return null;
}

/** A cover's height on a card (the picture is cut to fit: object-fit cover), so a card's height is known before the picture comes. */
export const COVER_HEIGHT = 132;
/** A card's height with its title alone, and what each field shown on it adds (the estimate before it is measured). */
export const CARD_BASE = 40;
export const CARD_LINE = 24;

/** A cell with nothing to show (no value, empty text, an empty list): a card leaves out its line. */
export const isEmptyCell = (value: RowValue | undefined) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * A card's height before it is measured: its title, a line per shown field that has a value, and
 * the cover when the card has one. A card not read yet: every field and a cover when the board shows covers.
 */
export function cardEstimate(values: Record<string, RowValue> | undefined, shown: readonly string[], coverFieldId: string | null): number {
  if (!values) return CARD_BASE + CARD_LINE * shown.length + (coverFieldId ? COVER_HEIGHT : 0);
  const lines = shown.filter((fieldId) => !isEmptyCell(values[fieldId])).length;
  return CARD_BASE + CARD_LINE * lines + (coverFieldId && coverFile(values[coverFieldId]) ? COVER_HEIGHT : 0);
}

/** What a key pressed on a focused card does. */
export type CardKeyAction =
  | { kind: 'focus'; column: number; index: number }
  /** Up or down a place in its column, or to the top of another column. */
  | { kind: 'move'; column: number; place: 'up' | 'down' | 'top' }
  | { kind: 'open' };

/**
 * The board's keys on a card at `at` (its column's place among the board's columns shown, its
 * index in the column): arrows move the focus (up and down the column; left and right to the
 * nearest column with cards, at the same height or its last card), Home and End to the column's
 * first and last card; Ctrl+Shift (⌘⇧) with an arrow moves the card a place up or down, or to the
 * top of the next column left or right; Enter opens it. `counts`: each column's cards, null for a
 * folded column (passed over). Null: not a board's key.
 */
export function cardKeyAction(
  event: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean },
  at: { column: number; index: number },
  counts: ReadonlyArray<number | null>,
  canMove: boolean,
): CardKeyAction | null {
  const { key } = event;
  const count = counts[at.column] ?? 0;
  const across = (step: number, takes: (n: number) => boolean) => {
    for (let column = at.column + step; column >= 0 && column < counts.length; column += step) {
      const n = counts[column];
      if (n !== null && n !== undefined && takes(n)) return column;
    }
    return -1;
  };
  if (event.altKey) return null;
  if ((event.ctrlKey || event.metaKey) && event.shiftKey) {
    if (!canMove) return null;
    if (key === 'ArrowUp') return at.index > 0 ? { kind: 'move', column: at.column, place: 'up' } : null;
    if (key === 'ArrowDown') return at.index < count - 1 ? { kind: 'move', column: at.column, place: 'down' } : null;
    if (key === 'ArrowLeft' || key === 'ArrowRight') {
      const column = across(key === 'ArrowLeft' ? -1 : 1, () => true);
      return column < 0 ? null : { kind: 'move', column, place: 'top' };
    }
    return null;
  }
  if (event.ctrlKey || event.metaKey || event.shiftKey) return null;
  switch (key) {
    case 'Enter':
      return { kind: 'open' };
    case 'ArrowUp':
      return at.index > 0 ? { kind: 'focus', column: at.column, index: at.index - 1 } : null;
    case 'ArrowDown':
      return at.index < count - 1 ? { kind: 'focus', column: at.column, index: at.index + 1 } : null;
    case 'Home':
      return { kind: 'focus', column: at.column, index: 0 };
    case 'End':
      return { kind: 'focus', column: at.column, index: Math.max(0, count - 1) };
    case 'ArrowLeft':
    case 'ArrowRight': {
      const column = across(key === 'ArrowLeft' ? -1 : 1, (n) => n > 0);
      return column < 0 ? null : { kind: 'focus', column, index: Math.min(at.index, (counts[column] ?? 1) - 1) };
    }
    default:
      return null;
  }
}
