import type { DatabaseField } from '../blocks/database';
import { compileFormula } from './compile';
import { formulaDateOfCell, formulaTypeOfField, formulaValueOfCell } from './cells';

const options = [
  { id: 'a', name: 'Альфа', color: 'gray' },
  { id: 'b', name: 'Бета', color: 'green' },
];
const FIELDS: Record<string, DatabaseField> = {
  title: { name: 'Название', type: 'text' },
  price: { name: 'Цена', type: 'number' },
  done: { name: 'Готово', type: 'checkbox' },
  stage: { name: 'Этап', type: 'select', options },
  tags: { name: 'Теги', type: 'multiSelect', options },
  due: { name: 'Срок', type: 'date' },
  who: { name: 'Исполнители', type: 'person' },
  link: { name: 'Связи', type: 'relation' },
  files: { name: 'Файлы', type: 'files' },
  site: { name: 'Сайт', type: 'url' },
  made: { name: 'Создано', type: 'createdTime' },
  author: { name: 'Автор', type: 'createdBy' },
} as Record<string, DatabaseField>;
const lookups = { personName: (id: string) => ({ u1: 'Анна', u2: 'Борис' })[id], rowTitle: (id: string) => ({ r1: 'Задача 1' })[id] };

test('each field type gives its formula type', () => {
  expect(Object.fromEntries(Object.entries(FIELDS).map(([id, f]) => [id, formulaTypeOfField(f)]))).toEqual({
    title: 'text',
    price: 'number',
    done: 'boolean',
    stage: 'text',
    tags: 'list',
    due: 'date',
    who: 'list',
    link: 'list',
    files: 'list',
    site: 'text',
    made: 'date',
    author: 'text',
  });
});

test.each([
  ['title', 'Макет', 'Макет'],
  ['title', '', null],
  ['price', 120, 120],
  ['price', null, null],
  ['done', true, true],
  ['done', null, false],
  ['done', undefined, false],
  ['stage', 'b', 'Бета'],
  ['stage', 'gone', null],
  ['tags', ['b', 'gone', 'a'], ['Бета', 'Альфа']],
  ['tags', [], null],
  ['due', '2026-12-10', { start: Date.UTC(2026, 11, 10), end: null, time: false }],
  ['due', '2026-12-10T14:30:00+03:00', { start: Date.UTC(2026, 11, 10, 11, 30), end: null, time: true }],
  ['due', { start: '2026-12-10', end: '2026-12-12' }, { start: Date.UTC(2026, 11, 10), end: Date.UTC(2026, 11, 12), time: false }],
  ['due', 'not a date', null],
  ['who', ['u2', 'nobody', 'u1'], ['Борис', 'Анна']],
  ['link', ['r1', 'unreadable'], ['Задача 1']],
  ['link', ['unreadable'], null],
  ['files', [{ id: 'f1', name: 'план.pdf' }], ['план.pdf']],
  ['site', 'https://example.com', 'https://example.com'],
  ['made', '2026-12-04T09:30:00.000Z', { start: Date.UTC(2026, 11, 4, 9, 30), end: null, time: true }],
  ['author', 'u1', 'Анна'],
  ['author', 'nobody', null],
  ['author', ['u2'], 'Борис'],
] as const)('%s: %j → %j', (fieldId, value, expected) => {
  expect(formulaValueOfCell(FIELDS[fieldId], value as never, lookups)).toEqual(expected);
});

test('a formula over cells: a removed option is empty, people by name, a range by its start and end', () => {
  const row: Record<string, unknown> = { stage: 'gone', who: ['u1', 'u2'], due: { start: '2026-12-10', end: '2026-12-12' }, price: 10, done: null };
  const formula = compileFormula(
    'if(empty(prop("Этап")), "без этапа", prop("Этап")) + ": " + prop("Исполнители").join(" и ") + ", " + dateBetween(dateEnd(prop("Срок")), dateStart(prop("Срок")), "days") + " дн., " + (prop("Готово") ? "готово" : "в работе")',
    (name) => {
      const id = Object.keys(FIELDS).find((key) => FIELDS[key].name === name);
      return id ? { id, name, type: formulaTypeOfField(FIELDS[id]) } : undefined;
    },
  );
  const out = formula.evaluate({ now: 0, timeZone: 'Europe/Moscow', value: (id) => formulaValueOfCell(FIELDS[id], row[id] as never, lookups) });
  expect(out).toEqual({ ok: true, value: 'без этапа: Анна и Борис, 2 дн., в работе' });
  expect(formula.references).toEqual(['stage', 'who', 'due', 'done']);
});

test('formulaDateOfCell keeps whether a time was given', () => {
  expect(formulaDateOfCell({ start: '2026-12-10T10:00:00Z', end: null })).toEqual({ start: Date.UTC(2026, 11, 10, 10), end: null, time: true });
});
