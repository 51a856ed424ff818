/*
 * The formula language's conformance table (docs/formulas.md, issue 38): each row is a formula as
 * people write it (fields by name), run against one row of values, with what it must give — a
 * value, the row's error, or the refusal before running — and, for many, its static type. The
 * expected values come from the documented semantics (and Notion's formula 2.0 where the docs
 * follow it), not from what the code printed.
 *
 * The table runs twice, with the machine's clock in winter and in summer: nothing a formula gives
 * may depend on the real date (dayjs's `tz(text, zone)` guessed from today's offset, and a wall
 * time that happens twice came out earlier or later by the season).
 */
import { compileFormula, FormulaError, toShownFormula, toStoredFormula, type FormulaDate, type FormulaField, type FormulaType, type FormulaValue } from '.';

const FIELDS: FormulaField[] = [
  { id: 'f_price', name: 'Цена', type: 'number' },
  { id: 'f_qty', name: 'Кол-во', type: 'number' },
  { id: 'f_title', name: 'Название', type: 'text' },
  { id: 'f_done', name: 'Готово', type: 'boolean' },
  { id: 'f_due', name: 'Срок', type: 'date' },
  { id: 'f_start', name: 'Начало', type: 'date' },
  { id: 'f_period', name: 'Период', type: 'date' },
  { id: 'f_tags', name: 'Теги', type: 'list' },
  { id: 'f_scores', name: 'Оценки', type: 'list' },
  { id: 'f_none', name: 'Пусто', type: 'number' },
  { id: 'f_blank', name: 'Пустой текст', type: 'text' },
];

/** A day (no time): its UTC midnight; with `end`, a range of days. */
const day = (iso: string, end?: string): FormulaDate => ({
  start: Date.parse(`${iso}T00:00:00Z`),
  end: end ? Date.parse(`${end}T00:00:00Z`) : null,
  time: false,
});
/** A moment, written with its offset. */
const moment = (iso: string): FormulaDate => ({ start: Date.parse(iso), end: null, time: true });

const ROW: Record<string, FormulaValue> = {
  f_price: 120,
  f_qty: 3,
  f_title: 'Макет сайта',
  f_done: true,
  f_due: day('2026-12-10'), // a Thursday
  f_start: moment('2026-12-04T14:30+03:00'), // 11:30 UTC
  f_period: day('2026-12-01', '2026-12-07'),
  f_tags: ['срочно', 'дизайн', 'web'],
  f_scores: [4, 5, 3, 5],
  f_none: null,
  f_blank: null,
};

/** Friday 4 December 2026, 09:30 UTC: 12:30 in Moscow, 10:30 Berlin, 04:30 New York, 15:00 Kolkata, 22:30 Auckland. */
const NOW = '2026-12-04T09:30:00Z';

const MSK = 'Europe/Moscow';
const BER = 'Europe/Berlin';
const NYC = 'America/New_York';
const KOL = 'Asia/Kolkata';
const AKL = 'Pacific/Auckland';
const UTC = 'UTC';

interface Row {
  /** The formula as shown (fields by name). */
  f: string;
  /** The evaluation's zone (Moscow when absent) and `now` (NOW when absent). */
  tz?: string;
  now?: string;
  /** `compiled.type`. */
  type?: FormulaType;
  /** `compiled.references`. */
  refs?: string[];
  /** The value: `{ ok: true, value }`. */
  value?: FormulaValue;
  /** The row's error: `{ ok: false }` with this message. */
  error?: string;
  /** Refused before running: compileFormula throws a FormulaError with this message. */
  refused?: string;
  /** The error's [start, end): the first place this text appears in the formula, or the numbers. */
  at?: string | [number, number];
}

/** Ten copies joined by `+`: a text ten times longer. */
const times10 = (name: string) => Array.from({ length: 10 }, () => name).join(' + ');
/** A formula whose `d` is a text of 10,000 copies of `unit`, then `body`. */
const long = (unit: string, body: string) => `lets(a, "${unit.repeat(10)}", b, ${times10('a')}, c, ${times10('b')}, d, ${times10('c')}, ${body})`;

const ROWS: Row[] = [
  // ——— Values written in the formula
  { f: '12', value: 12, type: 'number' },
  { f: '3.5 + 1e3', value: 1003.5, type: 'number' },
  { f: '"текст"', value: 'текст', type: 'text' },
  { f: '«ёлка» + “ель”', value: 'ёлкаель', type: 'text' },
  { f: '"a\\"b\\\\c"', value: 'a"b\\c' },
  { f: 'length("a\\nb\\tc")', value: 5 },
  { f: 'true', value: true, type: 'boolean' },
  { f: 'false', value: false, type: 'boolean' },
  { f: '[1, "a", true]', value: [1, 'a', true], type: 'list' },
  { f: '[]', value: [], type: 'list' },

  // ——— Operators, loosest first: ?: ; or ; and ; not ; == != ; < <= > >= ; + - ; * / % ; unary - ; ^
  { f: '1 + 2 * 3', value: 7, type: 'number' },
  { f: '(1 + 2) * 3', value: 9 },
  { f: '10 - 4 - 3', value: 3 },
  { f: '100 / 10 / 5', value: 2 },
  { f: '2 + 7 % 4', value: 5 },
  { f: '2 * 3 % 4', value: 2 },
  { f: '7 % 3', value: 1 },
  { f: '-7 % 3', value: -1 },
  { f: '-4 % 2', value: 0 },
  { f: '0 * -1', value: 0 },
  { f: '2 ^ 3 ^ 2', value: 512 },
  { f: '-2 ^ 2', value: -4 },
  { f: '(-2) ^ 2', value: 4 },
  { f: '2 * 3 ^ 2', value: 18 },
  { f: '2 ^ -1', value: 0.5 },
  { f: '-prop("Цена") + 20', value: -100, type: 'number' },
  { f: '1 + 2 == 3', value: true, type: 'boolean' },
  { f: '1 < 2 == true', value: true },
  { f: '1 != 2', value: true },
  { f: '2 > 1 and 3 > 2', value: true },
  { f: '2 <= 2 and 3 >= 4', value: false },
  { f: 'true or false and false', value: true },
  { f: '(true or false) and false', value: false },
  { f: 'not true or true', value: true },
  { f: 'not 1 == 2', value: true },
  { f: '!false && false', value: false },
  { f: 'true && !true || true', value: true },
  { f: '"а" < "б"', value: true },
  { f: 'false < true', value: true },
  { f: 'prop("Срок") > today()', value: true },
  { f: 'prop("Цена") > 100 ? "дорого" : "дёшево"', value: 'дорого', type: 'text' },
  { f: 'false ? 1 : true ? 2 : 3', value: 2, type: 'number' },
  { f: 'true || false ? "да" : "нет"', value: 'да' },
  { f: 'false ? 1 : 2 + 3', value: 5 },
  { f: 'true ? 1 : "a"', refused: 'Ветви условия дают разные типы: число и текст', at: 'true ? 1 : "a"' },

  // ——— «+» joins when either side is text
  { f: '"Итого: " + 5', value: 'Итого: 5', type: 'text' },
  { f: '"Итого: " + prop("Цена") * prop("Кол-во")', value: 'Итого: 360', type: 'text' },
  { f: '"a" + 1 + 2', value: 'a12' },
  { f: '1 + 2 + "a"', value: '3a' },
  { f: '"Готово: " + prop("Готово")', value: 'Готово: true', type: 'text' },
  { f: '"Теги: " + prop("Теги")', value: 'Теги: срочно, дизайн, web', type: 'text' },
  { f: '"Срок: " + prop("Срок")', value: 'Срок: 10 декабря 2026', type: 'text' },
  { f: '"a" + prop("Пусто")', value: 'a' },
  { f: 'prop("Пустой текст") + 1', value: '1', type: 'text' },

  // ——— Empty: 0 in + and -, empty in * / % ^, false in conditions, orderings false, == only with empty
  { f: 'prop("Цена") + prop("Пусто")', value: 120, type: 'number' },
  { f: 'prop("Пусто") - 5', value: -5 },
  { f: 'prop("Пусто") + prop("Пусто")', value: null, type: 'number' },
  { f: 'prop("Пусто") * 2', value: null, type: 'number' },
  { f: '10 / prop("Пусто")', value: null },
  { f: 'prop("Пусто") / 0', value: null },
  { f: 'prop("Пусто") % 3', value: null },
  { f: 'prop("Пусто") ^ 2', value: null },
  { f: 'prop("Пусто") < 5', value: false },
  { f: 'prop("Пусто") >= 0', value: false },
  { f: '5 > prop("Пусто")', value: false },
  { f: 'prop("Пусто") == prop("Пустой текст")', value: true },
  { f: 'prop("Пусто") == 0', value: false },
  { f: 'prop("Пустой текст") == ""', value: false },
  { f: 'prop("Пусто") != 0', value: true },
  { f: 'if(ifs(false, true), "да", "нет")', value: 'нет' },
  { f: 'ifs(false, true) ? 1 : 2', value: 2 },

  // ——— Equality
  { f: '[1, 2] == [1, 2]', value: true },
  { f: '[1, 2] == [2, 1]', value: false },
  { f: 'prop("Срок") == parseDate("2026-12-10")', value: true },
  { f: 'today() == parseDate("2026-12-04")', value: true },
  { f: 'prop("Название") == "Макет сайта"', value: true },
  { f: '"Ё" == "ё"', value: false },

  // ——— a.f(b) is f(a, b); the call binds tighter than any operator
  { f: 'prop("Теги").map(current + "!").join(", ")', value: 'срочно!, дизайн!, web!', type: 'text', refs: ['f_tags'] },
  { f: '"  а б  ".trim().upper()', value: 'А Б', type: 'text' },
  { f: '[3, 1, 2].sort().reverse().first()', value: 3, type: 'any' },
  { f: 'prop("Срок").dateAdd(1, "days").formatDate("DD.MM")', value: '11.12', type: 'text' },
  { f: '-prop("Оценки").sum()', value: -17 },
  { f: '2 * [1, 2].sum()', value: 6 },
  { f: '(1 + 2).format()', value: '3', type: 'text' },
  { f: 'prop("Пусто").empty()', value: true },

  // ——— Logic
  { f: 'if(prop("Цена") > 100, "дорого", "дёшево")', value: 'дорого', type: 'text' },
  { f: 'if(prop("Готово"), prop("Цена"), prop("Пусто"))', value: 120, type: 'number', refs: ['f_done', 'f_price', 'f_none'] },
  { f: 'if(true, 1, 1 / 0)', value: 1 },
  { f: 'if(false, 1 / 0, 2)', value: 2 },
  { f: 'if(true, first([1]), "a")', value: 1, type: 'any' },
  { f: 'ifs(prop("Цена") > 200, "дорого", prop("Цена") > 100, "средне", "дёшево")', value: 'средне', type: 'text' },
  { f: 'ifs(false, 1, false, 2)', value: null, type: 'number' },
  { f: 'ifs(false, 1, 3)', value: 3, type: 'number' },
  { f: 'and(true, true, false)', value: false, type: 'boolean' },
  { f: 'or(false, false, true)', value: true, type: 'boolean' },
  { f: 'false and 1 / 0 > 0', value: false },
  { f: 'true or 1 / 0 > 0', value: true },
  { f: 'and(false, 1 / 0 > 0)', value: false },
  { f: 'or(true, 1 / 0 > 0)', value: true },
  { f: 'true and 1 / 0 > 0', error: 'Деление на ноль', at: [13, 14] },
  { f: 'not(prop("Готово"))', value: false, type: 'boolean' },
  { f: 'not(prop("Готово")) + "!"', value: 'false!', type: 'text' },
  { f: 'not prop("Готово") + "!"', refused: '«not»: значение должно быть логическим значением, а здесь текст', at: 'prop("Готово") + "!"' },
  { f: '"ёж" < "жук"', value: true, type: 'boolean' },
  { f: '"е" < "ё"', value: true, type: 'boolean' },
  { f: 'prop("Готово").not()', value: false },
  { f: 'empty(0)', value: true, type: 'boolean' },
  { f: 'empty("")', value: true },
  { f: 'empty(false)', value: true },
  { f: 'empty([])', value: true },
  { f: 'empty(prop("Пусто"))', value: true },
  { f: 'empty(prop("Пустой текст"))', value: true },
  { f: 'empty(ifs(false, 1))', value: true },
  { f: 'empty(" ")', value: false },
  { f: 'empty(prop("Теги"))', value: false },
  { f: 'empty(today())', value: false },
  { f: 'let(x, 2, x ^ 3)', value: 8, type: 'number' },
  { f: 'lets(a, 1, b, a + 1, a + b)', value: 3, type: 'number' },
  { f: 'let(x, 1, let(x, x + 1, x * 10))', value: 20 },
  { f: 'let(x, 1, let(x, 2, x) + x)', value: 3 },
  { f: 'let(сумма, prop("Цена") * prop("Кол-во"), сумма + 1)', value: 361 },
  { f: 'lets(x_1, 2, y, x_1 * 3, [x_1, y])', value: [2, 6], type: 'list' },

  // ——— Text
  { f: 'concat("a", "b", "c")', value: 'abc', type: 'text' },
  { f: 'concat([1, 2], [3], [])', value: [1, 2, 3], type: 'list' },
  { f: 'concat(prop("Теги"), ["новое"])', value: ['срочно', 'дизайн', 'web', 'новое'], type: 'list' },
  { f: 'concat(prop("Пустой текст"), "а")', value: 'а' },
  { f: 'join(prop("Теги"), ", ")', value: 'срочно, дизайн, web', type: 'text' },
  { f: 'join([1, 2.5, true], "-")', value: '1-2.5-true' },
  { f: 'join(prop("Оценки"), "")', value: '4535' },
  { f: 'length("Привет")', value: 6, type: 'number' },
  { f: 'length("Ёжик😀")', value: 5 },
  { f: 'length("👍🎉")', value: 2 },
  { f: 'length(prop("Теги"))', value: 3 },
  { f: 'length(prop("Пустой текст"))', value: 0 },
  { f: 'contains(prop("Название"), "сайт")', value: true, type: 'boolean' },
  { f: 'contains("Макет", "макет")', value: false },
  { f: 'contains(prop("Теги"), "web")', value: true },
  { f: 'contains(prop("Теги"), "we")', value: false },
  { f: 'replace("a.b.c", ".", "-")', value: 'a-b.c', type: 'text' },
  { f: 'replaceAll("a.b.c", ".", "-")', value: 'a-b-c', type: 'text' },
  { f: 'replace("ааа", "а", "б")', value: 'баа' },
  { f: 'replaceAll("1+1=2", "+", " плюс ")', value: '1 плюс 1=2' },
  { f: 'replaceAll("a.*b", ".*", "")', value: 'ab' },
  { f: 'replaceAll("[a](b)[a]", "[a]", "*")', value: '*(b)*' },
  { f: 'replace("цена: $1", "$1", "$&$$")', value: 'цена: $&$$' },
  { f: 'upper("ёлка")', value: 'ЁЛКА', type: 'text' },
  { f: 'lower("ЁЖИК Ё")', value: 'ёжик ё', type: 'text' },
  { f: 'upper(prop("Пустой текст"))', value: '' },
  { f: 'trim("  a b  ")', value: 'a b', type: 'text' },
  { f: 'format(12.5)', value: '12.5', type: 'text' },
  { f: 'format(true)', value: 'true' },
  { f: 'format(prop("Срок"))', value: '10 декабря 2026' },
  { f: 'format(prop("Начало"))', value: '4 декабря 2026 14:30' },
  { f: 'format(prop("Начало"))', tz: NYC, value: '4 декабря 2026 06:30' },
  { f: 'format(prop("Период"))', value: '1 декабря 2026 → 7 декабря 2026' },
  { f: 'format([1, "a", false])', value: '1, a, false' },
  { f: 'format(prop("Пусто"))', value: '' },
  { f: 'slice("Привет", 1, 3)', value: 'ри', type: 'text' },
  { f: 'slice("Привет", 3)', value: 'вет' },
  { f: 'slice("Привет", -3)', value: 'вет' },
  { f: 'slice("Привет", 1, -1)', value: 'риве' },
  { f: 'slice("😀ab", 0, 1)', value: '😀' },
  { f: 'slice([1, 2, 3, 4], 1, -1)', value: [2, 3], type: 'list' },
  { f: 'slice(prop("Теги"), -2)', value: ['дизайн', 'web'], type: 'list' },
  { f: 'split("a,b,c", ",")', value: ['a', 'b', 'c'], type: 'list' },
  { f: '"раз два".split(" ")', value: ['раз', 'два'] },
  { f: 'toNumber("1 234,5")', value: 1234.5, type: 'number' },
  { f: 'toNumber(" 42 ")', value: 42 },
  { f: 'toNumber("-3,5")', value: -3.5 },
  { f: 'toNumber("abc")', value: null, type: 'number' },
  { f: 'toNumber(true)', value: 1 },
  { f: 'toNumber(false)', value: 0 },
  { f: 'toNumber(prop("Начало"))', value: Date.parse('2026-12-04T11:30:00Z') },
  { f: 'toNumber(prop("Пусто"))', value: null },

  // ——— Numbers
  { f: 'round(2.5)', value: 3, type: 'number' },
  { f: 'round(-2.5)', value: -3 },
  { f: 'round(0.5)', value: 1 },
  { f: 'round(-0.5)', value: -1 },
  { f: 'round(2.4)', value: 2 },
  { f: 'round(-0.4)', value: 0 },
  { f: 'round(1.005, 2)', value: 1.01 },
  { f: 'round(-1.005, 2)', value: -1.01 },
  { f: 'round(2.345, 2)', value: 2.35 },
  { f: 'round(1234.5678, 1)', value: 1234.6 },
  { f: 'round(prop("Цена") / 7, 2)', value: 17.14 },
  { f: 'round(prop("Пусто"))', value: null, type: 'number' },
  { f: 'floor(2.7)', value: 2, type: 'number' },
  { f: 'floor(-2.5)', value: -3 },
  { f: 'ceil(2.1)', value: 3, type: 'number' },
  { f: 'ceil(-2.5)', value: -2 },
  { f: 'ceil(-0.5)', value: 0 },
  { f: 'abs(-3)', value: 3, type: 'number' },
  { f: 'abs(prop("Пусто"))', value: null },
  { f: 'sqrt(16)', value: 4, type: 'number' },
  { f: 'sqrt(-1)', error: '«sqrt»: результат не число', at: 'sqrt(-1)' },
  { f: 'min(3, 1, 2)', value: 1, type: 'number' },
  { f: 'min(prop("Оценки"), 2)', value: 2 },
  { f: 'max(prop("Оценки"))', value: 5, type: 'number' },
  { f: 'sum(prop("Оценки"), 10)', value: 27, type: 'number' },
  { f: 'sum([1, prop("Пусто"), 2])', value: 3 },
  { f: 'sum([])', value: 0 },
  { f: 'sum(prop("Пусто"))', value: 0 },
  { f: 'mean(prop("Оценки"))', value: 4.25, type: 'number' },
  { f: 'mean(1, prop("Пусто"), 3)', value: 2 },
  { f: 'median(prop("Оценки"))', value: 4.5, type: 'number' },
  { f: 'median(1, 3, 2)', value: 2 },
  { f: 'min([])', value: null },
  { f: 'max(prop("Пусто"), [])', value: null },
  { f: 'mean(prop("Пусто"))', value: null },
  { f: 'median(prop("Пусто"))', value: null },

  // ——— now() and today() in each zone, today() near midnight
  { f: 'now()', value: moment(NOW), type: 'date' },
  { f: 'today()', value: day('2026-12-04'), type: 'date' },
  { f: 'today()', tz: MSK, now: '2026-12-04T21:30:00Z', value: day('2026-12-05') },
  { f: 'today()', tz: BER, now: '2026-12-04T21:30:00Z', value: day('2026-12-04') },
  { f: 'today()', tz: UTC, now: '2026-12-04T21:30:00Z', value: day('2026-12-04') },
  { f: 'today()', tz: AKL, now: '2026-12-04T11:30:00Z', value: day('2026-12-05') },
  { f: 'today()', tz: NYC, now: '2026-12-04T11:30:00Z', value: day('2026-12-04') },
  { f: 'today()', tz: NYC, now: '2026-12-05T04:30:00Z', value: day('2026-12-04') },
  { f: 'today()', tz: UTC, now: '2026-12-05T04:30:00Z', value: day('2026-12-05') },
  { f: 'today()', tz: KOL, now: '2026-12-04T18:30:00Z', value: day('2026-12-05') },
  { f: 'today()', tz: KOL, now: '2026-12-04T18:29:59Z', value: day('2026-12-04') },
  { f: 'formatDate(today())', tz: MSK, now: '2026-12-04T21:30:00Z', value: '5 декабря 2026' },
  { f: 'formatDate(now(), "YYYY-MM-DD HH:mm")', tz: MSK, value: '2026-12-04 12:30' },
  { f: 'formatDate(now(), "YYYY-MM-DD HH:mm")', tz: BER, value: '2026-12-04 10:30' },
  { f: 'formatDate(now(), "YYYY-MM-DD HH:mm")', tz: NYC, value: '2026-12-04 04:30' },
  { f: 'formatDate(now(), "YYYY-MM-DD HH:mm")', tz: KOL, value: '2026-12-04 15:00' },
  { f: 'formatDate(now(), "YYYY-MM-DD HH:mm")', tz: AKL, value: '2026-12-04 22:30' },
  { f: 'formatDate(now(), "YYYY-MM-DD HH:mm")', tz: UTC, value: '2026-12-04 09:30' },
  // A day against a moment: the day's midnight in the zone.
  { f: 'dateBetween(now(), today(), "hours")', tz: MSK, value: 12 },
  { f: 'dateBetween(now(), today(), "hours")', tz: AKL, value: 22 },
  { f: 'dateBetween(now(), today(), "hours")', tz: NYC, value: 4 },
  { f: 'dateBetween(now(), today(), "minutes")', tz: KOL, value: 900 },
  { f: 'dateBetween(prop("Срок"), prop("Начало"), "days")', tz: MSK, value: 5 },
  { f: 'dateBetween(prop("Срок"), prop("Начало"), "days")', tz: AKL, value: 4 },

  // ——— dateAdd / dateSubtract of days: calendar units, no zone
  { f: 'dateAdd(prop("Срок"), 1, "months")', value: day('2027-01-10'), type: 'date' },
  { f: 'dateAdd(parseDate("2026-01-31"), 1, "month")', value: day('2026-02-28') },
  { f: 'dateAdd(parseDate("2028-01-31"), 1, "месяц")', value: day('2028-02-29') },
  { f: 'dateAdd(prop("Срок"), 2, "quarters")', value: day('2027-06-10') },
  { f: 'dateAdd(prop("Срок"), 1, "Q")', value: day('2027-03-10') },
  { f: 'dateAdd(prop("Срок"), 3, "дня")', value: day('2026-12-13') },
  { f: 'dateAdd(prop("Срок"), 1, "лет")', tz: AKL, value: day('2027-12-10') },
  { f: 'dateAdd(prop("Срок"), 2, "w")', tz: NYC, value: day('2026-12-24') },
  { f: 'dateAdd(prop("Срок"), 2, "M")', value: day('2027-02-10') },
  { f: 'dateAdd(prop("Срок"), 1.9, "days")', value: day('2026-12-11') },
  { f: 'dateSubtract(prop("Срок"), 10, "days")', value: day('2026-11-30'), type: 'date' },
  { f: 'dateSubtract(prop("Срок"), 1, "год")', value: day('2025-12-10') },
  { f: 'dateAdd(ifs(false, today()), 1, "days")', value: null, type: 'date' },
  // Moments: hours and smaller are durations (fractions too), "m" is minutes and "M" months.
  { f: 'dateAdd(now(), 90, "minutes")', value: moment('2026-12-04T11:00:00Z') },
  { f: 'dateAdd(now(), 1.5, "hours")', value: moment('2026-12-04T11:00:00Z') },
  { f: 'dateAdd(now(), 1, "m")', value: moment('2026-12-04T09:31:00Z') },
  { f: 'dateAdd(now(), 30, "секунд")', value: moment('2026-12-04T09:30:30Z') },
  { f: 'dateAdd(now(), 1.5, "days")', value: moment('2026-12-05T09:30:00Z') },

  // ——— Moments across a change of offset: calendar units keep the wall clock, hours do not
  { f: 'dateAdd(parseDate("2026-03-28T12:00"), 1, "days")', tz: BER, value: moment('2026-03-29T12:00+02:00') },
  { f: 'formatDate(dateAdd(parseDate("2026-03-28T12:00"), 24, "hours"), "D MMMM HH:mm")', tz: BER, value: '29 марта 13:00' },
  { f: 'dateBetween(dateAdd(parseDate("2026-03-28T12:00"), 1, "day"), parseDate("2026-03-28T12:00"), "hours")', tz: BER, value: 23 },
  { f: 'dateBetween(parseDate("2026-03-29T12:00"), parseDate("2026-03-28T12:00"), "days")', tz: BER, value: 1 },
  { f: 'dateBetween(parseDate("2026-03-30T00:00"), parseDate("2026-03-29T00:00"), "hours")', tz: BER, value: 23 },
  { f: 'dateAdd(parseDate("2026-10-24T12:00"), 1, "days")', tz: BER, value: moment('2026-10-25T12:00+01:00') },
  { f: 'dateBetween(parseDate("2026-10-26T00:00"), parseDate("2026-10-25T00:00"), "hours")', tz: BER, value: 25 },
  { f: 'dateAdd(parseDate("2026-03-15T09:00"), 1, "month")', tz: BER, value: moment('2026-04-15T09:00+02:00') },
  { f: 'formatDate(dateAdd(parseDate("2026-03-29T01:30"), 1, "hours"), "HH:mm")', tz: BER, value: '03:30' },
  { f: 'formatDate(dateAdd(parseDate("2026-10-25T02:30+02:00"), 1, "hour"), "HH:mm")', tz: BER, value: '02:30' },
  { f: 'parseDate("2026-03-29T02:30")', tz: BER, value: moment('2026-03-29T03:30+02:00') },
  { f: 'parseDate("2026-10-25T02:30")', tz: BER, value: moment('2026-10-25T02:30+01:00') },
  { f: 'dateAdd(parseDate("2026-03-28T02:30"), 1, "days")', tz: BER, value: moment('2026-03-29T03:30+02:00') },
  { f: 'hour(parseDate("2026-03-29T03:30+02:00"))', tz: BER, value: 3 },
  { f: 'dateAdd(parseDate("2026-03-07T09:00"), 1, "days")', tz: NYC, value: moment('2026-03-08T09:00-04:00') },
  { f: 'dateAdd(parseDate("2026-03-07T09:00"), 24, "hours")', tz: NYC, value: moment('2026-03-08T10:00-04:00') },
  { f: 'dateAdd(parseDate("2026-10-31T09:00"), 1, "days")', tz: NYC, value: moment('2026-11-01T09:00-05:00') },
  { f: 'dateSubtract(parseDate("2026-11-01T12:00"), 1, "day")', tz: NYC, value: moment('2026-10-31T12:00-04:00') },
  { f: 'dateBetween(parseDate("2026-11-02T00:00"), parseDate("2026-11-01T00:00"), "hours")', tz: NYC, value: 25 },
  { f: 'dateBetween(parseDate("2026-03-09T00:00"), parseDate("2026-03-08T00:00"), "hours")', tz: NYC, value: 23 },
  { f: 'parseDate("2026-11-01T01:30")', tz: NYC, value: moment('2026-11-01T01:30-05:00') },
  { f: 'parseDate("2026-03-08T02:30")', tz: NYC, value: moment('2026-03-08T03:30-04:00') },
  { f: 'formatDate(dateAdd(parseDate("2026-11-01T01:30-04:00"), 1, "hours"), "HH:mm")', tz: NYC, value: '01:30' },

  // ——— dateBetween: whole units from d2 to d1, toward zero
  { f: 'dateBetween(prop("Срок"), today(), "days")', value: 6, type: 'number' },
  { f: 'dateBetween(today(), prop("Срок"), "дней")', value: -6 },
  { f: 'dateBetween(prop("Срок"), today(), "weeks")', value: 0 },
  { f: 'dateBetween(parseDate("2026-12-25"), parseDate("2026-12-04"), "недели")', value: 3 },
  { f: 'dateBetween(parseDate("2027-02-10"), prop("Срок"), "месяца")', value: 2 },
  { f: 'dateBetween(parseDate("2027-03-10"), prop("Срок"), "quarters")', value: 1 },
  { f: 'dateBetween(parseDate("2027-03-09"), prop("Срок"), "кварталов")', value: 0 },
  { f: 'dateBetween(parseDate("2026-12-11"), parseDate("2027-03-10"), "quarters")', value: 0 },
  { f: 'dateBetween(parseDate("2026-06-10"), prop("Срок"), "Q")', value: -2 },
  { f: 'dateBetween(parseDate("2028-12-10"), prop("Срок"), "лет")', value: 2 },
  { f: 'dateBetween(parseDate("2028-12-09"), prop("Срок"), "years")', value: 1 },
  { f: 'dateBetween(prop("Начало"), now(), "minutes")', value: 120 },
  { f: 'dateBetween(prop("Начало"), now(), "hours")', tz: AKL, value: 2 },
  { f: 'dateBetween(prop("Начало"), now(), "seconds")', value: 7200 },
  { f: 'dateBetween(parseDate("2026-12-04T14:00"), now(), "hours")', value: 1 },
  { f: 'dateBetween(now(), parseDate("2026-12-04T14:00"), "hours")', value: -1 },
  { f: 'dateBetween(now(), parseDate("2026-12-04T13:00"), "hours")', value: 0 },
  { f: 'dateBetween(prop("Срок"), ifs(false, today()), "days")', value: null, type: 'number' },

  // ——— dateRange, dateStart, dateEnd
  { f: 'dateRange(prop("Срок"), dateAdd(prop("Срок"), 2, "days"))', value: day('2026-12-10', '2026-12-12'), type: 'date' },
  { f: 'dateStart(prop("Период"))', value: day('2026-12-01'), type: 'date' },
  { f: 'dateEnd(prop("Период"))', value: day('2026-12-07'), type: 'date' },
  { f: 'dateEnd(prop("Срок"))', value: day('2026-12-10') },
  { f: 'dateStart(prop("Начало"))', value: moment('2026-12-04T11:30:00Z') },
  { f: 'dateBetween(dateEnd(prop("Период")), dateStart(prop("Период")), "days")', value: 6 },

  // ——— formatDate
  { f: 'formatDate(prop("Срок"), "D MMMM YYYY")', value: '10 декабря 2026', type: 'text' },
  { f: 'formatDate(prop("Срок"), "dddd, D MMMM")', value: 'четверг, 10 декабря' },
  { f: 'formatDate(parseDate("2026-12-04"), "dddd")', value: 'пятница' },
  { f: 'formatDate(prop("Срок"), "DD.MM.YYYY")', value: '10.12.2026' },
  { f: 'formatDate(prop("Срок"))', tz: AKL, value: '10 декабря 2026' },
  { f: 'formatDate(prop("Срок"))', tz: NYC, value: '10 декабря 2026' },
  { f: 'formatDate(prop("Начало"))', tz: MSK, value: '4 декабря 2026 14:30' },
  { f: 'formatDate(prop("Начало"))', tz: AKL, value: '5 декабря 2026 00:30' },
  { f: 'formatDate(prop("Начало"), "HH:mm")', tz: KOL, value: '17:00' },
  { f: 'formatDate(prop("Начало"), "HH:mm")', tz: NYC, value: '06:30' },
  { f: 'formatDate(parseDate("2026-12-04T14:30Z"))', tz: BER, value: '4 декабря 2026 15:30' },

  // ——— Parts: a day's are the same everywhere, a moment's in the zone
  { f: 'year(prop("Срок"))', tz: AKL, value: 2026, type: 'number' },
  { f: 'month(prop("Срок"))', value: 12, type: 'number' },
  { f: 'date(prop("Срок"))', tz: NYC, value: 10, type: 'number' },
  { f: 'day(prop("Срок"))', tz: AKL, value: 4, type: 'number' },
  { f: 'week(prop("Срок"))', value: 50, type: 'number' },
  { f: 'day(parseDate("2026-12-06"))', value: 7 },
  { f: 'day(parseDate("2026-12-07"))', value: 1 },
  { f: 'week(parseDate("2027-01-01"))', value: 53 },
  { f: 'week(parseDate("2025-12-29"))', value: 1 },
  { f: 'hour(prop("Начало"))', tz: MSK, value: 14, type: 'number' },
  { f: 'hour(prop("Начало"))', tz: NYC, value: 6 },
  { f: 'hour(prop("Начало"))', tz: KOL, value: 17 },
  { f: 'hour(prop("Начало"))', tz: UTC, value: 11 },
  { f: 'minute(prop("Начало"))', tz: MSK, value: 30, type: 'number' },
  { f: 'minute(prop("Начало"))', tz: KOL, value: 0 },
  { f: 'date(prop("Начало"))', tz: AKL, value: 5 },
  { f: 'day(prop("Начало"))', tz: AKL, value: 6 },
  { f: 'day(prop("Начало"))', tz: MSK, value: 5 },
  { f: 'week(parseDate("2026-12-06T23:30Z"))', tz: MSK, value: 50 },
  { f: 'week(parseDate("2026-12-06T23:30Z"))', tz: UTC, value: 49 },
  { f: 'year(parseDate("2026-12-31T22:00Z"))', tz: MSK, value: 2027 },
  { f: 'month(parseDate("2026-12-31T22:00Z"))', tz: MSK, value: 1 },
  { f: 'year(parseDate("2026-12-31T22:00Z"))', tz: UTC, value: 2026 },
  { f: 'year(ifs(false, today()))', value: null, type: 'number' },

  // ——— parseDate and timestamp
  { f: 'parseDate("2026-12-04")', tz: AKL, value: day('2026-12-04'), type: 'date' },
  { f: 'parseDate("04.12.2026")', value: day('2026-12-04') },
  { f: 'parseDate("2026-12-04T14:30")', tz: MSK, value: moment('2026-12-04T14:30+03:00') },
  { f: 'parseDate("2026-12-04T14:30")', tz: KOL, value: moment('2026-12-04T14:30+05:30') },
  { f: 'parseDate("2026-12-04T14:30")', tz: AKL, value: moment('2026-12-04T14:30+13:00') },
  { f: 'parseDate("2026-12-04T14:30Z")', tz: KOL, value: moment('2026-12-04T14:30:00Z') },
  { f: 'parseDate("2026-12-04T14:30+03:00")', tz: NYC, value: moment('2026-12-04T11:30:00Z') },
  { f: 'parseDate("2026-12-04T14:30+05:30")', tz: UTC, value: moment('2026-12-04T09:00:00Z') },
  { f: 'parseDate("2026-02-30")', error: '«parseDate»: «2026-02-30» — не дата', at: 'parseDate("2026-02-30")' },
  { f: 'parseDate("2026-02-30T10:00")', error: '«parseDate»: «2026-02-30T10:00» — не дата', at: 'parseDate("2026-02-30T10:00")' },
  { f: 'parseDate("завтра")', error: '«parseDate»: «завтра» — не дата', at: 'parseDate("завтра")' },
  { f: 'parseDate(prop("Пустой текст"))', value: null, type: 'date' },
  { f: 'timestamp(prop("Начало"))', tz: AKL, value: Date.parse('2026-12-04T11:30:00Z'), type: 'number' },
  { f: 'timestamp(now())', value: Date.parse(NOW) },

  // ——— Lists: current and index, nesting
  { f: 'map([1, 2, 3], current * 2)', value: [2, 4, 6], type: 'list' },
  { f: 'map(["а", "б"], index + ":" + current)', value: ['0:а', '1:б'] },
  { f: '[[1, 2], [3]].map(current.map(current * 10))', value: [[10, 20], [30]] },
  {
    f: '[1, 2].map(let(o, current, [10, 20].map(current + o)))',
    value: [
      [11, 21],
      [12, 22],
    ],
  },
  { f: 'map(ifs(false, [1]), current)', value: [] },
  { f: 'filter(prop("Оценки"), current >= 4)', value: [4, 5, 5], type: 'list' },
  { f: 'filter(prop("Оценки"), index % 2 == 0)', value: [4, 3] },
  { f: 'prop("Теги").filter(current != prop("Название")).length()', value: 3, refs: ['f_tags', 'f_title'] },
  { f: 'find(prop("Оценки"), current < 4)', value: 3, type: 'any' },
  { f: 'find(prop("Оценки"), current > 10)', value: null },
  { f: 'some(prop("Теги"), current == "web")', value: true, type: 'boolean' },
  { f: 'some([], true)', value: false },
  { f: 'every(prop("Оценки"), current >= 3)', value: true, type: 'boolean' },
  { f: 'every(prop("Оценки"), current > 3)', value: false },
  { f: 'every([], false)', value: true },
  { f: 'first(prop("Теги"))', value: 'срочно', type: 'any' },
  { f: 'last(prop("Оценки"))', value: 5, type: 'any' },
  { f: 'first([])', value: null },
  { f: 'at(prop("Теги"), 1)', value: 'дизайн', type: 'any' },
  { f: 'at(prop("Теги"), -1)', value: 'web' },
  { f: 'at([1, 2, 3], 5)', error: '«at»: нет элемента с номером 5 в списке из 3', at: 'at([1, 2, 3], 5)' },
  { f: 'at([1, 2, 3], -4)', error: '«at»: нет элемента с номером -4 в списке из 3', at: 'at([1, 2, 3], -4)' },
  { f: 'prop("Теги").at(3)', error: '«at»: нет элемента с номером 3 в списке из 3', at: 'prop("Теги").at(3)' },
  { f: 'sort([3, 1, 2])', value: [1, 2, 3], type: 'list' },
  { f: 'sort([10, 9, 100])', value: [9, 10, 100] },
  { f: 'sort(["жук", "ёж", "еда", "Яблоко", "арбуз"])', value: ['арбуз', 'еда', 'ёж', 'жук', 'Яблоко'] },
  { f: 'sort([3, prop("Пусто"), 1])', value: [1, 3, null] },
  { f: 'sort([parseDate("2026-12-10"), parseDate("2026-01-01")])', value: [day('2026-01-01'), day('2026-12-10')] },
  { f: 'reverse([1, 2, 3])', value: [3, 2, 1], type: 'list' },
  { f: 'unique([1, 2, 1, "1"])', value: [1, 2, '1'], type: 'list' },
  { f: 'unique(prop("Оценки"))', value: [4, 5, 3] },
  { f: 'includes(prop("Теги"), "web")', value: true, type: 'boolean' },
  { f: 'includes(prop("Оценки"), 6)', value: false },
  { f: 'includes([parseDate("2026-12-10")], prop("Срок"))', value: true },
  { f: 'flat([[1, 2], [3], 4])', value: [1, 2, 3, 4], type: 'list' },

  // ——— References: each field once, in order of appearance
  { f: 'prop("Цена") * prop("Кол-во")', value: 360, type: 'number', refs: ['f_price', 'f_qty'] },
  { f: 'prop("Кол-во") * prop("Цена") + prop("Кол-во")', value: 363, refs: ['f_qty', 'f_price'] },
  { f: 'prop(«Цена») + 1', value: 121, refs: ['f_price'] },
  { f: '1 + 2', value: 3, refs: [] },

  // ——— Refused before running: syntax
  { f: '"abc', refused: 'Текст не закрыт кавычкой', at: [0, 4] },
  { f: 'round(1', refused: 'Ожидалась закрывающая скобка «)», а здесь конец формулы' },
  { f: '1 + 2)', refused: 'Лишнее в конце формулы: «)»', at: ')' },
  { f: '1 = 1', refused: 'Для сравнения пишут «==»', at: '=' },
  { f: '', refused: 'Формула пуста', at: [0, 0] },
  { f: '   ', refused: 'Формула пуста', at: [3, 3] },
  { f: '1 +', refused: 'Формула оборвалась: ожидалось значение', at: [3, 3] },
  { f: '2 @ 3', refused: 'Непонятный знак «@»', at: '@' },
  // Names
  { f: 'foo(1)', refused: 'Неизвестная функция «foo»', at: 'foo' },
  { f: 'x + 1', refused: 'Неизвестное имя «x»', at: 'x' },
  { f: 'let(x, x, 1)', refused: 'Неизвестное имя «x»', at: [7, 8] },
  { f: 'prop("Нет")', refused: 'Нет поля «Нет»', at: '"Нет"' },
  { f: 'prop("f_price")', refused: 'Нет поля «f_price»', at: '"f_price"' },
  { f: 'prop(1)', refused: 'prop("Поле"): в скобках — имя поля в кавычках', at: 'prop(1)' },
  { f: 'round + 1', refused: '«round» — функция: пишется со скобками, round(число, знаков)', at: 'round' },
  { f: 'current * 2', refused: '«current» есть только внутри map, filter, find, some и every', at: 'current' },
  { f: '1 + index', refused: '«index» есть только внутри map, filter, find, some и every', at: 'index' },
  { f: 'let("x", 1, 2)', refused: '«let»: здесь должно быть имя (буквы, цифры, _), без кавычек', at: '"x"' },
  { f: 'let(round, 1, 2)', refused: '«round» — занятое имя, выберите другое', at: 'round' },
  // Arity, with the Russian plural
  { f: 'round(1, 2, 3)', refused: '«round» принимает от 1 до 2 аргументов, а здесь 3: round(число, знаков)', at: 'round(1, 2, 3)' },
  { f: 'upper()', refused: '«upper» принимает 1 аргумент, а здесь 0: upper(текст)', at: 'upper()' },
  { f: 'dateAdd(today(), 1)', refused: '«dateAdd» принимает 3 аргумента, а здесь 2: dateAdd(дата, сколько, "days")', at: 'dateAdd(today(), 1)' },
  { f: 'today(1)', refused: '«today» принимает 0 аргументов, а здесь 1: today()', at: 'today(1)' },
  { f: 'min()', refused: '«min» принимает не меньше 1 аргумента, а здесь 0: min(a, b, …)', at: 'min()' },
  { f: 'ifs(true)', refused: '«ifs» принимает не меньше 2 аргументов, а здесь 1: ifs(условие1, значение1, условие2, значение2, …, иначе)', at: 'ifs(true)' },
  { f: 'slice("a")', refused: '«slice» принимает от 2 до 3 аргументов, а здесь 1: slice(текст или список, с, до)', at: 'slice("a")' },
  // Types, where known
  { f: '"a" * 2', refused: '«*» работает с числами, а здесь текст', at: '"a"' },
  { f: '2 - "a"', refused: '«-» работает с числами, а здесь текст', at: '"a"' },
  { f: 'true + 1', refused: '«+» работает с числами, а здесь логическое значение', at: 'true' },
  { f: '1 < "a"', refused: '«<» сравнивает значения одного типа, а здесь число и текст', at: '<' },
  { f: 'if(1, 2, 3)', refused: '«if»: условие должно быть логическим значением, а здесь число', at: [3, 4] },
  { f: 'if(true, 1, "a")', refused: 'Ветви «if» дают разные типы: число и текст', at: 'if(true, 1, "a")' },
  { f: 'prop("Срок") + 1', refused: 'К дате прибавляют dateAdd(дата, 1, "days"), разницу дат даёт dateBetween', at: 'prop("Срок")' },
  { f: 'prop("Срок") - today()', refused: 'К дате прибавляют dateAdd(дата, 1, "days"), разницу дат даёт dateBetween', at: 'prop("Срок")' },
  { f: 'length(5)', refused: '«length»: 1-й аргумент должен быть текстом или списком, а здесь число', at: '5' },
  { f: 'dateAdd(1, 1, "days")', refused: '«dateAdd»: 1-й аргумент должен быть датой, а здесь число', at: [8, 9] },
  { f: 'map(5, current)', refused: '«map»: 1-й аргумент должен быть списком, а здесь число', at: '5' },
  { f: 'sum("a")', refused: '«sum»: 1-й аргумент должен быть числом или списком чисел, а здесь текст', at: '"a"' },
  { f: 'concat("a", 1)', refused: '«concat»: 2-й аргумент должен быть текстом или списком, а здесь число', at: '1' },

  // ——— The row's error (found when run), at its place
  { f: '1 / 0', error: 'Деление на ноль', at: [4, 5] },
  { f: '5 % (prop("Цена") - 120)', error: 'Деление на ноль', at: '(prop("Цена") - 120)' },
  { f: 'sum(["a", 1])', error: '«sum»: 1-й аргумент должен быть числом или списком чисел, а здесь текст', at: '["a", 1]' },
  { f: 'sum(prop("Теги"))', error: '«sum»: 1-й аргумент должен быть числом или списком чисел, а здесь текст', at: 'prop("Теги")' },
  { f: 'map([1, "a"], current * 2)', error: '«*» работает с числами, а здесь текст', at: 'current' },
  { f: 'filter([1, 2], current)', error: '«filter»: условие должно быть логическим значением, а здесь число', at: 'current' },
  { f: 'upper(first(prop("Оценки")))', error: '«upper»: 1-й аргумент должен быть текстом, а здесь число', at: 'first(prop("Оценки"))' },
  { f: 'first(prop("Оценки")) < "a"', error: '«<» сравнивает значения одного типа, а здесь число и текст', at: '<' },
  { f: '10 ^ 400', error: 'Результат — не число (слишком большое или неопределённое значение)', at: '10 ^ 400' },
  {
    f: 'dateAdd(today(), 1, "fortnights")',
    error: '«dateAdd»: неизвестная единица «fortnights» (годы, месяцы, недели, дни, часы, минуты…: "days", "дней")',
    at: '"fortnights"',
  },
  // Limits: a text over 10,000 letters, a list over 1,000 items.
  { f: long('x', 'd'), value: 'x'.repeat(10_000), type: 'text' },
  { f: long('x', 'd + "x"'), error: 'Слишком длинный текст: больше 10000 знаков', at: long('x', 'd + "x"') },
  { f: long('😀', 'd'), value: '😀'.repeat(10_000) },
  { f: long('x', 'split(c, "")'), value: Array.from({ length: 1000 }, () => 'x'), type: 'list' },
  { f: long('x', 'split(c + "x", "")'), error: 'Слишком длинный список: больше 1000 элементов', at: long('x', 'split(c + "x", "")') },
];

const byName = (name: string) => FIELDS.find((field) => field.name === name);
const byId = (id: string) => FIELDS.find((field) => field.id === id);
const context = (row: Pick<Row, 'tz' | 'now'>) => ({ now: Date.parse(row.now ?? NOW), timeZone: row.tz ?? MSK, value: (id: string) => ROW[id] ?? null });

function span(row: Row): { start: number; end: number } | undefined {
  if (row.at === undefined) return undefined;
  if (Array.isArray(row.at)) return { start: row.at[0], end: row.at[1] };
  const start = row.f.indexOf(row.at);
  if (start < 0) throw new Error(`«${row.at}» is not in «${row.f}»`);
  return { start, end: start + row.at.length };
}

function refusal(row: Row): FormulaError {
  try {
    compileFormula(row.f, byName);
  } catch (error) {
    if (error instanceof FormulaError) return error;
    throw error;
  }
  throw new Error(`«${row.f}» was not refused`);
}

test('the table is at least 170 rows', () => {
  expect(ROWS.length).toBeGreaterThanOrEqual(170);
});

describe.each([
  ['winter', '2026-01-15T12:00:00Z'],
  ['summer', '2026-07-15T12:00:00Z'],
])('with the machine clock in %s', (_season, clock) => {
  beforeAll(() => jest.useFakeTimers({ now: Date.parse(clock) }));
  afterAll(() => jest.useRealTimers());

  test.each(
    ROWS.map(
      (row) => [`${row.f.length > 120 ? `${row.f.slice(0, 117)}…` : row.f}${row.tz ? ` [${row.tz}]` : ''}${row.now ? ` @${row.now}` : ''}`, row] as const,
    ),
  )('%s', (_title, row) => {
    const where = span(row);
    if (row.refused !== undefined) {
      const error = refusal(row);
      expect(error.message).toBe(row.refused);
      if (where) expect({ start: error.start, end: error.end }).toEqual(where);
      return;
    }
    const compiled = compileFormula(row.f, byName);
    if (row.type !== undefined) expect(compiled.type).toBe(row.type);
    if (row.refs !== undefined) expect(compiled.references).toEqual(row.refs);
    const outcome = compiled.evaluate(context(row));
    if (row.error !== undefined) {
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error.message).toBe(row.error);
      if (where) expect({ start: outcome.error.start, end: outcome.error.end }).toEqual(where);
      return;
    }
    expect('value' in row).toBe(true);
    expect(outcome).toEqual({ ok: true, value: row.value });
  });
});

describe('fields kept by id, shown by name', () => {
  const idOfName = (name: string) => byName(name)?.id;
  const nameOfId = (id: string) => byId(id)?.name;
  const SHOWN = 'if(prop("Готово"), prop("Цена") * prop("Кол-во"), 0) + prop("Теги").map(current + prop("Название")).length()';
  const STORED = 'if(prop("f_done"), prop("f_price") * prop("f_qty"), 0) + prop("f_tags").map(current + prop("f_title")).length()';

  test('toStoredFormula puts ids for names, toShownFormula names for ids', () => {
    expect(toStoredFormula(SHOWN, idOfName)).toBe(STORED);
    expect(toShownFormula(STORED, nameOfId)).toBe(SHOWN);
  });

  test('the stored formula gives the same value and references', () => {
    const shown = compileFormula(SHOWN, byName);
    const stored = compileFormula(STORED, byId);
    expect(stored.references).toEqual(['f_done', 'f_price', 'f_qty', 'f_tags', 'f_title']);
    expect(shown.references).toEqual(stored.references);
    expect(stored.evaluate(context({}))).toEqual({ ok: true, value: 363 });
    expect(shown.evaluate(context({}))).toEqual(stored.evaluate(context({})));
  });

  test('only prop("…") texts are swapped; an unknown name is left as written', () => {
    expect(toStoredFormula('"Цена" + prop("Цена") + prop("Нет") + prop(«Кол-во»)', idOfName)).toBe('"Цена" + prop("f_price") + prop("Нет") + prop("f_qty")');
    expect(toShownFormula('prop("f_gone") + prop("f_price")', nameOfId)).toBe('prop("f_gone") + prop("Цена")');
  });

  test('a renamed field keeps the stored formula working', () => {
    const renamed = (id: string) => (id === 'f_price' ? 'Стоимость' : nameOfId(id));
    const shown = toShownFormula(toStoredFormula('prop("Цена") * 2', idOfName), renamed);
    expect(shown).toBe('prop("Стоимость") * 2');
  });
});
