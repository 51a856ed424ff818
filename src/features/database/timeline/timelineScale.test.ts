import type { RowValue } from '../../../../schema/blocks/database';
import {
  axisAround,
  axisGroups,
  axisTicks,
  barGeometry,
  cellsForDay,
  cellsFromBar,
  dayAt,
  dayNumber,
  dayOf,
  dayX,
  draggedSpan,
  isoWeek,
  MIN_BAR_WIDTH,
  ROW_HEIGHT,
  rowSpan,
  shiftPoint,
  snapDays,
  weekday,
  type Span,
  type TimelineFields,
} from './timelineScale';

const d = dayNumber;
const cells = (values: Record<string, RowValue>) => (fieldId: string) => values[fieldId];
const RANGE: TimelineFields = { startFieldId: 'when' };
const TWO: TimelineFields = { startFieldId: 'from', endFieldId: 'to' };

describe('days and spans', () => {
  test('day numbers go both ways; weekdays from Monday; ISO weeks', () => {
    expect(dayOf(d('2026-11-03'))).toBe('2026-11-03');
    expect(d('2026-11-04') - d('2026-11-03')).toBe(1);
    expect(d('2027-01-01') - d('2026-12-31')).toBe(1);
    expect(weekday(d('2026-11-02'))).toBe(0); // a Monday
    expect(weekday(d('2026-11-08'))).toBe(6);
    expect(isoWeek(d('2026-11-02'))).toBe(45);
    expect(isoWeek(d('2027-01-01'))).toBe(53); // a Friday: in 2026's last week
    expect(isoWeek(d('2027-01-04'))).toBe(1);
    expect(isoWeek(d('2025-12-29'))).toBe(1); // Monday of 2026's week 1
  });

  test("a row's bar: a day, a range, a moment; start and end fields; one end missing; none", () => {
    expect(rowSpan(RANGE, cells({ when: '2026-11-03' }))).toEqual({ start: d('2026-11-03'), end: d('2026-11-03') });
    expect(rowSpan(RANGE, cells({ when: { start: '2026-11-03', end: '2026-11-07' } }))).toEqual({ start: d('2026-11-03'), end: d('2026-11-07') });
    expect(rowSpan(RANGE, cells({ when: { start: '2026-11-03', end: null } }))).toEqual({ start: d('2026-11-03'), end: d('2026-11-03') });
    expect(rowSpan(RANGE, cells({ when: '2026-11-03T12:00:00Z' }))).toEqual({ start: d('2026-11-03'), end: d('2026-11-03') });
    expect(rowSpan(TWO, cells({ from: '2026-11-03', to: '2026-11-10' }))).toEqual({ start: d('2026-11-03'), end: d('2026-11-10') });
    // An end field holding a range ends at its range's end; an end missing, a start missing.
    expect(rowSpan(TWO, cells({ from: '2026-11-03', to: { start: '2026-11-08', end: '2026-11-12' } }))).toEqual({
      start: d('2026-11-03'),
      end: d('2026-11-12'),
    });
    expect(rowSpan(TWO, cells({ from: '2026-11-03' }))).toEqual({ start: d('2026-11-03'), end: d('2026-11-03') });
    expect(rowSpan(TWO, cells({ to: '2026-11-10' }))).toEqual({ start: d('2026-11-10'), end: d('2026-11-10') });
    // An end before the start: the start's day.
    expect(rowSpan(TWO, cells({ from: '2026-11-10', to: '2026-11-03' }))).toEqual({ start: d('2026-11-10'), end: d('2026-11-10') });
    expect([
      rowSpan(RANGE, cells({})),
      rowSpan(TWO, cells({ from: null })),
      rowSpan(RANGE, cells({ when: 'завтра' })),
      rowSpan(RANGE, cells({ when: 3 })),
    ]).toEqual([null, null, null, null]);
  });
});

describe('the axis', () => {
  test('day and week scales start on a Monday around today; month and quarter on a 1st of January', () => {
    const today = d('2026-11-26');
    for (const scale of ['day', 'week'] as const) {
      const axis = axisAround(scale, today);
      expect(weekday(axis.origin)).toBe(0);
      expect(axis.days % 7).toBe(0);
      expect(axis.origin).toBeLessThan(today - 300);
      expect(axis.origin + axis.days).toBeGreaterThan(today + 300);
    }
    const months = axisAround('month', today);
    expect(dayOf(months.origin)).toBe('2021-01-01');
    expect(dayOf(months.origin + months.days)).toBe('2032-01-01');
    expect(dayOf(axisAround('quarter', today).origin)).toBe('2016-01-01');
  });

  test('positions: a day to x and back; a drag snaps to whole days', () => {
    const axis = axisAround('day', d('2026-11-26'));
    expect(dayX(axis, axis.origin)).toBe(0);
    expect(dayX(axis, d('2026-11-26'))).toBe((d('2026-11-26') - axis.origin) * 36);
    expect(dayAt(axis, dayX(axis, d('2026-11-26')) + 35)).toBe(d('2026-11-26'));
    expect(dayAt(axis, dayX(axis, d('2026-11-26')) + 36)).toBe(d('2026-11-27'));
    expect([snapDays(axis, 17), snapDays(axis, 19), snapDays(axis, -19), snapDays(axis, 110), snapDays(axis, -5)]).toEqual([0, 1, -1, 3, 0]);
    const month = axisAround('month', d('2026-11-26'));
    expect(snapDays(month, 30)).toBe(8);
  });

  test('a bar: its lane from the row index, its left and width from its days (never thinner than a few pixels)', () => {
    const axis = axisAround('week', d('2026-11-26'));
    const span: Span = { start: d('2026-11-02'), end: d('2026-11-08') };
    const box = barGeometry(axis, 3, span);
    expect(box.x).toBe(dayX(axis, d('2026-11-02')));
    expect(box.width).toBe(7 * 18);
    expect(box.y).toBeGreaterThanOrEqual(3 * ROW_HEIGHT);
    expect(box.y + box.height).toBeLessThanOrEqual(4 * ROW_HEIGHT);
    expect(barGeometry(axisAround('quarter', d('2026-11-26')), 0, { start: span.start, end: span.start }).width).toBe(MIN_BAR_WIDTH);
  });

  test('ticks: days with their weekday, ISO weeks from Monday, months, quarters — in Russian', () => {
    const today = d('2026-11-26');
    const days = axisTicks(axisAround('day', today));
    const nov2 = days.find((tick) => tick.start === d('2026-11-02'))!;
    expect([nov2.label, nov2.sub, nov2.weekend]).toEqual(['2', 'пн', false]);
    expect(days.find((tick) => tick.start === d('2026-11-07'))).toMatchObject({ label: '7', sub: 'сб', weekend: true });
    expect(days.every((tick, i) => tick.start === days[0].start + i)).toBe(true);

    const weeks = axisTicks(axisAround('week', today));
    expect(weeks.find((tick) => tick.start === d('2026-11-02'))).toEqual({ start: d('2026-11-02'), days: 7, label: 'Н45', sub: '2–8' });
    expect(weeks.find((tick) => tick.start === d('2026-11-30'))!.sub).toBe('30 нояб – 6');
    expect(weeks.every((tick) => weekday(tick.start) === 0 && tick.days === 7)).toBe(true);

    const months = axisTicks(axisAround('month', today));
    expect(months.slice(0, 3).map((tick) => [dayOf(tick.start), tick.days, tick.label])).toEqual([
      ['2021-01-01', 31, 'январь'],
      ['2021-02-01', 28, 'февраль'],
      ['2021-03-01', 31, 'март'],
    ]);
    expect(months).toHaveLength(11 * 12);
    const quarters = axisTicks(axisAround('quarter', today), (roman) => `${roman} квартал`);
    expect(quarters.slice(0, 4).map((tick) => [dayOf(tick.start), tick.label])).toEqual([
      ['2016-01-01', 'I квартал'],
      ['2016-04-01', 'II квартал'],
      ['2016-07-01', 'III квартал'],
      ['2016-10-01', 'IV квартал'],
    ]);
  });

  test("the header's months (days, weeks) and years (months, quarters): only those on screen", () => {
    const today = d('2026-11-26');
    const days = axisAround('day', today);
    expect(axisGroups(days, d('2026-11-20'), d('2026-12-10')).map((g) => [dayOf(g.start), g.days, g.label])).toEqual([
      ['2026-11-01', 30, 'ноябрь 2026'],
      ['2026-12-01', 31, 'декабрь 2026'],
    ]);
    expect(axisGroups(axisAround('quarter', today), d('2026-05-01'), d('2027-02-01')).map((g) => g.label)).toEqual(['2026', '2027']);
    // Clipped at the axis's ends.
    expect(axisGroups(days, days.origin - 100, days.origin + 3)[0].start).toBe(days.origin);
  });
});

describe('a dragged bar as the cells to write', () => {
  const day = (text: string) => d(text);
  const span = (a: string, b = a): Span => ({ start: day(a), end: day(b) });
  const drag = (fields: TimelineFields, values: Record<string, RowValue>, mode: 'move' | 'start' | 'end', days: number) => {
    const from = rowSpan(fields, cells(values))!;
    return cellsFromBar(fields, cells(values), from, draggedSpan(from, mode, days));
  };

  test('the span of a move keeps its length; a resize never passes the other end', () => {
    expect(draggedSpan(span('2026-11-03', '2026-11-05'), 'move', 4)).toEqual(span('2026-11-07', '2026-11-09'));
    expect(draggedSpan(span('2026-11-03', '2026-11-05'), 'end', -5)).toEqual(span('2026-11-03', '2026-11-03'));
    expect(draggedSpan(span('2026-11-03', '2026-11-05'), 'start', 9)).toEqual(span('2026-11-05', '2026-11-05'));
    expect(draggedSpan(span('2026-11-03', '2026-11-05'), 'start', -2)).toEqual(span('2026-11-01', '2026-11-05'));
  });

  test('a range field: one cell; a day moved stays a day, stretched becomes a range, a range shrunk to a day becomes the day', () => {
    expect(drag(RANGE, { when: '2026-11-03' }, 'move', 2)).toEqual([{ fieldId: 'when', value: '2026-11-05' }]);
    expect(drag(RANGE, { when: '2026-11-03' }, 'end', 2)).toEqual([{ fieldId: 'when', value: { start: '2026-11-03', end: '2026-11-05' } }]);
    expect(drag(RANGE, { when: '2026-11-03' }, 'start', -1)).toEqual([{ fieldId: 'when', value: { start: '2026-11-02', end: '2026-11-03' } }]);
    expect(drag(RANGE, { when: { start: '2026-11-03', end: '2026-11-06' } }, 'move', 30)).toEqual([
      { fieldId: 'when', value: { start: '2026-12-03', end: '2026-12-06' } },
    ]);
    expect(drag(RANGE, { when: { start: '2026-11-03', end: '2026-11-06' } }, 'end', -3)).toEqual([{ fieldId: 'when', value: '2026-11-03' }]);
    expect(drag(RANGE, { when: { start: '2026-11-03', end: '2026-11-06' } }, 'start', 1)).toEqual([
      { fieldId: 'when', value: { start: '2026-11-04', end: '2026-11-06' } },
    ]);
    // Open-ended: moved it stays so; stretched it gets an end. A range of one day stays a range.
    expect(drag(RANGE, { when: { start: '2026-11-03', end: null } }, 'move', 1)).toEqual([{ fieldId: 'when', value: { start: '2026-11-04', end: null } }]);
    expect(drag(RANGE, { when: { start: '2026-11-03', end: null } }, 'end', 1)).toEqual([
      { fieldId: 'when', value: { start: '2026-11-03', end: '2026-11-04' } },
    ]);
    expect(drag(RANGE, { when: { start: '2026-11-03', end: '2026-11-03' } }, 'move', 1)).toEqual([
      { fieldId: 'when', value: { start: '2026-11-04', end: '2026-11-04' } },
    ]);
    // Moments keep their time and offset.
    expect(drag(RANGE, { when: '2026-11-03T10:30:00+03:00' }, 'move', 2)).toEqual([{ fieldId: 'when', value: '2026-11-05T10:30:00+03:00' }]);
    expect(drag(RANGE, { when: { start: '2026-11-03T09:00:00Z', end: '2026-11-04T18:00:00Z' } }, 'end', 1)).toEqual([
      { fieldId: 'when', value: { start: '2026-11-03T09:00:00Z', end: '2026-11-05T18:00:00Z' } },
    ]);
    // No move, nothing to write.
    expect(drag(RANGE, { when: '2026-11-03' }, 'move', 0)).toEqual([]);
  });

  test('start and end fields: a move writes both, a resize the end it moved; an empty end is given its day', () => {
    expect(drag(TWO, { from: '2026-11-03', to: '2026-11-06' }, 'move', -2)).toEqual([
      { fieldId: 'from', value: '2026-11-01' },
      { fieldId: 'to', value: '2026-11-04' },
    ]);
    expect(drag(TWO, { from: '2026-11-03', to: '2026-11-06' }, 'end', 3)).toEqual([{ fieldId: 'to', value: '2026-11-09' }]);
    expect(drag(TWO, { from: '2026-11-03', to: '2026-11-06' }, 'start', 1)).toEqual([{ fieldId: 'from', value: '2026-11-04' }]);
    // A day alone (no end): moved, it stays alone; stretched, the end field gets the new last day.
    expect(drag(TWO, { from: '2026-11-03' }, 'move', 5)).toEqual([{ fieldId: 'from', value: '2026-11-08' }]);
    expect(drag(TWO, { from: '2026-11-03' }, 'end', 2)).toEqual([{ fieldId: 'to', value: '2026-11-05' }]);
    // A start field holding a range moves whole; an end field's range keeps its shape; moments their times.
    expect(drag(TWO, { from: { start: '2026-11-03', end: '2026-11-04' }, to: { start: '2026-11-09', end: '2026-11-10' } }, 'move', 1)).toEqual([
      { fieldId: 'from', value: { start: '2026-11-04', end: '2026-11-05' } },
      { fieldId: 'to', value: { start: '2026-11-10', end: '2026-11-11' } },
    ]);
    expect(drag(TWO, { from: '2026-11-03T08:00:00Z', to: '2026-11-05T17:00:00Z' }, 'end', 1)).toEqual([{ fieldId: 'to', value: '2026-11-06T17:00:00Z' }]);
    // An end before its start (drawn at the start): stretched, the end lands on the bar's new end.
    expect(drag(TWO, { from: '2026-11-10', to: '2026-11-03' }, 'end', 2)).toEqual([{ fieldId: 'to', value: '2026-11-12' }]);
  });

  test('a day given to a row without dates: start = end = that day', () => {
    expect(cellsForDay(RANGE, d('2026-11-03'))).toEqual([{ fieldId: 'when', value: '2026-11-03' }]);
    expect(cellsForDay(TWO, d('2026-11-03'))).toEqual([
      { fieldId: 'from', value: '2026-11-03' },
      { fieldId: 'to', value: '2026-11-03' },
    ]);
  });

  test('a point moved by days: a day, a moment with its offset, across months and years', () => {
    expect(shiftPoint('2026-12-30', 3)).toBe('2027-01-02');
    expect(shiftPoint('2026-03-01', -1)).toBe('2026-02-28');
    expect(shiftPoint('2026-12-31T23:30:00-05:00', 1)).toBe('2027-01-01T23:30:00-05:00');
    expect(shiftPoint('2026-11-03', 0)).toBe('2026-11-03');
  });
});
