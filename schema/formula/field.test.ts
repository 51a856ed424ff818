import { formulaCell, formulaFieldsOf, formulaFilterType, planFormulas, type PlanField } from './field';
import { compileFormula } from './compile';
import { toStoredFormula } from '.';

const base: Record<string, PlanField> = {
  title: { name: 'Название', type: 'text' },
  price: { name: 'Цена', type: 'number' },
  qty: { name: 'Кол-во', type: 'number' },
};
const stored = (fields: Record<string, PlanField>, shown: string) =>
  toStoredFormula(shown, (name) => Object.keys(fields).find((id) => fields[id].name === name));

test('formulas are planned after the formulas they read, each typed by what it reads', () => {
  const fields: Record<string, PlanField> = { ...base };
  // Declared before what it reads: still computed after it.
  fields.label = { name: 'Подпись', type: 'formula', expression: '' };
  fields.sum = { name: 'Сумма', type: 'formula', expression: '' };
  fields.sum.expression = stored(fields, 'prop("Цена") * prop("Кол-во")');
  fields.label.expression = stored(fields, 'prop("Название") + ": " + prop("Сумма")');
  const { order, problems } = planFormulas(fields);
  expect(problems).toEqual([]);
  expect(order.map((p) => [p.fieldId, p.formula.type, p.formula.references])).toEqual([
    ['sum', 'number', ['price', 'qty']],
    ['label', 'text', ['title', 'sum']],
  ]);
  const resolve = formulaFieldsOf(fields, order);
  expect(resolve('sum')).toEqual({ id: 'sum', name: 'Сумма', type: 'number' });
  expect(resolve('nope')).toBeUndefined();
});

test('a cycle is refused in every formula on it; a mistake in one does not hide the others', () => {
  const fields: Record<string, PlanField> = {
    ...base,
    a: { name: 'А', type: 'formula', expression: 'prop("b") + 1' },
    b: { name: 'Б', type: 'formula', expression: 'prop("a") * 2' },
    self: { name: 'Сам', type: 'formula', expression: 'prop("self")' },
    bad: { name: 'Плохая', type: 'formula', expression: 'prop("price") *' },
    fine: { name: 'Хорошая', type: 'formula', expression: 'prop("price") + 1' },
    reader: { name: 'Читает плохую', type: 'formula', expression: 'prop("bad") + 1' },
  };
  const { order, problems } = planFormulas(fields);
  expect(order.map((p) => p.fieldId)).toEqual(['fine']);
  expect(Object.fromEntries(problems.map((p) => [p.fieldId, p.message]))).toEqual({
    a: 'Формулы читают друг друга по кругу: «А» → «Б» → «А»',
    b: 'Формулы читают друг друга по кругу: «А» → «Б» → «А»',
    self: 'Формулы читают друг друга по кругу: «Сам» → «Сам»',
    bad: 'Формула оборвалась: ожидалось значение',
    reader: 'Формула «Плохая» сама с ошибкой',
  });
});

test('a field a formula reads that is gone is named in the error', () => {
  const { problems } = planFormulas({ ...base, f: { name: 'Ф', type: 'formula', expression: 'prop("gone") + 1' } });
  expect(problems).toEqual([{ fieldId: 'f', message: 'Нет поля «gone»', start: 5, end: 11 }]);
});

const run = (shown: string) => {
  const formula = compileFormula(shown, () => undefined);
  return formulaCell(formula.evaluate({ now: Date.UTC(2026, 11, 4, 9, 30), timeZone: 'Europe/Moscow', value: () => null }), 'Europe/Moscow');
};

test.each([
  ['12.5', { value: 12.5, num: 12.5, txt: null, end: null }],
  ['"Ёлка"', { value: 'Ёлка', num: null, txt: 'елка', end: null }],
  ['""', { value: '', num: null, txt: null, end: null }],
  ['true', { value: true, num: 1, txt: null, end: null }],
  ['false', { value: false, num: 0, txt: null, end: null }],
  ['ifs(false, 1)', { value: null, num: null, txt: null, end: null }],
  ['parseDate("2026-12-10")', { value: '2026-12-10', num: Date.UTC(2026, 11, 10), txt: null, end: Date.UTC(2026, 11, 11) }],
  ['now()', { value: '2026-12-04T09:30:00.000Z', num: Date.UTC(2026, 11, 4, 9, 30), txt: null, end: null }],
  [
    'dateRange(parseDate("2026-12-10"), parseDate("2026-12-12"))',
    { value: { start: '2026-12-10', end: '2026-12-12' }, num: Date.UTC(2026, 11, 10), txt: null, end: Date.UTC(2026, 11, 13) },
  ],
  ['["Б", 2, parseDate("2026-12-10")]', { value: ['Б', '2', '10 декабря 2026'], num: null, txt: '|б|2|10 декабря 2026|', end: null }],
  ['[]', { value: [], num: null, txt: null, end: null }],
  ['1 / 0', { value: { error: 'Деление на ноль' }, num: null, txt: null, end: null }],
])('%s is kept as %j', (shown, cell) => {
  expect(run(shown)).toEqual(cell);
});

test('each result type is filtered and sorted as a field type', () => {
  expect((['number', 'text', 'boolean', 'date', 'list', 'empty', 'any'] as const).map(formulaFilterType)).toEqual([
    'number',
    'text',
    'checkbox',
    'date',
    'multiSelect',
    'text',
    'text',
  ]);
});
