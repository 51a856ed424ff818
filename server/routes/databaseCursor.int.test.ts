import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString as q, signIn, type TestApp } from '../../test/helpers/testApp';

/*
 * Cursor paging of a view's rows (issue 38, docs/api/databases.md «Paging») on a real server and
 * the project's database: `meta.nextCursor` names the place the window ended at (its sort
 * values), so the next window starts after it whatever was made or moved before it meanwhile —
 * where offsets repeat or skip rows — and a cursor of another filter or sort, or none of ours, is
 * refused.
 */

let t: TestApp;
let ann: string;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t, 'ann.cursor@example.com');
});
afterAll(async () => {
  await t.close();
});

interface Answer {
  data: WireRow[];
  meta: { count: number; offset: number; hasMoreNext: boolean; nextCursor: string | null };
}

/** A database of `n` rows «Р0»… with score = i (so sorted by score descending: the last made first). */
async function scored(n: number) {
  const page = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/private`, { title: 'Курсор' }), 201);
  const fields = { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, score: { name: 'Баллы', type: 'number' } };
  const data: DatabaseData = {
    config: { fields } as unknown as DatabaseData['config'],
    view: { layouts: [{ uid: 'tbl', type: 'table', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
  };
  const db = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  const rows = expectOk<WireRow[]>(
    await api(t, ann, 'POST', `${S}/database/${db.id}/rows`, { rows: Array.from({ length: n }, (_, i) => ({ title: `Р${i}`, values: { score: i } })) }),
    201,
  );
  return { db: db.id, rows };
}

const BY_SCORE = { sorts: [{ fieldId: 'score', direction: 'desc' }] };
const read = async (db: string, params: object) =>
  body<WireRow[]>(await api(t, ann, 'GET', `${S}/database/${db}/rows?${q({ ...BY_SCORE, ...params })}`)) as unknown as Answer;
const titles = (answer: Answer) => answer.data.map((r) => r.data.title);

test('paging by cursor gives every row once, in order, as offsets do when nothing changes', async () => {
  const { db } = await scored(250);
  const byCursor: string[] = [];
  let answer = await read(db, { limit: 100 });
  byCursor.push(...titles(answer));
  while (answer.meta.nextCursor) {
    answer = await read(db, { limit: 100, cursor: answer.meta.nextCursor });
    byCursor.push(...titles(answer));
  }
  expect(answer.meta).toMatchObject({ offset: 200, hasMoreNext: false, nextCursor: null, count: 250 });
  const byOffset = [
    ...titles(await read(db, { limit: 100 })),
    ...titles(await read(db, { limit: 100, offset: 100 })),
    ...titles(await read(db, { limit: 100, offset: 200 })),
  ];
  expect(byCursor).toEqual(byOffset);
  expect(byCursor).toEqual(Array.from({ length: 250 }, (_, i) => `Р${249 - i}`));
});

test('rows made and moved before the place a window ended at do not shift the next one (offsets would repeat rows)', async () => {
  const { db, rows } = await scored(30);
  const first = await read(db, { limit: 10 });
  expect(titles(first)).toEqual(['Р29', 'Р28', 'Р27', 'Р26', 'Р25', 'Р24', 'Р23', 'Р22', 'Р21', 'Р20']);
  // Meanwhile: five new rows at the top, and «Р5» moved up to the top too.
  expectOk(
    await api(t, ann, 'POST', `${S}/database/${db}/rows`, { rows: Array.from({ length: 5 }, (_, i) => ({ title: `Новая ${i}`, values: { score: 100 + i } })) }),
    201,
  );
  const moved = rows.find((r) => r.data.title === 'Р5')!;
  expectOk(await api(t, ann, 'POST', `${S}/row/${moved.id}/cells/score`, { value: 500, version: moved.versions.score }));
  const next = await read(db, { limit: 10, cursor: first.meta.nextCursor });
  // Right after «Р20», whatever came before it: «Р5» moved away is not there any more.
  expect(titles(next)).toEqual(['Р19', 'Р18', 'Р17', 'Р16', 'Р15', 'Р14', 'Р13', 'Р12', 'Р11', 'Р10']);
  expect(next.meta.offset).toBe(16);
  // The same by offset repeats the end of the first window.
  expect(titles(await read(db, { limit: 10, offset: 10 })).slice(0, 6)).toEqual(['Р25', 'Р24', 'Р23', 'Р22', 'Р21', 'Р20']);
  // The row the cursor was at, deleted meanwhile: the next window still starts after its place.
  const last = rows.find((r) => r.data.title === 'Р10')!;
  const window = await read(db, { limit: 5, cursor: next.meta.nextCursor });
  expectOk(await api(t, ann, 'POST', `${S}/database/${db}/rows/delete`, { ids: [last.id] }));
  expect(titles(await read(db, { limit: 5, cursor: next.meta.nextCursor }))).toEqual(titles(window));
  expect(titles(window)).toEqual(['Р9', 'Р8', 'Р7', 'Р6', 'Р4']);
});

test('a cursor of another sort or filter, or none of ours, is refused', async () => {
  const { db } = await scored(20);
  const first = await read(db, { limit: 5 });
  const otherSort = await api(
    t,
    ann,
    'GET',
    `${S}/database/${db}/rows?${q({ sorts: [{ fieldId: 'score', direction: 'asc' }], cursor: first.meta.nextCursor })}`,
  );
  expect([otherSort.statusCode, errorCode(otherSort)]).toEqual([422, 'validation_failed']);
  const filtered = await api(
    t,
    ann,
    'GET',
    `${S}/database/${db}/rows?${q({ ...BY_SCORE, filter: { op: 'and', rules: [{ fieldId: 'score', condition: 'gt', value: 3 }] }, cursor: first.meta.nextCursor })}`,
  );
  expect(filtered.statusCode).toBe(422);
  for (const bad of ['nonsense', Buffer.from('{"s":1}').toString('base64url'), Buffer.from(JSON.stringify({ s: 'x', k: [{}] })).toString('base64url')]) {
    const res = await api(t, ann, 'GET', `${S}/database/${db}/rows?${q({ ...BY_SCORE, cursor: bad })}`);
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
  }
});
