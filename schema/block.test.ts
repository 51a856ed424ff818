import fc from 'fast-check';
import { blocksToSlate, positionInFlatList, toSlate, toWire, wireBlockSchema, type BlockData, type WireBlock } from './block';
import {
  BLOCK_DEFINITIONS,
  CALLOUT_ICONS,
  CODE_LANGUAGES,
  DATABASE_FIELD_TYPES,
  MAIN_FIELD_ID,
  VOID_SLATE_TYPES,
  checkRowValues,
  databaseDataSchema,
  databaseRowDataSchema,
  definitionForSlateType,
  definitionForWireType,
  valuesFitting,
  textDataSchema,
  type BlockWireType,
  type DatabaseConfig,
  type DatabaseData,
  type DatabaseField,
  type DatabaseRowData,
  type RowValue,
  type TextData,
  canonicalTableTokens,
} from './blocks';
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

/** Objects as JSON.parse makes them (fast-check may otherwise give null-prototype ones). */
const plain = { noNullPrototype: true } as const;

const fieldIdArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/).filter((id) => !['__proto__', 'constructor', 'prototype'].includes(id));

const fieldArb: fc.Arbitrary<DatabaseField> = fc.oneof(
  fc.record({ name: fc.string({ maxLength: 10 }), type: fc.constantFrom('text', 'number', 'checkbox', 'date') }, plain) as fc.Arbitrary<DatabaseField>,
  fc.record(
    {
      name: fc.string({ maxLength: 10 }),
      type: fc.constant('select' as const),
      options: fc.uniqueArray(fc.record({ id: fieldIdArb, name: fc.string({ maxLength: 10 }) }, plain), { selector: (o) => o.id, maxLength: 4 }),
    },
    plain,
  ),
);

/** A valid database: MAIN_FIELD (text) plus any fields, and table layouts listing some of them once each. */
const databaseDataArb: fc.Arbitrary<DatabaseData> = fc.dictionary(fieldIdArb, fieldArb, { maxKeys: 6, ...plain }).chain((extra) => {
  const fields: DatabaseConfig['fields'] = { ...extra, [MAIN_FIELD_ID]: { name: 'Название', type: 'text' } };
  const ids = Object.keys(fields);
  const layoutArb = fc.record(
    {
      uid: fc.string({ minLength: 1, maxLength: 12 }),
      type: fc.constant('table' as const),
      orderedFields: fc.shuffledSubarray(ids).chain((chosen) => fc.tuple(...chosen.map((fieldId) => fc.boolean().map((isWrap) => ({ fieldId, isWrap }))))),
    },
    plain,
  );
  return fc.uniqueArray(layoutArb, { selector: (l) => l.uid, maxLength: 3 }).map((layouts) => ({ config: { fields }, view: { layouts } }));
});

const rowValueArb: fc.Arbitrary<RowValue> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);

const databaseRowDataArb: fc.Arbitrary<DatabaseRowData> = fc.record(
  {
    title: fc.string({ maxLength: 20 }),
    icon: fc.option(fc.constantFrom('📁', '✅', 'icon-1'), { nil: null }),
    values: fc.dictionary(fieldIdArb, rowValueArb, { maxKeys: 6, ...plain }),
  },
  plain,
);

const textDataArb: fc.Arbitrary<TextData> = fc.array(tokenArb, { maxLength: 12 }).map((tokens) => ({ tokens: canonicalTokens(tokens) }));

const remoteFileArb = fc.option(
  fc.record(
    {
      fileId: idArb,
      title: fc.string({ minLength: 1, maxLength: 20 }),
      size: fc.nat(),
      mimeType: fc.constantFrom('image/png', 'image/jpeg', 'application/pdf', 'application/octet-stream', 'text/plain'),
    },
    plain,
  ),
  { nil: null },
);
const cropArb = fc.option(
  fc
    .tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
    .chain(([left, top]) =>
      fc.record(
        { left: fc.constant(left), top: fc.constant(top), width: fc.integer({ min: 1, max: 100 - left }), height: fc.integer({ min: 1, max: 100 - top }) },
        plain,
      ),
    ),
  { nil: null },
);
const scaleArb = fc.integer({ min: 10, max: 100 }).map((n) => n / 100);
const alignArb = fc.constantFrom('left' as const, 'center' as const, 'right' as const);

/** Canonical data for every block type: a new type without an entry here does not compile. */
/** A random table: a layout, then tokens addressed inside it, in canonical (reading) order. */
const tableDataArb: fc.Arbitrary<BlockData> = fc
  .record({ columns: fc.integer({ min: 1, max: 5 }), rows: fc.integer({ min: 1, max: 5 }) })
  .chain(({ columns, rows }) =>
    fc.record(
      {
        tokens: fc
          .array(
            fc.tuple(tokenArb, fc.nat({ max: columns - 1 }), fc.nat({ max: rows - 1 })).map(([token, x, y]) => ({ ...token, tableAddress: { x, y } })),
            { maxLength: 12 },
          )
          .map((tokens) => canonicalTableTokens(tokens)),
        tableLayout: fc
          .array(fc.integer({ min: 40, max: 2000 }), { minLength: columns, maxLength: columns })
          .map((columnSizes) => ({ columns, rows, columnSizes })),
        headerRow: fc.boolean(),
        headerColumn: fc.boolean(),
      },
      plain,
    ),
  );

const DATA_ARBS: Record<BlockWireType, fc.Arbitrary<BlockData>> = {
  table: tableDataArb,
  text: textDataArb,
  heading1: textDataArb,
  heading2: textDataArb,
  heading3: textDataArb,
  database: databaseDataArb,
  databaseRow: databaseRowDataArb,
  image: fc.record({ remoteData: remoteFileArb, crop: cropArb, scale: scaleArb, align: alignArb }, plain),
  file: fc.record({ remoteData: remoteFileArb }, plain),
  embed: fc.record(
    {
      url: fc.option(fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }), { nil: null }),
      scale: scaleArb,
      align: alignArb,
    },
    plain,
  ),
  document: idArb.map((pageId) => ({ pageId })),
  synced: idArb.map((pageId) => ({ pageId })),
  quote: textDataArb,
  bulletList: textDataArb,
  orderedList: fc
    .tuple(textDataArb, fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined }))
    .map(([d, forcedOrder]) => (forcedOrder === undefined ? d : { ...d, forcedOrder })),
  checkbox: fc.tuple(textDataArb, fc.boolean()).map(([d, checked]) => ({ ...d, checked })),
  code: fc
    .tuple(fc.string({ maxLength: 30 }), fc.constantFrom(...CODE_LANGUAGES))
    .map(([text, language]) => ({ tokens: text === '' ? [] : [{ text }], language })),
  callout: fc.tuple(textDataArb, fc.constantFrom(...CALLOUT_ICONS)).map(([d, icon]) => ({ ...d, icon })),
  divider: fc.constant({}),
  latex: fc.string({ maxLength: 40 }).map((formula) => ({ formula })),
  tableOfContents: fc.constant({}),
  columnList: fc.constant({}),
  column: fc
    .option(
      fc.integer({ min: 10, max: 100 }).map((n) => n / 100),
      { nil: null },
    )
    .map((width) => ({ width })),
  toggle: textDataArb,
  toggleHeading1: textDataArb,
  toggleHeading2: textDataArb,
  toggleHeading3: textDataArb,
  bookmark: fc.option(fc.webUrl({ validSchemes: ['http', 'https'] }), { nil: null }).chain((url) =>
    fc.record(
      {
        url: fc.constant(url),
        preview:
          url === null
            ? fc.constant(null)
            : fc.option(
                fc.record(
                  {
                    title: fc.string({ minLength: 1, maxLength: 30 }),
                    description: fc.option(fc.string({ maxLength: 60 }), { nil: null }),
                    image: fc.option(fc.webUrl({ validSchemes: ['https'] }), { nil: null }),
                    icon: fc.option(fc.webUrl({ validSchemes: ['https'] }), { nil: null }),
                    siteName: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
                  },
                  plain,
                ),
                { nil: null },
              ),
      },
      plain,
    ),
  ),
  progress: fc.tuple(textDataArb, fc.integer({ min: 0, max: 100 })).map(([d, value]) => ({ ...d, value })),
};

/** A canonical wire block of any known type. */
const wireBlockArb: fc.Arbitrary<WireBlock> = fc.constantFrom(...BLOCK_DEFINITIONS.map((d) => d.wireType)).chain((type) =>
  fc.record(
    {
      id: idArb,
      contentType: fc.constant('Block' as const),
      pageId: idArb,
      type: fc.constant(type as BlockWireType),
      version: fc.integer({ min: 1, max: 1_000_000 }),
      parentId: fc.option(idArb, { nil: null }),
      placeAfter: fc.option(idArb, { nil: null }),
      data: DATA_ARBS[type],
    },
    plain,
  ),
);

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

  test('the property covers every block type', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(wireBlockArb, (block) => void seen.add(block.type)),
      { numRuns: 300 },
    );
    expect([...seen].sort()).toEqual(BLOCK_DEFINITIONS.map((d) => d.wireType).sort());
  });

  test('void elements (databases, rows) carry their data and one empty text; they share nothing with the wire block', () => {
    fc.assert(
      fc.property(
        wireBlockArb.filter((b) => b.type === 'database' || b.type === 'databaseRow'),
        (block) => {
          const element = toSlate(block);
          expect(VOID_SLATE_TYPES.has(element.type)).toBe(true);
          expect(element.children).toEqual([{ text: '' }]);
          const before = structuredClone(block);
          if (element.type === 'databaseBlock') {
            element.config.fields[MAIN_FIELD_ID].name = 'changed';
            element.view.layouts.push({ uid: 'new', type: 'table', orderedFields: [] });
          } else if (element.type === 'databaseRowBlock') {
            element.values.extra = 'changed';
          }
          expect(block).toStrictEqual(before);
        },
      ),
      { numRuns: 100 },
    );
    expect(VOID_SLATE_TYPES.has('textBlock')).toBe(false);
  });

  test.each(BLOCK_DEFINITIONS.filter((d) => !d.isVoid && d.dataSchema === textDataSchema).map((d) => [d.wireType, d.slateType]))(
    '%s ⇄ %s, empty block included',
    (wireType, slateType) => {
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
    },
  );

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
    expect((block.data as TextData).tokens[0].text).toBe('x');
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

describe('databases and rows', () => {
  const config: DatabaseConfig = {
    fields: {
      [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
      price: { name: 'Цена', type: 'number' },
      done: { name: 'Готово', type: 'checkbox' },
      stage: {
        name: 'Этап',
        type: 'select',
        options: [
          { id: 'todo', name: 'Сделать' },
          { id: 'done', name: 'Готово' },
        ],
      },
      due: { name: 'Срок', type: 'date' },
    },
  };
  const data: DatabaseData = { config, view: { layouts: [{ uid: 'l1', type: 'table', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] } };

  test('the field types are the documented ones (docs/api/databases.md)', () => {
    expect(DATABASE_FIELD_TYPES).toEqual([
      'text',
      'number',
      'checkbox',
      'select',
      'date',
      'multiSelect',
      'status',
      'person',
      'relation',
      'url',
      'email',
      'phone',
      'files',
      'createdTime',
      'createdBy',
      'editedTime',
      'editedBy',
      'formula',
      'uniqueId',
      'rollup',
    ]);
  });

  test('every generated database is valid', () => {
    fc.assert(fc.property(DATA_ARBS.database, (d) => expect(databaseDataSchema.safeParse(d).error?.issues ?? []).toEqual([])));
  });

  test('MAIN_FIELD must exist and be text', () => {
    expect(databaseDataSchema.safeParse(data).success).toBe(true);
    const { [MAIN_FIELD_ID]: _main, ...withoutMain } = config.fields;
    const missing = databaseDataSchema.safeParse({ config: { fields: withoutMain }, view: { layouts: [] } });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues.map((i) => i.path.join('.'))).toContain(`config.fields.${MAIN_FIELD_ID}`);
    const wrongType = { config: { fields: { ...config.fields, [MAIN_FIELD_ID]: { name: 'x', type: 'number' } } }, view: { layouts: [] } };
    expect(databaseDataSchema.safeParse(wrongType).success).toBe(false);
  });

  test.each([
    ['a layout naming an unknown field', { ...data, view: { layouts: [{ uid: 'l', type: 'table', orderedFields: [{ fieldId: 'nope', isWrap: false }] }] } }],
    [
      'a field listed twice in a layout',
      {
        ...data,
        view: {
          layouts: [
            {
              uid: 'l',
              type: 'table',
              orderedFields: [
                { fieldId: 'price', isWrap: false },
                { fieldId: 'price', isWrap: true },
              ],
            },
          ],
        },
      },
    ],
    [
      'two layouts with one uid',
      {
        ...data,
        view: {
          layouts: [
            { uid: 'l', type: 'table', orderedFields: [] },
            { uid: 'l', type: 'table', orderedFields: [] },
          ],
        },
      },
    ],
    ['a layout type that is none of the ten', { ...data, view: { layouts: [{ uid: 'l', type: 'mindmap', orderedFields: [] }] } }],
    [
      'a sort on an unknown field',
      { ...data, view: { layouts: [{ uid: 'l', type: 'table', orderedFields: [], sorts: [{ fieldId: 'nope', direction: 'asc' }] }] } },
    ],
    [
      'a filter condition the field type has not',
      {
        ...data,
        view: {
          layouts: [{ uid: 'l', type: 'table', orderedFields: [], filter: { op: 'and', rules: [{ fieldId: 'done', condition: 'contains', value: 'x' }] } }],
        },
      },
    ],
    ['an unknown field type', { ...data, config: { fields: { ...config.fields, x: { name: 'x', type: 'formula' } } } }],
    ['a select without options', { ...data, config: { fields: { ...config.fields, x: { name: 'x', type: 'select' } } } }],
    [
      'repeated option ids',
      {
        ...data,
        config: {
          fields: {
            ...config.fields,
            x: {
              name: 'x',
              type: 'select',
              options: [
                { id: 'a', name: '1' },
                { id: 'a', name: '2' },
              ],
            },
          },
        },
      },
    ],
    ['a reserved field id', { ...data, config: { fields: { ...config.fields, constructor: { name: 'x', type: 'text' } } } }],
    ['a field id with spaces', { ...data, config: { fields: { ...config.fields, 'a b': { name: 'x', type: 'text' } } } }],
    ['an unknown key', { ...data, extra: 1 }],
  ])('refuses %s', (_name, value) => {
    expect(databaseDataSchema.safeParse(value).success).toBe(false);
  });

  test('row values are checked against the field types', () => {
    const ok = { [MAIN_FIELD_ID]: 'x', price: 12.5, done: true, stage: 'todo', due: '2026-11-22' };
    expect(checkRowValues(config, ok)).toEqual([]);
    expect(checkRowValues(config, { ...ok, due: '2026-11-22T10:00:00+03:00' })).toEqual([]);
    // A value for a field the database does not have, even null, is refused.
    expect(checkRowValues(config, { ...ok, extra: null }).map((p) => p.path)).toEqual(['data.values.extra']);
    expect(checkRowValues(config, { price: null, done: null, stage: null, due: null })).toEqual([]);
    expect(
      checkRowValues(config, { price: '12', done: 'yes', stage: 'missing', due: '2026-02-30', nope: 1, [MAIN_FIELD_ID]: 5, constructor: 'x' }).map(
        (p) => p.path,
      ),
    ).toEqual([
      'data.values.price',
      'data.values.done',
      'data.values.stage',
      'data.values.due',
      'data.values.nope',
      `data.values.${MAIN_FIELD_ID}`,
      'data.values.constructor',
    ]);
  });

  test('valuesFitting drops what no longer fits and keeps the object when all fit', () => {
    const values = { price: 3, stage: 'done', gone: 'x' };
    const { gone: _gone, ...rest } = values;
    const narrowed: DatabaseConfig = { fields: { ...config.fields, stage: { name: 's', type: 'select', options: [{ id: 'todo', name: 't' }] } } };
    expect(valuesFitting(narrowed, values)).toEqual({ price: 3 });
    expect(valuesFitting(config, rest)).toBe(rest);
  });

  test('row data: strict, a title and an icon or null', () => {
    expect(databaseRowDataSchema.safeParse({ title: 'a', icon: null, values: {} }).success).toBe(true);
    expect(databaseRowDataSchema.safeParse({ title: 'a', icon: null, values: { x: { nested: 1 } } }).success).toBe(false);
    expect(databaseRowDataSchema.safeParse({ title: 'a', values: {} }).success).toBe(false);
    expect(databaseRowDataSchema.safeParse({ title: 'a', icon: '', values: {} }).success).toBe(false);
    expect(databaseRowDataSchema.safeParse({ title: 'a', icon: null, values: {}, tokens: [] }).success).toBe(false);
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
    const tokens: Token[] = [
      { text: 'a', bold: true },
      { text: 'b', bold: true },
    ];
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
  test.each(['http://example.com', 'https://example.com/path?q=1#frag', 'HTTPS://EXAMPLE.COM', 'https://пример.рф/путь', 'http://127.0.0.1:8080/'])(
    'accepts %p',
    (href) => {
      expect(isSafeHref(href)).toBe(true);
    },
  );

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

describe('flat blocks: depth from parentId and back', () => {
  /** A random tree in the API's depth-first order: each block picks its parent among the open path. */
  const treeArb = fc.array(fc.nat(), { maxLength: 40 }).map((choices) => {
    const blocks: WireBlock[] = [];
    const path: string[] = [];
    const lastChild = new Map<string | null, string>();
    choices.forEach((choice, i) => {
      const id = `b${i}`;
      const depth = Math.min(choice % 4, path.length);
      path.length = depth;
      const parentId = depth === 0 ? null : path[depth - 1];
      blocks.push({
        id,
        contentType: 'Block',
        pageId: 'p',
        type: 'text',
        version: 1,
        parentId,
        placeAfter: lastChild.get(parentId) ?? null,
        data: { tokens: [] },
      });
      lastChild.set(parentId, id);
      path.push(id);
    });
    return blocks;
  });

  test('every block gets back its parentId and placeAfter from the flat list', () => {
    fc.assert(
      fc.property(treeArb, (blocks) => {
        const elements = blocksToSlate(blocks);
        elements.forEach((_element, index) => {
          expect(positionInFlatList(elements, index)).toEqual({ parentId: blocks[index].parentId, placeAfter: blocks[index].placeAfter });
        });
      }),
    );
  });

  test('a block whose parent is not among the earlier blocks shows at the top level', () => {
    const orphan: WireBlock = {
      id: 'x',
      contentType: 'Block',
      pageId: 'p',
      type: 'text',
      version: 1,
      parentId: 'missing',
      placeAfter: null,
      data: { tokens: [] },
    };
    expect(blocksToSlate([orphan])[0].depth).toBeUndefined();
  });

  test('elements the caller does not count (the title) end the search', () => {
    const elements = [{ uid: 'title' }, { uid: 'a' }, { uid: 'b', depth: 1 }];
    const notTitle = (e: { uid: string }) => e.uid !== 'title';
    expect(positionInFlatList(elements, 1, notTitle)).toEqual({ parentId: null, placeAfter: null });
    expect(positionInFlatList(elements, 2, notTitle)).toEqual({ parentId: 'a', placeAfter: null });
  });
});
