import { setTimeout as sleep } from 'node:timers/promises';
import type { Socket } from 'socket.io-client';
import type { WireBlock } from '../../schema/block';
import type { WirePageVersion, WireVersionContent } from '../../schema/history';
import { channels, REALTIME_ERRORS, REALTIME_EVENTS, type ElementVersionRecorded, type RealtimeErrorBody } from '../../schema/realtime';
import { collect, connectRealtime, nextEvent, noEvent, request, until } from '../../test/helpers/realtimeClient';
import { api, body, createTestApp, expectOk, testDb, type TestApp } from '../../test/helpers/testApp';
import { actor, createPage, share, type Actor } from '../../test/helpers/pages';
import { forgetOld, recordDue } from '../history/historian';
import { blocksAt } from '../history/versions';

/*
 * Page history (issue 18, docs/history.md) on SQLite and PostgreSQL: versions recorded by the
 * server's own historian after a pause in editing and while editing goes on, keeping only the
 * blocks they changed; a version's page and its changes; a restore (itself a version, undone by
 * restoring the one before it); who may do what; old versions forgotten without changing what
 * the versions kept show.
 */

let t: TestApp;
let owner: Actor;
let reader: Actor;
let outsider: Actor;
let baseUrl: string;
const sockets: Socket[] = [];
const S = '/api/v3/spaces';
const PAUSE_MS = 300;

beforeAll(async () => {
  t = await createTestApp({ sendCodeLimitPerIp: 10_000, historyPauseMs: PAUSE_MS, historyMaxMs: 1_500, searchIndexIntervalMs: 50 });
  owner = await actor(t, 'history-owner@example.com');
  reader = await actor(t, 'history-reader@example.com');
  outsider = await actor(t, 'history-outsider@example.com');
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await t.close();
});

const text = (value: string) => ({ tokens: [{ text: value }] });
const add = async (pageId: string, value: string, placeAfter: string | null = null) =>
  expectOk<WireBlock>(await api(t, owner.cookie, 'POST', `${S}/block`, { pageId, type: 'text', data: text(value), placeAfter }), 201);
/** Blocks of these texts, one after another at the page's start, made in one request (POST blocks/create). */
const addMany = async (pageId: string, values: readonly string[]): Promise<WireBlock[]> => {
  const ids = values.map(() => crypto.randomUUID());
  const made = expectOk<Array<{ status: string; block: WireBlock }>>(
    await api(t, owner.cookie, 'POST', `${S}/blocks/create`, {
      pageId,
      blocks: values.map((value, i) => ({ id: ids[i], type: 'text', data: text(value), placeAfter: i === 0 ? null : ids[i - 1] })),
    }),
  );
  expect(made.map((m) => m.status)).toEqual(values.map(() => 'created'));
  return made.map((m) => m.block);
};
const write = async (block: WireBlock, value: string) =>
  expectOk<WireBlock>(await api(t, owner.cookie, 'POST', `${S}/block/${block.id}`, { version: block.version, type: 'text', data: text(value) }));
const versions = async (pageId: string, who: Actor = owner) => expectOk<WirePageVersion[]>(await api(t, who.cookie, 'GET', `${S}/element/${pageId}/versions`));
const content = async (pageId: string, versionId: number, who: Actor = owner) =>
  expectOk<WireVersionContent>(await api(t, who.cookie, 'GET', `${S}/element/${pageId}/versions/${versionId}`));
const texts = (blocks: Array<{ data: unknown }>) =>
  blocks.map((b) => ((b.data as { tokens?: Array<{ text: string }> }).tokens ?? []).map((tok) => tok.text).join(''));
const liveTexts = async (pageId: string) =>
  texts(body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${pageId}/blocks`)).data.filter((b) => b.type === 'text'));

/** Polls until the page has `count` versions (at most 5 s). */
async function versionsReach(pageId: string, count: number): Promise<WirePageVersion[]> {
  const started = Date.now();
  for (;;) {
    const list = await versions(pageId);
    if (list.length >= count) return list;
    if (Date.now() - started > 5_000) throw new Error(`${list.length} versions, not ${count}`);
    await sleep(50);
  }
}

describe('versions are recorded as people edit', () => {
  test('after a pause: the first holds the page, the next only the blocks changed since; authors and times', async () => {
    const page = await createPage(t, owner, { title: 'Дневник' });
    // The 30 blocks in one request: one by one, a loaded run paused past PAUSE_MS between two and
    // the first version held 7 of them.
    const blocks = await addMany(
      page.id,
      Array.from({ length: 30 }, (_, i) => `Строка ${i}`),
    );
    const [first] = await versionsReach(page.id, 1);
    expect(first).toMatchObject({ title: 'Дневник', kind: 'edit', restoredFrom: null, authors: [{ id: owner.id }] });
    expect(first.changed).toBe(30);
    // One block changed: the next version keeps that one.
    await write(blocks[7], 'Строка семь, исправленная');
    const [second] = await versionsReach(page.id, 2);
    expect(second.changed).toBe(1);
    const rows = await t.app.db.selectFrom('page_version_blocks').select('block_id').where('version_id', '=', second.id).execute();
    expect(rows.map((r) => r.block_id)).toEqual([blocks[7].id]);
    // Each version's page, whole, in document order; and what it changed.
    const before = await content(page.id, first.id);
    expect(texts(before.blocks).slice(6, 9)).toEqual(['Строка 6', 'Строка 7', 'Строка 8']);
    const after = await content(page.id, second.id);
    expect(texts(after.blocks).slice(6, 9)).toEqual(['Строка 6', 'Строка семь, исправленная', 'Строка 8']);
    expect(after.changes).toEqual([{ blockId: blocks[7].id, kind: 'changed', before: expect.objectContaining({ id: blocks[7].id, data: text('Строка 7') }) }]);
    // Nothing more changed: no more versions.
    await sleep(PAUSE_MS * 3);
    expect(await versions(page.id)).toHaveLength(2);
    // Recorded now (the history panel opening), without waiting for a pause: only when something changed.
    expect(expectOk<{ recorded: WirePageVersion | null }>(await api(t, owner.cookie, 'POST', `${S}/element/${page.id}/versions`)).recorded).toBeNull();
    await write(blocks[8], 'Строка восемь, сейчас');
    const now = expectOk<{ recorded: WirePageVersion | null }>(await api(t, owner.cookie, 'POST', `${S}/element/${page.id}/versions`)).recorded;
    expect(now).toMatchObject({ kind: 'edit', changed: 1 });
    expect((await api(t, outsider.cookie, 'POST', `${S}/element/${page.id}/versions`)).statusCode).toBe(403);
  });

  test('while editing goes on without a pause, a version every HISTORY_MAX_MS', async () => {
    const page = await createPage(t, owner, { title: 'Поток' });
    let block = await add(page.id, 'a');
    const started = Date.now();
    for (let i = 0; Date.now() - started < 2_600; i++) {
      block = await write(block, `правка ${i}`);
      await sleep(100);
    }
    // Never a pause of 300 ms in 2.6 s, yet versions were made along the way (1.5 s apart at most).
    expect((await versions(page.id)).length).toBeGreaterThanOrEqual(1);
    await versionsReach(page.id, 2);
  });
});

describe('a restore', () => {
  test('brings blocks back (changed, deleted, added since), and the title; it is a version itself, undone by restoring the one before', async () => {
    const page = await createPage(t, owner, { title: 'План' });
    const a = await add(page.id, 'Первый');
    const b = await add(page.id, 'Второй', a.id);
    const [v1] = await versionsReach(page.id, 1);
    await write(a, 'Первый, переписанный');
    expectOk(await api(t, owner.cookie, 'DELETE', `${S}/block/${b.id}`));
    await add(page.id, 'Третий, новый', a.id);
    expectOk(await api(t, owner.cookie, 'PATCH', `${S}/element/${page.id}`, { title: 'План на неделю' }));
    await versionsReach(page.id, 2);
    expect(await liveTexts(page.id)).toEqual(['Первый, переписанный', 'Третий, новый']);

    const restored = expectOk<{ version: WirePageVersion; edited: number; added: number; removed: number }>(
      await api(t, owner.cookie, 'POST', `${S}/element/${page.id}/versions/${v1.id}/restore`),
    );
    expect(restored.version).toMatchObject({ kind: 'restore', restoredFrom: v1.id, authors: [{ id: owner.id }] });
    expect([restored.edited, restored.added, restored.removed]).toEqual([1, 1, 1]);
    expect(await liveTexts(page.id)).toEqual(['Первый', 'Второй']);
    expect(body<{ title: string }>(await api(t, owner.cookie, 'GET', `${S}/element/${page.id}`)).data.title).toBe('План');
    // Undone: the version before the restore holds the page as it was.
    const list = await versions(page.id);
    const beforeRestore = list.find((v) => v.id < restored.version.id && v.kind === 'edit')!;
    expectOk(await api(t, owner.cookie, 'POST', `${S}/element/${page.id}/versions/${beforeRestore.id}/restore`));
    expect(await liveTexts(page.id)).toEqual(['Первый, переписанный', 'Третий, новый']);
    expect(body<{ title: string }>(await api(t, owner.cookie, 'GET', `${S}/element/${page.id}`)).data.title).toBe('План на неделю');
  });
});

describe("live: versionRecorded on the page's element channel", () => {
  /** A socket of `who` in the page's element channel (the join refused: its error). */
  async function onPage(who: Actor, pageId: string): Promise<{ socket: Socket; refused?: RealtimeErrorBody }> {
    const socket = await connectRealtime(baseUrl, { cookie: who.cookie });
    sockets.push(socket);
    const answer = await request(socket, REALTIME_EVENTS.join, { channel: channels.element(pageId, who.id) });
    return { socket, refused: answer.ok ? undefined : answer.error };
  }
  const recorded = (socket: Socket, pageId: string, accept: (v: WirePageVersion) => boolean = () => true) =>
    nextEvent<ElementVersionRecorded>(socket, REALTIME_EVENTS.versionRecorded, (e) => e.channel === `element:${pageId}` && accept(e.version));

  test("the historian's versions, the panel's POST and a restore reach every reader on the page, as the list shows them", async () => {
    const page = await createPage(t, owner, { title: 'Живая история' });
    await share(t, owner, page.id, [{ userId: reader.id, accessLevel: 'read' }]);
    const mine = await onPage(owner, page.id);
    const theirs = await onPage(reader, page.id);
    expect([mine.refused, theirs.refused]).toEqual([undefined, undefined]);
    // The historian, after a pause in editing.
    // The version holding the block (on a loaded run the page's making may be recorded first, its
    // pause over while the sockets joined).
    const holding = (v: WirePageVersion) => v.changed > 0;
    const heard = [recorded(mine.socket, page.id, holding), recorded(theirs.socket, page.id, holding)];
    const a = await add(page.id, 'Первая строка');
    const [first, seen] = await Promise.all(heard);
    const [listed] = await versions(page.id);
    expect(first).toEqual({ channel: `element:${page.id}`, pageId: page.id, at: expect.any(String), version: listed });
    expect(seen.version).toEqual(listed);
    expect(listed).toMatchObject({ kind: 'edit', changed: 1, authors: [{ id: owner.id }] });
    // The history panel opening records the page as it is now (before the historian's pause).
    await write(a, 'Первая строка, правка');
    const posted = recorded(theirs.socket, page.id);
    const now = expectOk<{ recorded: WirePageVersion | null }>(await api(t, owner.cookie, 'POST', `${S}/element/${page.id}/versions`)).recorded;
    expect((await posted).version).toEqual(now);
    // A restore: the page before it (edited since its last version), then the restore itself.
    // (Heard from before the edit: the historian may record it before the restore does.)
    const all = collect<ElementVersionRecorded>(theirs.socket, REALTIME_EVENTS.versionRecorded);
    await add(page.id, 'Вторая', a.id);
    const restored = expectOk<{ version: WirePageVersion }>(
      await api(t, owner.cookie, 'POST', `${S}/element/${page.id}/versions/${first.version.id}/restore`),
    ).version;
    await until(() => all.some((e) => e.version.id === restored.id), 5000, 'the restore heard');
    const list = await versions(page.id);
    expect(all.map((e) => e.version)).toEqual([list[1], list[0]]);
    expect(list[0]).toEqual(restored);
    expect(list[1]).toMatchObject({ kind: 'edit', authors: [{ id: owner.id }] });
    // Nothing is announced when nothing was recorded.
    const none = await api(t, owner.cookie, 'POST', `${S}/element/${page.id}/versions`);
    expect(expectOk<{ recorded: WirePageVersion | null }>(none).recorded).toBeNull();
    await noEvent(theirs.socket, REALTIME_EVENTS.versionRecorded, () => true, PAUSE_MS * 3);
  });

  test("the historian tells of a version from inside its transaction, under the page's lock, before it records (its announcement's place in the page's order), and of the version after the commit", async () => {
    const page = await createPage(t, owner, { title: 'Очередь' });
    await versionsReach(page.id, 1);
    // Renamed; once the search indexer has taken the change (and noted the page for the historian),
    // the page is queued with times in the future: the server's own historian leaves it be.
    await t.app.db.updateTable('pages').set({ title: 'Очередь, правка' }).where('id', '=', page.id).execute();
    const queued = async () => (await t.app.db.selectFrom('history_queue').select('page_id').where('page_id', '=', page.id).executeTakeFirst()) !== undefined;
    const indexed = async () =>
      (await t.app.db.selectFrom('search_queue').select('target').where('target', '=', `p:${page.id}`).executeTakeFirst()) === undefined;
    await until(async () => (await indexed()) && (await queued()), 5000, 'the rename indexed and noted');
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const queueInFuture = () =>
      t.app.db
        .insertInto('history_queue')
        .values({ page_id: page.id, first_at: future, last_at: future })
        .onConflict((oc) => oc.column('page_id').doUpdateSet({ first_at: future, last_at: future }))
        .execute();
    // Only this page is due in the round (other tests' pages would record first).
    await t.app.db.deleteFrom('history_queue').where('page_id', '!=', page.id).execute();
    await queueInFuture();
    // What the historian's transaction asks of the database, in order, and when it tells.
    const steps: string[] = [];
    const watched = t.app.db.withPlugin({
      transformQuery: ({ node }) => {
        steps.push(node.kind === 'RawNode' ? 'raw' : node.kind === 'InsertQueryNode' ? `insert ${node.into?.table.identifier.name ?? ''}` : node.kind);
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const timing = { pauseMs: PAUSE_MS, maxMs: 1_500, days: 30 };
    await recordDue(watched, timing, Date.now() + 7_200_000, (pageId) => {
      steps.push(`told of ${pageId === page.id ? 'the page' : pageId}`);
      return (versionId) => steps.push(`version ${versionId === null ? 'none' : typeof versionId}`);
    });
    const told = steps.indexOf('told of the page');
    expect(told).toBeGreaterThan(0);
    expect(told).toBeLessThan(steps.indexOf('insert page_versions'));
    if (testDb() === 'postgres') expect(steps.indexOf('raw')).toBeLessThan(told); // pg_advisory_xact_lock
    expect(steps.slice(-2)).toEqual(['DeleteQueryNode', 'version number']);
    expect((await versions(page.id))[0]).toMatchObject({ title: 'Очередь, правка' });
    // Nothing changed since: told, and told that nothing was recorded.
    await queueInFuture();
    steps.length = 0;
    await recordDue(watched, timing, Date.now() + 7_200_000, () => (versionId) => steps.push(`version ${versionId === null ? 'none' : typeof versionId}`));
    expect(steps.at(-1)).toBe('version none');
  });

  test('denied: who may not read the page cannot join to hear it, and a reader whose access is taken away hears no more', async () => {
    const page = await createPage(t, owner, { title: 'Закрытая история' });
    await share(t, owner, page.id, [{ userId: reader.id, accessLevel: 'read' }]);
    const stranger = await onPage(outsider, page.id);
    expect(stranger.refused?.code).toBe(REALTIME_ERRORS.forbidden);
    const formerReader = await onPage(reader, page.id);
    expect(formerReader.refused).toBeUndefined();
    const errors = collect<RealtimeErrorBody>(formerReader.socket, REALTIME_EVENTS.error);
    expectOk(await api(t, owner.cookie, 'POST', `${S}/element/${page.id}/member/remove`, { userId: reader.id }));
    await until(() => errors.some((e) => e.code === REALTIME_ERRORS.accessRevoked), 3000, 'access taken away (107)');
    const watcher = await onPage(owner, page.id);
    const strangerHeard = collect(stranger.socket, REALTIME_EVENTS.versionRecorded);
    const readerHeard = collect(formerReader.socket, REALTIME_EVENTS.versionRecorded);
    // The historian's version and the panel's POST: the owner hears both, they nothing.
    const byHistorian = recorded(watcher.socket, page.id);
    const a = await add(page.id, 'секрет');
    await byHistorian;
    await write(a, 'секрет, правка');
    const byPost = recorded(watcher.socket, page.id);
    expectOk(await api(t, owner.cookie, 'POST', `${S}/element/${page.id}/versions`));
    await byPost;
    await sleep(200);
    expect([strangerHeard, readerHeard]).toEqual([[], []]);
  });
});

describe('who may', () => {
  test('a reader lists and opens versions but may not restore; an outsider gets nothing; unknown versions are 404', async () => {
    const page = await createPage(t, owner, { title: 'Общий' });
    await add(page.id, 'текст');
    const [v1] = await versionsReach(page.id, 1);
    await share(t, owner, page.id, [{ userId: reader.id, accessLevel: 'read' }]);
    expect(await versions(page.id, reader)).toHaveLength(1);
    expect(texts((await content(page.id, v1.id, reader)).blocks)).toEqual(['текст']);
    const refused = await api(t, reader.cookie, 'POST', `${S}/element/${page.id}/versions/${v1.id}/restore`);
    expect(refused.statusCode).toBe(403);
    for (const path of [`${S}/element/${page.id}/versions`, `${S}/element/${page.id}/versions/${v1.id}`]) {
      expect((await api(t, outsider.cookie, 'GET', path)).statusCode).toBe(403);
    }
    const other = await createPage(t, owner, { title: 'Другой' });
    expect((await api(t, owner.cookie, 'GET', `${S}/element/${other.id}/versions/${v1.id}`)).statusCode).toBe(404);
    expect((await api(t, owner.cookie, 'GET', `${S}/element/${page.id}/versions/999999`)).statusCode).toBe(404);
    expect((await api(t, owner.cookie, 'GET', `${S}/element/${page.id}/versions/abc`)).statusCode).toBe(422);
  });
});

describe('retention', () => {
  test('versions older than HISTORY_DAYS go; the oldest kept still shows the page as it was; a page keeps its newest', async () => {
    const page = await createPage(t, owner, { title: 'Старое' });
    const a = await add(page.id, 'один');
    const b = await add(page.id, 'два', a.id);
    await versionsReach(page.id, 1);
    await write(b, 'два, позже');
    const [v2] = await versionsReach(page.id, 2);
    const shown = texts(await blocksAt(t.app.db, page.id, v2.id));
    // The first version is made 40 days old; forgetting at 30 days keeps the second, whole.
    await t.app.db
      .updateTable('page_versions')
      .set({ created_at: new Date(Date.now() - 40 * 86_400_000).toISOString() })
      .where('page_id', '=', page.id)
      .where('id', '<', v2.id)
      .execute();
    expect(await forgetOld(t.app.db, 30)).toBeGreaterThanOrEqual(1);
    const left = await versions(page.id);
    expect(left.map((v) => v.id)).toEqual([v2.id]);
    expect(texts(await blocksAt(t.app.db, page.id, v2.id))).toEqual(shown);
    expect(left[0].changed).toBe(2);
    // All of a page's versions old: its newest stays.
    await t.app.db
      .updateTable('page_versions')
      .set({ created_at: new Date(Date.now() - 40 * 86_400_000).toISOString() })
      .where('page_id', '=', page.id)
      .execute();
    await forgetOld(t.app.db, 30);
    expect((await versions(page.id)).map((v) => v.id)).toEqual([v2.id]);
  });
});
