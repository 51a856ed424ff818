import { nowAfter, timeAfter } from './time';

describe('timeAfter', () => {
  it('keeps a later now, and otherwise goes one millisecond past the last stamp', () => {
    expect(timeAfter('2026-01-01T00:00:00.005Z', '2026-01-01T00:00:00.004Z')).toBe('2026-01-01T00:00:00.005Z');
    expect(timeAfter('2026-01-01T00:00:00.004Z', '2026-01-01T00:00:00.004Z')).toBe('2026-01-01T00:00:00.005Z');
    expect(timeAfter('2026-01-01T00:00:00.004Z', '2026-01-01T00:00:01.000Z')).toBe('2026-01-01T00:00:01.001Z');
    expect(timeAfter('2026-01-01T00:00:00.004Z', null)).toBe('2026-01-01T00:00:00.004Z');
  });

  it('nowAfter is strictly later than a stamp in the future', () => {
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(nowAfter(future) > future).toBe(true);
  });
});
