import fc from 'fast-check';
import { toSlate, toWire, wireBlockSchema, type WireBlock } from './block';
import { BLOCK_DEFINITIONS, definitionForSlateType, definitionForWireType, type BlockWireType } from './blocks';
import { canonicalTokens, isSafeHref, tokenSchema, tokensText, type Token } from './token';

const anyTokenArb: fc.Arbitrary<Token> = fc.record(
  {
    text: fc.oneof(fc.constantFrom('a', 'b', ' ', 'ё', '😀'), fc.string({ maxLength: 8 })),
    bold: fc.boolean(),
    italic: fc.boolean(),
    underline: fc.boolean(),
    struckOut: fc.boolean(),
    code: fc.boolean(),
    link: fc.oneof(
      fc.constantFrom({ href: 'https://example.com/' }, { href: 'http://example.com/a?b=c#d' }),
      fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }).map((href) => ({ href })),
    ),
    tableAddress: fc.record({ x: fc.nat({ max: 3 }), y: fc.nat({ max: 3 }) }),
    comments: fc.array(fc.constantFrom('c1', 'c2', 'c3'), { maxLength: 2 }),
  },
  { requiredKeys: ['text'] },
);

/** Mostly tokens from a small pool of marks, so that neighbours often share marks and get joined. */
const POOL_MARKS: Array<Omit<Token, 'text'>> = [
  {},
  { bold: true },
  { italic: true, bold: true },
  { bold: true, italic: true },
  { link: { href: 'https://example.com/' } },
];
const pooledTokenArb: fc.Arbitrary<Token> = fc
  .tuple(fc.constantFrom('a', 'bc', '', ' '), fc.constantFrom(...POOL_MARKS))
  .map(([text, marks]) => ({ text, ...structuredClone(marks) }));
const tokenArb = fc.oneof({ weight: 3, arbitrary: pooledTokenArb }, { weight: 2, arbitrary: anyTokenArb });

const idArb = fc.uuid({ version: 4 });

/** A canonical wire block of any known type. */
const wireBlockArb: fc.Arbitrary<WireBlock> = fc
  .record({
    id: idArb,
    pageId: idArb,
    type: fc.constantFrom(...BLOCK_DEFINITIONS.map((d) => d.wireType)),
    version: fc.integer({ min: 1, max: 1_000_000 }),
    parentId: fc.option(idArb, { nil: null }),
    placeAfter: fc.option(idArb, { nil: null }),
    tokens: fc.array(tokenArb, { maxLength: 12 }),
  })
  .map(({ tokens, type, ...rest }) => ({
    ...rest,
    contentType: 'Block' as const,
    type: type as BlockWireType,
    data: { tokens: canonicalTokens(tokens) },
  }));

const marksKey = (token: Token) => {
  const { text: _text, ...marks } = token;
  return JSON.stringify(Object.entries(marks).sort(([a], [b]) => (a < b ? -1 : 1)));
};

describe('wire ⇄ Slate', () => {
  test('every block definition is reachable both ways', () => {
    for (const definition of BLOCK_DEFINITIONS) {
      expect(definitionForWireType(definition.wireType)).toBe(definition);
      expect(definitionForSlateType(definition.slateType)).toBe(definition);
    }
    expect(definitionForWireType('nope')).toBeUndefined();
  });

  test('toWire(toSlate(b)) is b for any canonical block of every type', () => {
    fc.assert(
      fc.property(wireBlockArb, (block) => {
        expect(wireBlockSchema.safeParse(block).success).toBe(true);
        const element = toSlate(block);
        expect(element.uid).toBe(block.id);
        expect(element.version).toBe(block.version);
        expect(element.children.length).toBeGreaterThan(0);
        const back = toWire(element, { pageId: block.pageId, parentId: block.parentId, placeAfter: block.placeAfter });
        expect(back).toStrictEqual(block);
      }),
      { numRuns: 500 },
    );
  });

  test.each(BLOCK_DEFINITIONS.map((d) => [d.wireType, d.slateType]))('%s ⇄ %s, empty block included', (wireType, slateType) => {
    const block: WireBlock = {
      id: 'b1',
      contentType: 'Block',
      pageId: 'p1',
      type: wireType as BlockWireType,
      version: 3,
      parentId: null,
      placeAfter: null,
      data: { tokens: [] },
    };
    const element = toSlate(block);
    expect(element).toEqual({ type: slateType, uid: 'b1', version: 3, children: [{ text: '' }] });
    expect(toWire(element, { pageId: 'p1', parentId: null, placeAfter: null })).toStrictEqual(block);
  });

  test('toSlate does not share token objects with the wire block', () => {
    const block: WireBlock = {
      id: 'b1',
      contentType: 'Block',
      pageId: 'p1',
      type: 'text',
      version: 1,
      parentId: null,
      placeAfter: null,
      data: { tokens: [{ text: 'x', bold: true }] },
    };
    const element = toSlate(block);
    (element.children[0] as { text: string }).text = 'changed';
    expect(block.data.tokens[0].text).toBe('x');
  });

  test('toWire canonicalizes what Slate holds, and unknown types throw', () => {
    const wire = toWire(
      { type: 'textBlock', uid: 'b1', version: 2, children: [{ text: 'a', bold: true }, { text: '' }, { text: 'b', bold: true }] },
      { pageId: 'p', parentId: 'parent', placeAfter: 'prev' },
    );
    expect(wire).toStrictEqual({
      id: 'b1',
      contentType: 'Block',
      pageId: 'p',
      type: 'text',
      version: 2,
      parentId: 'parent',
      placeAfter: 'prev',
      data: { tokens: [{ text: 'ab', bold: true }] },
    });
    expect(() => toSlate({ ...wire, type: 'marquee' as BlockWireType })).toThrow(/unknown block type/);
  });
});

describe('canonicalTokens', () => {
  test('joins neighbours with equal marks, in any key order', () => {
    expect(
      canonicalTokens([
        { text: 'He', bold: true, italic: true },
        { text: 'llo', italic: true, bold: true },
        { text: ' ' },
        { text: 'wor' },
        { text: 'ld', link: { href: 'https://a.example/' } },
        { text: '!', link: { href: 'https://a.example/' } },
        { text: '?', link: { href: 'https://b.example/' } },
      ]),
    ).toStrictEqual([
      { text: 'Hello', bold: true, italic: true },
      { text: ' wor' },
      { text: 'ld!', link: { href: 'https://a.example/' } },
      { text: '?', link: { href: 'https://b.example/' } },
    ]);
  });

  test('drops empty tokens, which lets their neighbours join', () => {
    expect(canonicalTokens([{ text: 'a' }, { text: '', bold: true }, { text: 'b' }])).toStrictEqual([{ text: 'ab' }]);
    expect(canonicalTokens([{ text: '' }])).toStrictEqual([]);
    expect(canonicalTokens([])).toStrictEqual([]);
  });

  test('does not join tokens whose marks differ, nor ones that are not neighbours', () => {
    const tokens: Token[] = [{ text: 'a', bold: true }, { text: 'b' }, { text: 'c', bold: true }, { text: 'd', comments: ['c1'] }];
    expect(canonicalTokens(tokens)).toStrictEqual(tokens);
  });

  test('leaves its input alone', () => {
    const tokens: Token[] = [{ text: 'a', bold: true }, { text: 'b', bold: true }];
    const copy = structuredClone(tokens);
    canonicalTokens(tokens);
    expect(tokens).toStrictEqual(copy);
  });

  test('properties: same text, no empty tokens, no equal neighbours, idempotent', () => {
    fc.assert(
      fc.property(fc.array(tokenArb, { maxLength: 20 }), (tokens) => {
        const canonical = canonicalTokens(tokens);
        expect(tokensText(canonical)).toBe(tokensText(tokens));
        expect(canonical.every((t) => t.text !== '')).toBe(true);
        for (let i = 1; i < canonical.length; i++) expect(marksKey(canonical[i])).not.toBe(marksKey(canonical[i - 1]));
        expect(canonicalTokens(canonical)).toStrictEqual(canonical);
        for (const token of canonical) expect(tokenSchema.safeParse(token).success).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('isSafeHref', () => {
  test.each([
    'http://example.com',
    'https://example.com/path?q=1#frag',
    'HTTPS://EXAMPLE.COM',
    'https://пример.рф/путь',
    'http://127.0.0.1:8080/',
  ])('accepts %p', (href) => {
    expect(isSafeHref(href)).toBe(true);
  });

  test.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    '\u0001javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com',
    'mailto:a@example.com',
    '//example.com/path',
    '/relative',
    'example.com',
    'https:',
    'http://',
    '',
  ])('rejects %p', (href) => {
    expect(isSafeHref(href)).toBe(false);
  });

  test('the token schema applies it to links', () => {
    expect(tokenSchema.safeParse({ text: 'x', link: { href: 'https://ok.example' } }).success).toBe(true);
    expect(tokenSchema.safeParse({ text: 'x', link: { href: 'javascript:alert(1)' } }).success).toBe(false);
    expect(tokenSchema.safeParse({ text: 'x', link: { href: 'https://ok.example', target: '_blank' } }).success).toBe(false);
  });

  test('any generated http(s) URL is accepted', () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }), (href) => {
        expect(isSafeHref(href)).toBe(true);
      }),
    );
  });
});
