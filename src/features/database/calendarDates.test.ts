import { dayString, eventTimes, readRange, valueFromEvent } from './calendarDates';

const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

describe('a date cell as an event', () => {
  test('a day, a range of days (exclusive end), a moment, a range of moments', () => {
    expect(eventTimes('2026-11-03')).toEqual({ start: '2026-11-03', allDay: true });
    expect(eventTimes({ start: '2026-11-03', end: '2026-11-05' })).toEqual({ start: '2026-11-03', end: '2026-11-06', allDay: true });
    expect(eventTimes({ start: '2026-11-30', end: '2026-12-01' })).toEqual({ start: '2026-11-30', end: '2026-12-02', allDay: true });
    expect(eventTimes({ start: '2026-11-03', end: null })).toEqual({ start: '2026-11-03', allDay: true });
    expect(eventTimes('2026-11-03T10:00:00Z')).toEqual({ start: '2026-11-03T10:00:00Z', allDay: false });
    expect(eventTimes({ start: '2026-11-03T10:00:00Z', end: '2026-11-03T12:30:00Z' })).toEqual({ start: '2026-11-03T10:00:00Z', end: '2026-11-03T12:30:00Z', allDay: false });
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
    expect(valueFromEvent(local(2026, 11, 29), local(2026, 12, 3), true, { start: '2026-11-01', end: '2026-11-04' })).toEqual({ start: '2026-11-29', end: '2026-12-02' });
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
