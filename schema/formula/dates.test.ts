import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { fromWall, offsetAt } from './dates';

dayjs.extend(utc);
dayjs.extend(timezone);

/*
 * The fast zone arithmetic (dates.ts «Speed») against dayjs's own, over four years every 13 hours,
 * in zones with changes of offset at odd hours and offsets of half and three quarters of an hour.
 */
const ZONES = [
  'Europe/Moscow',
  'Europe/Berlin',
  'America/New_York',
  'Asia/Kolkata',
  'Pacific/Auckland',
  'Australia/Lord_Howe',
  'America/St_Johns',
  'Asia/Kathmandu',
  'UTC',
];
const FROM = Date.UTC(2024, 0, 1);
const TO = Date.UTC(2028, 0, 1);
const STEP = 13 * 3_600_000 + 17 * 60_000;

test.each(ZONES)('%s: the offset is what the zone database says, and a wall clock reads back to its moment', (zone) => {
  const wrong: string[] = [];
  for (let ms = FROM; ms < TO; ms += STEP) {
    const expected = dayjs(ms).tz(zone).utcOffset() * 60_000;
    const got = offsetAt(ms, zone);
    if (got !== expected) wrong.push(`${new Date(ms).toISOString()}: ${got} ≠ ${expected}`);
    const wall = dayjs.utc(ms + got).format('YYYY-MM-DDTHH:mm:ss.SSS');
    const back = fromWall(wall, zone);
    // A wall time that happens twice reads back as the later moment: the same wall clock, at most the change later.
    if (back !== ms && !(back > ms && back - ms <= 3_600_000 && offsetAt(back, zone) + back === ms + got))
      wrong.push(`${wall}: back at ${new Date(back).toISOString()}`);
  }
  expect(wrong.slice(0, 5)).toEqual([]);
});

test('offsets far from now: before 1970, in year 50, and milliseconds before a second', () => {
  expect(offsetAt(Date.UTC(1961, 3, 12, 6, 7), 'Europe/Moscow')).toBe(3 * 3_600_000);
  expect(offsetAt(Date.UTC(2026, 11, 4, 9, 30, 15, 999), 'Asia/Kolkata')).toBe(5.5 * 3_600_000);
  const year50 = new Date(0);
  year50.setUTCFullYear(50, 5, 1);
  expect(offsetAt(year50.getTime(), 'UTC')).toBe(0);
});
