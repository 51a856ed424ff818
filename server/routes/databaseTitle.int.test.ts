import type { WireBlock } from '../../schema/block';
import { DATABASE_LIMITS, type DatabaseData } from '../../schema/blocks/database';
import { LIMITS } from '../../schema/constants';
import { newDatabaseData } from '../../schema/database';
import { channels, type ElementEdit, type RealtimeAck } from '../../schema/realtime';
import type { WireSearchHit } from '../../schema/search';
import { connectRealtime, nextEvent, request } from '../../test/helpers/realtimeClient';
import { actor, createPage, expectStatus, share, type Actor } from '../../test/helpers/pages';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString, type TestApp } from '../../test/helpers/testApp';
import { indexAll } from '../search/indexer';

/*
 * An inline database's title and description (issue 34 §2, docs/api/databases.md «Title and
 * description») over HTTP on a real server and database (SQLite and PostgreSQL): set through
 * `POST database/{id}`, kept in the block's data with its version, refused when too long (422)
 * or for a reader (403), and found by search.
 */

let t: TestApp;
let ann: Actor;
let bob: Actor;
let baseUrl: string;
const S = '/api/v3/spaces';

beforeAll(async () => {
  // The search test indexes by itself (indexAll): the app's own indexer is held off, or a round of
  // it could take the queued title first and index it only after the search was asked.
  t = await createTestApp({ searchIndexIntervalMs: 1_000_000_000 });
  ann = await actor(t, 'dbtitle-ann@example.com');
  bob = await actor(t, 'dbtitle-bob@example.com');
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

async function newInlineDatabase(): Promise<{ pageId: string; db: WireBlock }> {
  const page = await createPage(t, ann, { title: 'Планы' });
  const db = expectOk<WireBlock>(await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data: newDatabaseData('v1') }), 201);
  return { pageId: page.id, db };
}

const describeDb = (id: string, payload: unknown, who: Actor = ann) => api(t, who.cookie, 'POST', `${S}/database/${id}`, payload);
const stored = async (id: string) => expectOk<WireBlock>(await api(t, ann.cookie, 'GET', `${S}/database/${id}`));

test('an editor sets the title and description: the block answered and read has them, one version up; null clears', async () => {
  const { db } = await newInlineDatabase();
  const set = expectOk<WireBlock>(await describeDb(db.id, { title: 'Дорожная карта', description: 'Крупные шаги на квартал' }));
  expect(set.version).toBe(db.version + 1);
  expect(set.data).toMatchObject({ title: 'Дорожная карта', description: 'Крупные шаги на квартал' });
  expect((await stored(db.id)).data).toEqual({ ...(db.data as DatabaseData), title: 'Дорожная карта', description: 'Крупные шаги на квартал' });
  const cleared = expectOk<WireBlock>(await describeDb(db.id, { description: null }));
  expect([cleared.version, cleared.data]).toEqual([db.version + 2, { ...(db.data as DatabaseData), title: 'Дорожная карта' }]);
});

test('too long or not text → 422 validation_failed at the key, nothing written; an empty body or unknown key too', async () => {
  const { db } = await newInlineDatabase();
  expectOk(await describeDb(db.id, { title: 'Было' }));
  const before = await stored(db.id);
  const cases: Array<[unknown, string]> = [
    [{ title: 'я'.repeat(LIMITS.titleLength + 1) }, 'title'],
    [{ description: 'я'.repeat(DATABASE_LIMITS.descriptionLength + 1) }, 'description'],
    [{ title: 5 }, 'title'],
    [{}, ''],
    [{ title: 'x', icon: '★' }, ''],
  ];
  for (const [payload, key] of cases) {
    const res = await describeDb(db.id, payload);
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    if (key) expect(JSON.stringify(body(res))).toContain(key);
  }
  // The limits themselves are fine.
  expectOk(await describeDb(db.id, { title: 'я'.repeat(LIMITS.titleLength), description: 'я'.repeat(DATABASE_LIMITS.descriptionLength) }));
  expectOk(await describeDb(db.id, { title: 'Было', description: null }));
  expect(await stored(db.id)).toMatchObject({ data: before.data, version: before.version + 2 });
});

test('denied: a reader of the page (403) and an outsider (403) change nothing; signed out 401', async () => {
  const { pageId, db } = await newInlineDatabase();
  expectOk(await describeDb(db.id, { title: 'Было' }));
  const before = await stored(db.id);
  const outsider = await describeDb(db.id, { title: 'Стало' }, bob);
  expect([outsider.statusCode, errorCode(outsider)]).toEqual([403, 'forbidden']);
  await share(t, ann, pageId, [{ email: bob.email, accessLevel: 'read' }]);
  expectOk(await api(t, bob.cookie, 'GET', `${S}/database/${db.id}`));
  const reader = await describeDb(db.id, { title: 'Стало', description: 'нет' }, bob);
  expect([reader.statusCode, errorCode(reader)]).toEqual([403, 'forbidden']);
  const anonymous = await t.app.inject({ method: 'POST', url: `${S}/database/${db.id}`, payload: { title: 'Стало' } });
  expect(anonymous.statusCode).toBe(401);
  expect(await stored(db.id)).toEqual(before);
});

test('search finds the page by its database’s title and description, and no longer once they change', async () => {
  const { pageId, db } = await newInlineDatabase();
  expectOk(await describeDb(db.id, { title: 'Гиппопотамы зоопарка', description: 'Рацион жирафов по дням' }));
  await indexAll(t.app.db);
  const find = async (q: string) =>
    body<WireSearchHit[]>(
      expectStatus(await api(t, ann.cookie, 'GET', `${S}/search/text?${jsonQueryString({ q })}`, undefined, { 'x-workspace-id': ann.workspaceId }), 200),
    ).data.map((hit) => [hit.page.id, hit.match.blockId]);
  expect(await find('гиппопотамы')).toEqual([[pageId, db.id]]);
  expect(await find('жирафов')).toEqual([[pageId, db.id]]);
  expectOk(await describeDb(db.id, { title: 'Слоны', description: null }));
  await indexAll(t.app.db);
  expect(await find('гиппопотамы')).toEqual([]);
  expect(await find('слоны')).toEqual([[pageId, db.id]]);
});

test('others see it live: the block’s edit on the page’s channel carries the new title, with the writer’s origin', async () => {
  const { pageId, db } = await newInlineDatabase();
  await share(t, ann, pageId, [{ email: bob.email, accessLevel: 'read' }]);
  const socket = await connectRealtime(baseUrl, { cookie: bob.cookie });
  try {
    const joined = await request<Record<string, unknown>>(socket, 'join', { channel: channels.element(pageId, bob.id) });
    expect((joined as RealtimeAck).ok).toBe(true);
    const edit = nextEvent<ElementEdit>(socket, 'edit', (e) => e.channel === `element:${pageId}` && e.block?.id === db.id);
    expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${db.id}`, { title: 'Вживую' }, { 'x-client-id': 'title-writer-01' }));
    expect(await edit).toMatchObject({ origin: 'title-writer-01', block: { id: db.id, version: db.version + 1, data: { title: 'Вживую' } } });
  } finally {
    socket.close();
  }
});
