/**
 * `npm run bench:formula` (issue 38): the formula evaluator (schema/formula) over 50,000 rows, for
 * formulas of each kind — what recomputing a formula field's column costs in the process, before
 * any database work (the target for the whole recompute: ≤ 10 s on SQLite).
 *
 * Baseline in the same run, per formula: the same computation written by hand in TypeScript
 * (the same date helpers called directly), so the figure is the interpreter's cost as a ratio.
 * 3 interleaved repetitions, medians.   BENCH_FORMULA_ROWS=50000 npm run bench:formula
 */
import { compileFormula, type FormulaField, type FormulaValue } from '../../schema/formula';
import { addToDate, formatDate, today, unitsBetween } from '../../schema/formula/dates';
import type { FormulaDate } from '../../schema/formula/values';

const ROWS = Number(process.env.BENCH_FORMULA_ROWS ?? 50_000);
const ZONE = 'Europe/Moscow';
const NOW = Date.UTC(2026, 11, 4, 9, 30);

const FIELDS: FormulaField[] = [
  { id: 'p', name: 'Цена', type: 'number' },
  { id: 'q', name: 'Кол-во', type: 'number' },
  { id: 'd', name: 'Срок', type: 'date' },
  { id: 't', name: 'Теги', type: 'list' },
  { id: 'n', name: 'Название', type: 'text' },
];
interface Row {
  p: number;
  q: number;
  d: FormulaDate;
  t: string[];
  n: string;
}
const rows: Row[] = Array.from({ length: ROWS }, (_, i) => ({
  p: i % 977,
  q: i % 13,
  d: { start: Date.UTC(2026, 0, 1) + (i % 400) * 86_400_000, end: null, time: false },
  t: ['срочно', 'клиент', `тег${i % 7}`],
  n: `Задача ${i}`,
}));

const CASES: Array<{ name: string; expression: string; byHand(row: Row): FormulaValue }> = [
  { name: 'arithmetic', expression: 'prop("Цена") * prop("Кол-во")', byHand: (r) => r.p * r.q },
  {
    name: 'condition on a date',
    expression: 'if(prop("Срок") < today(), "просрочено", "в срок")',
    byHand: (r) => (r.d.start < today(NOW, ZONE).start ? 'просрочено' : 'в срок'),
  },
  { name: 'days between', expression: 'dateBetween(prop("Срок"), today(), "days")', byHand: (r) => unitsBetween(r.d, today(NOW, ZONE), 'days', ZONE) },
  {
    name: 'hours to now',
    expression: 'dateBetween(prop("Срок"), now(), "hours")',
    byHand: (r) => unitsBetween(r.d, { start: NOW, end: null, time: true }, 'hours', ZONE),
  },
  { name: 'format a date', expression: 'formatDate(prop("Срок"), "D MMMM YYYY")', byHand: (r) => formatDate(r.d, ZONE, 'D MMMM YYYY') },
  { name: 'a month later', expression: 'dateAdd(prop("Срок"), 1, "months")', byHand: (r) => addToDate(r.d, 1, 'months', ZONE) },
  {
    name: 'list and text',
    expression: 'prop("Теги").map(upper(current)).join(", ") + " — " + prop("Название")',
    byHand: (r) => `${r.t.map((tag) => tag.toLocaleUpperCase('ru')).join(', ')} — ${r.n}`,
  },
  {
    name: 'lets and rounding',
    expression: 'lets(a, prop("Цена") * 1.2, b, round(a, 2), if(b > 500, "дорого", format(b)))',
    byHand: (r) => {
      const b = Math.round(r.p * 1.2 * 100) / 100;
      return b > 500 ? 'дорого' : String(b);
    },
  },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function main() {
  const compiled = CASES.map((c) => compileFormula(c.expression, (name) => FIELDS.find((f) => f.name === name)));
  // The evaluator and the hand-written version agree on every row (else the figures mean nothing).
  CASES.forEach((c, i) => {
    for (const row of rows.slice(0, 500)) {
      const out = compiled[i].evaluate({ now: NOW, timeZone: ZONE, value: (id) => row[id as keyof Row] as FormulaValue });
      if (!out.ok || JSON.stringify(out.value) !== JSON.stringify(c.byHand(row)))
        throw new Error(`${c.name}: ${JSON.stringify(out)} ≠ ${JSON.stringify(c.byHand(row))}`);
    }
  });
  const times = CASES.map(() => ({ formula: [] as number[], byHand: [] as number[] }));
  for (let repetition = 0; repetition < 3; repetition += 1) {
    CASES.forEach((c, i) => {
      const order = repetition % 2 === 0 ? (['formula', 'byHand'] as const) : (['byHand', 'formula'] as const);
      for (const kind of order) {
        const started = performance.now();
        if (kind === 'formula') {
          for (const row of rows) compiled[i].evaluate({ now: NOW, timeZone: ZONE, value: (id) => row[id as keyof Row] as FormulaValue });
        } else {
          for (const row of rows) c.byHand(row);
        }
        times[i][kind].push(performance.now() - started);
      }
    });
  }
  console.log(`formula evaluator, ${ROWS} rows, medians of 3 (ms)`);
  console.log(`${'case'.padEnd(22)} ${'formula'.padStart(9)} ${'by hand'.padStart(9)} ${'ratio'.padStart(7)}  µs/row`);
  CASES.forEach((c, i) => {
    const f = median(times[i].formula);
    const h = median(times[i].byHand);
    console.log(
      `${c.name.padEnd(22)} ${f.toFixed(0).padStart(9)} ${h.toFixed(0).padStart(9)} ${(f / h).toFixed(1).padStart(7)}  ${((f * 1000) / ROWS).toFixed(1)}`,
    );
  });
}

main();
