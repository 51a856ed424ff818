import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';
import { png } from '../helpers/png';

/*
 * A small picture (an imported icon, a badge) shows at its own size in real Chromium, not
 * stretched to the column (issue 36 §2); resized, the size set counts.
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;

it('a small picture keeps its own width; one resized to half the column is half the column', async () => {
  const page = await suite.signedIn('small.image@example.com');
  const cookie = await cookieOf(page);
  const made = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title: 'Значок' }) });
  const bytes = png(120, 40);
  const ticket = await fetchJson<{ data: { id: string; uploadUrl: string; fields: Record<string, string>; fileField: string } }>(
    `${suite.server.url}/api/file/upload_url`,
    { method: 'POST', cookie, body: JSON.stringify({ pageId: made.data.id, name: 'значок.png', mimeType: 'image/png', size: bytes.length }) },
  );
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.data.fields)) form.append(name, value);
  form.append(ticket.data.fileField, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'значок.png');
  const uploaded = await fetch(new URL(ticket.data.uploadUrl, suite.server.url), { method: 'POST', headers: { cookie }, body: form });
  expect(uploaded.status).toBeLessThan(300);
  const remoteData = { fileId: ticket.data.id, title: 'значок.png', size: bytes.length, mimeType: 'image/png' };
  for (const scale of [1, 0.5])
    await fetchJson(`${S()}/block`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ pageId: made.data.id, type: 'image', data: { remoteData, crop: null, scale, align: 'center' } }),
    });

  await page.goto(`${suite.server.url}/${made.data.id}`);
  const boxes = page.locator('[data-slate-editor] .media-box');
  await eventually(() => boxes.count(), 2);
  const column = await page
    .locator('[data-slate-editor] .media-row')
    .first()
    .evaluate((row) => row.getBoundingClientRect().width);
  // (Each block was made first on the page: the resized one stands above.)
  await eventually(() => boxes.evaluateAll((all) => all.map((box) => Math.round(box.getBoundingClientRect().width))), [Math.round(column / 2), 120]);
  await shoot(page, 'small-image-1280');
  await page.context().close();
});
