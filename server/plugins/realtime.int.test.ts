import type { Socket } from 'socket.io-client';
import type { WireBlock } from '../../schema/block';
import type { WireElement } from '../../schema/element';
import { channels, type ElementEdit } from '../../schema/realtime';
import { connectRealtime, nextEvent, request } from '../../test/helpers/realtimeClient';
import { api, body, createTestApp, signIn, type TestApp } from '../../test/helpers/testApp';
import { userIdOf } from '../../test/helpers/workspaces';

let t: TestApp;
let ann: string;
let baseUrl: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t, 'ann@example.com');
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await t.close();
});

async function connect(cookie: string, clientId?: string): Promise<Socket> {
  const socket = await connectRealtime(baseUrl, { cookie }, { clientId });
  sockets.push(socket);
  return socket;
}

test('an edit through the API reaches a client in the page channel, with its origin', async () => {
  const page = body<WireElement>(await api(t, ann, 'POST', '/api/v3/spaces/section/private', { title: 'Doc' })).data;
  const created = body<WireBlock>(await api(t, ann, 'POST', '/api/v3/spaces/block', { pageId: page.id, type: 'text', data: { tokens: [{ text: 'a' }] } })).data;
  const socket = await connect(ann);
  const joined = await request(socket, 'join', { channel: channels.element(page.id, await userIdOf(t, 'ann@example.com')) });
  expect(joined.ok).toBe(true);
  const edit = nextEvent<ElementEdit>(socket, 'edit');
  const clientId = 'client-0001';
  const res = await api(t, ann, 'POST', `/api/v3/spaces/block/${created.id}`, { version: 1, type: 'text', data: { tokens: [{ text: 'ab' }] } }, { 'x-client-id': clientId });
  expect(res.statusCode).toBe(200);
  const seen = await edit;
  expect(seen).toMatchObject({ channel: `element:${page.id}`, pageId: page.id, origin: clientId, block: { id: created.id, version: 2, data: { tokens: [{ text: 'ab' }] } } });
});
