import { setTimeout as sleep } from 'node:timers/promises';
import type { WireBlock } from '../../schema/block';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString, testDb, type TestApp } from '../../test/helpers/testApp';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import { actor, createPage, expectStatus, joinWorkspace, makeTeamWorkspace, share, type Actor } from '../../test/helpers/pages';
import { indexAll, queueEverything } from '../search/indexer';
import type { WireSearchHit } from '../../schema/search';

/*
 * Full-text search (issue 18, docs/search.md) on SQLite and PostgreSQL alike: one table of queries
 * with the pages each must find, run on both (the same answers by construction: one stemmer);
 * the index following every kind of write within a second (the server's own indexer, nothing
 * called by hand); only what the caller may read, snippets and paths included; filters; titles
 * with a typo; the rebuild.
 */

let t: TestApp;
let owner: Actor;
let member: Actor;
let guest: Actor;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp({ sendCodeLimitPerIp: 10_000 });
  owner = await actor(t, 'fts-owner@example.com');
  member = await actor(t, 'fts-member@example.com');
  guest = await actor(t, 'fts-guest@example.com');
  await makeTeamWorkspace(t, owner.workspaceId);
  await joinWorkspace(t, owner.workspaceId, member.id, 'participant');
  await joinWorkspace(t, owner.workspaceId, guest.id, 'guest');
});
afterAll(async () => {
  await t.close();
});

async function find(q: string, who: Actor = owner, params: Record<string, unknown> = {}, workspaceId = owner.workspaceId) {
  const res = await api(t, who.cookie, 'GET', `${S}/search/text?${jsonQueryString({ q, ...params })}`, undefined, { 'x-workspace-id': workspaceId });
  return body<WireSearchHit[]>(expectStatus(res, 200));
}
const titles = async (q: string, who: Actor = owner, params: Record<string, unknown> = {}) => (await find(q, who, params)).data.map((h) => h.page.title);

/** Waits for what the indexer will do: polls until `check` holds, at most 2 s; answers how long it took. */
async function within<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<number> {
  const started = Date.now();
  let value = await read();
  while (!check(value)) {
    if (Date.now() - started > 2_000) throw new Error(`not indexed in 2 s: ${JSON.stringify(value)}`);
    await sleep(25);
    value = await read();
  }
  return Date.now() - started;
}

const textBlock = (text: string) => ({ tokens: [{ text }] });
async function addBlock(who: Actor, pageId: string, text: string, type = 'text', data: Record<string, unknown> = textBlock(text)): Promise<WireBlock> {
  return expectOk<WireBlock>(await api(t, who.cookie, 'POST', `${S}/block`, { pageId, type, data }), 201);
}

describe('one table of queries, the same answers on both databases', () => {
  beforeAll(async () => {
    const pages: Array<[string, string[]]> = [
      ['Программа конференции', ['Доклады о программировании и запуске сервисов']],
      ['Ёлка во дворе', ['Нарядили ёлку к празднику']],
      ['Running notes', ['The runner runs daily; searching for better shoes']],
      ['Отчёт за квартал', ['Выручка выросла на 12%', 'Расходы: аренда, зарплаты']],
      ['Список покупок', ['молоко, хлеб, йогурт']],
    ];
    for (const [title, texts] of pages) {
      const page = await createPage(t, owner, { title, section: 'all', workspaceId: owner.workspaceId });
      for (const text of texts) await addBlock(owner, page.id, text);
    }
    await within(
      () => titles('йогурт'),
      (found) => found.length === 1,
    );
  });

  // [query, the pages found, in order]
  const QUERIES: Array<[string, string[]]> = [
    // Russian morphology: another form of the word.
    ['программы', ['Программа конференции']],
    ['программа', ['Программа конференции']],
    ['конференциях', ['Программа конференции']],
    // ё is е, both ways.
    ['елка', ['Ёлка во дворе']],
    ['ёлкой', ['Ёлка во дворе']],
    // English morphology.
    ['run', ['Running notes']],
    ['search', ['Running notes']],
    ['NOTE', ['Running notes']],
    // A prefix while typing (no space after the last word), not once it is finished.
    ['прогр', ['Программа конференции']],
    ['от', ['Отчёт за квартал']],
    ['от ', []],
    // Every word, anywhere on the page: in one block, or in two (issue 36: the page is the unit).
    ['выручка 12', ['Отчёт за квартал']],
    ['выручка аренда', ['Отчёт за квартал']],
    ['аренда зарплаты', ['Отчёт за квартал']],
    // й is no и.
    ['йогурт', ['Список покупок']],
    ['иогурт', []],
    // Punctuation and case do not count; nothing to look for finds nothing.
    ['«ДОКЛАДЫ»!', ['Программа конференции']],
    ['', []],
    ['—', []],
  ];
  test.each(QUERIES)('«%s»', async (q, expected) => {
    expect(await titles(q)).toEqual(expected);
  });

  test('the match: the passage found, its words marked; a title first when the title matches', async () => {
    const [hit] = (await find('программирования')).data;
    expect(hit.match).toMatchObject({ kind: 'block', text: 'Доклады о программировании и запуске сервисов', cutBefore: false, cutAfter: false, fuzzy: false });
    expect(hit.match.marks.map(([a, b]) => hit.match.text.slice(a, b))).toEqual(['программировании']);
    const [title] = (await find('квартал')).data;
    expect(title.match).toMatchObject({ kind: 'title', text: 'Отчёт за квартал', blockId: null });
  });

  test('a title typed with a typo is found after the exact matches (trigrams, the same on both databases)', async () => {
    expect(await titles('Прогрмма конференци')).toEqual(['Программа конференции']);
    // Found by its second word (being typed: «конференци…»), one of the two: no typo needed.
    const [hit] = (await find('Прогрмма конференци')).data;
    expect(hit.match.fuzzy).toBe(false);
    const [typo] = (await find('Прогрмма конференции ')).data;
    expect([typo.page.title, typo.match.fuzzy]).toEqual(['Программа конференции', false]);
    const [only] = (await find('Прогрмма')).data;
    expect([only.page.title, only.match.fuzzy]).toEqual(['Программа конференции', true]);
    expect(await titles('квртал')).toEqual(['Отчёт за квартал']);
    expect(await titles('совсем другое')).toEqual([]);
  });
});

describe('the index follows every write within a second', () => {
  test('blocks written, rewritten, deleted and restored; titles renamed; pages trashed, restored and deleted', async () => {
    const page = await createPage(t, owner, { title: 'Черновик', section: 'all', workspaceId: owner.workspaceId });
    const waits: number[] = [];
    waits.push(
      await within(
        () => titles('черновик'),
        (f) => f.includes('Черновик'),
      ),
    );
    const block = await addBlock(owner, page.id, 'Первая мысль про аквариум');
    waits.push(
      await within(
        () => titles('аквариумы'),
        (f) => f.includes('Черновик'),
      ),
    );
    expectOk(
      await api(t, owner.cookie, 'POST', `${S}/block/${block.id}`, { version: block.version, type: 'text', data: textBlock('Вторая мысль про террариум') }),
    );
    waits.push(
      await within(
        () => titles('террариум'),
        (f) => f.includes('Черновик'),
      ),
    );
    expect(await titles('аквариум')).toEqual([]);
    expectOk(await api(t, owner.cookie, 'DELETE', `${S}/block/${block.id}`));
    waits.push(
      await within(
        () => titles('террариум'),
        (f) => f.length === 0,
      ),
    );
    expectOk(await api(t, owner.cookie, 'POST', `${S}/block/${block.id}/restore`));
    waits.push(
      await within(
        () => titles('террариум'),
        (f) => f.includes('Черновик'),
      ),
    );
    expectOk(await api(t, owner.cookie, 'PATCH', `${S}/element/${page.id}`, { title: 'Заметки натуралиста' }));
    waits.push(
      await within(
        () => titles('натуралист'),
        (f) => f.includes('Заметки натуралиста'),
      ),
    );
    expect(await titles('черновик')).toEqual([]);
    // The trash: found only with inTrash; restored, found again; deleted forever, gone from both.
    expectOk(await api(t, owner.cookie, 'DELETE', `${S}/element/${page.id}`, undefined, { 'x-workspace-id': owner.workspaceId }));
    expect(await titles('террариум')).toEqual([]);
    expect(await titles('террариум', owner, { inTrash: true })).toEqual(['Заметки натуралиста']);
    expectOk(await api(t, owner.cookie, 'POST', `${S}/trash/${page.id}/restore`, {}, { 'x-workspace-id': owner.workspaceId }));
    expect(await titles('террариум')).toEqual(['Заметки натуралиста']);
    expectOk(await api(t, owner.cookie, 'DELETE', `${S}/element/${page.id}`, undefined, { 'x-workspace-id': owner.workspaceId }));
    expectOk(await api(t, owner.cookie, 'POST', `${S}/trash/${page.id}/remove`, {}, { 'x-workspace-id': owner.workspaceId }));
    expect(await titles('террариум', owner, { inTrash: true })).toEqual([]);
    // Its entries go too.
    waits.push(
      await within(
        () => t.app.db.selectFrom('search_entries').select('unit').where('page_id', '=', page.id).execute(),
        (left) => left.length === 0,
      ),
    );
    expect(Math.max(...waits)).toBeLessThan(1_000);
  });

  test('database rows: found by their title and their text cells, not by other fields', async () => {
    const holder = await createPage(t, owner, { title: 'Клиенты', section: 'all', workspaceId: owner.workspaceId, type: 'Database' });
    const [database] = body<WireBlock[]>(await api(t, owner.cookie, 'GET', `${S}/note/${holder.id}/blocks`)).data;
    expectOk(await api(t, owner.cookie, 'POST', `${S}/database/${database.id}/fields`, { id: 'note', field: { name: 'Заметка', type: 'text' } }));
    expectOk(await api(t, owner.cookie, 'POST', `${S}/database/${database.id}/fields`, { id: 'sum', field: { name: 'Сумма', type: 'number' } }));
    const [row] = expectOk<Array<{ id: string }>>(
      await api(t, owner.cookie, 'POST', `${S}/database/${database.id}/rows`, {
        rows: [{ title: 'ООО Рога и копыта', values: { note: 'Звонить по вторникам', sum: 777 } }],
      }),
      201,
    );
    await within(
      () => titles('вторник'),
      (f) => f.includes('ООО Рога и копыта'),
    );
    expect(await titles('копыто')).toEqual(['ООО Рога и копыта']);
    expect(await titles('777')).toEqual([]);
    const [hit] = (await find('вторникам')).data;
    expect(hit.match).toMatchObject({ kind: 'cell', fieldId: 'note' });
    expect(hit.path.map((p) => p.title)).toEqual(['Клиенты']);
    expectOk(await api(t, owner.cookie, 'POST', `${S}/row/${row.id}/cells/note`, { value: 'Писать по средам', version: 1 }));
    await within(
      () => titles('средам'),
      (f) => f.includes('ООО Рога и копыта'),
    );
    expect(await titles('вторник')).toEqual([]);
  });
});

describe('the queue', () => {
  test('a block written again while it waits is queued once; SQLite keeps its first time (the indexer paces by it), PostgreSQL takes the newer', async () => {
    const page = await createPage(t, owner, { title: 'Очередь', section: 'all', workspaceId: owner.workspaceId });
    const block = await addBlock(owner, page.id, 'Запись в очереди');
    const target = `b:${block.id}`;
    const rollback = new Error('rolled back');
    // In one transaction, so the indexer cannot take the target in between; rolled back after.
    const seen = await t.app.db
      .transaction()
      .execute(async (trx) => {
        const write = async (text: string) => {
          await trx
            .updateTable('blocks')
            .set({ data: JSON.stringify(textBlock(text)) })
            .where('id', '=', block.id)
            .execute();
          return trx.selectFrom('search_queue').select('queued_at').where('target', '=', target).execute();
        };
        const first = await write('Первая правка');
        await sleep(20);
        const second = await write('Вторая правка');
        throw Object.assign(rollback, { seen: [first, second] });
      })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
        return (error as Error & { seen: Array<Array<{ queued_at: string }>> }).seen;
      });
    const [first, second] = seen;
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(1);
    if (testDb() === 'sqlite') expect(second[0].queued_at).toBe(first[0].queued_at);
    else expect(second[0].queued_at > first[0].queued_at).toBe(true);
  });
});

describe('only what the caller may read', () => {
  let secret: { id: string };
  beforeAll(async () => {
    secret = await createPage(t, owner, { title: 'Секретный план', section: 'private', workspaceId: owner.workspaceId });
    await addBlock(owner, secret.id, 'Кодовое слово: бегемот');
    const child = await createPage(t, owner, { title: 'Открытая часть', parentId: secret.id });
    await addBlock(owner, child.id, 'Здесь тоже есть бегемот');
    await share(t, owner, child.id, [{ userId: guest.id, accessLevel: 'read' }]);
    await within(
      () => titles('бегемот'),
      (f) => f.length === 2,
    );
  });

  test('a participant finds nothing of a private page: no title, no snippet', async () => {
    const found = await find('бегемот', member);
    expect(found.data).toEqual([]);
    expect(JSON.stringify(await find('секретный', member))).not.toContain('Секретный');
  });

  test('a guest finds the page shared with them, and its path leaves out the parent they cannot read', async () => {
    const found = await find('бегемот', guest);
    expect(found.data.map((h) => h.page.title)).toEqual(['Открытая часть']);
    expect(found.data[0].path).toEqual([]);
    expect(JSON.stringify(found)).not.toContain('Секретный');
    // The owner sees the path.
    const mine = (await find('здесь бегемот')).data;
    expect(mine[0].path.map((p) => p.title)).toEqual(['Секретный план']);
  });

  test('each result is the page as the caller sees it: their level and their favourite', async () => {
    const shared = await createPage(t, owner, { title: 'Общий бурундук', section: 'all', workspaceId: owner.workspaceId });
    expectStatus(await api(t, owner.cookie, 'POST', `${S}/element/${shared.id}/addToFavorites`, {}), 200);
    await within(
      () => titles('бурундук'),
      (f) => f.length === 1,
    );
    const mine = (await find('бурундук')).data[0].page;
    expect([mine.accessLevel, mine.inFavorites]).toEqual(['full', true]);
    const theirs = (await find('бурундук', member)).data[0].page;
    expect([theirs.accessLevel, theirs.inFavorites]).toEqual(['edit', false]);
    expect((await find('бегемот', guest)).data[0].page.accessLevel).toBe('read');
  });

  test('limits count readable pages only; «more» pages through them', async () => {
    const first = await find('бегемот', owner, { limit: 1 });
    expect(first.data).toHaveLength(1);
    expect(first.meta?.hasMoreNext).toBe(true);
    const second = await find('бегемот', owner, { limit: 1, offset: 1 });
    expect(second.data).toHaveLength(1);
    expect(second.data[0].page.id).not.toBe(first.data[0].page.id);
    expect(second.meta?.hasMoreNext).toBe(false);
  });

  test('another workspace is refused (403); anonymous calls 401; bad input 422', async () => {
    const stranger = await actor(t, 'fts-stranger@example.com');
    const refused = await api(t, stranger.cookie, 'GET', `${S}/search/text?${jsonQueryString({ q: 'бегемот' })}`, undefined, {
      'x-workspace-id': owner.workspaceId,
    });
    expect(refused.statusCode).toBe(403);
    expect((await find('бегемот', stranger, {}, stranger.workspaceId)).data).toEqual([]);
    const anonymous = await t.app.inject({ method: 'GET', url: `${S}/search/text?${jsonQueryString({ q: 'бегемот' })}` });
    expect(anonymous.statusCode).toBe(401);
    for (const bad of [{ q: 'x'.repeat(201) }, { q: 'a', limit: 0 }, { q: 'a', after: 'вчера' }]) {
      const res = await api(t, owner.cookie, 'GET', `${S}/search/text?${jsonQueryString(bad)}`, undefined, { 'x-workspace-id': owner.workspaceId });
      expect(res.statusCode).toBe(422);
    }
  });
});

describe('pages found twice over', () => {
  test('a page first read as the parent of a result is still a result of its own (here a title like the query, after the word matches)', async () => {
    const parent = await createPage(t, owner, { title: 'Смета ремонта', section: 'all', workspaceId: owner.workspaceId });
    const child = await createPage(t, owner, { title: 'Кухня', parentId: parent.id });
    await addBlock(owner, child.id, 'Черновик: сметта на кухню');
    // Both indexed: the parent's title may be indexed a round before the child's block (it was then
    // found alone, as a title like the query).
    await within(
      () => titles('сметта'),
      (found) => found.length >= 2,
    );
    const found = (await find('сметта')).data;
    expect(found.map((h) => [h.page.title, h.match.fuzzy])).toEqual([
      ['Кухня', false],
      ['Смета ремонта', true],
    ]);
    expect(found[0].path.map((p) => p.title)).toEqual(['Смета ремонта']);
  });
});

describe('filters and the rebuild', () => {
  test('by author and by the time of the last change', async () => {
    const mine = await createPage(t, owner, { title: 'Жираф владельца', section: 'all', workspaceId: owner.workspaceId });
    await createPage(t, member, { title: 'Жираф участника', parentId: mine.id });
    await within(
      () => titles('жираф'),
      (f) => f.length === 2,
    );
    expect(await titles('жираф', owner, { author: member.id })).toEqual(['Жираф участника']);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(await titles('жираф', owner, { after: future })).toEqual([]);
    expect((await titles('жираф', owner, { before: future })).sort()).toEqual(['Жираф владельца', 'Жираф участника'].sort());
  });

  test('by kind (pages, databases, rows), by part of the sidebar, and the last edited first', async () => {
    const note = await createPage(t, owner, { title: 'Дикобраз', section: 'all', workspaceId: owner.workspaceId });
    await addBlock(owner, note.id, 'Про дикобраза');
    await createPage(t, owner, { title: 'Дикобраз личный', section: 'private', workspaceId: owner.workspaceId });
    const theirs = await createPage(t, member, { title: 'Дикобраз участника', section: 'private', workspaceId: owner.workspaceId });
    await share(t, member, theirs.id, [{ userId: owner.id, accessLevel: 'read' }]);
    const host = await createPage(t, owner, { title: 'Учёт дикобразов', section: 'all', workspaceId: owner.workspaceId });
    const database = await addBlock(owner, host.id, '', 'database', {
      title: 'Дикобрази',
      config: { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' } } },
      view: { layouts: [{ uid: 'v1', type: 'table', name: 'Таблица', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
    });
    expectOk(await api(t, owner.cookie, 'POST', `${S}/database/${database.id}/rows`, { rows: [{ title: 'Дикобраз номер один' }] }), 201);
    await within(
      () => titles('дикобраз'),
      (f) => f.length === 5,
    );
    const sorted = async (params: Record<string, unknown>) => (await titles('дикобраз', owner, params)).sort();
    expect(await sorted({ kind: 'pages' })).toEqual(['Дикобраз', 'Дикобраз личный', 'Дикобраз участника', 'Учёт дикобразов'].sort());
    expect(await sorted({ kind: 'databases' })).toEqual(['Учёт дикобразов']);
    expect(await sorted({ kind: 'rows' })).toEqual(['Дикобраз номер один']);
    expect(await sorted({ section: 'private' })).toEqual(['Дикобраз личный']);
    expect(await sorted({ section: 'shared' })).toEqual(['Дикобраз участника']);
    expect(await sorted({ section: 'all' })).toEqual(['Дикобраз', 'Дикобраз номер один', 'Учёт дикобразов'].sort());
    // A guest's pages are all shared with them.
    await share(t, owner, note.id, [{ userId: guest.id, accessLevel: 'read' }]);
    expect(await titles('дикобраз', guest, { section: 'shared' })).toEqual(['Дикобраз']);
    expect(await titles('дикобраз', guest, { section: 'all' })).toEqual([]);
    // The best match changed longest ago: first by relevance, last by «last edited».
    await t.app.db.updateTable('pages').set({ updated_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', note.id).execute();
    expect((await titles('дикобраз'))[0]).toBe('Дикобраз');
    expect((await titles('дикобраз', owner, { sort: 'edited' })).at(-1)).toBe('Дикобраз');
    expect(await titles('дикобраз', owner, { sort: 'edited', kind: 'pages', section: 'private' })).toEqual(['Дикобраз личный']);
    for (const bad of [{ kind: 'comment' }, { section: 'favorite' }, { sort: 'title' }]) {
      const res = await api(t, owner.cookie, 'GET', `${S}/search/text?${jsonQueryString({ q: 'дикобраз', ...bad })}`, undefined, {
        'x-workspace-id': owner.workspaceId,
      });
      expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    }
  });

  test("comments: found on their page, shown with the comment (commentId); the comments filter keeps to them; edits and deletes followed; a private page's comments are not", async () => {
    const page = await createPage(t, owner, { title: 'Обсуждение запуска', section: 'all', workspaceId: owner.workspaceId });
    await addBlock(owner, page.id, 'План запуска без животных');
    const other = await createPage(t, owner, { title: 'Окапи в тексте', section: 'all', workspaceId: owner.workspaceId });
    await addBlock(owner, other.id, 'Окапи живут в лесу');
    const comment = async (who: Actor, pageId: string, text: string) =>
      expectOk<{ id: string }>(await api(t, who.cookie, 'POST', `${S}/element/${pageId}/comments`, { content: [{ text }], attaches: [] }), 201);
    const said = await comment(member, page.id, 'Может, взять окапи в логотип?');
    const hidden = await createPage(t, member, { title: 'Личное', section: 'private', workspaceId: owner.workspaceId });
    await comment(member, hidden.id, 'Окапи — тайный талисман');
    await within(
      () => titles('окапи', member),
      (f) => f.length === 3,
    );
    // The page's own text first; the comment found shown as the passage, with its id.
    const hits = (await find('окапи')).data;
    expect(hits.map((h) => h.page.title)).toEqual(['Окапи в тексте', 'Обсуждение запуска']);
    expect(hits[1].match).toMatchObject({
      kind: 'comment',
      commentId: said.id,
      blockId: null,
      fieldId: null,
      text: 'Может, взять окапи в логотип?',
      marks: [[13, 18]],
    });
    expect(hits[0].match.commentId).toBeNull();
    // Only comments.
    const comments = (await find('окапи', owner, { kind: 'comments' })).data;
    expect(comments.map((h) => [h.page.title, h.match.kind, h.match.commentId])).toEqual([['Обсуждение запуска', 'comment', said.id]]);
    // Someone else's private page: its comment is not found by the owner of the workspace.
    expect(await titles('талисман')).toEqual([]);
    expect(await titles('талисман', member, { kind: 'comments' })).toEqual(['Личное']);
    // Edited: found by its new words only; deleted: not at all.
    expectOk(await api(t, member.cookie, 'POST', `${S}/element/${page.id}/comments/${said.id}`, { content: [{ text: 'Лучше жирафа' }], attaches: [] }));
    await within(
      () => titles('окапи', owner, { kind: 'comments' }),
      (f) => f.length === 0,
    );
    expect(await titles('жирафа', owner, { kind: 'comments' })).toEqual(['Обсуждение запуска']);
    expectOk(await api(t, member.cookie, 'DELETE', `${S}/element/${page.id}/comments/${said.id}`));
    await within(
      () => titles('жирафа', owner, { kind: 'comments' }),
      (f) => f.length === 0,
    );
    // One entry per comment, on its page.
    const kept = await comment(owner, other.id, 'Бегемоты тоже');
    await within(
      () => titles('бегемоты', owner, { kind: 'comments' }),
      (f) => f.length === 1,
    );
    const entries = await t.app.db
      .selectFrom('search_entries')
      .select(['unit', 'kind'])
      .where('page_id', '=', other.id)
      .where('kind', '=', 'comment')
      .execute();
    expect(entries).toEqual([{ unit: `m:${kept.id}`, kind: 'comment' }]);
  });

  test('the rebuild puts back what the index lost', async () => {
    await createPage(t, owner, { title: 'Носорог', section: 'all', workspaceId: owner.workspaceId });
    await within(
      () => titles('носорог'),
      (f) => f.length === 1,
    );
    await t.app.db.deleteFrom('search_entries').execute();
    await t.app.db.deleteFrom('search_trigrams').execute();
    expect(await titles('носорог')).toEqual([]);
    await queueEverything(t.app.db);
    await indexAll(t.app.db);
    expect(await titles('носорог')).toEqual(['Носорог']);
    expect(await titles('программы')).toEqual(['Программа конференции']);
  });
});
