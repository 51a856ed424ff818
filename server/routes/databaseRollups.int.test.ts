import type { Socket } from 'socket.io-client';
import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { DatabaseEvent, WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { channels } from '../../schema/realtime';
import { actor, joinWorkspace, makeTeamWorkspace, share, type Actor } from '../../test/helpers/pages';
import { collect, connectRealtime, request, until } from '../../test/helpers/realtimeClient';
import { fillRowLinks } from '../db/migrations/2026-12-05-0002-row-links';
import { api, createTestApp, errorCode, expectOk, jsonQueryString as q, type TestApp } from '../../test/helpers/testApp';

/*
 * Rollups (issue 38, docs/relations.md «Rollups») on a real server and the project's database:
 * a rollup field reads one field of the rows a relation names and gives one value per row,
 * computed on the server when it is added, kept current when a related row changes (a cell, its
 * title, the trash) or the relation cell does, told live to a second viewer; views filter and
 * sort by it in SQL; formulas read it; a relation it reads is not deleted; originals of another
 * database go only to its readers.
 */

let t: TestApp;
let ann: Actor;
let bob: Actor;
let baseUrl: string;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  ann = await actor(t, 'ann.rollups@example.com');
  bob = await actor(t, 'bob.rollups@example.com');
  await makeTeamWorkspace(t, ann.workspaceId);
  await joinWorkspace(t, ann.workspaceId, bob.id, 'participant');
});
afterAll(async () => {
  await t.close();
});

/** A private page of Ann's holding a database with these fields and rows; its id, page and rows by title. */
async function database(title: string, fields: Record<string, unknown>, rows: Array<{ title: string; values?: Record<string, unknown> }>) {
  const page = expectOk<WireElement>(await api(t, ann.cookie, 'POST', `${S}/section/private`, { title }, { 'x-workspace-id': ann.workspaceId }), 201);
  const data = {
    config: { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, ...fields } },
    view: { layouts: [{ uid: `v${title.length}`, type: 'table', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
  } as unknown as DatabaseData;
  const block = expectOk<WireBlock>(await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  const made = expectOk<WireRow[]>(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/rows`, { rows }), 201);
  return { id: block.id, page: page.id, rows: Object.fromEntries(made.map((row) => [row.data.title, row])) };
}

const rowsOf = async (who: Actor, db: string, query: Record<string, unknown> = {}) =>
  expectOk<WireRow[]>(await api(t, who.cookie, 'GET', `${S}/database/${db}/rows?${q({ limit: 100, ...query })}`));
const valuesOf = async (who: Actor, db: string, fieldId: string) =>
  Object.fromEntries((await rowsOf(who, db)).map((row) => [row.data.title, row.data.values[fieldId] ?? null]));
const write = async (who: Actor, row: WireRow, fieldId: string, value: unknown) => {
  const now = (await api(t, who.cookie, 'GET', `${S}/row/${row.id}`)).json() as { data: WireRow };
  return api(t, who.cookie, 'POST', `${S}/row/${row.id}/cells/${fieldId}`, { value, version: now.data.versions[fieldId] ?? 0 });
};
const addField = (db: string, id: string, field: Record<string, unknown>) => api(t, ann.cookie, 'POST', `${S}/database/${db}/fields`, { id, field });

/** Projects whose tasks (another database) have hours, a done box and a due day. */
async function projectsAndTasks() {
  const tasks = await database(
    'Задачи',
    { hours: { name: 'Часы', type: 'number' }, done: { name: 'Готово', type: 'checkbox' }, due: { name: 'Срок', type: 'date' } },
    [
      { title: 'Вёрстка', values: { hours: 3, done: true, due: '2026-12-10' } },
      { title: 'Тексты', values: { hours: 5, due: '2026-12-01' } },
      { title: 'Сервер', values: { hours: 8, done: true } },
    ],
  );
  const projects = await database('Проекты', {}, [{ title: 'Сайт' }, { title: 'Пусто' }]);
  expectOk(await addField(projects.id, 'tasks', { name: 'Задачи', type: 'relation', databaseId: tasks.id }));
  const { Вёрстка, Тексты, Сервер } = tasks.rows;
  expectOk(await write(ann, projects.rows['Сайт'], 'tasks', [Вёрстка.id, Тексты.id, Сервер.id]));
  return { tasks, projects };
}

test('the calculations over another database, computed when the field is added; a bad rollup is refused', async () => {
  const { projects } = await projectsAndTasks();
  const rollups: Array<[string, string, string, unknown, unknown]> = [
    ['sum', 'hours', 'sum', 16, 0],
    ['avg', 'hours', 'average', 16 / 3, null],
    ['med', 'hours', 'median', 5, null],
    ['range', 'hours', 'range', 5, null],
    ['count', MAIN_FIELD_ID, 'countAll', 3, 0],
    ['unique', 'done', 'countUnique', 2, 0],
    ['checked', 'done', 'percentChecked', 66.67, null],
    ['empty', 'due', 'countEmpty', 1, 0],
    ['first', 'due', 'earliest', '2026-12-01', null],
    ['span', 'due', 'dateRange', 9, null],
    ['names', MAIN_FIELD_ID, 'showOriginal', ['Вёрстка', 'Тексты', 'Сервер'], null],
  ];
  for (const [id, targetFieldId, calculation] of rollups)
    expectOk(await addField(projects.id, id, { name: id, type: 'rollup', relationFieldId: 'tasks', targetFieldId, calculation }));
  const rows = Object.fromEntries((await rowsOf(ann, projects.id)).map((row) => [row.data.title, row.data.values]));
  for (const [id, , , site, empty] of rollups) {
    expect([id, rows['Сайт'][id] ?? null]).toEqual([id, site]);
    expect([id, rows['Пусто'][id] ?? null]).toEqual([id, empty]);
  }
  // Refused: a rollup of no relation, of a field the other database has not, a sum of dates; a rollup is never written.
  for (const [field, path] of [
    [{ relationFieldId: 'nope', targetFieldId: 'hours', calculation: 'sum' }, 'field.relationFieldId'],
    [{ relationFieldId: 'tasks', targetFieldId: 'nope', calculation: 'sum' }, 'field.targetFieldId'],
    [{ relationFieldId: 'tasks', targetFieldId: 'due', calculation: 'sum' }, 'field.calculation'],
  ] as const) {
    const res = await addField(projects.id, 'bad', { name: 'Плохая', type: 'rollup', ...field });
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    if (path !== 'field.relationFieldId') expect(res.body).toContain(path);
  }
  const written = await write(ann, projects.rows['Сайт'], 'sum', 3);
  expect([written.statusCode, errorCode(written)]).toEqual([422, 'database.field_computed']);
  // The relation a rollup reads is not deleted nor retyped (the rollups named).
  for (const res of [
    await api(t, ann.cookie, 'DELETE', `${S}/database/${projects.id}/fields/tasks`),
    await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/fields/tasks`, { field: { name: 'Задачи', type: 'text' } }),
  ]) {
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    expect(res.body).toContain('Связь читают сводки');
  }
});

test('kept current: a related row’s cell, its title, the trash and the relation cell; a second viewer hears it', async () => {
  const { tasks, projects } = await projectsAndTasks();
  expectOk(await addField(projects.id, 'sum', { name: 'Сумма', type: 'rollup', relationFieldId: 'tasks', targetFieldId: 'hours', calculation: 'sum' }));
  expectOk(
    await addField(projects.id, 'names', {
      name: 'Названия',
      type: 'rollup',
      relationFieldId: 'tasks',
      targetFieldId: MAIN_FIELD_ID,
      calculation: 'showOriginal',
    }),
  );
  // A formula reads the rollup as a number.
  expectOk(await addField(projects.id, 'money', { name: 'Деньги', type: 'formula', expression: 'prop("sum") * 1000' }));
  expect((await valuesOf(ann, projects.id, 'money'))['Сайт']).toBe(16000);
  await share(t, ann, projects.page, [{ userId: bob.id, accessLevel: 'read' }]);
  await share(t, ann, tasks.page, [{ userId: bob.id, accessLevel: 'read' }]);
  const socket: Socket = await connectRealtime(baseUrl, { cookie: bob.cookie });
  try {
    expect((await request(socket, 'join', { channel: channels.element(projects.page, bob.id) })).ok).toBe(true);
    const heard = collect<DatabaseEvent>(socket, 'database');
    // A cell of a task: Bob, watching the projects, hears the new sum and the formula reading it.
    expectOk(await write(ann, tasks.rows['Сервер'], 'hours', 10));
    await until(() =>
      heard.some((event) => event.change.kind === 'cells' && JSON.stringify(event.change).includes('"sum"') && JSON.stringify(event.change).includes('18')),
    );
    expect(JSON.stringify(heard)).toContain('18000');
    expect(await valuesOf(bob, projects.id, 'sum')).toEqual({ Сайт: 18, Пусто: 0 });
  } finally {
    socket.close();
  }
  // A title (through the page, as the row's page renames it).
  expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${tasks.rows['Тексты'].id}`, { title: 'Статьи' }));
  expect((await valuesOf(ann, projects.id, 'names'))['Сайт']).toEqual(['Вёрстка', 'Статьи', 'Сервер']);
  // The trash: a task in it is no related row; restored, it counts again.
  expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${tasks.id}/rows/delete`, { ids: [tasks.rows['Вёрстка'].id] }));
  expect((await valuesOf(ann, projects.id, 'sum'))['Сайт']).toBe(15);
  expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${tasks.id}/rows/restore`, { ids: [tasks.rows['Вёрстка'].id] }));
  expect((await valuesOf(ann, projects.id, 'sum'))['Сайт']).toBe(18);
  // The relation cell: fewer tasks, a smaller sum; and the other project gets one.
  const site = (await rowsOf(ann, projects.id)).find((row) => row.data.title === 'Сайт')!;
  expectOk(await write(ann, site, 'tasks', [tasks.rows['Сервер'].id]));
  const other = (await rowsOf(ann, projects.id)).find((row) => row.data.title === 'Пусто')!;
  expectOk(await write(ann, other, 'tasks', [tasks.rows['Тексты'].id]));
  expect(await valuesOf(ann, projects.id, 'sum')).toEqual({ Сайт: 10, Пусто: 5 });
  // Only the rows naming a task are computed again when it changes.
  expectOk(await write(ann, tasks.rows['Тексты'], 'hours', 7));
  expect(await valuesOf(ann, projects.id, 'sum')).toEqual({ Сайт: 10, Пусто: 7 });
  // The field the rollup reads changes type: computed again (a number retyped into text sums nothing).
  expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${tasks.id}/fields/hours`, { field: { name: 'Часы', type: 'text' } }));
  expect(await valuesOf(ann, projects.id, 'sum')).toEqual({ Сайт: 0, Пусто: 0 });
});

test('views filter and sort by a rollup; a rollup within one database; rollups reading rollups follow', async () => {
  const { tasks, projects } = await projectsAndTasks();
  expectOk(await addField(projects.id, 'sum', { name: 'Сумма', type: 'rollup', relationFieldId: 'tasks', targetFieldId: 'hours', calculation: 'sum' }));
  const third = expectOk<WireRow[]>(await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/rows`, { rows: [{ title: 'Средний' }] }), 201)[0];
  expectOk(await write(ann, third, 'tasks', [tasks.rows['Тексты'].id]));
  const sorted = await rowsOf(ann, projects.id, { sorts: [{ fieldId: 'sum', direction: 'desc' }] });
  expect(sorted.map((row) => row.data.title)).toEqual(['Сайт', 'Средний', 'Пусто']);
  const filtered = await rowsOf(ann, projects.id, { filter: { op: 'and', rules: [{ fieldId: 'sum', condition: 'gt', value: 4 }] } });
  expect(filtered.map((row) => row.data.title).sort()).toEqual(['Сайт', 'Средний']);
  // Within one database: a task's subtasks (the same database) and their hours.
  expectOk(await addField(tasks.id, 'subtasks', { name: 'Подзадачи', type: 'relation' }));
  expectOk(
    await addField(tasks.id, 'subHours', { name: 'Часы подзадач', type: 'rollup', relationFieldId: 'subtasks', targetFieldId: 'hours', calculation: 'sum' }),
  );
  expectOk(await write(ann, tasks.rows['Сервер'], 'subtasks', [tasks.rows['Вёрстка'].id, tasks.rows['Тексты'].id]));
  expect((await valuesOf(ann, tasks.id, 'subHours'))['Сервер']).toBe(8);
  // A project's rollup of the tasks' rollup: a subtask's hours change, both follow.
  expectOk(await addField(projects.id, 'deep', { name: 'Глубоко', type: 'rollup', relationFieldId: 'tasks', targetFieldId: 'subHours', calculation: 'sum' }));
  expect((await valuesOf(ann, projects.id, 'deep'))['Сайт']).toBe(8);
  expectOk(await write(ann, tasks.rows['Вёрстка'], 'hours', 13));
  expect((await valuesOf(ann, tasks.id, 'subHours'))['Сервер']).toBe(18);
  expect(await valuesOf(ann, projects.id, 'deep')).toMatchObject({ Сайт: 18, Средний: 0 });
  expect((await valuesOf(ann, projects.id, 'sum'))['Сайт']).toBe(26);
});

test('a reader of the projects who cannot read the tasks gets the figures but not the originals', async () => {
  const { projects } = await projectsAndTasks();
  expectOk(await addField(projects.id, 'sum', { name: 'Сумма', type: 'rollup', relationFieldId: 'tasks', targetFieldId: 'hours', calculation: 'sum' }));
  expectOk(
    await addField(projects.id, 'names', {
      name: 'Названия',
      type: 'rollup',
      relationFieldId: 'tasks',
      targetFieldId: MAIN_FIELD_ID,
      calculation: 'showOriginal',
    }),
  );
  await share(t, ann, projects.page, [{ userId: bob.id, accessLevel: 'read' }]);
  const his = (await rowsOf(bob, projects.id)).find((row) => row.data.title === 'Сайт')!;
  expect(his.data.values.sum).toBe(16);
  expect(his.data.values.names ?? null).toBeNull();
  const one = await api(t, bob.cookie, 'GET', `${S}/row/${his.id}`);
  expect(one.statusCode).toBe(200);
  expect(one.body).not.toContain('Вёрстка');
  expect((await valuesOf(ann, projects.id, 'names'))['Сайт']).toEqual(['Вёрстка', 'Тексты', 'Сервер']);
});

test('the links are what the relation cells say: filled from them by the migration, copied with a page, gone with a field', async () => {
  const { tasks, projects } = await projectsAndTasks();
  expectOk(await addField(projects.id, 'sum', { name: 'Сумма', type: 'rollup', relationFieldId: 'tasks', targetFieldId: 'hours', calculation: 'sum' }));
  const linksOf = async (databaseId: string) =>
    (await t.app.db.selectFrom('row_links').selectAll().where('database_id', '=', databaseId).execute())
      .map((link) => `${link.from_row} ${link.field_id} ${link.to_row} ${link.to_database_id}`)
      .sort();
  const written = await linksOf(projects.id);
  expect(written).toHaveLength(3);
  // The migration's fill, from the cells alone, gives the same links.
  await t.app.db.deleteFrom('row_links').where('database_id', '=', projects.id).execute();
  await fillRowLinks(t.app.db.withTables<Record<string, never>>());
  expect(await linksOf(projects.id)).toEqual(written);
  // A copy of the projects' page: its rows' rollups follow a task as the original's do.
  const copy = expectOk<WireElement>(await api(t, ann.cookie, 'POST', `${S}/element/${projects.page}/page/clone`, { workspaceId: ann.workspaceId }), 201);
  const copied = expectOk<Array<{ id: string; type: string }>>(await api(t, ann.cookie, 'GET', `${S}/note/${copy.id}/blocks`)).find(
    (b) => b.type === 'database',
  )!;
  expect(await linksOf(copied.id)).toHaveLength(3);
  expectOk(await write(ann, tasks.rows['Вёрстка'], 'hours', 13));
  expect((await valuesOf(ann, copied.id, 'sum'))['Сайт']).toBe(26);
  expect((await valuesOf(ann, projects.id, 'sum'))['Сайт']).toBe(26);
  // The rollup, then the relation deleted: no links left.
  expectOk(await api(t, ann.cookie, 'DELETE', `${S}/database/${projects.id}/fields/sum`));
  expectOk(await api(t, ann.cookie, 'DELETE', `${S}/database/${projects.id}/fields/tasks`));
  expect(await linksOf(projects.id)).toEqual([]);
});

test('guarded: a rollup over a database its maker cannot read is refused; formulas, groups and charts do not reveal originals of another database', async () => {
  const { projects } = await projectsAndTasks();
  // Bob edits the projects but cannot read the tasks: no rollup over them by him.
  await share(t, ann, projects.page, [{ userId: bob.id, accessLevel: 'edit' }]);
  const his = await api(t, bob.cookie, 'POST', `${S}/database/${projects.id}/fields`, {
    id: 'peek',
    field: { name: 'Подглядеть', type: 'rollup', relationFieldId: 'tasks', targetFieldId: 'hours', calculation: 'max' },
  });
  expect([his.statusCode, errorCode(his)]).toEqual([422, 'database.relation_unknown']);
  // A whole block written with a rollup in it is refused too (set through the fields' calls).
  const block = expectOk<WireBlock>(await api(t, ann.cookie, 'GET', `${S}/block/${projects.id}`));
  const data = block.data as unknown as DatabaseData;
  const patched = await api(t, ann.cookie, 'POST', `${S}/block/${projects.id}`, {
    type: 'database',
    data: {
      ...data,
      config: {
        fields: { ...data.config.fields, peek: { name: 'Подглядеть', type: 'rollup', relationFieldId: 'tasks', targetFieldId: 'hours', calculation: 'max' } },
      },
    },
    version: block.version,
  });
  expect([patched.statusCode, errorCode(patched)]).toEqual([422, 'validation_failed']);
  // Ann's originals of the tasks: a formula reading them counts them but names none.
  expectOk(
    await addField(projects.id, 'names', {
      name: 'Названия',
      type: 'rollup',
      relationFieldId: 'tasks',
      targetFieldId: MAIN_FIELD_ID,
      calculation: 'showOriginal',
    }),
  );
  expectOk(await addField(projects.id, 'said', { name: 'Сказано', type: 'formula', expression: 'join(prop("names"), "; ")' }));
  expect((await valuesOf(ann, projects.id, 'said'))['Сайт']).toBe('Строка; Строка; Строка');
  // No groups and no chart by them.
  const view = data.view.layouts[0].uid;
  expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/views/${view}`, { layout: { groupBy: { fieldId: 'names' } } }));
  expect(expectOk<unknown[]>(await api(t, bob.cookie, 'GET', `${S}/database/${projects.id}/groups?${q({ viewId: view })}`))).toEqual([]);
  const chart = await api(
    t,
    bob.cookie,
    'GET',
    `${S}/database/${projects.id}/chart?${q({ viewId: view, chart: { x: { fieldId: 'names' }, y: { aggregate: 'count' } } })}`,
  );
  expect([chart.statusCode, errorCode(chart)]).toEqual([422, 'validation_failed']);
  expect(chart.body).not.toContain('Вёрстка');
});

test('kept current through the pages’ trash, and through a formula of the other database changed', async () => {
  const { tasks, projects } = await projectsAndTasks();
  expectOk(await addField(tasks.id, 'double', { name: 'Вдвое', type: 'formula', expression: 'prop("hours") * 2' }));
  expectOk(await addField(projects.id, 'sum', { name: 'Сумма', type: 'rollup', relationFieldId: 'tasks', targetFieldId: 'double', calculation: 'sum' }));
  expect((await valuesOf(ann, projects.id, 'sum'))['Сайт']).toBe(32);
  // A task's page into the trash (the pages' API, as the sidebar does) and back.
  expectOk(await api(t, ann.cookie, 'DELETE', `${S}/element/${tasks.rows['Сервер'].id}`));
  expect((await valuesOf(ann, projects.id, 'sum'))['Сайт']).toBe(16);
  expectOk(await api(t, ann.cookie, 'POST', `${S}/trash/${tasks.rows['Сервер'].id}/restore`));
  expect((await valuesOf(ann, projects.id, 'sum'))['Сайт']).toBe(32);
  // The formula the rollup reads changed: computed again there, then here.
  expectOk(
    await api(t, ann.cookie, 'POST', `${S}/database/${tasks.id}/fields/double`, { field: { name: 'Вдвое', type: 'formula', expression: 'prop("hours") * 3' } }),
  );
  expect((await valuesOf(ann, projects.id, 'sum'))['Сайт']).toBe(48);
});

test('two people writing both sides of rollups reading each other at once: every write lands, the figures agree', async () => {
  const tasks = await database('Задачи-гонка', { hours: { name: 'Часы', type: 'number' } }, [
    { title: 'А', values: { hours: 1 } },
    { title: 'Б', values: { hours: 2 } },
  ]);
  const projects = await database('Проекты-гонка', { budget: { name: 'Бюджет', type: 'number' } }, [{ title: 'П', values: { budget: 10 } }]);
  expectOk(await addField(projects.id, 'tasks', { name: 'Задачи', type: 'relation', databaseId: tasks.id, twoWay: { fieldId: 'project' } }));
  expectOk(await write(ann, projects.rows['П'], 'tasks', [tasks.rows['А'].id, tasks.rows['Б'].id]));
  expectOk(await addField(projects.id, 'hours', { name: 'Часы', type: 'rollup', relationFieldId: 'tasks', targetFieldId: 'hours', calculation: 'sum' }));
  expectOk(await addField(tasks.id, 'budget', { name: 'Бюджет', type: 'rollup', relationFieldId: 'project', targetFieldId: 'budget', calculation: 'sum' }));
  await share(t, ann, projects.page, [{ userId: bob.id, accessLevel: 'edit' }]);
  await share(t, ann, tasks.page, [{ userId: bob.id, accessLevel: 'edit' }]);
  for (let round = 1; round <= 8; round++) {
    const answers = await Promise.all([write(ann, tasks.rows['А'], 'hours', round * 10), write(bob, projects.rows['П'], 'budget', round * 100)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
  }
  expect((await valuesOf(ann, projects.id, 'hours'))['П']).toBe(82);
  expect(await valuesOf(ann, tasks.id, 'budget')).toEqual({ А: 800, Б: 800 });
});
