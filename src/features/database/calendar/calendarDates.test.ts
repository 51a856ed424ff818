import { dayString } from '../cells/dateText';
import { eventTimes, fitDays, readRange, valueFromEvent } from './calendarDates';

const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

describe('a date cell as an event', () => {
  test('a day, a range of days (exclusive end), a moment, a range of moments', () => {
    expect(eventTimes('2026-11-03')).toEqual({ start: '2026-11-03', allDay: true });
    expect(eventTimes({ start: '2026-11-03', end: '2026-11-05' })).toEqual({ start: '2026-11-03', end: '2026-11-06', allDay: true });
    expect(eventTimes({ start: '2026-11-30', end: '2026-12-01' })).toEqual({ start: '2026-11-30', end: '2026-12-02', allDay: true });
    expect(eventTimes({ start: '2026-11-03', end: null })).toEqual({ start: '2026-11-03', allDay: true });
    expect(eventTimes('2026-11-03T10:00:00Z')).toEqual({ start: '2026-11-03T10:00:00Z', allDay: false });
    expect(eventTimes({ start: '2026-11-03T10:00:00Z', end: '2026-11-03T12:30:00Z' })).toEqual({
      start: '2026-11-03T10:00:00Z',
      end: '2026-11-03T12:30:00Z',
      allDay: false,
    });
  });

  test('no date, or an end before the start: no event or no end', () => {
    expect([eventTimes(null), eventTimes(undefined), eventTimes(''), eventTimes(3), eventTimes(['a'])]).toEqual([null, null, null, null, null]);
    expect(eventTimes({ start: '2026-11-05', end: '2026-11-03' })).toEqual({ start: '2026-11-05', allDay: true });
    expect(eventTimes({ start: '2026-11-03T12:00:00Z', end: '2026-11-03T10:00:00Z' })).toEqual({ start: '2026-11-03T12:00:00Z', allDay: false });
  });
});

describe('an event moved or resized as a value', () => {
  test('a day moved stays a day; stretched over days becomes a range; a range moved stays one', () => {
    expect(valueFromEvent(local(2026, 11, 10), null, true, '2026-11-03')).toBe('2026-11-10');
    expect(valueFromEvent(local(2026, 11, 10), local(2026, 11, 13), true, '2026-11-03')).toEqual({ start: '2026-11-10', end: '2026-11-12' });
    expect(valueFromEvent(local(2026, 11, 29), local(2026, 12, 3), true, { start: '2026-11-01', end: '2026-11-04' })).toEqual({
      start: '2026-11-29',
      end: '2026-12-02',
    });
    // A range shrunk to one day is that day; one without an end keeps having none.
    expect(valueFromEvent(local(2026, 11, 10), local(2026, 11, 11), true, { start: '2026-11-01', end: '2026-11-04' })).toBe('2026-11-10');
    expect(valueFromEvent(local(2026, 11, 10), null, true, { start: '2026-11-01', end: null })).toEqual({ start: '2026-11-10', end: null });
  });

  test('on the hours: a moment, or a range when it has an end', () => {
    const at = local(2026, 11, 10, 9, 30);
    expect(valueFromEvent(at, null, false, '2026-11-03')).toBe(at.toISOString());
    const until = local(2026, 11, 10, 11);
    expect(valueFromEvent(at, until, false, '2026-11-03T08:00:00Z')).toEqual({ start: at.toISOString(), end: until.toISOString() });
    expect(valueFromEvent(at, null, false, { start: '2026-11-03T08:00:00Z', end: null })).toEqual({ start: at.toISOString(), end: null });
  });
});

test('the days read for a month on screen: a day more on each side', () => {
  expect(readRange(local(2026, 10, 26), local(2026, 12, 7))).toEqual({ from: '2026-10-25', to: '2026-12-08' });
  expect(dayString(local(2026, 1, 5, 23, 59))).toBe('2026-01-05');
});

describe('a full day: what is drawn and what is counted as «+N»', () => {
  const item = (id: string, start: string, end?: string, allDay = true) => ({ id, title: id, start, ...(end ? { end } : {}), allDay });

  test('at most `perDay` a day, the earlier and longer first; the rest hidden on each of their days', () => {
    const items = [item('d', '2026-11-03'), item('a', '2026-11-02', '2026-11-05'), item('b', '2026-11-03'), item('c', '2026-11-03'), item('e', '2026-11-04')];
    const { shown, hidden } = fitDays(items, 2);
    expect(shown.map((i) => i.id)).toEqual(['a', 'b', 'e']);
    expect(Object.fromEntries(hidden)).toEqual({ '2026-11-03': ['c', 'd'] });
  });

  test('a range that does not fit is hidden on every day it spans; no day holds more than `perDay` drawn', () => {
    const items = [item('x', '2026-11-10'), item('y', '2026-11-11'), item('long', '2026-11-09', '2026-11-13'), item('first', '2026-11-09', '2026-11-12')];
    const { shown, hidden } = fitDays(items, 1);
    expect(shown.map((i) => i.id)).toEqual(['long']);
    expect(Object.fromEntries(hidden)).toEqual({ '2026-11-09': ['first'], '2026-11-10': ['first', 'x'], '2026-11-11': ['first', 'y'] });
  });

  test('2,000 items in a month draw at most perDay × days', () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      item(
        `i${i}`,
        `2026-11-${String(1 + (i % 30)).padStart(2, '0')}`,
        i % 5 === 0 ? `2026-11-${String(Math.min(31, 3 + (i % 30))).padStart(2, '0')}` : undefined,
      ),
    );
    const { shown, hidden } = fitDays(many, 3);
    expect(shown.length).toBeLessThanOrEqual(90);
    const perDay = new Map<string, number>();
    for (const s of shown) {
      const end = s.end ?? dayString(new Date(new Date(`${s.start}T00:00:00`).getTime() + 86_400_000));
      for (let d = new Date(`${s.start}T00:00:00`); dayString(d) < end; d.setDate(d.getDate() + 1))
        perDay.set(dayString(d), (perDay.get(dayString(d)) ?? 0) + 1);
    }
    expect(Math.max(...perDay.values())).toBeLessThanOrEqual(3);
    expect(shown.length + new Set([...hidden.values()].flat()).size).toBe(2000);
  });

  test('a timed item is on its local day', () => {
    const at = new Date(2026, 10, 3, 23, 30);
    const { shown, hidden } = fitDays(
      [item('t1', at.toISOString(), undefined, false), item('t2', new Date(2026, 10, 3, 9).toISOString(), undefined, false)],
      1,
    );
    expect(shown.map((i) => i.id)).toEqual(['t2']);
    expect(Object.fromEntries(hidden)).toEqual({ '2026-11-03': ['t1'] });
  });
});
