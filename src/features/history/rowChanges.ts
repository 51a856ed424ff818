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
const DAY_TIME = new Intl.DateTimeFormat('ru', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });

/** «12:04» today, «1 декабря, 12:04» before. */
export function changeTime(at: string, now = new Date()): string {
  const when = new Date(at);
  return when.toDateString() === now.toDateString() ? TIME.format(when) : DAY_TIME.format(when);
}
