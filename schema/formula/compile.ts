import { FUNCTIONS, formatValue, typeError, type CallSite, type RunContext } from './functions';
import { FormulaError, parse, type Node, type Span } from './syntax';
import { isDate, sameValue, typeOf, TYPE_NAMES, type FormulaType, type FormulaValue } from './values';

/*
 * A formula's tree turned into a function of a row (docs/formulas.md): types checked first, with
 * the error at its place; fields referred to by `prop("…")` resolved (by id as stored, by name as
 * the editor shows), and the list of those referred to kept (dependencies, cycles). The same
 * code runs on the server (every row's value) and in the browser (the editor's preview).
 */

/** A field a formula may name: its id (kept), its name (shown) and the type of its values in formulas. */
export interface FormulaField {
  id: string;
  name: string;
  type: FormulaType;
}

export interface EvalContext extends RunContext {
  /** A field's value in the row (empty: null). */
  value(fieldId: string): FormulaValue;
}

export type FormulaOutcome = { ok: true; value: FormulaValue } | { ok: false; error: { message: string; start: number; end: number } };

export interface CompiledFormula {
  /** What the formula gives (`any`: known only when it runs). */
  type: FormulaType;
  /** The ids of the fields it reads, once each, in order of appearance. */
  references: string[];
  /** It calls now() or today(): its value changes with the time, not only with the row. */
  readsClock: boolean;
  evaluate(context: EvalContext): FormulaOutcome;
}

/** The longest text and list a formula may give (one row's value). */
export const FORMULA_RESULT_LIMITS = { text: 10_000, list: 1_000 } as const;

type Frame = FormulaValue[];
interface Env {
  context: EvalContext;
  frame: Frame;
}
interface Compiled {
  type: FormulaType;
  run(env: Env): FormulaValue;
}
/** Names in scope: `let`'s, and `current`/`index` inside a list function, each a slot of the frame. */
type Scope = ReadonlyMap<string, { slot: number; type: FormulaType }>;

const at = (span: Span, message: string) => new FormulaError(message, span.start, span.end);
const known = (type: FormulaType) => type !== 'any' && type !== 'empty';

/** The type both branches give; different known types are an error. */
function unify(a: FormulaType, b: FormulaType, span: Span, what: string): FormulaType {
  if (a === b) return a;
  if (a === 'empty') return b;
  if (b === 'empty') return a;
  if (a === 'any' || b === 'any') return 'any';
  throw at(span, `${what} дают разные типы: ${TYPE_NAMES[a]} и ${TYPE_NAMES[b]}`);
}

/** A boolean the condition gave (empty: false); anything else is an error at the condition. */
function truth(value: FormulaValue, span: Span, what: string): boolean {
  if (value === null) return false;
  if (typeof value !== 'boolean') throw at(span, `${what} должно быть логическим значением, а здесь ${TYPE_NAMES[typeOf(value)]}`);
  return value;
}

function expectBoolean(type: FormulaType, span: Span, what: string): void {
  if (known(type) && type !== 'boolean') throw at(span, `${what} должно быть логическим значением, а здесь ${TYPE_NAMES[type]}`);
}

function numeric(value: FormulaValue, span: Span, op: string): number | null {
  if (value === null || typeof value === 'number') return value;
  throw at(span, `«${op}» работает с числами, а здесь ${TYPE_NAMES[typeOf(value)]}`);
}

function finite(value: number, span: Span): number {
  if (Number.isNaN(value) || !Number.isFinite(value)) throw at(span, 'Результат — не число (слишком большое или неопределённое значение)');
  return value;
}

const ORDERABLE: ReadonlySet<FormulaType> = new Set(['number', 'text', 'date', 'boolean']);

function order(a: FormulaValue, b: FormulaValue): number {
  if (isDate(a) && isDate(b)) return a.start - b.start;
  // Texts as the Russian alphabet goes (ё after е), as `sort` orders them.
  if (typeof a === 'string' && typeof b === 'string') return a.localeCompare(b, 'ru');
  return Number(a) - Number(b);
}

export function compileFormula(expression: string, resolve: (reference: string) => FormulaField | undefined): CompiledFormula {
  const tree = parse(expression);
  const references: string[] = [];
  let readsClock = false;
  let slots = 0;

  const compile = (node: Node, scope: Scope): Compiled => {
    switch (node.kind) {
      case 'number':
      case 'text':
      case 'boolean': {
        const value = node.value;
        return { type: node.kind, run: () => value };
      }
      case 'list': {
        const items = node.items.map((item) => compile(item, scope));
        return { type: 'list', run: (env) => items.map((item) => item.run(env)) };
      }
      case 'name': {
        const bound = scope.get(node.name);
        if (bound) return { type: bound.type, run: (env) => env.frame[bound.slot] ?? null };
        if (FUNCTIONS[node.name]) throw at(node, `«${node.name}» — функция: пишется со скобками, ${FUNCTIONS[node.name].signature}`);
        if (node.name === 'current' || node.name === 'index') throw at(node, `«${node.name}» есть только внутри map, filter, find, some и every`);
        throw at(node, `Неизвестное имя «${node.name}»`);
      }
      case 'unary': {
        const operand = compile(node.operand, scope);
        if (node.op === '-') {
          if (known(operand.type) && operand.type !== 'number') throw at(node.operand, `«-» работает с числами, а здесь ${TYPE_NAMES[operand.type]}`);
          return {
            type: 'number',
            run: (env) => {
              const n = numeric(operand.run(env), node.operand, '-');
              return n === null ? null : -n || 0;
            },
          };
        }
        expectBoolean(operand.type, node.operand, '«not»: значение');
        return { type: 'boolean', run: (env) => !truth(operand.run(env), node.operand, '«not»: значение') };
      }
      case 'conditional': {
        const test = compile(node.test, scope);
        expectBoolean(test.type, node.test, 'Условие');
        const then = compile(node.then, scope);
        const otherwise = compile(node.otherwise, scope);
        return {
          type: unify(then.type, otherwise.type, node, 'Ветви условия'),
          run: (env) => (truth(test.run(env), node.test, 'Условие') ? then.run(env) : otherwise.run(env)),
        };
      }
      case 'binary':
        return binary(node, scope);
      case 'call':
        return call(node, scope);
    }
  };

  const binary = (node: Extract<Node, { kind: 'binary' }>, scope: Scope): Compiled => {
    const left = compile(node.left, scope);
    const right = compile(node.right, scope);
    const { op } = node;
    if (op === 'and' || op === 'or') {
      const word = op === 'and' ? '«and»' : '«or»';
      expectBoolean(left.type, node.left, `${word}: значение`);
      expectBoolean(right.type, node.right, `${word}: значение`);
      return {
        type: 'boolean',
        run: (env) => {
          const l = truth(left.run(env), node.left, `${word}: значение`);
          if (op === 'and' ? !l : l) return l;
          return truth(right.run(env), node.right, `${word}: значение`);
        },
      };
    }
    if (op === '==' || op === '!=') return { type: 'boolean', run: (env) => sameValue(left.run(env), right.run(env)) === (op === '==') };
    if (op === '<' || op === '<=' || op === '>' || op === '>=') {
      for (const [side, part] of [
        [left, node.left],
        [right, node.right],
      ] as const) {
        if (known(side.type) && !ORDERABLE.has(side.type)) throw at(part, `«${op}» сравнивает числа, тексты, даты, а здесь ${TYPE_NAMES[side.type]}`);
      }
      if (known(left.type) && known(right.type) && left.type !== right.type)
        throw at(node.opSpan, `«${op}» сравнивает значения одного типа, а здесь ${TYPE_NAMES[left.type]} и ${TYPE_NAMES[right.type]}`);
      return {
        type: 'boolean',
        run: (env) => {
          const a = left.run(env);
          const b = right.run(env);
          if (a === null || b === null) return false;
          const ta = typeOf(a);
          const tb = typeOf(b);
          if (!ORDERABLE.has(ta) || ta !== tb) throw at(node.opSpan, `«${op}» сравнивает значения одного типа, а здесь ${TYPE_NAMES[ta]} и ${TYPE_NAMES[tb]}`);
          const c = order(a, b);
          return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
        },
      };
    }
    // Arithmetic; «+» also joins texts.
    // «+» with a text on either side joins, whatever the other side is (a date as shown: «Срок: 10 декабря 2026»).
    const textual = op === '+' && (left.type === 'text' || right.type === 'text');
    if (!textual) {
      for (const [side, part] of [
        [left, node.left],
        [right, node.right],
      ] as const) {
        if (side.type === 'date')
          throw at(
            part,
            op === '+' || op === '-' ? `К дате прибавляют dateAdd(дата, 1, "days"), разницу дат даёт dateBetween` : `«${op}» работает с числами, а здесь дата`,
          );
        if (side.type === 'list' || side.type === 'boolean' || side.type === 'text')
          throw at(part, `«${op}» работает с числами, а здесь ${TYPE_NAMES[side.type]}`);
      }
    }
    return {
      type: textual ? 'text' : left.type === 'any' || right.type === 'any' ? 'any' : 'number',
      run: (env) => {
        const a = left.run(env);
        const b = right.run(env);
        // A side typed text joins even when its cell is empty (the result is a text, as its type says).
        if (op === '+' && (textual || typeof a === 'string' || typeof b === 'string')) return formatValue(a, env.context) + formatValue(b, env.context);
        const x = numeric(a, node.left, op);
        const y = numeric(b, node.right, op);
        if (x === null && y === null) return null;
        // Empty counts as 0 when adding and subtracting; a product, quotient or power of an empty is empty.
        if (op === '+') return (x ?? 0) + (y ?? 0);
        if (op === '-') return (x ?? 0) - (y ?? 0);
        if (x === null || y === null) return null;
        if ((op === '/' || op === '%') && y === 0) throw at(node.right, 'Деление на ноль');
        // `|| 0`: no «-0» (0 * -1, -4 % 2).
        return finite(op === '*' ? x * y : op === '/' ? x / y : op === '%' ? x % y : x ** y, node) || 0;
      },
    };
  };

  const bind = (scope: Scope, entries: Array<[string, FormulaType]>): { scope: Scope; slots: number[] } => {
    const next = new Map(scope);
    const taken = entries.map(([name, type]) => {
      const slot = slots++;
      next.set(name, { slot, type });
      return slot;
    });
    return { scope: next, slots: taken };
  };

  const call = (node: Extract<Node, { kind: 'call' }>, scope: Scope): Compiled => {
    const name = node.name;
    const site: CallSite = { name, span: node, argSpans: node.args };
    if (name === 'prop') {
      const [arg] = node.args;
      if (node.args.length !== 1 || arg.kind !== 'text') throw at(node, 'prop("Поле"): в скобках — имя поля в кавычках');
      const field = resolve(arg.value);
      if (!field) throw at(arg, `Нет поля «${arg.value}»`);
      if (!references.includes(field.id)) references.push(field.id);
      const id = field.id;
      return { type: field.type, run: (env) => env.context.value(id) };
    }
    const spec = FUNCTIONS[name];
    if (!spec) throw at(node.nameSpan, `Неизвестная функция «${name}»`);
    if (name === 'now' || name === 'today') readsClock = true;
    const count = node.args.length;
    if (count < spec.min || count > spec.max) {
      const wanted = spec.min === spec.max ? `${spec.min}` : spec.max === Infinity ? `не меньше ${spec.min}` : `от ${spec.min} до ${spec.max}`;
      // «принимает 3 аргумента», but «от 1 до 2 аргументов», «не меньше 1 аргумента» (after «до», «не меньше»: genitive).
      const noun = spec.min === spec.max ? plural(spec.min) : genitive(spec.max === Infinity ? spec.min : spec.max);
      throw at(node, `«${name}» принимает ${wanted} ${noun}, а здесь ${count}: ${spec.signature}`);
    }
    switch (name) {
      case 'if': {
        const [test, then, otherwise] = node.args.map((arg) => compile(arg, scope));
        expectBoolean(test.type, node.args[0], '«if»: условие');
        return {
          type: unify(then.type, otherwise.type, node, 'Ветви «if»'),
          run: (env) => (truth(test.run(env), node.args[0], '«if»: условие') ? then.run(env) : otherwise.run(env)),
        };
      }
      case 'ifs': {
        const parts = node.args.map((arg) => compile(arg, scope));
        const pairs: Array<[Compiled, Compiled, Span]> = [];
        for (let i = 0; i + 1 < parts.length; i += 2) {
          expectBoolean(parts[i].type, node.args[i], `«ifs»: условие ${i / 2 + 1}`);
          pairs.push([parts[i], parts[i + 1], node.args[i]]);
        }
        const fallback = parts.length % 2 === 1 ? parts[parts.length - 1] : undefined;
        let type: FormulaType = fallback?.type ?? 'empty';
        for (const [, value] of pairs) type = unify(type, value.type, node, 'Ветви «ifs»');
        return {
          type,
          run: (env) => {
            for (const [test, value, span] of pairs) if (truth(test.run(env), span, '«ifs»: условие')) return value.run(env);
            return fallback ? fallback.run(env) : null;
          },
        };
      }
      case 'and':
      case 'or': {
        const parts = node.args.map((arg) => compile(arg, scope));
        parts.forEach((part, i) => expectBoolean(part.type, node.args[i], `«${name}»: значение`));
        return {
          type: 'boolean',
          run: (env) => {
            for (const [i, part] of parts.entries()) {
              const value = truth(part.run(env), node.args[i], `«${name}»: значение`);
              if (name === 'and' ? !value : value) return value;
            }
            return name === 'and';
          },
        };
      }
      case 'let':
      case 'lets': {
        if (node.args.length % 2 === 0) throw at(node, `«${name}»: имена и значения парами, последним — выражение: ${spec.signature}`);
        let inner = scope;
        const steps: Array<{ slot: number; value: Compiled }> = [];
        for (let i = 0; i + 1 < node.args.length; i += 2) {
          const target = node.args[i];
          if (target.kind !== 'name') throw at(target, `«${name}»: здесь должно быть имя (буквы, цифры, _), без кавычек`);
          if (FUNCTIONS[target.name] || target.name === 'prop' || target.name === 'true' || target.name === 'false')
            throw at(target, `«${target.name}» — занятое имя, выберите другое`);
          const value = compile(node.args[i + 1], inner);
          const bound = bind(inner, [[target.name, value.type]]);
          inner = bound.scope;
          steps.push({ slot: bound.slots[0], value });
        }
        const body = compile(node.args[node.args.length - 1], inner);
        return {
          type: body.type,
          run: (env) => {
            for (const step of steps) env.frame[step.slot] = step.value.run(env);
            return body.run(env);
          },
        };
      }
      case 'map':
      case 'filter':
      case 'find':
      case 'some':
      case 'every': {
        const source = compile(node.args[0], scope);
        if (known(source.type) && source.type !== 'list') throw typeError(site, 0, 'списком', source.type);
        const bound = bind(scope, [
          ['current', 'any'],
          ['index', 'number'],
        ]);
        const body = compile(node.args[1], bound.scope);
        if (name !== 'map') expectBoolean(body.type, node.args[1], `«${name}»: условие`);
        const [currentSlot, indexSlot] = bound.slots;
        return {
          type: spec.check([], site),
          run: (env) => {
            const value = source.run(env);
            if (value !== null && !Array.isArray(value)) throw typeError(site, 0, 'списком', typeOf(value));
            const items = value ?? [];
            const results: FormulaValue[] = [];
            for (const [i, item] of items.entries()) {
              env.frame[currentSlot] = item;
              env.frame[indexSlot] = i;
              const out = body.run(env);
              if (name === 'map') {
                results.push(out);
                continue;
              }
              const ok = truth(out, node.args[1], `«${name}»: условие`);
              if (name === 'filter' && ok) results.push(item);
              if (name === 'find' && ok) return item;
              if (name === 'some' && ok) return true;
              if (name === 'every' && !ok) return false;
            }
            return name === 'find' ? null : name === 'some' ? false : name === 'every' ? true : results;
          },
        };
      }
    }
    const args = node.args.map((arg) => compile(arg, scope));
    const type = spec.check(
      args.map((arg) => arg.type),
      site,
    );
    const run = spec.run!;
    return {
      type,
      run: (env) =>
        run(
          args.map((arg) => arg.run(env)),
          env.context,
          site,
        ),
    };
  };

  const root = compile(tree, new Map());
  const size = slots;
  const whole = { start: 0, end: expression.length };
  return {
    type: root.type,
    references,
    readsClock,
    evaluate(context) {
      try {
        const value = root.run({ context, frame: new Array<FormulaValue>(size).fill(null) });
        if (typeof value === 'number') finite(value, whole);
        // Letters, as `length` counts them (an emoji is one, not two UTF-16 units).
        if (typeof value === 'string' && value.length > FORMULA_RESULT_LIMITS.text && [...value].length > FORMULA_RESULT_LIMITS.text)
          throw at(whole, `Слишком длинный текст: больше ${FORMULA_RESULT_LIMITS.text} знаков`);
        if (Array.isArray(value) && value.length > FORMULA_RESULT_LIMITS.list)
          throw at(whole, `Слишком длинный список: больше ${FORMULA_RESULT_LIMITS.list} элементов`);
        return { ok: true, value };
      } catch (error) {
        if (error instanceof FormulaError) return { ok: false, error: { message: error.message, start: error.start, end: error.end } };
        // A runtime's own limit (a text too long to build…): the row's error, not the server's.
        return { ok: false, error: { message: 'Формулу не удалось вычислить', start: 0, end: expression.length } };
      }
    },
  };
}

/** The noun after «от … до N», «не меньше N»: «1 аргумента», «2 аргументов», «21 аргумента». */
function genitive(n: number): string {
  return n % 10 === 1 && n % 100 !== 11 ? 'аргумента' : 'аргументов';
}

function plural(n: number): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return 'аргумент';
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return 'аргумента';
  return 'аргументов';
}
