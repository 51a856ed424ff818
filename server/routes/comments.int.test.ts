import { COMMENT_LIMITS, type WireComment } from '../../schema/comment';
import { newId } from '../../schema/ids';
import { addMember, grant, insertFile, insertPage, person, sharedWorkspace, type Level, type Person, type Role } from '../../test/helpers/comments';
import { outcome } from '../../test/helpers/races';
import { api, body, createTestApp, errorCode, type TestApp } from '../../test/helpers/testApp';
import { defaultAuthor, insertComment, presentCommentRow } from '../repositories/comments';

let t: TestApp;
let owner: Person;
let ws: string;

beforeAll(async () => {
  // Many people sign in from the one test address.
  t = await createTestApp({ sendCodeLimitPerIp: 10_000 });
  owner = await person(t, 'owner@example.com');
  ws = await sharedWorkspace(t, owner);
});
afterAll(async () => {
  await t.close();
});

const text = (s: string) => [{ text: s }];

function postComment(who: Person | undefined, pageId: string, payload: unknown) {
  return api(t, who?.cookie, 'POST', `/api/v3/spaces/element/${pageId}/comments`, payload);
}

async function writeComment(who: Person, pageId: string, content = 'hello', repliedComment?: string): Promise<WireComment> {
  const res = await postComment(who, pageId, { content: text(content), attaches: [], ...(repliedComment ? { repliedComment } : {}) });
  expect(res.statusCode).toBe(201);
  return body<WireComment>(res).data;
}

async function listComments(who: Person, pageId: string, query = ''): Promise<WireComment[]> {
  const res = await api(t, who.cookie, 'GET', `/api/v3/spaces/element/${pageId}/comments${query}`);
  expect(res.statusCode).toBe(200);
  return body<WireComment[]>(res).data;
}

async function listReplies(who: Person, commentId: string): Promise<WireComment[]> {
  const res = await api(t, who.cookie, 'GET', `/api/v3/spaces/comment/${commentId}/comments`);
  expect(res.statusCode).toBe(200);
  return body<WireComment[]>(res).data;
}

/** Everything the comment calls can change, for "nothing changed" checks. */
async function snapshot(pageId: string) {
  const comments = await t.app.db.selectFrom('comments').selectAll().where('page_id', '=', pageId).orderBy('id').execute();
  const reactions = await t.app.db
    .selectFrom('comment_reactions')
    .selectAll()
    .where('comment_id', 'in', ['', ...comments.map((c) => c.id)])
    .orderBy('comment_id')
    .orderBy('user_id')
    .orderBy('code')
    .execute();
  const notifications = await t.app.db.selectFrom('notifications').select(['id', 'is_read']).orderBy('id').execute();
  return { comments, reactions, notifications };
}

/** A page of the shared workspace created by `owner`, in their private section (nobody else has access). */
async function ownersPage(): Promise<string> {
  return insertPage(t, { workspaceId: ws, createdBy: owner });
}

/** A member of the workspace with a level on `pageId`. */
async function memberWith(email: string, role: Role, pageId: string, level: Level): Promise<Person> {
  const who = await person(t, email);
  await addMember(t, ws, who, role);
  await grant(t, pageId, who, level);
  return who;
}

describe('writing and reading comments', () => {
  test('a new comment comes back in full wire shape and is listed', async () => {
    const pageId = await ownersPage();
    const res = await postComment(owner, pageId, {
      content: [{ text: 'Посмотри ' }, { text: 'это', bold: true }, { text: 'https://example.com', link: { href: 'https://example.com' } }],
      attaches: [],
    });
    expect(res.statusCode).toBe(201);
    const created = body<WireComment>(res).data;
    expect(created).toEqual({
      id: expect.any(String),
      contentType: 'Comment',
      parent: { type: 'page', id: pageId },
      elementId: pageId,
      content: [{ text: 'Посмотри ' }, { text: 'это', bold: true }, { text: 'https://example.com', link: { href: 'https://example.com' } }],
      attaches: [],
      reactions: [],
      author: expect.objectContaining({ id: owner.id, email: owner.email, anonymous: false }),
      createdAt: expect.any(String),
      updatedAt: created.createdAt,
      repliedComment: null,
      isDeleted: false,
      countReplies: 0,
    });
    const listed = await api(t, owner.cookie, 'GET', `/api/v3/spaces/element/${pageId}/comments`);
    expect(body(listed).meta).toEqual({ count: 1, hasMoreNext: false, nextCursor: null });
    expect(body<WireComment[]>(listed).data).toEqual([created]);
  });

  test('attaches default to none; a comment with only a file is fine; an empty one is refused', async () => {
    const pageId = await ownersPage();
    const noAttaches = await postComment(owner, pageId, { content: text('no files') });
    expect(noAttaches.statusCode).toBe(201);
    expect(body<WireComment>(noAttaches).data.attaches).toEqual([]);

    const fileId = await insertFile(t, { owner, pageId });
    const onlyFile = await postComment(owner, pageId, { content: [], attaches: [{ id: fileId, name: 'report', extension: 'pdf' }] });
    expect(onlyFile.statusCode).toBe(201);
    expect(body<WireComment>(onlyFile).data.attaches).toEqual([{ id: fileId, name: 'report', extension: 'pdf' }]);

    const before = await snapshot(pageId);
    for (const payload of [
      { content: [], attaches: [] },
      { content: [{ text: '   ' }], attaches: [] },
    ]) {
      const res = await postComment(owner, pageId, payload);
      expect(res.statusCode).toBe(422);
      expect(errorCode(res)).toBe('validation_failed');
    }
    expect(await snapshot(pageId)).toEqual(before);
  });

  test('comments are listed oldest first and paged with an id::Comment cursor', async () => {
    const pageId = await ownersPage();
    const written: string[] = [];
    for (let i = 0; i < 5; i++) written.push((await writeComment(owner, pageId, `c${i}`)).id);
    const first = await api(t, owner.cookie, 'GET', `/api/v3/spaces/element/${pageId}/comments?limit=2`);
    expect(body<WireComment[]>(first).data.map((c) => c.id)).toEqual(written.slice(0, 2));
    expect(body(first).meta).toEqual({ count: 5, hasMoreNext: true, nextCursor: `${written[1]}::Comment` });
    const cursor = encodeURIComponent(JSON.stringify(`${written[1]}::Comment`));
    const second = await api(t, owner.cookie, 'GET', `/api/v3/spaces/element/${pageId}/comments?limit=2&cursor=${cursor}`);
    expect(body<WireComment[]>(second).data.map((c) => c.id)).toEqual(written.slice(2, 4));
    const rest = await api(t, owner.cookie, 'GET', `/api/v3/spaces/element/${pageId}/comments?limit=2&cursor=${written[3]}::Comment`);
    expect(body<WireComment[]>(rest).data.map((c) => c.id)).toEqual(written.slice(4));
    expect(body(rest).meta).toMatchObject({ hasMoreNext: false, nextCursor: null });

    // A cursor into another page's list, of another type, or made up: 400.
    const otherPage = await ownersPage();
    const foreign = (await writeComment(owner, otherPage)).id;
    for (const bad of [`${foreign}::Comment`, `${written[0]}::Element`, 'nope', `${newId()}::Comment`]) {
      const res = await api(t, owner.cookie, 'GET', `/api/v3/spaces/element/${pageId}/comments?cursor=${encodeURIComponent(bad)}`);
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('bad_request');
    }
    for (const bad of ['limit=0', 'limit=201', 'limit="x"']) {
      const res = await api(t, owner.cookie, 'GET', `/api/v3/spaces/element/${pageId}/comments?${bad}`);
      expect(res.statusCode).toBe(422);
    }
  });

  test('an unknown page is 404; an unknown comment is 404', async () => {
    for (const [method, url, payload] of [
      ['GET', `/api/v3/spaces/element/${newId()}/comments`, undefined],
      ['POST', `/api/v3/spaces/element/${newId()}/comments`, { content: text('x') }],
      ['GET', `/api/v3/spaces/comment/${newId()}/comments`, undefined],
      ['POST', `/api/v3/spaces/comment/${newId()}/reaction`, { code: '👍' }],
      ['DELETE', `/api/v3/spaces/comment/${newId()}/reaction?code="👍"`, undefined],
    ] as const) {
      const res = await api(t, owner.cookie, method, url, payload);
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('not_found');
    }
    const pageId = await ownersPage();
    for (const method of ['POST', 'DELETE'] as const) {
      const res = await api(
        t,
        owner.cookie,
        method,
        `/api/v3/spaces/element/${pageId}/comments/${newId()}`,
        method === 'POST' ? { content: text('x') } : undefined,
      );
      expect(res.statusCode).toBe(404);
    }
  });

  test('a comment is reached only through its own page', async () => {
    const pageA = await ownersPage();
    const pageB = await ownersPage();
    const onA = await writeComment(owner, pageA, 'on A');
    const before = await snapshot(pageA);
    const edit = await api(t, owner.cookie, 'POST', `/api/v3/spaces/element/${pageB}/comments/${onA.id}`, { content: text('moved?') });
    expect(edit.statusCode).toBe(404);
    const del = await api(t, owner.cookie, 'DELETE', `/api/v3/spaces/element/${pageB}/comments/${onA.id}`);
    expect(del.statusCode).toBe(404);
    expect(await snapshot(pageA)).toEqual(before);
  });
});

describe('replies', () => {
  test('a reply belongs to its comment: listed under it, counted, not among the page comments', async () => {
    const pageId = await ownersPage();
    const top = await writeComment(owner, pageId, 'question');
    const reply = await writeComment(owner, pageId, 'answer', top.id);
    expect(reply).toMatchObject({ parent: { type: 'comment', id: top.id }, repliedComment: top.id, elementId: pageId });
    const nested = await writeComment(owner, pageId, 'answer to the answer', reply.id);

    const page = await listComments(owner, pageId);
    expect(page.map((c) => c.id)).toEqual([top.id]);
    expect(page[0].countReplies).toBe(1);
    const replies = await listReplies(owner, top.id);
    expect(replies.map((c) => c.id)).toEqual([reply.id]);
    expect(replies[0].countReplies).toBe(1);
    expect((await listReplies(owner, reply.id)).map((c) => c.id)).toEqual([nested.id]);
    expect(await listReplies(owner, nested.id)).toEqual([]);

    const res = await api(t, owner.cookie, 'GET', `/api/v3/spaces/comment/${top.id}/comments?limit=1&cursor=${top.id}::Comment`);
    expect(res.statusCode).toBe(400);
  });

  test('repliedComment must be a live comment of the same page (422, nothing stored)', async () => {
    const pageId = await ownersPage();
    const otherPage = await ownersPage();
    const foreign = await writeComment(owner, otherPage, 'elsewhere');
    const gone = await writeComment(owner, pageId, 'to delete');
    expect((await api(t, owner.cookie, 'DELETE', `/api/v3/spaces/element/${pageId}/comments/${gone.id}`)).statusCode).toBe(200);
    const before = await snapshot(pageId);
    const beforeOther = await snapshot(otherPage);
    for (const repliedComment of [foreign.id, newId(), gone.id, 'not-an-id']) {
      const res = await postComment(owner, pageId, { content: text('reply'), attaches: [], repliedComment });
      expect(res.statusCode).toBe(422);
      expect(errorCode(res)).toBe('validation_failed');
    }
    expect(await snapshot(pageId)).toEqual(before);
    expect(await snapshot(otherPage)).toEqual(beforeOther);
  });
});

describe('editing', () => {
  test('the author edits content; attaches stay unless given; updatedAt moves', async () => {
    const pageId = await ownersPage();
    const fileId = await insertFile(t, { owner, pageId });
    const res = await postComment(owner, pageId, { content: text('draft'), attaches: [{ id: fileId, name: 'a', extension: 'pdf' }] });
    const created = body<WireComment>(res).data;
    const edited = await api(t, owner.cookie, 'POST', `/api/v3/spaces/element/${pageId}/comments/${created.id}`, { content: text('final') });
    expect(edited.statusCode).toBe(200);
    const after = body<WireComment>(edited).data;
    expect(after).toMatchObject({ id: created.id, content: text('final'), attaches: created.attaches, createdAt: created.createdAt });
    expect(after.updatedAt > created.updatedAt).toBe(true);
    expect((await listComments(owner, pageId))[0]).toEqual(after);

    const dropFiles = await api(t, owner.cookie, 'POST', `/api/v3/spaces/element/${pageId}/comments/${created.id}`, { content: text('final'), attaches: [] });
    expect(body<WireComment>(dropFiles).data.attaches).toEqual([]);
    // Nothing left at all is refused.
    const before = await snapshot(pageId);
    const empty = await api(t, owner.cookie, 'POST', `/api/v3/spaces/element/${pageId}/comments/${created.id}`, { content: [] });
    expect(empty.statusCode).toBe(422);
    expect(await snapshot(pageId)).toEqual(before);
  });
});

describe('deleting', () => {
  const del = (who: Person, pageId: string, id: string) => api(t, who.cookie, 'DELETE', `/api/v3/spaces/element/${pageId}/comments/${id}`);

  test('a comment without replies is gone', async () => {
    const pageId = await ownersPage();
    const c = await writeComment(owner, pageId);
    const res = await del(owner, pageId, c.id);
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toEqual({ id: c.id, status: 'success', comment: null, removedIds: [c.id] });
    expect(await listComments(owner, pageId)).toEqual([]);
    expect(await t.app.db.selectFrom('comments').select('id').where('id', '=', c.id).execute()).toEqual([]);
    expect((await del(owner, pageId, c.id)).statusCode).toBe(404);
  });

  test('a comment with replies stays as deleted with empty content until its last reply goes', async () => {
    const pageId = await ownersPage();
    const fileId = await insertFile(t, { owner, pageId });
    const top = body<WireComment>(await postComment(owner, pageId, { content: text('top'), attaches: [{ id: fileId, name: 'f', extension: 'pdf' }] })).data;
    await api(t, owner.cookie, 'POST', `/api/v3/spaces/comment/${top.id}/reaction`, { code: '👍' });
    const r1 = await writeComment(owner, pageId, 'r1', top.id);
    const r2 = await writeComment(owner, pageId, 'r2', top.id);

    const res = await del(owner, pageId, top.id);
    expect(res.statusCode).toBe(200);
    const kept = body<{ comment: WireComment; removedIds: string[] }>(res).data;
    expect(kept.removedIds).toEqual([]);
    expect(kept.comment).toMatchObject({ id: top.id, isDeleted: true, content: [], attaches: [], reactions: [], countReplies: 2 });
    expect(await listComments(owner, pageId)).toEqual([kept.comment]);
    expect((await listReplies(owner, top.id)).map((c) => c.id)).toEqual([r1.id, r2.id]);

    // A deleted comment takes no edits, reactions, replies or second deletes.
    expect((await api(t, owner.cookie, 'POST', `/api/v3/spaces/element/${pageId}/comments/${top.id}`, { content: text('back') })).statusCode).toBe(404);
    expect((await api(t, owner.cookie, 'POST', `/api/v3/spaces/comment/${top.id}/reaction`, { code: '👍' })).statusCode).toBe(404);
    expect((await postComment(owner, pageId, { content: text('x'), repliedComment: top.id })).statusCode).toBe(422);
    expect((await del(owner, pageId, top.id)).statusCode).toBe(404);

    expect(body(await del(owner, pageId, r1.id)).data).toMatchObject({ removedIds: [r1.id] });
    expect((await listComments(owner, pageId))[0]).toMatchObject({ id: top.id, isDeleted: true, countReplies: 1 });
    // The last reply goes, and the deleted comment with it.
    expect(body(await del(owner, pageId, r2.id)).data).toMatchObject({ removedIds: [r2.id, top.id] });
    expect(await listComments(owner, pageId)).toEqual([]);
    expect((await api(t, owner.cookie, 'GET', `/api/v3/spaces/comment/${top.id}/comments`)).statusCode).toBe(404);
    expect(await t.app.db.selectFrom('comments').select('id').where('page_id', '=', pageId).execute()).toEqual([]);
  });

  test('dropping a last reply drops every deleted ancestor left without replies', async () => {
    const pageId = await ownersPage();
    const a = await writeComment(owner, pageId, 'a');
    const b = await writeComment(owner, pageId, 'b', a.id);
    const c = await writeComment(owner, pageId, 'c', b.id);
    const sibling = await writeComment(owner, pageId, 'sibling of a');
    expect((await del(owner, pageId, a.id)).statusCode).toBe(200);
    expect((await del(owner, pageId, b.id)).statusCode).toBe(200);
    expect((await listComments(owner, pageId)).map((x) => [x.id, x.isDeleted])).toEqual([
      [a.id, true],
      [sibling.id, false],
    ]);
    expect(body(await del(owner, pageId, c.id)).data).toMatchObject({ removedIds: [c.id, b.id, a.id] });
    expect((await listComments(owner, pageId)).map((x) => x.id)).toEqual([sibling.id]);
  });

  test('a deleted comment that somehow has no replies is hidden', async () => {
    const pageId = await ownersPage();
    const c = await writeComment(owner, pageId);
    await t.app.db.updateTable('comments').set({ deleted_at: new Date().toISOString(), content: '[]' }).where('id', '=', c.id).execute();
    expect(await listComments(owner, pageId)).toEqual([]);
  });
});

describe('reactions', () => {
  const react = (who: Person, id: string, code: string) => api(t, who.cookie, 'POST', `/api/v3/spaces/comment/${id}/reaction`, { code });
  const unreact = (who: Person, id: string, query: string) => api(t, who.cookie, 'DELETE', `/api/v3/spaces/comment/${id}/reaction?${query}`);

  test('counts, meReacted and the newest reactors, per viewer', async () => {
    const pageId = await ownersPage();
    const people: Person[] = [];
    for (let i = 0; i < 4; i++) people.push(await memberWith(`reactor${i}@example.com`, 'participant', pageId, 'read'));
    const c = await writeComment(owner, pageId);
    for (const who of people) expect((await react(who, c.id, '👍')).statusCode).toBe(200);
    const last = await react(owner, c.id, '🎉');
    expect(body<WireComment>(last).data.reactions).toEqual([
      { code: '👍', count: 4, meReacted: false, lastReactors: [people[3].id, people[2].id, people[1].id] },
      { code: '🎉', count: 1, meReacted: true, lastReactors: [owner.id] },
    ]);
    // Again: nothing changes.
    expect(body<WireComment>(await react(people[0], c.id, '👍')).data.reactions[0]).toMatchObject({ count: 4, meReacted: true });
    const seenBy1 = (await listComments(people[1], pageId))[0].reactions;
    expect(seenBy1.map((r) => [r.code, r.meReacted])).toEqual([
      ['👍', true],
      ['🎉', false],
    ]);

    // The query code is JSON-encoded; a plain string is taken as it is.
    const removed = await unreact(people[3], c.id, `code=${encodeURIComponent(JSON.stringify('👍'))}`);
    expect(removed.statusCode).toBe(200);
    expect(body<WireComment>(removed).data.reactions[0]).toEqual({
      code: '👍',
      count: 3,
      meReacted: false,
      lastReactors: [people[2].id, people[1].id, people[0].id],
    });
    expect(body<WireComment>(await unreact(owner, c.id, `code=${encodeURIComponent('🎉')}`)).data.reactions.map((r) => r.code)).toEqual(['👍']);
    // Removing what is not there is fine and changes nothing.
    expect((await unreact(owner, c.id, 'code="🎉"')).statusCode).toBe(200);
    expect((await listComments(owner, pageId))[0].reactions).toEqual([
      { code: '👍', count: 3, meReacted: false, lastReactors: [people[2].id, people[1].id, people[0].id] },
    ]);
  });

  test('codes are checked; odd names are plain codes; one person has at most 20 codes on a comment', async () => {
    const pageId = await ownersPage();
    const c = await writeComment(owner, pageId);
    const before = await snapshot(pageId);
    for (const payload of [{}, { code: '' }, { code: '   ' }, { code: 'x'.repeat(65) }, { code: 5 }, { code: '👍', extra: 1 }]) {
      const res = await api(t, owner.cookie, 'POST', `/api/v3/spaces/comment/${c.id}/reaction`, payload);
      expect(res.statusCode).toBe(422);
    }
    expect((await unreact(owner, c.id, '')).statusCode).toBe(422);
    expect(await snapshot(pageId)).toEqual(before);

    for (const code of ['__proto__', 'constructor']) expect((await react(owner, c.id, code)).statusCode).toBe(200);
    expect((await listComments(owner, pageId))[0].reactions.map((r) => [r.code, r.count])).toEqual([
      ['__proto__', 1],
      ['constructor', 1],
    ]);
    expect(({} as Record<string, unknown>).count).toBeUndefined();
    for (let i = 0; i < 18; i++) expect((await react(owner, c.id, `r${i}`)).statusCode).toBe(200);
    const tooMany = await react(owner, c.id, 'one-more');
    expect(tooMany.statusCode).toBe(422);
    // Repeating one already there is still fine.
    expect((await react(owner, c.id, 'r0')).statusCode).toBe(200);
  });
});

describe('attachments', () => {
  test('files of this page or your own are accepted; others and unknown ids are refused with nothing stored', async () => {
    const pageId = await ownersPage();
    const colleague = await memberWith('attacher@example.com', 'participant', pageId, 'read');
    const otherPage = await ownersPage();
    const ofThisPage = await insertFile(t, { owner, pageId });
    const mineElsewhere = await insertFile(t, { owner: colleague, pageId: null });
    const othersElsewhere = await insertFile(t, { owner, pageId: otherPage });

    const ok = await postComment(colleague, pageId, {
      content: text('files'),
      attaches: [
        { id: ofThisPage, name: 'page file', extension: 'pdf' },
        { id: mineElsewhere, name: 'mine', extension: '' },
      ],
    });
    expect(ok.statusCode).toBe(201);
    expect(body<WireComment>(ok).data.attaches.map((a) => a.id)).toEqual([ofThisPage, mineElsewhere]);

    const before = await snapshot(pageId);
    for (const attaches of [
      [{ id: othersElsewhere, name: 'x', extension: 'pdf' }],
      [{ id: newId(), name: 'x', extension: 'pdf' }],
      [
        { id: ofThisPage, name: 'x', extension: 'pdf' },
        { id: ofThisPage, name: 'y', extension: 'pdf' },
      ],
      [{ id: ofThisPage, name: '', extension: 'pdf' }],
      [{ id: ofThisPage, name: 'x', extension: 'pdf', url: 'https://example.com' }],
      Array.from({ length: 21 }, () => ({ id: newId(), name: 'x', extension: 'pdf' })),
    ]) {
      const res = await postComment(colleague, pageId, { content: text('files'), attaches });
      expect(res.statusCode).toBe(422);
      expect(errorCode(res)).toBe('validation_failed');
    }
    // An edit cannot sneak one in either.
    const mine = body<WireComment>(ok).data;
    const edit = await api(t, colleague.cookie, 'POST', `/api/v3/spaces/element/${pageId}/comments/${mine.id}`, {
      content: text('files'),
      attaches: [{ id: othersElsewhere, name: 'x', extension: 'pdf' }],
    });
    expect(edit.statusCode).toBe(422);
    expect(await snapshot(pageId)).toEqual(before);
  });
});

describe('bad input', () => {
  test('schema mismatches are 422, malformed JSON 400, text bodies 415; nothing is stored', async () => {
    const pageId = await ownersPage();
    const before = await snapshot(pageId);
    const cases: unknown[] = [
      { content: 'hello' },
      { content: text('x'), extra: true },
      { content: [{ text: 'x', color: 'red' }] },
      { content: [{ text: '' }] },
      { content: [{ text: 'x', link: { href: 'javascript:alert(1)' } }] },
      { content: [{ text: 'x', tableAddress: { x: 0, y: 0 } }] },
      { content: [{ text: '@a', mention: { userId: 'u', admin: true } }] },
      { content: [{ text: 'x'.repeat(10_001) }] },
      { content: text('x'), repliedComment: 5 },
    ];
    for (const payload of cases) {
      const res = await postComment(owner, pageId, payload);
      expect(res.statusCode).toBe(422);
      expect(errorCode(res)).toBe('validation_failed');
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: `/api/v3/spaces/element/${pageId}/comments`,
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      payload: '{"content": [',
    });
    expect(malformed.statusCode).toBe(400);
    expect(errorCode(malformed)).toBe('bad_request');
    const plain = await t.app.inject({
      method: 'POST',
      url: `/api/v3/spaces/element/${pageId}/comments`,
      headers: { cookie: owner.cookie, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(plain.statusCode).toBe(415);
    expect(await snapshot(pageId)).toEqual(before);
  });

  test('__proto__ and constructor keys are refused and pollute nothing', async () => {
    const pageId = await ownersPage();
    const c = await writeComment(owner, pageId);
    const before = await snapshot(pageId);
    const raw = [
      '{"content":[{"text":"x"}],"__proto__":{"polluted":true}}',
      '{"content":[{"text":"x","__proto__":{"polluted":true}}]}',
      '{"content":[{"text":"x"}],"constructor":{"prototype":{"polluted":true}}}',
      '{"content":[{"text":"x"}],"attaches":[{"id":"a","name":"b","extension":"c","__proto__":{"polluted":true}}]}',
    ];
    // A plain "constructor" key is just an unknown key.
    const ctor = await postComment(owner, pageId, JSON.parse('{"content":[{"text":"x"}],"constructor":"x"}'));
    expect(ctor.statusCode).toBe(422);
    for (const payload of raw) {
      for (const url of [`/api/v3/spaces/element/${pageId}/comments`, `/api/v3/spaces/element/${pageId}/comments/${c.id}`]) {
        const res = await t.app.inject({ method: 'POST', url, headers: { cookie: owner.cookie, 'content-type': 'application/json' }, payload });
        // Fastify's JSON parser refuses prototype poisoning outright.
        expect(res.statusCode).toBe(400);
        expect(errorCode(res)).toBe('bad_request');
      }
    }
    const reaction = await t.app.inject({
      method: 'POST',
      url: `/api/v3/spaces/comment/${c.id}/reaction`,
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      payload: '{"code":"x","__proto__":{"polluted":true}}',
    });
    expect(reaction.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await snapshot(pageId)).toEqual(before);
  });

  test('mention tokens are kept as written', async () => {
    const pageId = await ownersPage();
    const content = [{ text: 'Привет, ' }, { text: '@Анна', mention: { userId: owner.id } }, { text: '!' }];
    const created = body<WireComment>(await postComment(owner, pageId, { content, attaches: [] })).data;
    expect(created.content).toEqual(content);
  });
});

test('every comment call is in the OpenAPI document', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
  expect(res.statusCode).toBe(200);
  const paths = res.json<{ paths: Record<string, Record<string, unknown>> }>().paths;
  expect(Object.keys(paths['/api/v3/spaces/element/{id}/comments']).sort()).toEqual(['get', 'post']);
  expect(Object.keys(paths['/api/v3/spaces/element/{id}/comments/{commentId}']).sort()).toEqual(['delete', 'post']);
  expect(Object.keys(paths['/api/v3/spaces/comment/{id}/comments'])).toEqual(['get']);
  expect(Object.keys(paths['/api/v3/spaces/comment/{id}/reaction']).sort()).toEqual(['delete', 'post']);
  expect(Object.keys(paths['/api/notifications']).sort()).toEqual(['get']);
  expect(Object.keys(paths['/api/v3/spaces/notifications/{id}/settings']).sort()).toEqual(['get', 'post']);
});

test('the author of a comment whose account is gone shows as the anonymous placeholder', () => {
  const now = new Date().toISOString();
  const row = {
    id: 'c1',
    page_id: 'p1',
    replied_comment_id: null,
    author_id: 'gone',
    content: '[]',
    attaches: '[]',
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  expect(defaultAuthor('gone')).toEqual({ id: 'gone', email: '', name: '', avatar_url: null, anonymous: true, telegramId: null, createdAt: '' });
  expect(presentCommentRow(row, undefined, [], 0).author).toEqual(defaultAuthor('gone'));
});

describe('permissions: role × page level × operation', () => {
  type Op = 'list' | 'listReplies' | 'create' | 'reply' | 'editOthers' | 'editOwn' | 'deleteOthers' | 'deleteOwn' | 'react' | 'unreact';
  const OPS: Op[] = ['list', 'listReplies', 'create', 'reply', 'editOthers', 'editOwn', 'deleteOthers', 'deleteOwn', 'react', 'unreact'];
  interface Actor {
    label: string;
    role: Role | 'non-member';
    level: Level;
    who?: Person;
  }
  const actors: Actor[] = [];
  for (const role of ['admin', 'participant', 'guest'] as const) {
    for (const level of ['read', 'edit', 'full', 'none'] as const) actors.push({ label: `${role} with ${level}`, role, level });
  }
  // A grant alone gives nothing to someone outside the workspace.
  actors.push({ label: 'non-member with a full grant', role: 'non-member', level: 'full' });
  actors.push({ label: 'anonymous', role: 'non-member', level: 'none' });

  let pageId: string;
  beforeAll(async () => {
    pageId = await ownersPage();
    for (const [i, actor] of actors.entries()) {
      if (actor.label === 'anonymous') continue;
      actor.who = await person(t, `matrix${i}@example.com`);
      if (actor.role !== 'non-member') await addMember(t, ws, actor.who, actor.role);
      await grant(t, pageId, actor.who, actor.level);
    }
  });

  function mayRead(actor: Actor) {
    return actor.role !== 'non-member' && actor.level !== 'none';
  }
  function expected(actor: Actor, op: Op): number {
    if (!actor.who) return 401;
    const read = mayRead(actor);
    switch (op) {
      case 'create':
      case 'reply':
        return read ? 201 : 403;
      case 'editOthers':
        return 403;
      case 'deleteOthers':
        return read && actor.level === 'full' ? 200 : 403;
      default:
        return read ? 200 : 403;
    }
  }

  const cases = actors.flatMap((actor) => OPS.map((op) => [actor.label, op, actor] as const));
  test.each(cases)('%s: %s', async (_label, op, actor) => {
    const cookie = actor.who?.cookie;
    const others = await writeComment(owner, pageId, 'by the owner');
    // The actor's own comment, written while they had access (stored directly: some never had it).
    const own = actor.who
      ? await insertComment(t.app.db, { id: newId(), pageId, repliedCommentId: null, authorId: actor.who.id, content: text('mine'), attaches: [] })
      : undefined;
    if (actor.who) {
      await t.app.db
        .insertInto('comment_reactions')
        .values({ comment_id: others.id, user_id: actor.who.id, code: '👀', created_at: new Date().toISOString() })
        .execute();
    }
    const before = await snapshot(pageId);
    const base = `/api/v3/spaces/element/${pageId}/comments`;
    const requests: Record<Op, () => ReturnType<typeof api>> = {
      list: () => api(t, cookie, 'GET', base),
      listReplies: () => api(t, cookie, 'GET', `/api/v3/spaces/comment/${others.id}/comments`),
      create: () => api(t, cookie, 'POST', base, { content: text('new'), attaches: [] }),
      reply: () => api(t, cookie, 'POST', base, { content: text('re'), attaches: [], repliedComment: others.id }),
      editOthers: () => api(t, cookie, 'POST', `${base}/${others.id}`, { content: text('changed') }),
      editOwn: () => api(t, cookie, 'POST', `${base}/${own?.id ?? others.id}`, { content: text('changed') }),
      deleteOthers: () => api(t, cookie, 'DELETE', `${base}/${others.id}`),
      deleteOwn: () => api(t, cookie, 'DELETE', `${base}/${own?.id ?? others.id}`),
      react: () => api(t, cookie, 'POST', `/api/v3/spaces/comment/${others.id}/reaction`, { code: '🔥' }),
      unreact: () => api(t, cookie, 'DELETE', `/api/v3/spaces/comment/${others.id}/reaction?code="👀"`),
    };
    const res = await requests[op]();
    const status = expected(actor, op);
    expect(res.statusCode).toBe(status);
    if (status >= 400) {
      expect(errorCode(res)).toBe(status === 401 ? 'unauthorized' : 'forbidden');
      expect(await snapshot(pageId)).toEqual(before);
      return;
    }
    const after = await snapshot(pageId);
    const ids = (s: typeof after) => s.comments.map((c) => c.id);
    if (op === 'create' || op === 'reply') expect(ids(after).length).toBe(ids(before).length + 1);
    if (op === 'editOwn') expect(after.comments.find((c) => c.id === own?.id)?.content).toBe(JSON.stringify(text('changed')));
    if (op === 'deleteOthers') expect(ids(after)).not.toContain(others.id);
    if (op === 'deleteOwn') expect(ids(after)).not.toContain(own?.id);
    if (op === 'react') expect(after.reactions).toContainEqual(expect.objectContaining({ comment_id: others.id, user_id: actor.who?.id, code: '🔥' }));
    if (op === 'unreact') expect(after.reactions).not.toContainEqual(expect.objectContaining({ comment_id: others.id, user_id: actor.who?.id }));
  });
});

// ---- Concurrency: comment changes of a page are judged one at a time (docs/adr/0003-concurrency.md)

describe('concurrent comment changes', () => {
  const del = (pageId: string, id: string) => api(t, owner.cookie, 'DELETE', `/api/v3/spaces/element/${pageId}/comments/${id}`);
  const react = (id: string, code: string) => api(t, owner.cookie, 'POST', `/api/v3/spaces/comment/${id}/reaction`, { code });

  /** Every reply points at a stored comment; every reaction is on a live one. */
  async function expectNoOrphans(pageId: string) {
    const comments = await t.app.db.selectFrom('comments').selectAll().where('page_id', '=', pageId).execute();
    const byId = new Map(comments.map((c) => [c.id, c]));
    expect(comments.filter((c) => c.replied_comment_id !== null && !byId.has(c.replied_comment_id)).map((c) => c.id)).toEqual([]);
    const reactions = await t.app.db.selectFrom('comment_reactions').selectAll().execute();
    expect(reactions.filter((r) => byId.has(r.comment_id) && byId.get(r.comment_id)?.deleted_at !== null)).toEqual([]);
  }

  test('a reply to a comment being deleted is refused (422) or keeps the comment as deleted; never an orphan', async () => {
    const pageId = await ownersPage();
    for (let i = 0; i < 25; i++) {
      const c = await writeComment(owner, pageId, `c${i}`);
      const [reply, deleted] = await Promise.all([postComment(owner, pageId, { content: text('re'), attaches: [], repliedComment: c.id }), del(pageId, c.id)]);
      expect(outcome(deleted)).toBe('200');
      const kept = await t.app.db.selectFrom('comments').selectAll().where('id', '=', c.id).executeTakeFirst();
      if (reply.statusCode === 201) {
        expect(kept?.deleted_at).toEqual(expect.any(String));
      } else {
        expect(outcome(reply)).toBe('422 validation_failed');
        expect(kept).toBeUndefined();
      }
    }
    await expectNoOrphans(pageId);
  });

  test('a reaction to a comment being deleted is refused (404) or goes with it', async () => {
    const pageId = await ownersPage();
    for (let i = 0; i < 25; i++) {
      const c = await writeComment(owner, pageId, `c${i}`);
      const [reacted, deleted] = await Promise.all([react(c.id, '👍'), del(pageId, c.id)]);
      expect(outcome(deleted)).toBe('200');
      expect(['200', '404 not_found']).toContain(outcome(reacted));
    }
    expect(await t.app.db.selectFrom('comments').select('id').where('page_id', '=', pageId).execute()).toEqual([]);
    await expectNoOrphans(pageId);
  });

  test('reactions added at once stay within the per-person limit', async () => {
    const pageId = await ownersPage();
    const c = await writeComment(owner, pageId);
    for (let i = 0; i < COMMENT_LIMITS.reactionsPerUser - 1; i++) expect((await react(c.id, `code${i}`)).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => react(c.id, `more${i}`)));
    expect(answers.map(outcome).sort()).toEqual(['200', ...Array.from({ length: 5 }, () => '422 comment.reaction_limit')]);
    const stored = await t.app.db.selectFrom('comment_reactions').select('code').where('comment_id', '=', c.id).execute();
    expect(stored).toHaveLength(COMMENT_LIMITS.reactionsPerUser);
  });
});

describe('a page in the trash', () => {
  test('comments cannot be written, replied to, edited, deleted or reacted to (409 page.in_trash); they can be read', async () => {
    const pageId = await ownersPage();
    const c = await writeComment(owner, pageId);
    await api(t, owner.cookie, 'POST', `/api/v3/spaces/comment/${c.id}/reaction`, { code: '👍' });
    expect((await api(t, owner.cookie, 'DELETE', `/api/v3/spaces/element/${pageId}`)).statusCode).toBe(200);
    const before = await snapshot(pageId);
    const writes: Array<[method: 'POST' | 'DELETE', url: string, payload?: unknown]> = [
      ['POST', `/api/v3/spaces/element/${pageId}/comments`, { content: text('new') }],
      ['POST', `/api/v3/spaces/element/${pageId}/comments`, { content: text('re'), repliedComment: c.id }],
      ['POST', `/api/v3/spaces/element/${pageId}/comments/${c.id}`, { content: text('edited') }],
      ['DELETE', `/api/v3/spaces/element/${pageId}/comments/${c.id}`],
      ['POST', `/api/v3/spaces/comment/${c.id}/reaction`, { code: '🔥' }],
      ['DELETE', `/api/v3/spaces/comment/${c.id}/reaction?code=${encodeURIComponent('"👍"')}`],
    ];
    for (const [method, url, payload] of writes) {
      expect([method, url, outcome(await api(t, owner.cookie, method, url, payload))]).toEqual([method, url, '409 page.in_trash']);
    }
    expect(await snapshot(pageId)).toEqual(before);
    expect((await listComments(owner, pageId)).map((x) => x.id)).toEqual([c.id]);
    // Someone without access still learns nothing: 403 before the trash is mentioned.
    const stranger = await person(t, 'trash-stranger@example.com');
    expect(outcome(await postComment(stranger, pageId, { content: text('hi') }))).toBe('403 forbidden');
  });
});
