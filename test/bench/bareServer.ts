/**
 * The reference server for `npm run bench`: the same database work as the real routes with no
 * framework layers (no session, validation, policy or presenter). Run as its own process:
 *   PORT=… (SQLITE_FILE=… | DATABASE_URL=…) tsx test/bench/bareServer.ts
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

interface Row {
  id: string;
  parent_id: string | null;
  type: string;
  version: number;
  data: string;
}

interface Store {
  update(id: string, version: number, data: string, now: string): Promise<boolean>;
  pageRows(pageId: string): Promise<Row[]>;
}

function sqliteStore(file: string): Store {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const update = db.prepare('UPDATE blocks SET data = ?, version = version + 1, updated_at = ? WHERE id = ? AND version = ?');
  const rows = db.prepare('SELECT id, parent_id, type, version, data FROM blocks WHERE page_id = ? AND deleted_at IS NULL ORDER BY sort_key, id');
  return {
    update: async (id, version, data, now) => update.run(data, now, id, version).changes === 1,
    pageRows: async (pageId) => rows.all(pageId) as Row[],
  };
}

function postgresStore(url: string): Store {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return {
    update: async (id, version, data, now) =>
      (await pool.query('UPDATE blocks SET data = $1, version = version + 1, updated_at = $2 WHERE id = $3 AND version = $4', [data, now, id, version]))
        .rowCount === 1,
    pageRows: async (pageId) =>
      (
        await pool.query<Row>(
          'SELECT id, parent_id, type, version, data FROM blocks WHERE page_id = $1 AND deleted_at IS NULL ORDER BY sort_key COLLATE "C", id',
          [pageId],
        )
      ).rows,
  };
}

const store = process.env.DATABASE_URL ? postgresStore(process.env.DATABASE_URL) : sqliteStore(process.env.SQLITE_FILE as string);
const app = Fastify({ logger: false });

app.get('/bare/hello', async () => 'hello');

app.post<{ Params: { id: string }; Body: { version: number; data: unknown } }>('/bare/block/:id', async (request, reply) => {
  const { version, data } = request.body;
  const ok = await store.update(request.params.id, version, JSON.stringify(data), new Date().toISOString());
  if (!ok) return reply.status(422).send({ error: 'conflict' });
  return { version: version + 1 };
});

// The same wire shape as the real route (flat pages: every block's previous sibling is the row before it).
app.get<{ Params: { id: string } }>('/bare/page/:id', async (request) => {
  const pageId = request.params.id;
  const rows = await store.pageRows(pageId);
  const data = rows.map((r, i) => ({
    id: r.id,
    contentType: 'Block',
    pageId,
    type: r.type,
    version: r.version,
    parentId: r.parent_id,
    placeAfter: i > 0 ? rows[i - 1].id : null,
    data: JSON.parse(r.data) as unknown,
  }));
  return { data, included: [], meta: { count: data.length, hasMoreNext: false }, errors: [] };
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('READY\n');
