import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { WireRow, WireRowTemplate } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { actor, joinWorkspace, makeTeamWorkspace, type Actor } from '../../test/helpers/pages';
import { api, createTestApp, errorCode, expectOk, jsonQueryString as q, type TestApp } from '../../test/helpers/testApp';

/*
 * Row templates (issue 38, docs/api/databases.md «Row templates») on a real server and the
 * project's database: a template is a row page no view, count or trash shows; a row made from it
 * takes its values (under the ones given), title, icon, cover and a copy of its content, and gets
 * its own unique ID and formulas; the default; what the page API refuses a template; who may.
 */

let t: TestApp;
let ann: Actor;
let bob: Actor; // a participant of ann's workspace with read access to the database's page
let out: Actor;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  ann = await actor(t, 'ann.templates@example.com');
  bob = await actor(t, 'bob.templates@example.com');
  out = await actor(t, 'out.templates@example.com');
  await makeTeamWorkspace(t, ann.workspaceId);
  await joinWorkspace(t, ann.workspaceId, bob.id, 'participant');
});
afterAll(async () => {
  await t.close();
});

async function database() {
  const page = expectOk<WireElement>(await api(t, ann.cookie, 'POST', `${S}/section/private`, { title: 'Задачи' }, { 'x-workspace-id': ann.workspaceId }), 201);
  const data = {
    config: {
      fields: {
        [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
        status: {
          name: 'Статус',
          type: 'select',
          options: [
            { id: 'todo', name: 'Сделать', color: 'gray' },
            { id: 'done', name: 'Готово', color: 'green' },
          ],
        },
        priority: { name: 'Приоритет', type: 'number' },
        double: { name: 'Вдвое', type: 'formula', expression: 'prop("priority") * 2' },
        num: { name: 'Номер', type: 'uniqueId', prefix: 'ЗАДАЧА' },
      },
    },
    view: { layouts: [{ uid: 'v', type: 'table', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
  } as unknown as DatabaseData;
  const block = expectOk<WireBlock>(await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  return { page, block };
}

const rows = async (databaseId: string, inTrash = false) =>
  expectOk<WireRow[]>(await api(t, ann.cookie, 'GET', `${S}/database/${databaseId}/rows?${q({ limit: 100, ...(inTrash ? { inTrash } : {}) })}`));
const blocksOf = async (pageId: string) => expectOk<WireBlock[]>(await api(t, ann.cookie, 'GET', `${S}/note/${pageId}/blocks`));

test('a row made from a template takes its values, title, icon, cover and content; the template shows in no view, count or trash', async () => {
  const { block } = await database();
  const template = expectOk<WireRowTemplate>(
    await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/templates`, { title: 'Баг', icon: '🐞', values: { status: 'todo', priority: 3 } }),
    201,
  );
  expect(template).toEqual({ id: expect.any(String), title: 'Баг', icon: '🐞', isDefault: false });
  // Its page is a row page that says it is a template; its content and cover are written there.
  const page = expectOk<WireElement>(await api(t, ann.cookie, 'GET', `${S}/element/${template.id}`));
  expect(page).toMatchObject({ databaseId: block.id, rowTemplate: true, inTrash: false });
  const steps = expectOk<WireBlock>(
    await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: template.id, type: 'text', data: { tokens: [{ text: 'Шаги' }] } }),
    201,
  );
  expectOk(
    await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: template.id, parentId: steps.id, type: 'bulletList', data: { tokens: [{ text: 'Открыть' }] } }),
    201,
  );
  expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${template.id}`, { cover: { contentType: 'LibraryCover', imageId: 'gradient-forest' } }));
  // No row title to look up (a relation's chip); its formulas are computed; it takes no unique ID.
  expect(expectOk<unknown[]>(await api(t, ann.cookie, 'GET', `${S}/database/${block.id}/titles?${q({ ids: [template.id] })}`))).toEqual([]);
  const cells = await t.app.db.selectFrom('database_cells').select(['field_id', 'value']).where('row_id', '=', template.id).execute();
  expect(Object.fromEntries(cells.map((c) => [c.field_id, JSON.parse(c.value) as unknown]))).toMatchObject({ status: 'todo', priority: 3, double: 6 });
  expect(cells.map((c) => c.field_id)).not.toContain('num');
  expect(await rows(block.id)).toEqual([]);
  expect(await rows(block.id, true)).toEqual([]);
  expect(expectOk<Array<{ id: string }>>(await api(t, ann.cookie, 'GET', `${S}/trash`)).map((p) => p.id)).not.toContain(template.id);

  // Rows from it: one as it is, one with its own title and priority.
  const made = expectOk<WireRow[]>(
    await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/rows`, {
      rows: [{ templateId: template.id }, { templateId: template.id, title: 'Свой', values: { priority: 5 } }, { title: 'Пустая' }],
    }),
    201,
  );
  expect(made.map((r) => [r.data.title, r.data.icon, r.data.values.status ?? null, r.data.values.priority ?? null, r.data.values.double ?? null])).toEqual([
    ['Баг', '🐞', 'todo', 3, 6],
    ['Свой', '🐞', 'todo', 5, 10],
    ['Пустая', null, null, null, null],
  ]);
  expect(made.map((r) => r.data.values.num)).toEqual([1, 2, 3]);
  for (const row of made.slice(0, 2)) {
    const content = await blocksOf(row.id);
    expect(content.map((b) => [b.type, (b.data as { tokens: Array<{ text: string }> }).tokens[0].text])).toEqual([
      ['text', 'Шаги'],
      ['bulletList', 'Открыть'],
    ]);
    // New blocks, the nesting kept on the copies.
    expect(content[1].parentId).toBe(content[0].id);
    expect(content[0].id).not.toBe(steps.id);
    expect(expectOk<WireElement>(await api(t, ann.cookie, 'GET', `${S}/element/${row.id}`)).cover).toMatchObject({ imageId: 'gradient-forest' });
  }
  expect(await blocksOf(made[2].id)).toEqual([]);
  // The template is as it was.
  expect((await blocksOf(template.id)).map((b) => b.id)[0]).toBe(steps.id);
  expect(await rows(block.id)).toHaveLength(3);
});

test('the default template; a template changes as a row does; the page API does not trash, restore or copy it; deleting it keeps the rows made', async () => {
  const { block } = await database();
  const make = async (title: string) => expectOk<WireRowTemplate>(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/templates`, { title }), 201);
  const first = await make('Встреча');
  const second = await make('Звонок');
  const setDefault = (templateId: string | null) => api(t, ann.cookie, 'POST', `${S}/database/${block.id}/templates/default`, { templateId });
  expectOk(await setDefault(second.id));
  const listed = async () => expectOk<WireRowTemplate[]>(await api(t, ann.cookie, 'GET', `${S}/database/${block.id}/templates`));
  expect((await listed()).map((x) => [x.title, x.isDefault])).toEqual([
    ['Встреча', false],
    ['Звонок', true],
  ]);
  // Only a template of this database can be the default or be made from.
  const [row] = expectOk<WireRow[]>(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/rows`, { rows: [{ title: 'Строка' }] }), 201);
  const notTemplate = await setDefault(row.id);
  expect([notTemplate.statusCode, errorCode(notTemplate)]).toEqual([422, 'validation_failed']);
  const other = await database();
  const fromOther = await api(t, ann.cookie, 'POST', `${S}/database/${other.block.id}/rows`, { rows: [{ templateId: first.id }] });
  expect([fromOther.statusCode, errorCode(fromOther)]).toEqual([422, 'validation_failed']);
  const fromRow = await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/rows`, { rows: [{ templateId: row.id }] });
  expect(fromRow.statusCode).toBe(422);

  // Changed on its page as a row: its title, a cell.
  expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${first.id}`, { title: 'Встреча с клиентом' }));
  const cell = expectOk<{ version: number }>(await api(t, ann.cookie, 'POST', `${S}/row/${first.id}/cells/priority`, { value: 2, version: 0 }));
  expect(cell.version).toBe(1);
  expect((await listed())[0].title).toBe('Встреча с клиентом');
  // Not through the page API.
  for (const [method, url] of [
    ['DELETE', `${S}/element/${first.id}`],
    ['POST', `${S}/trash/${first.id}/restore`],
    ['POST', `${S}/element/${first.id}/page/clone`],
  ] as const) {
    const refused = await api(t, ann.cookie, method, url, method === 'POST' && url.endsWith('clone') ? { workspaceId: ann.workspaceId } : undefined);
    expect([url, refused.statusCode, errorCode(refused)]).toEqual([url, 422, 'database.row_template']);
  }
  // Deleted: gone for good, the default with it; the rows made from it keep what they took.
  const [fromSecond] = expectOk<WireRow[]>(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/rows`, { rows: [{ templateId: second.id }] }), 201);
  expectOk(await api(t, ann.cookie, 'DELETE', `${S}/database/${block.id}/templates/${second.id}`));
  expect((await listed()).map((x) => x.title)).toEqual(['Встреча с клиентом']);
  const data = expectOk<WireBlock>(await api(t, ann.cookie, 'GET', `${S}/block/${block.id}`)).data as DatabaseData;
  expect(data.defaultTemplate ?? null).toBeNull();
  expect((await api(t, ann.cookie, 'GET', `${S}/element/${second.id}`)).statusCode).toBe(404);
  expect(expectOk<WireElement>(await api(t, ann.cookie, 'GET', `${S}/element/${fromSecond.id}`)).title).toBe('Звонок');
  expect((await api(t, ann.cookie, 'DELETE', `${S}/database/${block.id}/templates/${second.id}`)).statusCode).toBe(404);
  expect((await api(t, ann.cookie, 'DELETE', `${S}/database/${block.id}/templates/${row.id}`)).statusCode).toBe(404);
  expect((await rows(block.id)).map((r) => r.data.title).sort()).toEqual(['Звонок', 'Строка']);
});

test('readers list templates; only editors make, default or delete them; outsiders nothing', async () => {
  const { block, page } = await database();
  expectOk(await api(t, ann.cookie, 'POST', `${S}/element/${page.id}/member/add`, [{ userId: bob.id, accessLevel: 'read' }]));
  const template = expectOk<WireRowTemplate>(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/templates`, { title: 'Шаблон' }), 201);
  expect(expectOk<WireRowTemplate[]>(await api(t, bob.cookie, 'GET', `${S}/database/${block.id}/templates`)).map((x) => x.id)).toEqual([template.id]);
  expect((await api(t, bob.cookie, 'POST', `${S}/database/${block.id}/templates`, { title: 'Мой' })).statusCode).toBe(403);
  expect((await api(t, bob.cookie, 'POST', `${S}/database/${block.id}/templates/default`, { templateId: template.id })).statusCode).toBe(403);
  expect((await api(t, bob.cookie, 'DELETE', `${S}/database/${block.id}/templates/${template.id}`)).statusCode).toBe(403);
  expect((await api(t, bob.cookie, 'POST', `${S}/database/${block.id}/rows`, { rows: [{ templateId: template.id }] })).statusCode).toBe(403);
  expect((await api(t, bob.cookie, 'PATCH', `${S}/element/${template.id}`, { title: 'Чужой' })).statusCode).toBe(403);
  for (const [method, url] of [
    ['GET', `${S}/database/${block.id}/templates`],
    ['GET', `${S}/element/${template.id}`],
    ['DELETE', `${S}/database/${block.id}/templates/${template.id}`],
  ] as const)
    expect((await api(t, out.cookie, method, url)).statusCode).toBe(403);
  // Bad input: a value that does not fit.
  const bad = await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/templates`, { values: { priority: 'много' } });
  expect([bad.statusCode, errorCode(bad)]).toEqual([422, 'validation_failed']);
  expect(expectOk<WireRowTemplate[]>(await api(t, ann.cookie, 'GET', `${S}/database/${block.id}/templates`))).toHaveLength(1);
});

test('a database page duplicated comes with its templates, still templates, the default the copy’s', async () => {
  const { block, page } = await database();
  const template = expectOk<WireRowTemplate>(
    await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/templates`, { title: 'Баг', values: { priority: 1 } }),
    201,
  );
  expectOk(await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: template.id, type: 'text', data: { tokens: [{ text: 'Шаги' }] } }), 201);
  expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/templates/default`, { templateId: template.id }));
  const copy = expectOk<WireElement>(await api(t, ann.cookie, 'POST', `${S}/element/${page.id}/page/clone`, { workspaceId: ann.workspaceId }), 201);
  const copied = (await blocksOf(copy.id)).find((b) => b.type === 'database')!;
  const templates = expectOk<WireRowTemplate[]>(await api(t, ann.cookie, 'GET', `${S}/database/${copied.id}/templates`));
  expect(templates.map((x) => [x.title, x.isDefault])).toEqual([['Баг', true]]);
  expect(templates[0].id).not.toBe(template.id);
  expect((await blocksOf(templates[0].id)).map((b) => (b.data as { tokens: Array<{ text: string }> }).tokens[0].text)).toEqual(['Шаги']);
  expect(expectOk<WireElement>(await api(t, ann.cookie, 'GET', `${S}/element/${templates[0].id}`)).rowTemplate).toBe(true);
  expect(await rows(copied.id)).toEqual([]);
  // The original's are as they were.
  expect(expectOk<WireRowTemplate[]>(await api(t, ann.cookie, 'GET', `${S}/database/${block.id}/templates`)).map((x) => x.id)).toEqual([template.id]);
});

test('a database block copied on its own comes with its templates, still templates, the default the copy’s', async () => {
  const { block } = await database();
  const template = expectOk<WireRowTemplate>(
    await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/templates`, { title: 'Баг', values: { priority: 3 } }),
    201,
  );
  expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/templates/default`, { templateId: template.id }));
  expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/rows`, { rows: [{ title: 'Строка' }] }), 201);
  const [copy] = expectOk<WireBlock[]>(await api(t, ann.cookie, 'POST', `${S}/block/${block.id}/clone`, {}), 201);
  const templates = expectOk<WireRowTemplate[]>(await api(t, ann.cookie, 'GET', `${S}/database/${copy.id}/templates`));
  expect(templates.map((x) => [x.title, x.isDefault])).toEqual([['Баг', true]]);
  expect(templates[0].id).not.toBe(template.id);
  expect((await rows(copy.id)).map((r) => r.data.title)).toEqual(['Строка']);
  // A row of the copy from its default: the copy's template's values.
  const [made] = expectOk<WireRow[]>(await api(t, ann.cookie, 'POST', `${S}/database/${copy.id}/rows`, { rows: [{ templateId: templates[0].id }] }), 201);
  expect(made.data.values.priority).toBe(3);
  expect(expectOk<WireRowTemplate[]>(await api(t, ann.cookie, 'GET', `${S}/database/${block.id}/templates`)).map((x) => x.id)).toEqual([template.id]);
});

test('a template of a database whose page is in the trash is not written (409 page.in_trash), and is again once the page is back; a favourite template is listed while its page is not in the trash', async () => {
  const { block, page } = await database();
  const template = expectOk<WireRowTemplate>(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/templates`, { title: 'Баг' }), 201);
  expectOk(await api(t, ann.cookie, 'DELETE', `${S}/element/${page.id}`));
  const writes = [
    ['POST', `${S}/block`, { pageId: template.id, type: 'text', data: { tokens: [{ text: 'Шаги' }] } }],
    ['PATCH', `${S}/element/${template.id}`, { title: 'Другой' }],
    ['POST', `${S}/row/${template.id}/cells/priority`, { value: 2, version: 0 }],
  ] as const;
  for (const [method, url, payload] of writes) {
    const refused = await api(t, ann.cookie, method, url, payload);
    expect([url, refused.statusCode, errorCode(refused)]).toEqual([url, 409, 'page.in_trash']);
  }
  expect(await blocksOf(template.id)).toEqual([]);
  expectOk(await api(t, ann.cookie, 'POST', `${S}/trash/${page.id}/restore`));
  for (const [method, url, payload] of writes) expect((await api(t, ann.cookie, method, url, payload)).statusCode).toBeLessThan(300);
  // A favourite template is listed in «Избранное» while its database's page is not in the trash.
  expectOk(await api(t, ann.cookie, 'POST', `${S}/element/${template.id}/addToFavorites`));
  const favourites = async () =>
    expectOk<WireElement[]>(await api(t, ann.cookie, 'GET', `${S}/section/favorite`, undefined, { 'x-workspace-id': ann.workspaceId })).map((p) => p.id);
  expect(await favourites()).toContain(template.id);
  expectOk(await api(t, ann.cookie, 'DELETE', `${S}/element/${page.id}`));
  expect(await favourites()).not.toContain(template.id);
  // Nor a page made under it meanwhile.
  const under = await api(t, ann.cookie, 'POST', `${S}/element/${template.id}/children`, { title: 'Заметки' });
  expect([under.statusCode, errorCode(under)]).toEqual([409, 'page.in_trash']);
  // The page back, the database block deleted (its rows go to the trash): the same.
  expectOk(await api(t, ann.cookie, 'POST', `${S}/trash/${page.id}/restore`));
  expect(await favourites()).toContain(template.id);
  expectOk(await api(t, ann.cookie, 'DELETE', `${S}/block/${block.id}`));
  const deleted = await api(t, ann.cookie, 'PATCH', `${S}/element/${template.id}`, { title: 'Третий' });
  expect([deleted.statusCode, errorCode(deleted)]).toEqual([409, 'page.in_trash']);
  expect(await favourites()).not.toContain(template.id);
});

test('a template with a database in its content: rows made from it hold their own copy, which outlives the template; guards', async () => {
  const { block } = await database();
  const template = expectOk<WireRowTemplate>(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/templates`, { title: 'Проект' }), 201);
  // An inline database with a row, in the template's content.
  const inner = expectOk<WireBlock>(
    await api(t, ann.cookie, 'POST', `${S}/block`, {
      pageId: template.id,
      type: 'database',
      data: {
        config: { fields: { [MAIN_FIELD_ID]: { name: 'Пункт', type: 'text' } } },
        view: { layouts: [{ uid: 'iv', type: 'table', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
      },
    }),
    201,
  );
  expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${inner.id}/rows`, { rows: [{ title: 'Пункт 1' }] }), 201);
  const [row] = expectOk<WireRow[]>(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/rows`, { rows: [{ templateId: template.id }] }), 201);
  const copied = (await blocksOf(row.id)).find((b) => b.type === 'database')!;
  const innerRows = async () => expectOk<WireRow[]>(await api(t, ann.cookie, 'GET', `${S}/database/${copied.id}/rows?${q({ limit: 10 })}`));
  const [item] = await innerRows();
  expect(item.data.title).toBe('Пункт 1');
  // The copy's row lives under the row made, not under the template.
  expect(expectOk<WireElement>(await api(t, ann.cookie, 'GET', `${S}/element/${item.id}`)).parentId).toBe(row.id);
  // A page under the template: it is not deleted with it (moved out first); a template is not moved.
  const under = expectOk<WireElement>(await api(t, ann.cookie, 'POST', `${S}/element/${template.id}/children`, { title: 'Заметки' }), 201);
  const refused = await api(t, ann.cookie, 'DELETE', `${S}/database/${block.id}/templates/${template.id}`);
  expect([refused.statusCode, errorCode(refused)]).toEqual([422, 'validation_failed']);
  expectOk(await api(t, ann.cookie, 'POST', `${S}/element/${under.id}/move`, { dst: 'private', placeAfter: null }));
  const moved = await api(t, ann.cookie, 'POST', `${S}/element/${template.id}/move`, { dst: 'private', placeAfter: null });
  expect([moved.statusCode, errorCode(moved)]).toEqual([422, 'database.row_template']);
  expectOk(await api(t, ann.cookie, 'DELETE', `${S}/database/${block.id}/templates/${template.id}`));
  expect((await innerRows()).map((r) => r.data.title)).toEqual(['Пункт 1']);
  // At most TEMPLATE_ROWS_PER_REQUEST rows from templates a request.
  const other = expectOk<WireRowTemplate>(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/templates`, { title: 'Ещё' }), 201);
  const many = await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/rows`, { rows: Array.from({ length: 101 }, () => ({ templateId: other.id })) });
  expect([many.statusCode, errorCode(many)]).toEqual([422, 'validation_failed']);
});

test('a two-way relation written on a template names nothing in the other database', async () => {
  const { block } = await database();
  const other = await database();
  expectOk(
    await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/fields`, {
      id: 'links',
      field: { name: 'Связи', type: 'relation', databaseId: other.block.id, twoWay: { fieldId: 'back' } },
    }),
  );
  const [target] = expectOk<WireRow[]>(await api(t, ann.cookie, 'POST', `${S}/database/${other.block.id}/rows`, { rows: [{ title: 'Цель' }] }), 201);
  const template = expectOk<WireRowTemplate>(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/templates`, { title: 'Шаблон' }), 201);
  expectOk(await api(t, ann.cookie, 'POST', `${S}/row/${template.id}/cells/links`, { value: [target.id], version: 0 }));
  const stored = await t.app.db.selectFrom('database_cells').select('value').where('row_id', '=', target.id).where('field_id', '=', 'back').executeTakeFirst();
  expect(stored).toBeUndefined();
  // A row made from it does name the target, both ways.
  const [row] = expectOk<WireRow[]>(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/rows`, { rows: [{ templateId: template.id }] }), 201);
  const back = await t.app.db
    .selectFrom('database_cells')
    .select('value')
    .where('row_id', '=', target.id)
    .where('field_id', '=', 'back')
    .executeTakeFirstOrThrow();
  expect(JSON.parse(back.value)).toEqual([row.id]);
});
