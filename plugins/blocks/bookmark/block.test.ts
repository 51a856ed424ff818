/** @jest-environment jsdom */
import { toSlate, toWire, type WireBlock } from '../../../schema/block';
import { MARKDOWN_SHORTCUTS, definitionForWireType } from '../../../schema/blocks';
import { parseWith, roundTripHtml } from '../../../schema/blocks/htmlTestUtil';
import type { MarkdownContext } from '../../../schema/blocks/definition';
import { bookmarkBlock, bookmarkHost, type BookmarkData } from './block';

const card = {
  title: 'Как мы ускорили <редактор>',
  description: 'Двадцать тысяч блоков',
  image: 'https://example.com/cover.png',
  icon: 'https://example.com/icon.svg',
  siteName: 'Блог',
};
const data: BookmarkData = { url: 'https://example.com/post?a=1&b=2', preview: card };
const wire: WireBlock = { id: 'b', contentType: 'Block', pageId: 'p', type: 'bookmark', version: 1, parentId: null, placeAfter: null, data };
const valid = (value: unknown) => bookmarkBlock.dataSchema.safeParse(value).success;

describe('the bookmark block', () => {
  test('is registered: its wire type, its lookups, `/bookmark`; a new one is empty', () => {
    expect(definitionForWireType('bookmark')).toBe(bookmarkBlock);
    expect(MARKDOWN_SHORTCUTS.get('/bookmark')).toBe('bookmarkBlock');
    expect(bookmarkBlock.defaultData!()).toEqual({ url: null, preview: null });
  });

  test('its data: an http(s) address and a card whose pictures are http(s) too', () => {
    expect(valid(data)).toBe(true);
    expect(valid({ url: null, preview: null })).toBe(true);
    expect(valid({ url: 'javascript:alert(1)', preview: null })).toBe(false);
    expect(valid({ url: 'https://e.com', preview: { ...card, image: 'data:image/png;base64,AAAA' } })).toBe(false);
    expect(valid({ url: 'https://e.com', preview: { ...card, icon: 'javascript:1' } })).toBe(false);
    expect(valid({ url: 'https://e.com', preview: { ...card, description: 'д'.repeat(1001) } })).toBe(false);
    expect(valid({ url: 'https://e.com' })).toBe(false);
  });

  test('canonical form: a card read empty stays (it was read), a card without an address is dropped, absent fields are null', () => {
    const empty = { title: null, description: null, image: null, icon: null, siteName: null };
    expect(bookmarkBlock.canonicalize({ url: 'https://e.com', preview: empty })).toEqual({ url: 'https://e.com', preview: empty });
    expect(bookmarkBlock.canonicalize({ url: null, preview: card })).toEqual({ url: null, preview: null });
    expect(bookmarkBlock.canonicalize({ url: 'https://e.com', preview: { title: 'Т' } as never })).toEqual({
      url: 'https://e.com',
      preview: { ...empty, title: 'Т' },
    });
  });

  test('round-trips through Slate (a void element)', () => {
    const element = toSlate(wire);
    expect(element).toEqual({ type: 'bookmarkBlock', uid: 'b', version: 1, ...data, children: [{ text: '' }] });
    expect(toWire(element, wire)).toStrictEqual(wire);
  });

  test('HTML: a figure with the link and its description, read back whole; escaped', () => {
    const html = bookmarkBlock.html!.serialize(data, '');
    expect(html).toContain('<a href="https://example.com/post?a=1&amp;b=2">Как мы ускорили &lt;редактор&gt;</a>');
    expect(html).toContain('<figcaption>Двадцать тысяч блоков</figcaption>');
    expect(roundTripHtml(bookmarkBlock, data, '')).toEqual(data);
    const bare = { url: 'https://example.com/x', preview: null };
    expect(roundTripHtml(bookmarkBlock, bare, '')).toEqual(bare);
    // A pasted figure of ours with a picture that is not http(s): the picture is left out.
    expect(parseWith(bookmarkBlock, '<figure data-bookmark data-image="javascript:1"><a href="https://e.com/">Т</a></figure>')).toEqual({
      url: 'https://e.com/',
      preview: { title: 'Т', description: null, image: null, icon: null, siteName: null },
    });
    expect(parseWith(bookmarkBlock, '<figure><a href="https://e.com/">Т</a></figure>')).toBeNull();
    expect(bookmarkBlock.html!.serialize({ url: null, preview: null }, '')).toBe('');
  });

  test('Markdown: a titled link and the description, or the bare address', () => {
    const md = {
      inline: (tokens: readonly { text: string }[]) => tokens.map((x) => x.text).join(''),
      inlineMidLine: (tokens: readonly { text: string }[]) => tokens.map((x) => x.text.replace(/[[\]]/g, '\\$&')).join(''),
      address: (path: string) => path.replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16)}`),
    } as unknown as MarkdownContext;
    expect(bookmarkBlock.markdown!.serialize({ url: 'https://e.com/a(1)', preview: { ...card, title: 'О [проекте]' } }, md)).toEqual([
      '[О \\[проекте\\]](https://e.com/a%281%29)',
      '',
      'Двадцать тысяч блоков',
    ]);
    expect(bookmarkBlock.markdown!.serialize({ url: 'https://e.com/', preview: null }, md)).toEqual(['<https://e.com/>']);
    expect(bookmarkBlock.markdown!.serialize({ url: null, preview: null }, md)).toEqual([]);
  });

  test('a card names the host without www. when the page gave no site name', () => {
    expect(bookmarkHost('https://www.example.com/a')).toBe('example.com');
    expect(bookmarkHost('не адрес')).toBe('не адрес');
  });
});
