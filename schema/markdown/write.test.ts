import { canonicalTokens, type Token } from '../token';
import { readInline } from './read';
import { tokensToMarkdown } from './write';

/** The inline tokens the reader reads from a line (null: it read blocks). */
const readBack = (line: string): Token[] | null => readInline(line);

/**
 * Every character that is not whitespace with its marks (whitespace at a run's edge may lose them
 * by design); line breaks kept as such (the spaces around them are not: a line's edges are not
 * kept by Markdown), none at the text's start or end.
 */
function marksByCharacter(tokens: readonly Token[]): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    for (const c of t.text) {
      out.push(
        c === '\n'
          ? '\n'
          : c.trim() === ''
            ? ' '
            : `${c}${t.bold ? 'B' : ''}${t.italic ? 'I' : ''}${t.struckOut ? 'S' : ''}${t.underline ? 'U' : ''}${t.code ? 'C' : ''}${t.link ? `(${t.link.href})` : ''}`,
      );
    }
  }
  const kept = out.filter((c, i) => {
    if (c !== ' ') return true;
    let [a, b] = [i, i];
    while (a > 0 && (out[a - 1] === ' ' || out[a - 1] === '\n')) a -= 1;
    while (b < out.length - 1 && (out[b + 1] === ' ' || out[b + 1] === '\n')) b += 1;
    return !out.slice(a, b + 1).includes('\n');
  });
  while (kept[0] === ' ' || kept[0] === '\n') kept.shift();
  while (kept[kept.length - 1] === ' ' || kept[kept.length - 1] === '\n') kept.pop();
  return kept;
}

describe('tokensToMarkdown', () => {
  test('marks as markdown: bold, italic, strike-through, code, links; underline as <u>', () => {
    const tokens: Token[] = [
      { text: 'Это ' },
      { text: 'важная', bold: true },
      { text: ' ' },
      { text: 'ссылка', link: { href: 'https://x.example/a_(b)' } },
      { text: ', ' },
      { text: 'жирный ', bold: true },
      { text: 'и курсив', bold: true, italic: true },
      { text: ', ' },
      { text: 'a `b`', code: true },
      { text: ' ' },
      { text: 'старое', struckOut: true },
      { text: ' ' },
      { text: 'черта', underline: true },
    ];
    const line = tokensToMarkdown(tokens);
    expect(line).toBe('Это **важная** [ссылка](https://x.example/a_(b)), **жирный *и курсив***, `` a `b` `` ~~старое~~ <u>черта</u>');
    expect(readBack(line)).toEqual(tokens);
  });

  test('text that markdown would read as marks or blocks is escaped and reads back as itself', () => {
    const text = '# 1. - > 2*3*4 snake_case _x_ [a](b) `c` ~~d~~ <b>e</b> &amp; \\';
    const line = tokensToMarkdown([{ text }]);
    expect(readBack(line)).toEqual([{ text }]);
    expect(readBack(tokensToMarkdown([{ text: '1. пункт' }]))).toEqual([{ text: '1. пункт' }]);
    expect(readBack(tokensToMarkdown([{ text: '---' }]))).toEqual([{ text: '---' }]);
  });

  test('whitespace at the edges of a marked run goes outside the delimiters', () => {
    expect(tokensToMarkdown([{ text: 'Это ' }, { text: ' важная ', bold: true }, { text: 'мысль' }])).toBe('Это  **важная** мысль');
  });

  test('where delimiters would not hold (next to punctuation inside a word), tags are written', () => {
    const tokens: Token[] = [{ text: 'слово' }, { text: '(а)', bold: true }, { text: 'слово' }];
    const line = tokensToMarkdown(tokens);
    expect(line).toBe('слово<b>(а)</b>слово');
    expect(readBack(line)).toEqual(tokens);
  });

  test('an address typed as text stays text, and entities in code stay as typed', () => {
    const tokens: Token[] = [{ text: 'см. https://w.example и www.v.example ' }, { text: 'a &amp; b', code: true }, { text: ' &amp;' }];
    const line = tokensToMarkdown(tokens);
    expect(line).toBe('см. https\\://w.example и www\\.v.example `a &amp; b` \\&amp;');
    expect(readBack(line)).toEqual(tokens);
  });

  test('any mix of marks reads back as the same text and marks (a seeded run of 1,000 lines)', () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const words = [
      'слово',
      'важная',
      'a',
      'b2',
      'x_y',
      '2*3',
      'дом.',
      ',',
      '"кавычки"',
      '#',
      '-',
      '1.',
      '[t]',
      '`q`',
      '~',
      '<b>',
      '\\',
      '!',
      '(',
      ')',
      '«ёлки»',
      '—',
      '**',
      '&amp;',
      'a&b',
      'https://w.example',
      'www.v.example',
      // Line breaks, and lines that start like blocks after them.
      'a\nb',
      '\n# x',
      '\n1. y',
      '\n- z',
      '\n> q',
      '\n\n',
      '\n',
    ];
    const hrefs = ['https://x.example', 'https://y.example/a_(b)', 'https://z.example/p?q=1&r=2'];
    for (let run = 0; run < 1000; run++) {
      const tokens: Token[] = [];
      for (let i = 0, n = 1 + Math.floor(random() * 6); i < n; i++) {
        let text = '';
        for (let j = 0, k = 1 + Math.floor(random() * 3); j < k; j++) text += (j > 0 || random() < 0.3 ? ' ' : '') + words[Math.floor(random() * words.length)];
        const token: Token = { text: random() < 0.2 ? `${text} ` : text };
        if (random() < 0.35) token.bold = true;
        if (random() < 0.3) token.italic = true;
        if (random() < 0.15) token.struckOut = true;
        if (random() < 0.15) token.underline = true;
        if (random() < 0.15) token.code = true;
        if (random() < 0.2) token.link = { href: hrefs[Math.floor(random() * hrefs.length)] };
        tokens.push(token);
      }
      const canonical = canonicalTokens(tokens);
      const line = tokensToMarkdown(canonical);
      const back = readBack(line);
      if (!back || JSON.stringify(marksByCharacter(back)) !== JSON.stringify(marksByCharacter(canonical))) {
        throw new Error(`${JSON.stringify(canonical)}\n→ ${line}\n→ ${JSON.stringify(back)}`);
      }
    }
  });
});

describe('parseMarkdown reads the mark tags', () => {
  test('<u>, <b>, <strong>, <i>, <em>, <s>, <del> mark the text between them', () => {
    expect(readBack('a <u>b <b>c</b></u> <i>d</i> <strong>e</strong> <em>f</em> <s>g</s> <del>h</del>')).toEqual([
      { text: 'a ' },
      { text: 'b ', underline: true },
      { text: 'c', bold: true, underline: true },
      { text: ' ' },
      { text: 'd', italic: true },
      { text: ' ' },
      { text: 'e', bold: true },
      { text: ' ' },
      { text: 'f', italic: true },
      { text: ' ' },
      { text: 'g', struckOut: true },
      { text: ' ' },
      { text: 'h', struckOut: true },
    ]);
  });
});
