import { parseHtml } from './parseHtml';
import { readClipboard } from './withClipboard';

describe('without a DOM (node)', () => {
  test('HTML is not read (never passed through unsanitized); plain text still is', () => {
    expect(parseHtml('<p onclick="x()">a</p>')).toBeNull();
    const data = { getData: (type: string) => ({ 'text/html': '<p>html</p>', 'text/plain': 'текст' })[type] ?? '' };
    expect(readClipboard(data)).toEqual({ kind: 'inline', tokens: [{ text: 'текст' }] });
  });
});
