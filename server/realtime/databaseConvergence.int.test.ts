import type { Socket } from 'socket.io-client';
import { MAIN_FIELD_ID, type DatabaseData, type RowValue } from '../../schema/blocks/database';
import type { DatabaseEvent, WireRow } from '../../schema/database';
import type { WireBlock } from '../../schema/block';
import type { WireElement } from '../../schema/element';
import { channels } from '../../schema/realtime';
import { ApiRequestError } from '../../src/app/api';
import type { WireCell } from '../../src/features/database/api';
import { writeCell } from '../../src/features/database/cellWrites';
import { RowStore } from '../../src/features/database/rowStore';
import { connectRealtime, request, until } from '../../test/helpers/realtimeClient';
import { api, body } from '../../test/helpers/testApp';
import { convergenceServers, freshChar, random, sleep } from '../../test/helpers/convergence';

/**
 * Randomized convergence of data tables (issue 16): three headless copies of the web app's table
 * state — its row store and its cell writer (optimistic, three-way text merge on a conflict),
 * fed by a real realtime connection — write the same cells of the same rows at once through a
 * real server: text inserts and deletes, numbers, options. At the end every copy holds what the
 * server holds, every cell's version is the server's, and every character anyone inserted that
 * nobody deleted is in the text (unless that write was given up after repeated conflicts, which
 * the grid reports). On PostgreSQL the clients are split over two server processes.
 */

const servers = convergenceServers();

const S = '/api/v3/spaces';

const FIELDS = {
  [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
  note: { name: 'Заметка', type: 'text' },
  price: { name: 'Цена', type: 'number' },
  stage: {
    name: 'Этап',
    type: 'select',
    options: [
      { id: 'a', name: 'А' },
      { id: 'b', name: 'Б' },
      { id: 'c', name: 'В' },
    ],
  },
} as const;

interface Client {
  id: string;
  url: string;
  socket: Socket;
  store: RowStore;
  refused: number;
}

/** One headless copy of the table: its store reads windows over HTTP and hears the database's channel. */
async function connectClient(url: string, pageId: string, databaseId: string, index: number): Promise<Client> {
  const id = `db-client-${index}-${Math.random().toString(36).slice(2)}`;
  const read = async (query: { offset?: number; limit?: number }) => {
    const params = Object.entries({ ...query })
      .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
      .join('&');
    const res = await fetch(`${url}${S}/database/${databaseId}/rows?${params}`, { headers: { cookie: servers.cookie } });
    const answer = (await res.json()) as { data: WireRow[]; meta: { count: number; offset: number; hasMoreNext: boolean } };
    return { rows: answer.data, count: answer.meta.count, offset: answer.meta.offset, hasMoreNext: answer.meta.hasMoreNext };
  };
  const store = new RowStore(read, {});
  store.setVisible(0, 20);
  const socket = await connectRealtime(url, { cookie: servers.cookie }, { clientId: id });
  const joined = await request(socket, 'join', { channel: channels.element(pageId, servers.userId) });
  expect(joined.ok).toBe(true);
  socket.on('database', (event: DatabaseEvent) => {
    if (event.databaseId === databaseId && event.origin !== id) store.applyChange(event.change);
  });
  await until(() => store.count !== null && store.rowAt(0) !== undefined, 5000, 'the first window');
  return { id, url, socket, store, refused: 0 };
}

async function postCell(client: Client, rowId: string, fieldId: string, value: RowValue, version: number): Promise<WireCell> {
  const res = await fetch(`${client.url}${S}/row/${rowId}/cells/${fieldId}`, {
    method: 'POST',
    headers: { cookie: servers.cookie, 'content-type': 'application/json', 'x-client-id': client.id },
    body: JSON.stringify({ value, version }),
  });
  const answer = (await res.json()) as { data: unknown; errors: Array<{ code: string; message: string }> };
  if (!res.ok) throw new ApiRequestError(res.status, answer.errors[0]?.code, answer.errors[0]?.message ?? 'failed', answer.data);
  return answer.data as WireCell;
}

interface Tally {
  inserted: Map<string, Set<string>>;
  deleted: Map<string, Set<string>>;
}
const cellKey = (rowId: string, fieldId: string) => `${rowId}/${fieldId}`;
const add = (map: Map<string, Set<string>>, key: string, chars: Iterable<string>) => {
  const set = map.get(key) ?? new Set<string>();
  for (const c of chars) set.add(c);
  map.set(key, set);
};

async function editRandomly(client: Client, rows: string[], rng: ReturnType<typeof random>, steps: number, tally: Tally) {
  const fields = Object.keys(FIELDS);
  for (let step = 0; step < steps; step++) {
    await sleep(rng.int(30));
    const rowId = rng.pick(rows);
    const fieldId = rng.pick(fields);
    const row = client.store.rowById(rowId);
    if (!row) continue;
    const field = FIELDS[fieldId as keyof typeof FIELDS] as DatabaseData['config']['fields'][string];
    const current = fieldId === MAIN_FIELD_ID ? row.data.title : (row.data.values[fieldId] ?? null);
    const version = row.versions[fieldId] ?? 0;
    let value: RowValue;
    const key = cellKey(rowId, fieldId);
    let inserted: string[] = [];
    if (field.type === 'text') {
      const text = typeof current === 'string' ? current : '';
      const chars = Array.from(text);
      if (chars.length > 0 && rng.next() < 0.3) {
        const at = rng.int(chars.length);
        add(tally.deleted, key, chars.splice(at, 1));
      } else {
        inserted = Array.from({ length: 1 + rng.int(2) }, freshChar);
        chars.splice(rng.int(chars.length + 1), 0, ...inserted);
      }
      value = chars.join('');
      if (value === '' && fieldId !== MAIN_FIELD_ID) value = null;
    } else if (field.type === 'number') {
      value = rng.int(1000);
    } else {
      value = rng.pick(['a', 'b', 'c', null]);
    }
    const result = await writeCell({
      store: client.store,
      write: (r, f, v, ver) => postCell(client, r, f, v, ver),
      rowId,
      fieldId,
      field,
      value,
      base: { value: current, version },
      onError: () => undefined,
    });
    if (result.ok) add(tally.inserted, key, inserted);
    else client.refused++;
  }
}

/** Keys in order, so two copies compare equal whatever order their cells arrived in. */
const sorted = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
const snapshot = (rows: WireRow[]) =>
  rows.map((r) => ({ id: r.id, title: r.data.title, values: sorted(r.data.values), versions: sorted(r.versions) })).sort((a, b) => (a.id < b.id ? -1 : 1));

describe.each([
  [3, 1],
  [3, 7],
])('%i clients, seed %i', (clientCount, seed) => {
  test("every copy ends with the server's cells and versions, and no inserted character is lost", async () => {
    const page = body<WireElement>(await api(servers.t, servers.cookie, 'POST', `${S}/section/private`, { title: 'Сходимость' })).data;
    const db = body<WireBlock>(
      await api(servers.t, servers.cookie, 'POST', `${S}/block`, {
        pageId: page.id,
        type: 'database',
        data: {
          config: { fields: FIELDS },
          view: { layouts: [{ uid: 'v1', type: 'table', orderedFields: Object.keys(FIELDS).map((fieldId) => ({ fieldId, isWrap: false })) }] },
        },
      }),
    ).data;
    const made = body<WireRow[]>(
      await api(servers.t, servers.cookie, 'POST', `${S}/database/${db.id}/rows`, { rows: Array.from({ length: 5 }, (_, i) => ({ title: `r${i}` })) }),
    ).data;
    const rows = made.map((r) => r.id);
    const clients: Client[] = [];
    for (let i = 0; i < clientCount; i++) clients.push(await connectClient(servers.urls[i % servers.urls.length], page.id, db.id, i));
    try {
      const tally: Tally = { inserted: new Map(), deleted: new Map() };
      await Promise.all(clients.map((client, i) => editRandomly(client, rows, random(seed * 100 + i), 40, tally)));

      const server = async () => body<WireRow[]>(await api(servers.t, servers.cookie, 'GET', `${S}/database/${db.id}/rows`)).data;
      let expected = snapshot(await server());
      await until(
        async () => {
          expected = snapshot(await server());
          return clients.every((c) => JSON.stringify(snapshot(rows.map((id) => c.store.rowById(id)!).filter(Boolean))) === JSON.stringify(expected));
        },
        15_000,
        "every copy to hold the server's cells",
      ).catch((error: unknown) => {
        const differing = clients
          .map((c) => ({ client: c.id, rows: snapshot(rows.map((id) => c.store.rowById(id)!).filter(Boolean)) }))
          .filter((c) => JSON.stringify(c.rows) !== JSON.stringify(expected));
        throw new Error(`${String(error)}\nserver ${JSON.stringify(expected)}\ndiffering ${JSON.stringify(differing)}`);
      });

      // Every character inserted by an accepted write and never deleted is in the server's text
      // (a write given up after repeated conflicts is not counted: the grid says it failed).
      const final = await server();
      for (const [key, chars] of tally.inserted) {
        const [rowId, fieldId] = key.split('/');
        const row = final.find((r) => r.id === rowId)!;
        const text = String(fieldId === MAIN_FIELD_ID ? row.data.title : (row.data.values[fieldId] ?? ''));
        const gone = tally.deleted.get(key) ?? new Set<string>();
        const missing = [...chars].filter((c) => !gone.has(c) && !text.includes(c));
        expect([key, missing]).toEqual([key, []]);
      }
    } finally {
      for (const client of clients) {
        client.socket.close();
        client.store.dispose?.();
      }
    }
  }, 60_000);
});
