import type { WireBlock } from '../../schema/block';
import { baseAfterLostAnswers, isWireBlock, resolveExisting, resolveRemoteChange, resolveVersionConflict, sameContent, typedSince } from './conflicts';

/* The decisions alone (the queue that acts on them: blockSyncQueue.test.ts, remote.test.ts). */

function wire(text: string, extra: Partial<WireBlock> = {}): WireBlock {
  return {
    id: 'b1',
    contentType: 'Block',
    pageId: 'p1',
    type: 'text',
    version: 2,
    parentId: null,
    placeAfter: null,
    data: { tokens: text ? [{ text }] : [] },
    ...extra,
  };
}
const content = (text: string, type: WireBlock['type'] = 'text') => ({ type, data: { tokens: text ? [{ text }] : [] } }) as Pick<WireBlock, 'type' | 'data'>;
const textOf = (block: Pick<WireBlock, 'data'> | null | undefined) => (block?.data as { tokens: Array<{ text: string }> }).tokens.map((t) => t.text).join('');

describe('sameContent', () => {
  it('compares type and data; nothing known is never the same', () => {
    expect(sameContent(content('a'), content('a'))).toBe(true);
    expect(sameContent(content('a'), content('b'))).toBe(false);
    expect(sameContent(content('a'), content('a', 'heading1'))).toBe(false);
    expect(sameContent(undefined, content(''))).toBe(false);
  });
});

describe('isWireBlock', () => {
  it('takes an error body that carries a block, nothing else', () => {
    expect(isWireBlock(wire('a'))).toBe(true);
    expect(isWireBlock({ id: 'b1', version: 1 })).toBe(false);
    expect(isWireBlock({ id: 'b1', data: {} })).toBe(false);
    expect(isWireBlock({ version: 1, data: {} })).toBe(false);
    expect(isWireBlock(null)).toBe(false);
    expect(isWireBlock('b1')).toBe(false);
  });
});

describe('resolveVersionConflict (422)', () => {
  it('nothing unsent here: their copy as it is, nothing sent', () => {
    const server = wire('their text');
    expect(resolveVersionConflict(content('old'), content('old'), server)).toEqual({ show: server, resend: false });
    expect(resolveVersionConflict(undefined, content('mine'), server)).toEqual({ show: server, resend: false });
  });

  it('unsent edits are merged onto their copy, at their version, and sent on top of it', () => {
    const { show, resend } = resolveVersionConflict(content('Hello world'), content('Hello big world'), wire('Hello world!', { version: 5 }));
    expect(textOf(show)).toBe('Hello big world!');
    expect(show?.version).toBe(5);
    expect(resend).toBe(true);
  });

  it('an edit the server already has merges to their copy: shown, not sent again', () => {
    const { show, resend } = resolveVersionConflict(content('Hello'), content('Hello world'), wire('Hello world'));
    expect(textOf(show)).toBe('Hello world');
    expect(resend).toBe(false);
  });
});

describe('resolveExisting (409 on create)', () => {
  it('at version 1 the server copy is our own create: the text typed since is sent as an update, the editor is left alone', () => {
    const resolution = resolveExisting(wire('Hello', { version: 1 }), { lastSent: undefined, created: content('H') }, content('Hello there'));
    expect(resolution).toEqual({ show: null, resend: true });
  });

  it('a later version is merged from the first create attempt: both texts stay, shown and sent', () => {
    const { show, resend } = resolveExisting(wire('Hi, their part', { version: 3 }), { lastSent: undefined, created: content('Hi') }, content('Hi, my part'));
    expect(textOf(show)).toContain('their part');
    expect(textOf(show)).toContain('my part');
    expect(resend).toBe(true);
  });

  it('the last server copy known here is the base before the create attempt', () => {
    const resolution = resolveExisting(wire('shared', { version: 4 }), { lastSent: content('shared'), created: content('') }, content('shared'));
    // From "shared", nothing changed on either side: nothing to show, nothing to send.
    expect(resolution).toEqual({ show: null, resend: false });
  });

  it('with no base or no block here, the block simply goes again', () => {
    expect(resolveExisting(wire('x', { version: 3 }), { lastSent: undefined, created: undefined }, content('y'))).toEqual({ show: null, resend: true });
    expect(resolveExisting(wire('x', { version: 3 }), { lastSent: content('x'), created: undefined }, null)).toEqual({ show: null, resend: true });
  });
});

describe('resolveRemoteChange (a newer version made by someone else)', () => {
  it('nothing unsent: their content as it is, nothing sent', () => {
    const block = wire('theirs');
    expect(resolveRemoteChange(block, { lastSent: content('base'), created: undefined }, content('base'), false)).toEqual({ content: block, resend: false });
  });

  it('unsent text merges from what the server last had from us (before the first create attempt), and goes out', () => {
    const { content: merged, resend } = resolveRemoteChange(
      wire('one two!'),
      { lastSent: content('one two'), created: content('') },
      content('zero one two'),
      true,
    );
    expect(textOf(merged)).toBe('zero one two!');
    expect(resend).toBe(true);
  });

  it('a block made here and not answered yet merges from its create; with no base at all both texts stay', () => {
    expect(textOf(resolveRemoteChange(wire('made, theirs'), { lastSent: undefined, created: content('made') }, content('made, mine'), true).content)).toMatch(
      /theirs.*mine|mine.*theirs/,
    );
    const { content: both } = resolveRemoteChange(wire('theirs'), { lastSent: undefined, created: undefined }, content('mine'), true);
    expect(textOf(both)).toContain('theirs');
    expect(textOf(both)).toContain('mine');
  });
});

describe('typedSince: what is left of a block deleted on one side and changed on the other', () => {
  it('keeps what was typed, not the text the deleter removed', () => {
    expect(textOf(typedSince(content('Hello'), content('Hello there')))).toBe(' there');
    expect(textOf(typedSince(content('Hello'), content('He-llo!')))).toBe('-!');
  });
  it('nothing typed (a style, a type, a deletion): null, the deletion stands', () => {
    expect(typedSince(content('Hello'), content('Hello', 'heading1'))).toBeNull();
    expect(typedSince(content('Hello'), content('Hel'))).toBeNull();
    expect(typedSince(content('Hello'), { type: 'text', data: { tokens: [{ text: 'Hello', bold: true }] } } as Pick<WireBlock, 'type' | 'data'>)).toBeNull();
  });
  it('blocks without plain text (a table, a picture) and an unknown base come back whole', () => {
    const table = { type: 'table', data: { tokens: [{ text: 'x', tableAddress: { x: 0, y: 0 } }] } } as unknown as Pick<WireBlock, 'type' | 'data'>;
    expect(typedSince(table, table)).toBe(table);
    const picture = { type: 'image', data: { url: 'a.png' } } as unknown as Pick<WireBlock, 'type' | 'data'>;
    expect(typedSince(picture, picture)).toBe(picture);
    expect(typedSince(undefined, content('x'))).toEqual(content('x'));
  });
});

describe('baseAfterLostAnswers: which unanswered write made it to the server', () => {
  it('the newest whose insertions the server copy holds; else what the server last accepted', () => {
    const last = content('start');
    const first = content('start a');
    const second = content('start ab');
    expect(baseAfterLostAnswers(last, [first, second], content('start abX'))).toBe(second);
    expect(baseAfterLostAnswers(last, [first, second], content('start aX'))).toBe(first);
    expect(baseAfterLostAnswers(last, [first, second], content('start X'))).toBe(last);
    // Only deletions were sent: they made it if what they deleted is gone from the server copy.
    const cut = content('star');
    expect(baseAfterLostAnswers(last, [cut], content('star X'))).toBe(cut);
    expect(baseAfterLostAnswers(last, [cut], content('start X'))).toBe(last);
    // Nothing changed: nothing tells.
    expect(baseAfterLostAnswers(last, [content('start')], content('start'))).toBe(last);
  });

  it('a split whose answer was lost, joined back before the answer: the tail it moved away and back is kept (a CI convergence failure)', () => {
    // The block held «ab|cde»; Enter after «ab» sent «ab» (answer lost) and moved «cde» to a new
    // block, joined back: the editor holds «abXcde» (X typed). Others meanwhile replaced «ab» with «QRS».
    const lastSent = content('abcde');
    const split = content('ab');
    const server = wire('QRS', { version: 15 });
    const base = baseAfterLostAnswers(lastSent, [split], server);
    expect(base).toBe(split);
    const { show } = resolveVersionConflict(base, content('aXbcde'), server);
    expect(textOf(show)).toBe('QRSXcde');
  });
});
