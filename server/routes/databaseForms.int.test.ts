import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData, type DatabaseLayout } from '../../schema/blocks/database';
import type { WireRow } from '../../schema/database';
import { FORM_LIMITS, type WireForm } from '../../schema/databaseForm';
import type { WireElement } from '../../schema/element';
import { actor, joinWorkspace, makeTeamWorkspace, type Actor } from '../../test/helpers/pages';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString as q, type TestApp } from '../../test/helpers/testApp';
import { ANONYMOUS_SUBMITTER } from '../commands/databases/forms';
import { addressKey } from './databaseForms';

/*
 * Forms (issue 38, docs/api/databases.md «Forms») on a real server and the project's database:
 * who a form's access lets in (and who it does not), what an answer may hold, the row it makes
 * and who made it, the public limits, and what a form never shows — its database's rows.
 */

let t: TestApp;
let ann: Actor; // admin of the workspace, owner of the database's page (private section)
let bob: Actor; // a member of ann's workspace, no grant on the page
let gus: Actor; // a guest of ann's workspace
let out: Actor; // another workspace's user
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  ann = await actor(t, 'ann.forms@example.com');
  bob = await actor(t, 'bob.forms@example.com');
  gus = await actor(t, 'gus.forms@example.com');
  out = await actor(t, 'out.forms@example.com');
  await makeTeamWorkspace(t, ann.workspaceId);
  await joinWorkspace(t, ann.workspaceId, bob.id, 'participant');
  await joinWorkspace(t, ann.workspaceId, gus.id, 'guest');
});
afterAll(async () => {
  await t.close();
});

const fields = {
  [MAIN_FIELD_ID]: { name: 'Имя', type: 'text' },
  topic: {
    name: 'Тема',
    type: 'select',
    options: [
      { id: 'bug', name: 'Ошибка', color: 'red' },
      { id: 'idea', name: 'Идея', color: 'blue' },
    ],
  },
  mail: { name: 'Почта', type: 'email' },
  agree: { name: 'Согласие', type: 'checkbox' },
  when: { name: 'Когда', type: 'date' },
  salary: { name: 'Зарплата', type: 'number' },
  owner: { name: 'Ответственный', type: 'person' },
};
const formLayout = (access: 'page' | 'workspace' | 'public'): DatabaseLayout => ({
  uid: `form-${access}-${Math.random().toString(36).slice(2, 8)}`,
  type: 'form',
  name: 'Заявка',
  orderedFields: [MAIN_FIELD_ID, 'topic', 'mail', 'agree', 'when', 'salary'].map((fieldId) => ({ fieldId, isWrap: false })),
  form: { description: 'Расскажите, что случилось', required: [MAIN_FIELD_ID, 'agree'], access },
});

/** A page in ann's private section holding a database with a table (not showing the salary) and a form of this access. */
async function database(access: 'page' | 'workspace' | 'public') {
  const page = expectOk<WireElement>(
    await api(t, ann.cookie, 'POST', `${S}/section/private`, { title: 'Обращения' }, { 'x-workspace-id': ann.workspaceId }),
    201,
  );
  const form = formLayout(access);
  const data = {
    config: { fields },
    view: {
      layouts: [
        {
          uid: `table-${form.uid}`,
          type: 'table',
          orderedFields: [
            { fieldId: MAIN_FIELD_ID, isWrap: false },
            { fieldId: 'topic', isWrap: false },
          ],
        },
        form,
      ],
    },
  } as unknown as DatabaseData;
  const block = expectOk<WireBlock>(
    await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }, { 'x-workspace-id': ann.workspaceId }),
    201,
  );
  return { page, block, form, ref: { databaseId: block.id, viewId: form.uid } };
}

const answer = { [MAIN_FIELD_ID]: 'Не открывается страница', topic: 'bug', mail: 'guest@example.com', agree: true, when: '2026-12-05', salary: 100 };
/** A form named by its database and its view. */
type FormRef = { databaseId: string; viewId: string };
const read = (who: Actor | undefined, { databaseId, viewId }: FormRef) => api(t, who?.cookie, 'GET', `${S}/database/${databaseId}/form/${viewId}`);
const send = (who: Actor | undefined, { databaseId, viewId }: FormRef, values: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api(t, who?.cookie, 'POST', `${S}/database/${databaseId}/form/${viewId}`, { values }, headers);
const rowsOf = async (databaseId: string) => expectOk<WireRow[]>(await api(t, ann.cookie, 'GET', `${S}/database/${databaseId}/rows?${q({ limit: 100 })}`));

test('a form reads as its questions, in order, the ones forms cannot ask left out; answers check against it and nothing is stored when refused', async () => {
  const { block, form, ref } = await database('page');
  const wire = expectOk<WireForm>(await read(ann, ref));
  expect(wire).toMatchObject({
    viewId: form.uid,
    databaseId: block.id,
    title: 'Обращения',
    name: 'Заявка',
    description: 'Расскажите, что случилось',
    access: 'page',
    canEdit: true,
    anonymous: false,
  });
  expect(wire.questions.map((q) => [q.fieldId, q.field.name, q.required])).toEqual([
    [MAIN_FIELD_ID, 'Имя', true],
    ['topic', 'Тема', false],
    ['mail', 'Почта', false],
    ['agree', 'Согласие', true],
    ['when', 'Когда', false],
    ['salary', 'Зарплата', false],
  ]);
  // Refused: a required question blank (an unchecked box is blank), a field not asked, a value not fitting, an unknown option.
  const refusals: Array<[Record<string, unknown>, string]> = [
    [{ ...answer, agree: false }, 'values.agree'],
    [{ ...answer, [MAIN_FIELD_ID]: '  ' }, `values.${MAIN_FIELD_ID}`],
    [{ ...answer, owner: [ann.id] }, 'values.owner'],
    [{ ...answer, salary: 'сто' }, 'values.salary'],
    [{ ...answer, topic: 'nope' }, 'values.topic'],
  ];
  for (const [values, path] of refusals) {
    const refused = await send(ann, ref, values);
    expect(refused.statusCode).toBe(422);
    expect(errorCode(refused)).toBe('validation_failed');
    expect((body(refused).errors[0]?.details as Array<{ path: string }>).map((d) => d.path)).toContain(path);
  }
  expect(await rowsOf(block.id)).toEqual([]);
  // A good answer: a row with the answered cells, made by its sender, who reads it and so gets its id.
  const made = expectOk<{ rowId: string | null }>(await send(ann, ref, answer), 201);
  expect(made.rowId).toEqual(expect.any(String));
  const [row] = await rowsOf(block.id);
  expect(row.id).toBe(made.rowId);
  expect(row.data.title).toBe('Не открывается страница');
  expect(row.data.values).toMatchObject({ topic: 'bug', mail: 'guest@example.com', agree: true, salary: 100 });
  const page = await t.app.db.selectFrom('pages').select(['created_by', 'updated_by']).where('id', '=', row.id).executeTakeFirstOrThrow();
  expect(page).toEqual({ created_by: ann.id, updated_by: ann.id });
});

test('a form for the page’s readers lets in no one else: a member without a grant, a guest, an outsider, the anonymous', async () => {
  const { ref } = await database('page');
  for (const who of [bob, gus, out]) {
    expect((await read(who, ref)).statusCode).toBe(403);
    expect((await send(who, ref, answer)).statusCode).toBe(403);
  }
  expect((await read(undefined, ref)).statusCode).toBe(401);
  expect((await send(undefined, ref, answer)).statusCode).toBe(401);
  expect((await read(ann, { ...ref, viewId: 'no-such-view' })).statusCode).toBe(404);
});

test('a workspace form lets in its members (who do not read the rows they make), not guests, outsiders or the anonymous', async () => {
  const { block, page, ref } = await database('workspace');
  const seen = expectOk<WireForm>(await read(bob, ref));
  expect(seen).toMatchObject({ canEdit: false, anonymous: false });
  const made = expectOk<{ rowId: string | null }>(await send(bob, ref, answer), 201);
  // Bob may not read the page: no id, and the rows stay closed to him.
  expect(made.rowId).toBeNull();
  expect((await api(t, bob.cookie, 'GET', `${S}/database/${block.id}/rows?${q({ limit: 10 })}`)).statusCode).toBe(403);
  const [row] = await rowsOf(block.id);
  expect((await t.app.db.selectFrom('pages').select('created_by').where('id', '=', row.id).executeTakeFirstOrThrow()).created_by).toBe(bob.id);
  for (const who of [gus, out]) expect((await send(who, ref, answer)).statusCode).toBe(403);
  expect((await send(undefined, ref, answer)).statusCode).toBe(401);
  expect(await rowsOf(block.id)).toHaveLength(1);
  // A page in the trash takes no answers (said after the access check).
  expectOk(await api(t, ann.cookie, 'DELETE', `${S}/element/${page.id}`));
  expect((await read(ann, ref)).statusCode).toBe(404);
  expect((await send(bob, ref, answer)).statusCode).toBe(404);
  expect((await send(out, ref, answer)).statusCode).toBe(403);
});

test('a public form opens by its link only while the page is published; its answers are anonymous and limited; it shows no rows', async () => {
  const { block, form, page, ref } = await database('public');
  expect((await read(undefined, ref)).statusCode).toBe(401);
  expect((await send(out, ref, answer)).statusCode).toBe(403);
  expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${page.id}`, { isPublic: true }));
  const seen = expectOk<WireForm>(await read(undefined, ref));
  expect(seen).toMatchObject({ anonymous: true, canEdit: false, access: 'public' });
  const address = { 'x-forwarded-for': '198.51.100.77' };
  const made = expectOk<{ rowId: string | null }>(await send(undefined, ref, answer, address), 201);
  expect(made.rowId).toBeNull();
  // An outsider let in by the link alone is anonymous too; a member is not.
  expectOk(await send(out, ref, answer, { 'x-forwarded-for': '198.51.100.78' }), 201);
  expectOk(await send(bob, ref, answer), 201);
  const makers = (await t.app.db.selectFrom('pages').select('created_by').where('database_id', '=', block.id).execute()).map((p) => p.created_by).sort();
  expect(makers).toEqual([ANONYMOUS_SUBMITTER, ANONYMOUS_SUBMITTER, bob.id].sort());

  // The published page shows no row through the form, and no value of a field only the form asks.
  const viaForm = await api(t, undefined, 'GET', `${S}/database/${block.id}/rows?${q({ viewId: form.uid, limit: 10 })}`);
  expect(viaForm.statusCode).toBe(403);
  expect(errorCode(viaForm)).toBe('database.not_published');
  const salary = await api(t, undefined, 'GET', `${S}/database/${block.id}/rows?${q({ fields: ['salary'], limit: 10 })}`);
  expect(salary.statusCode).toBe(403);
  const shown = expectOk<WireRow[]>(await api(t, undefined, 'GET', `${S}/database/${block.id}/rows?${q({ limit: 10 })}`));
  expect(shown).toHaveLength(3);
  for (const row of shown) expect(row.data.values).not.toHaveProperty('salary');
  for (const path of ['calculations', 'groups', 'export.csv'])
    expect((await api(t, undefined, 'GET', `${S}/database/${block.id}/${path}?${q({ viewId: form.uid })}`)).statusCode).toBe(403);

  // Refused answers take nothing of the limits.
  for (let i = 0; i < FORM_LIMITS.publicPerAddressPerHour + 2; i++)
    expect((await send(undefined, ref, { ...answer, agree: false }, address)).statusCode).toBe(422);
  // One address: FORM_LIMITS.publicPerAddressPerHour answers an hour, then 429 with Retry-After; another address goes on.
  for (let i = 1; i < FORM_LIMITS.publicPerAddressPerHour; i++) expectOk(await send(undefined, ref, answer, address), 201);
  const limited = await send(undefined, ref, answer, address);
  expect(limited.statusCode).toBe(429);
  expect(errorCode(limited)).toBe('rate_limited');
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  expectOk(await send(undefined, ref, answer, { 'x-forwarded-for': '198.51.100.79' }), 201);

  // Unpublished: closed to the link again.
  expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${page.id}`, { isPublic: false }));
  expect((await send(undefined, ref, answer, { 'x-forwarded-for': '198.51.100.80' })).statusCode).toBe(401);
});

test('a form keeps to the fields: new fields are not asked, a deleted or retyped one leaves its questions, a form of fields it cannot ask is refused', async () => {
  const { block, form, ref } = await database('page');
  const layouts = (b: WireBlock) => (b.data as DatabaseData).view.layouts;
  const formOf = (b: WireBlock) => layouts(b).find((l) => l.uid === form.uid)!;
  // A new field goes into the table, not the form.
  const added = expectOk<WireBlock>(
    await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/fields`, { id: 'extra', field: { name: 'Ещё', type: 'text' } }),
  );
  expect(formOf(added).orderedFields.map((f) => f.fieldId)).not.toContain('extra');
  expect(layouts(added)[0].orderedFields.map((f) => f.fieldId)).toContain('extra');
  // Retyped to a type forms do not ask: out of the questions and the required ones.
  const retyped = expectOk<WireBlock>(
    await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/fields/agree`, { field: { name: 'Согласие', type: 'person' } }),
  );
  expect(formOf(retyped).orderedFields.map((f) => f.fieldId)).not.toContain('agree');
  expect(formOf(retyped).form?.required).toEqual([MAIN_FIELD_ID]);
  const deleted = expectOk<WireBlock>(await api(t, ann.cookie, 'DELETE', `${S}/database/${block.id}/fields/mail`));
  expect(formOf(deleted).orderedFields.map((f) => f.fieldId)).toEqual([MAIN_FIELD_ID, 'topic', 'when', 'salary']);
  // Refused: a form asking for a person; a required question it does not ask.
  const person = await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/views/${form.uid}`, {
    layout: { orderedFields: [{ fieldId: 'owner', isWrap: false }] },
  });
  expect(person.statusCode).toBe(422);
  const unasked = await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/views/${form.uid}`, { layout: { form: { required: ['when', 'extra'] } } });
  expect(unasked.statusCode).toBe(422);
  // A form made a table: its form settings go, and the link finds no form.
  const table = expectOk<WireBlock>(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/views/${form.uid}`, { layout: { type: 'table' } }));
  expect(formOf(table)).not.toHaveProperty('form');
  expect((await read(ann, ref)).statusCode).toBe(404);
  // And a table made a form asks only what forms ask (the person column dropped).
  const back = expectOk<WireBlock>(
    await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/views/${form.uid}`, {
      layout: {
        type: 'form',
        orderedFields: [
          { fieldId: 'owner', isWrap: false },
          { fieldId: 'topic', isWrap: false },
        ],
      },
    }),
  );
  expect(formOf(back).orderedFields.map((f) => f.fieldId)).toEqual(['topic']);
  // A reader without edit rights cannot change the form.
  expect((await api(t, bob.cookie, 'POST', `${S}/database/${block.id}/views/${form.uid}`, { layout: { form: { access: 'public' } } })).statusCode).toBe(403);
});

test('a form is named by its database and view: another database holding a view of the same uid is another form', async () => {
  const { ref, page } = await database('public');
  expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${page.id}`, { isPublic: true }));
  // An outsider's published database with a public form of the very same view uid.
  const theirs = expectOk<WireElement>(await api(t, out.cookie, 'POST', `${S}/section/private`, { title: 'Пароль от почты' }), 201);
  const data = {
    config: { fields: { [MAIN_FIELD_ID]: { name: 'Пароль', type: 'text' } } },
    view: { layouts: [{ uid: ref.viewId, type: 'form', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }], form: { access: 'public' } }] },
  } as unknown as DatabaseData;
  const block = expectOk<WireBlock>(await api(t, out.cookie, 'POST', `${S}/block`, { pageId: theirs.id, type: 'database', data }), 201);
  expectOk(await api(t, out.cookie, 'PATCH', `${S}/element/${theirs.id}`, { isPublic: true }));
  expect(expectOk<WireForm>(await read(undefined, ref)).title).toBe('Обращения');
  expect(expectOk<WireForm>(await read(undefined, { databaseId: block.id, viewId: ref.viewId })).title).toBe('Пароль от почты');
  // A database that holds no such view: no form.
  expect((await read(ann, { databaseId: block.id, viewId: 'other' })).statusCode).toBe(404);
});

test('public answers count per IPv4 address, or per IPv6 /64', () => {
  expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
  expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
  expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
  expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
});
