import { zipSync, strToU8 } from 'fflate';
import { newId } from '../../schema/ids';
import { storageKeyFor } from '../repositories/files';
import { startS3Server, type S3Server } from '../../test/helpers/s3Server';
import { createTeam, createTeamApp, type Team } from '../../test/helpers/team';
import { postImport } from '../../test/helpers/imports';
import { api, body, createTestApp, type TestApp } from '../../test/helpers/testApp';

/*
 * Issue 33, items 5 and 7 on SQLite and PostgreSQL: what an import brings in is checked — a file's
 * type (never a header-breaking value stored, nor one sent from a row written before the check),
 * and a comment's author (the importer's, the original author's name kept as text).
 */

jest.setTimeout(60_000);

const S = '/api/v3/spaces';

/** A JSON export (our format) of one page holding a file block per file, zipped with the files' bytes. */
function exportZip(files: Array<{ id: string; mimeType: string; content: string }>, comments: unknown[] = []): Uint8Array {
  const document = {
    format: 'blocknote-export',
    version: 1,
    pages: [
      {
        id: 'p1',
        parentId: null,
        type: 'Note',
        title: 'Вложения',
        blocks: files.map((f, i) => ({
          id: `b${i}`,
          type: 'file',
          data: { remoteData: { fileId: f.id, title: `${f.id}.bin`, size: f.content.length, mimeType: 'application/octet-stream' } },
          parentId: null,
        })),
        comments,
      },
    ],
    files: files.map((f) => ({ id: f.id, name: `${f.id}.bin`, mimeType: f.mimeType, size: f.content.length, path: `files/${f.id}/${f.id}.bin` })),
  };
  return zipSync({
    'export.json': strToU8(JSON.stringify(document)),
    ...Object.fromEntries(files.map((f) => [`files/${f.id}/${f.id}.bin`, strToU8(f.content)])),
  });
}

const importZip = (app: TestApp, cookie: string, zip: Uint8Array, fields: Record<string, string>) => postImport(app, cookie, zip, fields);

/** The types an import is given, and what is stored and sent for each. */
const TYPES: Array<[given: string, stored: string]> = [
  ['text/plain\r\nX-Injected: 1', 'application/octet-stream'],
  ['image/png\n', 'application/octet-stream'],
  ['text/plain; charset=utf-8', 'text/plain'],
  ['Image/PNG', 'image/png'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['text/html; charset="utf-8"; x=y', 'text/html'],
  ['text', 'application/octet-stream'],
  ['text/ plain', 'application/octet-stream'],
  ['', 'application/octet-stream'],
  ['тип/вид', 'application/octet-stream'],
  ['a/' + 'b'.repeat(300), 'application/octet-stream'],
];

// One app for the tests below but the store's own (an S3 one needs an app of its own).
let t: TestApp;
let team: Team;
beforeAll(async () => ({ t, team } = await createTeamApp()));
afterAll(async () => t.close());

describe.each(['disk', 's3'] as const)("an imported file's type (%s store)", (kind) => {
  let store: TestApp;
  let storeTeam: Team;
  let s3: S3Server | undefined;

  beforeAll(async () => {
    s3 = kind === 's3' ? await startS3Server() : undefined;
    store = await createTestApp(s3 ? { s3: s3.config } : {});
    storeTeam = await createTeam(store);
  });
  afterAll(async () => {
    await store.close();
    await s3?.stop();
  });

  test('a media type is kept (type/subtype, lower-cased, no parameters); anything else — a line break first — is application/octet-stream, and downloads', async () => {
    const files = TYPES.map(([mimeType], i) => ({ id: `f${i}`, mimeType, content: `bytes ${i}` }));
    const res = await importZip(store, storeTeam.cookie.participant!, exportZip(files), { parentId: storeTeam.pageId });
    expect(res.statusCode).toBe(201);
    const pageId = body<{ page: { id: string } }>(res).data.page.id;
    const stored = await store.app.db.selectFrom('files').select(['id', 'name', 'mime_type']).where('page_id', '=', pageId).execute();
    const byName = new Map(stored.map((f) => [f.name, f]));
    for (const [i, [, type]] of TYPES.entries()) {
      const file = byName.get(`f${i}.bin`)!;
      expect([i, file.mime_type]).toEqual([i, type]);
      const download = await api(store, storeTeam.cookie.reader, 'GET', `/api/file/${file.id}`);
      expect([i, download.statusCode, download.headers['content-type'], download.body]).toEqual([i, 200, type, `bytes ${i}`]);
      expect(download.headers['x-injected']).toBeUndefined();
    }
  });
});

describe('a multipart upload’s type', () => {
  /** `POST /api/file/page` with a part whose Content-Type header is written by hand. */
  async function uploadTyped(type: string) {
    const boundary = 'x-boundary-33';
    const payload = [
      `--${boundary}\r\nContent-Disposition: form-data; name="pageId"\r\n\r\n${team.pageId}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: ${type}\r\n\r\nbytes\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/file/page',
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: team.cookie.admin },
    });
    expect(res.statusCode).toBe(200);
    const id = body<{ data: string }>(res).data.data;
    const download = await api(t, team.cookie.reader, 'GET', `/api/file/${id}`);
    return [download.statusCode, download.headers['content-type']];
  }

  test.each([
    ['Image/SVG+xml; charset=utf-8', 'image/svg+xml'],
    ['text/plain', 'text/plain'],
    ['nonsense', 'application/octet-stream'],
    ['text/pl ain', 'application/octet-stream'],
  ])('%j is stored and sent as %j', async (type, stored) => {
    expect(await uploadTyped(type)).toEqual([200, stored]);
  });
});

describe('a file row written before types were checked', () => {
  test('downloads as application/octet-stream, an attachment, instead of a 500; HEAD and the details too', async () => {
    const id = newId();
    const key = storageKeyFor(id);
    await t.app.fileStore.put(key, strToU8('<script>alert(1)</script>'));
    await t.app.db
      .insertInto('files')
      .values({
        id,
        owner_id: team.userId.admin,
        page_id: team.pageId,
        workspace_id: team.workspaceId,
        name: 'x.html',
        mime_type: 'text/html\r\nSet-Cookie: session=stolen',
        size: 25,
        storage_key: key,
        is_public: 0,
        status: 'ready',
        upload_token_hash: null,
        upload_expires_at: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    for (const url of [`/api/file/${id}`, `/api/file/protected/${team.pageId}/${id}`]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await api(t, team.cookie.reader, method, url);
        expect([url, method, res.statusCode, res.headers['content-type']]).toEqual([url, method, 200, 'application/octet-stream']);
        expect(res.headers['content-disposition']).toMatch(/^attachment;/);
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    }
    const details = body<{ mimeType: string }>(await api(t, team.cookie.reader, 'GET', `/api/file/get/${id}`)).data;
    expect(details.mimeType).toBe('application/octet-stream');
    // An export of the page (the file shown by a block) does not carry the bad type on either.
    const block = await api(t, team.cookie.admin, 'POST', `${S}/block`, {
      pageId: team.pageId,
      type: 'file',
      data: { remoteData: { fileId: id, title: 'x.html', size: 25, mimeType: 'text/html' } },
      placeAfter: null,
    });
    expect(block.statusCode).toBe(201);
    const exported = await api(t, team.cookie.admin, 'GET', `${S}/element/${team.pageId}/export?format="json"`);
    expect(exported.statusCode).toBe(200);
    const { unzipSync, strFromU8 } = await import('fflate');
    const json = JSON.parse(strFromU8(unzipSync(new Uint8Array(exported.rawPayload))['export.json'])) as { files: Array<{ id: string; mimeType: string }> };
    expect(json.files.find((f) => f.id === id)?.mimeType).toBe('application/octet-stream');
  });
});

describe('imported comments are the importer’s', () => {
  beforeAll(async () => {
    await t.app.db.updateTable('users').set({ name: 'Иван' }).where('id', '=', team.userId.admin).execute();
  });

  type Listed = { id: string; content: Array<{ text: string; bold?: boolean }>; author: { id: string }; createdAt: string };
  const comment = (
    id: string,
    author: { id: string; name: string; email: string },
    content: unknown[],
    createdAt: string,
    repliedTo: string | null = null,
  ) => ({
    id,
    repliedTo,
    author,
    content,
    attaches: [],
    createdAt,
    updatedAt: createdAt,
  });

  test('an editor importing comments that name another member: each is the importer’s, starting with the author’s name and date as text', async () => {
    const participant = { id: team.userId.participant, name: 'Пётр', email: 'p@example.com' };
    const zip = exportZip(
      [],
      [
        comment(
          'c1',
          { id: team.userId.admin, name: 'Иван', email: 'admin@example.com' },
          [{ text: 'Удалите страницу', bold: true }],
          '2020-03-12T10:00:00.000Z',
        ),
        comment('c2', participant, [{ text: 'Проверил' }], '2020-03-13T09:00:00.000Z', 'c1'),
        comment('c3', { id: newId(), name: '', email: 'ghost@example.com' }, [{ text: 'Кто я?' }], '2021-01-05T20:30:00.000Z'),
        comment('c4', { id: team.userId.admin, name: 'Иван', email: 'admin@example.com' }, [{ text: 'я'.repeat(10_000) }], '2020-03-12T11:00:00.000Z'),
      ],
    );
    const res = await importZip(t, team.cookie.participant!, zip, { parentId: team.pageId });
    expect(res.statusCode).toBe(201);
    const { page, problems } = body<{ page: { id: string }; problems: Array<{ code: string; params: Record<string, unknown> }> }>(res).data;
    // Nothing of the import is said in another member's name.
    const authors = await t.app.db.selectFrom('comments').select('author_id').where('page_id', '=', page.id).execute();
    expect(authors.map((a) => a.author_id)).toEqual(Array(4).fill(team.userId.participant));
    const listed = body<Listed[]>(await api(t, team.cookie.admin, 'GET', `${S}/element/${page.id}/comments`)).data;
    expect(listed.map((c) => [c.author.id, c.content.slice(0, 2), c.createdAt])).toEqual([
      [team.userId.participant, [{ text: 'Иван, 12.03.2020: ' }, { text: 'Удалите страницу', bold: true }], '2020-03-12T10:00:00.000Z'],
      [team.userId.participant, [{ text: 'Иван, 12.03.2020: ' }, { text: 'я'.repeat(10_000 - 'Иван, 12.03.2020: '.length) }], '2020-03-12T11:00:00.000Z'],
      [team.userId.participant, [{ text: 'ghost@example.com, 05.01.2021: ' }, { text: 'Кто я?' }], '2021-01-05T20:30:00.000Z'],
    ]);
    // The importer's own comment stays as it was.
    const replies = body<Listed[]>(await api(t, team.cookie.admin, 'GET', `${S}/comment/${listed[0].id}/comments`)).data;
    expect(replies.map((c) => [c.author.id, c.content])).toEqual([[team.userId.participant, [{ text: 'Проверил' }]]]);
    expect(problems.filter((p) => p.code.startsWith('comment'))).toEqual([
      expect.objectContaining({ code: 'commentCut' }),
      expect.objectContaining({ code: 'commentsAdopted', params: { count: 3 } }),
    ]);
  });
});

describe('CSV exports and formulas (issue 33, item 6)', () => {
  type Block = { id: string; type: string; data: { config: { fields: Record<string, { name: string; type: string }> } } };
  type Row = { data: { title: string; values: Record<string, unknown> } };
  const blocksOf = async (pageId: string) => body<Block[]>(await api(t, team.cookie.admin, 'GET', `${S}/note/${pageId}/blocks`)).data;
  const ROWS = [
    { title: '=1+2', values: { sum: -5, note: '=HYPERLINK("http://evil.example";"клик")' } },
    { title: '@Иван', values: { sum: -0.5, note: '+7 999 123-45-67' } },
    { title: "'=x", values: { sum: 3, note: '-5' } },
    { title: 'Обычный', values: { sum: 12, note: 'текст, с запятой' } },
  ];

  test('cells a spreadsheet would take for formulas start with an apostrophe (quoted); numbers stay numbers; our import reads them back as they were', async () => {
    const holder = body<{ id: string }>(await api(t, team.cookie.admin, 'POST', `${S}/section/private`, { title: 'Формулы', type: 'Database' })).data;
    const [database] = await blocksOf(holder.id);
    for (const [id, field] of [
      ['sum', { name: 'Сумма', type: 'number' }],
      ['note', { name: '-Заметка', type: 'text' }],
    ] as const) {
      expect((await api(t, team.cookie.admin, 'POST', `${S}/database/${database.id}/fields`, { id, field })).statusCode).toBe(200);
    }
    expect((await api(t, team.cookie.admin, 'POST', `${S}/database/${database.id}/rows`, { rows: ROWS })).statusCode).toBe(201);

    const csv = await api(t, team.cookie.admin, 'GET', `${S}/database/${database.id}/export.csv`);
    expect(csv.statusCode).toBe(200);
    const text = csv.body;
    expect(text).toBe(
      '\ufeffНазвание,Сумма,"\'-Заметка"\r\n' +
        '"\'=1+2",-5,"\'=HYPERLINK(""http://evil.example"";""клик"")"\r\n' +
        '"\'@Иван",-0.5,"\'+7 999 123-45-67"\r\n' +
        '"\'\'=x",3,"\'-5"\r\n' +
        'Обычный,12,"текст, с запятой"\r\n',
    );

    // The CSV inside a Markdown export is the same, and importing that export gives the values back.
    const zip = await api(t, team.cookie.admin, 'GET', `${S}/element/${holder.id}/export?format="markdown"`);
    const { unzipSync } = await import('fflate');
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    expect(Buffer.from(files['Формулы.csv']).toString('utf8')).toBe(text);
    const imported = await importZip(t, team.cookie.admin!, new Uint8Array(zip.rawPayload), { section: 'private' });
    expect(imported.statusCode).toBe(201);
    const copy = body<{ page: { id: string; type: string }; problems: unknown[] }>(imported).data;
    expect([copy.page.type, copy.problems]).toEqual(['Database', []]);
    const [copied] = await blocksOf(copy.page.id);
    expect(Object.values(copied.data.config.fields).map((f) => [f.name, f.type])).toEqual([
      ['Название', 'text'],
      ['Сумма', 'number'],
      ['-Заметка', 'text'],
    ]);
    const [sum, note] = Object.keys(copied.data.config.fields).slice(1);
    const rows = body<Row[]>(await api(t, team.cookie.admin, 'GET', `${S}/database/${copied.id}/rows?limit=10`)).data;
    expect(rows.map((r) => [r.data.title, r.data.values[sum], r.data.values[note]])).toEqual(ROWS.map((r) => [r.title, r.values.sum, r.values.note]));
  });
});
