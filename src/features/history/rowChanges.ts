import type { RowValue } from '../../../schema/blocks/database';
import type { WireCellChange, WirePageVersion } from '../../../schema/history';
import { displayText } from '../database/fields/format';

/** The history list of a row's page: its body's versions and its property changes, newest first (docs/history.md). */
export type HistoryItem = { kind: 'version'; at: string; version: WirePageVersion } | { kind: 'change'; at: string; change: WireCellChange };

/** Versions and property changes interleaved by time, newest first (a change's time is its last one). */
export function historyItems(versions: readonly WirePageVersion[], changes: readonly WireCellChange[]): HistoryItem[] {
  const items: HistoryItem[] = [
    ...versions.map((version) => ({ kind: 'version' as const, at: version.createdAt, version })),
    ...changes.map((change) => ({ kind: 'change' as const, at: change.at, change })),
  ];
  return items.sort((a, b) => (a.at === b.at ? 0 : a.at < b.at ? 1 : -1));
}

/** Changes newest first, each once (the newer copy kept: a burst's entry grows). */
export function mergeChanges(...lists: ReadonlyArray<readonly WireCellChange[]>): WireCellChange[] {
  const byId = new Map<number, WireCellChange>();
  for (const list of lists) for (const change of list) byId.set(change.id, change);
  return [...byId.values()].sort((a, b) => b.id - a.id);
}

/** What an empty value shows as. */
export const EMPTY_VALUE = '—';

/**
 * A changed value as the grid shows it: numbers and dates formatted by the field (when its type
 * is still the one the change was made in), the rest as the server wrote it (options by name,
 * people by the names the caller may see, relations by title).
 */
export function changeValueText(change: WireCellChange, which: 'from' | 'to'): string {
  const value: RowValue = change[which];
  const text = which === 'from' ? change.fromText : change.toText;
  const formatted = change.restorable && (change.field.type === 'number' || change.field.type === 'date') ? displayText(change.field, value) : text;
  return formatted || EMPTY_VALUE;
}

const TIME = new Intl.DateTimeFormat('ru', { hour: '2-digit', minute: '2-digit' });
const TIME_SECONDS = new Intl.DateTimeFormat('ru', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const DAY = new Intl.DateTimeFormat('ru', { day: 'numeric', month: 'long' });
const DAY_YEAR = new Intl.DateTimeFormat('ru', { day: 'numeric', month: 'long', year: 'numeric' });

/** A heading over a day's items in the list: «Сегодня» / «Вчера» (`relative`), else the date. */
export type DayHeading = { kind: 'day'; key: string; relative: 'today' | 'yesterday' | null; date: string };

/** The local day of a time, as a key («2026-12-03»). */
const dayKey = (when: Date) => `${when.getFullYear()}-${when.getMonth() + 1}-${when.getDate()}`;
/** The local minute of a time, as a key. */
const minuteKey = (when: Date) => `${dayKey(when)} ${when.getHours()}:${when.getMinutes()}`;

/** Today, yesterday, or the date: «1 декабря», «1 декабря 2025 г.» in another year. */
export function dayHeading(when: Date, now = new Date()): DayHeading {
  const key = dayKey(when);
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  const relative = key === dayKey(now) ? 'today' : key === dayKey(yesterday) ? 'yesterday' : null;
  return { kind: 'day', key, relative, date: (when.getFullYear() === now.getFullYear() ? DAY : DAY_YEAR).format(when) };
}

/** The items with a heading before each day's first one (newest first, as they come). */
export function withDays(items: readonly HistoryItem[], now = new Date()): Array<HistoryItem | DayHeading> {
  const out: Array<HistoryItem | DayHeading> = [];
  let last: string | null = null;
  for (const item of items) {
    const heading = dayHeading(new Date(item.at), now);
    if (heading.key !== last) out.push(heading);
    last = heading.key;
    out.push(item);
  }
  return out;
}

/**
 * An item's time under its day's heading: «12:04», with its seconds («12:04:31») when another item
 * of the list falls in the same minute (two saves a few seconds apart are told apart).
 */
export function itemTimes(items: readonly HistoryItem[]): (at: string) => string {
  const perMinute = new Map<string, number>();
  for (const item of items) {
    const key = minuteKey(new Date(item.at));
    perMinute.set(key, (perMinute.get(key) ?? 0) + 1);
  }
  return (at) => {
    const when = new Date(at);
    return ((perMinute.get(minuteKey(when)) ?? 0) > 1 ? TIME_SECONDS : TIME).format(when);
  };
}
