import type { WireComment } from '../../schema/comment';
import { newId } from '../../schema/ids';
import type { WireNotification, WireNotificationSettings } from '../../schema/notification';
import { addMember, grant, insertFile, insertPage, person, sharedWorkspace, type Level, type Person, type Role } from '../../test/helpers/comments';
import { api, body, createTestApp, errorCode, type TestApp } from '../../test/helpers/testApp';
import { createNotification } from '../repositories/notifications';

let t: TestApp;
let owner: Person;
let ws: string;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp({ sendCodeLimitPerIp: 10_000 });
  owner = await person(t, 'owner@example.com');
  ws = await sharedWorkspace(t, owner);
});
afterAll(async () => {
  await t.close();
});

/** A new member of the shared workspace. */
async function member(role: Role = 'participant'): Promise<Person> {
  counter += 1;
  const who = await person(t, `user${counter}@example.com`);
  await addMember(t, ws, who, role);
  return who;
}

async function memberWith(pageId: string, level: Level, role: Role = 'participant'): Promise<Person> {
  const who = await member(role);
  await grant(t, pageId, who, level);
  return who;
}

/** An explicit "none" grant: it hides the page even when an ancestor grants more. */
async function denyOn(pageId: string, who: Person) {
  await grant(t, pageId, who, 'none');
  await t.app.db.insertInto('page_members').values({ page_id: pageId, user_id: who.id, level: 'none', created_at: new Date().toISOString() }).execute();
}

async function writeComment(who: Person, pageId: string, payload: Record<string, unknown>): Promise<WireComment> {
  const res = await api(t, who.cookie, 'POST', `/api/v3/spaces/element/${pageId}/comments`, { attaches: [], ...payload });
  expect(res.statusCode).toBe(201);
  return body<WireComment>(res).data;
}

interface StoredNotification {
  id: string;
  name: string;
  workspace_id: string | null;
  page_id: string | null;
  is_read: number;
  context: Record<string, unknown>;
}

/** What is stored for a user (about one page, if given), oldest first. */
async function stored(who: Person, pageId?: string): Promise<StoredNotification[]> {
  let query = t.app.db.selectFrom('notifications').selectAll().where('user_id', '=', who.id);
  if (pageId) query = query.where('page_id', '=', pageId);
  const rows = await query.orderBy('created_at').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, workspace_id: r.workspace_id, page_id: r.page_id, is_read: r.is_read, context: JSON.parse(r.context) }));
}

async function names(who: Person, pageId?: string): Promise<string[]> {
  return (await stored(who, pageId)).map((n) => n.name);
}

async function allNotifications() {
  return t.app.db.selectFrom('notifications').selectAll().orderBy('id').execute();
}

function setSettings(who: Person, pageId: string, settings: Record<string, unknown>) {
  return api(t, who.cookie, 'POST', `/api/v3/spaces/notifications/${pageId}/settings`, { settings });
}

async function list(who: Person, query = ''): Promise<WireNotification[]> {
  const res = await api(t, who.cookie, 'GET', `/api/notifications${query}`);
  expect(res.statusCode).toBe(200);
  return body<WireNotification[]>(res).data;
}

async function counts(who: Person): Promise<{ data: Record<string, number>; total: unknown }> {
  const res = await api(t, who.cookie, 'GET', '/api/notifications/counts');
  expect(res.statusCode).toBe(200);
  return { data: body<Record<string, number>>(res).data, total: body(res).meta.total };
}

/** A notification about a page, stored the way the server stores them. */
async function notify(who: Person, pageId: string | null, workspaceId: string | null = ws): Promise<string> {
  return createNotification(t.app.db, {
    userId: who.id,
    workspaceId,
    pageId,
    name: 'element_members.invite.member',
    context: { elementId: pageId ?? newId(), senderId: owner.id },
  });
}

describe('notifications made by comments', () => {
  test('a new comment notifies the page creator and everyone granted on the page or an ancestor, not the author', async () => {
    const root = await insertPage(t, { workspaceId: ws, createdBy: owner });
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner, parentId: root });
    const writer = await memberWith(pageId, 'edit');
    const onAncestor = await memberWith(root, 'read', 'guest');
    const overridden = await memberWith(root, 'full');
    await denyOn(pageId, overridden);
    const memberWithoutGrant = await member();
    const outsider = await person(t, `outsider${newId()}@example.com`);
    await grant(t, pageId, outsider, 'read');

    const fileId = await insertFile(t, { owner: writer, pageId });
    const c = await writeComment(writer, pageId, { content: [{ text: 'Готово' }], attaches: [{ id: fileId, name: 'f', extension: 'pdf' }] });
    const expectedContext = {
      elementId: pageId,
      commentId: c.id,
      authorId: writer.id,
      sourceId: writer.id,
      content: [{ text: 'Готово' }],
      repliedCommentId: null,
      composition: { hasText: true, attachesCount: 1, mentionsCount: 0 },
    };
    for (const who of [owner, onAncestor]) {
      expect(await stored(who, pageId)).toEqual([
        { id: expect.any(String), name: 'comments.create', workspace_id: ws, page_id: pageId, is_read: 0, context: expectedContext },
      ]);
    }
    for (const who of [writer, overridden, memberWithoutGrant, outsider]) expect(await stored(who)).toEqual([]);

    // Through the API the follower sees exactly that.
    const [seen] = await list(onAncestor);
    expect(seen).toEqual({
      id: expect.any(String),
      name: 'comments.create',
      is_read: false,
      created_at: expect.any(String),
      workspace_id: ws,
      context: expectedContext,
    });
  });

  test('a reply notifies the replied author with comments.replied (once), the others with comments.create', async () => {
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
    const writer = await memberWith(pageId, 'read');
    const answerer = await memberWith(pageId, 'read');
    const first = await writeComment(writer, pageId, { content: [{ text: 'Вопрос' }] });
    const reply = await writeComment(answerer, pageId, { content: [{ text: 'Ответ' }], repliedComment: first.id });
    const writers = await stored(writer);
    expect(writers.map((n) => n.name)).toEqual(['comments.replied']);
    expect(writers[0].context).toMatchObject({ commentId: reply.id, repliedCommentId: first.id, authorId: answerer.id, sourceId: answerer.id });
    expect(await names(owner, pageId)).toEqual(['comments.create', 'comments.create']);
    expect(await names(answerer)).toEqual(['comments.create']);
    // Answering oneself tells nobody about a reply.
    await writeComment(writer, pageId, { content: [{ text: 'Ещё' }], repliedComment: first.id });
    expect(await names(writer)).toEqual(['comments.replied']);
  });

  test('mentions notify mentioned people with access, once; a mention of someone without access notifies nobody', async () => {
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
    const writer = await memberWith(pageId, 'read');
    const reader = await memberWith(pageId, 'read', 'guest');
    const noAccess = await member();
    const outsider = await person(t, `outsider${newId()}@example.com`);
    const content = [
      { text: '@reader', mention: { userId: reader.id } },
      { text: ' и ' },
      { text: '@reader', mention: { userId: reader.id } },
      { text: '@no', mention: { userId: noAccess.id } },
      { text: '@out', mention: { userId: outsider.id } },
      { text: '@me', mention: { userId: writer.id } },
      { text: '@ghost', mention: { userId: newId() } },
    ];
    const c = await writeComment(writer, pageId, { content });
    const readers = await stored(reader);
    expect(readers.map((n) => n.name)).toEqual(['comments.mention_user']);
    expect(readers[0].context).toMatchObject({ commentId: c.id, content, composition: { hasText: true, attachesCount: 0, mentionsCount: 5 } });
    expect(await names(owner, pageId)).toEqual(['comments.create']);
    for (const who of [noAccess, outsider, writer]) expect(await stored(who)).toEqual([]);
    const aboutIt = await t.app.db.selectFrom('notifications').select('user_id').where('context', 'like', `%${c.id}%`).execute();
    expect(aboutIt.map((n) => n.user_id).sort()).toEqual([owner.id, reader.id].sort());
  });

  test('on a page of the shared section, a mentioned participant is told though they follow nothing', async () => {
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner, section: 'all' });
    const writer = await member();
    const mentioned = await member();
    const bystander = await member();
    const guest = await member('guest');
    await writeComment(writer, pageId, {
      content: [
        { text: '@m', mention: { userId: mentioned.id } },
        { text: '@g', mention: { userId: guest.id } },
      ],
    });
    expect(await names(mentioned)).toEqual(['comments.mention_user']);
    expect(await names(owner, pageId)).toEqual(['comments.create']);
    for (const who of [bystander, guest]) expect(await stored(who)).toEqual([]);
  });

  test('an edit tells only people it mentions for the first time', async () => {
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
    const writer = await memberWith(pageId, 'read');
    const a = await memberWith(pageId, 'read');
    const b = await memberWith(pageId, 'read');
    const c = await writeComment(writer, pageId, { content: [{ text: '@a', mention: { userId: a.id } }] });
    expect(await names(a)).toEqual(['comments.mention_user']);
    const edit = (content: unknown) => api(t, writer.cookie, 'POST', `/api/v3/spaces/element/${pageId}/comments/${c.id}`, { content });
    expect(
      (
        await edit([
          { text: '@a', mention: { userId: a.id } },
          { text: '@b', mention: { userId: b.id } },
        ])
      ).statusCode,
    ).toBe(200);
    expect(await names(a)).toEqual(['comments.mention_user']);
    expect(await names(b)).toEqual(['comments.create', 'comments.mention_user']);
    expect((await edit([{ text: '@b', mention: { userId: b.id } }, { text: 'again' }])).statusCode).toBe(200);
    expect(await names(b)).toEqual(['comments.create', 'comments.mention_user']);
    expect(await names(owner, pageId)).toEqual(['comments.create']);
  });

  test('a reaction notifies the comment author with the code and count; never the reactor', async () => {
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
    const writer = await memberWith(pageId, 'read');
    const fan = await memberWith(pageId, 'read');
    const c = await writeComment(writer, pageId, { content: [{ text: 'Идея' }] });
    const react = (who: Person, code: string) => api(t, who.cookie, 'POST', `/api/v3/spaces/comment/${c.id}/reaction`, { code });
    expect((await react(fan, '👍')).statusCode).toBe(200);
    expect((await react(owner, '👍')).statusCode).toBe(200);
    expect((await react(writer, '👍')).statusCode).toBe(200);
    // Already there: no second notification.
    expect((await react(fan, '👍')).statusCode).toBe(200);
    const got = await stored(writer);
    expect(got.map((n) => [n.name, n.context.sourceId, n.context.reactionCode, n.context.reactionCount])).toEqual([
      ['comments.reaction', fan.id, '👍', 1],
      ['comments.reaction', owner.id, '👍', 2],
    ]);
    expect(got[0].context).toMatchObject({ elementId: pageId, commentId: c.id, authorId: writer.id, content: [{ text: 'Идея' }], repliedCommentId: null });
    expect((await names(fan)).filter((n) => n === 'comments.reaction')).toEqual([]);

    // An author who lost access hears nothing.
    await grant(t, pageId, writer, 'none');
    expect((await react(fan, '🎉')).statusCode).toBe(200);
    expect(await t.app.db.selectFrom('notifications').select('id').where('user_id', '=', writer.id).execute()).toHaveLength(2);
  });

  test('per-page settings: muted kinds are not stored; a mention muted falls back to a new-comment notice', async () => {
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
    const otherPage = await insertPage(t, { workspaceId: ws, createdBy: owner });
    const writer = await memberWith(pageId, 'read');
    const listener = await memberWith(pageId, 'read');
    await grant(t, otherPage, listener, 'read');
    await grant(t, otherPage, writer, 'read');

    expect((await setSettings(listener, pageId, { mentions: false })).statusCode).toBe(200);
    await writeComment(writer, pageId, { content: [{ text: '@l', mention: { userId: listener.id } }] });
    expect(await names(listener)).toEqual(['comments.create']);

    expect((await setSettings(listener, pageId, { comments: false })).statusCode).toBe(200);
    await writeComment(writer, pageId, { content: [{ text: '@l', mention: { userId: listener.id } }] });
    await writeComment(writer, pageId, { content: [{ text: 'plain' }] });
    expect(await names(listener)).toEqual(['comments.create']);

    const mine = await writeComment(listener, pageId, { content: [{ text: 'mine' }] });
    expect((await setSettings(listener, pageId, { replies: false, reactions: false })).statusCode).toBe(200);
    await writeComment(writer, pageId, { content: [{ text: 're' }], repliedComment: mine.id });
    expect((await api(t, writer.cookie, 'POST', `/api/v3/spaces/comment/${mine.id}/reaction`, { code: '👍' })).statusCode).toBe(200);
    expect(await names(listener)).toEqual(['comments.create']);

    // Settings are per page and per person.
    await writeComment(writer, otherPage, { content: [{ text: '@l', mention: { userId: listener.id } }] });
    expect(await names(listener)).toEqual(['comments.create', 'comments.mention_user']);
  });

  test('deleting a comment takes its notifications away', async () => {
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
    const writer = await memberWith(pageId, 'read');
    const mentioned = await memberWith(pageId, 'read');
    const keep = await writeComment(writer, pageId, { content: [{ text: 'stays' }] });
    const c = await writeComment(writer, pageId, { content: [{ text: '@m', mention: { userId: mentioned.id } }] });
    await api(t, owner.cookie, 'POST', `/api/v3/spaces/comment/${c.id}/reaction`, { code: '👍' });
    expect(await names(mentioned)).toEqual(['comments.create', 'comments.mention_user']);
    expect(await names(writer)).toEqual(['comments.reaction']);
    expect((await api(t, writer.cookie, 'DELETE', `/api/v3/spaces/element/${pageId}/comments/${c.id}`)).statusCode).toBe(200);
    expect((await stored(mentioned)).map((n) => n.context.commentId)).toEqual([keep.id]);
    expect(await stored(writer)).toEqual([]);
    expect((await stored(owner, pageId)).map((n) => n.context.commentId)).toEqual([keep.id]);
  });
});

describe('the notifications API', () => {
  test('newest first, filtered by read state, paged with an id::Notification cursor', async () => {
    const me = await member();
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
    await grant(t, pageId, me, 'read');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await notify(me, pageId));
    const newestFirst = [...ids].reverse();
    expect((await list(me)).map((n) => n.id)).toEqual(newestFirst);
    const readOne = await api(t, me.cookie, 'POST', `/api/notifications/${ids[1]}/markIsRead`);
    expect(readOne.statusCode).toBe(200);
    expect(body<WireNotification>(readOne).data).toMatchObject({ id: ids[1], is_read: true, name: 'element_members.invite.member' });

    const unread = newestFirst.filter((id) => id !== ids[1]);
    expect((await list(me, '?filter="unread"')).map((n) => n.id)).toEqual(unread);
    expect((await list(me, '?filter=unread')).map((n) => n.id)).toEqual(unread);
    expect((await list(me, '?filter="read"')).map((n) => n.id)).toEqual([ids[1]]);
    expect((await list(me, '?filter="all"&isRead=false')).map((n) => n.id)).toEqual(unread);
    expect((await list(me, '?isRead=true')).map((n) => n.id)).toEqual([ids[1]]);
    expect((await list(me, '?filter="all"')).map((n) => n.id)).toEqual(newestFirst);
    expect(await list(me, '?filter="read"&isRead=false')).toEqual([]);
    expect((await list(me, `?workspaceId=${encodeURIComponent(JSON.stringify(ws))}`)).map((n) => n.id)).toEqual(newestFirst);

    const first = await api(t, me.cookie, 'GET', '/api/notifications?limit=2');
    expect(body(first).meta).toEqual({ count: 5, hasMoreNext: true, nextCursor: `${newestFirst[1]}::Notification` });
    const next = await api(t, me.cookie, 'GET', `/api/notifications?limit=2&cursor=${encodeURIComponent(JSON.stringify(body(first).meta.nextCursor))}`);
    expect(body<WireNotification[]>(next).data.map((n) => n.id)).toEqual(newestFirst.slice(2, 4));

    for (const query of ['?filter="new"', '?isRead="yes"', '?limit=0', '?filter=["all"]']) {
      const res = await api(t, me.cookie, 'GET', `/api/notifications${query}`);
      expect(res.statusCode).toBe(422);
      expect(errorCode(res)).toBe('validation_failed');
    }
    for (const cursor of [`${ids[0]}::Comment`, `${newId()}::Notification`, 'x']) {
      expect((await api(t, me.cookie, 'GET', `/api/notifications?cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(400);
    }
    // Another user's notification is not a cursor into my list.
    const someoneElse = await member();
    const theirs = await notify(someoneElse, null);
    expect((await api(t, me.cookie, 'GET', `/api/notifications?cursor=${theirs}::Notification`)).statusCode).toBe(400);
  });

  test('counts: unread per workspace of mine, with a total', async () => {
    const me = await member();
    const ownWorkspace = (
      await t.app.db
        .selectFrom('workspace_members')
        .select('workspace_id')
        .where('user_id', '=', me.id)
        .where('workspace_id', '!=', ws)
        .executeTakeFirstOrThrow()
    ).workspace_id;
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
    await grant(t, pageId, me, 'read');
    expect(await counts(me)).toEqual({ data: { [ws]: 0, [ownWorkspace]: 0 }, total: 0 });
    const a = await notify(me, pageId);
    await notify(me, pageId);
    await notify(me, null, null);
    expect(await counts(me)).toEqual({ data: { [ws]: 2, [ownWorkspace]: 0 }, total: 3 });
    await api(t, me.cookie, 'POST', `/api/notifications/${a}/markIsRead`);
    expect(await counts(me)).toEqual({ data: { [ws]: 1, [ownWorkspace]: 0 }, total: 2 });
    const back = await api(t, me.cookie, 'POST', `/api/notifications/${a}/markIsNotRead`);
    expect(body<WireNotification>(back).data.is_read).toBe(false);
    expect((await counts(me)).data[ws]).toBe(2);
  });

  test('notifications about a page I lost access to leave the list and the counts, and cannot be touched', async () => {
    const me = await member();
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
    const gonePage = await insertPage(t, { workspaceId: ws, createdBy: owner });
    await grant(t, pageId, me, 'read');
    await grant(t, gonePage, me, 'read');
    const hidden = await notify(me, pageId);
    const other = await notify(me, null);
    const removedPage = await notify(me, gonePage);
    await t.app.db.deleteFrom('pages').where('id', '=', gonePage).execute();
    await grant(t, pageId, me, 'none');
    expect((await list(me)).map((n) => n.id)).toEqual([other]);
    expect(await counts(me)).toMatchObject({ data: { [ws]: 1 }, total: 1 });
    for (const id of [hidden, removedPage]) {
      for (const [method, url] of [
        ['POST', `/api/notifications/${id}/markIsRead`],
        ['POST', `/api/notifications/${id}/markIsNotRead`],
        ['DELETE', `/api/notifications/${id}`],
      ] as const) {
        expect((await api(t, me.cookie, method, url)).statusCode).toBe(404);
      }
    }
    expect((await t.app.db.selectFrom('notifications').select('id').where('user_id', '=', me.id).execute()).length).toBe(3);
    // Access again: it is back.
    await grant(t, pageId, me, 'read');
    expect((await list(me)).map((n) => n.id)).toEqual([other, hidden]);
    // Leaving the workspace hides it too.
    await t.app.db.deleteFrom('workspace_members').where('workspace_id', '=', ws).where('user_id', '=', me.id).execute();
    expect((await list(me)).map((n) => n.id)).toEqual([other]);
  });

  test('mark all read and delete all, for all workspaces or one; only my own', async () => {
    const me = await member();
    const neighbour = await member();
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
    await grant(t, pageId, me, 'read');
    await grant(t, pageId, neighbour, 'read');
    const mineHere = await notify(me, pageId);
    const mineNowhere = await notify(me, null, null);
    const theirs = await notify(neighbour, pageId);

    const scoped = await api(t, me.cookie, 'POST', '/api/notifications/markIsRead', { workspaceId: ws });
    expect(scoped.statusCode).toBe(200);
    expect(body(scoped).data).toEqual({ status: 'success', count: 1 });
    expect((await list(me, '?filter="unread"')).map((n) => n.id)).toEqual([mineNowhere]);
    expect((await list(me, '?filter="read"')).map((n) => n.id)).toEqual([mineHere]);
    const all = await api(t, me.cookie, 'POST', '/api/notifications/markIsRead');
    expect(body(all).data).toEqual({ status: 'success', count: 1 });
    expect(await list(me, '?filter="unread"')).toEqual([]);
    expect((await list(neighbour, '?filter="unread"')).map((n) => n.id)).toEqual([theirs]);

    const removedHere = await api(t, me.cookie, 'DELETE', `/api/notifications/all?workspaceId="${ws}"`);
    expect(body(removedHere).data).toEqual({ status: 'success', count: 1 });
    expect((await list(me)).map((n) => n.id)).toEqual([mineNowhere]);
    const removedAll = await api(t, me.cookie, 'DELETE', '/api/notifications/all');
    expect(body(removedAll).data).toEqual({ status: 'success', count: 1 });
    expect(await list(me)).toEqual([]);
    expect((await list(neighbour)).map((n) => n.id)).toEqual([theirs]);

    const one = await notify(me, pageId);
    const res = await api(t, me.cookie, 'DELETE', `/api/notifications/${one}`);
    expect(body(res).data).toEqual({ id: one, status: 'success' });
    expect((await api(t, me.cookie, 'DELETE', `/api/notifications/${one}`)).statusCode).toBe(404);
  });

  test('a workspace I am not in is refused, with nothing changed', async () => {
    const me = await member();
    const strangerWs = await sharedWorkspace(t, owner, 'Other');
    await notify(me, null, null);
    const before = await allNotifications();
    const query = encodeURIComponent(JSON.stringify(strangerWs));
    for (const [method, url, payload] of [
      ['GET', `/api/notifications?workspaceId=${query}`, undefined],
      ['POST', '/api/notifications/markIsRead', { workspaceId: strangerWs }],
      ['DELETE', `/api/notifications/all?workspaceId=${query}`, undefined],
    ] as const) {
      const res = await api(t, me.cookie, method, url, payload);
      expect(res.statusCode).toBe(403);
      expect(errorCode(res)).toBe('forbidden');
    }
    const bad = await api(t, me.cookie, 'POST', '/api/notifications/markIsRead', { workspaceId: ws, all: true });
    expect(bad.statusCode).toBe(422);
    expect(await allNotifications()).toEqual(before);
  });

  describe('own versus someone else’s', () => {
    type Op = 'markIsRead' | 'markIsNotRead' | 'delete';
    const ops: Op[] = ['markIsRead', 'markIsNotRead', 'delete'];
    const request = (cookie: string | undefined, op: Op, id: string) =>
      op === 'delete' ? api(t, cookie, 'DELETE', `/api/notifications/${id}`) : api(t, cookie, 'POST', `/api/notifications/${id}/${op}`);
    const whose = ['own', 'someone else’s', 'unknown', 'anonymous'] as const;

    test.each(ops.flatMap((op) => whose.map((w) => [op, w] as const)))('%s on %s', async (op, w) => {
      const me = await member();
      const other = await member();
      const mine = await notify(me, null);
      const theirs = await notify(other, null);
      if (op === 'markIsNotRead') await t.app.db.updateTable('notifications').set({ is_read: 1 }).where('id', 'in', [mine, theirs]).execute();
      const target = w === 'own' || w === 'anonymous' ? mine : w === 'unknown' ? newId() : theirs;
      const before = await allNotifications();
      const res = await request(w === 'anonymous' ? undefined : me.cookie, op, target);
      if (w === 'own') {
        expect(res.statusCode).toBe(200);
        const row = await t.app.db.selectFrom('notifications').selectAll().where('id', '=', mine).executeTakeFirst();
        if (op === 'delete') expect(row).toBeUndefined();
        else expect(row?.is_read).toBe(op === 'markIsRead' ? 1 : 0);
        return;
      }
      expect(res.statusCode).toBe(w === 'anonymous' ? 401 : 404);
      expect(await allNotifications()).toEqual(before);
    });

    test('lists, counts and bulk calls see only my own', async () => {
      const me = await member();
      const other = await member();
      const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
      await grant(t, pageId, me, 'read');
      await grant(t, pageId, other, 'read');
      const theirs = await notify(other, pageId);
      expect(await list(me)).toEqual([]);
      expect((await counts(me)).total).toBe(0);
      await api(t, me.cookie, 'POST', '/api/notifications/markIsRead');
      await api(t, me.cookie, 'DELETE', '/api/notifications/all');
      expect(await list(other)).toEqual([expect.objectContaining({ id: theirs, is_read: false })]);
    });

    test('anonymous callers get 401 everywhere', async () => {
      const before = await allNotifications();
      for (const [method, url] of [
        ['GET', '/api/notifications'],
        ['GET', '/api/notifications/counts'],
        ['POST', '/api/notifications/markIsRead'],
        ['DELETE', '/api/notifications/all'],
      ] as const) {
        const res = await api(t, undefined, method, url);
        expect(res.statusCode).toBe(401);
        expect(errorCode(res)).toBe('unauthorized');
      }
      expect(await allNotifications()).toEqual(before);
    });
  });
});

describe('per-page notification settings', () => {
  test('defaults, partial changes that keep the rest, per person', async () => {
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
    const me = await memberWith(pageId, 'read');
    const url = `/api/v3/spaces/notifications/${pageId}/settings`;
    const initial = await api(t, me.cookie, 'GET', url);
    expect(body<WireNotificationSettings>(initial).data).toEqual({
      contentType: 'ElementNotificationSettings',
      elementId: pageId,
      settings: { comments: true, replies: true, mentions: true, reactions: true },
    });
    const changed = await api(t, me.cookie, 'POST', url, { contentType: 'ElementNotificationSettings', settings: { comments: false } });
    expect(changed.statusCode).toBe(200);
    expect(body<WireNotificationSettings>(changed).data.settings).toEqual({ comments: false, replies: true, mentions: true, reactions: true });
    await api(t, me.cookie, 'POST', url, { settings: { reactions: false } });
    expect(body<WireNotificationSettings>(await api(t, me.cookie, 'GET', url)).data.settings).toEqual({
      comments: false,
      replies: true,
      mentions: true,
      reactions: false,
    });
    expect(body<WireNotificationSettings>(await api(t, owner.cookie, 'GET', url)).data.settings).toEqual({
      comments: true,
      replies: true,
      mentions: true,
      reactions: true,
    });
  });

  test('bad bodies are refused and change nothing; an unknown page is 404', async () => {
    const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
    const url = `/api/v3/spaces/notifications/${pageId}/settings`;
    await api(t, owner.cookie, 'POST', url, { settings: { mentions: false } });
    const settingsRows = () => t.app.db.selectFrom('notification_settings').selectAll().orderBy('user_id').orderBy('page_id').execute();
    const before = await settingsRows();
    for (const payload of [
      {},
      { settings: { comments: 'no' } },
      { settings: { muted: true } },
      { settings: {}, extra: 1 },
      { contentType: 'Other', settings: {} },
    ]) {
      const res = await api(t, owner.cookie, 'POST', url, payload);
      expect(res.statusCode).toBe(422);
      expect(errorCode(res)).toBe('validation_failed');
    }
    const poisoned = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      payload: '{"settings":{"__proto__":{"comments":false}}}',
    });
    expect(poisoned.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).comments).toBeUndefined();
    expect(await settingsRows()).toEqual(before);
    for (const method of ['GET', 'POST'] as const) {
      const res = await api(t, owner.cookie, method, `/api/v3/spaces/notifications/${newId()}/settings`, method === 'POST' ? { settings: {} } : undefined);
      expect(res.statusCode).toBe(404);
    }
  });

  describe('role × page level', () => {
    const rows: [string, Role | 'non-member' | 'anonymous', Level][] = [];
    for (const role of ['admin', 'participant', 'guest'] as const) {
      for (const level of ['read', 'edit', 'full', 'none'] as const) rows.push([`${role} with ${level}`, role, level]);
    }
    rows.push(['non-member with a full grant', 'non-member', 'full'], ['anonymous', 'anonymous', 'none']);

    test.each(rows.flatMap((row) => (['GET', 'POST'] as const).map((method) => [...row, method] as const)))('%s: %s', async (_label, role, level, method) => {
      const pageId = await insertPage(t, { workspaceId: ws, createdBy: owner });
      let cookie: string | undefined;
      if (role !== 'anonymous') {
        const who = role === 'non-member' ? await person(t, `nm${newId()}@example.com`) : await member(role);
        await grant(t, pageId, who, level);
        cookie = who.cookie;
      }
      const before = await t.app.db.selectFrom('notification_settings').selectAll().where('page_id', '=', pageId).execute();
      const res = await api(
        t,
        cookie,
        method,
        `/api/v3/spaces/notifications/${pageId}/settings`,
        method === 'POST' ? { settings: { comments: false } } : undefined,
      );
      const allowed = role !== 'anonymous' && role !== 'non-member' && level !== 'none';
      const after = await t.app.db.selectFrom('notification_settings').selectAll().where('page_id', '=', pageId).execute();
      if (allowed) {
        expect(res.statusCode).toBe(200);
        expect(after.length).toBe(method === 'POST' ? 1 : 0);
        return;
      }
      expect(res.statusCode).toBe(role === 'anonymous' ? 401 : 403);
      expect(after).toEqual(before);
    });
  });
});
