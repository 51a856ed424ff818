import type { WireBlock } from '../../schema/block';
import { createServerTree } from './serverTree';

function wire(id: string, extra: Partial<WireBlock> = {}): WireBlock {
  return { id, contentType: 'Block', pageId: 'p1', type: 'text', version: 1, parentId: null, placeAfter: null, data: { tokens: [{ text: id }] }, ...extra };
}

/** An editor's blocks by id (what `read` answers). */
const editorOf = (...blocks: WireBlock[]) => {
  const byId = new Map(blocks.map((block) => [block.id, block]));
  return (uid: string) => byId.get(uid) ?? null;
};

describe('serverTree', () => {
  it('versions only go up; the copy is the last one remembered', () => {
    const tree = createServerTree();
    tree.remember(wire('a', { version: 3 }));
    tree.remember(wire('a', { version: 2, data: { tokens: [{ text: 'late' }] } }));
    expect(tree.version('a')).toBe(3);
    expect(tree.lastSent('a')?.data).toEqual({ tokens: [{ text: 'late' }] });
    expect(tree.has('b')).toBe(false);
    expect(tree.version('b')).toBeUndefined();
  });

  it('keeps the parents: descendants follow moves, and a forgotten block leaves its parent but keeps its last copy', () => {
    const tree = createServerTree();
    for (const block of [wire('a'), wire('b', { parentId: 'a' }), wire('c', { parentId: 'b' }), wire('d', { parentId: 'a' })]) tree.remember(block);
    expect(tree.descendants('a')).toEqual(['b', 'c', 'd']);
    tree.setParent('d', null);
    expect(tree.descendants('a')).toEqual(['b', 'c']);
    tree.forget('b');
    expect(tree.descendants('a')).toEqual([]);
    expect(tree.has('b')).toBe(false);
    expect(tree.lastSent('b')).toBeDefined();
    // c still says b is its parent on the server (b's subtree is gone with it there).
    expect(tree.descendants('b')).toEqual(['c']);
  });

  it('parentDiffers only for a block whose parent the server told', () => {
    const tree = createServerTree();
    tree.remember(wire('a', { parentId: 'x' }));
    expect(tree.parentDiffers('a', 'x')).toBe(false);
    expect(tree.parentDiffers('a', null)).toBe(true);
    expect(tree.parentDiffers('unknown', 'x')).toBe(false);
  });

  it('takes a place only if it is not older than the one taken; a place with no time is always news', () => {
    const tree = createServerTree();
    expect(tree.takePlace('a', '2026-01-01T00:00:02Z')).toBe(true);
    expect(tree.takePlace('a', '2026-01-01T00:00:01Z')).toBe(false);
    expect(tree.takePlace('a', '2026-01-01T00:00:02Z')).toBe(true);
    expect(tree.takePlace('a', undefined)).toBe(true);
    expect(tree.takePlace('a', '2026-01-01T00:00:01Z')).toBe(false);
    tree.forget('a');
    expect(tree.takePlace('a', '2026-01-01T00:00:01Z')).toBe(true);
  });

  it('stayingUnder: the topmost blocks under a block that are still in the editor', () => {
    const tree = createServerTree();
    for (const block of [wire('a'), wire('b', { parentId: 'a' }), wire('c', { parentId: 'b' }), wire('d', { parentId: 'c' }), wire('e', { parentId: 'a' })])
      tree.remember(block);
    // b is gone here, c and e stay (d goes along with c).
    const read = editorOf(wire('c'), wire('d', { parentId: 'c' }), wire('e'));
    expect(tree.stayingUnder('a', read)).toEqual(['c', 'e']);
  });

  it('knownPlaceAfter: the nearest previous sibling the server has, past the new ones', () => {
    const tree = createServerTree();
    tree.remember(wire('a'));
    const read = editorOf(wire('a'), wire('n1', { placeAfter: 'a' }), wire('n2', { placeAfter: 'n1' }), wire('z', { placeAfter: 'n2' }));
    expect(tree.knownPlaceAfter(wire('z', { placeAfter: 'n2' }), read)).toBe('a');
    expect(tree.knownPlaceAfter(wire('n1', { placeAfter: 'a' }), read)).toBe('a');
    expect(tree.knownPlaceAfter(wire('first'), read)).toBeNull();
  });
});
