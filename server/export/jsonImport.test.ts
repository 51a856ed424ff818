import { COMMENT_LIMITS, commentContentSchema } from '../../schema/comment';
import { attributedContent, authorLine } from './jsonImport';

/** Issue 33, item 7: an imported comment by someone else begins with its author's name and date, within a comment's limits. */

test('the author line: the name (else the e-mail), the day in UTC as dd.mm.yyyy', () => {
  expect(authorLine({ name: 'Иван', email: 'ivan@example.com' }, '2020-03-12T10:00:00.000Z')).toBe('Иван, 12.03.2020: ');
  expect(authorLine({ name: '  ', email: 'ivan@example.com' }, '2020-03-12T23:30:00-02:00')).toBe('ivan@example.com, 13.03.2020: ');
  expect(authorLine({ name: 'Иван\nПетров', email: '' }, '2021-01-05T00:00:00Z')).toBe('Иван Петров, 05.01.2021: ');
  expect(authorLine({ name: '', email: '' }, '2021-01-05T00:00:00Z')).toBe('?, 05.01.2021: ');
});

test('the line comes first as a plain token; the rest is kept as it was when it fits', () => {
  const content = [{ text: 'см. ' }, { text: 'выше', bold: true }];
  expect(attributedContent('Иван, 12.03.2020: ', content)).toEqual({ content: [{ text: 'Иван, 12.03.2020: ' }, ...content], cut: false });
});

test('what no longer fits the limits is cut from the end, never a surrogate pair in two, and the result fits the schema', () => {
  const line = 'Иван, 12.03.2020: ';
  const long = attributedContent(line, [{ text: '😀'.repeat(COMMENT_LIMITS.textLength / 2) }]);
  expect(long.cut).toBe(true);
  expect(long.content[1].text).toBe('😀'.repeat((COMMENT_LIMITS.textLength - line.length) / 2));
  expect(commentContentSchema.safeParse(long.content).success).toBe(true);
  const many = attributedContent(
    line,
    Array.from({ length: COMMENT_LIMITS.tokens }, (_, i) => ({ text: String(i), italic: i % 2 === 0 })),
  );
  expect([many.cut, many.content.length, many.content.at(-1)]).toEqual([
    true,
    COMMENT_LIMITS.tokens,
    { text: String(COMMENT_LIMITS.tokens - 2), italic: true },
  ]);
  expect(commentContentSchema.safeParse(many.content).success).toBe(true);
});
