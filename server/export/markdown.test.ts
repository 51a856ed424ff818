import { escapeMarkdown } from '../../schema/markdown/write';
import type { Token } from '../../schema/token';
import { blocksToMarkdown, tokensToMarkdown, type MarkdownBlock, type MarkdownLinks } from './markdown';
import { markdownToBlocks, type MarkdownTargets } from './markdownImport';

const links: MarkdownLinks = { page: (id) => (id === 'p1' ? 'Дочерняя страница.md' : null), file: (_id, name) => `files/${name}` };
const text = (t: string) => ({ tokens: [{ text: t }] });
let n = 0;
const block = (type: string, data: unknown, parentId: string | null = null, id = `b${n++}`): MarkdownBlock => ({ id, type, data, parentId });

test('inline marks, escapes and links (page links by their path in the export)', () => {
  expect(tokensToMarkdown([{ text: 'Жирный', bold: true }, { text: ' и ' }, { text: 'курсив ', italic: true }, { text: 'код `x`', code: true }], links)).toBe(
    '**Жирный** и *курсив* `` код `x` ``',
  );
  expect(tokensToMarkdown([{ text: 'a*b_[c]' }], links)).toBe('a\\*b\\_\\[c\\]');
  expect(tokensToMarkdown([{ text: 'сайт', link: { href: 'https://example.com/a b' } }], links)).toBe('[сайт](https://example.com/a%20b)');
  expect(tokensToMarkdown([{ text: '↗', link: { href: '/11111111-1111-4111-8111-111111111111', pageId: 'p1' } }], links)).toBe('[↗](Дочерняя%20страница.md)');
  expect(tokensToMarkdown([{ text: 'зачёркнуто', struckOut: true }], links)).toBe('~~зачёркнуто~~');
});

test('blocks: headings, lists (numbered on, nested under their item), to-dos, quotes, code, a table, files, a divider', () => {
  const item = block('bulletList', text('Пункт'), null, 'li');
  const md = blocksToMarkdown(
    [
      block('heading1', text('Заголовок')),
      block('text', text('Абзац.')),
      item,
      block('bulletList', text('Вложенный'), 'li'),
      block('bulletList', text('Второй')),
      block('orderedList', text('Раз')),
      block('orderedList', text('Два')),
      block('checkbox', { tokens: [{ text: 'Сделано' }], checked: true }),
      block('quote', text('Цитата')),
      block('code', { tokens: [{ text: 'const a = 1;' }], language: 'javascript' }),
      block('table', {
        tokens: [
          { text: 'А', tableAddress: { x: 0, y: 0 } },
          { text: 'Б', tableAddress: { x: 1, y: 0 } },
          { text: '1', tableAddress: { x: 0, y: 1 } },
        ],
        tableLayout: { columns: 2, rows: 2, columnSizes: [120, 120] },
        headerRow: true,
        headerColumn: false,
      }),
      block('image', { remoteData: { fileId: 'f1', title: 'схема.png', size: 1, mimeType: 'image/png' }, crop: null, scale: 1, align: 'center' }),
      block('divider', {}),
      block('document', { pageId: 'p1' }),
    ],
    links,
  );
  expect(md).toBe(
    [
      '# Заголовок',
      '',
      'Абзац.',
      '',
      '- Пункт',
      '    - Вложенный',
      '- Второй',
      '1. Раз',
      '2. Два',
      '- [x] Сделано',
      '',
      '> Цитата',
      '',
      '```javascript',
      'const a = 1;',
      '```',
      '',
      '| А | Б |',
      '| --- | --- |',
      '| 1 |   |',
      '',
      '![схема.png](files/схема.png)',
      '',
      '---',
      '',
      '[↗ Дочерняя страница](Дочерняя%20страница.md)',
      '',
    ].join('\n'),
  );
});

describe('one writer, one reader: what the export writes, the import reads back as it was', () => {
  const PAGE = '11111111-1111-4111-8111-111111111111';
  const exported: MarkdownLinks = { page: (id) => (id === PAGE ? 'Дочерняя страница.md' : null), file: (_id, name) => `files/${name}` };
  const targets: MarkdownTargets = { resolve: (href) => (decodeURIComponent(href) === 'Дочерняя страница.md' ? { page: 'child' } : null) };
  /** Blocks' types and tokens as the import reads the export of them. */
  const roundTrip = (blocks: MarkdownBlock[]) =>
    markdownToBlocks(blocksToMarkdown(blocks, exported), targets).blocks.map((b) => [b.type, (b.data as { tokens?: Token[] }).tokens]);
  const tokens = (list: Token[]) => ({ tokens: list });

  test('text that reads as Markdown stays text; marks where delimiters would not hold, underline, line breaks', () => {
    const cases: Array<[string, Token[]]> = [
      ['text', [{ text: '# не заголовок' }]],
      ['text', [{ text: '1. не список' }]],
      ['text', [{ text: '- и не этот' }]],
      ['text', [{ text: '> не цитата' }]],
      ['text', [{ text: 'snake_case, 2*3, a <b> и `кавычки`' }]],
      ['text', [{ text: 'слово' }, { text: '(а)', bold: true }, { text: ' и ' }, { text: 'подчёркнуто', underline: true }]],
      ['text', [{ text: 'первая строка\n# вторая\n1. третья' }]],
      ['bulletList', [{ text: 'пункт ' }, { text: 'жирный', bold: true }, { text: '\nи вторая строка' }]],
      ['heading2', [{ text: 'C# и ' }, { text: 'код', code: true }]],
      ['quote', [{ text: 'цитата\n- не список' }]],
      [
        'text',
        [{ text: 'ссылка', link: { href: 'https://example.com/a_(b)' } }, { text: ' и страница ' }, { text: '↗', link: { href: `/${PAGE}`, pageId: PAGE } }],
      ],
    ];
    const blocks = cases.map(([type, list], i) => block(type, tokens(list), null, `rt${i}`));
    const expected = cases.map(([type, list]) => [type, list.map((t) => (t.link?.pageId ? { ...t, link: { href: '/child', pageId: 'child' } } : t))]);
    expect(roundTrip(blocks)).toEqual(expected);
  });

  test("a table's cells keep their `|` and their line breaks", () => {
    const table = block('table', {
      tokens: [
        { text: 'a | b', tableAddress: { x: 0, y: 0 } },
        { text: 'две\nстроки', tableAddress: { x: 1, y: 0 } },
        { text: '*', bold: true, tableAddress: { x: 0, y: 1 } },
      ],
      tableLayout: { columns: 2, rows: 2, columnSizes: [120, 120] },
      headerRow: true,
      headerColumn: false,
    });
    const [[type, read]] = roundTrip([table]);
    expect(type).toBe('table');
    expect(read).toEqual([
      { text: 'a | b', tableAddress: { x: 0, y: 0 } },
      { text: 'две\nстроки', tableAddress: { x: 1, y: 0 } },
      { text: '*', bold: true, tableAddress: { x: 0, y: 1 } },
    ]);
  });

  test('a title with Markdown in it reads back as typed', () => {
    const markdown = `# ${escapeMarkdown('Планы *на* 2027 #1')}\n\nТекст.\n`;
    expect(markdownToBlocks(markdown, targets).title).toBe('Планы *на* 2027 #1');
  });
});

describe('a table of contents', () => {
  test('Markdown: the page’s headings (toggle headings too) as a nested list, from the shallowest level', () => {
    const b = (id: string, type: string, text?: string) => ({ id, type, data: text === undefined ? {} : { tokens: [{ text }] }, parentId: null });
    const md = blocksToMarkdown(
      [
        b('t', 'tableOfContents'),
        b('a', 'heading2', 'Введение'),
        b('x', 'text', 'текст'),
        b('c', 'toggleHeading3', 'Подробности'),
        b('d', 'heading2', 'Итоги\nи выводы'),
      ],
      { page: () => null, file: (_id, name) => name },
    );
    expect(md.split('\n\n')[0]).toBe('- Введение\n    - Подробности\n- Итоги и выводы');
  });

  test('Markdown: nothing when the page has no headings', () => {
    expect(blocksToMarkdown([{ id: 't', type: 'tableOfContents', data: {}, parentId: null }], { page: () => null, file: (_id, name) => name })).toBe('\n');
  });
});
