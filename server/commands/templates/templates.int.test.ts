import { refusal } from '../../../test/helpers/refusal';
import { createTeamApp, type Team } from '../../../test/helpers/team';
import { countRows, type TestApp } from '../../../test/helpers/testApp';
import { pagePath } from '../../repositories/pages';
import { TEMPLATES } from '../../templates';
import { copyTemplateInto } from './copy';

/*
 * Copying a template called as its handler calls it, on a real database (both kinds): where it
 * may go and who may, and that a refusal writes nothing. The HTTP side is in
 * routes/templates.int.test.ts.
 */

let t: TestApp;
let team: Team;

beforeAll(async () => ({ t, team } = await createTeamApp()));
afterAll(async () => t.close());

const template = TEMPLATES[0];

describe('copyTemplateInto', () => {
  test('a tree of pages at the end of a section the caller may create in, its root theirs', async () => {
    const shared = await copyTemplateInto(t.app.db, team.userId.admin, template.id, { workspaceId: team.workspaceId, section: 'all' });
    expect([shared.root.section, shared.root.parent_id, shared.root.created_by, shared.root.title]).toEqual(['all', null, team.userId.admin, template.title]);
    expect(shared.count).toBeGreaterThanOrEqual(1);
    const below = await t.app.db.selectFrom('pages').selectAll().where('workspace_id', '=', team.workspaceId).execute();
    expect(below.filter((p) => pagePath(p)[0] === shared.root.id)).toHaveLength(shared.count - 1);
    const own = await copyTemplateInto(t.app.db, team.userId.participant, template.id, { workspaceId: team.workspaceId, section: 'private' });
    expect([own.root.section, own.root.created_by]).toEqual(['private', team.userId.participant]);
  });

  test('denied: no such template (404), the shared section to a participant, any section to a guest, a workspace one is not in (403); nothing written', async () => {
    const before = await countRows(t, 'pages');
    const to = (section: 'private' | 'all') => ({ workspaceId: team.workspaceId, section });
    expect(await refusal(copyTemplateInto(t.app.db, team.userId.admin, 'no-such-template', to('all')))).toEqual([404, 'not_found']);
    expect(await refusal(copyTemplateInto(t.app.db, team.userId.participant, template.id, to('all')))).toEqual([403, 'forbidden']);
    expect(await refusal(copyTemplateInto(t.app.db, team.userId.guest, template.id, to('private')))).toEqual([403, 'forbidden']);
    expect(await refusal(copyTemplateInto(t.app.db, team.userId.outsider, template.id, to('private')))).toEqual([403, 'forbidden']);
    expect(await countRows(t, 'pages')).toBe(before);
  });
});
