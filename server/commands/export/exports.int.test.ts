import { refusal } from '../../../test/helpers/refusal';
import { createTeamApp, type Team } from '../../../test/helpers/team';
import { countRows, type TestApp } from '../../../test/helpers/testApp';
import { readExport } from '../../export/readExport';
import { findPage } from '../../repositories/pages';
import { createPage } from '../pages/create';
import { trashPage } from '../pages/trash';
import { importAt, importPlace, startExport } from './exports';

/*
 * Starting an export and importing, called as their handlers call them, on a real database (both
 * kinds): what each allows, what it refuses with which status and code, and that a refusal
 * writes nothing. The HTTP side (multipart, the zip, the worker) is in routes/export*.int.test.ts
 * and routes/*Import.int.test.ts.
 */

let t: TestApp;
let team: Team;

beforeAll(async () => ({ t, team } = await createTeamApp()));
afterAll(async () => t.close());

const below = async (title: string) => (await createPage(t.app.db, team.userId.admin, { type: 'Note', title }, { parentId: team.pageId })).page;
const markdown = () => readExport(new TextEncoder().encode('# Импорт\n\nСтрока текста'), 'note.md');

describe('startExport', () => {
  test('a page its reader may read (subpages unless told not), a workspace by an admin or a participant: queued', async () => {
    const page = await below('Отчёт');
    const job = await startExport(t.app.db, team.userId.reader, { pageId: page.id, format: 'markdown', subpages: false });
    expect([job.status, job.root_id, job.subpages, job.user_id, job.title]).toEqual(['queued', page.id, 0, team.userId.reader, 'Отчёт']);
    const whole = await startExport(t.app.db, team.userId.participant, { workspaceId: team.workspaceId, format: 'json', comments: true });
    expect([whole.root_id, whole.subpages, whole.comments, whole.workspace_id]).toEqual([null, 1, 1, team.workspaceId]);
  });

  test('denied: a page one may not read (403), a page in the trash (409), a workspace to a guest or outsider, none named (403); no job', async () => {
    const page = await below('Закрытый');
    const before = await countRows(t, 'export_jobs');
    expect(await refusal(startExport(t.app.db, team.userId.outsider, { pageId: page.id, format: 'markdown' }))).toEqual([403, 'forbidden']);
    await trashPage(t.app.db, team.userId.admin, page.id);
    expect(await refusal(startExport(t.app.db, team.userId.admin, { pageId: page.id, format: 'markdown' }))).toEqual([409, 'page.in_trash']);
    expect(await refusal(startExport(t.app.db, team.userId.guest, { workspaceId: team.workspaceId, format: 'markdown' }))).toEqual([403, 'forbidden']);
    expect(await refusal(startExport(t.app.db, team.userId.outsider, { workspaceId: team.workspaceId, format: 'markdown' }))).toEqual([403, 'forbidden']);
    expect(await refusal(startExport(t.app.db, team.userId.admin, { format: 'markdown' }))).toEqual([403, 'forbidden']);
    expect(await countRows(t, 'export_jobs')).toBe(before);
  });
});

describe('importPlace, importAt', () => {
  test('under a page one may edit, or into a section one may create in: the pages made there', async () => {
    const parent = await below('Сюда');
    const under = await importPlace(t.app.db, team.userId.participant, { parentId: parent.id, section: null });
    const made = await importAt(t.app.db, team.userId.participant, under, await markdown(), { store: t.app.fileStore });
    expect(made.pages).toHaveLength(1);
    expect((await findPage(t.app.db, made.pages[0].id))!.parent_id).toBe(parent.id);
    const shared = await importPlace(t.app.db, team.userId.admin, { parentId: null, section: 'all', workspaceId: team.workspaceId });
    const root = (await importAt(t.app.db, team.userId.admin, shared, await markdown(), { store: t.app.fileStore })).pages[0];
    expect([(await findPage(t.app.db, root.id))!.section, (await findPage(t.app.db, root.id))!.workspace_id]).toEqual(['all', team.workspaceId]);
  });

  test('denied: under a page one may only read (403) or in the trash (409), the shared section to a participant, a workspace one is not in (403); a page trashed after the place was judged (409); nothing made', async () => {
    const parent = await below('Не сюда');
    const before = await countRows(t, 'pages');
    expect(await refusal(importPlace(t.app.db, team.userId.reader, { parentId: parent.id, section: null }))).toEqual([403, 'forbidden']);
    expect(await refusal(importPlace(t.app.db, team.userId.participant, { parentId: null, section: 'all', workspaceId: team.workspaceId }))).toEqual([
      403,
      'forbidden',
    ]);
    expect(await refusal(importPlace(t.app.db, team.userId.outsider, { parentId: null, section: 'private', workspaceId: team.workspaceId }))).toEqual([
      403,
      'forbidden',
    ]);
    const place = await importPlace(t.app.db, team.userId.participant, { parentId: parent.id, section: null });
    await trashPage(t.app.db, team.userId.admin, parent.id);
    expect(await refusal(importAt(t.app.db, team.userId.participant, place, await markdown(), { store: t.app.fileStore }))).toEqual([409, 'page.in_trash']);
    expect(await refusal(importPlace(t.app.db, team.userId.participant, { parentId: parent.id, section: null }))).toEqual([409, 'page.in_trash']);
    expect(await countRows(t, 'pages')).toBe(before);
  });
});
