import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireLinkPreview } from '../../schema/linkPreview';
import { actor, type Actor } from '../../test/helpers/pages';
import { api, createTestApp, expectOk, type TestApp } from '../../test/helpers/testApp';
import { PREVIEW_KEPT_MS } from '../commands/links/preview';
import { sweepLinkPreviews } from '../repositories/linkPreviews';

/*
 * What is kept of link previews (docs/api/blocks.md «Link previews»), on the project's database:
 * two people asking for one page at once get one read of it; once its day is over the
 * background sweep forgets it, and the next ask reads the page again. (The rest of the route:
 * plugins/blocks/bookmark/bookmark.int.test.ts.)
 */

let t: TestApp;
let ann: Actor;
let bob: Actor;
let site: http.Server;
let siteUrl: string;
let reads = 0;

beforeAll(async () => {
  site = http.createServer((_request, response) => {
    reads += 1;
    response.setHeader('content-type', 'text/html; charset=utf-8');
    // A moment before answering: the second ask comes while the first read is under way.
    setTimeout(() => response.end('<html><head><title>Статья</title></head></html>'), 50);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t = await createTestApp({ sendCodeLimitPerIp: 10_000, linkPreviewAllowPrivate: true });
  ann = await actor(t, 'ann.previews@example.com');
  bob = await actor(t, 'bob.previews@example.com');
});
afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
  await t.close();
});

const preview = (who: Actor, url: string) => api(t, who.cookie, 'POST', '/api/v3/spaces/link/preview', { url });

test('two asking at once get one read of the page; once its day is over the sweep forgets it and it is read again', async () => {
  const url = `${siteUrl}/together`;
  const [one, two] = await Promise.all([preview(ann, url), preview(bob, url)]);
  expect([expectOk<WireLinkPreview>(one).title, expectOk<WireLinkPreview>(two).title]).toEqual(['Статья', 'Статья']);
  expect(reads).toBe(1);
  expectOk(await preview(ann, url));
  expect(reads).toBe(1);
  // The background sweep, a day and a minute later.
  await sweepLinkPreviews(t.app.db, new Date(Date.now() + PREVIEW_KEPT_MS + 60_000).toISOString());
  expectOk(await preview(ann, url));
  expect(reads).toBe(2);
});
