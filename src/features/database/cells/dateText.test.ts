import { dateText, daysInMonth, readDateText, storedDate, type DateProblem, type ReadDate } from './dateText';

/** Issue 34 §2: a date typed the Russian way, whatever the browser's language (the date editor's parser). */

const today = '2026-06-15';
const day = (value: string, time: string | null = null): ReadDate => ({ day: value, time });
const refused = (problem: DateProblem): ReadDate => ({ problem });

describe('readDateText', () => {
  const withoutTime: Array<[string, ReadDate | null]> = [
    // The text that saved 0026-11-22 with the browser's input.
    ['01.12.2026', day('2026-12-01')],
    ['1.12.2026', day('2026-12-01')],
    ['1.2.2026', day('2026-02-01')],
    ['  01.12.2026  ', day('2026-12-01')],
    ['01/12/2026', day('2026-12-01')],
    ['01-12-2026', day('2026-12-01')],
    ['01 12 2026', day('2026-12-01')],
    ['1. 12. 2026', day('2026-12-01')],
    ['01.12.26', day('2026-12-01')],
    ['1.12.99', day('2099-12-01')],
    ['1.12', day('2026-12-01')],
    ['1.12.', day('2026-12-01')],
    ['29.02', refused('noSuchDay')],
    ['01122026', day('2026-12-01')],
    ['20261201', day('2026-12-01')],
    ['20122026', day('2026-12-20')],
    ['011226', day('2026-12-01')],
    ['2026-12-01', day('2026-12-01')],
    ['2026/12/1', day('2026-12-01')],
    ['2026.12.01', day('2026-12-01')],
    ['сегодня', day('2026-06-15')],
    ['Сегодня', day('2026-06-15')],
    ['завтра', day('2026-06-16')],
    ['вчера', day('2026-06-14')],
    ['послезавтра', day('2026-06-17')],
    ['позавчера', day('2026-06-13')],
    ['29.02.2028', day('2028-02-29')],
    ['31.12.2026', day('2026-12-31')],
    ['', null],
    ['   ', null],
    // Impossible dates: refused, with why.
    ['31.02.2026', refused('noSuchDay')],
    ['29.02.2027', refused('noSuchDay')],
    ['31.04.2026', refused('noSuchDay')],
    ['32.01', refused('noSuchDay')],
    ['0.01.2026', refused('noSuchDay')],
    ['01.13.2026', refused('noSuchMonth')],
    ['01.00.2026', refused('noSuchMonth')],
    ['2026-13-01', refused('noSuchMonth')],
    ['31022026', refused('noSuchDay')],
    ['01.12.0026', refused('unreadable')],
    ['01.12.202', refused('unreadable')],
    ['около 12', refused('unreadable')],
    ['12', refused('unreadable')],
    ['1234567', refused('unreadable')],
    ['послепослезавтра', refused('unreadable')],
    ['1..12', refused('unreadable')],
    // A time where the field has none: said, not dropped.
    ['01.12.2026 14:30', refused('noTime')],
    ['01.12.2026 25:00', refused('noSuchTime')],
  ];
  test.each(withoutTime)('%j (a day field) → %j', (text, expected) => {
    expect(readDateText(text, { withTime: false, today })).toEqual(expected);
  });

  const withTime: Array<[string, ReadDate | null]> = [
    ['01.12.2026 14:30', day('2026-12-01', '14:30')],
    ['1.12.2026 9:05', day('2026-12-01', '09:05')],
    ['01.12.2026, 14:30', day('2026-12-01', '14:30')],
    ['1.12 0:00', day('2026-12-01', '00:00')],
    ['01122026 23:59', day('2026-12-01', '23:59')],
    ['2026-12-01T14:30', day('2026-12-01', '14:30')],
    ['2026-12-01 14:30', day('2026-12-01', '14:30')],
    ['завтра 9:05', day('2026-06-16', '09:05')],
    ['завтра в 9:05', day('2026-06-16', '09:05')],
    ['14:30', day('2026-06-15', '14:30')],
    // A day alone is kept a day (no time made up).
    ['01.12.2026', day('2026-12-01')],
    ['01.12.2026 25:00', refused('noSuchTime')],
    ['01.12.2026 14:60', refused('noSuchTime')],
    ['31.02.2026 14:30', refused('noSuchDay')],
    ['01.12.2026 14:3', refused('unreadable')],
    ['01.12.2026 14', refused('unreadable')],
  ];
  test.each(withTime)('%j (a field with time) → %j', (text, expected) => {
    expect(readDateText(text, { withTime: true, today })).toEqual(expected);
  });

  test('a value as stored reads as itself: a day; a moment as its local day and time', () => {
    expect(readDateText('2026-12-01', { withTime: true, today })).toEqual(day('2026-12-01'));
    const moment = new Date(2026, 11, 1, 14, 30).toISOString();
    expect(readDateText(moment, { withTime: true, today })).toEqual(day('2026-12-01', '14:30'));
    expect(readDateText(moment, { withTime: false, today })).toEqual(refused('noTime'));
  });

  test('«1.12» and «сегодня» are read against the day given (the person’s local day)', () => {
    expect(readDateText('1.12', { withTime: false, today: '2031-01-01' })).toEqual(day('2031-12-01'));
    expect(readDateText('завтра', { withTime: false, today: '2026-12-31' })).toEqual(day('2027-01-01'));
    expect(readDateText('вчера', { withTime: false, today: '2028-03-01' })).toEqual(day('2028-02-29'));
  });
});

test('storedDate: a day alone; a local moment as ISO in UTC; dateText shows both back as typed', () => {
  expect(storedDate('2026-12-01', null)).toBe('2026-12-01');
  const stored = storedDate('2026-12-01', '14:30');
  expect(stored).toBe(new Date(2026, 11, 1, 14, 30).toISOString().replace('.000Z', 'Z'));
  expect(dateText(stored)).toBe('01.12.2026 14:30');
  expect(dateText('2026-12-01')).toBe('01.12.2026');
  expect(dateText(null)).toBe('');
  expect(dateText('garbage')).toBe('');
  for (const text of ['01.12.2026', '29.02.2028']) {
    const read = readDateText(text, { withTime: false, today }) as { day: string; time: null };
    expect(dateText(storedDate(read.day, read.time))).toBe(text);
  }
});

test('daysInMonth', () => {
  expect([1, 2, 3, 4, 12].map((m) => daysInMonth(2026, m))).toEqual([31, 28, 31, 30, 31]);
  expect(daysInMonth(2028, 2)).toBe(29);
  expect(daysInMonth(2100, 2)).toBe(28);
});
