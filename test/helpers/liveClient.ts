import { Editor, Element, Node, Transforms, type Descendant } from 'slate';
import { blocksToSlate, type DeleteBlockOutcome, type WireBlock } from '../../schema/block';
import { titleToSlate } from '../../schema/blocks';
import { newId } from '../../schema/ids';
import {
  applyRemoteBlock,
  createBlockSyncQueue,
  readBlock,
  removeRemoteBlocks,
  replaceWithServerCopy,
  revertRefusedBlock,
  type BlockSyncApi,
  type BlockSyncError,
  type BlockSyncQueue,
} from '../../plugins';
import type { WorkspaceEditor } from '../../plugins/types';
import { RealtimeConnection } from '../../src/app/realtimeConnection';
import { attachLiveSync } from '../../src/editor/liveSync';
import { createPageEditor } from '../../src/editor/pageEditor';

/**
 * A headless copy of the web app's editor for tests: the app's own editor (`createPageEditor`),
 * the real block-sync queue and the real realtime connection and live sync, talking to a real
 * server over HTTP and socket.io — only the browser is missing. `offline` cuts both the API
 * calls (they fail as a lost connection does) and the socket.
 */
const textOfBlock = (block: WireBlock) => ((block.data as { tokens?: Array<{ text: string }> }).tokens ?? []).map((token) => token.text).join('');

/**
 * `CONVERGENCE_JITTER=150` (hunting a failure seen on a loaded CI machine): each API call waits up
 * to that long before and after, and what the socket brings is late by up to that long, in its
 * order — the socket and the API calls are two connections, either may be ahead.
 */
const jitter = Number(process.env.CONVERGENCE_JITTER ?? 0);

export class LiveClient {
  readonly clientId = newId();
  readonly editor: WorkspaceEditor;
  readonly queue: BlockSyncQueue;
  readonly connection: RealtimeConnection;
  /** Bodies of writes the server took whose answer was lost (answered while offline). */
  readonly lostAnswers: string[] = [];
  /** API answers that arrived (requests the server acknowledged). */
  readonly acknowledged: Array<{ id: string; version: number }> = [];
  private offlineNow = false;
  private detach: (() => void) | null = null;
  private caughtUpWaiters: Array<() => void> = [];
  /** What this client did and heard, for a failing test's report. */
  readonly trace: string[] = [];
  log(line: string): void {
    this.trace.push(`${Date.now() % 100000} ${line}`);
  }

  private constructor(
    readonly baseUrl: string,
    readonly cookie: string,
    readonly pageId: string,
    readonly userId: string,
    blocks: WireBlock[],
    private readonly since: string | undefined,
    options: { debounceMs?: number; retryDelaysMs?: readonly number[] },
  ) {
    let queue: BlockSyncQueue | null = null;
    this.editor = createPageEditor({ onBlockChanged: (uid, change) => queue?.markDirty(uid, change), onTitleChanged: () => undefined });
    const editor = this.editor;
    queue = createBlockSyncQueue({
      api: this.api(),
      read: (uid) => readBlock(editor, pageId, uid),
      onServerCopy: (block) => replaceWithServerCopy(editor, block),
      onRejected: (uid, _error, copy) => revertRefusedBlock(editor, uid, copy),
      onRemoteBlock: (block) => {
        this.log(`remote ${block.id.slice(0, 8)} v${block.version} after ${block.placeAfter?.slice(0, 8) ?? '-'} ${JSON.stringify(textOfBlock(block))}`);
        applyRemoteBlock(editor, block);
      },
      onRemoteRemove: (uids) => {
        this.log(`removed ${uids.map((uid) => uid.slice(0, 8)).join(' ')}`);
        removeRemoteBlocks(editor, uids);
      },
      pageId,
      debounceMs: options.debounceMs ?? 50,
      retryDelaysMs: options.retryDelaysMs ?? [100, 200, 400],
    });
    // What the queue hears, whether or not it reaches the editor (a failing test's report says why a block stayed).
    const { receive, receiveRemoved } = queue;
    queue.receive = (block, at, own) => {
      this.log(
        `heard ${block.id.slice(0, 8)} v${block.version} after ${block.placeAfter?.slice(0, 8) ?? '-'}${own ? ' (own)' : ''} (known v${queue!.versionOf(block.id) ?? '-'}) ${JSON.stringify(textOfBlock(block))}`,
      );
      receive(block, at, own);
    };
    queue.receiveRemoved = (uids, versions) => {
      if (uids.length > 0)
        this.log(`heard removed ${uids.map((uid, i) => `${uid.slice(0, 8)} v${versions?.[i] ?? '?'} (known v${queue!.versionOf(uid) ?? '-'})`).join(' ')}`);
      receiveRemoved(uids, versions);
    };
    this.queue = queue;
    queue.seed(blocks);
    editor.children = [titleToSlate(pageId, ''), ...blocksToSlate(blocks)] as Descendant[];
    this.connection = new RealtimeConnection({ url: baseUrl, cookie, clientId: this.clientId, reconnectDelayMs: 100, reconnectDelayMaxMs: 500 });
    if (jitter > 0) {
      const subscribe = this.connection.subscribe.bind(this.connection);
      let arriving = Promise.resolve();
      const late = (hear: () => void) => {
        const wait = Math.random() * jitter;
        arriving = arriving.then(() => new Promise<void>((resolve) => setTimeout(resolve, wait))).then(hear);
      };
      this.connection.subscribe = (name, handlers) =>
        subscribe(name, {
          ...handlers,
          onJoined: handlers.onJoined && ((answer) => late(() => handlers.onJoined!(answer))),
          onEvent: (event, payload) => late(() => handlers.onEvent(event, payload)),
        });
    }
  }

  /** Loads the page's blocks as the web app does, connects and joins its element channel. */
  static async open(
    baseUrl: string,
    cookie: string,
    pageId: string,
    userId: string,
    options: { debounceMs?: number; retryDelaysMs?: readonly number[] } = {},
  ): Promise<LiveClient> {
    const res = await fetch(`${baseUrl}/api/v3/spaces/note/${pageId}/blocks`, { headers: { cookie } });
    if (!res.ok) throw new Error(`blocks: ${res.status}`);
    const { data, meta } = (await res.json()) as { data: WireBlock[]; meta: { at?: string } };
    const client = new LiveClient(baseUrl, cookie, pageId, userId, data, meta.at, options);
    await client.goOnline();
    return client;
  }

  get offline(): boolean {
    return this.offlineNow;
  }

  /** Connects (again) and joins; resolves once the join (with its catch-up) is answered. */
  async goOnline(): Promise<void> {
    this.offlineNow = false;
    const joined = new Promise<void>((resolve) => this.caughtUpWaiters.push(resolve));
    if (!this.detach) {
      this.detach = attachLiveSync({
        connection: this.connection,
        pageId: this.pageId,
        userId: this.userId,
        queue: this.queue,
        since: this.since,
        onCaughtUp: () => {
          for (const resolve of this.caughtUpWaiters.splice(0)) resolve();
        },
      });
    }
    if (this.connection.status !== 'online') this.connection.connect();
    else for (const resolve of this.caughtUpWaiters.splice(0)) resolve();
    await joined;
  }

  /** Cuts the network: the socket closes, API calls fail until goOnline(). */
  goOffline(): void {
    this.offlineNow = true;
    this.connection.close();
  }

  /** Everything typed is sent and answered; resolves when the queue is empty. */
  async settle(timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (this.queue.hasPending()) {
      if (Date.now() > until) throw new Error(`client ${this.clientId}: still pending after ${timeoutMs} ms (status ${this.queue.status()})`);
      await this.queue.flush();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    this.detach?.();
    this.connection.close();
    this.queue.dispose();
  }

  /** The document as the wire would show it: each block's id, type, data, parent and previous sibling. */
  blocks(): WireBlock[] {
    const out: WireBlock[] = [];
    for (const node of this.editor.children) {
      if (!Element.isElement(node) || node.type === 'pageHeadingBlock') continue;
      const block = readBlock(this.editor, this.pageId, node.uid as string);
      if (block) out.push(block);
    }
    return out;
  }

  /** The text of every block, in order. */
  text(): string {
    return this.editor.children
      .slice(1)
      .map((node) => Node.string(node))
      .join('\n');
  }

  /** Top-level indexes of text blocks (not the title, not voids). */
  textBlockIndexes(): number[] {
    const out: number[] = [];
    this.editor.children.forEach((node, index) => {
      if (index > 0 && Element.isElement(node) && !Editor.isVoid(this.editor, node) && node.type !== 'tableBlock' && node.type !== 'codeBlock') out.push(index);
    });
    return out;
  }

  select(index: number, offset: number, focusOffset = offset): void {
    const at = (o: number) => {
      let remaining = o;
      for (const [text, path] of Node.texts(this.editor, { from: [index], to: [index] })) {
        if (path[0] !== index) continue;
        if (remaining <= text.text.length) return { path, offset: remaining };
        remaining -= text.text.length;
      }
      return Editor.end(this.editor, [index]);
    };
    Transforms.select(this.editor, { anchor: at(offset), focus: at(focusOffset) });
  }

  private api(): BlockSyncApi {
    const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
      if (this.offlineNow) throw Object.assign(new Error('offline'), { status: undefined }) as BlockSyncError;
      let res: Response;
      // `CONVERGENCE_JITTER=150`: each request waits up to that long before and after (a loaded CI machine, when hunting).
      if (jitter > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * jitter));
      try {
        res = await fetch(`${this.baseUrl}${path}`, {
          method,
          headers: { cookie: this.cookie, 'x-client-id': this.clientId, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (error) {
        throw Object.assign(new Error(String(error)), { status: undefined }) as BlockSyncError;
      }
      if (jitter > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * jitter));
      const json = (await res.json().catch(() => ({}))) as { data?: unknown; errors?: Array<{ code?: string }> };
      this.log(
        `${method} ${path} ${body === undefined ? '' : JSON.stringify(body).slice(0, 400)} → ${res.status} ${JSON.stringify(json.data ?? null).slice(0, 160)}`,
      );
      if (!res.ok)
        throw Object.assign(new Error(`${method} ${path} → ${res.status}`), {
          status: res.status,
          code: json.errors?.[0]?.code,
          data: json.data,
        }) as BlockSyncError;
      // Answered while "offline": the answer is lost on the way, as on a dropped connection.
      if (this.offlineNow) {
        if (res.ok && body !== undefined) this.lostAnswers.push(JSON.stringify(body));
        throw Object.assign(new Error('offline'), { status: undefined }) as BlockSyncError;
      }
      const block = json.data as WireBlock | undefined;
      if (block && typeof block === 'object' && 'version' in block) this.acknowledged.push({ id: block.id, version: block.version });
      return json.data;
    };
    return {
      createBlock: async (body) => (await call('POST', '/api/v3/spaces/block', body)) as WireBlock,
      updateBlock: async (id, body) => (await call('POST', `/api/v3/spaces/block/${id}`, body)) as WireBlock,
      moveBlock: async (id, body) => (await call('POST', `/api/v3/spaces/block/${id}/move`, body)) as WireBlock,
      deleteBlock: async (id, version) => {
        await call('DELETE', `/api/v3/spaces/block/${id}${version === undefined ? '' : `?version=${version}`}`);
      },
      deleteBlocks: async (pageId, blocks) => (await call('POST', '/api/v3/spaces/blocks/delete', { pageId, blocks })) as DeleteBlockOutcome[],
      getBlock: async (id) => (await call('GET', `/api/v3/spaces/block/${id}`)) as WireBlock,
    };
  }
}
