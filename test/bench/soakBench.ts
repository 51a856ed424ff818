/**
 * `npm run bench:soak` (issue 33, item 13): memory under a long day. The real server as its own
 * process on SQLite and on an embedded PostgreSQL, one after the other, under a mixed load for
 * BENCH_SOAK_MINUTES each (default 60); its resident memory (VmRSS of /proc/<pid>/status) and V8
 * heap (a bench-only preload, test/bench/soakMemory.mjs: `process.memoryUsage()` every 10 s, every
 * 6th after a full GC) over time, and whether they level off.
 *
 * The mixed load, bounded (it stops at the bound; its own state is capped, so the bench's memory
 * stays flat — it is reported too): BENCH_SOAK_USERS virtual users (default 6) of one team
 * workspace, each a loop of actions with a short pause, picked at random (seeded):
 *  - pages: create under the team's hub pages and in their private section, open (blocks and the
 *    page), trash and restore; the admin moves pages between hubs and deletes trashed ones for good;
 *  - blocks: create, edit with the right version (a conflict takes the server's and tries again),
 *    delete; a page past 60 blocks gets no more;
 *  - realtime: every user has a socket.io client that joins the pages it opens (`element:` and
 *    `online:`), leaves the one before, sends carets, and disconnects and reconnects now and then
 *    (sometimes leaving its channels first, sometimes not); four readers more come, join three
 *    pages, stay 10–30 s and go;
 *  - comments (new, replies, reactions, deletes) and notifications (list, counts, read);
 *  - a data table of 300 rows and more: windows of rows, cell writes (with versions), several
 *    cells at once, rows added (and trashed past 1,500), footers;
 *  - search: `search/text`, the quick finder's calls (recents, then `search/text` as a word is
 *    typed) and the page picker (`search?q=`);
 *  - now and then: a new person signs in (a login code), is added to the team, looks around and
 *    signs out (every 45 s: the per-address sign-in limit is 30 per 10 minutes); an export job of
 *    the workspace (every 3 minutes, Markdown or JSON, downloaded); a small import (every 2
 *    minutes: a zip of three Markdown pages and a picture, read in the import worker), its pages
 *    deleted for good at the next one.
 * No AI (it needs a provider).
 *
 * Figures: a table over time (every BENCH_SOAK_REPORT_MINUTES, default 5, or a sixth of the run):
 * RSS, heapUsed, external; the baseline is the same process right after the warm-up
 * (BENCH_SOAK_WARMUP_MINUTES, default 5, at most a sixth of the run); the slope of RSS and of the
 * heap after GC over the last half (MB/min, least squares) and a verdict: «levels off» when both
 * are under 0.5 MB/min (30 MB an hour), else «grows».
 * BENCH_SOAK_SNAPSHOTS=1 also writes two heap snapshots (right after the warm-up and at the end,
 * `--heapsnapshot-signal=SIGUSR2`) to a temporary directory named in the results, to be compared
 * by constructor (test/bench/heapDiff.mjs). Writing a snapshot raises the process's RSS by about
 * the snapshot's size for the rest of the run (measured: 233 → 455 MB for a 49 MB snapshot), so
 * the RSS figures of a run with snapshots say nothing: their heap figures still do.
 *   BENCH_DBS=sqlite,postgres BENCH_SOAK_MINUTES=60 npm run bench:soak
 * Writes test/bench/results/soak-<time>.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import type { Socket } from 'socket.io-client';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import { channels, REALTIME_EVENTS } from '../../schema/realtime';
import { seeded } from '../helpers/races';
import { connectRealtime, request } from '../helpers/realtimeClient';
import { fetchJson, signInToProcess, startPostgresProcess, startServerProcess, type ServerProcess } from '../helpers/serverProcess';
import { benchDatabases, S, writeResults, type BenchDatabase } from './bigTable';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 60);
const WARMUP_MINUTES = Number(process.env.BENCH_SOAK_WARMUP_MINUTES ?? Math.min(5, MINUTES / 6));
const REPORT_MINUTES = Number(process.env.BENCH_SOAK_REPORT_MINUTES ?? Math.min(5, MINUTES / 6));
const USERS = Number(process.env.BENCH_SOAK_USERS ?? 6);
const READERS = 4;
const SNAPSHOTS = process.env.BENCH_SOAK_SNAPSHOTS === '1';
const SAMPLE_MS = 10_000;
/** Every 6th heap sample (a minute) is taken after a full GC. */
const GC_EVERY = 6;
const SIGN_IN_EVERY_MS = 45_000;
const EXPORT_EVERY_MS = Number(process.env.BENCH_SOAK_EXPORT_SECONDS ?? 180) * 1000;
const IMPORT_EVERY_MS = Number(process.env.BENCH_SOAK_IMPORT_SECONDS ?? 120) * 1000;
/** A slope under this (MB/min) over the last half is «levels off». */
const LEVEL_MB_PER_MIN = 0.5;

/** Caps on the bench's own state. */
const PAGES_PER_USER = 12;
const BLOCKS_PER_PAGE = 60;
const ROWS_CAP = 1500;
const ERRORS_KEPT = 20;

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => Number((bytes / MB).toFixed(1));

const WORDS = ['отчёт', 'план', 'команда', 'задача', 'срок', 'итог', 'встреча', 'проект', 'данные', 'решение', 'выпуск', 'заметка', 'бюджет', 'клиент'];
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** /proc/<pid>/status VmRSS, bytes. */
function vmRss(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  if (points.length < 2) return NaN;
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  return sxx === 0 ? NaN : sxy / sxx;
}

// ---- The load ------------------------------------------------------------------------------------

interface Counter {
  ok: number;
  refused: Record<string, number>;
}

class Tally {
  readonly actions: Record<string, Counter> = {};
  readonly errors: string[] = [];
  received = 0;
  note(action: string, status: number | string, detail?: string) {
    const counter = (this.actions[action] ??= { ok: 0, refused: {} });
    if (status === 'ok') counter.ok += 1;
    else {
      counter.refused[String(status)] = (counter.refused[String(status)] ?? 0) + 1;
      // The first few of each kind, to be read.
      const key = `${action}: ${status}`;
      if (detail && this.errors.length < ERRORS_KEPT && this.errors.filter((e) => e.startsWith(key)).length < 2)
        this.errors.push(`${key} ${detail.slice(0, 300)}`);
    }
  }
}

interface Answer<T> {
  status: number;
  body: T;
}

interface TrackedPage {
  id: string;
  /** Block id → version, as last seen. */
  blocks: Map<string, number>;
}

interface VUser {
  n: number;
  email: string;
  cookie: string;
  userId: string;
  socket: Socket | null;
  /** The page whose channels the socket is in. */
  joined: string | null;
  pages: TrackedPage[];
  trashed: string[];
  random: (n: number) => number;
}

interface Fixture {
  server: ServerProcess;
  teamId: string;
  owner: VUser;
  hubs: TrackedPage[];
  databasePageId: string;
  databaseId: string;
  viewId: string;
  /** Rows seen lately: id → cell versions. */
  rows: Map<string, Record<string, number>>;
  rowCount: number;
  tally: Tally;
  /** Pages the admin may move between hubs (children of hubs). */
  movable: string[];
  /** Import roots to delete at the next import. */
  imported: Array<{ user: VUser; id: string }>;
}

async function call<T = unknown>(fx: Fixture, user: VUser | null, method: string, url: string, body?: unknown): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'x-workspace-id': fx.teamId };
  if (user) headers.cookie = user.cookie;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${fx.server.url}${url}`, { method, headers, body: payload });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // a zip or CSV
  }
  return { status: res.status, body: parsed as T };
}

/** Runs `work` as `action`: 2xx counts as done, anything else as refused with its status (and a 5xx's text kept). */
async function act<T>(fx: Fixture, action: string, work: () => Promise<Answer<T>>): Promise<Answer<T> | null> {
  try {
    const answer = await work();
    if (answer.status >= 200 && answer.status < 300) fx.tally.note(action, 'ok');
    else fx.tally.note(action, answer.status, JSON.stringify(answer.body));
    return answer;
  } catch (error) {
    fx.tally.note(action, 'error', (error as Error).message);
    return null;
  }
}

const sentence = (random: (n: number) => number, words = 8) => Array.from({ length: words }, () => WORDS[random(WORDS.length)]).join(' ');
const pickOf = <T>(random: (n: number) => number, list: readonly T[]): T | undefined => (list.length ? list[random(list.length)] : undefined);

type Wire<T> = { data: T };
type WireBlock = { id: string; version: number; type: string };
type WireRow = { id: string; versions: Record<string, number> };

async function openPage(fx: Fixture, user: VUser, page: TrackedPage): Promise<void> {
  const blocks = await act(fx, 'page.open', () => call<Wire<WireBlock[]>>(fx, user, 'GET', `${S}/note/${page.id}/blocks`));
  await act(fx, 'page.open', () => call(fx, user, 'GET', `${S}/element/${page.id}`));
  if (blocks?.status === 200) {
    page.blocks.clear();
    for (const block of blocks.body.data.slice(0, 200)) if (block.type === 'text') page.blocks.set(block.id, block.version);
  }
  await joinPage(fx, user, page.id);
}

async function joinPage(fx: Fixture, user: VUser, pageId: string): Promise<void> {
  const socket = user.socket;
  if (!socket?.connected) return;
  try {
    if (user.joined) {
      await request(socket, REALTIME_EVENTS.leave, { channel: channels.element(user.joined, user.userId) });
      await request(socket, REALTIME_EVENTS.leave, { channel: channels.online(user.joined) });
      user.joined = null;
    }
    const a = await request(socket, REALTIME_EVENTS.join, { channel: channels.element(pageId, user.userId) });
    const b = await request(socket, REALTIME_EVENTS.join, { channel: channels.online(pageId) });
    fx.tally.note('realtime.join', a.ok && b.ok ? 'ok' : 'refused', JSON.stringify([a, b]));
    if (a.ok && b.ok) user.joined = pageId;
  } catch (error) {
    fx.tally.note('realtime.join', 'error', (error as Error).message);
  }
}

async function connect(fx: Fixture, user: VUser): Promise<void> {
  try {
    const socket = await connectRealtime(fx.server.url, { cookie: user.cookie });
    socket.onAny(() => (fx.tally.received += 1));
    user.socket = socket;
    user.joined = null;
    fx.tally.note('realtime.connect', 'ok');
  } catch (error) {
    fx.tally.note('realtime.connect', 'error', (error as Error).message);
  }
}

async function reconnect(fx: Fixture, user: VUser): Promise<void> {
  const socket = user.socket;
  if (socket) {
    // Half the time the channels are left first; else the connection just goes (a closed tab).
    if (user.joined && user.random(2) === 0) await joinPage(fx, user, user.joined).catch(() => undefined);
    socket.close();
  }
  user.socket = null;
  await connect(fx, user);
}

function allPages(fx: Fixture, user: VUser): TrackedPage[] {
  return [...fx.hubs, ...user.pages];
}

/** The actions of a virtual user, with their weights. */
const ACTIONS: Array<[number, string, (fx: Fixture, user: VUser) => Promise<void>]> = [
  [
    4,
    'page.create',
    async (fx, user) => {
      if (user.pages.length >= PAGES_PER_USER) {
        // Oldest to the trash (deleted for good by its owner or the admin later).
        const old = user.pages.shift()!;
        const trashed = await act(fx, 'page.trash', () => call(fx, user, 'DELETE', `${S}/element/${old.id}`));
        if (trashed?.status === 200) user.trashed.push(old.id);
        fx.movable = fx.movable.filter((id) => id !== old.id);
        return;
      }
      const underHub = user.random(2) === 0;
      const hub = pickOf(user.random, fx.hubs)!;
      const made = await act(fx, 'page.create', () =>
        call<Wire<{ id: string }>>(fx, user, 'POST', underHub ? `${S}/element/${hub.id}/children` : `${S}/section/private`, {
          title: `${sentence(user.random, 3)} ${user.n}`,
        }),
      );
      if (made?.status === 201) {
        user.pages.push({ id: made.body.data.id, blocks: new Map() });
        if (underHub) fx.movable.push(made.body.data.id);
        if (fx.movable.length > 100) fx.movable.shift();
      }
    },
  ],
  [
    8,
    'block.create',
    async (fx, user) => {
      const page = pickOf(user.random, allPages(fx, user))!;
      if (page.blocks.size >= BLOCKS_PER_PAGE) {
        const [id] = page.blocks.keys();
        const gone = await act(fx, 'block.delete', () => call(fx, user, 'DELETE', `${S}/block/${id}`));
        if (gone) page.blocks.delete(id);
        return;
      }
      const after = pickOf(user.random, [...page.blocks.keys()]) ?? null;
      const made = await act(fx, 'block.create', () =>
        call<Wire<WireBlock>>(fx, user, 'POST', `${S}/block`, {
          pageId: page.id,
          type: 'text',
          placeAfter: after,
          data: { tokens: [{ text: sentence(user.random) }] },
        }),
      );
      if (made?.status === 201) page.blocks.set(made.body.data.id, made.body.data.version);
    },
  ],
  [
    24,
    'block.edit',
    async (fx, user) => {
      const page = pickOf(
        user.random,
        allPages(fx, user).filter((p) => p.blocks.size > 0),
      );
      if (!page) return;
      const id = pickOf(user.random, [...page.blocks.keys()])!;
      for (let attempt = 0; attempt < 2; attempt++) {
        const answer = await act(fx, 'block.edit', () =>
          call<Wire<WireBlock>>(fx, user, 'POST', `${S}/block/${id}`, {
            version: page.blocks.get(id),
            type: 'text',
            data: { tokens: [{ text: sentence(user.random) }] },
          }),
        );
        if (answer?.status === 200) {
          page.blocks.set(id, answer.body.data.version);
          return;
        }
        if (answer?.status === 422 && (answer.body as { data?: WireBlock }).data?.version) {
          page.blocks.set(id, (answer.body as { data: WireBlock }).data.version); // edited by someone else meanwhile
          continue;
        }
        if (answer?.status === 404) page.blocks.delete(id);
        return;
      }
    },
  ],
  [
    12,
    'page.open',
    async (fx, user) => {
      const page = pickOf(user.random, allPages(fx, user))!;
      await openPage(fx, user, page);
    },
  ],
  [
    4,
    'realtime.caret',
    async (fx, user) => {
      if (!user.socket?.connected || !user.joined) return;
      const page = allPages(fx, user).find((p) => p.id === user.joined);
      const blockId = page && pickOf(user.random, [...page.blocks.keys()]);
      const caret = blockId ? { anchor: { blockId, offset: user.random(20) }, focus: { blockId, offset: user.random(20) } } : null;
      const answer = await request(user.socket, REALTIME_EVENTS.position, { channel: channels.online(user.joined), caret }).catch(() => null);
      fx.tally.note('realtime.caret', answer?.ok ? 'ok' : 'refused');
    },
  ],
  [
    2,
    'realtime.reconnect',
    async (fx, user) => {
      await reconnect(fx, user);
    },
  ],
  [
    3,
    'page.trashRestore',
    async (fx, user) => {
      const page = pickOf(user.random, user.pages);
      if (!page) return;
      const trashed = await act(fx, 'page.trash', () => call(fx, user, 'DELETE', `${S}/element/${page.id}`));
      if (trashed?.status === 200) await act(fx, 'page.restore', () => call(fx, user, 'POST', `${S}/trash/${page.id}/restore`, {}));
    },
  ],
  [
    5,
    'comment',
    async (fx, user) => {
      const page = pickOf(user.random, allPages(fx, user))!;
      const made = await act(fx, 'comment.create', () =>
        call<Wire<{ id: string }>>(fx, user, 'POST', `${S}/element/${page.id}/comments`, { content: [{ text: sentence(user.random, 5) }] }),
      );
      if (made?.status !== 201) return;
      const list = await act(fx, 'comment.list', () => call<Wire<Array<{ id: string }>>>(fx, user, 'GET', `${S}/element/${page.id}/comments`));
      const other = list?.status === 200 ? pickOf(user.random, list.body.data) : undefined;
      if (other) {
        await act(fx, 'comment.reply', () =>
          call(fx, user, 'POST', `${S}/element/${page.id}/comments`, { content: [{ text: sentence(user.random, 4) }], repliedComment: other.id }),
        );
        await act(fx, 'comment.reaction', () => call(fx, user, 'POST', `${S}/comment/${other.id}/reaction`, { code: '👍' }));
      }
      // A third of the comments are taken back (a page's comments do not pile up without end).
      if (user.random(3) === 0) await act(fx, 'comment.delete', () => call(fx, user, 'DELETE', `${S}/element/${page.id}/comments/${made.body.data.id}`));
    },
  ],
  [
    4,
    'notifications',
    async (fx, user) => {
      await act(fx, 'notifications.counts', () => call(fx, user, 'GET', '/api/notifications/counts'));
      await act(fx, 'notifications.list', () => call(fx, user, 'GET', '/api/notifications?limit=20'));
      if (user.random(2) === 0) await act(fx, 'notifications.read', () => call(fx, user, 'POST', '/api/notifications/markIsRead', {}));
    },
  ],
  [
    8,
    'database.window',
    async (fx, user) => {
      const offset = user.random(Math.max(1, fx.rowCount - 100));
      const answer = await act(fx, 'database.window', () =>
        call<{ data: WireRow[]; meta: { count: number } }>(
          fx,
          user,
          'GET',
          `${S}/database/${fx.databaseId}/rows?viewId=${encodeURIComponent(JSON.stringify(fx.viewId))}&offset=${offset}&limit=100`,
        ),
      );
      if (answer?.status === 200) {
        fx.rowCount = answer.body.meta.count;
        for (const row of answer.body.data) {
          fx.rows.delete(row.id);
          fx.rows.set(row.id, row.versions);
        }
        for (const [oldest] of fx.rows) {
          if (fx.rows.size <= 500) break;
          fx.rows.delete(oldest);
        }
      }
      if (user.random(4) === 0)
        await act(fx, 'database.calculations', () =>
          call(fx, user, 'GET', `${S}/database/${fx.databaseId}/calculations?viewId=${encodeURIComponent(JSON.stringify(fx.viewId))}`),
        );
    },
  ],
  [
    10,
    'database.cell',
    async (fx, user) => {
      const rowId = pickOf(user.random, [...fx.rows.keys()]);
      if (!rowId) return;
      const versions = fx.rows.get(rowId)!;
      const fieldId = pickOf(user.random, ['note', 'qty', 'stage', MAIN_FIELD_ID])!;
      const value =
        fieldId === 'qty' ? user.random(1000) : fieldId === 'stage' ? pickOf(user.random, ['a', 'b', 'c']) : `${sentence(user.random, 3)} ${user.random(1000)}`;
      if (user.random(5) === 0) {
        // Several cells at once (a pasted range).
        const rows = [...fx.rows.keys()].slice(0, 5);
        const answer = await act(fx, 'database.cells', () =>
          call<
            Wire<{ written: Array<{ rowId: string; fieldId: string; version: number }>; conflicts: Array<{ rowId: string; fieldId: string; version: number }> }>
          >(fx, user, 'POST', `${S}/database/${fx.databaseId}/cells`, {
            cells: rows.map((id) => ({ rowId: id, fieldId: 'qty', value: user.random(1000), version: fx.rows.get(id)?.qty ?? 0 })),
          }),
        );
        if (answer?.status === 200)
          for (const cell of [...answer.body.data.written, ...answer.body.data.conflicts]) {
            const kept = fx.rows.get(cell.rowId);
            if (kept) kept[cell.fieldId] = cell.version;
          }
        return;
      }
      const answer = await act(fx, 'database.cell', () =>
        call<Wire<{ version: number }>>(fx, user, 'POST', `${S}/row/${rowId}/cells/${fieldId}`, { value, version: versions[fieldId] ?? 0 }),
      );
      if (answer?.status === 200) versions[fieldId] = answer.body.data.version;
      else if (answer?.status === 422 && (answer.body as { data?: { version?: number } }).data?.version !== undefined)
        versions[fieldId] = (answer.body as { data: { version: number } }).data.version;
      else if (answer?.status === 404 || answer?.status === 409) fx.rows.delete(rowId);
    },
  ],
  [
    2,
    'database.rows',
    async (fx, user) => {
      if (fx.rowCount >= ROWS_CAP) {
        const ids = [...fx.rows.keys()].slice(0, 20);
        const gone = await act(fx, 'database.rowsDelete', () => call(fx, user, 'POST', `${S}/database/${fx.databaseId}/rows/delete`, { ids }));
        if (gone?.status === 200) {
          for (const id of ids) fx.rows.delete(id);
          fx.rowCount -= ids.length;
        }
        return;
      }
      const rows = Array.from({ length: 1 + user.random(5) }, () => ({
        title: sentence(user.random, 2),
        values: { qty: user.random(1000), stage: pickOf(user.random, ['a', 'b', 'c']), note: sentence(user.random, 3) },
      }));
      const made = await act(fx, 'database.rows', () => call<Wire<WireRow[]>>(fx, user, 'POST', `${S}/database/${fx.databaseId}/rows`, { rows }));
      if (made?.status === 200 || made?.status === 201) {
        fx.rowCount += made.body.data.length;
        for (const row of made.body.data) fx.rows.set(row.id, row.versions);
      }
    },
  ],
  [
    7,
    'search',
    async (fx, user) => {
      const word = pickOf(user.random, WORDS)!;
      const kind = user.random(3);
      if (kind === 0) {
        await act(fx, 'search.text', () =>
          call(fx, user, 'GET', `${S}/search/text?q=${encodeURIComponent(JSON.stringify(`${word} ${pickOf(user.random, WORDS)}`))}`),
        );
      } else if (kind === 1) {
        // The quick finder: the recent pages, then the word as it is typed.
        await act(fx, 'search.recents', () => call(fx, user, 'GET', `${S}/recents?limit=8`));
        for (const typed of [word.slice(0, 3), word])
          await act(fx, 'search.finder', () => call(fx, user, 'GET', `${S}/search/text?q=${encodeURIComponent(JSON.stringify(typed))}&offset=0&limit=8`));
      } else {
        await act(fx, 'search.picker', () => call(fx, user, 'GET', `${S}/search?q=${encodeURIComponent(JSON.stringify(word.slice(0, 4)))}&limit=10`));
      }
    },
  ],
];

const TOTAL_WEIGHT = ACTIONS.reduce((sum, [weight]) => sum + weight, 0);

async function userLoop(fx: Fixture, user: VUser, until: number): Promise<void> {
  while (Date.now() < until) {
    let roll = user.random(TOTAL_WEIGHT);
    const action = ACTIONS.find(([weight]) => (roll -= weight) < 0)!;
    try {
      await action[2](fx, user);
    } catch (error) {
      fx.tally.note(action[1], 'error', (error as Error).message);
    }
    await sleep(30 + user.random(150));
  }
}

/** A reader that comes, joins three pages, stays 10–30 s and goes, again and again. */
async function readerLoop(fx: Fixture, user: VUser, until: number): Promise<void> {
  while (Date.now() < until) {
    try {
      const socket = await connectRealtime(fx.server.url, { cookie: user.cookie });
      socket.onAny(() => (fx.tally.received += 1));
      for (let i = 0; i < 3; i++) {
        const page = pickOf(user.random, fx.hubs)!;
        await request(socket, REALTIME_EVENTS.join, { channel: channels.element(page.id, user.userId) });
        await request(socket, REALTIME_EVENTS.join, { channel: channels.online(page.id) });
      }
      await request(socket, REALTIME_EVENTS.join, { channel: channels.element(fx.databasePageId, user.userId) });
      fx.tally.note('realtime.reader', 'ok');
      await sleep(Math.min(10_000 + user.random(20_000), Math.max(0, until - Date.now())));
      socket.close();
    } catch (error) {
      fx.tally.note('realtime.reader', 'error', (error as Error).message);
      await sleep(1000);
    }
  }
}

/** A new person every SIGN_IN_EVERY_MS: signs in, is added to the team, looks around, signs out. */
async function signInLoop(fx: Fixture, until: number, random: (n: number) => number): Promise<number> {
  let n = 0;
  while (Date.now() + SIGN_IN_EVERY_MS < until) {
    await sleep(SIGN_IN_EVERY_MS);
    n += 1;
    const email = `soak-new-${n}@example.com`;
    try {
      const cookie = await signInToProcess(fx.server, email);
      fx.tally.note('signIn', 'ok');
      const me = await fetchJson<Wire<{ id: string }>>(`${fx.server.url}/api/user/current`, { cookie });
      await act(fx, 'members.add', () =>
        call(fx, fx.owner, 'POST', `${S}/workspace/${fx.teamId}/members/add`, { members: [{ userId: me.data.id, role: 'participant' }] }),
      );
      const guest: VUser = { n: 1000 + n, email, cookie, userId: me.data.id, socket: null, joined: null, pages: [], trashed: [], random };
      await act(fx, 'section.all', () => call(fx, guest, 'GET', `${S}/section/all`));
      await connect(fx, guest);
      await openPage(fx, guest, pickOf(random, fx.hubs)!);
      await act(fx, 'search.text', () => call(fx, guest, 'GET', `${S}/search/text?q=${encodeURIComponent(JSON.stringify(pickOf(random, WORDS)))}`));
      await act(fx, 'comment.create', () => call(fx, guest, 'POST', `${S}/element/${fx.hubs[0].id}/comments`, { content: [{ text: `Привет, я ${n}` }] }));
      guest.socket?.close();
      await act(fx, 'signOut', () => call(fx, guest, 'GET', '/api/auth/logout'));
    } catch (error) {
      fx.tally.note('signIn', 'error', (error as Error).message);
    }
  }
  return n;
}

/** An export of the team workspace every EXPORT_EVERY_MS, followed to its end and downloaded. */
async function exportLoop(fx: Fixture, until: number): Promise<void> {
  let format: 'markdown' | 'json' = 'json';
  while (Date.now() + EXPORT_EVERY_MS < until) {
    await sleep(EXPORT_EVERY_MS);
    format = format === 'json' ? 'markdown' : 'json';
    type Job = { id: string; status: string };
    const started = await act(fx, 'export', () => call<Wire<Job>>(fx, fx.owner, 'POST', `${S}/exports`, { workspaceId: fx.teamId, format }));
    if (started?.status !== 202 && started?.status !== 200 && started?.status !== 201) continue;
    let job = started.body.data;
    const deadline = Date.now() + 120_000;
    while (job.status !== 'done' && job.status !== 'failed' && Date.now() < deadline) {
      await sleep(1000);
      const answer = await call<Wire<Job>>(fx, fx.owner, 'GET', `${S}/exports/${job.id}`);
      if (answer.status === 200) job = answer.body.data;
    }
    if (job.status !== 'done') {
      fx.tally.note('export.done', job.status === 'failed' ? 'refused' : 'timeout');
      continue;
    }
    const res = await fetch(`${fx.server.url}${S}/exports/${job.id}/download`, { headers: { cookie: fx.owner.cookie } });
    await res.arrayBuffer();
    fx.tally.note('export.download', res.ok ? 'ok' : res.status);
  }
}

/** A small import every IMPORT_EVERY_MS by one of the users; the one before is deleted for good. */
async function importLoop(fx: Fixture, users: VUser[], until: number, random: (n: number) => number): Promise<void> {
  let n = 0;
  while (Date.now() + IMPORT_EVERY_MS < until) {
    await sleep(IMPORT_EVERY_MS);
    n += 1;
    for (const old of fx.imported.splice(0)) {
      await act(fx, 'import.trash', () => call(fx, old.user, 'DELETE', `${S}/element/${old.id}`));
      await act(fx, 'import.remove', () => call(fx, old.user, 'POST', `${S}/trash/${old.id}/remove`));
    }
    const user = pickOf(random, users)!;
    const files: Record<string, Uint8Array> = { 'схема.png': new Uint8Array(PNG) };
    for (let i = 0; i < 3; i++)
      files[`Импорт ${n}/Страница ${i}.md`] = strToU8(`# Страница ${i}\n\n${sentence(random, 12)}\n\n- ${sentence(random, 5)}\n\n![схема](../схема.png)\n`);
    const form = new FormData();
    form.append('section', 'private');
    form.append('file', new Blob([zipSync(files)], { type: 'application/zip' }), `импорт-${n}.zip`);
    const answer = await act(fx, 'import', () => call<Wire<{ page: { id: string } }>>(fx, user, 'POST', `${S}/import`, form));
    if (answer?.status === 201) fx.imported.push({ user, id: answer.body.data.page.id });
  }
}

/** The admin: moves pages between hubs, deletes for good what users trashed. */
async function adminLoop(fx: Fixture, users: VUser[], until: number, random: (n: number) => number): Promise<void> {
  while (Date.now() < until) {
    await sleep(2000 + random(3000));
    const id = pickOf(random, fx.movable);
    if (id) {
      const hub = pickOf(random, fx.hubs)!;
      await act(fx, 'page.move', () => call(fx, fx.owner, 'POST', `${S}/element/${id}/move`, { dst: hub.id, placeAfter: null }));
    }
    for (const user of users) {
      const gone = user.trashed.shift();
      if (!gone) continue;
      // A page under a hub is the admin's to delete for good; a private one its owner's (the admin cannot see it).
      const asAdmin = await call(fx, fx.owner, 'POST', `${S}/trash/${gone}/remove`);
      if (asAdmin.status === 200) fx.tally.note('page.remove', 'ok');
      else await act(fx, 'page.remove', () => call(fx, user, 'POST', `${S}/trash/${gone}/remove`));
    }
  }
}

// ---- Setting up ----------------------------------------------------------------------------------

async function newUser(server: ServerProcess, n: number, email: string, random: (n: number) => number): Promise<VUser> {
  const cookie = await signInToProcess(server, email);
  const me = await fetchJson<Wire<{ id: string }>>(`${server.url}/api/user/current`, { cookie });
  return { n, email, cookie, userId: me.data.id, socket: null, joined: null, pages: [], trashed: [], random };
}

async function setUp(server: ServerProcess, tally: Tally): Promise<{ fx: Fixture; users: VUser[]; readers: VUser[] }> {
  const owner = await newUser(server, 0, 'soak-owner@example.com', seeded(1));
  const team = await fetchJson<Wire<{ id: string }>>(`${server.url}${S}/workspace`, {
    method: 'POST',
    cookie: owner.cookie,
    body: JSON.stringify({ name: 'Нагрузка' }),
  });
  const users: VUser[] = [];
  for (let i = 1; i <= USERS; i++) users.push(await newUser(server, i, `soak-user-${i}@example.com`, seeded(100 + i)));
  const readers: VUser[] = [];
  for (let i = 1; i <= READERS; i++) readers.push(await newUser(server, 100 + i, `soak-reader-${i}@example.com`, seeded(200 + i)));
  await fetchJson(`${server.url}${S}/workspace/${team.data.id}/members/add`, {
    method: 'POST',
    cookie: owner.cookie,
    body: JSON.stringify({ members: [...users, ...readers].map((u) => ({ userId: u.userId, role: 'participant' })) }),
  });
  const fx: Fixture = {
    server,
    teamId: team.data.id,
    owner,
    hubs: [],
    databasePageId: '',
    databaseId: '',
    viewId: '',
    rows: new Map(),
    rowCount: 0,
    tally,
    movable: [],
    imported: [],
  };
  for (let h = 0; h < 4; h++) {
    const hub = await call<Wire<{ id: string }>>(fx, owner, 'POST', `${S}/section/all`, { title: `Раздел ${h}: ${sentence(owner.random, 2)}` });
    if (hub.status !== 201) throw new Error(`a hub page: ${hub.status} ${JSON.stringify(hub.body)}`);
    const page: TrackedPage = { id: hub.body.data.id, blocks: new Map() };
    let after: string | null = null;
    for (let b = 0; b < 20; b++) {
      const made: Answer<Wire<WireBlock>> = await call<Wire<WireBlock>>(fx, owner, 'POST', `${S}/block`, {
        pageId: page.id,
        type: 'text',
        placeAfter: after,
        data: { tokens: [{ text: sentence(owner.random) }] },
      });
      after = made.body.data.id;
      page.blocks.set(after, made.body.data.version);
    }
    fx.hubs.push(page);
  }
  // The data table: a Database page in the team's section, three fields, 300 rows.
  const dbPage = await call<Wire<{ id: string }>>(fx, owner, 'POST', `${S}/section/all`, { type: 'Database', title: 'Задачи команды' });
  const blocks = await call<Wire<Array<{ id: string; type: string; data: { view: { layouts: Array<{ uid: string }> } } }>>>(
    fx,
    owner,
    'GET',
    `${S}/note/${dbPage.body.data.id}/blocks`,
  );
  const block = blocks.body.data.find((b) => b.type === 'database')!;
  fx.databasePageId = dbPage.body.data.id;
  fx.databaseId = block.id;
  fx.viewId = block.data.view.layouts[0].uid;
  const fields = {
    note: { name: 'Заметка', type: 'text' },
    qty: { name: 'Количество', type: 'number' },
    stage: { name: 'Этап', type: 'select', options: ['a', 'b', 'c'].map((id, i) => ({ id, name: `Этап ${i + 1}` })) },
  };
  for (const [id, field] of Object.entries(fields)) await call(fx, owner, 'POST', `${S}/database/${block.id}/fields`, { id, field });
  const rows = Array.from({ length: 300 }, (_, i) => ({
    title: `Задача ${i}`,
    values: { note: sentence(owner.random, 3), qty: owner.random(1000), stage: pickOf(owner.random, ['a', 'b', 'c']) },
  }));
  const made = await call<Wire<WireRow[]>>(fx, owner, 'POST', `${S}/database/${block.id}/rows`, { rows });
  for (const row of made.body.data.slice(0, 200)) fx.rows.set(row.id, row.versions);
  fx.rowCount = 300;
  return { fx, users, readers };
}

// ---- One database ----------------------------------------------------------------------------------

interface Sample {
  /** Minutes since the load started. */
  minute: number;
  rss: number;
  heapUsed?: number;
  heapTotal?: number;
  external?: number;
  arrayBuffers?: number;
  gc?: boolean;
}

interface Result {
  database: BenchDatabase;
  minutes: number;
  warmupMinutes: number;
  baseline: Sample & { heapAfterGc?: number };
  /** Every ~REPORT_MINUTES: the sample nearest, with `heapAfterGc` the heap of the nearest sample taken after a full GC. */
  table: Array<Sample & { heapAfterGc?: number }>;
  /** Every sample (every 10 s). */
  samples: Sample[];
  slopes: { rssMbPerMin: number; heapUsedMbPerMin: number; heapAfterGcMbPerMin: number; externalMbPerMin: number };
  firstHalfSlopes: { rssMbPerMin: number; heapAfterGcMbPerMin: number };
  verdict: 'levels off' | 'grows';
  peakRssMb: number;
  benchRssMb: { start: number; end: number };
  load: { actions: Record<string, Counter>; perMinute: number; eventsReceived: number; signIns: number; errors: string[] };
  snapshots?: string[];
  serverLogMb: number;
  /** The server's first logged errors (level 50 and up), to be read. */
  serverErrors: string[];
}

function heapLines(file: string): Array<{ t: number; gc: boolean; rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number }> {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ReturnType<typeof heapLines>[number]);
}

async function snapshot(pid: number, dir: string, before: number): Promise<string | null> {
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    await sleep(1000);
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot'));
    if (files.length > before) {
      const file = path.join(dir, files.sort().at(-1)!);
      // Written when its size stops changing.
      let size = -1;
      while (size !== fs.statSync(file).size) {
        size = fs.statSync(file).size;
        await sleep(2000);
      }
      return file;
    }
  }
  return null;
}

async function bench(database: BenchDatabase): Promise<Result> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-'));
  const memoryFile = path.join(work, 'memory.jsonl');
  const postgres = database === 'postgres' ? await startPostgresProcess() : null;
  const nodeArgs = [
    '--expose-gc',
    '--import',
    './test/bench/soakMemory.mjs',
    ...(SNAPSHOTS ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${work}`] : []),
  ];
  const server = await startServerProcess(
    {
      LOG_REQUESTS: 'false',
      LOG_LEVEL: 'info',
      SOAK_MEMORY_FILE: memoryFile,
      SOAK_MEMORY_EVERY_MS: String(SAMPLE_MS),
      SOAK_MEMORY_GC_EVERY: String(GC_EVERY),
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    },
    nodeArgs,
  );
  const tally = new Tally();
  const benchRssStart = mb(process.memoryUsage().rss);
  try {
    const { fx, users, readers } = await setUp(server, tally);
    process.stdout.write(`[${database}] set up; ${MINUTES} min of load (${USERS} users, ${READERS} readers), warm-up ${WARMUP_MINUTES.toFixed(1)} min\n`);
    for (const user of users) await connect(fx, user);
    const start = Date.now();
    const until = start + MINUTES * 60_000;
    const rss: Sample[] = [];
    const sampler = setInterval(() => rss.push({ minute: (Date.now() - start) / 60_000, rss: vmRss(server.pid) }), SAMPLE_MS);
    const progress = setInterval(() => {
      const last = rss.at(-1);
      const done = Object.values(tally.actions).reduce((s, c) => s + c.ok, 0);
      process.stdout.write(`[${database}] ${((Date.now() - start) / 60_000).toFixed(1)} min: RSS ${last ? mb(last.rss) : '?'} MB, ${done} actions done\n`);
    }, 60_000);
    const snapshots: string[] = [];
    const snapshotsTaken = SNAPSHOTS
      ? (async () => {
          await sleep(WARMUP_MINUTES * 60_000);
          const first = await snapshot(server.pid, work, 0);
          if (first) snapshots.push(first);
        })()
      : Promise.resolve();
    const loops = [
      ...users.map((user) => userLoop(fx, user, until)),
      ...readers.map((reader) => readerLoop(fx, reader, until)),
      adminLoop(fx, users, until, seeded(7)),
      exportLoop(fx, until),
      importLoop(fx, users, until, seeded(8)),
    ];
    const signIns = signInLoop(fx, until, seeded(9));
    await Promise.all([...loops, snapshotsTaken]);
    const signedIn = await signIns;
    for (const user of users) user.socket?.close();
    await sleep(SAMPLE_MS + 1000); // the last samples
    clearInterval(sampler);
    clearInterval(progress);
    if (SNAPSHOTS) {
      const last = await snapshot(server.pid, work, snapshots.length);
      if (last) snapshots.push(last);
    }

    // The preload's lines: VmRSS and the heap at one instant (the bench's own /proc readings only for the peak and the progress).
    const heap = heapLines(memoryFile).map((line) => ({ ...line, minute: (line.t - start) / 60_000 }));
    const samples: Sample[] = heap
      .filter((h) => h.minute >= 0)
      .map((h) => {
        return {
          minute: Number(h.minute.toFixed(2)),
          rss: h.rss,
          heapUsed: h.heapUsed,
          heapTotal: h.heapTotal,
          external: h.external,
          arrayBuffers: h.arrayBuffers,
          gc: h.gc,
        };
      });
    const at = (minute: number) => samples.reduce((best, s) => (Math.abs(s.minute - minute) < Math.abs(best.minute - minute) ? s : best), samples[0]);
    const baseline = at(WARMUP_MINUTES);
    const afterGc = samples.filter((s) => s.gc);
    const withGc = (s: Sample) => {
      const near = afterGc.reduce<Sample | null>((best, g) => (!best || Math.abs(g.minute - s.minute) < Math.abs(best.minute - s.minute) ? g : best), null);
      return { ...s, heapAfterGc: near?.heapUsed };
    };
    const table: Result['table'] = [];
    for (let minute = 0; minute <= MINUTES + 1e-9; minute += REPORT_MINUTES) table.push(withGc(at(minute)));
    if (table.at(-1)?.minute !== samples.at(-1)!.minute) table.push(withGc(samples.at(-1)!));
    const half = (from: number, to: number, pick: (s: Sample) => number | undefined, gcOnly = false) =>
      Number(
        slope(
          samples.filter((s) => s.minute >= from && s.minute <= to && (!gcOnly || s.gc)).map((s) => [s.minute, (pick(s) ?? 0) / MB] as [number, number]),
        ).toFixed(2),
      );
    const mid = WARMUP_MINUTES + (MINUTES - WARMUP_MINUTES) / 2;
    const slopes = {
      rssMbPerMin: half(MINUTES / 2, MINUTES + 1, (s) => s.rss),
      heapUsedMbPerMin: half(MINUTES / 2, MINUTES + 1, (s) => s.heapUsed),
      heapAfterGcMbPerMin: half(MINUTES / 2, MINUTES + 1, (s) => s.heapUsed, true),
      externalMbPerMin: half(MINUTES / 2, MINUTES + 1, (s) => s.external),
    };
    const firstHalfSlopes = {
      rssMbPerMin: half(WARMUP_MINUTES, mid, (s) => s.rss),
      heapAfterGcMbPerMin: half(WARMUP_MINUTES, mid, (s) => s.heapUsed, true),
    };
    const heapSlope = Number.isNaN(slopes.heapAfterGcMbPerMin) ? slopes.heapUsedMbPerMin : slopes.heapAfterGcMbPerMin;
    const verdict = slopes.rssMbPerMin < LEVEL_MB_PER_MIN && heapSlope < LEVEL_MB_PER_MIN ? 'levels off' : 'grows';
    const done = Object.values(tally.actions).reduce((s, c) => s + c.ok, 0);
    const result: Result = {
      database,
      minutes: MINUTES,
      warmupMinutes: WARMUP_MINUTES,
      baseline: withGc(baseline),
      table,
      samples,
      slopes,
      firstHalfSlopes,
      verdict,
      peakRssMb: mb(Math.max(...samples.map((s) => s.rss), ...rss.map((s) => s.rss))),
      benchRssMb: { start: benchRssStart, end: mb(process.memoryUsage().rss) },
      load: { actions: tally.actions, perMinute: Math.round(done / MINUTES), eventsReceived: tally.received, signIns: signedIn, errors: tally.errors },
      ...(SNAPSHOTS ? { snapshots } : {}),
      serverLogMb: mb(server.log().length),
      serverErrors: server
        .log()
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line))
        .slice(0, ERRORS_KEPT)
        .map((line) => line.slice(0, 1500)),
    };
    process.stdout.write(`[${database}] ${verdict}: ${JSON.stringify(slopes)}\n`);
    return result;
  } finally {
    await server.stop();
    await postgres?.stop();
    if (!SNAPSHOTS) fs.rmSync(work, { recursive: true, force: true });
  }
}

const row = (s: Sample & { heapAfterGc?: number }, baseline: Sample) =>
  `| ${s.minute.toFixed(1)} | ${mb(s.rss)} | ${mb(s.heapUsed ?? 0)} | ${s.heapAfterGc === undefined ? '' : mb(s.heapAfterGc)} | ${mb(s.external ?? 0)} | ${(mb(s.rss) - mb(baseline.rss)).toFixed(1)} |`;

async function main(): Promise<void> {
  const started = performance.now();
  const results: Result[] = [];
  for (const database of benchDatabases()) results.push(await bench(database));
  for (const r of results) {
    process.stdout.write(
      `\n### ${r.database}: ${r.minutes} min of mixed load (${r.load.perMinute} calls/min), baseline after ${r.warmupMinutes} min warm-up\n`,
    );
    process.stdout.write('| minute | RSS MB | heapUsed MB | heap after GC MB | external MB | RSS − baseline |\n|---|---|---|---|---|---|\n');
    process.stdout.write(`${row(r.baseline, r.baseline).replace(/^\| [\d.]+/, `| ${r.baseline.minute.toFixed(1)} (baseline)`)}\n`);
    for (const s of r.table) process.stdout.write(`${row(s, r.baseline)}\n`);
    process.stdout.write(
      `last half: RSS ${r.slopes.rssMbPerMin} MB/min, heapUsed ${r.slopes.heapUsedMbPerMin} MB/min (after GC ${r.slopes.heapAfterGcMbPerMin}), external ${r.slopes.externalMbPerMin} MB/min → ${r.verdict}; first half: RSS ${r.firstHalfSlopes.rssMbPerMin}, heap after GC ${r.firstHalfSlopes.heapAfterGcMbPerMin} MB/min; peak RSS ${r.peakRssMb} MB; bench process ${r.benchRssMb.start} → ${r.benchRssMb.end} MB\n`,
    );
    const refused = Object.entries(r.load.actions)
      .filter(([, c]) => Object.keys(c.refused).length > 0)
      .map(([a, c]) => `${a} ${JSON.stringify(c.refused)}`);
    process.stdout.write(
      `done: ${Object.entries(r.load.actions)
        .map(([a, c]) => `${a} ${c.ok}`)
        .join(', ')}\n`,
    );
    process.stdout.write(`refused: ${refused.join('; ') || 'none'}; events received ${r.load.eventsReceived}; sign-ins ${r.load.signIns}\n`);
    if (r.serverErrors.length) process.stdout.write(`server errors (first ${r.serverErrors.length}):\n  ${r.serverErrors.join('\n  ')}\n`);
    if (r.load.errors.length) process.stdout.write(`errors (first ${r.load.errors.length}):\n  ${r.load.errors.join('\n  ')}\n`);
  }
  const wallSeconds = Math.round((performance.now() - started) / 1000);
  const method = {
    minutes: MINUTES,
    warmupMinutes: WARMUP_MINUTES,
    users: USERS,
    readers: READERS,
    sampleSeconds: SAMPLE_MS / 1000,
    heapAfterGcEvery: GC_EVERY,
    levelsOffBelowMbPerMin: LEVEL_MB_PER_MIN,
    startedAt: new Date(Date.now() - wallSeconds * 1000).toISOString(),
    wallSeconds,
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
  };
  process.stdout.write(`\nwritten ${writeResults('soak', { method, results })} (${wallSeconds} s)\n`);
}

void main();
