import { strToU8, zipSync } from 'fflate';
import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { api, body, createTestApp, errorCode, expectOk, jsonQueryString, type TestApp } from '../../test/helpers/testApp';
import { actor, createPage, share, type Actor } from '../../test/helpers/pages';
import { postImport } from '../../test/helpers/imports';

/*
 * Importing Notion's «Markdown & CSV» export (issue 18, docs/import-export.md «Notion») on SQLite
 * and PostgreSQL: a zip holding its part zip, a page with a subpage and a picture, a database
 * (its view's CSV and its `_all.csv`, a `.md` per row) with typed columns and a relation between
 * its rows; links follow the new pages and rows; what cannot come is reported; who may; a zip
 * that unpacks into too much is refused whole.
 */

let t: TestApp;
let owner: Actor;
let reader: Actor;
const S = '/api/v3/spaces';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  t = await createTestApp({ sendCodeLimitPerIp: 10_000 });
  owner = await actor(t, 'notion-owner@example.com');
  reader = await actor(t, 'notion-reader@example.com');
});
afterAll(async () => {
  await t.close();
});

const importZip = (bytes: Uint8Array, fields: Record<string, string>, who: Actor = owner) => postImport(t, who.cookie, bytes, fields, 'Export-2f1c.zip');

/** Notion's ids: 32 hex digits after a name. */
const ID = {
  project: '1a2b3c4d5e6f40718293a4b5c6d7e8f9',
  notes: '2b3c4d5e6f7a40818293a4b5c6d7e8f0',
  tasks: '3c4d5e6f7a8b40918293a4b5c6d7e8f1',
  estimate: '4d5e6f7a8b9c40a18293a4b5c6d7e8f2',
  purchase: '5e6f7a8b9cad40b18293a4b5c6d7e8f3',
  check1: '6f7a8b9cadbe40c18293a4b5c6d7e8f4',
  check2: '7a8b9cadbecf40d18293a4b5c6d7e8f5',
  install: '8b9cadbecfd040e18293a4b5c6d7e8f6',
  elsewhere: '9cadbecfd0e140f18293a4b5c6d7e8f7',
};
const PROJECT = `Проект ${ID.project}`;
const TASKS = `${PROJECT}/Задачи ${ID.tasks}`;
const url = (path: string) => path.split('/').map(encodeURIComponent).join('/');
const LONG = 'о'.repeat(10_001);

/** A Notion export as Notion makes it: `Export-….zip` holding `Export-…-Part-1.zip`. */
function notionExport(): Uint8Array {
  const rows = [
    ['Name', 'Статус', 'Стоимость', 'Теги', 'Срок', 'Готово', 'Сайт', 'Зависит от', 'Договор', 'Описание'],
    [
      'Смета',
      'Готово',
      '"$1,200.50"',
      '"смета, деньги"',
      '"November 26, 2026"',
      'Yes',
      'https://example.com/smeta',
      '',
      `Рамка (https://www.notion.so/Ramka-${ID.elsewhere}?pvs=21)`,
      'Первая',
    ],
    ['Закупка', 'В работе', '$300', 'деньги', '"November 27, 2026 10:00 AM → 12:00 PM"', 'No', '', `Смета (Смета%20${ID.estimate}.md)`, '', ''],
    [
      'Проверка',
      'План',
      '$40',
      '"смета, проверка"',
      '28 ноября 2026 г.',
      'No',
      '',
      `"Смета (Смета%20${ID.estimate}.md), Закупка (Закупка%20${ID.purchase}.md)"`,
      '',
      '',
    ],
    ['Проверка', 'План', '$0', 'проверка', '"November 29, 2026 → December 1, 2026"', 'Yes', '', '', '', LONG],
    ['Монтаж', 'В работе', '$75', 'деньги', '"December 2, 2026"', 'No', '', `Проверка (Проверка%20${ID.check2}.md)`, '', ''],
  ];
  const csv = (lines: string[][]) => `\uFEFF${lines.map((cells) => cells.join(',')).join('\n')}\n`;
  const row = (title: string, fields: string, content: string) => strToU8(`# ${title}\n\n${fields}\n\n${content}\n`);
  const part = zipSync({
    [`${PROJECT}.md`]: strToU8(
      `# Проект\n\nБюджет на квартал — в [заметках](${url(`${PROJECT}/Заметки ${ID.notes}.md`)}).\n\n[Заметки](${url(`${PROJECT}/Заметки ${ID.notes}.md`)})\n\n[Задачи](${url(`${TASKS}.csv`)})\n\n![Схема](${url(`${PROJECT}/Схема.png`)})\n\n<aside>\n💡 Сроки сдвигать нельзя\n</aside>\n`,
    ),
    [`${PROJECT}/Заметки ${ID.notes}.md`]: strToU8(
      `# Заметки\n\nНазад к [проекту](../${url(PROJECT)}.md) или [в Notion](https://www.notion.so/Proekt-${ID.project}?pvs=21).\n`,
    ),
    [`${PROJECT}/Схема.png`]: new Uint8Array(PNG),
    [`${PROJECT}/old-draft.bin`]: strToU8('nobody links me'),
    // The view's CSV (filtered) and the whole one: the whole one is read.
    [`${TASKS}.csv`]: strToU8(csv([rows[0], rows[1]])),
    [`${TASKS}_all.csv`]: strToU8(csv(rows)),
    [`${TASKS}/Смета ${ID.estimate}.md`]: row(
      'Смета',
      'Статус: Готово\nСтоимость: $1,200.50\nГотово: Yes',
      `Считаем по [проекту](../../${url(PROJECT)}.md).\n\n- [x] согласовать`,
    ),
    [`${TASKS}/Закупка ${ID.purchase}.md`]: row('Закупка', 'Статус: В работе', `После [сметы](${url(`Смета ${ID.estimate}.md`)}).`),
    [`${TASKS}/Проверка ${ID.check1}.md`]: row('Проверка', 'Статус: План', 'Первая проверка'),
    [`${TASKS}/Проверка ${ID.check2}.md`]: row('Проверка', 'Статус: План', 'Вторая проверка'),
    [`${TASKS}/Монтаж ${ID.install}.md`]: row('Монтаж', 'Статус: В работе', ''),
  });
  return zipSync({ 'Export-2f1c7d2e-6a55-4a1e-9d3b-0b6c9a1f2e3d-Part-1.zip': part });
}

const blocksOf = async (pageId: string, who: Actor = owner) => body<WireBlock[]>(await api(t, who.cookie, 'GET', `${S}/note/${pageId}/blocks`)).data;
const childrenOf = async (pageId: string) => body<WireElement[]>(await api(t, owner.cookie, 'GET', `${S}/element/${pageId}/children`)).data;
const tokensOf = (block: WireBlock) => (block.data as { tokens: Array<{ text: string; link?: { pageId?: string } }> }).tokens;

test('a Notion export: pages, subpage, picture, a database with typed fields, rows with their values and contents, links to the new pages and rows; what could not come is reported', async () => {
  const place = await createPage(t, owner, { title: 'Из Notion' });
  const res = await importZip(notionExport(), { parentId: place.id });
  expect(res.statusCode).toBe(201);
  const answer = body<{ page: WireElement; pages: number; files: number; problems: Array<{ page: string; message: string }> }>(res).data;
  expect([answer.page.title, answer.pages, answer.files]).toEqual(['Проект', 3, 1]);
  expect(answer.problems.map((p) => p.message).sort()).toEqual(
    [
      '«Договор» links to pages of another database or outside it (relations across databases do not exist here): kept as their titles, in text',
      `«Описание» of «Проверка» is left empty: «${'о'.repeat(40)}…» — longer than 10000 characters`,
      `«${PROJECT}/old-draft.bin» is left out: no page shows it`,
    ].sort(),
  );

  // The tree: the project under the place; its subpage and its database (a Database page) under it; titles without Notion's ids.
  const [project] = await childrenOf(place.id);
  expect(project.id).toBe(answer.page.id);
  const under = await childrenOf(project.id);
  expect(under.map((p) => [p.title, p.type])).toEqual([
    ['Заметки', 'Note'],
    ['Задачи', 'Database'],
  ]);
  const [notes, tasks] = under;

  // The project's blocks: a link to the subpage in text, the subpage and the database where Notion showed them (page blocks), the picture, the callout.
  const blocks = await blocksOf(project.id);
  expect(blocks.map((b) => b.type)).toEqual(['text', 'document', 'document', 'image', 'callout']);
  expect(tokensOf(blocks[0]).find((token) => token.link)?.link?.pageId).toBe(notes.id);
  expect([blocks[1].data, blocks[2].data]).toEqual([{ pageId: notes.id }, { pageId: tasks.id }]);
  expect(blocks[4].data).toEqual({ tokens: [{ text: 'Сроки сдвигать нельзя' }], icon: '💡' });
  const picture = (blocks[3].data as { remoteData: { fileId: string; title: string; mimeType: string } }).remoteData;
  expect([picture.title, picture.mimeType]).toEqual(['Схема', 'image/png']);
  const file = await api(t, owner.cookie, 'GET', `/api/file/${picture.fileId}`);
  expect([file.statusCode, Buffer.from(file.rawPayload).equals(PNG)]).toEqual([200, true]);
  // The subpage's links back: the relative one and Notion's own address both point at the new project.
  const back = tokensOf((await blocksOf(notes.id))[0]).filter((token) => token.link);
  expect(back.map((token) => token.link?.pageId)).toEqual([project.id, project.id]);

  // The database: a field per column, typed from its cells.
  const [database] = await blocksOf(tasks.id);
  expect(database.type).toBe('database');
  const { config, view } = database.data as DatabaseData;
  const fields = Object.values(config.fields);
  expect(fields.map((f) => [f.name, f.type])).toEqual([
    ['Name', 'text'],
    ['Статус', 'select'],
    ['Стоимость', 'number'],
    ['Теги', 'multiSelect'],
    ['Срок', 'date'],
    ['Готово', 'checkbox'],
    ['Сайт', 'url'],
    ['Зависит от', 'relation'],
    ['Договор', 'text'],
    ['Описание', 'text'],
  ]);
  expect(view.layouts[0].orderedFields.map((f) => config.fields[f.fieldId].name)).toEqual(fields.map((f) => f.name));
  const id = Object.fromEntries(Object.entries(config.fields).map(([fieldId, field]) => [field.name, fieldId]));
  const option = (field: string, name: string) =>
    (config.fields[id[field]] as { options: Array<{ id: string; name: string }> }).options.find((o) => o.name === name)?.id;
  expect(config.fields[id['Стоимость']]).toMatchObject({ format: 'usd' });

  // The rows, in the CSV's order (the whole CSV's, not the view's), the same title twice kept apart, with their values.
  const rows = body<WireRow[]>(await api(t, owner.cookie, 'GET', `${S}/database/${database.id}/rows?${jsonQueryString({ limit: 50 })}`)).data;
  expect(rows.map((r) => r.data.title)).toEqual(['Смета', 'Закупка', 'Проверка', 'Проверка', 'Монтаж']);
  const [estimate, purchase, check1, check2, install] = rows;
  expect(estimate.data.values).toEqual({
    [id['Статус']]: option('Статус', 'Готово'),
    [id['Стоимость']]: 1200.5,
    [id['Теги']]: [option('Теги', 'смета'), option('Теги', 'деньги')],
    [id['Срок']]: '2026-11-26',
    [id['Готово']]: true,
    [id['Сайт']]: 'https://example.com/smeta',
    [id['Договор']]: 'Рамка',
    [id['Описание']]: 'Первая',
  });
  expect(purchase.data.values).toMatchObject({
    [id['Срок']]: { start: '2026-11-27T10:00:00Z', end: '2026-11-27T12:00:00Z' },
    [id['Готово']]: false,
    [id['Зависит от']]: [estimate.id],
  });
  expect(check1.data.values).toMatchObject({ [id['Срок']]: '2026-11-28', [id['Зависит от']]: [estimate.id, purchase.id] });
  expect(check2.data.values).toMatchObject({ [id['Срок']]: { start: '2026-11-29', end: '2026-12-01' }, [id['Готово']]: true });
  expect(check2.data.values[id['Описание']]).toBeUndefined();
  // A relation to the second «Проверка» (by its Notion id) is to that row, not the first of the name.
  expect(install.data.values[id['Зависит от']]).toEqual([check2.id]);

  // Rows' contents: without the title and the field lines; their links to the project and to another row follow the import.
  const estimateBlocks = await blocksOf(estimate.id);
  expect(estimateBlocks.map((b) => b.type)).toEqual(['text', 'checkbox']);
  // A page link as the app writes one: `↗`, the page's title drawn before it.
  expect(tokensOf(estimateBlocks[0])).toEqual([{ text: 'Считаем по ' }, { text: '↗', link: { href: `/${project.id}`, pageId: project.id } }, { text: '.' }]);
  expect(tokensOf((await blocksOf(purchase.id))[0]).find((token) => token.link)?.link?.pageId).toBe(estimate.id);
  expect(tokensOf((await blocksOf(check1.id))[0])).toEqual([{ text: 'Первая проверка' }]);
  expect(tokensOf((await blocksOf(check2.id))[0])).toEqual([{ text: 'Вторая проверка' }]);
  expect(await blocksOf(install.id)).toEqual([]);
});

/** A part zip of 20,001 files: more than an import unpacks. */
function tooManyFiles(): Uint8Array {
  const many: Record<string, Uint8Array> = {};
  for (let i = 0; i <= 20_000; i += 1) many[`Страница ${i} ${ID.project}.md`] = new Uint8Array(0);
  return zipSync({ 'Export-1-Part-1.zip': zipSync(many, { level: 0 }) });
}

test('who may: a reader of a page may not import under it (403, before the zip is even read), nothing is made', async () => {
  const shared = await createPage(t, owner, { title: 'Общая' });
  await share(t, owner, shared.id, [{ userId: reader.id, accessLevel: 'read' }]);
  const before = await t.app.db
    .selectFrom('pages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  expect((await importZip(notionExport(), { parentId: shared.id }, reader)).statusCode).toBe(403);
  expect((await importZip(tooManyFiles(), { parentId: shared.id }, reader)).statusCode).toBe(403);
  const after = await t.app.db
    .selectFrom('pages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  expect(Number(after.n)).toBe(Number(before.n));
  // Into the reader's own private section it goes.
  expect((await importZip(notionExport(), { section: 'private' }, reader)).statusCode).toBe(201);
});

test('a zip whose part unpacks into too many files is refused (422) before anything is made', async () => {
  const bomb = tooManyFiles();
  const before = await t.app.db
    .selectFrom('pages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const res = await importZip(bomb, { section: 'private' });
  expect(res.statusCode).toBe(422);
  expect(errorCode(res)).toBe('import.too_big');
  expect(res.body).toContain('more than 20000 files');
  const after = await t.app.db
    .selectFrom('pages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  expect(Number(after.n)).toBe(Number(before.n));
});

test('our own Markdown export of a database page (its CSV beside it) comes back as a database: typed fields, rows with their values and contents', async () => {
  const holder = await createPage(t, owner, { title: 'Клиенты', type: 'Database' });
  const [database] = await blocksOf(holder.id);
  const field = async (fieldId: string, definition: Record<string, unknown>) =>
    expectOk(await api(t, owner.cookie, 'POST', `${S}/database/${database.id}/fields`, { id: fieldId, field: definition }));
  await field('sum', { name: 'Сумма', type: 'number' });
  await field('since', { name: 'С', type: 'date' });
  await field('vip', { name: 'VIP', type: 'checkbox' });
  const made = expectOk<Array<{ id: string }>>(
    await api(t, owner.cookie, 'POST', `${S}/database/${database.id}/rows`, {
      rows: [
        { title: 'Ромашка', values: { sum: 1200.5, since: '2026-11-26', vip: true } },
        { title: 'Лютик', values: { sum: 30, since: '2026-12-01', vip: false } },
        { title: 'Василёк', values: { sum: 7, vip: false } },
      ],
    }),
    201,
  );
  expectOk(
    await api(t, owner.cookie, 'POST', `${S}/block`, {
      pageId: made[0].id,
      type: 'text',
      data: { tokens: [{ text: 'Звонить по вторникам' }] },
      placeAfter: null,
    }),
    201,
  );
  const zip = (await api(t, owner.cookie, 'GET', `${S}/element/${holder.id}/export?${jsonQueryString({ format: 'markdown' })}`)).rawPayload;
  const res = await importZip(new Uint8Array(Buffer.from(zip)), { section: 'private' });
  expect(res.statusCode).toBe(201);
  const answer = body<{ page: WireElement; pages: number; problems: unknown[] }>(res).data;
  expect([answer.page.title, answer.page.type, answer.pages, answer.problems]).toEqual(['Клиенты', 'Database', 1, []]);
  const [copy] = await blocksOf(answer.page.id);
  const { config } = copy.data as DatabaseData;
  expect(Object.values(config.fields).map((f) => [f.name, f.type])).toEqual([
    ['Название', 'text'],
    ['Сумма', 'number'],
    ['С', 'date'],
    ['VIP', 'checkbox'],
  ]);
  const rows = body<WireRow[]>(await api(t, owner.cookie, 'GET', `${S}/database/${copy.id}/rows?${jsonQueryString({ limit: 10 })}`)).data;
  expect(rows.map((r) => [r.data.title, Object.values(r.data.values)])).toEqual([
    ['Ромашка', [1200.5, '2026-11-26', true]],
    ['Лютик', [30, '2026-12-01', false]],
    ['Василёк', [7, false]],
  ]);
  // The row's content without its field lines.
  expect((await blocksOf(rows[0].id)).map((b) => tokensOf(b))).toEqual([[{ text: 'Звонить по вторникам' }]]);
});

test('our Markdown export of a page holding a database (its first view as a table) comes back as the page with the database in the table’s place, the fields of their types (choices with their colours, an address)', async () => {
  const page = await createPage(t, owner, { title: 'Поставки' });
  const text = expectOk<WireBlock>(
    await api(t, owner.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'text', data: { tokens: [{ text: 'Перед' }] } }),
    201,
  );
  const fields = {
    [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
    stage: {
      name: 'Этап',
      type: 'select',
      options: [
        { id: 'o1', name: 'Новый', color: 'blue' },
        { id: 'o2', name: 'Готов', color: 'green' },
      ],
    },
    site: { name: 'Сайт', type: 'url' },
  };
  const database = expectOk<WireBlock>(
    await api(t, owner.cookie, 'POST', `${S}/block`, {
      pageId: page.id,
      type: 'database',
      placeAfter: text.id,
      data: {
        title: 'Заказы',
        config: { fields },
        view: { layouts: [{ uid: 'v1', type: 'table', name: 'Таблица', orderedFields: Object.keys(fields).map((fieldId) => ({ fieldId, isWrap: false })) }] },
      },
    }),
    201,
  );
  expectOk(
    await api(t, owner.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'text', data: { tokens: [{ text: 'После' }] }, placeAfter: database.id }),
    201,
  );
  expectOk(
    await api(t, owner.cookie, 'POST', `${S}/database/${database.id}/rows`, {
      rows: [
        { title: 'Первый', values: { stage: 'o1', site: 'https://example.com/a' } },
        { title: 'Второй', values: { stage: 'o2', site: 'https://example.com/b' } },
        { title: 'Третий', values: { stage: 'o1' } },
      ],
    }),
    201,
  );
  const zip = (await api(t, owner.cookie, 'GET', `${S}/element/${page.id}/export?${jsonQueryString({ format: 'markdown' })}`)).rawPayload;
  const res = await importZip(new Uint8Array(Buffer.from(zip)), { section: 'private' });
  expect(res.statusCode).toBe(201);
  const answer = body<{ page: WireElement; problems: unknown[] }>(res).data;
  expect([answer.page.title, answer.problems]).toEqual(['Поставки', []]);
  // The text around it, and the database where the table was: no table of its own.
  const blocks = await blocksOf(answer.page.id);
  expect(blocks.map((b) => b.type)).toEqual(['text', 'document', 'text']);
  const holder = (blocks[1].data as { pageId: string }).pageId;
  const [copy] = await blocksOf(holder);
  const { config } = copy.data as DatabaseData;
  expect(Object.values(config.fields).map((f) => [f.name, f.type, 'options' in f ? f.options?.map((o) => [o.name, o.color]) : undefined])).toEqual([
    ['Название', 'text', undefined],
    [
      'Этап',
      'select',
      [
        ['Новый', 'blue'],
        ['Готов', 'green'],
      ],
    ],
    ['Сайт', 'url', undefined],
  ]);
  const rows = body<WireRow[]>(await api(t, owner.cookie, 'GET', `${S}/database/${copy.id}/rows?${jsonQueryString({ limit: 10 })}`)).data;
  const names = new Map((config.fields.f1 as { options: Array<{ id: string; name: string }> }).options.map((o) => [o.id, o.name]));
  expect(rows.map((r) => [r.data.title, names.get(r.data.values.f1 as string), r.data.values.f2 ?? null])).toEqual([
    ['Первый', 'Новый', 'https://example.com/a'],
    ['Второй', 'Готов', 'https://example.com/b'],
    ['Третий', 'Новый', null],
  ]);
});

test('a marker that does not hold fields as the app defines them is not trusted: the columns are guessed, nothing is dropped; a «%» in a title comes back', async () => {
  const marker = JSON.stringify({
    fields: {
      MAIN_FIELD: { name: 'Название', type: 'text' },
      a: { name: 'Этап', type: 'select', options: [{ id: 'o1', name: 'Новый' }], extra: 1 },
      b: { name: 'Сумма', type: 'number', format: 'nonsense' },
      ['__proto__']: { polluted: true },
    },
  });
  const page = `# Рост 50%\n\n<!-- stranitsy-database ${marker} -->\n\n| Название | Этап | Сумма |\n| --- | --- | --- |\n| [Один](Рост%2050%25/Один.md) | Новый | 5 |\n\n[Рост 50%.csv](Рост%2050%25.csv)\n`;
  const zip = zipSync({
    'Рост 50%.md': strToU8(page),
    'Рост 50%.csv': strToU8('Название,Этап,Сумма\r\nОдин,Новый,5\r\nДва,Старый,7\r\nТри,Новый,9\r\n'),
    'Рост 50%/Один.md': strToU8('# Один\n\n- **Этап**: Новый\n- **Сумма**: 5\n'),
  });
  const res = await importZip(zip, { section: 'private' });
  expect(res.statusCode).toBe(201);
  const answer = body<{ page: WireElement; problems: unknown[] }>(res).data;
  expect([answer.page.title, answer.page.type]).toEqual(['Рост 50%', 'Database']);
  const [copy] = await blocksOf(answer.page.id);
  const { config } = copy.data as DatabaseData;
  // Guessed, not taken from the marker: «Этап» a choice of the names found, «Сумма» a plain number.
  expect(Object.values(config.fields).map((f) => [f.name, f.type])).toEqual([
    ['Название', 'text'],
    ['Этап', 'select'],
    ['Сумма', 'number'],
  ]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  const rows = body<WireRow[]>(await api(t, owner.cookie, 'GET', `${S}/database/${copy.id}/rows?${jsonQueryString({ limit: 10 })}`)).data;
  expect(rows.map((r) => r.data.title)).toEqual(['Один', 'Два', 'Три']);
});
