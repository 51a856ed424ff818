/** @jest-environment jsdom */
import { htmlToTokens, tokensToHtml } from '../html';
import { BLOCK_DEFINITIONS, MARKDOWN_SHORTCUTS } from './index';
import { bulletListBlock } from '../../plugins/blocks/bulletList/block';
import { heading1Block, heading2Block, heading3Block } from '../../plugins/blocks/heading/block';
import { parseWith, roundTripHtml } from './htmlTestUtil';
import { quoteBlock } from '../../plugins/blocks/quote/block';
import { textBlock } from '../../plugins/blocks/text/block';

const tokens = [{ text: 'Привет, ' }, { text: 'мир', bold: true }];

describe('text and headings as HTML', () => {
  test('serialize writes p and h1–h3', () => {
    const content = tokensToHtml(tokens);
    expect(textBlock.html!.serialize({ tokens }, content)).toBe('<p>Привет, <strong>мир</strong></p>');
    expect(heading1Block.html!.serialize({ tokens }, content)).toBe('<h1>Привет, <strong>мир</strong></h1>');
    expect(heading2Block.html!.serialize({ tokens }, content)).toBe('<h2>Привет, <strong>мир</strong></h2>');
    expect(heading3Block.html!.serialize({ tokens }, content)).toBe('<h3>Привет, <strong>мир</strong></h3>');
  });

  test('each parses back what it wrote', () => {
    for (const definition of [textBlock, heading1Block, heading2Block, heading3Block]) {
      expect(roundTripHtml(definition, { tokens }, tokensToHtml(tokens))).toEqual({ tokens });
    }
  });

  test('h4–h6 are read as heading 3, div as text; h1 is not taken by heading 2', () => {
    for (const tag of ['h4', 'h5', 'h6']) expect(parseWith(heading3Block, `<${tag}>Итоги</${tag}>`)).toEqual({ tokens: [{ text: 'Итоги' }] });
    expect(parseWith(textBlock, '<div>Строка</div>')).toEqual({ tokens: [{ text: 'Строка' }] });
    expect(parseWith(heading2Block, '<h1>Нет</h1>')).toBeNull();
    expect(parseWith(textBlock, '<h1>Нет</h1>')).toBeNull();
  });
});

describe('quote', () => {
  test('shortcuts " and | make a quote', () => {
    expect(MARKDOWN_SHORTCUTS.get('"')).toBe('quoteBlock');
    expect(MARKDOWN_SHORTCUTS.get('|')).toBe('quoteBlock');
  });

  test('HTML is a blockquote both ways', () => {
    expect(quoteBlock.html!.serialize({ tokens }, tokensToHtml(tokens))).toBe('<blockquote>Привет, <strong>мир</strong></blockquote>');
    expect(roundTripHtml(quoteBlock, { tokens }, tokensToHtml(tokens))).toEqual({ tokens });
    expect(parseWith(quoteBlock, '<p>не цитата</p>')).toBeNull();
  });

  test('data is tokens only (strict)', () => {
    expect(quoteBlock.dataSchema.safeParse({ tokens }).success).toBe(true);
    expect(quoteBlock.dataSchema.safeParse({ tokens, checked: true }).success).toBe(false);
  });
});

describe('bullet list', () => {
  test('shortcuts * and - make a bullet', () => {
    expect(MARKDOWN_SHORTCUTS.get('*')).toBe('bulletListBlock');
    expect(MARKDOWN_SHORTCUTS.get('-')).toBe('bulletListBlock');
  });

  test('one item per block as <ul><li>, parsed back', () => {
    const html = bulletListBlock.html!.serialize({ tokens }, tokensToHtml(tokens));
    expect(html).toBe('<ul><li>Привет, <strong>мир</strong></li></ul>');
    expect(roundTripHtml(bulletListBlock, { tokens }, tokensToHtml(tokens))).toEqual({ tokens });
  });

  test('takes li of ul only, and leaves to-do items to the checkbox', () => {
    expect(parseWith(bulletListBlock, '<ol><li>один</li></ol>')).toBeNull();
    expect(parseWith(bulletListBlock, '<ul><li><input type="checkbox"> дело</li></ul>')).toBeNull();
    expect(parseWith(bulletListBlock, '<ul><li>раз</li><li>два</li></ul>', 'li:last-child')).toEqual({ tokens: [{ text: 'два' }] });
  });
});

describe('paste: the first type whose rule takes an element wins, in registry order', () => {
  const firstTaker = (html: string) => {
    const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
    const element = doc.body.firstElementChild!;
    for (const definition of BLOCK_DEFINITIONS) {
      for (const rule of definition.html?.parse ?? []) {
        if (element.matches(rule.selector) && rule.read(element, htmlToTokens(element)) !== null) return definition.wireType;
      }
    }
    return null;
  };

  test.each([
    ['<p>a</p>', 'text'],
    ['<div>a</div>', 'text'],
    ['<h5>a</h5>', 'heading3'],
    ['<blockquote>a</blockquote>', 'quote'],
    ['<div data-latex="x">x</div>', 'latex'],
    ['<div data-callout="💡">a</div>', 'callout'],
    ['<aside data-callout="💡">a</aside>', 'callout'],
    ['<pre>a</pre>', 'code'],
    ['<hr>', 'divider'],
  ])('%s → %s', (html, type) => {
    expect(firstTaker(html)).toBe(type);
  });

  test('list items: ul → bullet, ul with a box → checkbox, ol → ordered', () => {
    const items = (html: string) => {
      const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
      const li = doc.body.querySelector('li')!;
      for (const definition of BLOCK_DEFINITIONS) {
        for (const rule of definition.html?.parse ?? []) {
          if (li.matches(rule.selector) && rule.read(li, htmlToTokens(li)) !== null) return definition.wireType;
        }
      }
      return null;
    };
    expect(items('<ul><li>a</li></ul>')).toBe('bulletList');
    expect(items('<ul><li><input type="checkbox" checked> a</li></ul>')).toBe('checkbox');
    expect(items('<ol><li>a</li></ol>')).toBe('orderedList');
  });
});
