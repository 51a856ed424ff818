import type { WirePageVersion } from '../../../schema/history';
import { dayHeading, historyItems, itemTimes, withDays } from './rowChanges';

const version = (id: number, createdAt: string) => ({ id, createdAt }) as unknown as WirePageVersion;
const local = (y: number, m: number, d: number, h: number, min: number, s = 0) => new Date(y, m - 1, d, h, min, s).toISOString();

describe('the history list: days and times', () => {
  const now = new Date(2026, 11, 3, 18, 0);

  it('a heading before each day: «today», «yesterday», a date, a date with its year in another year', () => {
    const items = historyItems(
      [
        version(5, local(2026, 12, 3, 17, 0)),
        version(4, local(2026, 12, 3, 9, 30)),
        version(3, local(2026, 12, 2, 23, 59)),
        version(2, local(2026, 11, 20, 12, 0)),
        version(1, local(2025, 11, 20, 12, 0)),
      ],
      [],
    );
    const rows = withDays(items, now).map((row) => (row.kind === 'day' ? `# ${row.relative ?? row.date}` : row.at));
    const lastYear = dayHeading(new Date(items[4].at), now);
    expect(rows).toEqual(['# today', items[0].at, items[1].at, '# yesterday', items[2].at, '# 20 ноября', items[3].at, `# ${lastYear.date}`, items[4].at]);
    expect(lastYear.date).toMatch(/^20 ноября 2025/);
  });

  it('a time shows its seconds only when another item shares its minute', () => {
    const items = historyItems(
      [version(3, local(2026, 12, 3, 12, 4, 31)), version(2, local(2026, 12, 3, 12, 4, 5)), version(1, local(2026, 12, 3, 11, 0, 12))],
      [],
    );
    const timeOf = itemTimes(items);
    expect(items.map((item) => timeOf(item.at))).toEqual(['12:04:31', '12:04:05', '11:00']);
  });
});
