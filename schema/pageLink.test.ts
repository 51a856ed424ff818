import { tokenSchema, isPageLink, pageHref } from './token';
import { tokensToHtml } from './html';

const id = '0f7c1a52-3e0b-4a5e-9f1d-2b8c6d4e5a10';

describe('page links in tokens', () => {
  test('a page link is its page address with the page id', () => {
    expect(tokenSchema.safeParse({ text: '↗', link: { href: pageHref(id), pageId: id } }).success).toBe(true);
    expect(isPageLink({ href: `/${id}`, pageId: id })).toBe(true);
  });
  test('an href that is not the page address, a relative link without a page, or a bad scheme is refused', () => {
    expect(tokenSchema.safeParse({ text: '↗', link: { href: 'https://evil.example', pageId: id } }).success).toBe(false);
    expect(tokenSchema.safeParse({ text: '↗', link: { href: `/${id}` } }).success).toBe(false);
    expect(tokenSchema.safeParse({ text: '↗', link: { href: 'javascript:alert(1)', pageId: id } }).success).toBe(false);
    expect(tokenSchema.safeParse({ text: '↗', link: { href: '/x', pageId: 'x' } }).success).toBe(false);
    expect(isPageLink({ href: 'https://a.example' })).toBe(false);
  });
  test('HTML keeps a page link as a link to the page address, marked with the page id', () => {
    expect(tokensToHtml([{ text: '↗', link: { href: `/${id}`, pageId: id } }])).toBe(`<a href="/${id}" data-page-id="${id}">↗</a>`);
  });
});
