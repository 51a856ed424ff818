import fc from 'fast-check';
import { mergeBlockContent, mergeTokens } from './merge';
import { tokensText, type Token } from './token';

const t = (text: string, marks: Partial<Token> = {}): Token => ({ text, ...marks });
const text = (tokens: Token[]) => tokensText(tokens);

describe('mergeTokens: unsent local edits rebased onto a newer server copy', () => {
  it('edits in different places both apply', () => {
    const merged = mergeTokens([t('Hello world, this is a test')], [t('Hello big world, this is a test')], [t('Hello world, this is a fine test')]);
    expect(text(merged)).toBe('Hello big world, this is a fine test');
  });

  it('when only one side changed, that side wins as it is', () => {
    expect(mergeTokens([t('a')], [t('a')], [t('ab')])).toEqual([t('ab')]);
    expect(mergeTokens([t('a')], [t('ab', { bold: true })], [t('a')])).toEqual([t('ab', { bold: true })]);
  });

  it('insertions at the same place keep both, the server’s first', () => {
    expect(text(mergeTokens([t('ab')], [t('aXb')], [t('aYb')]))).toBe('aYXb');
  });

  it('both changing the same words keeps both versions (nothing typed is lost)', () => {
    const merged = text(mergeTokens([t('the cat sat')], [t('the dog sat')], [t('the bird sat')]));
    expect(merged).toContain('dog');
    expect(merged).toContain('bird');
    expect(merged.startsWith('the ')).toBe(true);
    expect(merged.endsWith(' sat')).toBe(true);
  });

  it('a deletion there and an insertion elsewhere both apply', () => {
    expect(text(mergeTokens([t('one two three four')], [t('one two three four five')], [t('one three four')]))).toBe('one three four five');
  });

  it('modifiers: a word made bold here and text typed there both survive', () => {
    const merged = mergeTokens([t('make this bold please')], [t('make '), t('this', { bold: true }), t(' bold please')], [t('make this bold please now')]);
    expect(merged).toEqual([t('make '), t('this', { bold: true }), t(' bold please now')]);
  });

  it('a link the server added stays on its text while we typed elsewhere', () => {
    const link = { href: 'https://example.com' };
    const merged = mergeTokens([t('see docs and more')], [t('see docs and more text')], [t('see '), t('docs', { link }), t(' and more')]);
    expect(merged).toEqual([t('see '), t('docs', { link }), t(' and more text')]);
  });

  it('property: when both sides only insert, the result holds both texts, each character once (the same text on both sides is one edit)', () => {
    const word = fc.stringMatching(/^[a-zа-я ]{0,12}$/);
    const isSubsequence = (short: string, long: string) => {
      let i = 0;
      for (const ch of long) if (ch === short[i]) i++;
      return i === short.length;
    };
    fc.assert(
      fc.property(word, word, word, word, word, (prefix, middle, suffix, ours, theirs) => {
        const base = [t(prefix + middle + suffix)].filter((x) => x.text);
        // We insert at the end of the prefix, the server at the end of the middle.
        const local = [t(prefix + ours + middle + suffix)].filter((x) => x.text);
        const remote = [t(prefix + middle + theirs + suffix)].filter((x) => x.text);
        const merged = text(mergeTokens(base, local, remote));
        if (text(local) === text(remote)) {
          // Both sides made the same text (the same insertion at the same point): that is one
          // edit — a save of ours the server already holds — and it is kept once (mergeTokens'
          // rule for identical versions; a replayed edit never doubles content).
          expect(merged).toBe(text(local));
          return;
        }
        expect(isSubsequence(text(local), merged)).toBe(true);
        expect(isSubsequence(text(remote), merged)).toBe(true);
        expect(merged.length).toBe(text(local).length + text(remote).length - text(base).length);
      }),
      { numRuns: 500 },
    );
  });

  it('a stretch deleted on one side stays deleted when the other typed inside it; what was typed stays', () => {
    // A split here moved "world again" to a new block; meanwhile the server's copy got "big " inside it.
    expect(text(mergeTokens([t('hello world again')], [t('hello ')], [t('hello big world again')]))).toBe('hello big ');
    // The other way round: the server deleted, we typed inside.
    expect(text(mergeTokens([t('one two three')], [t('one two and a half three')], [t('one ')]))).toBe('one and a half ');
  });

  it('property: with every character distinct, what either side inserted is there once, and a base character at most once', () => {
    const fresh = (from: number, n: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(from + i)).join('');
    // One side's edits of the base: ranges deleted and fresh characters inserted (its own alphabet).
    const ops = fc.array(fc.record({ at: fc.nat(), drop: fc.nat({ max: 4 }), add: fc.nat({ max: 3 }) }), { maxLength: 4 });
    const apply = (base: string, edits: ReadonlyArray<{ at: number; drop: number; add: number }>, alphabet: number) => {
      let out = base;
      let next = alphabet;
      for (const { at, drop, add } of edits) {
        const i = at % (out.length + 1);
        out = out.slice(0, i) + fresh(next, add) + out.slice(i + drop);
        next += add;
      }
      return out;
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), ops, ops, (size, ours, theirs) => {
        const base = fresh(0x61, size);
        const [local, remote] = [apply(base, ours, 0x3b1), apply(base, theirs, 0x410)];
        const merged = text(
          mergeTokens(
            [t(base)].filter((x) => x.text),
            [t(local)].filter((x) => x.text),
            [t(remote)].filter((x) => x.text),
          ),
        );
        const count = (ch: string) => [...merged].filter((c) => c === ch).length;
        const inserted = [...(local + remote)].filter((ch) => !base.includes(ch));
        expect({
          base,
          local,
          remote,
          merged,
          twice: [...base, ...inserted].filter((ch) => count(ch) > 1),
          lost: inserted.filter((ch) => count(ch) === 0),
        }).toEqual({
          base,
          local,
          remote,
          merged,
          twice: [],
          lost: [],
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('property: whatever both sides do, every character either side typed is in the result', () => {
    const word = fc.stringMatching(/^[a-z ]{0,10}$/);
    fc.assert(
      fc.property(word, word, word, (base, local, remote) => {
        const merged = text(
          mergeTokens(
            [t(base)].filter((x) => x.text),
            [t(local)].filter((x) => x.text),
            [t(remote)].filter((x) => x.text),
          ),
        );
        const count = (s: string) => [...s].reduce((m, ch) => m.set(ch, (m.get(ch) ?? 0) + 1), new Map<string, number>());
        const [b, l, r, m] = [count(base), count(local), count(remote), count(merged)];
        // A character typed on a side (more of it there than in the base) is never dropped.
        for (const [ch, n] of l) expect(m.get(ch) ?? 0).toBeGreaterThanOrEqual(n - (b.get(ch) ?? 0));
        for (const [ch, n] of r) expect(m.get(ch) ?? 0).toBeGreaterThanOrEqual(n - (b.get(ch) ?? 0));
      }),
      { numRuns: 500 },
    );
  });
});

describe('mergeBlockContent', () => {
  it('fields merge as values: ours where we changed them, the server’s elsewhere; the type likewise', () => {
    const base = { type: 'checkbox', data: { checked: false, tokens: [t('buy milk')] } };
    const local = { type: 'checkbox', data: { checked: true, tokens: [t('buy milk')] } };
    const remote = { type: 'checkbox', data: { checked: false, tokens: [t('buy oat milk')] } };
    expect(mergeBlockContent(base, local, remote)).toEqual({ type: 'checkbox', data: { checked: true, tokens: [t('buy oat milk')] } });
    expect(mergeBlockContent(base, { ...local, type: 'text', data: { tokens: [t('buy milk')] } }, remote)).toEqual({
      type: 'text',
      data: { tokens: [t('buy oat milk')] },
    });
  });

  it('table cells merge one by one; cells outside a shrunk table go with it', () => {
    const cell = (x: number, y: number, s: string): Token => ({ text: s, tableAddress: { x, y } });
    const layout = (rows: number) => ({ columns: 2, rows, columnSizes: [120, 120] });
    const base = { type: 'table', data: { tableLayout: layout(3), tokens: [cell(0, 0, 'a'), cell(1, 0, 'b'), cell(0, 2, 'z')] } };
    const local = { type: 'table', data: { tableLayout: layout(2), tokens: [cell(0, 0, 'a1'), cell(1, 0, 'b')] } };
    const remote = { type: 'table', data: { tableLayout: layout(3), tokens: [cell(0, 0, 'a'), cell(1, 0, 'b2'), cell(1, 1, 'new'), cell(0, 2, 'z')] } };
    expect(mergeBlockContent(base, local, remote).data).toEqual({ tableLayout: layout(2), tokens: [cell(0, 0, 'a1'), cell(1, 0, 'b2'), cell(1, 1, 'new')] });
  });
});
