import type { Socket } from 'socket.io-client';
import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { DatabaseEvent, WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { channels } from '../../schema/realtime';
import { actor, joinWorkspace, makeTeamWorkspace, share, type Actor } from '../../test/helpers/pages';
import { collect, connectRealtime, request, until } from '../../test/helpers/realtimeClient';
import { api, createTestApp, errorCode, expectOk, jsonQueryString as q, type TestApp } from '../../test/helpers/testApp';

/*
 * Relations to another database (issue 38, docs/relations.md) on a real server and the project's
 * database: a relation field names a database of the workspace its maker may read, a cell names
 * live rows of it, at most one with `limit: 'one'`; and what a reader who cannot read the other
 * database is given of such a cell — in rows, a row, a write's answer, a conflict's copy and the
 * live channel — names none of its rows (no ids, so no count), while what they cannot see stays
 * when they write the cell.
 */

let t: TestApp;
let ann: Actor;
let bob: Actor;
let baseUrl: string;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  ann = await actor(t, 'ann.relations@example.com');
  bob = await actor(t, 'bob.relations@example.com');
  await makeTeamWorkspace(t, ann.workspaceId);
  await joinWorkspace(t, ann.workspaceId, bob.id, 'participant');
});
afterAll(async () => {
  await t.close();
});

/** A private page of Ann's holding a database with these rows; its id, its page and its rows by title. */
async function database(title: string, titles: string[]) {
  const page = expectOk<WireElement>(await api(t, ann.cookie, 'POST', `${S}/section/private`, { title }, { 'x-workspace-id': ann.workspaceId }), 201);
  const data: DatabaseData = {
    config: { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, note: { name: 'Заметка', type: 'text' } } } as unknown as DatabaseData['config'],
    view: { layouts: [{ uid: `v${title.length}`, type: 'table', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
  };
  const block = expectOk<WireBlock>(await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  const rows = expectOk<WireRow[]>(await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/rows`, { rows: titles.map((t) => ({ title: t })) }), 201);
  return { id: block.id, page: page.id, rows: Object.fromEntries(rows.map((row) => [row.data.title, row])) };
}

const rowsOf = async (who: Actor, db: string) =>
  Object.fromEntries(expectOk<WireRow[]>(await api(t, who.cookie, 'GET', `${S}/database/${db}/rows?${q({ limit: 100 })}`)).map((r) => [r.data.title, r]));
const cell = (who: Actor, row: WireRow | string, fieldId: string, value: unknown, version: number) =>
  api(t, who.cookie, 'POST', `${S}/row/${typeof row === 'string' ? row : row.id}/cells/${fieldId}`, { value, version });

/** Projects relate to clients (one client each: `client`; any number: `clients`). */
async function projectsAndClients() {
  const clients = await database('Клиенты', ['Альфа', 'Бета', 'Гамма']);
  const projects = await database('Проекты', ['Сайт', 'Приложение']);
  for (const [id, field] of [
    ['client', { name: 'Клиент', type: 'relation', databaseId: clients.id, limit: 'one' }],
    ['clients', { name: 'Клиенты', type: 'relation', databaseId: clients.id }],
  ] as const)
    expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/fields`, { id, field }));
  return { clients, projects };
}

test('a relation names rows of another database; one at most with limit one; rows of no other database, in the trash or of a database not named are refused', async () => {
  const { clients, projects } = await projectsAndClients();
  const { Альфа, Бета, Гамма } = clients.rows;
  const site = projects.rows['Сайт'];
  expect(expectOk<{ value: unknown }>(await cell(ann, site, 'clients', [Альфа.id, Бета.id], 0)).value).toEqual([Альфа.id, Бета.id]);
  expect(expectOk<{ value: unknown }>(await cell(ann, site, 'client', [Гамма.id], 0)).value).toEqual([Гамма.id]);
  expect((await rowsOf(ann, projects.id))['Сайт'].data.values).toMatchObject({ clients: [Альфа.id, Бета.id], client: [Гамма.id] });
  // Two rows where one fits.
  const two = await cell(ann, site, 'client', [Альфа.id, Бета.id], 1);
  expect([two.statusCode, errorCode(two)]).toEqual([422, 'validation_failed']);
  // A row of the projects themselves, an id of nothing: not rows of the clients.
  for (const stranger of [projects.rows['Приложение'].id, crypto.randomUUID()]) {
    const res = await cell(ann, site, 'clients', [Альфа.id, stranger], 1);
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'database.relation_unknown']);
  }
  // A client in the trash cannot be picked, and is shown nowhere while it is there; one named
  // already stays named when the cell is written as it is shown, and is there again once restored.
  expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${clients.id}/rows/delete`, { ids: [Бета.id] }));
  const trashed = await cell(ann, projects.rows['Приложение'], 'clients', [Бета.id], 0);
  expect([trashed.statusCode, errorCode(trashed)]).toEqual([422, 'database.relation_unknown']);
  expect((await rowsOf(ann, projects.id))['Сайт'].data.values.clients).toEqual([Альфа.id]);
  expect(expectOk<{ value: unknown }>(await cell(ann, site, 'clients', [Альфа.id, Гамма.id], 1)).value).toEqual([Альфа.id, Гамма.id]);
  expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${clients.id}/rows/restore`, { ids: [Бета.id] }));
  expect((await rowsOf(ann, projects.id))['Сайт'].data.values.clients).toEqual([Альфа.id, Гамма.id, Бета.id]);
  // New rows are checked as cells are.
  const made = await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/rows`, {
    rows: [{ title: 'Новый', values: { clients: [projects.rows['Сайт'].id] } }],
  });
  expect([made.statusCode, errorCode(made)]).toEqual([422, 'database.relation_unknown']);
  expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/rows`, { rows: [{ title: 'Новый', values: { clients: [Гамма.id] } }] }), 201);
});

test('a relation field names a database of the workspace its maker can read; its own database is no other; a new target clears the cells', async () => {
  const { clients, projects } = await projectsAndClients();
  // Bob's own database, in his own workspace: Ann cannot read it.
  const bobsPage = expectOk<WireElement>(
    await api(t, bob.cookie, 'POST', `${S}/section/private`, { title: 'Своё' }, { 'x-workspace-id': bob.workspaceId }),
    201,
  );
  const bobsDb = expectOk<WireBlock>(
    await api(t, bob.cookie, 'POST', `${S}/block`, {
      pageId: bobsPage.id,
      type: 'database',
      data: {
        config: { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' } } },
        view: { layouts: [{ uid: 'b', type: 'table', orderedFields: [] }] },
      },
    }),
    201,
  );
  for (const databaseId of [bobsDb.id, crypto.randomUUID()]) {
    const res = await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/fields`, { field: { name: 'Чужое', type: 'relation', databaseId } });
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'database.relation_unknown']);
  }
  // Bob cannot make a relation from his database to Ann's clients either (another workspace, and not his to read).
  const across = await api(t, bob.cookie, 'POST', `${S}/database/${bobsDb.id}/fields`, {
    field: { name: 'Клиенты', type: 'relation', databaseId: clients.id },
  });
  expect([across.statusCode, errorCode(across)]).toEqual([422, 'database.relation_unknown']);
  // Naming its own database is a relation within it (stored without the id).
  const own = expectOk<{ config: DatabaseData['config'] }>(
    await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/fields`, {
      id: 'self',
      field: { name: 'Связано', type: 'relation', databaseId: projects.id },
    }),
  );
  expect(JSON.stringify(own)).not.toContain(`"databaseId":"${projects.id}"`);
  // Limited to one row later: each cell keeps its first.
  const site = projects.rows['Сайт'];
  expectOk(await cell(ann, site, 'clients', [clients.rows['Альфа'].id, clients.rows['Бета'].id], 0));
  const limited = await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/fields/clients`, {
    field: { name: 'Клиенты', type: 'relation', databaseId: clients.id, limit: 'one' },
  });
  expect(limited.body).toContain('"converted":1');
  expect((await rowsOf(ann, projects.id))['Сайт'].data.values.clients).toEqual([clients.rows['Альфа'].id]);
  // Pointed at another database: what the cells named goes (it was of the clients).
  const retarget = await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/fields/clients`, {
    field: { name: 'Клиенты', type: 'relation', databaseId: projects.id },
  });
  expect(retarget.statusCode).toBe(200);
  expect(retarget.body).toContain('"dropped":1');
  expect((await rowsOf(ann, projects.id))['Сайт'].data.values.clients ?? null).toBeNull();
});

test('a reader who cannot read the other database is given none of its rows: rows, a row, titles, a write and its conflict, the live channel', async () => {
  const { clients, projects } = await projectsAndClients();
  const { Альфа, Бета } = clients.rows;
  const site = projects.rows['Сайт'];
  expectOk(await cell(ann, site, 'clients', [Альфа.id, Бета.id], 0));
  // Bob may edit the projects, not read the clients.
  await share(t, ann, projects.page, [{ userId: bob.id, accessLevel: 'edit' }]);
  const seen = (await rowsOf(bob, projects.id))['Сайт'];
  expect(seen.data.values.clients).toEqual([]);
  expect(expectOk<WireRow>(await api(t, bob.cookie, 'GET', `${S}/row/${site.id}`)).data.values.clients).toEqual([]);
  expect((await api(t, bob.cookie, 'GET', `${S}/database/${clients.id}/titles?${q({ ids: [Альфа.id] })}`)).statusCode).toBe(403);
  // The databases a relation could name: his list has the projects, not the clients; Ann's both (a search narrows it).
  const choices = async (who: Actor, search?: string) =>
    expectOk<Array<{ id: string; title: string }>>(
      await api(t, who.cookie, 'GET', `${S}/database/${projects.id}/relatable?${q(search === undefined ? {} : { search })}`),
    ).map((d) => d.id);
  expect(await choices(bob)).toContain(projects.id);
  expect(await choices(bob)).not.toContain(clients.id);
  expect(await choices(ann)).toEqual(expect.arrayContaining([projects.id, clients.id]));
  expect(await choices(ann, 'клиен')).toContain(clients.id);
  expect(await choices(ann, 'клиен')).not.toContain(projects.id);
  // Only a reader of the database asks.
  expect((await api(t, bob.cookie, 'GET', `${S}/database/${clients.id}/relatable`)).statusCode).toBe(403);
  expect((await api(t, bob.cookie, 'GET', `${S}/row/${Альфа.id}`)).statusCode).toBe(403);
  // He cannot pick a client (he cannot see them) …
  const picked = await cell(bob, site, 'clients', [clients.rows['Гамма'].id], seen.versions.clients);
  expect([picked.statusCode, errorCode(picked)]).toEqual([422, 'database.relation_unknown']);
  // … and clearing the cell as he sees it keeps the clients he never saw.
  const cleared = expectOk<{ value: unknown; version: number }>(await cell(bob, site, 'clients', [], seen.versions.clients));
  expect(cleared.value).toEqual([]);
  expect((await rowsOf(ann, projects.id))['Сайт'].data.values.clients).toEqual([Альфа.id, Бета.id]);
  // A write based on an older version: the conflict's copy names none of them either.
  const stale = await cell(bob, site, 'clients', [], seen.versions.clients);
  expect([stale.statusCode, errorCode(stale)]).toEqual([422, 'database.cell_conflict']);
  expect(stale.body).not.toContain(Альфа.id);
  const several = await api(t, bob.cookie, 'POST', `${S}/database/${projects.id}/cells`, {
    cells: [
      { rowId: site.id, fieldId: 'note', value: 'заметка', version: 0 },
      { rowId: site.id, fieldId: 'clients', value: [], version: cleared.version },
    ],
  });
  expect(several.statusCode).toBe(200);
  expect(several.body).not.toContain(Альфа.id);
  expect(several.body).not.toContain(Бета.id);

  // Live: Bob in the projects' channel hears that rows changed, never which clients.
  const socket: Socket = await connectRealtime(baseUrl, { cookie: bob.cookie });
  try {
    expect((await request(socket, 'join', { channel: channels.element(projects.page, bob.id) })).ok).toBe(true);
    const heard = collect<DatabaseEvent>(socket, 'database');
    const now = (await rowsOf(ann, projects.id))['Сайт'];
    expectOk(await cell(ann, site, 'clients', [clients.rows['Гамма'].id], now.versions.clients));
    expectOk(await cell(ann, site, 'note', 'снова', now.versions.note));
    await until(() => heard.some((event) => event.change.kind === 'cells'));
    expect(heard.some((event) => event.change.kind === 'reset')).toBe(true);
    expect(JSON.stringify(heard)).not.toContain(clients.rows['Гамма'].id);
    // Ann, who reads both, reads the row with its clients.
    expect((await rowsOf(ann, projects.id))['Сайт'].data.values.clients).toEqual([clients.rows['Гамма'].id]);
    // The row's history: Ann's names the clients by title; Bob's names none of them.
    const history = (who: Actor) => api(t, who.cookie, 'GET', `${S}/row/${site.id}/history`);
    expect((await history(ann)).body).toContain('"toText":"Гамма"');
    const his = await history(bob);
    expect(his.statusCode).toBe(200);
    for (const client of Object.values(clients.rows)) expect(his.body).not.toContain(client.id);
    expect(his.body).not.toContain('Гамма');
  } finally {
    socket.close();
  }
});

test('CSV export and formulas name the other database’s rows by title, to each as they may read them', async () => {
  const { clients, projects } = await projectsAndClients();
  const { Альфа, Бета } = clients.rows;
  const site = projects.rows['Сайт'];
  expectOk(await cell(ann, site, 'clients', [Альфа.id, Бета.id], 0));
  expectOk(
    await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/fields`, {
      id: 'who',
      field: { name: 'Кто', type: 'formula', expression: 'join(prop("clients"), "; ")' },
    }),
  );
  // A formula counts the other database's rows but does not name them (its value goes to every reader of the projects).
  expect((await rowsOf(ann, projects.id))['Сайт'].data.values.who).toBe('Строка; Строка');
  expectOk(
    await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/fields/who`, {
      field: { name: 'Кто', type: 'formula', expression: 'length(prop("clients"))' },
    }),
  );
  expect((await rowsOf(ann, projects.id))['Сайт'].data.values.who).toBe(2);
  const csv = (who: Actor) => api(t, who.cookie, 'GET', `${S}/database/${projects.id}/export.csv`);
  expect((await csv(ann)).body).toContain('"Альфа, Бета"');
  await share(t, ann, projects.page, [{ userId: bob.id, accessLevel: 'read' }]);
  // Bob's relation column is empty; the formula's figure is the projects' own (docs/relations.md «What formulas see»).
  const his = await csv(bob);
  expect(his.statusCode).toBe(200);
  const [header, line] = his.body.replace(/^\uFEFF/, '').split('\r\n');
  expect(header).toBe('Название,Клиент,Клиенты,Кто');
  expect(line).toBe('Сайт,,,2');
  expect(his.body).not.toContain(Альфа.id);
});

test('the database block written whole names no other database in a relation, nor drops or changes one', async () => {
  const { clients, projects } = await projectsAndClients();
  const block = expectOk<WireBlock>(await api(t, ann.cookie, 'GET', `${S}/block/${projects.id}`));
  const data = block.data as unknown as DatabaseData;
  const write = (fields: DatabaseData['config']['fields']) =>
    api(t, ann.cookie, 'POST', `${S}/block/${projects.id}`, { version: block.version, type: 'database', data: { ...data, config: { fields } } });
  const { databaseId: _dropped, ...sameDatabase } = data.config.fields.clients as Extract<DatabaseData['config']['fields'][string], { type: 'relation' }>;
  for (const fields of [
    { ...data.config.fields, clients: sameDatabase },
    { ...data.config.fields, more: { name: 'Ещё', type: 'relation' as const, databaseId: clients.id } },
    { ...data.config.fields, clients: { ...sameDatabase, databaseId: clients.id, twoWay: { fieldId: 'x' } } },
  ]) {
    const res = await write(fields);
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
  }
  // Anything else still goes (a name), and a new database block with such a relation does not.
  expectOk(await write({ ...data.config.fields, note: { name: 'Примечание', type: 'text' } }));
  const made = await api(t, ann.cookie, 'POST', `${S}/block`, {
    pageId: projects.page,
    type: 'database',
    data: {
      config: { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, c: { name: 'К', type: 'relation', databaseId: clients.id } } },
      view: { layouts: [] },
    },
  });
  expect([made.statusCode, errorCode(made)]).toEqual([422, 'validation_failed']);
});

test('an import checks a relation’s rows as a cell write does, in its dry run too: the row naming others is skipped and said', async () => {
  const { clients, projects } = await projectsAndClients();
  const rows = [
    { title: 'Новый', clients: [clients.rows['Альфа'].id] },
    { title: 'Чужой', clients: [projects.rows['Сайт'].id] },
  ];
  for (const dryRun of [true, false]) {
    const report = expectOk<{ created: number; skipped: number; problems: Array<{ row: number; column: string }> }>(
      await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/import`, { rows, dryRun }),
    );
    expect(report).toMatchObject({ created: 1, skipped: 1, problems: [{ row: 2, column: 'clients' }] });
  }
  expect((await rowsOf(ann, projects.id))['Новый'].data.values.clients).toEqual([clients.rows['Альфа'].id]);
  expect((await rowsOf(ann, projects.id))['Чужой']).toBeUndefined();
});

describe('two-way relations', () => {
  /** Projects ⇄ clients: the projects' `clients` field made two-way, its mirror `projects` in the clients. */
  async function paired() {
    const { clients, projects } = await projectsAndClients();
    const res = await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/fields/clients`, {
      field: { name: 'Клиенты', type: 'relation', databaseId: clients.id, twoWay: { fieldId: 'projects' } },
    });
    expect(res.statusCode).toBe(200);
    return { clients, projects };
  }
  const valuesOf = async (db: string, title: string, fieldId: string) => (await rowsOf(ann, db))[title].data.values[fieldId] ?? null;

  test('made two-way, the other database gets the mirror field, named after this one and shown in its views, holding what was linked already', async () => {
    const { clients, projects } = await projectsAndClients();
    const site = projects.rows['Сайт'];
    expectOk(await cell(ann, site, 'clients', [clients.rows['Альфа'].id], 0));
    expectOk(
      await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/fields/clients`, {
        field: { name: 'Клиенты', type: 'relation', databaseId: clients.id, twoWay: { fieldId: 'projects' } },
      }),
    );
    const other = expectOk<WireBlock>(await api(t, ann.cookie, 'GET', `${S}/block/${clients.id}`)).data as unknown as DatabaseData;
    expect(other.config.fields.projects).toEqual({ name: 'Проекты', type: 'relation', databaseId: projects.id, twoWay: { fieldId: 'clients' } });
    expect(other.view.layouts[0].orderedFields.map((f) => f.fieldId)).toContain('projects');
    expect(await valuesOf(clients.id, 'Альфа', 'projects')).toEqual([site.id]);
  });

  test('a link made, changed or taken out on either side shows on the other; new rows and a move’s set too', async () => {
    const { clients, projects } = await paired();
    const { Альфа, Бета, Гамма } = clients.rows;
    const site = projects.rows['Сайт'];
    const app = projects.rows['Приложение'];
    expectOk(await cell(ann, site, 'clients', [Альфа.id, Бета.id], 0));
    expect(await valuesOf(clients.id, 'Альфа', 'projects')).toEqual([site.id]);
    expect(await valuesOf(clients.id, 'Бета', 'projects')).toEqual([site.id]);
    // From the other side: Гамма names both projects.
    expectOk(await cell(ann, Гамма, 'projects', [site.id, app.id], 0));
    expect(await valuesOf(projects.id, 'Сайт', 'clients')).toEqual([Альфа.id, Бета.id, Гамма.id]);
    expect(await valuesOf(projects.id, 'Приложение', 'clients')).toEqual([Гамма.id]);
    // Taken out: Бета no longer names the site.
    const now = (await rowsOf(ann, projects.id))['Сайт'];
    expectOk(await cell(ann, site, 'clients', [Альфа.id, Гамма.id], now.versions.clients));
    expect(await valuesOf(clients.id, 'Бета', 'projects')).toBeNull();
    expect(await valuesOf(clients.id, 'Гамма', 'projects')).toEqual([site.id, app.id]);
    // Several cells at once, and a new row.
    expectOk(
      await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/cells`, {
        cells: [{ rowId: app.id, fieldId: 'clients', value: [Бета.id], version: (await rowsOf(ann, projects.id))['Приложение'].versions.clients }],
      }),
    );
    expect(await valuesOf(clients.id, 'Бета', 'projects')).toEqual([app.id]);
    expect(await valuesOf(clients.id, 'Гамма', 'projects')).toEqual([site.id]);
    const [made] = expectOk<WireRow[]>(
      await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/rows`, { rows: [{ title: 'Лендинг', values: { clients: [Альфа.id] } }] }),
      201,
    );
    expect(await valuesOf(clients.id, 'Альфа', 'projects')).toEqual([site.id, made.id]);
  });

  test('one-way again (or deleted), the mirror stays with its cells and links no more; two-way needs edit on the other database', async () => {
    const { clients, projects } = await paired();
    const site = projects.rows['Сайт'];
    expectOk(await cell(ann, site, 'clients', [clients.rows['Альфа'].id], 0));
    expectOk(
      await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/fields/clients`, { field: { name: 'Клиенты', type: 'relation', databaseId: clients.id } }),
    );
    const other = expectOk<WireBlock>(await api(t, ann.cookie, 'GET', `${S}/block/${clients.id}`)).data as unknown as DatabaseData;
    expect(other.config.fields.projects).toEqual({ name: 'Проекты', type: 'relation', databaseId: projects.id });
    expect(await valuesOf(clients.id, 'Альфа', 'projects')).toEqual([site.id]);
    expectOk(await cell(ann, site, 'clients', [], 1));
    expect(await valuesOf(clients.id, 'Альфа', 'projects')).toEqual([site.id]);

    // Deleted: the mirror of another pair stays, one-way, with its cells.
    const pair = await paired();
    expectOk(await cell(ann, pair.projects.rows['Сайт'], 'clients', [pair.clients.rows['Бета'].id], 0));
    expectOk(await api(t, ann.cookie, 'DELETE', `${S}/database/${pair.projects.id}/fields/clients`));
    const left = expectOk<WireBlock>(await api(t, ann.cookie, 'GET', `${S}/block/${pair.clients.id}`)).data as unknown as DatabaseData;
    expect(left.config.fields.projects).toEqual({ name: 'Проекты', type: 'relation', databaseId: pair.projects.id });
    expect(await valuesOf(pair.clients.id, 'Бета', 'projects')).toEqual([pair.projects.rows['Сайт'].id]);

    // Bob edits the projects and only reads the clients: no two-way relation from him.
    await share(t, ann, projects.page, [{ userId: bob.id, accessLevel: 'edit' }]);
    await share(t, ann, clients.page, [{ userId: bob.id, accessLevel: 'read' }]);
    const refused = await api(t, bob.cookie, 'POST', `${S}/database/${projects.id}/fields`, {
      field: { name: 'Ещё', type: 'relation', databaseId: clients.id, twoWay: { fieldId: 'more' } },
    });
    expect(refused.statusCode).toBe(403);
    // A two-way relation within one database, limited to one, or onto a field that exists: refused.
    for (const field of [
      { name: 'Сам', type: 'relation', twoWay: { fieldId: 'x' } },
      { name: 'Один', type: 'relation', databaseId: clients.id, limit: 'one', twoWay: { fieldId: 'x' } },
      { name: 'Занято', type: 'relation', databaseId: clients.id, twoWay: { fieldId: 'note' } },
    ]) {
      const res = await api(t, ann.cookie, 'POST', `${S}/database/${projects.id}/fields`, { field });
      expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    }
  });

  test('two people linking the same rows from both sides at once: both sides end the same, nobody waits forever', async () => {
    const { clients, projects } = await paired();
    const { Альфа, Бета } = clients.rows;
    const site = projects.rows['Сайт'];
    const app = projects.rows['Приложение'];
    // Each side written again and again, at once: versions read fresh each round (conflicts are refused, not lost).
    for (let round = 0; round < 6; round++) {
      const [p, c] = [await rowsOf(ann, projects.id), await rowsOf(ann, clients.id)];
      const answers = await Promise.all([
        cell(ann, site, 'clients', round % 2 ? [Альфа.id] : [Альфа.id, Бета.id], p['Сайт'].versions.clients ?? 0),
        cell(ann, Альфа, 'projects', round % 3 ? [site.id, app.id] : [app.id], c['Альфа'].versions.projects ?? 0),
        cell(ann, app, 'clients', round % 2 ? [Бета.id] : [], p['Приложение'].versions.clients ?? 0),
        cell(ann, Бета, 'projects', round % 2 ? [site.id] : [app.id, site.id], c['Бета'].versions.projects ?? 0),
      ]);
      for (const answer of answers) expect([200, 422]).toContain(answer.statusCode);
    }
    // Whatever landed, each link is on both sides.
    const [p, c] = [await rowsOf(ann, projects.id), await rowsOf(ann, clients.id)];
    const links = (rows: Record<string, WireRow>, fieldId: string) =>
      Object.values(rows)
        .flatMap((row) => ((row.data.values[fieldId] as string[] | undefined) ?? []).map((to) => `${row.id}>${to}`))
        .sort();
    const reversed = links(c, 'projects')
      .map((link) => link.split('>').reverse().join('>'))
      .sort();
    expect(links(p, 'clients')).toEqual(reversed);
  });
});
