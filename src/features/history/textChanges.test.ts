import type { Token } from '../../../schema/token';
import { decorateChanges } from './decorateChanges';
import { shownVersion, sliceTokens, textChanges } from './textChanges';
import { wordDiff } from './wordDiff';

/** The text a diff's parts make: before (kept and removed) and after (kept and added). */
const sides = (parts: ReturnType<typeof wordDiff>) => [
  parts
    .filter((p) => p.kind !== 'added')
    .map((p) => p.text)
    .join(''),
  parts
    .filter((p) => p.kind !== 'removed')
    .map((p) => p.text)
    .join(''),
];

describe('wordDiff', () => {
  test('whole words: a word replaced is the old word removed, then the new one added', () => {
    expect(wordDiff('Кошка сидит на окне', 'Кошка лежит на окне')).toEqual([
      { kind: 'same', text: 'Кошка ' },
      { kind: 'removed', text: 'сидит' },
      { kind: 'added', text: 'лежит' },
      { kind: 'same', text: ' на окне' },
    ]);
    // Not letter by letter: «сидит» and «сбит» share letters, yet the word is changed whole.
    expect(wordDiff('он сидит', 'он сбит')).toEqual([
      { kind: 'same', text: 'он ' },
      { kind: 'removed', text: 'сидит' },
      { kind: 'added', text: 'сбит' },
    ]);
  });

  test('additions and removals alone; punctuation is a word of its own', () => {
    expect(wordDiff('Вступление', 'Вступление, переписанное')).toEqual([
      { kind: 'same', text: 'Вступление' },
      { kind: 'added', text: ', переписанное' },
    ]);
    expect(wordDiff('one two three', 'one three')).toEqual([
      { kind: 'same', text: 'one ' },
      { kind: 'removed', text: 'two ' },
      { kind: 'same', text: 'three' },
    ]);
  });

  test('same, empty and wholly different texts; the parts always rebuild both sides', () => {
    expect(wordDiff('', '')).toEqual([]);
    expect(wordDiff('a b', 'a b')).toEqual([{ kind: 'same', text: 'a b' }]);
    expect(wordDiff('', 'новое')).toEqual([{ kind: 'added', text: 'новое' }]);
    expect(wordDiff('старое', '')).toEqual([{ kind: 'removed', text: 'старое' }]);
    const cases: Array<[string, string]> = [
      ['The quick brown fox jumps over the lazy dog.', 'A quick red fox jumped over the dog!'],
      ['emoji 😀 and  double  spaces\ttabs\nlines', 'emoji 😃 and double spaces tabs\nlines'],
      ['x'.repeat(50), 'y'],
    ];
    for (const [before, after] of cases) expect(sides(wordDiff(before, after))).toEqual([before, after]);
  });

  test('more distinct words than one diff can tell apart: the whole text replaced, still correct', () => {
    const many = Array.from({ length: 70_000 }, (_, i) => `w${i}`).join(' ');
    const parts = wordDiff(many, 'короткий');
    expect(parts.map((p) => p.kind)).toEqual(['removed', 'added']);
    expect(sides(parts)).toEqual([many, 'короткий']);
  });

  test('one word kept between larger changes is shown as part of one rewrite (easier to read than a patchwork)', () => {
    expect(wordDiff('one two three', 'one three  four')).toEqual([
      { kind: 'same', text: 'one ' },
      { kind: 'removed', text: 'two three' },
      { kind: 'added', text: 'three  four' },
    ]);
  });

  test('stretches of many words: the words in between that stayed are kept', () => {
    const before = 'раз два три четыре пять шесть семь восемь';
    const after = 'раз два ТРИ четыре пять шесть СЕМЬ восемь';
    expect(wordDiff(before, after).filter((p) => p.kind !== 'same')).toEqual([
      { kind: 'removed', text: 'три' },
      { kind: 'added', text: 'ТРИ' },
      { kind: 'removed', text: 'семь' },
      { kind: 'added', text: 'СЕМЬ' },
    ]);
  });
});

describe('textChanges', () => {
  test("the version's tokens with the removed words put back, marks of each side kept, and the runs", () => {
    const before: Token[] = [{ text: 'Было ' }, { text: 'старое', bold: true }, { text: ' слово' }];
    const after: Token[] = [{ text: 'Было ' }, { text: 'новое', italic: true }, { text: ' слово' }];
    const changed = textChanges(before, after)!;
    expect(changed.tokens).toEqual([{ text: 'Было ' }, { text: 'старое', bold: true }, { text: 'новое', italic: true }, { text: ' слово' }]);
    expect(changed.spans).toEqual([
      { start: 5, end: 11, kind: 'removed' },
      { start: 11, end: 16, kind: 'added' },
    ]);
  });

  test('runs are marked without the spaces at their ends; a run of spaces alone is marked whole', () => {
    const changed = textChanges([{ text: 'one two three four' }], [{ text: 'one three four five' }])!;
    expect(changed.tokens).toEqual([{ text: 'one two three four five' }]);
    const marked = changed.spans.map((s) => [s.kind, 'one two three four five'.slice(s.start, s.end)]);
    expect(marked).toEqual([
      ['removed', 'two'],
      ['added', 'five'],
    ]);
    const spaces = textChanges([{ text: 'a b' }], [{ text: 'a  b' }])!;
    expect(spaces.tokens).toEqual([{ text: 'a   b' }]);
    expect(spaces.spans).toEqual([
      { start: 1, end: 2, kind: 'removed' },
      { start: 2, end: 4, kind: 'added' },
    ]);
  });

  test('no change in the text (only marks, or nothing): null', () => {
    expect(textChanges([{ text: 'то же' }], [{ text: 'то же', bold: true }])).toBeNull();
    expect(textChanges([], [])).toBeNull();
  });

  test('sliceTokens cuts across tokens', () => {
    expect(sliceTokens([{ text: 'ab' }, { text: 'cd', bold: true }, { text: 'ef' }], 1, 5)).toEqual([{ text: 'b' }, { text: 'cd', bold: true }, { text: 'e' }]);
    expect(sliceTokens([{ text: 'ab' }], 2, 2)).toEqual([]);
  });

  test('shownVersion: changed blocks with text get the removed words and runs; added, unchanged, textless blocks and tables stay as they are', () => {
    const text = (value: string) => ({ tokens: [{ text: value }] });
    const table = { tokens: [{ text: 'ячейка', tableAddress: { x: 0, y: 0 } }], tableLayout: {} };
    const content = {
      blocks: [
        { id: 'a', type: 'text', data: text('новый текст'), parentId: null },
        { id: 'b', type: 'text', data: text('без изменений'), parentId: null },
        { id: 'c', type: 'image', data: { url: '/new.png' }, parentId: null },
        { id: 'd', type: 'table', data: { ...table, tokens: [{ text: 'другая', tableAddress: { x: 0, y: 0 } }] }, parentId: null },
        { id: 'e', type: 'todo', data: { ...text('сделать'), checked: true }, parentId: null },
        { id: 'f', type: 'text', data: text('добавлен'), parentId: null },
      ],
      changes: [
        { blockId: 'a', kind: 'changed' as const, before: { id: 'a', type: 'text', data: text('старый текст'), parentId: null } },
        { blockId: 'c', kind: 'changed' as const, before: { id: 'c', type: 'image', data: { url: '/old.png' }, parentId: null } },
        { blockId: 'd', kind: 'changed' as const, before: { id: 'd', type: 'table', data: table, parentId: null } },
        { blockId: 'e', kind: 'changed' as const, before: { id: 'e', type: 'todo', data: { ...text('сделать'), checked: false }, parentId: null } },
        { blockId: 'f', kind: 'added' as const, before: null },
      ],
    };
    const { blocks, spans } = shownVersion(content);
    expect(blocks[0].data).toEqual({ tokens: [{ text: 'старыйновый текст' }] });
    expect(spans.get('a')).toEqual([
      { start: 0, end: 6, kind: 'removed' },
      { start: 6, end: 11, kind: 'added' },
    ]);
    expect(blocks.slice(1)).toEqual(content.blocks.slice(1));
    expect([...spans.keys()]).toEqual(['a']);
  });
});

describe('decorateChanges', () => {
  test("runs become ranges over the block's text children (a run across two children, and one ending on a boundary)", () => {
    const block = { type: 'textBlock', uid: 'a', version: 1, children: [{ text: 'Было ' }, { text: 'старое', bold: true }, { text: ' слово' }] };
    const decorate = decorateChanges(
      new Map([
        [
          'a',
          [
            { start: 3, end: 7, kind: 'removed' as const },
            { start: 5, end: 11, kind: 'added' as const },
          ],
        ],
      ]),
    );
    expect(decorate([block as never, [2]])).toEqual([
      { anchor: { path: [2, 0], offset: 3 }, focus: { path: [2, 1], offset: 2 }, diff: 'removed' },
      { anchor: { path: [2, 1], offset: 0 }, focus: { path: [2, 1], offset: 6 }, diff: 'added' },
    ]);
    expect(decorate([{ ...block, uid: 'b' } as never, [3]])).toEqual([]);
    expect(decorate([block.children[0] as never, [2, 0]])).toEqual([]);
  });
});
