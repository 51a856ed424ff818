import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureServerBuild, SERVER_BUNDLE } from '../../server/build/builds.mjs';

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  pid: number;
  dataDir: string;
  /** Everything the server printed so far. */
  log(): string;
  /** Resolves with the sign-in code the server printed for an e-mail (no SMTP configured). */
  waitForCode(email: string, timeoutMs?: number): Promise<string>;
  /** Kills the process at once (SIGKILL: no shutdown at all) and waits for it to be gone; the data directory stays. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the real server as its own process, exactly as `npm start` runs it (the built
 * `dist-server/main.mjs`, built first when stale: server/build/builds.mjs), and waits until it
 * listens. Its DATA_DIR is a fresh one removed by `stop()`, or the caller's
 * `env.DATA_DIR`, which stays (several processes on one SQLite file).
 */
export async function startServerProcess(env: Record<string, string> = {}, nodeArgs: string[] = [], attempt = 1): Promise<ServerProcess> {
  // A test may choose the port (e.g. to give the server its own PUBLIC_URL).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const ownDataDir = env.DATA_DIR === undefined;
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'workspace-e2e-'));
  let output = '';
  await ensureServerBuild();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--enable-source-maps', SERVER_BUNDLE], {
    cwd: process.cwd(),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const until = async (predicate: () => string | null, timeoutMs: number, what: string): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = predicate();
      if (found) return found;
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before ${what}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out waiting for ${what}:\n${output}`);
  };

  const url = `http://127.0.0.1:${port}`;
  // Ready when it answers, whatever the log level.
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(`${url}/version`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null) {
      // The port `freePort` found free was taken before the server bound it (another file's
      // server, or any process's outgoing connection: the kernel hands those out from the same
      // range): another port. Not when the test chose the port.
      if (!env.PORT && attempt < 5 && output.includes('EADDRINUSE')) {
        if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
        return startServerProcess(env, nodeArgs, attempt + 1);
      }
      throw new Error(`server exited (${child.exitCode}) before answering:\n${output}`);
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer within 30 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid as number,
    dataDir,
    log: () => output,
    waitForCode: (email, timeoutMs = 10_000) =>
      until(
        () => {
          const matches = [...output.matchAll(/sign-in code for ([^:\s]+): (\d{6})/g)].filter((m) => m[1] === email);
          return matches.length > 0 ? matches[matches.length - 1][2] : null;
        },
        timeoutMs,
        `a sign-in code for ${email}`,
      ),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        // A process that has not ended its shutdown in 15 s is killed (said on stderr with its last
        // words), so a hung shutdown fails loudly instead of holding the suite open until CI's limit.
        const late = setTimeout(() => {
          process.stderr.write(`server on port ${port} did not stop in 15 s after SIGTERM; killed. Its last output:\n${output.slice(-2000)}\n`);
          child.kill('SIGKILL');
        }, 15_000);
        await exited;
        clearTimeout(late);
      }
      if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A real PostgreSQL in a child process (test/helpers/runEmbeddedPostgres.mjs). */
export async function startPostgresProcess(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['test/helpers/runEmbeddedPostgres.mjs'], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`PostgreSQL did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`PostgreSQL exited (${code}):\n${output}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Signs in to a server process through the API with the code it printed; answers the session cookie (`sid=…`). */
export async function signInToProcess(server: ServerProcess, email: string): Promise<string> {
  const form = new FormData();
  form.append('email', email);
  await fetch(`${server.url}/api/auth/send_code`, { method: 'POST', body: form });
  const login = new FormData();
  login.append('email', email);
  login.append('pin', await server.waitForCode(email));
  const res = await fetch(`${server.url}/api/auth/login`, { method: 'POST', body: login });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error(`no session cookie for ${email}: ${res.status}`);
  return cookie;
}

/** A JSON call to a server process (cookie and JSON body optional); throws with the answer's text on a non-2xx. */
export async function fetchJson<T>(url: string, init: RequestInit & { cookie?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (init.cookie) headers.cookie = init.cookie;
  if (typeof init.body === 'string') headers['content-type'] = 'application/json';
  const res = await fetch(url, { ...init, headers });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * People named as given (`[email, name, cookie?]`: the first is usually the one signed in in the
 * browser, with their cookie; the others sign in here) in a new workspace of the first one's,
 * the others its participants. Answers their ids by name and the workspace's id.
 */
export async function namedTeam(
  server: ServerProcess,
  people: ReadonlyArray<readonly [email: string, name: string, cookie?: string]>,
  workspaceName = 'Команда',
): Promise<{ ids: Record<string, string>; workspace: string }> {
  const ids: Record<string, string> = {};
  let owner = '';
  for (const [email, name, session] of people) {
    const who = session || (await signInToProcess(server, email));
    owner ||= who;
    const id = (await fetchJson<{ data: { id: string } }>(`${server.url}/api/user/current`, { cookie: who })).data.id;
    await fetchJson(`${server.url}/api/user`, { method: 'POST', cookie: who, body: JSON.stringify({ id, name }) });
    ids[name] = id;
  }
  const S = `${server.url}/api/v3/spaces`;
  const workspace = (
    await fetchJson<{ data: { id: string } }>(`${S}/workspace`, { method: 'POST', cookie: owner, body: JSON.stringify({ name: workspaceName }) })
  ).data.id;
  await fetchJson(`${S}/workspace/${workspace}/members/add`, {
    method: 'POST',
    cookie: owner,
    body: JSON.stringify({ members: people.slice(1).map(([, name]) => ({ userId: ids[name], role: 'participant' })) }),
  });
  return { ids, workspace };
}
