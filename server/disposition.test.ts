import http from 'node:http';
import { parse } from 'content-disposition';
import { contentDispositionOf } from './disposition';

describe('contentDispositionOf (the Content-Disposition of a download)', () => {
  test('a plain ASCII name: filename only', () => {
    expect(contentDispositionOf('notes.txt', 'inline')).toBe('inline; filename=notes.txt');
    expect(contentDispositionOf('report (1).csv')).toBe('attachment; filename="report (1).csv"');
  });

  test('Cyrillic: an ASCII stand-in and the exact name in UTF-8', () => {
    expect(contentDispositionOf('Годовой отчёт.zip')).toBe(
      `attachment; filename="_______ _____.zip"; filename*=UTF-8''${encodeURIComponent('Годовой отчёт.zip')}`,
    );
  });

  test.each([
    ['quotes', 'Отчёт "final".txt'],
    ['a line break', 'first\r\nSet-Cookie: x=1.txt'],
    ['a tab and a NUL', 'a\tb\u0000c.txt'],
    ['a percent sign a browser could decode', 'x%41.txt'],
    ['apostrophes and brackets', "it's (1) [draft]*.txt"],
    ['an emoji and accents', 'café 🎉.md'],
  ])('%s: a header Node accepts, and read back the name is exact', (_case, name) => {
    const header = contentDispositionOf(name);
    expect(() => http.validateHeaderValue('content-disposition', header)).not.toThrow();
    expect(header).not.toMatch(/[\r\n]/);
    // The stand-in is plain ASCII, a token or a quoted string (quotes in it escaped).
    expect(header).toMatch(
      /^attachment; filename=([!#$%&'*+.0-9A-Z^_`a-z|~-]+|"([\x20-\x21\x23-\x5b\x5d-\x7e]|\\["\\])*")(; filename\*=UTF-8''[\x21-\x7e]+)?$/,
    );
    // What a browser reads: the exact name (filename* wins over the stand-in).
    expect(parse(header)).toMatchObject({ type: 'attachment', parameters: { filename: name } });
  });

  test('quotes in an ASCII name are escaped, not dropped; a percent-escape is not left for a browser to decode', () => {
    expect(contentDispositionOf('say "hi".txt')).toBe('attachment; filename="say \\"hi\\".txt"');
    expect(contentDispositionOf('x%41.txt')).toBe("attachment; filename=x_41.txt; filename*=UTF-8''x%2541.txt");
  });
});
