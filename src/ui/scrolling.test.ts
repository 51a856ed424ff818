import { scrollingAncestor } from './scrolling';

describe('scrollingAncestor', () => {
  afterEach(() => document.body.replaceChildren());

  test('the nearest ancestor whose overflow-y scrolls; a hidden overflow is not one', () => {
    document.body.innerHTML = '<div id="outer" style="overflow-y: auto"><div style="overflow: hidden"><p id="leaf"></p></div></div>';
    expect(scrollingAncestor(document.getElementById('leaf'))?.id).toBe('outer');
  });

  test('null when the document scrolls (the body and the root do not count), and for no element', () => {
    document.body.style.overflowY = 'auto';
    document.body.innerHTML = '<div><p id="leaf"></p></div>';
    expect(scrollingAncestor(document.getElementById('leaf'))).toBeNull();
    expect(scrollingAncestor(null)).toBeNull();
    document.body.style.overflowY = '';
  });
});
