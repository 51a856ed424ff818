import crypto from 'node:crypto';
import type { WireBlock } from '../../schema/block';
import type { WireElement } from '../../schema/element';
import type { Token } from '../../schema/token';
import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';

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
    expect(blocks.map((x) => x.data.tokens[0].text)).toEqual(['0', 'a', 'b', 'c']);
    expect(blocks.map((x) => x.placeAfter)).toEqual([null, first.id, a.id, b.id]);
    const res = await api(t, ann, 'GET', `/api/v3/spaces/note/${pageId}/blocks`);
    expect(body(res).meta).toEqual({ count: 4, hasMoreNext: false });
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
    expect(created.data.tokens).toEqual([{ text: 'Hello', bold: true }, { text: ' world' }]);
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
    expect(body<WireBlock>(res).data.data.tokens).toEqual(expected);
    expect(body<WireBlock>(await api(t, ann, 'GET', `/api/v3/spaces/block/${created.id}`)).data.data.tokens).toEqual(expected);
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
    expect(block.data.tokens).toEqual(tokens);
  });

  test('placeAfter or parentId from another page (or missing) → 422, no block created', async () => {
    const otherPage = await newPage();
    const foreign = await createBlock(otherPage, { tokens: [{ text: 'foreign' }] });
    const bobsPage = await newPage(bob);
    const bobs = body<WireBlock>(
      await api(t, bob, 'POST', '/api/v3/spaces/block', { pageId: bobsPage, type: 'text', data: { tokens: [] } }),
    ).data;
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
    expect(body(res)).toEqual({ data: [], included: [], meta: { count: 0, hasMoreNext: false }, errors: [] });
  });
});

describe('access', () => {
  test("another user → 403 on list, get, create, update and delete, and nothing changes", async () => {
    const pageId = await newPage();
    const block = await createBlock(pageId, { tokens: [{ text: 'private' }] });
    const attempts = [
      ['GET', `/api/v3/spaces/note/${pageId}/blocks`, undefined],
      ['GET', `/api/v3/spaces/block/${block.id}`, undefined],
      ['POST', '/api/v3/spaces/block', { pageId, type: 'text', data: { tokens: [{ text: 'intruder' }] } }],
      ['POST', '/api/v3/spaces/block', { pageId, type: 'text', data: { tokens: [] }, placeAfter: block.id }],
      ['POST', `/api/v3/spaces/block/${block.id}`, { version: 1, type: 'text', data: { tokens: [{ text: 'defaced' }] } }],
      ['DELETE', `/api/v3/spaces/block/${block.id}`, undefined],
    ] as const;
    for (const [method, url, payload] of attempts) {
      const res = await api(t, bob, method, url, payload);
      expect([method, url, res.statusCode]).toEqual([method, url, 403]);
      expect(errorCode(res)).toBe('forbidden');
      expect(body(res).data).toBeNull();
    }
    expect(await listBlocks(pageId)).toEqual([block]);
  });

  test('anonymous → 401', async () => {
    const pageId = await newPage();
    const block = await createBlock(pageId);
    for (const [method, url, payload] of [
      ['GET', `/api/v3/spaces/note/${pageId}/blocks`, undefined],
      ['GET', `/api/v3/spaces/block/${block.id}`, undefined],
      ['POST', '/api/v3/spaces/block', { pageId, type: 'text', data: { tokens: [] } }],
      ['POST', `/api/v3/spaces/block/${block.id}`, { version: 1, type: 'text', data: { tokens: [] } }],
      ['DELETE', `/api/v3/spaces/block/${block.id}`, undefined],
    ] as const) {
      const res = await api(t, undefined, method, url, payload);
      expect(res.statusCode).toBe(401);
      expect(errorCode(res)).toBe('unauthorized');
    }
    expect(await listBlocks(pageId)).toEqual([block]);
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
