import * as ru from 'chrono-node/ru';
import { dateLabel, dateSuggestions, loadDateParser, reminderInstant } from './dateMentions';

// Sunday, 6 December 2026, 10:00 on this clock (the tests' zone is the machine's: days and times are read on it).
const now = new Date(2026, 11, 6, 10, 0);
const starts = (query: string) => dateSuggestions(query, now, ru).map((s) => `${s.kind} ${s.date.start}`);

describe('date mentions typed after @', () => {
  test('relative days, weekdays (the coming one; today counts), dates and times', () => {
    // At 10:00 a reminder for today (at 9:00) is past: not offered.
    expect(starts('сегодня')).toEqual(['date 2026-12-06']);
    expect(starts('сегодня 18:30')).toEqual(['date 2026-12-06T18:30', 'reminder 2026-12-06T18:30']);
    expect(starts('Завтра')).toEqual(['date 2026-12-07', 'reminder 2026-12-07T09:00']);
    expect(starts('послезавтра')).toEqual(['date 2026-12-08', 'reminder 2026-12-08T09:00']);
    // Past: a date, no reminder.
    expect(starts('вчера')).toEqual(['date 2026-12-05']);
    expect(starts('пятница')).toEqual(['date 2026-12-11', 'reminder 2026-12-11T09:00']);
    expect(starts('воскресенье')).toEqual(['date 2026-12-06']);
    expect(starts('пятница 15:00')).toEqual(['date 2026-12-11T15:00', 'reminder 2026-12-11T15:00']);
    expect(starts('1 декабря')).toEqual(['date 2026-12-01']);
    expect(starts('10 января 2027 9:30')).toEqual(['date 2027-01-10T09:30', 'reminder 2027-01-10T09:30']);
    expect(starts('сегодня 9:00')).toEqual(['date 2026-12-06T09:00']);
  });

  test('«напомнить» offers the reminder alone; a day without a time reminds at 9:00', () => {
    const [reminder] = dateSuggestions('напомнить завтра', now, ru);
    expect(reminder).toEqual({
      kind: 'reminder',
      label: '7 декабря 2026, 09:00',
      date: { start: '2026-12-07T09:00', remindAt: new Date(2026, 11, 7, 9, 0).toISOString() },
    });
    expect(starts('напомни пятница 15:00')).toEqual(['reminder 2026-12-11T15:00']);
    expect(reminderInstant('2026-12-11T15:00')).toEqual(new Date(2026, 11, 11, 15, 0));
  });

  test('the first letters of a word are completed; a page title is not a date', () => {
    expect(starts('за')).toEqual(['date 2026-12-07', 'reminder 2026-12-07T09:00']);
    expect(starts('пят')).toEqual(['date 2026-12-11', 'reminder 2026-12-11T09:00']);
    expect(starts('з')).toEqual([]);
    expect(starts('Завтрак с командой')).toEqual([]);
    expect(starts('Планы')).toEqual([]);
    expect(starts('')).toEqual([]);
    // Not loaded yet: nothing.
    expect(dateSuggestions('завтра', now, null)).toEqual([]);
  });

  test('labels: the day, month and year in Russian, the time after a comma', () => {
    expect(dateLabel('2026-12-11')).toBe('11 декабря 2026');
    expect(dateLabel('2027-01-01T09:05')).toBe('1 января 2027, 09:05');
  });

  test('the parser loads once, on demand', async () => {
    const [a, b] = await Promise.all([loadDateParser(), loadDateParser()]);
    expect(a).toBe(b);
    expect(dateSuggestions('завтра', now)).toHaveLength(2);
  });
});
