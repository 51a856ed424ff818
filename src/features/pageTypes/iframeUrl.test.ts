import { readIframeUrl } from './iframeUrl';

const app = 'https://docs.example.org';

describe('readIframeUrl', () => {
  test.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['  http://127.0.0.1:8080/page  ', 'http://127.0.0.1:8080/page'],
    ['example.com/path', 'https://example.com/path'],
    ['HTTPS://Example.com', 'https://example.com/'],
  ])('%j → %j', (typed, url) => {
    expect(readIframeUrl(typed, app)).toEqual({ url });
  });

  test.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['javascript:alert(1)', 'scheme'],
    ['data:text/html,<b>x</b>', 'scheme'],
    ['ftp://example.com/file', 'scheme'],
    ['localhost', 'invalid'],
    ['https://', 'invalid'],
    ['https://user:secret@example.com/', 'credentials'],
    ['https://docs.example.org/some-page', 'sameOrigin'],
    [`https://example.com/${'a'.repeat(2100)}`, 'tooLong'],
  ])('%j is refused: %s', (typed, problem) => {
    expect(readIframeUrl(typed, app)).toEqual({ problem });
  });
});
