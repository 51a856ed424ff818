import { pageOf } from './pagination';

const items = Array.from({ length: 5 }, (_, i) => ({ id: `p${i}` }));

describe('pageOf', () => {
  it('pages through a list with id::contentType cursors', () => {
    const first = pageOf(items, 'Element', undefined, 2);
    expect(first.data.map((i) => i.id)).toEqual(['p0', 'p1']);
    expect(first.meta).toEqual({ count: 5, hasMoreNext: true, nextCursor: 'p1::Element' });
    const second = pageOf(items, 'Element', first.meta.nextCursor ?? undefined, 2);
    expect(second.data.map((i) => i.id)).toEqual(['p2', 'p3']);
    const last = pageOf(items, 'Element', second.meta.nextCursor ?? undefined, 2);
    expect(last.data.map((i) => i.id)).toEqual(['p4']);
    expect(last.meta).toEqual({ count: 5, hasMoreNext: false, nextCursor: null });
  });

  it('refuses forged cursors with 400', () => {
    for (const cursor of ['nope::Element', 'p1::Comment', 'p1', 'p1::Element::x', '::Element']) {
      expect(() => pageOf(items, 'Element', cursor)).toThrow(expect.objectContaining({ statusCode: 400, code: 'bad_request' }));
    }
  });
});
