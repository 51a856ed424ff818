import type { BlockElement } from '../../schema/slate';
import { parseMarkdown } from './parseMarkdown';

function shape(text: string): unknown {
  const content = parseMarkdown(text);
  if (!content) return null;
  if (content.kind === 'inline') return { inline: content.tokens };
  return content.blocks.map(({ uid: _uid, version: _version, ...rest }: BlockElement) => rest);
}

describe('parseMarkdown', () => {
  test('headings, marks, links, lists with nesting and a forced start, tasks, quote, code, divider', () => {
    const md = [
      '# Заголовок',
      '#### Мелкий',
      '',
      'Есть **жирный**, *курсив*, `код`, ~~зачёркнутый~~ и [ссылка](https://example.com/x).',
      '',
      '- один',
      '  - вложенный',
      '- два',
      '',
      '3. три',
      '4. четыре',
      '',
      '- [ ] сделать',
      '- [x] сделано',
      '',
      '> цитата',
      '',
      '```ts',
      'const a = 1;',
      '',
      'const b = 2;',
      '```',
      '',
      '---',
    ].join('\n');
    expect(shape(md)).toEqual([
      { type: 'heading1Block', children: [{ text: 'Заголовок' }] },
      { type: 'heading3Block', children: [{ text: 'Мелкий' }] },
      {
        type: 'textBlock',
        children: [
          { text: 'Есть ' },
          { text: 'жирный', bold: true },
          { text: ', ' },
          { text: 'курсив', italic: true },
          { text: ', ' },
          { text: 'код', code: true },
          { text: ', ' },
          { text: 'зачёркнутый', struckOut: true },
          { text: ' и ' },
          { text: 'ссылка', link: { href: 'https://example.com/x' } },
          { text: '.' },
        ],
      },
      { type: 'bulletListBlock', children: [{ text: 'один' }] },
      { type: 'bulletListBlock', children: [{ text: 'вложенный' }], depth: 1 },
      { type: 'bulletListBlock', children: [{ text: 'два' }] },
      { type: 'orderedListBlock', forcedOrder: 3, children: [{ text: 'три' }] },
      { type: 'orderedListBlock', children: [{ text: 'четыре' }] },
      { type: 'checkboxBlock', checked: false, children: [{ text: 'сделать' }] },
      { type: 'checkboxBlock', checked: true, children: [{ text: 'сделано' }] },
      { type: 'quoteBlock', children: [{ text: 'цитата' }] },
      { type: 'codeBlock', language: 'typescript', children: [{ text: 'const a = 1;\n\nconst b = 2;' }] },
      { type: 'dividerBlock', children: [{ text: '' }] },
    ]);
  });

  test("code in a language we do not highlight is plain; a loose list item's further paragraphs are its children", () => {
    expect(shape('```ruby\nputs 1\n```\n\n- пункт\n\n  пояснение\n')).toEqual([
      { type: 'codeBlock', language: 'plain', children: [{ text: 'puts 1' }] },
      { type: 'bulletListBlock', children: [{ text: 'пункт' }] },
      { type: 'textBlock', children: [{ text: 'пояснение' }], depth: 1 },
    ]);
  });

  test('an ordered list starting at 1 has no forced order', () => {
    expect(shape('1. а\n2. б')).toEqual([
      { type: 'orderedListBlock', children: [{ text: 'а' }] },
      { type: 'orderedListBlock', children: [{ text: 'б' }] },
    ]);
  });

  test('plain text: one block per non-empty line; a line that is a link becomes a link token', () => {
    expect(shape('Первая строка\nhttps://example.com/page?q=1\n\n\nТретья  строка\n')).toEqual([
      { type: 'textBlock', children: [{ text: 'Первая строка' }] },
      { type: 'textBlock', children: [{ text: 'https://example.com/page?q=1', link: { href: 'https://example.com/page?q=1' } }] },
      { type: 'textBlock', children: [{ text: 'Третья  строка' }] },
    ]);
  });

  test('only http(s) links are kept', () => {
    expect(shape('[плохая](javascript:alert(1)) и [ftp](ftp://x.org/f)')).toEqual({ inline: [{ text: 'плохая и ftp' }] });
  });

  test('one line is inline content; a URL line alone is a linked token', () => {
    expect(shape('просто **текст**')).toEqual({ inline: [{ text: 'просто ' }, { text: 'текст', bold: true }] });
    expect(shape('http://example.org')).toEqual({ inline: [{ text: 'http://example.org', link: { href: 'http://example.org' } }] });
  });

  test('a GFM table becomes a table block with a header row', () => {
    expect(shape('| Имя | Роль |\n|---|---|\n| Аня | **админ** |')).toEqual([
      {
        type: 'tableBlock',
        tableLayout: { columns: 2, rows: 2, columnSizes: [120, 120] },
        headerRow: true,
        headerColumn: false,
        children: [
          {
            type: 'tableRow',
            children: [
              { type: 'tableCell', children: [{ text: 'Имя' }] },
              { type: 'tableCell', children: [{ text: 'Роль' }] },
            ],
          },
          {
            type: 'tableRow',
            children: [
              { type: 'tableCell', children: [{ text: 'Аня' }] },
              { type: 'tableCell', children: [{ text: 'админ', bold: true }] },
            ],
          },
        ],
      },
    ]);
  });

  test('entities and escapes come out as characters; empty text is null', () => {
    expect(shape('a &amp; b \\*c\\*')).toEqual({ inline: [{ text: 'a & b *c*' }] });
    expect(parseMarkdown('  \n\n ')).toBeNull();
  });
});
