import crypto from 'node:crypto';
import type { WireBlock } from '../../schema/block';
import type { TextData } from '../../schema/blocks';
import type { WireElement } from '../../schema/element';
import type { Token } from '../../schema/token';
import { blockTreeProblems, outcome } from '../../test/helpers/races';
import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';
import { addMembersAs, createWorkspaceAs, userIdOf } from '../../test/helpers/workspaces';

let t: TestApp;
let ann: string;
let bob: string;

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t, 'ann@example.com');
  bob = await signIn(t, 'bob@example.com');
});
afterAll(async () => {
  await t.close();
});

const tokensOf = (block: WireBlock): Token[] => (block.data as TextData).tokens;

async function newPage(cookie = ann): Promise<string> {
  const res = await api(t, cookie, 'POST', '/api/v3/spaces/section/private', { title: 'Doc' });
  expect(res.statusCode).toBe(201);
  return body<WireElement>(res).data.id;
}

interface NewBlock {
  id?: string;
  type?: string;
  tokens?: Token[];
  placeAfter?: string | null;
  parentId?: string | null;
}

function postBlock(pageId: string, block: NewBlock = {}, cookie = ann) {
  const { tokens = [{ text: 'hello' }], type = 'text', ...position } = block;
  return api(t, cookie, 'POST', '/api/v3/spaces/block', { pageId, type, data: { tokens }, ...position });
}

async function createBlock(pageId: string, block: NewBlock = {}): Promise<WireBlock> {
  const res = await postBlock(pageId, block);
  expect(res.statusCode).toBe(201);
  return body<WireBlock>(res).data;
}

async function listBlocks(pageId: string, cookie = ann): Promise<WireBlock[]> {
  const res = await api(t, cookie, 'GET', `/api/v3/spaces/note/${pageId}/blocks`);
  expect(res.statusCode).toBe(200);
  return body<WireBlock[]>(res).data;
}

function updateBlock(id: string, version: number, tokens: Token[], cookie = ann, type = 'text') {
  return api(t, cookie, 'POST', `/api/v3/spaces/block/${id}`, { version, type, data: { tokens } });
}

async function blockRowCount(pageId: string): Promise<number> {
  return (await t.app.db.selectFrom('blocks').select('id').where('page_id', '=', pageId).execute()).length;
}

describe('create and order', () => {
  test('a new block starts at version 1 with its position', async () => {
    const pageId = await newPage();
    const res = await postBlock(pageId, { tokens: [{ text: 'first', bold: true }] });
    expect(res.statusCode).toBe(201);
    const block = body<WireBlock>(res).data;
    expect(block).toEqual({
      id: expect.any(String),
      contentType: 'Block',
      pageId,
      type: 'text',
      version: 1,
      parentId: null,
      placeAfter: null,
      data: { tokens: [{ text: 'first', bold: true }] },
    });
    const got = await api(t, ann, 'GET', `/api/v3/spaces/block/${block.id}`);
    expect(got.statusCode).toBe(200);
    expect(body<WireBlock>(got).data).toEqual(block);
  });

  test('placeAfter orders siblings, including an insert between two blocks', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const c = await createBlock(pageId, { tokens: [{ text: 'c' }], placeAfter: a.id });
    expect(c.placeAfter).toBe(a.id);
    const b = await createBlock(pageId, { tokens: [{ text: 'b' }], placeAfter: a.id });
    expect(b.placeAfter).toBe(a.id);
    const first = await createBlock(pageId, { tokens: [{ text: '0' }], placeAfter: null });
    expect(first.placeAfter).toBeNull();

    const blocks = await listBlocks(pageId);
    expect(blocks.map((x) => tokensOf(x)[0].text)).toEqual(['0', 'a', 'b', 'c']);
    expect(blocks.map((x) => x.placeAfter)).toEqual([null, first.id, a.id, b.id]);
    const res = await api(t, ann, 'GET', `/api/v3/spaces/note/${pageId}/blocks`);
    expect(body(res).meta).toEqual({ count: 4, hasMoreNext: false, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    // GET block/{id} computes the same previous sibling.
    expect(body<WireBlock>(await api(t, ann, 'GET', `/api/v3/spaces/block/${c.id}`)).data.placeAfter).toBe(b.id);
  });

  test('many inserts at the end and in the middle keep document order', async () => {
    const pageId = await newPage();
    const expected: string[] = [];
    let last: string | null = null;
    for (let i = 0; i < 45; i++) {
      const block = await createBlock(pageId, { tokens: [{ text: `end ${i}` }], placeAfter: last });
      expected.push(block.id);
      last = block.id;
    }
    // Always insert right after the first block: keys crowd into one gap.
    const anchor = expected[0];
    for (let i = 0; i < 20; i++) {
      const block = await createBlock(pageId, { tokens: [{ text: `mid ${i}` }], placeAfter: anchor });
      expected.splice(1, 0, block.id);
    }
    // And always after the newest one in the middle: keys grow longer.
    let previous = expected[1];
    for (let i = 0; i < 20; i++) {
      const block = await createBlock(pageId, { tokens: [{ text: `deep ${i}` }], placeAfter: previous });
      expected.splice(expected.indexOf(previous) + 1, 0, block.id);
      previous = block.id;
    }
    const blocks = await listBlocks(pageId);
    expect(blocks.map((b) => b.id)).toEqual(expected);
    expect(blocks.map((b) => b.placeAfter)).toEqual([null, ...expected.slice(0, -1)]);
    for (const id of [expected[1], expected[30], expected[expected.length - 1]]) {
      const one = body<WireBlock>(await api(t, ann, 'GET', `/api/v3/spaces/block/${id}`)).data;
      expect(one.placeAfter).toBe(expected[expected.indexOf(id) - 1]);
    }
  });

  test('children: parentId nests, placeAfter orders among the siblings', async () => {
    const pageId = await newPage();
    const parent = await createBlock(pageId, { tokens: [{ text: 'parent' }] });
    const after = await createBlock(pageId, { tokens: [{ text: 'after' }], placeAfter: parent.id });
    const child1 = await createBlock(pageId, { tokens: [{ text: 'child 1' }], parentId: parent.id });
    const child2 = await createBlock(pageId, { tokens: [{ text: 'child 2' }], parentId: parent.id, placeAfter: child1.id });
    expect(child1).toMatchObject({ parentId: parent.id, placeAfter: null });
    expect(child2).toMatchObject({ parentId: parent.id, placeAfter: child1.id });

    const blocks = await listBlocks(pageId);
    expect(blocks.map((b) => [b.id, b.parentId, b.placeAfter])).toEqual([
      [parent.id, null, null],
      [child1.id, parent.id, null],
      [child2.id, parent.id, child1.id],
      [after.id, null, parent.id],
    ]);

    // placeAfter must be a sibling under the same parent.
    const wrongParent = await postBlock(pageId, { parentId: parent.id, placeAfter: after.id });
    expect(wrongParent.statusCode).toBe(422);
    expect(errorCode(wrongParent)).toBe('validation_failed');

    // Deleting the parent deletes its children.
    expect((await api(t, ann, 'DELETE', `/api/v3/spaces/block/${parent.id}`)).statusCode).toBe(200);
    expect((await listBlocks(pageId)).map((b) => b.id)).toEqual([after.id]);
    expect((await api(t, ann, 'GET', `/api/v3/spaces/block/${child2.id}`)).statusCode).toBe(404);
  });

  test('a client-chosen id is kept; creating it again → 409 block.already_exists with the server copy', async () => {
    const pageId = await newPage();
    const id = crypto.randomUUID();
    const block = await createBlock(pageId, { id, tokens: [{ text: 'original' }] });
    expect(block.id).toBe(id);
    const again = await postBlock(pageId, { id, tokens: [{ text: 'retry' }] });
    expect(again.statusCode).toBe(409);
    expect(errorCode(again)).toBe('block.already_exists');
    expect(body<WireBlock>(again).data).toEqual(block);

    // The same id on another page of the user: 409, without leaking the other page's block.
    const otherPage = await newPage();
    const elsewhere = await postBlock(otherPage, { id });
    expect(elsewhere.statusCode).toBe(409);
    expect(body(elsewhere).data).toBeNull();
    expect(await blockRowCount(otherPage)).toBe(0);
  });

  test('two parallel creates with one id → one 201, one 409', async () => {
    const pageId = await newPage();
    const id = crypto.randomUUID();
    const responses = await Promise.all([1, 2].map((n) => postBlock(pageId, { id, tokens: [{ text: `try ${n}` }] })));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await blockRowCount(pageId)).toBe(1);
  });
});

describe('several at once (POST blocks/create)', () => {
  const create = (pageId: string, blocks: unknown[], cookie = ann) => api(t, cookie, 'POST', '/api/v3/spaces/blocks/create', { pageId, blocks });
  const item = (text: string, position: { parentId?: string | null; placeAfter?: string | null } = {}) => ({
    id: crypto.randomUUID(),
    type: 'text',
    data: { tokens: [{ text }] },
    ...position,
  });
  const textOf = (block: WireBlock) => tokensOf(block)[0]?.text;

  test('made in order, one following another made before it in the same request, nested too, as one by one', async () => {
    const pageId = await newPage();
    const first = await createBlock(pageId, { tokens: [{ text: 'before' }] });
    const a = item('a', { placeAfter: first.id });
    const b = item('b', { placeAfter: a.id });
    const b1 = item('b1', { parentId: b.id });
    const c = item('c', { placeAfter: b.id });
    const res = await create(pageId, [a, b, b1, c]);
    expect(res.statusCode).toBe(200);
    const outcomes = body<Array<{ id: string; status: string; block: WireBlock }>>(res).data;
    expect(outcomes.map((o) => [o.id, o.status, o.block.version])).toEqual([a, b, b1, c].map((x) => [x.id, 'created', 1]));
    const listed = await listBlocks(pageId);
    expect(listed.map((x) => [textOf(x), x.parentId])).toEqual([
      ['before', null],
      ['a', null],
      ['b', null],
      ['b1', b.id],
      ['c', null],
    ]);
  });

  test('one refused (a place on another page, an id taken) is answered with its error — the server’s block for a taken id — and the others are made', async () => {
    const pageId = await newPage();
    const elsewhere = await createBlock(await newPage());
    const taken = await createBlock(pageId, { tokens: [{ text: 'taken' }] });
    const good = item('good');
    const res = await create(pageId, [item('misplaced', { placeAfter: elsewhere.id }), { ...item('again'), id: taken.id }, good]);
    expect(res.statusCode).toBe(200);
    const [misplaced, again, made] = body<Array<{ status: string; error?: { status: number; code: string }; block?: WireBlock }>>(res).data;
    expect([misplaced.status, misplaced.error?.status, misplaced.error?.code]).toEqual(['refused', 422, 'validation_failed']);
    expect([again.status, again.error?.status, again.error?.code, again.block?.id]).toEqual(['refused', 409, 'block.already_exists', taken.id]);
    expect(made.status).toBe('created');
    expect((await listBlocks(pageId)).map(textOf).sort()).toEqual(['good', 'taken']);
  });

  test('someone else and a reader are refused (403) and nothing is made; a bad body (none, too many, no id, a bad block) → 422; a missing page → 404', async () => {
    const pageId = await newPage();
    expect((await create(pageId, [item('x')], bob)).statusCode).toBe(403);
    const shared = await api(t, ann, 'POST', `/api/v3/spaces/element/${pageId}/member/add`, [
      { userId: await userIdOf(t, 'bob@example.com'), accessLevel: 'read' },
    ]);
    expect(shared.statusCode).toBe(200);
    const refused = await create(pageId, [item('x')], bob);
    expect([refused.statusCode, errorCode(refused)]).toEqual([403, 'forbidden']);
    for (const blocks of [[], Array.from({ length: 501 }, () => item('x')), [{ type: 'text', data: { tokens: [] } }], [{ ...item('x'), type: 'nonsense' }]]) {
      const bad = await create(pageId, blocks);
      expect([bad.statusCode, errorCode(bad)]).toEqual([422, 'validation_failed']);
    }
    expect(await listBlocks(pageId)).toEqual([]);
    expect((await create(crypto.randomUUID(), [item('x')])).statusCode).toBe(404);
  });
});

describe('update', () => {
  test('the right version → version + 1, and a reload shows exactly the new tokens', async () => {
    const pageId = await newPage();
    const block = await createBlock(pageId);
    const tokens: Token[] = [
      { text: 'plain ' },
      { text: 'bold', bold: true },
      { text: ' link', link: { href: 'https://example.com/a?b=c' }, italic: true },
      { text: ' code', code: true, comments: ['c1'] },
    ];
    const res = await updateBlock(block.id, 1, tokens);
    expect(res.statusCode).toBe(200);
    expect(body<WireBlock>(res).data).toMatchObject({ id: block.id, version: 2, data: { tokens } });

    const reloaded = body<WireBlock>(await api(t, ann, 'GET', `/api/v3/spaces/block/${block.id}`)).data;
    expect(reloaded.version).toBe(2);
    expect(reloaded.data).toEqual({ tokens });
    expect((await listBlocks(pageId))[0].data).toEqual({ tokens });

    const next = await updateBlock(block.id, 2, [], ann, 'heading2');
    expect(next.statusCode).toBe(200);
    expect(body<WireBlock>(next).data).toMatchObject({ version: 3, type: 'heading2', data: { tokens: [] } });
  });

  test('a stale version → 422 block.version_conflict with the server copy, and nothing changes', async () => {
    const pageId = await newPage();
    const block = await createBlock(pageId);
    const won = await updateBlock(block.id, 1, [{ text: 'first edit' }]);
    expect(won.statusCode).toBe(200);
    for (const version of [1, 5]) {
      const stale = await updateBlock(block.id, version, [{ text: 'lost edit' }]);
      expect(stale.statusCode).toBe(422);
      expect(errorCode(stale)).toBe('block.version_conflict');
      expect(body<WireBlock>(stale).data).toEqual(body<WireBlock>(won).data);
    }
    const current = body<WireBlock>(await api(t, ann, 'GET', `/api/v3/spaces/block/${block.id}`)).data;
    expect(current).toMatchObject({ version: 2, data: { tokens: [{ text: 'first edit' }] } });
  });

  test('two parallel updates on one base version → exactly one wins', async () => {
    const pageId = await newPage();
    const block = await createBlock(pageId);
    const responses = await Promise.all(['left', 'right'].map((text) => updateBlock(block.id, 1, [{ text }])));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    const winner = responses.find((r) => r.statusCode === 200);
    const loser = responses.find((r) => r.statusCode === 422);
    if (!winner || !loser) throw new Error('expected one winner and one loser');
    expect(errorCode(loser)).toBe('block.version_conflict');
    expect(body<WireBlock>(loser).data).toEqual(body<WireBlock>(winner).data);
    const current = body<WireBlock>(await api(t, ann, 'GET', `/api/v3/spaces/block/${block.id}`)).data;
    expect(current).toEqual(body<WireBlock>(winner).data);
    expect(current.version).toBe(2);
  });

  test('many parallel updates on one base version → exactly one wins', async () => {
    const pageId = await newPage();
    const block = await createBlock(pageId);
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => updateBlock(block.id, 1, [{ text: `edit ${i}` }])));
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 422)).toHaveLength(11);
  });

  test('tokens are stored canonical: equal neighbours merged, mark order irrelevant', async () => {
    const pageId = await newPage();
    const created = await createBlock(pageId, {
      tokens: [{ text: 'Hel', bold: true }, { text: 'lo', bold: true }, { text: ' ' }, { text: 'world' }],
    });
    expect(tokensOf(created)).toEqual([{ text: 'Hello', bold: true }, { text: ' world' }]);
    const res = await updateBlock(created.id, 1, [
      { text: 'a', italic: true, bold: true },
      { text: 'b', bold: true, italic: true },
      { text: 'c', link: { href: 'https://x.example/' } },
      { text: 'd', link: { href: 'https://y.example/' } },
    ]);
    expect(res.statusCode).toBe(200);
    const expected = [
      { text: 'ab', italic: true, bold: true },
      { text: 'c', link: { href: 'https://x.example/' } },
      { text: 'd', link: { href: 'https://y.example/' } },
    ];
    expect(tokensOf(body<WireBlock>(res).data)).toEqual(expected);
    expect(tokensOf(body<WireBlock>(await api(t, ann, 'GET', `/api/v3/spaces/block/${created.id}`)).data)).toEqual(expected);
  });

  test('update keeps the position', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const b = await createBlock(pageId, { tokens: [{ text: 'b' }], placeAfter: a.id });
    const res = await updateBlock(b.id, 1, [{ text: 'B' }]);
    expect(body<WireBlock>(res).data).toMatchObject({ placeAfter: a.id, parentId: null, pageId });
    expect((await listBlocks(pageId)).map((x) => x.id)).toEqual([a.id, b.id]);
  });
});

describe('validation', () => {
  let pageId: string;
  let existing: WireBlock;
  beforeAll(async () => {
    pageId = await newPage();
    existing = await createBlock(pageId, { tokens: [{ text: 'keep me' }] });
  });

  const invalid: Array<[string, Record<string, unknown>]> = [
    ['an unknown block type', { type: 'marquee', data: { tokens: [] } }],
    ['a javascript: link', { type: 'text', data: { tokens: [{ text: 'x', link: { href: 'javascript:alert(1)' } }] } }],
    ['a data: link', { type: 'text', data: { tokens: [{ text: 'x', link: { href: 'data:text/html,hi' } }] } }],
    ['a relative link', { type: 'text', data: { tokens: [{ text: 'x', link: { href: '/path' } }] } }],
    ['an unknown token field', { type: 'text', data: { tokens: [{ text: 'x', colour: 'red' }] } }],
    ['an unknown data field', { type: 'text', data: { tokens: [], extra: 1 } }],
    ['an empty token', { type: 'text', data: { tokens: [{ text: '' }] } }],
    ['a mark that is not a boolean', { type: 'text', data: { tokens: [{ text: 'x', bold: 'yes' }] } }],
    ['no tokens', { type: 'text', data: {} }],
    ['data that is not an object', { type: 'text', data: 'hello' }],
    ['too much text', { type: 'text', data: { tokens: [{ text: 'x'.repeat(100_001) }] } }],
  ];

  test.each(invalid)('create with %s → 422 validation_failed, nothing stored', async (_what, fields) => {
    const before = await blockRowCount(pageId);
    const res = await api(t, ann, 'POST', '/api/v3/spaces/block', { pageId, ...fields });
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
    expect(await blockRowCount(pageId)).toBe(before);
  });

  test.each(invalid)('update with %s → 422 validation_failed, nothing changed', async (_what, fields) => {
    const res = await api(t, ann, 'POST', `/api/v3/spaces/block/${existing.id}`, { version: 1, ...fields });
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
    expect(body<WireBlock>(await api(t, ann, 'GET', `/api/v3/spaces/block/${existing.id}`)).data).toEqual(existing);
  });

  test.each([
    ['an unknown field', (page: string) => ({ pageId: page, type: 'text', data: { tokens: [] }, colour: 'red' })],
    ['an id that is not a uuid', (page: string) => ({ id: 'my-block', pageId: page, type: 'text', data: { tokens: [] } })],
    ['no pageId', () => ({ type: 'text', data: { tokens: [] } })],
    ['an empty pageId', () => ({ pageId: '', type: 'text', data: { tokens: [] } })],
    ['no type', (page: string) => ({ pageId: page, data: { tokens: [] } })],
  ])('create with %s → 422', async (_what, payload) => {
    const before = await blockRowCount(pageId);
    const res = await api(t, ann, 'POST', '/api/v3/spaces/block', payload(pageId));
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
    expect(await blockRowCount(pageId)).toBe(before);
  });

  test.each([
    ['no version', { type: 'text', data: { tokens: [] } }],
    ['version 0', { version: 0, type: 'text', data: { tokens: [] } }],
    ['a fractional version', { version: 1.5, type: 'text', data: { tokens: [] } }],
    ['an unknown field', { version: 1, type: 'text', data: { tokens: [] }, pageId: 'x' }],
  ])('update with %s → 422', async (_what, payload) => {
    const res = await api(t, ann, 'POST', `/api/v3/spaces/block/${existing.id}`, payload);
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
  });

  test('http and https links are accepted', async () => {
    const tokens = [
      { text: 'a', link: { href: 'http://example.com' } },
      { text: 'b', link: { href: 'HTTPS://EXAMPLE.COM/x' } },
    ];
    const block = await createBlock(pageId, { tokens });
    expect(tokensOf(block)).toEqual(tokens);
  });

  test('placeAfter or parentId from another page (or missing) → 422, no block created', async () => {
    const otherPage = await newPage();
    const foreign = await createBlock(otherPage, { tokens: [{ text: 'foreign' }] });
    const bobsPage = await newPage(bob);
    const bobs = body<WireBlock>(await api(t, bob, 'POST', '/api/v3/spaces/block', { pageId: bobsPage, type: 'text', data: { tokens: [] } })).data;
    const before = await blockRowCount(pageId);
    for (const position of [
      { placeAfter: foreign.id },
      { parentId: foreign.id },
      { placeAfter: bobs.id },
      { parentId: bobs.id },
      { placeAfter: crypto.randomUUID() },
      { parentId: crypto.randomUUID() },
    ]) {
      const res = await postBlock(pageId, position);
      expect(res.statusCode).toBe(422);
      expect(errorCode(res)).toBe('validation_failed');
    }
    expect(await blockRowCount(pageId)).toBe(before);
  });

  test('a create for a missing page → 404', async () => {
    const res = await postBlock(crypto.randomUUID());
    expect(res.statusCode).toBe(404);
    expect(errorCode(res)).toBe('not_found');
  });
});

describe('delete and missing blocks', () => {
  test('delete → gone from the page and from GET', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const b = await createBlock(pageId, { tokens: [{ text: 'b' }], placeAfter: a.id });
    const c = await createBlock(pageId, { tokens: [{ text: 'c' }], placeAfter: b.id });
    const res = await api(t, ann, 'DELETE', `/api/v3/spaces/block/${b.id}`);
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toEqual({ id: b.id, status: 'success' });
    const blocks = await listBlocks(pageId);
    expect(blocks.map((x) => [x.id, x.placeAfter])).toEqual([
      [a.id, null],
      [c.id, a.id],
    ]);
    expect((await api(t, ann, 'GET', `/api/v3/spaces/block/${b.id}`)).statusCode).toBe(404);
    expect((await api(t, ann, 'DELETE', `/api/v3/spaces/block/${b.id}`)).statusCode).toBe(404);
    // A delete does not free the page for placeAfter on the deleted block.
    expect((await postBlock(pageId, { placeAfter: b.id })).statusCode).toBe(422);
  });

  test('several at once (POST blocks/delete): each deleted with its children, gone, or refused with its copy; each restores on its own', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const a1 = await createBlock(pageId, { tokens: [{ text: 'a1' }], parentId: a.id });
    const b = await createBlock(pageId, { tokens: [{ text: 'b' }], placeAfter: a.id });
    const c = await createBlock(pageId, { tokens: [{ text: 'c' }], placeAfter: b.id });
    const d = await createBlock(pageId, { tokens: [{ text: 'd' }], placeAfter: c.id });
    // Someone typed into c since version 1 was seen here.
    expect((await updateBlock(c.id, 1, [{ text: 'c typed' }])).statusCode).toBe(200);
    const missing = crypto.randomUUID();
    const res = await api(t, ann, 'POST', '/api/v3/spaces/blocks/delete', {
      pageId,
      blocks: [{ id: a.id, version: 1 }, { id: b.id }, { id: c.id, version: 1 }, { id: missing, version: 1 }],
    });
    expect(res.statusCode).toBe(200);
    const outcomes = body<Array<{ id: string; status: string; block?: WireBlock }>>(res).data;
    expect(outcomes.map((o) => [o.id, o.status])).toEqual([
      [a.id, 'deleted'],
      [b.id, 'deleted'],
      [c.id, 'conflict'],
      [missing, 'gone'],
    ]);
    expect(outcomes[2].block).toMatchObject({ id: c.id, version: 2, data: { tokens: [{ text: 'c typed' }] } });
    expect((await listBlocks(pageId)).map((x) => x.id)).toEqual([c.id, d.id]);
    // Deleted again: gone, nothing else changes.
    const again = await api(t, ann, 'POST', '/api/v3/spaces/blocks/delete', { pageId, blocks: [{ id: a.id }, { id: a1.id }] });
    expect(body<Array<{ status: string }>>(again).data.map((o) => o.status)).toEqual(['gone', 'gone']);
    // Each was its own delete: restoring b brings back b alone, restoring a brings a1 with it.
    expect((await api(t, ann, 'POST', `/api/v3/spaces/block/${b.id}/restore`)).statusCode).toBe(200);
    expect((await listBlocks(pageId)).map((x) => x.id)).toEqual([b.id, c.id, d.id]);
    expect((await api(t, ann, 'POST', `/api/v3/spaces/block/${a.id}/restore`)).statusCode).toBe(200);
    expect((await listBlocks(pageId)).map((x) => x.id)).toEqual([a.id, a1.id, b.id, c.id, d.id]);
  });

  test('several at once: a named child someone typed into is refused, and its named parent with it (it would take that text along)', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const a1 = await createBlock(pageId, { tokens: [{ text: 'a1' }], parentId: a.id });
    expect((await updateBlock(a1.id, 1, [{ text: 'a1 typed' }])).statusCode).toBe(200);
    // The parent named first: the child is still checked before the parent's subtree goes.
    const res = await api(t, ann, 'POST', '/api/v3/spaces/blocks/delete', {
      pageId,
      blocks: [
        { id: a.id, version: 1 },
        { id: a1.id, version: 1 },
      ],
    });
    const outcomes = body<Array<{ id: string; status: string }>>(res).data;
    expect(outcomes.map((o) => [o.id, o.status])).toEqual([
      [a.id, 'conflict'],
      [a1.id, 'conflict'],
    ]);
    expect((await listBlocks(pageId)).map((x) => tokensOf(x)[0].text)).toEqual(['a', 'a1 typed']);
  });

  test('several at once: a bad body → 422 validation_failed (none named, too many, a bad version), nothing deleted', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    for (const payload of [
      { pageId, blocks: [] },
      { pageId, blocks: Array.from({ length: 1001 }, () => ({ id: a.id })) },
      { pageId, blocks: [{ id: a.id, version: 0 }] },
      { pageId, blocks: [{ id: a.id, extra: true }] },
      { blocks: [{ id: a.id }] },
    ]) {
      const res = await api(t, ann, 'POST', '/api/v3/spaces/blocks/delete', payload);
      expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    }
    expect((await listBlocks(pageId)).map((x) => x.id)).toEqual([a.id]);
    const missingPage = await api(t, ann, 'POST', '/api/v3/spaces/blocks/delete', { pageId: crypto.randomUUID(), blocks: [{ id: a.id }] });
    expect([missingPage.statusCode, errorCode(missingPage)]).toEqual([404, 'not_found']);
  });

  test('a missing block → 404 on get, update and delete; a missing page → 404 on list', async () => {
    const id = crypto.randomUUID();
    for (const [method, payload] of [
      ['GET', undefined],
      ['POST', { version: 1, type: 'text', data: { tokens: [] } }],
      ['DELETE', undefined],
    ] as const) {
      const res = await api(t, ann, method, `/api/v3/spaces/block/${id}`, payload);
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('not_found');
    }
    const list = await api(t, ann, 'GET', `/api/v3/spaces/note/${id}/blocks`);
    expect(list.statusCode).toBe(404);
    expect(errorCode(list)).toBe('not_found');
  });

  test('an empty page lists no blocks', async () => {
    const pageId = await newPage();
    const res = await api(t, ann, 'GET', `/api/v3/spaces/note/${pageId}/blocks`);
    expect(body(res)).toEqual({ data: [], included: [], meta: { count: 0, hasMoreNext: false, at: expect.any(String) }, errors: [] });
  });
});

describe('request bodies', () => {
  let pageId: string;
  beforeAll(async () => {
    pageId = await newPage();
  });

  function raw(payload: string | Buffer, contentType: string) {
    return t.app.inject({
      method: 'POST',
      url: '/api/v3/spaces/block',
      headers: { cookie: ann, 'content-type': contentType },
      payload,
    });
  }

  test('malformed JSON → 400 bad_request', async () => {
    const res = await raw('{"pageId": ', 'application/json');
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('bad_request');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  test('a prototype-polluting body → 400 bad_request', async () => {
    const res = await raw(`{"pageId":"${pageId}","type":"text","data":{"tokens":[]},"__proto__":{"x":1}}`, 'application/json');
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('bad_request');
  });

  test('JSON that is not an object → 422 validation_failed', async () => {
    for (const payload of ['null', '[]', '"text"', '42']) {
      const res = await raw(payload, 'application/json');
      expect([payload, res.statusCode, errorCode(res)]).toEqual([payload, 422, 'validation_failed']);
    }
  });

  test.each([
    ['text/plain', JSON.stringify({ pageId: 'x', type: 'text', data: { tokens: [] } })],
    ['application/x-www-form-urlencoded', 'pageId=x&type=text'],
    ['application/xml', '<block/>'],
  ])('content type %s → 415 unsupported_media_type', async (contentType, payload) => {
    const before = await blockRowCount(pageId);
    const res = await raw(payload, contentType);
    expect(res.statusCode).toBe(415);
    expect(errorCode(res)).toBe('unsupported_media_type');
    expect(await blockRowCount(pageId)).toBe(before);
  });

  test('a body over 1 MiB → 413 payload_too_large', async () => {
    const huge = JSON.stringify({ pageId, type: 'text', data: { tokens: [{ text: 'x'.repeat(1024 * 1024) }] } });
    const res = await raw(huge, 'application/json');
    expect(res.statusCode).toBe(413);
    expect(errorCode(res)).toBe('payload_too_large');
  });

  test('a body just under 1 MiB is read (and then judged by the schema)', async () => {
    const text = 'x'.repeat(100_000);
    const tokens = Array.from({ length: 10 }, (_, i) => ({ text, bold: i % 2 === 0 }));
    const payload = JSON.stringify({ pageId, type: 'text', data: { tokens } });
    expect(payload.length).toBeLessThan(1024 * 1024);
    const res = await raw(payload, 'application/json');
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
  });
});

/** Every column of every block row of a page, deleted ones too: equal snapshots mean nothing changed. */
async function pageRows(pageId: string): Promise<string> {
  return JSON.stringify(await t.app.db.selectFrom('blocks').selectAll().where('page_id', '=', pageId).orderBy('id').execute());
}

async function rowOf(id: string) {
  return t.app.db.selectFrom('blocks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

function textOf(blocks: WireBlock[]): string[] {
  return blocks.map((b) =>
    tokensOf(b)
      .map((token) => token.text)
      .join(''),
  );
}

const blockUrl = (id: string, action = '') => `/api/v3/spaces/block/${id}${action}`;

describe('soft delete and restore', () => {
  test('delete hides the block and its subtree but keeps the rows; restore brings them back in place', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const b = await createBlock(pageId, { tokens: [{ text: 'b' }], placeAfter: a.id });
    const b1 = await createBlock(pageId, { tokens: [{ text: 'b1' }], parentId: b.id });
    const b2 = await createBlock(pageId, { tokens: [{ text: 'b2' }], parentId: b.id, placeAfter: b1.id });
    const b11 = await createBlock(pageId, { tokens: [{ text: 'b11' }], parentId: b1.id });
    const c = await createBlock(pageId, { tokens: [{ text: 'c' }], placeAfter: b.id });
    const before = await listBlocks(pageId);
    expect(textOf(before)).toEqual(['a', 'b', 'b1', 'b11', 'b2', 'c']);

    expect((await api(t, ann, 'DELETE', blockUrl(b.id))).statusCode).toBe(200);
    expect(textOf(await listBlocks(pageId))).toEqual(['a', 'c']);
    expect((await listBlocks(pageId))[1].placeAfter).toBe(a.id);
    for (const id of [b.id, b1.id, b2.id, b11.id]) {
      expect((await api(t, ann, 'GET', blockUrl(id))).statusCode).toBe(404);
      expect((await rowOf(id)).deleted_at).not.toBeNull();
    }
    expect(body<WireBlock>(await api(t, ann, 'GET', blockUrl(c.id))).data.placeAfter).toBe(a.id);
    // A deleted block cannot be updated, deleted again, used as a parent or as placeAfter.
    const update = await updateBlock(b.id, 1, [{ text: 'ghost' }]);
    expect([update.statusCode, errorCode(update)]).toEqual([404, 'not_found']);
    expect((await api(t, ann, 'DELETE', blockUrl(b1.id))).statusCode).toBe(404);
    expect((await postBlock(pageId, { parentId: b.id })).statusCode).toBe(422);

    const restored = await api(t, ann, 'POST', blockUrl(b.id, '/restore'));
    expect(restored.statusCode).toBe(200);
    expect(body<WireBlock[]>(restored).data).toEqual(before.slice(1, 5));
    expect(body(restored).meta).toEqual({ count: 4, hasMoreNext: false });
    expect(await listBlocks(pageId)).toEqual(before);
    expect(body<WireBlock>(await api(t, ann, 'GET', blockUrl(c.id))).data.placeAfter).toBe(b.id);
    // Versions are kept, so the client's next update carries on from them.
    expect((await updateBlock(b2.id, 1, [{ text: 'b2!' }])).statusCode).toBe(200);
  });

  test('restoring a live block changes nothing and answers its subtree', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const a1 = await createBlock(pageId, { tokens: [{ text: 'a1' }], parentId: a.id });
    const rows = await pageRows(pageId);
    const res = await api(t, ann, 'POST', blockUrl(a.id, '/restore'));
    expect(res.statusCode).toBe(200);
    expect(body<WireBlock[]>(res).data).toEqual([a, a1]);
    expect(await pageRows(pageId)).toBe(rows);
  });

  test('a block whose previous sibling is gone still sorts by its own key', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const b = await createBlock(pageId, { tokens: [{ text: 'b' }], placeAfter: a.id });
    const c = await createBlock(pageId, { tokens: [{ text: 'c' }], placeAfter: b.id });
    await api(t, ann, 'DELETE', blockUrl(b.id));
    await api(t, ann, 'DELETE', blockUrl(a.id));
    expect((await api(t, ann, 'POST', blockUrl(b.id, '/restore'))).statusCode).toBe(200);
    expect((await listBlocks(pageId)).map((x) => [x.id, x.placeAfter])).toEqual([
      [b.id, null],
      [c.id, b.id],
    ]);
    expect((await api(t, ann, 'POST', blockUrl(a.id, '/restore'))).statusCode).toBe(200);
    expect(textOf(await listBlocks(pageId))).toEqual(['a', 'b', 'c']);
  });

  test('a block inserted where a deleted one was keeps its place when that one comes back', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const b = await createBlock(pageId, { tokens: [{ text: 'b' }], placeAfter: a.id });
    await api(t, ann, 'DELETE', blockUrl(b.id));
    const x = await createBlock(pageId, { tokens: [{ text: 'x' }], placeAfter: a.id });
    await api(t, ann, 'POST', blockUrl(b.id, '/restore'));
    expect(textOf(await listBlocks(pageId))).toEqual(['a', 'x', 'b']);
    expect((await rowOf(x.id)).sort_key).not.toBe((await rowOf(b.id)).sort_key);
  });

  test('a child deleted on its own stays deleted when its parent is restored', async () => {
    const pageId = await newPage();
    const parent = await createBlock(pageId, { tokens: [{ text: 'p' }] });
    const gone = await createBlock(pageId, { tokens: [{ text: 'gone' }], parentId: parent.id });
    const kept = await createBlock(pageId, { tokens: [{ text: 'kept' }], parentId: parent.id, placeAfter: gone.id });
    await api(t, ann, 'DELETE', blockUrl(gone.id));
    await api(t, ann, 'DELETE', blockUrl(parent.id));
    await api(t, ann, 'POST', blockUrl(parent.id, '/restore'));
    expect((await listBlocks(pageId)).map((b) => b.id)).toEqual([parent.id, kept.id]);
    // Its own restore brings it back under the live parent.
    await api(t, ann, 'POST', blockUrl(gone.id, '/restore'));
    expect((await listBlocks(pageId)).map((b) => b.id)).toEqual([parent.id, gone.id, kept.id]);
  });

  test('restoring a child of a deleted parent → 422, nothing changes; a missing block → 404', async () => {
    const pageId = await newPage();
    const parent = await createBlock(pageId, { tokens: [{ text: 'p' }] });
    const child = await createBlock(pageId, { tokens: [{ text: 'c' }], parentId: parent.id });
    await api(t, ann, 'DELETE', blockUrl(parent.id));
    const rows = await pageRows(pageId);
    const res = await api(t, ann, 'POST', blockUrl(child.id, '/restore'));
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    expect(await pageRows(pageId)).toBe(rows);
    const missing = await api(t, ann, 'POST', blockUrl(crypto.randomUUID(), '/restore'));
    expect([missing.statusCode, errorCode(missing)]).toEqual([404, 'not_found']);
  });

  test('a create naming a deleted block of the same page brings it back (an undo), its version going on', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const id = crypto.randomUUID();
    await createBlock(pageId, { id, tokens: [{ text: 'typed' }], placeAfter: a.id });
    expect((await updateBlock(id, 1, [{ text: 'typed more' }])).statusCode).toBe(200);
    const child = await createBlock(pageId, { tokens: [{ text: 'child' }], parentId: id });
    await api(t, ann, 'DELETE', blockUrl(id));
    const again = await postBlock(pageId, { id, tokens: [{ text: 'typed more' }], placeAfter: null });
    expect(again.statusCode).toBe(201);
    expect(body<WireBlock>(again).data).toEqual({
      id,
      contentType: 'Block',
      pageId,
      type: 'text',
      version: 3,
      parentId: null,
      placeAfter: null,
      data: { tokens: [{ text: 'typed more' }] },
    });
    // Only that block comes back, where the create put it; its deleted child stays deleted.
    expect((await listBlocks(pageId)).map((b) => b.id)).toEqual([id, a.id]);
    expect((await rowOf(child.id)).deleted_at).not.toBeNull();
    // A live id is still taken.
    const live = await postBlock(pageId, { id });
    expect([live.statusCode, errorCode(live)]).toEqual([409, 'block.already_exists']);
  });

  test('a deleted block id of another page stays taken: 409 without the deleted copy', async () => {
    const pageId = await newPage();
    const id = crypto.randomUUID();
    await createBlock(pageId, { id });
    await api(t, ann, 'DELETE', blockUrl(id));
    const otherPage = await newPage();
    const elsewhere = await postBlock(otherPage, { id });
    expect([elsewhere.statusCode, errorCode(elsewhere), body(elsewhere).data]).toEqual([409, 'block.already_exists', null]);
    expect(await blockRowCount(otherPage)).toBe(0);
    expect((await rowOf(id)).page_id).toBe(pageId);
  });

  test('reviving a block under its own live descendant → 422', async () => {
    const pageId = await newPage();
    const parent = await createBlock(pageId, { tokens: [{ text: 'p' }] });
    await api(t, ann, 'DELETE', blockUrl(parent.id));
    // A child created under the parent at the moment it was deleted stays live.
    const now = new Date().toISOString();
    const orphanId = crypto.randomUUID();
    await t.app.db
      .insertInto('blocks')
      .values({
        id: orphanId,
        page_id: pageId,
        parent_id: parent.id,
        sort_key: 'a0',
        type: 'text',
        data: '{"tokens":[]}',
        version: 1,
        created_at: now,
        updated_at: now,
        updated_by: 'x',
        deleted_at: null,
      })
      .execute();
    const rows = await pageRows(pageId);
    const res = await postBlock(pageId, { id: parent.id, parentId: orphanId });
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    expect(await pageRows(pageId)).toBe(rows);
  });
});

function move(id: string, to: { parentId?: string | null; placeAfter?: string | null }, cookie = ann) {
  return api(t, cookie, 'POST', blockUrl(id, '/move'), to);
}

describe('move', () => {
  test('reorder among siblings: only the moved row changes', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const b = await createBlock(pageId, { tokens: [{ text: 'b' }], placeAfter: a.id });
    const c = await createBlock(pageId, { tokens: [{ text: 'c' }], placeAfter: b.id });
    const othersBefore = JSON.stringify([await rowOf(a.id), await rowOf(b.id)]);
    const res = await move(c.id, { placeAfter: a.id });
    expect(res.statusCode).toBe(200);
    expect(body<WireBlock>(res).data).toEqual({ ...c, placeAfter: a.id });
    expect(textOf(await listBlocks(pageId))).toEqual(['a', 'c', 'b']);
    expect(JSON.stringify([await rowOf(a.id), await rowOf(b.id)])).toBe(othersBefore);
    const moved = await rowOf(c.id);
    expect(moved.version).toBe(1);
    expect(JSON.parse(moved.data)).toEqual(c.data);

    expect((await move(b.id, { placeAfter: null })).statusCode).toBe(200);
    expect(textOf(await listBlocks(pageId))).toEqual(['b', 'a', 'c']);
  });

  test('into another parent and back out; the subtree moves along', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const a1 = await createBlock(pageId, { tokens: [{ text: 'a1' }], parentId: a.id });
    const b = await createBlock(pageId, { tokens: [{ text: 'b' }], placeAfter: a.id });
    const b1 = await createBlock(pageId, { tokens: [{ text: 'b1' }], parentId: b.id });
    const res = await move(b.id, { parentId: a.id, placeAfter: a1.id });
    expect(body<WireBlock>(res).data).toMatchObject({ id: b.id, parentId: a.id, placeAfter: a1.id });
    expect((await listBlocks(pageId)).map((x) => [tokensOf(x)[0].text, x.parentId])).toEqual([
      ['a', null],
      ['a1', a.id],
      ['b', a.id],
      ['b1', b.id],
    ]);
    expect(body<WireBlock>(await api(t, ann, 'GET', blockUrl(b1.id))).data.parentId).toBe(b.id);
    expect((await move(b.id, { parentId: null, placeAfter: a.id })).statusCode).toBe(200);
    expect(textOf(await listBlocks(pageId))).toEqual(['a', 'a1', 'b', 'b1']);
    expect((await listBlocks(pageId))[2]).toMatchObject({ parentId: null, placeAfter: a.id });
  });

  test.each([
    ['under itself', (ids: Record<string, string>) => ({ parentId: ids.a })],
    ['under its own child', (ids: Record<string, string>) => ({ parentId: ids.a1 })],
    ['under its own grandchild', (ids: Record<string, string>) => ({ parentId: ids.a11 })],
    ['after itself', (ids: Record<string, string>) => ({ placeAfter: ids.a })],
    ['after a block of another parent', (ids: Record<string, string>) => ({ parentId: null, placeAfter: ids.a1 })],
    ['under a deleted block', (ids: Record<string, string>) => ({ parentId: ids.deleted })],
    ['after a deleted block', (ids: Record<string, string>) => ({ placeAfter: ids.deleted })],
    ['under a block of another page', (ids: Record<string, string>) => ({ parentId: ids.foreign })],
    ['after a block of another page', (ids: Record<string, string>) => ({ placeAfter: ids.foreign })],
    ['under a missing block', () => ({ parentId: crypto.randomUUID() })],
  ])('moving %s → 422, nothing changes', async (_what, to) => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const a1 = await createBlock(pageId, { tokens: [{ text: 'a1' }], parentId: a.id });
    const a11 = await createBlock(pageId, { tokens: [{ text: 'a11' }], parentId: a1.id });
    const deleted = await createBlock(pageId, { tokens: [{ text: 'd' }], placeAfter: a.id });
    await api(t, ann, 'DELETE', blockUrl(deleted.id));
    const foreign = await createBlock(await newPage(), { tokens: [{ text: 'f' }] });
    const rows = await pageRows(pageId);
    const res = await move(a.id, to({ a: a.id, a1: a1.id, a11: a11.id, deleted: deleted.id, foreign: foreign.id }));
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    expect(await pageRows(pageId)).toBe(rows);
  });

  test('malformed JSON → 400, a text body → 415, a polluting body → 400; nothing moves', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId);
    const b = await createBlock(pageId, { placeAfter: a.id });
    const rows = await pageRows(pageId);
    const send = (payload: string, contentType = 'application/json') =>
      t.app.inject({ method: 'POST', url: blockUrl(b.id, '/move'), headers: { cookie: ann, 'content-type': contentType }, payload });
    expect((await send('{"placeAfter":')).statusCode).toBe(400);
    expect((await send('{"placeAfter":null}', 'text/plain')).statusCode).toBe(415);
    expect((await send('{"placeAfter":null,"__proto__":{"parentId":"x"}}')).statusCode).toBe(400);
    expect((await send('{"placeAfter":null,"constructor":{"prototype":{"parentId":"x"}}}')).statusCode).toBe(400);
    expect(await pageRows(pageId)).toBe(rows);
  });

  test('a deleted or missing block → 404; an unknown body field → 422', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId);
    const b = await createBlock(pageId, { placeAfter: a.id });
    await api(t, ann, 'DELETE', blockUrl(b.id));
    expect((await move(b.id, { placeAfter: null })).statusCode).toBe(404);
    expect((await move(crypto.randomUUID(), { placeAfter: null })).statusCode).toBe(404);
    const extra = await api(t, ann, 'POST', blockUrl(a.id, '/move'), { placeAfter: null, pageId });
    expect([extra.statusCode, errorCode(extra)]).toEqual([422, 'validation_failed']);
  });
});

function clone(id: string, payload?: unknown, cookie = ann) {
  return api(t, cookie, 'POST', blockUrl(id, '/clone'), payload);
}

describe('clone', () => {
  test('a deep copy right after the original: new ids, version 1, same data and order', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const a1 = await createBlock(pageId, { tokens: [{ text: 'a1', bold: true }], parentId: a.id });
    const a11 = await createBlock(pageId, { tokens: [{ text: 'a11' }], parentId: a1.id });
    const a2 = await createBlock(pageId, { tokens: [{ text: 'a2' }], parentId: a.id, placeAfter: a1.id });
    const gone = await createBlock(pageId, { tokens: [{ text: 'gone' }], parentId: a.id, placeAfter: a2.id });
    await api(t, ann, 'DELETE', blockUrl(gone.id));
    const b = await createBlock(pageId, { tokens: [{ text: 'b' }], placeAfter: a.id });
    expect((await updateBlock(a1.id, 1, [{ text: 'a1', bold: true }])).statusCode).toBe(200);

    const res = await clone(a.id);
    expect(res.statusCode).toBe(201);
    const copies = body<WireBlock[]>(res).data;
    expect(body(res).meta).toEqual({ count: 4, hasMoreNext: false });
    expect(textOf(copies)).toEqual(['a', 'a1', 'a11', 'a2']);
    const originals = [a, a1, a11, a2];
    const newIds = copies.map((c) => c.id);
    expect(new Set([...newIds, ...originals.map((o) => o.id)]).size).toBe(8);
    expect(copies.every((c) => c.version === 1 && c.pageId === pageId)).toBe(true);
    expect(copies.map((c) => c.data)).toEqual(originals.map((o) => o.data));
    expect(copies[0]).toMatchObject({ parentId: null, placeAfter: a.id });
    expect(copies.slice(1).map((c) => c.parentId)).toEqual([newIds[0], newIds[1], newIds[0]]);

    const list = await listBlocks(pageId);
    expect(list.map((x) => x.id)).toEqual([a.id, a1.id, a11.id, a2.id, ...newIds, b.id]);
    expect(list.find((x) => x.id === b.id)?.placeAfter).toBe(newIds[0]);
  });

  test('the copy id may be chosen; a taken id → 409; a deleted or missing block → 404', async () => {
    const pageId = await newPage();
    const a = await createBlock(pageId);
    const id = crypto.randomUUID();
    const res = await clone(a.id, { id });
    expect(res.statusCode).toBe(201);
    expect(body<WireBlock[]>(res).data[0].id).toBe(id);
    const rows = await pageRows(pageId);
    const again = await clone(a.id, { id });
    expect([again.statusCode, errorCode(again)]).toEqual([409, 'block.already_exists']);
    const foreignId = (await createBlock(await newPage())).id;
    const foreign = await clone(a.id, { id: foreignId });
    expect([foreign.statusCode, body(foreign).data]).toEqual([409, null]);
    expect((await clone(a.id, { id: 'not-a-uuid' })).statusCode).toBe(422);
    expect((await clone(a.id, { id, extra: 1 })).statusCode).toBe(422);
    expect(await pageRows(pageId)).toBe(rows);
    await api(t, ann, 'DELETE', blockUrl(a.id));
    expect((await clone(a.id)).statusCode).toBe(404);
    expect((await clone(crypto.randomUUID())).statusCode).toBe(404);
  });
});

const MAIN = 'MAIN_FIELD';
function databaseData(extraFields: Record<string, unknown> = {}) {
  return {
    config: {
      fields: {
        [MAIN]: { name: 'Название', type: 'text' },
        price: { name: 'Цена', type: 'number' },
        done: { name: 'Готово', type: 'checkbox' },
        stage: {
          name: 'Этап',
          type: 'select',
          options: [
            { id: 'todo', name: 'Сделать' },
            { id: 'doing', name: 'В работе' },
          ],
        },
        due: { name: 'Срок', type: 'date' },
        ...extraFields,
      },
    },
    view: {
      layouts: [
        {
          uid: 'table-1',
          type: 'table',
          orderedFields: [
            { fieldId: MAIN, isWrap: false },
            { fieldId: 'price', isWrap: true },
          ],
        },
      ],
    },
  };
}

function rowData(values: Record<string, unknown> = {}, title = 'Строка') {
  return { title, icon: null, values };
}

function postTyped(
  pageId: string,
  type: string,
  data: unknown,
  position: { parentId?: string | null; placeAfter?: string | null; id?: string } = {},
  cookie = ann,
) {
  return api(t, cookie, 'POST', '/api/v3/spaces/block', { pageId, type, data, ...position });
}

async function createTyped(
  pageId: string,
  type: string,
  data: unknown,
  position: { parentId?: string | null; placeAfter?: string | null } = {},
): Promise<WireBlock> {
  const res = await postTyped(pageId, type, data, position);
  expect([res.statusCode, res.statusCode === 201 ? '' : res.body]).toEqual([201, '']);
  return body<WireBlock>(res).data;
}

function updateTyped(block: { id: string; version: number }, type: string, data: unknown) {
  return api(t, ann, 'POST', blockUrl(block.id), { version: block.version, type, data });
}

describe('databases as blocks (rows are pages: server/routes/databases.int.test.ts)', () => {
  test('a database block is made and read back exactly', async () => {
    const pageId = await newPage();
    const intro = await createBlock(pageId, { tokens: [{ text: 'Задачи:' }] });
    const database = await createTyped(pageId, 'database', databaseData(), { placeAfter: intro.id });
    expect(database).toMatchObject({ type: 'database', version: 1, parentId: null, placeAfter: intro.id, data: databaseData() });
    expect((await listBlocks(pageId)).map((b) => b.id)).toEqual([intro.id, database.id]);
  });

  test.each([
    ['without MAIN_FIELD', () => ({ config: { fields: { price: { name: 'Цена', type: 'number' } } }, view: { layouts: [] } })],
    ['with MAIN_FIELD of another type', () => databaseData({ [MAIN]: { name: 'x', type: 'checkbox' } })],
    ['with an unknown field type', () => databaseData({ x: { name: 'x', type: 'formula' } })],
    [
      'with a layout naming an unknown field',
      () => ({ ...databaseData(), view: { layouts: [{ uid: 'l', type: 'table', orderedFields: [{ fieldId: 'nope', isWrap: false }] }] } }),
    ],
    ['with a reserved field id', () => databaseData({ constructor: { name: 'x', type: 'text' } })],
    ['with tokens instead of config', () => ({ tokens: [] })],
  ])('a database %s → 422, nothing created', async (_what, data) => {
    const pageId = await newPage();
    const res = await postTyped(pageId, 'database', data());
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    expect(await blockRowCount(pageId)).toBe(0);
  });

  test('a prototype-polluting field id is refused by the JSON parser', async () => {
    const pageId = await newPage();
    const raw = `{"pageId":"${pageId}","type":"database","data":{"config":{"fields":{"MAIN_FIELD":{"name":"n","type":"text"},"__proto__":{"name":"x","type":"text"}}},"view":{"layouts":[]}}}`;
    const res = await t.app.inject({ method: 'POST', url: '/api/v3/spaces/block', headers: { cookie: ann, 'content-type': 'application/json' }, payload: raw });
    expect(res.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
    expect(await blockRowCount(pageId)).toBe(0);
  });

  test('a databaseRow block is not made any more, and a database holds no blocks: 422, nothing changes', async () => {
    const pageId = await newPage();
    const database = await createTyped(pageId, 'database', databaseData());
    const text = await createBlock(pageId, { placeAfter: database.id });
    const rows = await pageRows(pageId);
    const row = await postTyped(pageId, 'databaseRow', rowData(), { parentId: database.id });
    expect([row.statusCode, errorCode(row)]).toEqual([422, 'validation_failed']);
    expect((await postBlock(pageId, { parentId: database.id })).statusCode).toBe(422);
    expect((await move(text.id, { parentId: database.id })).statusCode).toBe(422);
    expect(await pageRows(pageId)).toBe(rows);
  });

  test('a database keeps its type; other blocks cannot become one', async () => {
    const pageId = await newPage();
    const database = await createTyped(pageId, 'database', databaseData());
    const text = await createBlock(pageId, { placeAfter: database.id });
    const rows = await pageRows(pageId);
    for (const [block, type, data] of [
      [database, 'text', { tokens: [] }],
      [text, 'database', databaseData()],
      [text, 'databaseRow', rowData()],
    ] as const) {
      const res = await updateTyped(block, type, data);
      expect([block.type, type, res.statusCode, errorCode(res)]).toEqual([block.type, type, 422, 'validation_failed']);
    }
    expect(await pageRows(pageId)).toBe(rows);
  });
});

describe('access matrix', () => {
  type Level = 'read' | 'edit' | 'full' | 'guestEdit' | 'none' | 'nonMember' | 'anonymous';
  const cookiesByLevel = {} as Record<Level, string | undefined>;
  let pageId: string;

  beforeAll(async () => {
    const workspace = await createWorkspaceAs(t, ann, 'Общая');
    const people: Record<string, { email: string; role: 'participant' | 'guest'; level?: string }> = {
      read: { email: 'reader@example.com', role: 'participant', level: 'read' },
      edit: { email: 'editor@example.com', role: 'participant', level: 'edit' },
      full: { email: 'owner2@example.com', role: 'participant', level: 'full' },
      guestEdit: { email: 'guest-editor@example.com', role: 'guest', level: 'edit' },
      none: { email: 'nobody@example.com', role: 'participant' },
    };
    for (const [level, person] of Object.entries(people)) cookiesByLevel[level as Level] = await signIn(t, person.email);
    cookiesByLevel.nonMember = bob;
    cookiesByLevel.anonymous = undefined;
    const userIds = Object.fromEntries(await Promise.all(Object.entries(people).map(async ([level, p]) => [level, await userIdOf(t, p.email)])));
    await addMembersAs(
      t,
      ann,
      workspace.id,
      Object.entries(people).map(([level, p]) => ({ userId: userIds[level], role: p.role })),
    );
    const res = await api(t, ann, 'POST', '/api/v3/spaces/section/private', { title: 'Shared doc' }, { 'x-workspace-id': workspace.id });
    expect(res.statusCode).toBe(201);
    pageId = body<WireElement>(res).data.id;
    const now = new Date().toISOString();
    for (const [level, person] of Object.entries(people)) {
      if (person.level)
        await t.app.db.insertInto('page_members').values({ page_id: pageId, user_id: userIds[level], level: person.level, created_at: now }).execute();
    }
  });

  interface Fixture {
    a: WireBlock;
    a1: WireBlock;
    b: WireBlock;
    deleted: WireBlock;
  }
  async function fixture(): Promise<Fixture> {
    const a = await createBlock(pageId, { tokens: [{ text: 'a' }] });
    const a1 = await createBlock(pageId, { tokens: [{ text: 'a1' }], parentId: a.id });
    const b = await createBlock(pageId, { tokens: [{ text: 'b' }], placeAfter: a.id });
    const deleted = await createBlock(pageId, { tokens: [{ text: 'd' }], placeAfter: b.id });
    expect((await api(t, ann, 'DELETE', blockUrl(deleted.id))).statusCode).toBe(200);
    return { a, a1, b, deleted };
  }

  type Op = [name: string, kind: 'read' | 'edit', okStatus: number, run: (f: Fixture, cookie: string | undefined) => ReturnType<typeof api>];
  const OPS: Op[] = [
    ['list', 'read', 200, (_f, c) => api(t, c, 'GET', `/api/v3/spaces/note/${pageId}/blocks`)],
    ['get', 'read', 200, (f, c) => api(t, c, 'GET', blockUrl(f.a.id))],
    [
      'create',
      'edit',
      201,
      (f, c) => api(t, c, 'POST', '/api/v3/spaces/block', { pageId, type: 'text', data: { tokens: [{ text: 'new' }] }, placeAfter: f.a.id }),
    ],
    [
      'create a database',
      'edit',
      201,
      (f, c) => api(t, c, 'POST', '/api/v3/spaces/block', { pageId, type: 'database', data: databaseData(), placeAfter: f.b.id }),
    ],
    ['update', 'edit', 200, (f, c) => api(t, c, 'POST', blockUrl(f.b.id), { version: 1, type: 'heading1', data: { tokens: [{ text: 'B' }] } })],
    ['delete', 'edit', 200, (f, c) => api(t, c, 'DELETE', blockUrl(f.b.id))],
    ['delete several', 'edit', 200, (f, c) => api(t, c, 'POST', '/api/v3/spaces/blocks/delete', { pageId, blocks: [{ id: f.b.id }, { id: f.a.id }] })],
    ['restore', 'edit', 200, (f, c) => api(t, c, 'POST', blockUrl(f.deleted.id, '/restore'))],
    ['move', 'edit', 200, (f, c) => api(t, c, 'POST', blockUrl(f.b.id, '/move'), { parentId: f.a.id, placeAfter: f.a1.id })],
    ['clone', 'edit', 201, (f, c) => api(t, c, 'POST', blockUrl(f.a.id, '/clone'), {})],
  ];
  const allowed: Record<Level, 'read' | 'edit' | 'nothing' | 'anonymous'> = {
    read: 'read',
    edit: 'edit',
    full: 'edit',
    guestEdit: 'edit',
    none: 'nothing',
    nonMember: 'nothing',
    anonymous: 'anonymous',
  };
  const cases = (Object.keys(allowed) as Level[]).flatMap((level) => OPS.map((op) => [op[0], level, op] as const));

  test.each(cases)('%s with %s access', async (_name, level, [, kind, okStatus, run]) => {
    const f = await fixture();
    const before = await pageRows(pageId);
    const res = await run(f, cookiesByLevel[level]);
    const may = allowed[level] === 'edit' || (allowed[level] === 'read' && kind === 'read');
    if (may) {
      expect([res.statusCode, res.statusCode < 300 ? '' : res.body]).toEqual([okStatus, '']);
      return;
    }
    const expected = allowed[level] === 'anonymous' ? [401, 'unauthorized'] : [403, 'forbidden'];
    expect([res.statusCode, errorCode(res)]).toEqual(expected);
    expect(body(res).data).toBeNull();
    expect(await pageRows(pageId)).toBe(before);
  });

  test('an editor naming blocks of a page they cannot see → 422 (or 409 for a taken id), nothing changes on either page', async () => {
    const f = await fixture();
    const elsewhere = await newPage();
    const hidden = await createBlock(elsewhere, { tokens: [{ text: 'hidden' }] });
    const before = [await pageRows(pageId), await pageRows(elsewhere)];
    const editor = cookiesByLevel.edit;
    for (const [name, run, status] of [
      ['create under it', () => api(t, editor, 'POST', '/api/v3/spaces/block', { pageId, type: 'text', data: { tokens: [] }, parentId: hidden.id }), 422],
      ['create after it', () => api(t, editor, 'POST', '/api/v3/spaces/block', { pageId, type: 'text', data: { tokens: [] }, placeAfter: hidden.id }), 422],
      ['move under it', () => api(t, editor, 'POST', blockUrl(f.b.id, '/move'), { parentId: hidden.id }), 422],
      ['move after it', () => api(t, editor, 'POST', blockUrl(f.b.id, '/move'), { placeAfter: hidden.id }), 422],
      ['clone onto its id', () => api(t, editor, 'POST', blockUrl(f.a.id, '/clone'), { id: hidden.id }), 409],
      ['create with its id', () => api(t, editor, 'POST', '/api/v3/spaces/block', { id: hidden.id, pageId, type: 'text', data: { tokens: [] } }), 409],
      ['update it', () => api(t, editor, 'POST', blockUrl(hidden.id), { version: 1, type: 'text', data: { tokens: [] } }), 403],
      ['delete it', () => api(t, editor, 'DELETE', blockUrl(hidden.id)), 403],
      ['restore it', () => api(t, editor, 'POST', blockUrl(hidden.id, '/restore')), 403],
      ['delete it with its page named', () => api(t, editor, 'POST', '/api/v3/spaces/blocks/delete', { pageId: elsewhere, blocks: [{ id: hidden.id }] }), 403],
    ] as const) {
      const res = await run();
      expect([name, res.statusCode]).toEqual([name, status]);
      expect([name, body(res).data]).toEqual([name, null]);
    }
    // Named with a page they may edit: it is not a block of that page, and nothing tells more.
    const named = await api(t, editor, 'POST', '/api/v3/spaces/blocks/delete', { pageId, blocks: [{ id: hidden.id }] });
    expect([named.statusCode, body(named).data]).toEqual([200, [{ id: hidden.id, status: 'gone' }]]);
    expect([await pageRows(pageId), await pageRows(elsewhere)]).toEqual(before);
  });
});

test('the OpenAPI document lists the block calls with their bodies', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
  expect(res.statusCode).toBe(200);
  const paths = res.json<{ paths: Record<string, Record<string, { requestBody?: unknown }>> }>().paths;
  for (const action of ['restore', 'move', 'clone']) expect(paths).toHaveProperty([`/api/v3/spaces/block/{id}/${action}`, 'post']);
  expect(paths['/api/v3/spaces/block/{id}/move'].post.requestBody).toBeDefined();
  // A write may say the version of its data's shape (docs/api/blocks.md «Data versions»).
  expect(JSON.stringify(paths['/api/v3/spaces/block'].post.requestBody)).toContain('"dataVersion"');
});

test('data at a version newer than the server knows is refused (422 at body.dataVersion), nothing made; version 1 is today’s', async () => {
  const pageId = await newPage();
  const id = crypto.randomUUID();
  const newer = await api(t, ann, 'POST', '/api/v3/spaces/block', { id, pageId, type: 'text', data: { tokens: [] }, dataVersion: 2 });
  expect([newer.statusCode, errorCode(newer)]).toEqual([422, 'validation_failed']);
  expect(body<unknown>(newer).errors[0].details).toEqual([
    expect.objectContaining({ path: 'body.dataVersion', message: expect.stringMatching(/newer than this server's \(1\)/) }),
  ]);
  expect((await api(t, ann, 'GET', `/api/v3/spaces/block/${id}`)).statusCode).toBe(404);
  const today = await api(t, ann, 'POST', '/api/v3/spaces/block', { id, pageId, type: 'text', data: { tokens: [{ text: 'да' }] }, dataVersion: 1 });
  expect(today.statusCode).toBe(201);
  // Stored as sent (at today's version nothing is taken up).
  expect(body<WireBlock>(await api(t, ann, 'GET', `/api/v3/spaces/block/${id}`)).data.data).toEqual({ tokens: [{ text: 'да' }] });
});

// ---- Concurrency: block changes of a page are judged one at a time (docs/adr/0003-concurrency.md)

describe('concurrent block changes keep the page sound', () => {
  /** Live rows of a page against what the page lists: a block under a deleted or looping parent would vanish. */
  async function expectSound(pageId: string) {
    expect(await blockTreeProblems(t, pageId)).toEqual([]);
    const live = await t.app.db.selectFrom('blocks').select('id').where('page_id', '=', pageId).where('deleted_at', 'is', null).execute();
    expect((await listBlocks(pageId)).map((b) => b.id).sort()).toEqual(live.map((b) => b.id).sort());
  }

  test('two opposite moves at once (b1 under b2, b2 under b1): one moves, the other is 422', async () => {
    const pageId = await newPage();
    for (let i = 0; i < 30; i++) {
      const b1 = await createBlock(pageId);
      const b2 = await createBlock(pageId);
      const answers = await Promise.all([move(b1.id, { parentId: b2.id }), move(b2.id, { parentId: b1.id })]);
      expect(answers.map(outcome).sort()).toEqual(['200', '422 validation_failed']);
    }
    await expectSound(pageId);
  });

  test('a block moved or created under a block being deleted is refused or deleted with it', async () => {
    const pageId = await newPage();
    for (let i = 0; i < 20; i++) {
      const a = await createBlock(pageId);
      const b = await createBlock(pageId);
      const [moved, deleted, created] = await Promise.all([
        move(a.id, { parentId: b.id }),
        api(t, ann, 'DELETE', blockUrl(b.id)),
        postBlock(pageId, { parentId: b.id }),
      ]);
      expect(outcome(deleted)).toBe('200');
      expect(['200', '422 validation_failed']).toContain(outcome(moved));
      expect(['201', '422 validation_failed']).toContain(outcome(created));
      expect((await rowOf(a.id)).deleted_at === null).toBe(moved.statusCode !== 200);
    }
    await expectSound(pageId);
  });

  test('many blocks created at one spot at once all get their own place', async () => {
    const pageId = await newPage();
    const first = await createBlock(pageId, { tokens: [{ text: 'first' }] });
    const last = await createBlock(pageId, { tokens: [{ text: 'last' }], placeAfter: first.id });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => postBlock(pageId, { tokens: [{ text: `n${i}` }], placeAfter: first.id })));
    expect(answers.map(outcome)).toEqual(answers.map(() => '201'));
    const listed = await listBlocks(pageId);
    expect(listed).toHaveLength(22);
    expect([listed[0].id, listed[21].id]).toEqual([first.id, last.id]);
    await expectSound(pageId);
  });

  test('blocks deleted at the same moment come back one by one', async () => {
    const pageId = await newPage();
    for (let i = 0; i < 15; i++) {
      const x = await createBlock(pageId);
      const y = await createBlock(pageId);
      const answers = await Promise.all([api(t, ann, 'DELETE', blockUrl(x.id)), api(t, ann, 'DELETE', blockUrl(y.id))]);
      expect(answers.map(outcome)).toEqual(['200', '200']);
      expect((await api(t, ann, 'POST', blockUrl(x.id, '/restore'))).statusCode).toBe(200);
      expect((await rowOf(y.id)).deleted_at).not.toBeNull();
    }
    await expectSound(pageId);
  });

  test('a database losing a field (a whole-block write) while its cells are written: no cell of the field is left, the database is kept', async () => {
    const pageId = await newPage();
    const without = databaseData();
    delete (without.config.fields as Record<string, unknown>).price;
    without.view.layouts[0].orderedFields = [{ fieldId: MAIN, isWrap: false }];
    for (let i = 0; i < 10; i++) {
      const database = await createTyped(pageId, 'database', databaseData());
      const made = await api(t, ann, 'POST', `/api/v3/spaces/database/${database.id}/rows`, { rows: [{ title: 'Строка', values: { price: 1 } }] });
      const [row] = body<Array<{ id: string }>>(made).data;
      const [changed, written, added] = await Promise.all([
        updateTyped(database, 'database', without),
        api(t, ann, 'POST', `/api/v3/spaces/row/${row.id}/cells/price`, { value: 2, version: 1 }),
        api(t, ann, 'POST', `/api/v3/spaces/database/${database.id}/rows`, { rows: [{ title: 'ADDED', values: { price: 3 } }] }),
      ]);
      expect(outcome(changed)).toBe('200');
      // Before the change (then cleared), after it (no such field), or in between (the cell went: a conflict).
      expect(['200', '404 not_found', '422 database.cell_conflict']).toContain(outcome(written));
      expect(['201', '422 validation_failed']).toContain(outcome(added));
      const left = await t.app.db
        .selectFrom('database_cells')
        .select('row_id')
        .where('database_id', '=', database.id)
        .where('field_id', '=', 'price')
        .execute();
      expect(left).toEqual([]);
    }
    await expectSound(pageId);
  });
});
