import { spawn } from 'node:child_process';

/** The write lock of a SQLite file held by another process. */
export interface HeldLock {
  /** Resolves once the other process has let the lock go (committed) and exited. */
  released: Promise<void>;
}

/**
 * Another process (a plain `node` with its own better-sqlite3 connection, as a second server or
 * a maintenance script would be) takes the write lock of `file` with `BEGIN IMMEDIATE`, holds it
 * for `ms`, then commits. Resolves once the lock is held; the holder's own busy wait for it is
 * long, so a write of the server under test in flight does not keep it from getting there.
 */
export async function holdWriteLock(file: string, ms: number): Promise<HeldLock> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1], { timeout: 10000 });
    db.exec('BEGIN IMMEDIATE');
    process.stdout.write('locked\\n');
    setTimeout(() => {
      db.exec('COMMIT');
      db.close();
      process.stdout.write('released\\n');
    }, Number(process.argv[2]));
  `;
  const child = spawn(process.execPath, ['-e', script, file, String(ms)], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (output.includes('locked')) resolve();
    };
    child.stdout.on('data', onData);
    exited.then((code) => reject(new Error(`the lock holder exited (${code}) before taking the lock:\n${output}`)));
  });
  return {
    released: exited.then((code) => {
      if (code !== 0 || !output.includes('released')) throw new Error(`the lock holder failed (${code}):\n${output}`);
    }),
  };
}

/**
 * Another process runs one write on `file`, waiting at most `waitMs` for the write lock (its own
 * busy timeout). Answers whether it went in, and SQLite's code when it did not.
 */
export async function writeFromAnotherProcess(file: string, statement: string, waitMs: number): Promise<{ written: boolean; code?: string }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1], { timeout: Number(process.argv[3]) });
    try {
      db.exec(process.argv[2]);
      process.stdout.write(JSON.stringify({ written: true }));
    } catch (error) {
      process.stdout.write(JSON.stringify({ written: false, code: error.code }));
    }
    db.close();
  `;
  const child = spawn(process.execPath, ['-e', script, file, statement, String(waitMs)], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the other writer failed (${code}):\n${output}${errors}`);
  return JSON.parse(output) as { written: boolean; code?: string };
}
