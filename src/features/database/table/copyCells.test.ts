// Moments are copied in the browser's time zone, as the grid shows them (UTC here; Moscow in databaseTable.e2e's copy test).
import { textToValue } from '../../../../schema/database';
import type { DatabaseField } from '../../../../schema/blocks/database';
import { copiedRange, copiedText } from './copyCells';

const number = (format?: 'plain' | 'rub' | 'percent'): DatabaseField => ({ name: 'Число', type: 'number', ...(format ? { format } : {}) }) as DatabaseField;
const date: DatabaseField = { name: 'Срок', type: 'date' };

test('numbers as the cells show them, with a no-break space between thousands and a decimal comma (not «3.14», a date in a Russian spreadsheet)', () => {
  expect(copiedText(number(), 1234.5)).toBe('1\u00a0234,5');
  expect(copiedText(number(), 3.14)).toBe('3,14');
  expect(copiedText(number(), -1_000_000)).toBe('-1\u00a0000\u00a0000');
  expect(copiedText(number('rub'), 1500)).toBe('1\u00a0500,00\u00a0₽');
  expect(copiedText(number('percent'), 12.5)).toMatch(/^12,5\s%$/);
});

test('dates as дд.мм.гггг, with the time when they have one, ranges with an arrow', () => {
  expect(copiedText(date, '2026-12-01')).toBe('01.12.2026');
  expect(copiedText(date, '2026-12-01T14:30:00Z')).toBe('01.12.2026 14:30');
  expect(copiedText(date, '2026-12-01T22:30:00Z')).toBe('01.12.2026 22:30');
  expect(copiedText(date, { start: '2026-12-01', end: '2026-12-03' })).toBe('01.12.2026 → 03.12.2026');
  expect(copiedText({ name: 'Создано', type: 'createdTime' }, '2026-01-02T03:04:05Z')).toBe('02.01.2026 03:04');
});

test('what is copied pastes back into the grid as the same values', () => {
  for (const [field, value] of [
    [number(), 1234.5],
    [number('rub'), 1500],
    [number(), -0.25],
    [date, '2026-12-01'],
    [date, '2026-12-01T14:30:00Z'],
    [date, '2026-12-01T22:30:00Z'],
    [date, { start: '2026-12-01', end: '2026-12-03' }],
  ] as const)
    expect(textToValue(field, copiedText(field, value), { localTime: true })).toEqual({ value });
  // Without `localTime` (the server's CSV import: no browser's clock) a time is read as UTC.
  expect(textToValue(date, '01.12.2026 14:30')).toEqual({ value: '2026-12-01T14:30:00Z' });
  const offset = new Date(2026, 11, 1, 14, 30).getTimezoneOffset();
  expect(textToValue(date, '01.12.2026 14:30', { localTime: true })).toEqual({
    value: new Date(Date.UTC(2026, 11, 1, 14, 30) + offset * 60_000).toISOString().replace('.000Z', 'Z'),
  });
});

test('the HTML flavour carries each number’s value for Excel, text escaped, lines kept', () => {
  const { text, html } = copiedRange([
    [
      [{ name: 'Название', type: 'text' }, 'a <b> & "c"\nd'],
      [number(), 1234.5],
    ],
  ]);
  expect(html).toBe('<meta charset="utf-8"><table><tr><td>a &lt;b&gt; &amp; &quot;c&quot;<br>d</td><td x:num="1234.5">1\u00a0234,5</td></tr></table>');
  expect(text).toBe('"a <b> & ""c""\nd"\t1\u00a0234,5');
});

test('a number field that fixes its digits after the comma shows and copies them', () => {
  const money: DatabaseField = { name: 'Сумма', type: 'number', format: 'plain', decimals: 2 };
  expect(copiedText(money, 9156.3)).toBe('9\u00a0156,30');
  expect(copiedText(money, 100)).toBe('100,00');
  expect(copiedText({ ...money, decimals: 0 }, 2.6)).toBe('3');
  expect(textToValue(money, copiedText(money, 9156.3))).toEqual({ value: 9156.3 });
});
