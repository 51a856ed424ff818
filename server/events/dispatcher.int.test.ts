import type { Socket } from 'socket.io-client';
import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import type { DatabaseEvent } from '../../schema/database';
import {
  channels,
  NOTIFICATIONS_CHANNEL,
  REALTIME_ERRORS,
  type ChildrenChange,
  type ElementAdd,
  type ElementEdit,
  type ElementPageEdit,
  type ElementRemove,
  type NotificationAdded,
  type RealtimeErrorBody,
} from '../../schema/realtime';
import { createPage, makeTeamWorkspace, share, type Actor } from '../../test/helpers/pages';
import { listeningApp, nextEvent, request } from '../../test/helpers/realtimeClient';
import { api, body, type TestApp } from '../../test/helpers/testApp';
import type { PageRow } from '../db/types';
// The app's decorations (`events`, `viewOrders`, `realtime`) as typed by their plugins.
import '../plugins/events';
import '../plugins/realtime';
import { findPage } from '../repositories/pages';
import { presenters } from './dispatcher';
import type { DomainEventKind, EventOf } from './events';

/**
 * The dispatcher (server/events/): every kind of domain event has a presenter, and each one's
 * event, dispatched in a real app, reaches a real socket.io client as the message docs/realtime.md
 * names. What each command's events are is tested with the commands (both databases).
 */

const app = listeningApp(['ann.events@example.com', 'bob.events@example.com']);
let t: TestApp;
let ann: Actor;
let bob: Actor;
let page: PageRow;
beforeAll(async () => {
  t = app.t();
  [ann, bob] = app.people();
  page = (await findPage(t.app.db, (await createPage(t, ann, { title: 'События' })).id))!;
});

/** A client of `who`, in these channels. */
async function listening(who: Actor, ...joined: string[]): Promise<Socket> {
  const socket = await app.connect(who);
  for (const channel of joined) {
    const answer = await request(socket, 'join', { channel });
    if (!answer.ok) throw new Error(`join ${channel} refused: ${JSON.stringify(answer.error)}`);
  }
  return socket;
}

const at = '2026-12-03T10:00:00.000Z';
const block = (id: string, pageId = page.id): WireBlock => ({
  id,
  contentType: 'Block',
  pageId,
  type: 'text',
  version: 2,
  parentId: null,
  placeAfter: null,
  data: { tokens: [{ text: 'текст' }] },
});
const onPage = <T extends { channel: string }>(socket: Socket, event: string, accept: (payload: T) => boolean = () => true) =>
  nextEvent<T>(socket, event, (payload) => payload.channel === `element:${page.id}` && accept(payload));

/**
 * Per kind of event: one, and what a client hears of it. Typed by kind: a kind added to
 * DomainEvent without a case here does not compile.
 */
type Case<K extends DomainEventKind> = () => Promise<{ event: EventOf<K>; origin?: string; heard: () => Promise<unknown> }>;
const cases: { [K in DomainEventKind]: Case<K> } = {
  blocksAdded: async () => {
    const socket = await listening(ann, channels.element(page.id, ann.id));
    const heard = onPage<ElementAdd>(socket, 'add');
    return { event: { kind: 'blocksAdded', pageId: page.id, blocks: [block('b1')], at }, origin: 'writer-tab-01', heard: () => heard };
  },
  blockChanged: async () => {
    const socket = await listening(ann, channels.element(page.id, ann.id));
    const heard = onPage<ElementEdit>(socket, 'edit', (payload) => 'block' in payload);
    return { event: { kind: 'blockChanged', block: block('b2'), at }, heard: () => heard };
  },
  blocksRemoved: async () => {
    const socket = await listening(ann, channels.element(page.id, ann.id));
    const heard = onPage<ElementRemove>(socket, 'remove');
    return { event: { kind: 'blocksRemoved', pageId: page.id, removed: [{ id: 'b3', version: 4 }], at }, heard: () => heard };
  },
  rowsChanged: async () => {
    const socket = await listening(ann, channels.element(page.id, ann.id));
    const heard = onPage<DatabaseEvent>(socket, 'database');
    return { event: { kind: 'rowsChanged', holderId: page.id, databaseId: 'db1', change: { kind: 'reset' }, at }, heard: () => heard };
  },
  cellsWritten: async () => {
    // The page stands for a row: a written title also renames the row's page for its readers.
    const socket = await listening(ann, channels.element(page.id, ann.id));
    const cells = onPage<DatabaseEvent>(socket, 'database');
    const renamed = onPage<ElementPageEdit>(socket, 'edit', (payload) => 'page' in payload);
    const written = [
      { rowId: page.id, fieldId: 'price', value: 5, version: 3, updatedAt: at, updatedBy: ann.id },
      { rowId: page.id, fieldId: MAIN_FIELD_ID, value: 'Новое имя', version: 2, updatedAt: at, updatedBy: ann.id },
    ];
    return {
      event: { kind: 'cellsWritten', holderId: page.id, databaseId: 'db1', rows: new Map([[page.id, page]]), written, changes: [] },
      heard: () => Promise.all([cells, renamed]),
    };
  },
  pageChanged: async () => {
    const socket = await listening(ann, channels.element(page.id, ann.id));
    const heard = onPage<ElementPageEdit>(socket, 'edit', (payload) => 'page' in payload);
    return { event: { kind: 'pageChanged', page: { ...page, title: 'Другое' }, at }, heard: () => heard };
  },
  treeChanged: async () => {
    const socket = await listening(ann, channels.elementChildren(ann.workspaceId, ann.id));
    const heard = nextEvent<ChildrenChange>(socket, 'edit', (payload) => payload.channel === `elementChildren:${ann.workspaceId}`);
    return { event: { kind: 'treeChanged', page }, heard: () => heard };
  },
  accessLost: async () => {
    // Bob had the page; his grant is gone (as a removal leaves it): the event takes him out of its channel.
    await share(t, ann, page.id, [{ userId: bob.id, accessLevel: 'read' }]);
    const socket = await listening(bob, channels.element(page.id, bob.id));
    await t.app.db.deleteFrom('page_members').where('page_id', '=', page.id).where('user_id', '=', bob.id).execute();
    const heard = nextEvent<RealtimeErrorBody>(socket, 'error');
    return { event: { kind: 'accessLost', userId: bob.id }, heard: () => heard };
  },
  notified: async () => {
    const socket = await listening(ann);
    const heard = nextEvent<NotificationAdded>(socket, 'add', (payload) => payload.channel === NOTIFICATIONS_CHANNEL);
    return { event: { kind: 'notified', userId: ann.id, workspaceId: ann.workspaceId, notificationId: 'n1' }, heard: () => heard };
  },
  commentChanged: async () => {
    // Heard by the workspace's webhooks (docs/api/webhooks.md): a delivery recorded for one that hears comments.
    await makeTeamWorkspace(t, ann.workspaceId);
    const shared = await createPage(t, ann, { title: 'Общая', section: 'all' });
    const hook = 'hook-comments';
    await t.app.db
      .insertInto('webhooks')
      .values({
        id: hook,
        workspace_id: ann.workspaceId,
        url: 'https://example.com/',
        secret: 's',
        events: '["comment"]',
        active: 1,
        created_by: ann.id,
        created_at: at,
      })
      .execute();
    const heard = async () => {
      const delivery = await t.app.db.selectFrom('webhook_deliveries').select(['event', 'payload']).where('webhook_id', '=', hook).executeTakeFirstOrThrow();
      await t.app.db.deleteFrom('webhooks').where('id', '=', hook).execute();
      return { event: delivery.event, data: (JSON.parse(delivery.payload) as { data: unknown }).data, page: shared.id };
    };
    return { event: { kind: 'commentChanged', pageId: shared.id, commentId: 'c1', action: 'created', at }, heard };
  },
};

/** What a client hears of each case's event. */
const expected: { [K in DomainEventKind]: unknown } = {
  blocksAdded: { channel: 'element:PAGE', pageId: 'PAGE', origin: 'writer-tab-01', at, blocks: [block('b1', 'PAGE')] },
  blockChanged: { channel: 'element:PAGE', pageId: 'PAGE', origin: null, at, block: block('b2', 'PAGE') },
  blocksRemoved: { channel: 'element:PAGE', pageId: 'PAGE', origin: null, at, ids: ['b3'], versions: [4] },
  rowsChanged: { channel: 'element:PAGE', pageId: 'PAGE', databaseId: 'db1', origin: null, at, change: { kind: 'reset' } },
  cellsWritten: [
    {
      channel: 'element:PAGE',
      pageId: 'PAGE',
      databaseId: 'db1',
      origin: null,
      at: 'ANY',
      change: {
        kind: 'cells',
        rowId: 'PAGE',
        cells: [
          { fieldId: 'price', value: 5, version: 3 },
          { fieldId: MAIN_FIELD_ID, value: 'Новое имя', version: 2 },
        ],
        updatedAt: at,
        updatedBy: 'ANN',
      },
    },
    { channel: 'element:PAGE', pageId: 'PAGE', origin: null, at, page: { id: 'PAGE', title: 'Новое имя', icon: null, cover: null } },
  ],
  pageChanged: { channel: 'element:PAGE', pageId: 'PAGE', origin: null, at, page: { id: 'PAGE', title: 'Другое', icon: null, cover: null } },
  treeChanged: { channel: 'elementChildren:WORKSPACE', parentId: 'WORKSPACE', pageId: 'PAGE' },
  accessLost: { code: REALTIME_ERRORS.accessRevoked, message: 'ANY', channel: 'element:PAGE#BOB' },
  notified: { channel: NOTIFICATIONS_CHANNEL, id: 'n1', workspaceId: 'WORKSPACE' },
  commentChanged: { event: 'comment.changed', data: { pageId: 'ANY', commentId: 'c1', action: 'created' }, page: 'ANY' },
};

/** `expected` with the run's ids put in. */
function withIds(value: unknown): unknown {
  const names: Record<string, string> = { PAGE: page.id, WORKSPACE: ann.workspaceId, ANN: ann.id, BOB: bob.id };
  return JSON.parse(
    JSON.stringify(value).replace(/PAGE|WORKSPACE|ANN|BOB/g, (name) => names[name]),
    (_key, v: unknown) => (v === 'ANY' ? expect.any(String) : v),
  );
}

test('every kind of event has exactly one presenter', () => {
  const kinds = Object.keys(presenters({ db: t.app.db, realtime: t.app.realtime, orders: t.app.viewOrders, log: t.app.log })).sort();
  expect(kinds).toEqual(Object.keys(cases).sort());
});

test.each(Object.keys(cases) as DomainEventKind[])('%s reaches the clients as docs/realtime.md says', async (kind) => {
  const { event, origin, heard } = await (cases[kind] as Case<DomainEventKind>)();
  await t.app.events.dispatch([event], origin ?? null);
  expect(await heard()).toEqual(withIds(expected[kind]));
});

test("treeChanged of a database row: its database's views hear it (every connection, the writer's too), not the sidebar — the row as it is, or gone to the trash", async () => {
  const holder = await createPage(t, ann, { title: 'С базой' });
  const database = body<{ id: string }>(
    await api(t, ann.cookie, 'POST', '/api/v3/spaces/block', {
      pageId: holder.id,
      type: 'database',
      data: {
        config: { fields: { MAIN_FIELD: { name: 'Название', type: 'text' } } },
        view: { layouts: [{ uid: 'table-1', type: 'table', orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }] }] },
      },
    }),
  ).data;
  const [made] = body<Array<{ id: string }>>(
    await api(t, ann.cookie, 'POST', `/api/v3/spaces/database/${database.id}/rows`, { rows: [{ title: 'Строка' }] }),
  ).data;
  const row = (await findPage(t.app.db, made.id))!;
  const socket = await listening(ann, channels.element(holder.id, ann.id));
  const onHolder = (kind: string) =>
    nextEvent<DatabaseEvent>(socket, 'database', (payload) => payload.channel === `element:${holder.id}` && payload.change.kind === kind);

  const read = onHolder('rows');
  await t.app.events.dispatch([{ kind: 'treeChanged', page: row }], 'writer-tab-01');
  expect(await read).toMatchObject({ databaseId: database.id, origin: null, change: { kind: 'rows', rows: [{ id: row.id, data: { title: 'Строка' } }] } });
  const gone = onHolder('removed');
  await t.app.events.dispatch([{ kind: 'treeChanged', page: { ...row, in_trash: 1 } }], null);
  expect(await gone).toMatchObject({ databaseId: database.id, change: { kind: 'removed', ids: [row.id] } });
});
