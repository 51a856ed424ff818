import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import pg from 'pg';
import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import { createAdapter as createRedisAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import type { Config } from '../config';

/**
 * The socket.io adapter that carries events between server processes (docs/realtime.md,
 * "Several server processes"): Redis when REDIS_URL is set, else PostgreSQL LISTEN/NOTIFY when
 * the database is PostgreSQL; none for SQLite (one process). Resolves once it listens (at most
 * 10 s); `close` lets its connections go.
 */
export async function connectAdapter(
  io: Server,
  config: Pick<Config, 'redisUrl' | 'databaseUrl'>,
  log: FastifyBaseLogger,
): Promise<{ close(): Promise<void> } | null> {
  if (config.redisUrl) {
    const pub = createClient({ url: config.redisUrl });
    const sub = pub.duplicate();
    pub.on('error', (error) => log.warn({ err: error }, 'realtime: redis'));
    sub.on('error', (error) => log.warn({ err: error }, 'realtime: redis'));
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createRedisAdapter(pub, sub));
    return {
      async close() {
        await Promise.all([pub.quit(), sub.quit()]);
      },
    };
  }
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 4 });
    pool.on('error', (error) => log.warn({ err: error }, 'realtime: postgres'));
    // The adapter keeps one client checked out for LISTEN and listens only for its 'end' (then it
    // reconnects); a lost connection also emits 'error' on that client, which would otherwise
    // bring the process down (a PostgreSQL restart or failover).
    pool.on('connect', (client) => client.on('error', (error) => log.warn({ err: error }, 'realtime: postgres listener lost')));
    // The adapter checks out one client and LISTENs on it, and takes a new one after a lost
    // connection. One it takes while the app closes would be kept for good (pool.end() would wait
    // forever): after the close, clients it holds are let go and it gets no new one (its attempt
    // waits for ever, so it does not retry on a timer either). The app is ready once it listens.
    let listening: () => void = () => undefined;
    let adapterClosed = false;
    const held = new Set<pg.PoolClient>();
    const listens = new Promise<void>((resolve) => (listening = resolve));
    const adapterPool = {
      query: (...args: Parameters<pg.Pool['query']>) => pool.query(...args),
      async connect() {
        if (adapterClosed) return new Promise<never>(() => undefined);
        const client = await pool.connect();
        if (adapterClosed) {
          client.release(true);
          return new Promise<never>(() => undefined);
        }
        held.add(client);
        // Watched while the adapter holds it (its LISTEN); the pool gets the client back unchanged.
        const query = client.query;
        const watched = ((...args: unknown[]) => {
          const result = (query as (...a: unknown[]) => unknown).apply(client, args);
          if (typeof args[0] === 'string' && args[0].startsWith('LISTEN') && result instanceof Promise)
            result.then(
              () => setImmediate(listening),
              () => undefined,
            );
          return result;
        }) as typeof client.query;
        client.query = watched;
        const release = client.release;
        client.release = (...args: Parameters<typeof release>) => {
          held.delete(client);
          client.query = query;
          client.release = release;
          return release.apply(client, args);
        };
        return client;
      },
    } as unknown as pg.Pool;
    io.adapter(createPostgresAdapter(adapterPool, { heartbeatInterval: 2_000, heartbeatTimeout: 6_000 }));
    await Promise.race([listens, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    return {
      async close() {
        adapterClosed = true;
        for (const client of [...held]) client.release(true);
        await pool.end();
      },
    };
  }
  return null;
}
