import { browserSuite } from '../helpers/browserSuite';
import { shoot } from '../helpers/editorPage';
import { fetchJson, namedTeam } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * The spec's virtual group «admins» (issue 36 §3, docs/spec-gaps.md) in real Chromium: the share
 * dialog of a page in a team workspace's shared section names the workspace's admins as one
 * group with full access; a private page's dialog does not (admins have no access there).
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;

it('a shared-section page: «Администраторы пространства — Полный доступ: Борис» (Яна is listed with her own access as its maker); a private page: no such group', async () => {
  const page = await suite.signedIn('admins.yana@example.com');
  const cookie = await cookieOf(page);
  const { ids, workspace } = await namedTeam(suite.server, [
    ['admins.yana@example.com', 'Яна', cookie],
    ['admins.boris@example.com', 'Борис'],
    ['admins.vera@example.com', 'Вера'],
  ]);
  const headers = { 'x-workspace-id': workspace };
  // Борис an admin too; Вера stays a participant.
  await fetchJson(`${S()}/workspace/${workspace}/member/role`, {
    method: 'POST',
    cookie,
    headers,
    body: JSON.stringify({ userId: ids['Борис'], role: 'admin' }),
  });
  const made = (section: string, title: string) =>
    fetchJson<{ data: { id: string } }>(`${S()}/section/${section}`, { method: 'POST', cookie, headers, body: JSON.stringify({ title }) });
  const shared = (await made('all', 'Регламент')).data.id;
  const mine = (await made('private', 'Черновик')).data.id;

  await page.goto(`${suite.server.url}/${shared}`);
  await page.getByRole('button', { name: 'Поделиться' }).click();
  const group = page.getByRole('dialog').getByRole('group', { name: 'Администраторы пространства' });
  await group.waitFor();
  expect(await group.textContent()).toContain('Полный доступ: Борис');
  expect(await group.textContent()).not.toContain('Вера');
  await shoot(page, 'share-admins-1280-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'share-admins-1280-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.keyboard.press('Escape');

  await page.goto(`${suite.server.url}/${mine}`);
  await page.getByRole('button', { name: 'Поделиться' }).click();
  await page.getByRole('dialog').getByText('У кого есть доступ').waitFor();
  expect(await page.getByRole('dialog').getByRole('group', { name: 'Администраторы пространства' }).count()).toBe(0);
  await page.context().close();
});
