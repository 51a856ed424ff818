import { browserSuite } from '../helpers/browserSuite';
import { shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf, signInThroughUi } from '../helpers/browser';

/*
 * Someone invited into a team workspace (issue 36 §2) signs in for the first time: they land in
 * that workspace, not in the personal one made for them, and are told so once; their next
 * sign-in opens where they were last.
 */

const suite = browserSuite();

it('an invitee’s first sign-in lands in the team workspace they were invited to, with a word about it', async () => {
  const owner = await suite.signedIn('orion.owner@example.com');
  const cookie = await cookieOf(owner);
  const team = await fetchJson<{ data: { id: string } }>(`${suite.server.url}/api/v3/spaces/workspace`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ name: 'Команда Орион', avatar: null, private: false }),
  });
  await fetchJson(`${suite.server.url}/api/v3/spaces/workspace/${team.data.id}/members/add`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ members: [{ email: 'orion.new@example.com', role: 'participant' }] }),
  });

  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInThroughUi(page, suite.server, 'orion.new@example.com');
  await page.locator('.sidebar-workspace-name', { hasText: 'Команда Орион' }).waitFor();
  await page.getByText('Вас пригласили в пространство «Команда Орион» — вы в нём.', { exact: false }).waitFor();
  await shoot(page, 'invited-landing-1280');
  // Where they were last, from now on: a reload says nothing again.
  await page.reload();
  await page.locator('.sidebar-workspace-name', { hasText: 'Команда Орион' }).waitFor();
  await page.waitForTimeout(500);
  await expect(page.getByText('Вас пригласили в пространство').count()).resolves.toBe(0);
  await context.close();
  await owner.context().close();
});
