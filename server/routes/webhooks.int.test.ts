import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireWebhook, WireWebhookDelivery } from '../../schema/webhook';
import { actor, createPage, joinWorkspace, makeTeamWorkspace, type Actor } from '../../test/helpers/pages';
import { api, createTestApp, errorCode, expectOk, type TestApp } from '../../test/helpers/testApp';
import { deliverDue, setWebhookBackoff } from '../webhooks/deliver';
import { isPublicAddress, setWebhooksAllowPrivate } from '../webhooks/targets';

/*
 * Outgoing webhooks (issue 38, docs/api/webhooks.md) on a real server and the project's
 * database, delivering to a real HTTP server on a loopback socket: an admin makes one (a private
 * address refused unless the server allows them), its events are delivered signed with its
 * secret, a failing receiver is tried again then given up on, the log says so; ids only, never
 * content; a private page's changes are not sent; a participant may not see or make them.
 */

let t: TestApp;
let ann: Actor;
let bob: Actor;
const S = '/api/v3/spaces';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
let received: Received[] = [];
/** The statuses the receiver answers, in turn (then 200). */
let answers: number[] = [];
let receiver: http.Server;
let receiverUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  ann = await actor(t, 'ann.webhooks@example.com');
  bob = await actor(t, 'bob.webhooks@example.com');
  await makeTeamWorkspace(t, ann.workspaceId);
  await joinWorkspace(t, ann.workspaceId, bob.id, 'participant');
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.statusCode = answers.shift() ?? 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  setWebhooksAllowPrivate(false);
  setWebhookBackoff(null);
  await new Promise((resolve) => receiver.close(resolve));
  await t.close();
});

const hooks = (_who: Actor) => `${S}/workspace/${ann.workspaceId}/webhooks`;
const deliveries = async (hook: string) => expectOk<WireWebhookDelivery[]>(await api(t, ann.cookie, 'GET', `${hooks(ann)}/${hook}/deliveries`));
/** Sends what is due (the worker's rounds, run here too) until no delivery is pending: the app's own worker may hold some meanwhile. */
const sendAll = async () => {
  for (const start = Date.now(); Date.now() - start < 15_000;) {
    await deliverDue(t.app.db);
    const pending = await t.app.db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').limit(1).executeTakeFirst();
    if (!pending) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('deliveries still pending after 15 s');
};

test('public addresses only, unless the server allows private ones; admins only', async () => {
  setWebhooksAllowPrivate(false);
  for (const url of [
    receiverUrl,
    'http://10.0.0.5/hook',
    'http://[::1]:80/',
    'http://169.254.169.254/latest/meta-data',
    'ftp://example.com/',
    'http://user:pw@example.com/',
    'not a url',
  ]) {
    const res = await api(t, ann.cookie, 'POST', hooks(ann), { url, events: ['page'] });
    expect([url, res.statusCode, errorCode(res)]).toEqual([url, 422, 'webhook.target_refused']);
  }
  expect(isPublicAddress('93.184.216.34')).toBe(true);
  expect(isPublicAddress('::ffff:127.0.0.1')).toBe(false);
  expect(isPublicAddress('fd00::1')).toBe(false);
  // A participant neither lists nor makes them.
  expect((await api(t, bob.cookie, 'GET', hooks(bob))).statusCode).toBe(403);
  expect((await api(t, bob.cookie, 'POST', hooks(bob), { url: 'https://example.com/hook', events: ['page'] })).statusCode).toBe(403);
  const bad = await api(t, ann.cookie, 'POST', hooks(ann), { url: 'https://example.com/hook', events: ['everything'] });
  expect([bad.statusCode, errorCode(bad)]).toEqual([422, 'validation_failed']);
});

test('events of the shared pages are delivered signed, ids only; a private page’s are not; a failing receiver is tried again, then given up on; off, nothing is sent', async () => {
  setWebhooksAllowPrivate(true);
  setWebhookBackoff([0, 0]);
  const hook = expectOk<WireWebhook>(await api(t, ann.cookie, 'POST', hooks(ann), { url: receiverUrl, events: ['page', 'block', 'comment'] }), 201);
  expect(hook.secret).toMatch(/^[0-9a-f]{64}$/);
  // The secret is shown once.
  const listed = expectOk<WireWebhook[]>(await api(t, ann.cookie, 'GET', hooks(ann)));
  expect(listed.find((h) => h.id === hook.id)).toEqual({
    id: hook.id,
    url: receiverUrl,
    events: ['page', 'block', 'comment'],
    active: true,
    createdAt: expect.any(String),
  });

  received = [];
  const shared = await createPage(t, ann, { title: 'Планы на год', section: 'all' });
  await createPage(t, ann, { title: 'Мой дневник', section: 'private' });
  expectOk(await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: shared.id, type: 'text', data: { tokens: [{ text: 'Секретный план' }] } }), 201);
  expectOk(await api(t, ann.cookie, 'POST', `${S}/element/${shared.id}/comments`, { content: [{ text: 'Согласен' }], attaches: [] }), 201);
  await sendAll();
  const events = received.map((r) => JSON.parse(r.body) as { id: string; event: string; workspaceId: string; data: Record<string, unknown> });
  expect(events.map((e) => e.event).sort()).toEqual(['block.changed', 'comment.changed', 'page.changed']);
  expect(events.every((e) => e.workspaceId === ann.workspaceId)).toBe(true);
  expect(events.find((e) => e.event === 'page.changed')!.data).toMatchObject({ pageId: shared.id });
  // Ids, never content: no title, no text.
  const all = received.map((r) => r.body).join('\n');
  for (const secret of ['Планы на год', 'Секретный план', 'Согласен', 'Мой дневник']) expect(all).not.toContain(secret);
  // Signed: t=<seconds>,v1=HMAC-SHA256(secret, "<t>.<body>").
  for (const r of received) {
    const [, seconds, signature] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(r.headers['x-webhook-signature']))!;
    expect(signature).toBe(createHmac('sha256', hook.secret!).update(`${seconds}.${r.body}`).digest('hex'));
    expect(r.headers['x-webhook-event']).toBe((JSON.parse(r.body) as { event: string }).event);
  }
  let log = await deliveries(hook.id);
  expect(log.map((d) => [d.status, d.attempts, d.lastStatus])).toEqual(log.map(() => ['delivered', 1, 200]));

  // A receiver failing twice then answering: delivered at a later try; failing always: failed after the last.
  received = [];
  answers = [500, 503];
  const seen = (await deliveries(hook.id)).length;
  expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${shared.id}`, { title: 'Планы на два года' }));
  await sendAll();
  log = (await deliveries(hook.id)).slice(0, -seen);
  expect(log.length).toBeGreaterThan(0);
  expect(log.every((d) => d.status === 'delivered')).toBe(true);
  expect(log.reduce((sum, d) => sum + d.attempts, 0)).toBe(log.length + 2);
  expect(received).toHaveLength(log.length + 2);
  answers = Array.from({ length: 30 }, () => 500);
  const seenNow = (await deliveries(hook.id)).length;
  expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${shared.id}`, { title: 'Планы на три года' }));
  await sendAll();
  log = (await deliveries(hook.id)).slice(0, -seenNow);
  expect(log.map((d) => [d.status, d.attempts, d.lastStatus, d.lastError])).toEqual(log.map(() => ['failed', 3, 500, 'answered 500']));
  answers = [];

  // Rows and cells of a database on a shared page: heard once the webhook hears them; ids, no values.
  expectOk(await api(t, ann.cookie, 'POST', `${hooks(ann)}/${hook.id}`, { events: ['row', 'cell'] }));
  const holder = await createPage(t, ann, { title: 'Сделки', type: 'Database', section: 'all' });
  const database = expectOk<Array<{ id: string }>>(await api(t, ann.cookie, 'GET', `${S}/note/${holder.id}/blocks`))[0].id;
  received = [];
  const [row] = expectOk<Array<{ id: string }>>(
    await api(t, ann.cookie, 'POST', `${S}/database/${database}/rows`, { rows: [{ title: 'Крупная сделка' }] }),
    201,
  );
  expectOk(await api(t, ann.cookie, 'POST', `${S}/row/${row.id}/cells/MAIN_FIELD`, { value: 'Очень крупная сделка', version: 1 }));
  await sendAll();
  const dataEvents = received.map((r) => JSON.parse(r.body) as { event: string; data: Record<string, unknown> });
  expect(dataEvents.find((e) => e.event === 'row.changed')?.data).toMatchObject({ databaseId: database, rowIds: [row.id] });
  expect(dataEvents.find((e) => e.event === 'cell.changed')?.data).toEqual({
    databaseId: database,
    cells: [{ rowId: row.id, fieldId: 'MAIN_FIELD', version: 2 }],
  });
  expect(dataEvents.every((e) => e.event === 'row.changed' || e.event === 'cell.changed')).toBe(true);
  expect(received.map((r) => r.body).join('\n')).not.toContain('сделка');

  // Turned off: recorded no more; deleted: its log goes with it.
  expectOk(await api(t, ann.cookie, 'POST', `${hooks(ann)}/${hook.id}`, { active: false }));
  const before = (await deliveries(hook.id)).length;
  expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${shared.id}`, { title: 'Планы' }));
  expect((await deliveries(hook.id)).length).toBe(before);
  expect((await api(t, bob.cookie, 'DELETE', `${hooks(bob)}/${hook.id}`)).statusCode).toBe(403);
  expectOk(await api(t, ann.cookie, 'DELETE', `${hooks(ann)}/${hook.id}`));
  expect((await api(t, ann.cookie, 'GET', `${hooks(ann)}/${hook.id}/deliveries`)).statusCode).toBe(404);
});
