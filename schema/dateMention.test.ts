/** @jest-environment jsdom */
import { htmlToTokens, tokensToHtml } from './html';
import { isDateMentionStart, tokenSchema } from './token';

const reminder = { text: '11 декабря 2026, 15:00', date: { start: '2026-12-11T15:00', remindAt: '2026-12-11T12:00:00.000Z' } };

describe('date mentions in tokens', () => {
  test('a real day, with or without a time; a reminder an instant', () => {
    expect(['2026-12-11', '2026-12-11T15:00', '2028-02-29', '2026-01-01T00:00', '2026-12-31T23:59'].map(isDateMentionStart)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['2026-02-29', '2026-13-01', '2026-12-11T24:00', '2026-12-11T10:60', '2026-12-11 15:00', '11.12.2026', ''].map(isDateMentionStart)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(tokenSchema.safeParse(reminder).success).toBe(true);
    expect(tokenSchema.safeParse({ ...reminder, date: { ...reminder.date, remindAt: 'завтра' } }).success).toBe(false);
    expect(tokenSchema.safeParse({ ...reminder, date: { ...reminder.date, by: 'x' } }).success).toBe(false);
  });

  test('HTML: a <time> with its day and the reminder, read back by a paste', () => {
    const html = tokensToHtml([{ text: 'Созвон ' }, reminder]);
    expect(html).toBe('Созвон <time datetime="2026-12-11T15:00" data-remind-at="2026-12-11T12:00:00.000Z">11 декабря 2026, 15:00</time>');
    const root = document.createElement('div');
    root.innerHTML = html;
    expect(htmlToTokens(root)).toEqual([{ text: 'Созвон ' }, reminder]);
    // Another page's <time> that names no day of ours stays plain text.
    root.innerHTML = '<time datetime="вчера">вчера</time>';
    expect(htmlToTokens(root)).toEqual([{ text: 'вчера' }]);
  });
});
