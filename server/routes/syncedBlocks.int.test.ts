import { setTimeout as sleep } from 'node:timers/promises';
import { strFromU8, unzipSync } from 'fflate';
import type { Socket } from 'socket.io-client';
import type { WireBlock } from '../../schema/block';
import type { WireElement } from '../../schema/element';
import { newId } from '../../schema/ids';
import { channels } from '../../schema/realtime';
import type { WireReminder } from '../../schema/reminder';
import type { WireSearchHit } from '../../schema/search';
import { SYNCED_CONTENT } from '../db/types';
import type { JsonExport } from '../export/pageExport';
import { sendDueReminders } from '../reminders/send';
import { postImport } from '../../test/helpers/imports';
import { createPage, expectStatus, ids, joinWorkspace, share, snapshot, type Actor } from '../../test/helpers/pages';
import { listeningApp, nextEvent, noEvent, request } from '../../test/helpers/realtimeClient';
import { api, body, errorCode, expectOk, jsonQueryString, type TestApp } from '../../test/helpers/testApp';

/*
 * Synced blocks (docs/api/blocks.md «Synced blocks») on a real server and the project's database:
 * the content made as a hidden page under its holder (in no list of pages), its blocks written and
 * read with the block calls by whoever may edit or read the holder, and nobody else; what a synced
 * block may name; nothing but its blocks changes it; it follows its holder to the trash, back and
 * away for good; copies, exports, search, realtime and reminders.
 */

const app = listeningApp(['ann.synced@example.com', 'bob.synced@example.com', 'cat.synced@example.com', 'dan.synced@example.com']);
let t: TestApp;
let ann: Actor; // owns the pages
let bob: Actor; // reads the holder
let cat: Actor; // edits another page of ann's, not the holder
let dan: Actor; // another workspace (ann is a member of it too)
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = app.t();
  [ann, bob, cat, dan] = app.people();
  await joinWorkspace(t, dan.workspaceId, ann.id, 'participant');
});

const text = (value: string) => ({ tokens: [{ text: value }] });
const refusal = (response: { statusCode: number; body: string }) => [response.statusCode, errorCode(response as never)];
const makeSynced = (who: Actor, holderId: string, id: string = newId()) => api(t, who.cookie, 'POST', `${S}/element/${holderId}/synced`, { id });
const makeBlock = (who: Actor, pageId: string, type: string, data: unknown, placeAfter: string | null = null, parentId: string | null = null) =>
  api(t, who.cookie, 'POST', `${S}/block`, { pageId, type, data, placeAfter, parentId });
const made = async (who: Actor, pageId: string, type: string, data: unknown, placeAfter: string | null = null, parentId: string | null = null) =>
  expectOk<WireBlock>(await makeBlock(who, pageId, type, data, placeAfter, parentId), 201);
const blocksOf = async (who: Actor, pageId: string) => expectOk<WireBlock[]>(await api(t, who.cookie, 'GET', `${S}/note/${pageId}/blocks`));
const textsOf = async (who: Actor, pageId: string) =>
  (await blocksOf(who, pageId)).map((b) => (b.data as { tokens?: Array<{ text: string }> }).tokens?.[0]?.text ?? b.type);
const pageRow = (id: string) => t.app.db.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * A page of ann's that bob may read, holding «до», a synced block and «после»; its content: a
 * heading, a paragraph with a nested one under it.
 */
async function holderWithContent(title = 'Держатель', words = 'Общий абзац') {
  const holder = await createPage(t, ann, { title });
  await share(t, ann, holder.id, [{ userId: bob.id, accessLevel: 'read' }]);
  const content = expectOk<WireElement>(await makeSynced(ann, holder.id), 201);
  const headingId = newId();
  const created = expectOk<Array<{ status: string; block: WireBlock }>>(
    await api(t, ann.cookie, 'POST', `${S}/blocks/create`, {
      pageId: content.id,
      blocks: [
        { id: headingId, type: 'heading2', data: text('Общий заголовок') },
        { id: newId(), type: 'text', data: text(words), placeAfter: headingId },
      ],
    }),
  );
  expect(created.map((c) => c.status)).toEqual(['created', 'created']);
  const [heading, paragraph] = created.map((c) => c.block);
  const nested = await made(ann, content.id, 'text', text('Вложенный'), null, paragraph.id);
  const before = await made(ann, holder.id, 'text', text('до'));
  const instance = await made(ann, holder.id, 'synced', { pageId: content.id }, before.id);
  const after = await made(ann, holder.id, 'text', text('после'), instance.id);
  return { holder, content, heading, paragraph, nested, before, instance, after };
}

describe('making the content', () => {
  test('201: a hidden page under the holder, in no list of pages; its blocks written and read with the block calls', async () => {
    const holder = await createPage(t, ann, { title: 'Список' });
    const socket = await app.connect(ann);
    expect((await request(socket, 'join', { channel: channels.elementChildren(holder.id, ann.id) })).ok).toBe(true);
    const id = newId();
    const content = expectOk<WireElement>(await makeSynced(ann, holder.id, id.toUpperCase()), 201);
    expect(content).toMatchObject({ id, synced: true, parentId: holder.id, path: [holder.id], title: '', type: 'Note', accessLevel: 'full', inTrash: false });
    expect((await pageRow(id))!.in_trash).toBe(SYNCED_CONTENT);
    // Nobody's tree hears of it (a child made is heard).
    await noEvent(socket, 'edit');
    // (Listened for before the page is made: its event may come before the answer.)
    const heard = nextEvent(socket, 'edit');
    await createPage(t, ann, { title: 'Настоящий ребёнок', parentId: holder.id });
    await heard;

    expect(ids(await api(t, ann.cookie, 'GET', `${S}/element/${holder.id}/children`))).not.toContain(id);
    expect(ids(await api(t, ann.cookie, 'GET', `${S}/section/private`))).not.toContain(id);
    // Read by id as any page; no recent of it.
    expect(expectOk<WireElement>(await api(t, ann.cookie, 'GET', `${S}/element/${id}`))).toMatchObject({ id, synced: true });
    expect(ids(await api(t, ann.cookie, 'GET', `${S}/recents`))).not.toContain(id);
    expect(ids(await api(t, ann.cookie, 'GET', `${S}/trash`))).not.toContain(id);
    expect(ids(await api(t, ann.cookie, 'GET', `${S}/search?${jsonQueryString({ q: '', limit: 50 })}`))).not.toContain(id);
    expect(refusal(await api(t, ann.cookie, 'POST', `${S}/element/${id}/addToFavorites`))).toEqual([422, 'page.synced_content']);
    expect(ids(await api(t, ann.cookie, 'GET', `${S}/section/favorite`))).not.toContain(id);

    // Its blocks: made one by one and many at once, read, changed, deleted.
    const first = await made(ann, id, 'text', text('первый'));
    const many = expectOk<Array<{ status: string }>>(
      await api(t, ann.cookie, 'POST', `${S}/blocks/create`, {
        pageId: id,
        blocks: [{ id: newId(), type: 'text', data: text('второй'), placeAfter: first.id }],
      }),
    );
    expect(many.map((m) => m.status)).toEqual(['created']);
    const changed = expectOk<WireBlock>(
      await api(t, ann.cookie, 'POST', `${S}/block/${first.id}`, { version: first.version, type: 'text', data: text('первый!') }),
    );
    expect(changed.version).toBe(first.version + 1);
    expect(await textsOf(ann, id)).toEqual(['первый!', 'второй']);
    expectStatus(await api(t, ann.cookie, 'DELETE', `${S}/block/${first.id}`), 200);
    expect(await textsOf(ann, id)).toEqual(['второй']);
    // The synced block showing it on the holder.
    const instance = await made(ann, holder.id, 'synced', { pageId: id });
    expect(instance.data).toEqual({ pageId: id });
  });

  test('refused: no id or another field (422), a reader or an outsider of the holder (403), an id taken (409), the trash (409), synced content or a row template as the holder (422); nothing made', async () => {
    const holder = await createPage(t, ann, { title: 'Отказы' });
    await share(t, ann, holder.id, [{ userId: bob.id, accessLevel: 'read' }]);
    const before = await snapshot(t);
    expect(refusal(await api(t, ann.cookie, 'POST', `${S}/element/${holder.id}/synced`, {}))).toEqual([422, 'validation_failed']);
    expect(refusal(await api(t, ann.cookie, 'POST', `${S}/element/${holder.id}/synced`, { id: 'нет' }))).toEqual([422, 'validation_failed']);
    expect(refusal(await api(t, ann.cookie, 'POST', `${S}/element/${holder.id}/synced`, { id: newId(), title: 'x' }))).toEqual([422, 'validation_failed']);
    expect(refusal(await makeSynced(bob, holder.id))).toEqual([403, 'forbidden']);
    expect(refusal(await makeSynced(cat, holder.id))).toEqual([403, 'forbidden']);
    expect(refusal(await makeSynced(ann, newId()))).toEqual([404, 'not_found']);
    expect(refusal(await makeSynced(ann, holder.id, holder.id))).toEqual([409, 'page.already_exists']);
    expect(await snapshot(t)).toEqual(before);

    const content = expectOk<WireElement>(await makeSynced(ann, holder.id), 201);
    expect(refusal(await makeSynced(ann, holder.id, content.id))).toEqual([409, 'page.already_exists']);
    expect(refusal(await makeSynced(ann, content.id))).toEqual([422, 'block.synced_nested']);

    // A database's row template holds no synced content.
    const database = await createPage(t, ann, { title: 'База', type: 'Database' });
    const databaseId = (await blocksOf(ann, database.id)).find((b) => b.type === 'database')!.id;
    const template = expectOk<{ id: string }>(await api(t, ann.cookie, 'POST', `${S}/database/${databaseId}/templates`, { title: 'Шаблон' }), 201);
    expect(refusal(await makeSynced(ann, template.id))).toEqual([422, 'database.row_template']);

    expectStatus(await api(t, ann.cookie, 'DELETE', `${S}/element/${holder.id}`), 200);
    expect(refusal(await makeSynced(ann, holder.id))).toEqual([409, 'page.in_trash']);
  });
});

describe('who may read and write it: the holder decides', () => {
  test('a reader of the holder reads the content and its channel, writes nothing (403); one without access to the holder gets 403 everywhere, an editor of another page showing it too', async () => {
    const { holder, content, paragraph } = await holderWithContent('Доступ');
    // Cat edits another page of ann's that shows the same content.
    const other = await createPage(t, ann, { title: 'Вторая страница' });
    await share(t, ann, other.id, [{ userId: cat.id, accessLevel: 'edit' }]);
    await made(ann, other.id, 'synced', { pageId: content.id });

    expect(expectOk<WireElement>(await api(t, bob.cookie, 'GET', `${S}/element/${content.id}`)).accessLevel).toBe('read');
    expect(await textsOf(bob, content.id)).toEqual(['Общий заголовок', 'Общий абзац', 'Вложенный']);
    expect(refusal(await makeBlock(bob, content.id, 'text', text('нет')))).toEqual([403, 'forbidden']);
    expect(refusal(await api(t, bob.cookie, 'POST', `${S}/block/${paragraph.id}`, { version: paragraph.version, type: 'text', data: text('нет') }))).toEqual([
      403,
      'forbidden',
    ]);
    expect(refusal(await api(t, bob.cookie, 'DELETE', `${S}/block/${paragraph.id}`))).toEqual([403, 'forbidden']);
    expect(
      refusal(await api(t, bob.cookie, 'POST', `${S}/blocks/create`, { pageId: content.id, blocks: [{ id: newId(), type: 'text', data: text('нет') }] })),
    ).toEqual([403, 'forbidden']);
    expect(refusal(await makeSynced(bob, holder.id))).toEqual([403, 'forbidden']);

    for (const who of [cat, dan]) {
      expect(refusal(await api(t, who.cookie, 'GET', `${S}/element/${content.id}`))).toEqual([403, 'forbidden']);
      expect(refusal(await api(t, who.cookie, 'GET', `${S}/note/${content.id}/blocks`))).toEqual([403, 'forbidden']);
      expect(refusal(await api(t, who.cookie, 'GET', `${S}/block/${paragraph.id}`))).toEqual([403, 'forbidden']);
      expect(refusal(await makeBlock(who, content.id, 'text', text('нет')))).toEqual([403, 'forbidden']);
      expect(refusal(await api(t, who.cookie, 'POST', `${S}/block/${paragraph.id}`, { version: paragraph.version, type: 'text', data: text('нет') }))).toEqual([
        403,
        'forbidden',
      ]);
    }
    expect(await textsOf(ann, content.id)).toEqual(['Общий заголовок', 'Общий абзац', 'Вложенный']);

    // Its live channel (the web app's inner editor joins it): whoever may read it.
    const readerSocket = await app.connect(bob);
    expect((await request(readerSocket, 'join', { channel: channels.element(content.id, bob.id) })).ok).toBe(true);
    const outsiderSocket: Socket = await app.connect(cat);
    expect((await request(outsiderSocket, 'join', { channel: channels.element(content.id, cat.id) })).ok).toBe(false);
    // A write into it is heard there.
    const heard = nextEvent<{ channel: string }>(readerSocket, 'add', (payload) => payload.channel === `element:${content.id}`);
    await made(ann, content.id, 'text', text('слышно'));
    await heard;
  });
});

describe('what a synced block may name', () => {
  test('422 block.synced_unknown: no page, a page that is no synced content, content of another workspace — by every write; 422 block.synced_nested in synced content', async () => {
    const { holder, content, paragraph, before } = await holderWithContent('Правила');
    const foreignHolder = await createPage(t, dan, { title: 'Чужое' });
    const foreign = expectOk<WireElement>(await makeSynced(dan, foreignHolder.id), 201);
    const snap = await snapshot(t);
    for (const pageId of [newId(), holder.id, foreign.id])
      expect(refusal(await makeBlock(ann, holder.id, 'synced', { pageId }))).toEqual([422, 'block.synced_unknown']);
    expect(refusal(await makeBlock(ann, content.id, 'synced', { pageId: content.id }))).toEqual([422, 'block.synced_nested']);
    // An update turning a block into one.
    expect(
      refusal(await api(t, ann.cookie, 'POST', `${S}/block/${before.id}`, { version: before.version, type: 'synced', data: { pageId: newId() } })),
    ).toEqual([422, 'block.synced_unknown']);
    expect(
      refusal(await api(t, ann.cookie, 'POST', `${S}/block/${paragraph.id}`, { version: paragraph.version, type: 'synced', data: { pageId: content.id } })),
    ).toEqual([422, 'block.synced_nested']);
    expect(await snapshot(t)).toEqual(snap);
    // Many at once: the one refused is answered so, the rest made.
    const outcomes = expectOk<Array<{ status: string; error?: { status: number; code: string } }>>(
      await api(t, ann.cookie, 'POST', `${S}/blocks/create`, {
        pageId: content.id,
        blocks: [
          { id: newId(), type: 'synced', data: { pageId: content.id } },
          { id: newId(), type: 'text', data: text('рядом') },
        ],
      }),
    );
    expect(outcomes.map((o) => [o.status, o.error?.code])).toEqual([
      ['refused', 'block.synced_nested'],
      ['created', undefined],
    ]);
    // A revive (an undone delete) is a write too.
    const deleted = await made(ann, holder.id, 'text', text('удалю'));
    expectStatus(await api(t, ann.cookie, 'DELETE', `${S}/block/${deleted.id}`), 200);
    expect(refusal(await api(t, ann.cookie, 'POST', `${S}/block`, { id: deleted.id, pageId: holder.id, type: 'synced', data: { pageId: newId() } }))).toEqual([
      422,
      'block.synced_unknown',
    ]);
  });

  test('a second page of the workspace shows the same content; a page of another workspace may not', async () => {
    const { content } = await holderWithContent('Источник');
    const second = await createPage(t, ann, { title: 'Ещё одна' });
    const instance = await made(ann, second.id, 'synced', { pageId: content.id.toUpperCase() });
    expect(instance.data).toEqual({ pageId: content.id });
    const elsewhere = await createPage(t, ann, { title: 'В другом пространстве', workspaceId: dan.workspaceId });
    expect(refusal(await makeBlock(ann, elsewhere.id, 'synced', { pageId: content.id }))).toEqual([422, 'block.synced_unknown']);
  });
});

describe('a page-level change of the content', () => {
  test('422 page.synced_content: rename, publish, move, reorder, trash, restore, delete, share, copy, children, a page moved or copied under it; nothing changes', async () => {
    const { content } = await holderWithContent('Только блоки');
    const loose = await createPage(t, ann, { title: 'Свободная' });
    const snap = await snapshot(t);
    const calls: Array<[string, string, unknown?]> = [
      ['PATCH', `${S}/element/${content.id}`, { title: 'Имя' }],
      ['PATCH', `${S}/element/${content.id}`, { isPublic: true }],
      ['POST', `${S}/element/${content.id}/move`, { dst: 'private' }],
      ['POST', `${S}/element/${content.id}/placeAfter`, { placeAfter: null }],
      ['DELETE', `${S}/element/${content.id}`],
      ['POST', `${S}/trash/${content.id}/restore`],
      ['POST', `${S}/trash/${content.id}/remove`],
      ['POST', `${S}/element/${content.id}/member/add`, [{ userId: cat.id, accessLevel: 'read' }]],
      ['POST', `${S}/element/${content.id}/member/access`, { userId: bob.id, accessLevel: 'edit' }],
      ['POST', `${S}/element/${content.id}/member/remove`, { userId: bob.id }],
      ['POST', `${S}/element/${content.id}/page/clone`, { workspaceId: ann.workspaceId }],
      ['POST', `${S}/element/${content.id}/children`, { title: 'Ребёнок' }],
      ['POST', `${S}/element/${content.id}/addToFavorites`],
      ['POST', `${S}/element/${loose.id}/move`, { dst: content.id }],
      ['POST', `${S}/element/${loose.id}/page/clone`, { workspaceId: ann.workspaceId, toElement: content.id }],
    ];
    for (const [method, url, payload] of calls)
      expect([method, url, refusal(await api(t, ann.cookie, method, url, payload))]).toEqual([method, url, [422, 'page.synced_content']]);
    const imported = await postImport(t, ann.cookie, new TextEncoder().encode('<p>импорт</p>'), { parentId: content.id }, 'page.html');
    expect(refusal(imported)).toEqual([422, 'page.synced_content']);
    expect(await snapshot(t)).toEqual(snap);
  });
});

describe('anyone reading a published page', () => {
  const publicRead = (id: string) => t.app.inject({ method: 'GET', url: `${S}/element/public/${id}` });
  test('the content is public while its holder is (and not in the trash); a published page elsewhere does not make it so', async () => {
    const { holder, content } = await holderWithContent('Опубликованный держатель', 'Для всех');
    // Not published: nobody outside reads it.
    expect((await publicRead(content.id)).statusCode).toBe(404);
    // Another page of ann's, published, showing the same synced block: still not public (it follows its holder).
    const elsewhere = await createPage(t, ann, { title: 'Опубликована, но не держатель' });
    await made(ann, elsewhere.id, 'synced', { pageId: content.id });
    expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${elsewhere.id}`, { isPublic: true }));
    expect((await publicRead(content.id)).statusCode).toBe(404);
    // The holder published: its content is read anonymously, read-only, with its blocks.
    expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${holder.id}`, { isPublic: true }));
    const res = await publicRead(content.id);
    expect(res.statusCode).toBe(200);
    const answer = JSON.parse(res.body) as { data: WireElement; included: Array<{ contentType: string; data?: { tokens?: Array<{ text: string }> } }> };
    expect(answer.data).toMatchObject({ id: content.id, synced: true, accessLevel: 'read', createdBy: '' });
    expect(answer.included.filter((x) => x.contentType === 'Block').map((b) => b.data?.tokens?.[0]?.text)).toEqual([
      'Общий заголовок',
      'Для всех',
      'Вложенный',
    ]);
    // The holder in the trash: not public any more.
    expectStatus(await api(t, ann.cookie, 'DELETE', `${S}/element/${holder.id}`), 200);
    expect((await publicRead(content.id)).statusCode).toBe(404);
  });

  test('GET element of the content says inTrash while its holder is in the trash (the editor is read-only then)', async () => {
    const { holder, content } = await holderWithContent('Читаем из корзины');
    expect(expectOk<WireElement>(await api(t, bob.cookie, 'GET', `${S}/element/${content.id}`))).toMatchObject({
      synced: true,
      inTrash: false,
      accessLevel: 'read',
    });
    expectStatus(await api(t, ann.cookie, 'DELETE', `${S}/element/${holder.id}`), 200);
    expect(expectOk<WireElement>(await api(t, ann.cookie, 'GET', `${S}/element/${content.id}`))).toMatchObject({ synced: true, inTrash: true });
    expectStatus(await api(t, ann.cookie, 'POST', `${S}/trash/${holder.id}/restore`), 200);
    expect(expectOk<WireElement>(await api(t, ann.cookie, 'GET', `${S}/element/${content.id}`))).toMatchObject({ inTrash: false });
  });
});

describe('the content follows its holder', () => {
  test('the holder in the trash: the content stays hidden, reads work, writes are 409; restored, writable again; moved, its path follows', async () => {
    const { holder, content, paragraph, nested } = await holderWithContent('В корзину');
    // Typed into first (the update's cache learns the content is writable), then the holder goes to the trash.
    const typed = expectOk<WireBlock>(
      await api(t, ann.cookie, 'POST', `${S}/block/${nested.id}`, { version: nested.version, type: 'text', data: text('Вложенный') }),
    );
    expectStatus(await api(t, ann.cookie, 'DELETE', `${S}/element/${holder.id}`), 200);
    expect((await pageRow(content.id))!.in_trash).toBe(SYNCED_CONTENT);
    expect(ids(await api(t, ann.cookie, 'GET', `${S}/trash`))).toEqual(expect.arrayContaining([holder.id]));
    expect(ids(await api(t, ann.cookie, 'GET', `${S}/trash`))).not.toContain(content.id);
    expect(await textsOf(ann, content.id)).toEqual(['Общий заголовок', 'Общий абзац', 'Вложенный']);
    expect(await textsOf(bob, content.id)).toEqual(['Общий заголовок', 'Общий абзац', 'Вложенный']);
    const snap = await snapshot(t);
    expect(refusal(await makeBlock(ann, content.id, 'text', text('нет')))).toEqual([409, 'page.in_trash']);
    expect(
      refusal(await api(t, ann.cookie, 'POST', `${S}/blocks/create`, { pageId: content.id, blocks: [{ id: newId(), type: 'text', data: text('нет') }] })),
    ).toEqual([409, 'page.in_trash']);
    expect(refusal(await api(t, ann.cookie, 'POST', `${S}/block/${paragraph.id}`, { version: paragraph.version, type: 'text', data: text('нет') }))).toEqual([
      409,
      'page.in_trash',
    ]);
    expect(refusal(await api(t, ann.cookie, 'POST', `${S}/block/${nested.id}`, { version: typed.version, type: 'text', data: text('нет') }))).toEqual([
      409,
      'page.in_trash',
    ]);
    expect(refusal(await api(t, ann.cookie, 'DELETE', `${S}/block/${paragraph.id}`))).toEqual([409, 'page.in_trash']);
    expect(refusal(await api(t, ann.cookie, 'POST', `${S}/blocks/delete`, { pageId: content.id, blocks: [{ id: paragraph.id }] }))).toEqual([
      409,
      'page.in_trash',
    ]);
    expect(refusal(await api(t, ann.cookie, 'POST', `${S}/element/${content.id}/comments`, { content: [{ text: 'нет' }] }))).toEqual([409, 'page.in_trash']);
    // A reader is told 403 first.
    expect(refusal(await makeBlock(bob, content.id, 'text', text('нет')))).toEqual([403, 'forbidden']);
    expect(await snapshot(t)).toEqual(snap);

    expectStatus(await api(t, ann.cookie, 'POST', `${S}/trash/${holder.id}/restore`), 200);
    expect((await pageRow(content.id))!.in_trash).toBe(SYNCED_CONTENT);
    expectOk(await api(t, ann.cookie, 'POST', `${S}/block/${paragraph.id}`, { version: paragraph.version, type: 'text', data: text('Снова пишется') }));
    await made(ann, content.id, 'text', text('и ещё'));

    const parent = await createPage(t, ann, { title: 'Новое место' });
    expectStatus(await api(t, ann.cookie, 'POST', `${S}/element/${holder.id}/move`, { dst: parent.id }), 200);
    expect(expectOk<WireElement>(await api(t, ann.cookie, 'GET', `${S}/element/${content.id}`)).path).toEqual([parent.id, holder.id]);
  });

  test('the holder deleted for good: the content goes with it (404)', async () => {
    const { holder, content } = await holderWithContent('Навсегда');
    expectStatus(await api(t, ann.cookie, 'DELETE', `${S}/element/${holder.id}`), 200);
    const removed = body(expectStatus(await api(t, ann.cookie, 'POST', `${S}/trash/${holder.id}/remove`), 200));
    expect(removed.meta).toMatchObject({ removedPages: 2 });
    expect(refusal(await api(t, ann.cookie, 'GET', `${S}/element/${content.id}`))).toEqual([404, 'not_found']);
    expect(await t.app.db.selectFrom('blocks').select('id').where('page_id', '=', content.id).execute()).toEqual([]);
  });

  test('a copy of the holder in its workspace names the same content (still synced); into another workspace the content is copied along', async () => {
    const { holder, content } = await holderWithContent('Копия');
    const copy = body<WireElement>(
      expectStatus(await api(t, ann.cookie, 'POST', `${S}/element/${holder.id}/page/clone`, { workspaceId: ann.workspaceId }), 201),
    );
    expect(copy.meta).toMatchObject({ clonedPages: 1 });
    const copied = await blocksOf(ann, copy.data.id);
    expect(copied.find((b) => b.type === 'synced')!.data).toEqual({ pageId: content.id });
    expect(await t.app.db.selectFrom('pages').select('id').where('parent_id', '=', copy.data.id).execute()).toEqual([]);

    // Another page showing the content too, copied into dan's workspace with the holder under it.
    const shows = await createPage(t, ann, { title: 'Показывает' });
    await made(ann, shows.id, 'synced', { pageId: content.id });
    const away = expectOk<WireElement>(await api(t, ann.cookie, 'POST', `${S}/element/${shows.id}/page/clone`, { workspaceId: dan.workspaceId }), 201);
    const awayContent = (await blocksOf(ann, away.id)).find((b) => b.type === 'synced')!.data as { pageId: string };
    expect(awayContent.pageId).not.toBe(content.id);
    expect(await pageRow(awayContent.pageId)).toMatchObject({ workspace_id: dan.workspaceId, parent_id: away.id, in_trash: SYNCED_CONTENT });
    expect(await textsOf(ann, awayContent.pageId)).toEqual(['Общий заголовок', 'Общий абзац', 'Вложенный']);
    const holderAway = expectOk<WireElement>(await api(t, ann.cookie, 'POST', `${S}/element/${holder.id}/page/clone`, { workspaceId: dan.workspaceId }), 201);
    const [syncedAway] = await t.app.db.selectFrom('pages').selectAll().where('parent_id', '=', holderAway.id).execute();
    expect(syncedAway).toMatchObject({ workspace_id: dan.workspaceId, in_trash: SYNCED_CONTENT });
    expect((await blocksOf(ann, holderAway.id)).find((b) => b.type === 'synced')!.data).toEqual({ pageId: syncedAway.id });
    // Still no child in the copy's tree.
    expect(ids(await api(t, ann.cookie, 'GET', `${S}/element/${holderAway.id}/children`))).toEqual([]);
  });
});

describe('exports, imports', () => {
  const unzip = (raw: Buffer) => unzipSync(new Uint8Array(raw));
  const exported = async (who: Actor, pageId: string, format: string) =>
    unzip(expectStatus(await api(t, who.cookie, 'GET', `${S}/element/${pageId}/export?${jsonQueryString({ format })}`), 200).rawPayload);

  test('Markdown, HTML and JSON write the content in the synced block’s place; nothing for an exporter who may not read it', async () => {
    const { holder, content } = await holderWithContent('Экспорт');
    const markdown = strFromU8((await exported(ann, holder.id, 'markdown'))['Экспорт.md']);
    expect(markdown).toBe('# Экспорт\n\nдо\n\n## Общий заголовок\n\nОбщий абзац\n\n    Вложенный\n\nпосле\n');
    const html = strFromU8((await exported(ann, holder.id, 'html'))['Экспорт.html']);
    expect(html).toMatch(/до<\/p>[\s\S]*Общий заголовок[\s\S]*Общий абзац[\s\S]*Вложенный[\s\S]*после/);
    expect(html).not.toContain('data-synced-block');
    const json = JSON.parse(strFromU8((await exported(ann, holder.id, 'json'))['export.json'])) as JsonExport;
    const blocks = json.pages[0].blocks;
    expect(blocks.map((b) => [b.type, b.parentId === null])).toEqual([
      ['text', true],
      ['heading2', true],
      ['text', true],
      ['text', false],
      ['text', true],
    ]);
    expect(blocks[3].parentId).toBe(blocks[2].id);
    expect(blocks.some((b) => b.type === 'synced')).toBe(false);

    // Cat edits a page showing it, but may not read the holder: nothing in its place.
    const other = await createPage(t, ann, { title: 'Чужими глазами' });
    await share(t, ann, other.id, [{ userId: cat.id, accessLevel: 'edit' }]);
    await made(ann, other.id, 'text', text('одно'));
    await made(ann, other.id, 'synced', { pageId: content.id }, (await blocksOf(ann, other.id))[0].id);
    expect(strFromU8((await exported(cat, other.id, 'markdown'))['Чужими глазами.md'])).toBe('# Чужими глазами\n\nодно\n');
    // The same content twice on one page: twice, with ids of its own the second time.
    await made(ann, other.id, 'synced', { pageId: content.id });
    const twice = JSON.parse(strFromU8((await exported(ann, other.id, 'json'))['export.json'])) as JsonExport;
    const ids = twice.pages[0].blocks.map((b) => b.id);
    expect(ids).toHaveLength(7);
    expect(new Set(ids).size).toBe(7);
  });

  test('an import keeps a synced block naming content of its workspace and leaves out, reported, one naming anything else', async () => {
    const { content } = await holderWithContent('Для импорта');
    const place = await createPage(t, ann, { title: 'Сюда' });
    const html = `<p>до</p><div data-synced-block="${content.id}"></div><div data-synced-block="${newId()}"></div><p>после</p>`;
    const answer = body<{ page: { id: string }; problems: Array<{ code: string; params: Record<string, unknown> }> }>(
      expectStatus(await postImport(t, ann.cookie, new TextEncoder().encode(html), { parentId: place.id }, 'страница.html'), 201),
    ).data;
    expect(answer.problems.map((p) => [p.code, p.params.type])).toEqual([['blockUnfit', 'synced']]);
    const blocks = await blocksOf(ann, answer.page.id);
    expect(blocks.map((b) => b.type)).toEqual(['text', 'synced', 'text']);
    expect(blocks[1].data).toEqual({ pageId: content.id });
  });
});

describe('search', () => {
  const find = async (who: Actor, q: string) =>
    body<WireSearchHit[]>(
      expectStatus(await api(t, who.cookie, 'GET', `${S}/search/text?${jsonQueryString({ q })}`, undefined, { 'x-workspace-id': ann.workspaceId }), 200),
    ).data;
  async function found(who: Actor, q: string, wanted: number): Promise<WireSearchHit[]> {
    const started = Date.now();
    for (;;) {
      const hits = await find(who, q);
      if (hits.length >= wanted || Date.now() - started > 3_000) return hits;
      await sleep(25);
    }
  }

  test('text typed in synced content is found as the page it was made on, by whoever may read it; a page showing it elsewhere is not the answer', async () => {
    const { holder, content, paragraph } = await holderWithContent('Поисковый держатель', 'Звездолёт прилетел');
    const second = await createPage(t, ann, { title: 'Другая с тем же' });
    await share(t, ann, second.id, [{ userId: cat.id, accessLevel: 'edit' }]);
    await made(ann, second.id, 'synced', { pageId: content.id });
    const hits = await found(ann, 'звездолёт', 1);
    expect(hits.map((h) => [h.page.id, h.match.kind, h.match.blockId])).toEqual([[holder.id, 'block', paragraph.id]]);
    expect((await found(bob, 'звездолёт', 1)).map((h) => h.page.id)).toEqual([holder.id]);
    expect(await find(cat, 'звездолёт')).toEqual([]);
    // Edited: the new words are found, the old ones gone.
    expectOk(await api(t, ann.cookie, 'POST', `${S}/block/${paragraph.id}`, { version: paragraph.version, type: 'text', data: text('Луноход уехал') }));
    expect((await found(ann, 'луноход', 1)).map((h) => h.page.id)).toEqual([holder.id]);
    expect(await find(ann, 'звездолёт')).toEqual([]);
  });
});

describe('reminders', () => {
  test('a reminder in synced content is listed and told as the holder’s; not while the holder is in the trash', async () => {
    const { holder, content } = await holderWithContent('Напоминание');
    const at = new Date(Date.now() + 3_600_000);
    const block = await made(ann, content.id, 'text', {
      tokens: [{ text: 'Созвон ' }, { text: '11 декабря', date: { start: '2026-12-11', remindAt: at.toISOString() } }],
    });
    const listed = async () => expectOk<WireReminder[]>(await api(t, ann.cookie, 'GET', `${S}/reminders`)).filter((r) => r.blockId === block.id);
    expect((await listed()).map((r) => r.pageId)).toEqual([holder.id]);
    const delivery = {
      mailer: t.mailer,
      publicUrl: 'https://wiki.example.com/',
      dispatch: () => undefined,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    };
    expectStatus(await api(t, ann.cookie, 'DELETE', `${S}/element/${holder.id}`), 200);
    expect(await listed()).toEqual([]);
    expect(await sendDueReminders(t.app.db, delivery, new Date(at.getTime() + 1_000))).toBe(0);

    const later = new Date(Date.now() + 7_200_000);
    expectStatus(await api(t, ann.cookie, 'POST', `${S}/trash/${holder.id}/restore`), 200);
    const again = await made(ann, content.id, 'text', {
      tokens: [{ text: 'Ещё ' }, { text: '12 декабря', date: { start: '2026-12-12', remindAt: later.toISOString() } }],
    });
    const mails = t.mailer.messages.length;
    expect(await sendDueReminders(t.app.db, delivery, new Date(later.getTime() + 1_000))).toBe(1);
    const [mail] = t.mailer.messages.slice(mails);
    expect(mail.text).toContain(`/${holder.id}?block=${again.id}`);
    expect(mail.text).toContain('«Напоминание»');
  });
});
