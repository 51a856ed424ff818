/**
 * The formula language's syntax (issue 38, docs/formulas.md): tokens and a Pratt parser giving a
 * tree whose every node knows where it is in the text, so an error can point at it.
 */

export interface Span {
  start: number;
  end: number;
}

/** A mistake in a formula, in Russian, at [start, end) of the text the person sees. */
export class FormulaError extends Error {
  constructor(
    message: string,
    readonly start: number,
    readonly end: number,
  ) {
    super(message);
  }
}

export type Node =
  | ({ kind: 'number'; value: number } & Span)
  | ({ kind: 'text'; value: string } & Span)
  | ({ kind: 'boolean'; value: boolean } & Span)
  | ({ kind: 'list'; items: Node[] } & Span)
  | ({ kind: 'name'; name: string } & Span)
  | ({ kind: 'unary'; op: '-' | 'not'; operand: Node } & Span)
  | ({ kind: 'binary'; op: BinaryOp; left: Node; right: Node; opSpan: Span } & Span)
  | ({ kind: 'conditional'; test: Node; then: Node; otherwise: Node } & Span)
  /** `f(a, b)`, or `a.f(b)` (the same call, `a` first: `method`). `nameSpan`: the function's name. */
  | ({ kind: 'call'; name: string; args: Node[]; nameSpan: Span; method: boolean } & Span);

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '^' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

type Token =
  | ({ type: 'number'; value: number } & Span)
  | ({ type: 'text'; value: string } & Span)
  | ({ type: 'name'; value: string } & Span)
  | ({ type: 'op'; value: string } & Span)
  | ({ type: 'end' } & Span);

const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '+', '-', '*', '/', '%', '^', '<', '>', '!', '(', ')', '[', ']', ',', '.', '?', ':', '='];
const NAME_START = /[\p{L}_]/u;
const NAME_PART = /[\p{L}\p{N}_]/u;

/** The text's tokens; a character that starts none is an error. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (/\s/.test(ch)) {
      i += 1;
      continue;
    }
    const start = i;
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      const match = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i))!;
      i += match[0].length;
      tokens.push({ type: 'number', value: Number(match[0]), start, end: i });
      continue;
    }
    if (ch === '"' || ch === '“' || ch === '«') {
      const close = ch === '"' ? '"' : ch === '“' ? '”' : '»';
      let value = '';
      i += 1;
      for (;;) {
        if (i >= text.length) throw new FormulaError('Текст не закрыт кавычкой', start, text.length);
        const c = text[i];
        if (c === close) break;
        if (c === '\\' && close === '"') {
          const next = text[i + 1];
          if (next === undefined) throw new FormulaError('Текст не закрыт кавычкой', start, text.length);
          value += next === 'n' ? '\n' : next === 't' ? '\t' : next;
          i += 2;
          continue;
        }
        value += c;
        i += 1;
      }
      i += 1;
      tokens.push({ type: 'text', value, start, end: i });
      continue;
    }
    if (NAME_START.test(ch)) {
      while (i < text.length && NAME_PART.test(text[i])) i += 1;
      tokens.push({ type: 'name', value: text.slice(start, i), start, end: i });
      continue;
    }
    const op = OPERATORS.find((candidate) => text.startsWith(candidate, i));
    if (!op) throw new FormulaError(`Непонятный знак «${ch}»`, start, start + 1);
    i += op.length;
    tokens.push({ type: 'op', value: op, start, end: i });
  }
  tokens.push({ type: 'end', start: text.length, end: text.length });
  return tokens;
}

/** Binding powers: the higher binds tighter. */
const INFIX: Record<string, { power: number; op: BinaryOp; right?: boolean }> = {
  or: { power: 2, op: 'or' },
  '||': { power: 2, op: 'or' },
  and: { power: 3, op: 'and' },
  '&&': { power: 3, op: 'and' },
  '==': { power: 5, op: '==' },
  '!=': { power: 5, op: '!=' },
  '<': { power: 6, op: '<' },
  '<=': { power: 6, op: '<=' },
  '>': { power: 6, op: '>' },
  '>=': { power: 6, op: '>=' },
  '+': { power: 7, op: '+' },
  '-': { power: 7, op: '-' },
  '*': { power: 8, op: '*' },
  '/': { power: 8, op: '/' },
  '%': { power: 8, op: '%' },
  '^': { power: 10, op: '^', right: true },
};
const TERNARY_POWER = 1;
const PREFIX_NOT_POWER = 4;
const PREFIX_MINUS_POWER = 9;

/** The formula's tree; throws a FormulaError at the first mistake. */
export function parse(text: string): Node {
  const tokens = tokenize(text);
  let at = 0;
  const peek = () => tokens[at];
  const next = () => tokens[at++];
  const isOp = (value: string, token = peek()) => token.type === 'op' && token.value === value;
  const describe = (token: Token) => (token.type === 'end' ? 'конец формулы' : `«${text.slice(token.start, token.end)}»`);
  const expect = (value: string, what: string) => {
    const token = peek();
    if (!isOp(value)) throw new FormulaError(`Ожидалась ${what}, а здесь ${describe(token)}`, token.start, Math.max(token.end, token.start + 1));
    return next();
  };

  const args = (close: string, closeName: string): { items: Node[]; end: number } => {
    const items: Node[] = [];
    if (isOp(close)) return { items, end: next().end };
    for (;;) {
      items.push(expression(0));
      if (isOp(',')) {
        next();
        continue;
      }
      return { items, end: expect(close, closeName).end };
    }
  };

  const primary = (): Node => {
    const token = next();
    switch (token.type) {
      case 'number':
        return { kind: 'number', value: token.value, start: token.start, end: token.end };
      case 'text':
        return { kind: 'text', value: token.value, start: token.start, end: token.end };
      case 'name': {
        const lower = token.value;
        if (lower === 'true' || lower === 'false') return { kind: 'boolean', value: lower === 'true', start: token.start, end: token.end };
        // `not x` is the operator; `not(x)` the function, a call like any other (`not(a) == b`).
        if (lower === 'not' && !isOp('(')) {
          const operand = expression(PREFIX_NOT_POWER);
          return { kind: 'unary', op: 'not', operand, start: token.start, end: operand.end };
        }
        if (isOp('(')) {
          next();
          const { items, end } = args(')', 'закрывающая скобка «)»');
          return { kind: 'call', name: token.value, args: items, nameSpan: { start: token.start, end: token.end }, method: false, start: token.start, end };
        }
        return { kind: 'name', name: token.value, start: token.start, end: token.end };
      }
      case 'op': {
        if (token.value === '(') {
          const inner = expression(0);
          const close = expect(')', 'закрывающая скобка «)»');
          return { ...inner, start: token.start, end: close.end } as Node;
        }
        if (token.value === '[') {
          const { items, end } = args(']', 'закрывающая скобка «]»');
          return { kind: 'list', items, start: token.start, end };
        }
        if (token.value === '-') {
          const operand = expression(PREFIX_MINUS_POWER);
          return { kind: 'unary', op: '-', operand, start: token.start, end: operand.end };
        }
        if (token.value === '!') {
          const operand = expression(PREFIX_NOT_POWER);
          return { kind: 'unary', op: 'not', operand, start: token.start, end: operand.end };
        }
        if (token.value === '+') return expression(PREFIX_MINUS_POWER);
        break;
      }
      case 'end':
        throw new FormulaError(text.trim() === '' ? 'Формула пуста' : 'Формула оборвалась: ожидалось значение', token.start, token.end);
    }
    throw new FormulaError(`Здесь ожидалось значение, а стоит ${describe(token)}`, token.start, token.end);
  };

  const expression = (minPower: number): Node => {
    let left = primary();
    for (;;) {
      const token = peek();
      // `a.f(b)`: a call with `a` first, binding tighter than any operator.
      if (isOp('.')) {
        next();
        const name = next();
        if (name.type !== 'name') throw new FormulaError('После точки ожидалось имя функции', name.start, Math.max(name.end, name.start + 1));
        let items: Node[] = [];
        let end = name.end;
        if (isOp('(')) {
          next();
          ({ items, end } = args(')', 'закрывающая скобка «)»'));
        }
        left = { kind: 'call', name: name.value, args: [left, ...items], nameSpan: { start: name.start, end: name.end }, method: true, start: left.start, end };
        continue;
      }
      if (isOp('?') && minPower <= TERNARY_POWER) {
        next();
        const then = expression(0);
        expect(':', 'двоеточие «:» (условие ? да : нет)');
        const otherwise = expression(TERNARY_POWER);
        left = { kind: 'conditional', test: left, then, otherwise, start: left.start, end: otherwise.end };
        continue;
      }
      const key = token.type === 'op' || token.type === 'name' ? token.value : '';
      if (key === '=') throw new FormulaError('Для сравнения пишут «==»', token.start, token.end);
      const infix = (token.type === 'op' || (token.type === 'name' && (key === 'and' || key === 'or'))) && INFIX[key];
      // The right side takes operators binding tighter (and, for `^`, the same: right to left);
      // `minPower` is already one above a left-to-right operator's own, so equal powers go on.
      if (!infix || infix.power < minPower) break;
      next();
      const right = expression(infix.right ? infix.power : infix.power + 1);
      left = { kind: 'binary', op: infix.op, left, right, opSpan: { start: token.start, end: token.end }, start: left.start, end: right.end };
    }
    return left;
  };

  const tree = expression(0);
  const rest = peek();
  if (rest.type !== 'end') throw new FormulaError(`Лишнее в конце формулы: ${describe(rest)}`, rest.start, rest.end);
  return tree;
}
