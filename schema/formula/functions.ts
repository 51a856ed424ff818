import { addToDate, dateUnit, datePart, formatDate, parseDate, today, unitsBetween, type DateUnit } from './dates';
import { FormulaError, type Span } from './syntax';
import { isDate, isEmptyValue, sameValue, typeOf, TYPE_NAMES, type FormulaDate, type FormulaType, type FormulaValue } from './values';

/*
 * The functions a formula may call (docs/formulas.md «Functions»), each with its arity, the types
 * it takes (checked before it runs, where they are known) and what it does. `if`, `ifs`, `and`,
 * `or`, `let`, `lets` and the list functions that take an expression of `current` (`map`,
 * `filter`, `find`, `some`, `every`) are forms of the compiler (compile.ts): they choose what to
 * run. Their arity, result and description are here too, for the editor's suggestions.
 */

export interface RunContext {
  now: number;
  timeZone: string;
}

/** What a call's checks and body see: the types or values of its arguments, and where each is. */
export interface CallSite {
  name: string;
  span: Span;
  argSpans: Span[];
}

export interface FunctionSpec {
  /** Arguments: at least `min`, at most `max` (Infinity: any number). */
  min: number;
  max: number;
  /** Its signature and what it does, for the editor. */
  signature: string;
  description: string;
  /** The result's type from the arguments' (throws a FormulaError for a wrong one). */
  check(types: FormulaType[], site: CallSite): FormulaType;
  /** Runs with the arguments' values (absent for the compiler's forms). */
  run?(args: FormulaValue[], context: RunContext, site: CallSite): FormulaValue;
}

/** A wrong type for argument `i`: the error points at it. */
export function typeError(site: CallSite, i: number, wanted: string, got: FormulaType): FormulaError {
  const span = site.argSpans[i] ?? site.span;
  return new FormulaError(`«${site.name}»: ${i + 1}-й аргумент должен быть ${wanted}, а здесь ${TYPE_NAMES[got]}`, span.start, span.end);
}

const WANTED: Record<string, string> = {
  number: 'числом',
  text: 'текстом',
  boolean: 'логическим значением',
  date: 'датой',
  list: 'списком',
  'text|list': 'текстом или списком',
  'number|list': 'числом или списком чисел',
};

/** Checks that each argument's type is one of `kinds` (`any` and empty pass: found when run). */
function expectTypes(types: FormulaType[], site: CallSite, kinds: string[]): void {
  types.forEach((type, i) => {
    const kind = kinds[Math.min(i, kinds.length - 1)];
    if (kind === '*' || type === 'any' || type === 'empty') return;
    if (!kind.split('|').includes(type)) throw typeError(site, i, WANTED[kind] ?? kind, type);
  });
}

/** The same check when run, for what was `any` before. */
function runtimeType(value: FormulaValue, site: CallSite, i: number, kind: string): void {
  const type = typeOf(value);
  if (type === 'empty' || kind === '*') return;
  if (!kind.split('|').includes(type)) throw typeError(site, i, WANTED[kind] ?? kind, type);
}

const spec = (
  signature: string,
  description: string,
  kinds: string[],
  result: FormulaType | ((types: FormulaType[]) => FormulaType),
  run: FunctionSpec['run'],
  arity?: [number, number],
): FunctionSpec => ({
  min: arity?.[0] ?? kinds.length,
  max: arity?.[1] ?? kinds.length,
  signature,
  description,
  check(types, site) {
    expectTypes(types, site, kinds);
    return typeof result === 'function' ? result(types) : result;
  },
  run(args, context, site) {
    args.forEach((value, i) => runtimeType(value, site, i, kinds[Math.min(i, kinds.length - 1)]));
    return run!(args, context, site);
  },
});

/** A value as text: numbers as written, dates as shown («4 декабря 2026»), lists with «, ». */
export function formatValue(value: FormulaValue, context: Pick<RunContext, 'timeZone'>): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Object.is(value, -0) ? '0' : String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return value.map((item) => formatValue(item, context)).join(', ');
  return formatDate(value, context.timeZone);
}

const text = (value: FormulaValue) => (value === null ? '' : (value as string));
const list = (value: FormulaValue) => (value === null ? [] : (value as FormulaValue[]));
const orEmpty =
  <T extends FormulaValue>(f: (value: T, ...rest: FormulaValue[]) => FormulaValue) =>
  (args: FormulaValue[]) =>
    args[0] === null ? null : f(args[0] as T, ...args.slice(1));

/** The numbers of the arguments, lists opened (empties left out); a non-number is an error. */
function numbersOf(args: FormulaValue[], site: CallSite): number[] {
  const out: number[] = [];
  args.forEach((arg, i) => {
    for (const item of Array.isArray(arg) ? arg : [arg]) {
      if (item === null) continue;
      if (typeof item !== 'number') throw typeError(site, i, 'числом или списком чисел', typeOf(item));
      out.push(item);
    }
  });
  return out;
}

function unitOf(value: FormulaValue, site: CallSite, i: number): DateUnit {
  const unit = typeof value === 'string' ? dateUnit(value) : undefined;
  if (!unit) {
    const span = site.argSpans[i] ?? site.span;
    throw new FormulaError(
      `«${site.name}»: неизвестная единица «${formatValue(value, { timeZone: 'UTC' })}» (годы, месяцы, недели, дни, часы, минуты…: "days", "дней")`,
      span.start,
      span.end,
    );
  }
  return unit;
}

/** `n` rounded half away from zero to `places` decimals, on the decimal as written (1.005 → 1.01), not the double nearest it. */
export function roundTo(n: number, places: number): number {
  const shift = (x: number, by: number) => {
    const moved = Number(`${x}e${by}`);
    return Number.isFinite(moved) ? moved : x * 10 ** by;
  };
  const rounded = Math.round(shift(Math.abs(n), places));
  return Math.sign(n) * shift(rounded, -places) || 0;
}

const mustBeFinite = (value: number, site: CallSite): number => {
  if (!Number.isFinite(value)) throw new FormulaError(`«${site.name}»: результат не число`, site.span.start, site.span.end);
  return value;
};

function compare(a: FormulaValue, b: FormulaValue): number {
  if (isDate(a) && isDate(b)) return a.start - b.start;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b), 'ru');
}

/** The list sorted: numbers, texts (as the Russian alphabet goes), dates; empties last. */
export function sortValues(items: FormulaValue[]): FormulaValue[] {
  return [...items].sort((a, b) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : compare(a, b)));
}

const dateResult = (value: FormulaValue) => value as FormulaDate;

const form = (signature: string, description: string, min: number, max: number, check: FunctionSpec['check']): FunctionSpec => ({
  min,
  max,
  signature,
  description,
  check,
});

export const FUNCTIONS: Record<string, FunctionSpec> = {
  // Logic (forms: compile.ts).
  if: form('if(условие, да, нет)', 'Значение «да», когда условие верно, иначе «нет»', 3, 3, () => 'any'),
  ifs: form('ifs(условие1, значение1, условие2, значение2, …, иначе)', 'Значение первого верного условия', 2, Infinity, () => 'any'),
  and: form('and(a, b, …)', 'Верно, когда верны все', 1, Infinity, () => 'boolean'),
  or: form('or(a, b, …)', 'Верно, когда верно хотя бы одно', 1, Infinity, () => 'boolean'),
  not: spec('not(a)', 'Обратное: верно, когда a неверно', ['boolean'], 'boolean', ([a]) => !a),
  empty: spec('empty(значение)', 'Верно, когда значения нет (а также 0, "", false, [])', ['*'], 'boolean', ([a]) => isEmptyValue(a)),
  let: form('let(имя, значение, выражение)', 'Даёт значению имя внутри выражения', 3, 3, () => 'any'),
  lets: form('lets(имя1, значение1, имя2, значение2, …, выражение)', 'Несколько имён сразу', 3, Infinity, () => 'any'),

  // Text.
  concat: spec(
    'concat(a, b, …)',
    'Тексты подряд, или списки один за другим',
    ['text|list'],
    (types) => (types.some((t) => t === 'list') ? 'list' : types.some((t) => t === 'text') ? 'text' : 'any'),
    (args, _context, site) => {
      const kinds = new Set(args.filter((a) => a !== null).map((a) => typeOf(a)));
      if (kinds.size > 1) throw new FormulaError('«concat»: все аргументы должны быть текстами или все — списками', site.span.start, site.span.end);
      return kinds.has('list') ? args.flatMap((a) => list(a)) : args.map(text).join('');
    },
    [1, Infinity],
  ),
  join: spec('join(список, разделитель)', 'Элементы списка текстом через разделитель', ['list', 'text'], 'text', ([items, separator], context) =>
    list(items)
      .map((item) => formatValue(item, context))
      .join(text(separator)),
  ),
  length: spec('length(текст или список)', 'Сколько букв в тексте или элементов в списке', ['text|list'], 'number', ([a]) =>
    Array.isArray(a) ? a.length : [...text(a)].length,
  ),
  contains: spec('contains(текст, часть)', 'Верно, когда в тексте есть часть (в списке — элемент)', ['text|list', '*'], 'boolean', ([a, b], context) =>
    Array.isArray(a) ? a.some((item) => sameValue(item, b)) : text(a).includes(formatValue(b, context)),
  ),
  replace: spec('replace(текст, что, на что)', 'Текст, где первое «что» заменено (без регулярных выражений)', ['text', 'text', 'text'], 'text', ([a, b, c]) =>
    text(a).replace(text(b), () => text(c)),
  ),
  replaceAll: spec('replaceAll(текст, что, на что)', 'Текст, где все «что» заменены', ['text', 'text', 'text'], 'text', ([a, b, c]) =>
    text(b) === '' ? text(a) : text(a).split(text(b)).join(text(c)),
  ),
  lower: spec('lower(текст)', 'Строчными буквами', ['text'], 'text', ([a]) => text(a).toLocaleLowerCase('ru')),
  upper: spec('upper(текст)', 'Прописными буквами', ['text'], 'text', ([a]) => text(a).toLocaleUpperCase('ru')),
  trim: spec('trim(текст)', 'Без пробелов по краям', ['text'], 'text', ([a]) => text(a).trim()),
  format: spec('format(значение)', 'Значение текстом', ['*'], 'text', ([a], context) => formatValue(a, context)),
  slice: spec(
    'slice(текст или список, с, до)',
    'Часть текста или списка: с позиции «с» (от 0) до «до», не включая',
    ['text|list', 'number', 'number'],
    (types) => (types[0] === 'list' ? 'list' : types[0] === 'text' ? 'text' : 'any'),
    ([a, from, to]) => {
      const items = Array.isArray(a) ? a : [...text(a)];
      const part = items.slice((from as number | null) ?? 0, to === undefined || to === null ? undefined : (to as number));
      return Array.isArray(a) ? part : (part as string[]).join('');
    },
    [2, 3],
  ),
  split: spec('split(текст, разделитель)', 'Список частей текста', ['text', 'text'], 'list', ([a, b]) => (text(a) === '' ? [] : text(a).split(text(b)))),
  toNumber: spec('toNumber(значение)', 'Число из текста, даты (миллисекунды) или true/false', ['*'], 'number', ([a]) => {
    if (a === null || typeof a === 'number') return a;
    if (typeof a === 'boolean') return a ? 1 : 0;
    if (isDate(a)) return a.start;
    if (Array.isArray(a)) return null;
    const n = Number(a.trim().replace(/\s/g, '').replace(',', '.'));
    return a.trim() === '' || Number.isNaN(n) ? null : n || 0;
  }),

  // Numbers.
  round: spec(
    'round(число, знаков)',
    'Округление (до знаков после запятой)',
    ['number', 'number'],
    'number',
    orEmpty<number>((n, places) => roundTo(n, Math.trunc((places as number | null | undefined) ?? 0))),
    [1, 2],
  ),
  floor: spec('floor(число)', 'Вниз до целого', ['number'], 'number', orEmpty<number>(Math.floor)),
  // `|| 0`: ceil(-0.5) is 0, not «-0».
  ceil: spec(
    'ceil(число)',
    'Вверх до целого',
    ['number'],
    'number',
    orEmpty<number>((n) => Math.ceil(n) || 0),
  ),
  abs: spec('abs(число)', 'Модуль', ['number'], 'number', orEmpty<number>(Math.abs)),
  sqrt: spec('sqrt(число)', 'Квадратный корень', ['number'], 'number', (args, _context, site) =>
    args[0] === null ? null : mustBeFinite(Math.sqrt(args[0] as number), site),
  ),
  min: spec(
    'min(a, b, …)',
    'Наименьшее из чисел (и списков чисел)',
    ['number|list'],
    'number',
    (args, _c, site) => {
      const n = numbersOf(args, site);
      return n.length ? Math.min(...n) : null;
    },
    [1, Infinity],
  ),
  max: spec(
    'max(a, b, …)',
    'Наибольшее из чисел (и списков чисел)',
    ['number|list'],
    'number',
    (args, _c, site) => {
      const n = numbersOf(args, site);
      return n.length ? Math.max(...n) : null;
    },
    [1, Infinity],
  ),
  sum: spec('sum(a, b, …)', 'Сумма чисел (и списков чисел)', ['number|list'], 'number', (args, _c, site) => numbersOf(args, site).reduce((s, n) => s + n, 0), [
    1,
    Infinity,
  ]),
  mean: spec(
    'mean(a, b, …)',
    'Среднее чисел (и списков чисел)',
    ['number|list'],
    'number',
    (args, _c, site) => {
      const n = numbersOf(args, site);
      return n.length ? n.reduce((s, x) => s + x, 0) / n.length : null;
    },
    [1, Infinity],
  ),
  median: spec(
    'median(a, b, …)',
    'Медиана чисел (и списков чисел)',
    ['number|list'],
    'number',
    (args, _c, site) => {
      const n = numbersOf(args, site).sort((a, b) => a - b);
      if (!n.length) return null;
      const mid = Math.floor(n.length / 2);
      return n.length % 2 ? n[mid] : (n[mid - 1] + n[mid]) / 2;
    },
    [1, Infinity],
  ),

  // Dates.
  now: spec('now()', 'Сейчас', [], 'date', (_a, context) => ({ start: context.now, end: null, time: true })),
  today: spec('today()', 'Сегодня (день, в часовом поясе)', [], 'date', (_a, context) => today(context.now, context.timeZone)),
  dateAdd: spec('dateAdd(дата, сколько, "days")', 'Дата позже на столько единиц', ['date', 'number', 'text'], 'date', (args, context, site) =>
    args[0] === null || args[1] === null ? args[0] : addToDate(dateResult(args[0]), args[1] as number, unitOf(args[2], site, 2), context.timeZone),
  ),
  dateSubtract: spec('dateSubtract(дата, сколько, "days")', 'Дата раньше на столько единиц', ['date', 'number', 'text'], 'date', (args, context, site) =>
    args[0] === null || args[1] === null ? args[0] : addToDate(dateResult(args[0]), -(args[1] as number), unitOf(args[2], site, 2), context.timeZone),
  ),
  dateBetween: spec('dateBetween(дата1, дата2, "days")', 'Сколько целых единиц от даты2 до даты1', ['date', 'date', 'text'], 'number', (args, context, site) =>
    args[0] === null || args[1] === null ? null : unitsBetween(dateResult(args[0]), dateResult(args[1]), unitOf(args[2], site, 2), context.timeZone),
  ),
  dateRange: spec('dateRange(начало, конец)', 'Период от начала до конца', ['date', 'date'], 'date', ([a, b]) =>
    a === null ? null : { start: (a as FormulaDate).start, end: b === null ? null : (b as FormulaDate).start, time: (a as FormulaDate).time },
  ),
  dateStart: spec(
    'dateStart(дата)',
    'Начало периода',
    ['date'],
    'date',
    orEmpty<FormulaDate>((d) => ({ start: d.start, end: null, time: d.time })),
  ),
  dateEnd: spec(
    'dateEnd(дата)',
    'Конец периода (у даты без периода — она сама)',
    ['date'],
    'date',
    orEmpty<FormulaDate>((d) => ({ start: d.end ?? d.start, end: null, time: d.time })),
  ),
  formatDate: spec(
    'formatDate(дата, "D MMMM YYYY")',
    'Дата текстом по образцу (YYYY, MM, MMMM, D, dddd, HH, mm…)',
    ['date', 'text'],
    'text',
    ([d, pattern], context) =>
      d === null ? '' : formatDate(d as FormulaDate, context.timeZone, pattern === undefined || pattern === null ? undefined : text(pattern)),
    [1, 2],
  ),
  parseDate: spec('parseDate(текст)', 'Дата из текста: 2026-12-04, 04.12.2026, 2026-12-04T14:30', ['text'], 'date', ([a], context, site) => {
    if (a === null || a === '') return null;
    const parsed = parseDate(a as string, context.timeZone);
    if (!parsed) throw new FormulaError(`«parseDate»: «${a as string}» — не дата`, site.span.start, site.span.end);
    return parsed;
  }),
  timestamp: spec(
    'timestamp(дата)',
    'Миллисекунды от 1 января 1970 (UTC)',
    ['date'],
    'number',
    orEmpty<FormulaDate>((d) => d.start),
  ),
  ...Object.fromEntries(
    (
      [
        ['year', 'Год'],
        ['month', 'Месяц, 1–12'],
        ['date', 'Число месяца, 1–31'],
        ['day', 'День недели: 1 — понедельник … 7 — воскресенье'],
        ['hour', 'Час, 0–23'],
        ['minute', 'Минута, 0–59'],
        ['week', 'Неделя года (ISO)'],
      ] as const
    ).map(([part, description]) => [
      part,
      spec(`${part}(дата)`, description, ['date'], 'number', ([d], context) => (d === null ? null : datePart(d as FormulaDate, part, context.timeZone))),
    ]),
  ),

  // Lists (map, filter, find, some, every: forms).
  map: form('map(список, выражение с current)', 'Список из значений выражения для каждого элемента (current, index)', 2, 2, () => 'list'),
  filter: form('filter(список, условие с current)', 'Элементы, для которых условие верно', 2, 2, () => 'list'),
  find: form('find(список, условие с current)', 'Первый элемент, для которого условие верно', 2, 2, () => 'any'),
  some: form('some(список, условие с current)', 'Верно, когда условие верно хоть для одного', 2, 2, () => 'boolean'),
  every: form('every(список, условие с current)', 'Верно, когда условие верно для всех', 2, 2, () => 'boolean'),
  first: spec('first(список)', 'Первый элемент', ['list'], 'any', ([a]) => list(a)[0] ?? null),
  last: spec('last(список)', 'Последний элемент', ['list'], 'any', ([a]) => list(a).at(-1) ?? null),
  at: spec('at(список, номер)', 'Элемент по номеру от 0 (отрицательный — с конца)', ['list', 'number'], 'any', ([a, i], _c, site) => {
    const items = list(a);
    if (i === null) return null;
    const index = Math.trunc(i as number);
    const item = items.at(index);
    if (item === undefined) throw new FormulaError(`«at»: нет элемента с номером ${index} в списке из ${items.length}`, site.span.start, site.span.end);
    return item;
  }),
  sort: spec('sort(список)', 'Список по порядку: числа, тексты, даты', ['list'], 'list', ([a]) => sortValues(list(a))),
  reverse: spec('reverse(список)', 'Список в обратном порядке', ['list'], 'list', ([a]) => [...list(a)].reverse()),
  unique: spec('unique(список)', 'Список без повторов', ['list'], 'list', ([a]) =>
    list(a).filter((item, i, all) => all.findIndex((other) => sameValue(other, item)) === i),
  ),
  includes: spec('includes(список, значение)', 'Верно, когда значение есть в списке', ['list', '*'], 'boolean', ([a, b]) =>
    list(a).some((item) => sameValue(item, b)),
  ),
  flat: spec('flat(список)', 'Вложенные списки — одним списком', ['list'], 'list', ([a]) => list(a).flatMap((item) => (Array.isArray(item) ? item : [item]))),
};
