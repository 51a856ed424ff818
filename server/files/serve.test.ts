import { requestedRange } from './serve';

/** RFC 9110 §14: what a Range header asks of a file of `size` bytes. */
describe('requestedRange', () => {
  const size = 1000;

  test('one range: first-last, from a byte to the end, the last n bytes; the end is cut to the last byte', () => {
    expect(requestedRange('bytes=0-99', size)).toEqual({ start: 0, end: 99 });
    expect(requestedRange('bytes=500-500', size)).toEqual({ start: 500, end: 500 });
    expect(requestedRange('bytes=900-', size)).toEqual({ start: 900, end: 999 });
    expect(requestedRange('bytes=-100', size)).toEqual({ start: 900, end: 999 });
    expect(requestedRange('bytes=990-5000', size)).toEqual({ start: 990, end: 999 });
    expect(requestedRange('bytes=-5000', size)).toEqual({ start: 0, end: 999 });
    expect(requestedRange('bytes=0-99999999999999999999999', size)).toEqual({ start: 0, end: 999 });
    expect(requestedRange('bytes= 0-1', size)).toEqual({ start: 0, end: 1 });
  });

  test('past the end, or no bytes at all: unsatisfiable (416)', () => {
    expect(requestedRange('bytes=1000-', size)).toBe('unsatisfiable');
    expect(requestedRange('bytes=1000-1001', size)).toBe('unsatisfiable');
    expect(requestedRange('bytes=99999999999999999999999-', size)).toBe('unsatisfiable');
    expect(requestedRange('bytes=-0', size)).toBe('unsatisfiable');
  });

  test('no header, another unit, a malformed one, several ranges, an empty file: the whole (200)', () => {
    for (const header of [
      undefined,
      '',
      'bytes=',
      'bytes=-',
      'bytes=5-1',
      'items=0-1',
      'bytes=a-b',
      'bytes=0-1,5-9',
      'bytes=1.5-2',
      'bytes=0x1-2',
      ' bytes=0-1',
    ]) {
      expect([header, requestedRange(header, size)]).toEqual([header, 'whole']);
    }
    expect(requestedRange('bytes=0-0', 0)).toBe('whole');
    expect(requestedRange('bytes=-1', 0)).toBe('whole');
  });
});
