import {
  MAX_BLOCKS_PER_CREATE,
  type CreateBlockBody,
  type CreateBlockOutcome,
  type DeleteBlockOutcome,
  type UpdateBlockBody,
  type WireBlock,
} from '../../schema/block';
import { BLOCK_UPDATE_DEBOUNCE_MS } from '../../schema/constants';
import { ERROR_CODES } from '../../schema/errors';
import {
  baseAfterLostAnswers,
  isWireBlock,
  resolveExisting,
  resolveRemoteChange,
  resolveVersionConflict,
  sameContent,
  typedSince,
  type Resolution,
} from './conflicts';
import { createServerTree, type ReadBlock, type WireContent } from './serverTree';
import { createSyncStatus, type SyncStatus } from './status';

export { REFUSAL_NOTICE_MS, type SyncStatus } from './status';

/** What the queue needs from the network. Errors must carry `status`, and `code`/`data` from the envelope. */
export interface BlockSyncApi {
  createBlock(body: CreateBlockBody & { id: string }): Promise<WireBlock>;
  updateBlock(id: string, body: UpdateBlockBody): Promise<WireBlock>;
  /** Moves a block (with its children on the server) under a parent, after a sibling. */
  moveBlock(id: string, body: { parentId: string | null; placeAfter: string | null }): Promise<WireBlock>;
  /** Deletes a block; with `version`, only if it is still at that version (else 422 with the block). */
  deleteBlock(id: string, version?: number): Promise<void>;
  /** Makes several blocks of a page in one request, in order, each as createBlock would; answers each one's outcome. */
  createBlocks?(pageId: string, blocks: Array<Omit<CreateBlockBody, 'pageId'> & { id: string }>): Promise<CreateBlockOutcome[]>;
  /** Deletes several blocks of a page in one request, each as deleteBlock would; answers each one's outcome. */
  deleteBlocks?(pageId: string, blocks: Array<{ id: string; version?: number }>): Promise<DeleteBlockOutcome[]>;
  /** The server's copy of a block, with its place (asked when a move or delete was refused). */
  getBlock?(id: string): Promise<WireBlock>;
}

export interface BlockSyncError extends Error {
  status?: number;
  code?: string;
  data?: unknown;
}

export interface BlockSyncOptions {
  api: BlockSyncApi;
  /** The block as it is now in the editor, or null if it is gone. Asked at send time, never earlier. */
  read: ReadBlock;
  /** The page the blocks are on: with `api.createBlocks` / `api.deleteBlocks`, blocks made or deleted together go in one request. */
  pageId?: string;
  /** The server holds a newer copy than the edit was based on: put it in the editor. */
  onServerCopy(block: WireBlock): void;
  /**
   * A request the server refused for good (e.g. 403, a validation error): the edit cannot be
   * saved. The editor reverts the block to `serverCopy` (what the server has; null when the server
   * never had the block). When a move or delete was refused, the copy is the whole server block,
   * with `parentId` and `placeAfter`: the block goes back there (or comes back, if deleted here).
   */
  onRejected?(uid: string, error: BlockSyncError, serverCopy: Pick<WireBlock, 'type' | 'data'> | WireBlock | null): void;
  /**
   * Someone else's change arrived live (realtime `edit`/`add`, or the catch-up history): put the
   * block in the editor with this content, at the server's place (`parentId`, `placeAfter`) —
   * inserted if the editor does not have it. Outside the undo history; nothing is sent back.
   */
  onRemoteBlock?(block: WireBlock): void;
  /** Someone else deleted these blocks and nothing unsent is in them here: take them out of the editor. */
  onRemoteRemove?(uids: string[]): void;
  onStatus?(status: SyncStatus): void;
  debounceMs?: number;
  /** Delays before retrying after a network failure or 5xx; the last repeats. */
  retryDelaysMs?: readonly number[];
}

const DEFAULT_RETRY_DELAYS = [1000, 2000, 5000, 10000, 30000] as const;

/**
 * The block-sync path: a block's edits are sent at most once per debounce window, one request
 * at a time, in the order blocks became due. A block the server does not know yet is created
 * (after the block it follows, so order holds); a known one is updated with the version it was
 * based on; a removed one is deleted. Versions only go up. Network failures keep the edit and
 * retry; a version conflict hands the server copy back to the editor. What the server has is
 * kept in `serverTree.ts`, the merges are decided in `conflicts.ts`, the status in `status.ts`.
 */
/** A create or move refused for a place that changed meanwhile goes again at most this many times. */
export const PLACE_RETRIES = 3;

/** A batch create's blocks' data at most (characters of JSON): its request stays well under the server's 1 MiB body limit. */
export const CREATE_BYTES_PER_REQUEST = 512 * 1024;

/** Blocks deleted together (a selection cut or deleted) go in requests of at most this many. */
export const DELETES_PER_REQUEST = 500;

export function createBlockSyncQueue(options: BlockSyncOptions) {
  const debounceMs = options.debounceMs ?? BLOCK_UPDATE_DEBOUNCE_MS;
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS;
  const read = options.read;
  const tree = createServerTree();
  /** Blocks whose order among their siblings changed here (a drag, a keyboard move). */
  const reordered = new Set<string>();
  /** Blocks whose last request the server refused for good; the blocks after them do not wait for them. */
  const refused = new Set<string>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const due: string[] = [];
  let running = false;
  /** The blocks whose request is on the way: live changes of them wait for the answer (held). */
  const inFlight = new Set<string>();
  /** What each block was created with (until the create is answered): the base if the answer is lost. */
  const created = new Map<string, WireContent>();
  /**
   * Updates sent whose answer never came (the request may or may not have been stored), oldest
   * first: the next copy of the block from the server tells which made it (baseAfterLostAnswers).
   */
  const unanswered = new Map<string, WireContent[]>();
  /**
   * Deletes sent whose answer never came: the server may have deleted the block. Brought back
   * here (an undo) meanwhile, it is made again (the server revives a deleted id; a 409 if it was
   * not deleted carries on as an update), and a removal heard for it is our own: it stays whole.
   */
  const unansweredDeletes = new Set<string>();
  /** Blocks deleted by us and answered, with the version deleted: a late event of that version or older (held while the delete was on the way) does not bring them back. */
  const deletedHere = new Map<string, number>();
  /** The server no longer has the block (as far as this client knows): what is pending about it goes. */
  const forget = (uid: string, base?: WireContent) => {
    tree.forget(uid, base);
    unanswered.delete(uid);
  };
  /** Our delete of the block was answered (deleted, or gone already). */
  const deleted = (uid: string) => {
    const version = tree.version(uid);
    if (version !== undefined) deletedHere.set(uid, version);
    unansweredDeletes.delete(uid);
    forget(uid);
  };
  /** The base to merge `server`'s copy of a block from; what went unanswered is settled by it. */
  const mergeBase = (uid: string, server: WireContent): WireContent | undefined => {
    const lost = unanswered.get(uid);
    unanswered.delete(uid);
    return lost ? baseAfterLostAnswers(tree.lastSent(uid), lost, server) : tree.lastSent(uid);
  };
  const held = new Map<string, { block: WireBlock; at: string | undefined; own: boolean } | { removedAt: number | undefined }>();
  let failures = 0;
  let disposed = false;
  const status = createSyncStatus(() => ({ refused: refused.size > 0, offline: failures > 0, pending: hasPending() }), options.onStatus);
  /** The block endpoints; a request that goes through ends the notice of an earlier refusal. */
  const accepted = <T>(request: Promise<T>) =>
    request.then((answer) => {
      status.accepted();
      return answer;
    });
  const api: BlockSyncApi = {
    createBlock: (body) => accepted(options.api.createBlock(body)),
    updateBlock: (id, body) => accepted(options.api.updateBlock(id, body)),
    moveBlock: (id, body) => accepted(options.api.moveBlock(id, body)),
    deleteBlock: (id, version) => accepted(options.api.deleteBlock(id, version)),
  };

  function hasPending(): boolean {
    return timers.size > 0 || due.length > 0 || running;
  }

  /**
   * Sends `first` before `uid` (which then follows right after): a parent or the previous block
   * that the server must have first. During an outage `uid` just waits for its retry.
   */
  function sendFirst(first: readonly string[], uid: string): 'deferred' {
    if (failures > 0) {
      schedule(uid, retryDelay());
      return 'deferred';
    }
    for (const id of [...first, uid]) {
      clearTimeout(timers.get(id));
      timers.delete(id);
      const index = due.indexOf(id);
      if (index >= 0) due.splice(index, 1);
    }
    due.unshift(...first, uid);
    return 'deferred';
  }

  /** A block this one needs on the server first and that is not there yet (but will be). */
  const missing = (id: string | null) => (id && !tree.has(id) && !refused.has(id) && read(id) ? id : null);

  function schedule(uid: string, delay: number) {
    if (disposed) return;
    clearTimeout(timers.get(uid));
    timers.set(
      uid,
      setTimeout(() => {
        timers.delete(uid);
        makeDue(uid);
      }, delay),
    );
    status.refresh();
  }

  function makeDue(uid: string) {
    if (!due.includes(uid)) due.push(uid);
    void pump();
  }

  async function pump() {
    if (running || disposed) return;
    running = true;
    try {
      while (due.length > 0 && !disposed) {
        const uid = due.shift() as string;
        const deletes = deletable(uid) ? [uid, ...takeDeletes()] : [];
        const creates = deletes.length === 0 && creatable(uid, new Set()) ? takeCreates(uid) : [];
        if (deletes.length > 1) {
          // Refused as a whole (not a network failure): each goes on its own, its refusal handled there.
          for (const id of await sendDeletes(deletes)) await sendOne(id);
        } else if (creates.length > 1) {
          // Refused (as a whole, or each) — each goes on its own, its refusal handled there.
          for (const id of await sendCreates(creates)) await sendOne(id);
        } else await sendOne(uid);
      }
    } finally {
      running = false;
      status.refresh();
    }
  }

  function isTransient(error: BlockSyncError): boolean {
    return error.status === undefined || error.status >= 500 || error.status === 429 || error.status === 408;
  }

  async function sendOne(uid: string): Promise<void> {
    inFlight.add(uid);
    try {
      await sendOneNow(uid);
    } finally {
      landed([uid]);
    }
  }

  /** The requests for `uids` are answered (or failed): live changes that waited for them are taken now. */
  function landed(uids: readonly string[]): void {
    for (const uid of uids) {
      inFlight.delete(uid);
      const waiting = held.get(uid);
      held.delete(uid);
      if (waiting && 'removedAt' in waiting) receiveRemoved([uid], waiting.removedAt === undefined ? undefined : [waiting.removedAt]);
      else if (waiting) receive(waiting.block, waiting.at, waiting.own);
    }
  }

  /** A block gone from the editor that the server has, with nothing under it there still here: a delete alone. */
  function deletable(uid: string): boolean {
    return !!options.api.deleteBlocks && options.pageId !== undefined && tree.has(uid) && !read(uid) && tree.stayingUnder(uid, read).length === 0;
  }

  /**
   * The other deletes alone that are due or waiting out their debounce (a selection deleted
   * marks every block at once; their timers run out one by one), taken out of the queue, up to
   * a request's worth.
   */
  function takeDeletes(): string[] {
    const taken: string[] = [];
    for (let i = 0; i < due.length && taken.length < DELETES_PER_REQUEST - 1;) {
      if (deletable(due[i])) taken.push(...due.splice(i, 1));
      else i++;
    }
    // At most this many timers looked at (each a read of the editor): a bulk edit of 20,000
    // blocks waiting out its debounce is not scanned for one delete.
    let looked = 0;
    for (const [uid, timer] of timers) {
      if (taken.length >= DELETES_PER_REQUEST - 1 || ++looked > DELETES_PER_REQUEST * 2) break;
      if (!deletable(uid)) continue;
      clearTimeout(timer);
      timers.delete(uid);
      taken.push(uid);
    }
    return taken;
  }

  /**
   * A block here that the server does not have yet, whose parent and the block before it the
   * server has (or that are made before it, `before`), ready to be made as `send` would make it.
   */
  function creatable(uid: string, before: ReadonlySet<string>): boolean {
    if (!options.api.createBlocks || options.pageId === undefined || tree.has(uid) || unansweredDeletes.has(uid)) return false;
    const block = read(uid);
    if (!block || block.pageId !== options.pageId || (block.parentId && refused.has(block.parentId))) return false;
    const waitsFor = (id: string | null) => id !== null && !before.has(id) && missing(id) !== null;
    return !waitsFor(block.parentId) && !waitsFor(block.placeAfter) && (before.has(block.placeAfter ?? '') || unsettled(block.placeAfter) === null);
  }

  /**
   * A paste of hundreds of lines, made in one request: `uid` and the other new blocks that are due
   * or waiting out their debounce and can be made after it (each after its parent and the block
   * before it), taken out of the queue in an order that keeps that, up to a request's worth.
   */
  function takeCreates(uid: string): string[] {
    const taken = [uid];
    const inBatch = new Set(taken);
    // A request's body stays well under the server's limit (1 MiB): long blocks make smaller batches.
    const size = (id: string) => JSON.stringify(read(id)?.data ?? null).length;
    let bytes = size(uid);
    // At most this many waiting blocks looked at (each a read of the editor), in a few passes:
    // they are marked in the document's order, so one pass takes a paste.
    const waiting = [...due, ...[...timers.keys()].slice(0, MAX_BLOCKS_PER_CREATE * 2)].filter((id) => id !== uid);
    for (let pass = 0, progress = true; pass < 3 && progress && taken.length < MAX_BLOCKS_PER_CREATE; pass++) {
      progress = false;
      for (const id of waiting) {
        if (taken.length >= MAX_BLOCKS_PER_CREATE) break;
        if (inBatch.has(id) || !creatable(id, inBatch)) continue;
        const more = size(id);
        if (bytes + more > CREATE_BYTES_PER_REQUEST) continue;
        bytes += more;
        taken.push(id);
        inBatch.add(id);
        progress = true;
      }
    }
    for (const id of taken.slice(1)) {
      clearTimeout(timers.get(id));
      timers.delete(id);
      const at = due.indexOf(id);
      if (at >= 0) due.splice(at, 1);
    }
    return taken;
  }

  /**
   * Makes new blocks in one request (`takeCreates`); each one's outcome is taken as its own
   * create's would be. A network failure retries them all (a create whose answer was lost comes
   * back as taken, 409, and carries on as the single create's does). Answers the blocks to send
   * one by one instead: those refused (their refusal is handled there), or all of them when the
   * request was refused as a whole.
   */
  async function sendCreates(uids: string[]): Promise<string[]> {
    for (const uid of uids) {
      inFlight.add(uid);
      deletedHere.delete(uid);
    }
    const inBatch = new Set<string>();
    const items = uids.map((id) => {
      const block = read(id) as WireBlock;
      if (!created.has(id)) created.set(id, { type: block.type, data: block.data });
      // The block before it as the server will have it: one made before it here, else the nearest it knows.
      let placeAfter = block.placeAfter;
      while (placeAfter && !inBatch.has(placeAfter) && !tree.has(placeAfter)) placeAfter = read(placeAfter)?.placeAfter ?? null;
      inBatch.add(id);
      return { id, type: block.type, data: block.data, parentId: block.parentId, placeAfter };
    });
    try {
      const outcomes = await accepted((options.api.createBlocks as NonNullable<BlockSyncApi['createBlocks']>)(options.pageId as string, items));
      failures = 0;
      const again: string[] = [];
      for (const outcome of outcomes) {
        // Taken already (a batch whose answer was lost, made again): carried on as its own 409 would be.
        if (outcome.status === 'refused' && outcome.error.status === 409 && outcome.block && isWireBlock(outcome.block)) {
          existsAlready(outcome.id, outcome.block);
          continue;
        }
        if (outcome.status !== 'created') {
          again.push(outcome.id);
          continue;
        }
        created.delete(outcome.id);
        placeRetries.delete(outcome.id);
        tree.remember(outcome.block);
      }
      status.refresh();
      return again;
    } catch (raw) {
      return batchFailed(uids, raw as BlockSyncError);
    } finally {
      landed(uids);
    }
  }

  /**
   * A batch request failed: refused as a whole, its blocks go one by one (answered); a network
   * failure retries them all later (`lost`: what to note of each, its answer may have been lost).
   */
  function batchFailed(uids: string[], error: BlockSyncError, lost?: (uid: string) => void): string[] {
    if (!isTransient(error)) return uids;
    if (lost) for (const uid of uids) lost(uid);
    const delay = retryDelay();
    failures += 1;
    for (const uid of uids) schedule(uid, delay);
    return [];
  }

  /**
   * Deletes blocks in one request (a selection of 400 paragraphs deleted is one request, not
   * 400). Each one's outcome is taken as its own DELETE's would be; a network failure retries
   * them all. Answers the blocks to send one by one instead (the request was refused as a whole).
   */
  async function sendDeletes(uids: string[]): Promise<string[]> {
    for (const uid of uids) inFlight.add(uid);
    try {
      const outcomes = await accepted(
        (options.api.deleteBlocks as NonNullable<BlockSyncApi['deleteBlocks']>)(
          options.pageId as string,
          uids.map((id) => ({ id, version: tree.version(id) })),
        ),
      );
      failures = 0;
      for (const outcome of outcomes) {
        if (outcome.status === 'conflict') versionConflict(outcome.id, outcome.block);
        else deleted(outcome.id);
      }
      status.refresh();
      return [];
    } catch (raw) {
      return batchFailed(uids, raw as BlockSyncError, (uid) => unansweredDeletes.add(uid));
    } finally {
      landed(uids);
    }
  }

  /**
   * A version conflict (422): someone else saved the block first. Our unsent edits are rebased
   * onto their copy; a block deleted here while someone typed into it comes back with what they
   * typed (not the text deleted here), or the delete goes again on top of their version.
   */
  function versionConflict(uid: string, server: WireBlock): void {
    const base = mergeBase(uid, server);
    const local = read(uid);
    tree.remember(server);
    if (local) {
      applyResolution(uid, resolveVersionConflict(base, local, server));
      return;
    }
    comesBackWithTheirs(uid, base, server);
  }

  /**
   * A block deleted here that the server still has, with what others typed into it since `base`
   * (ours): it comes back holding their text only, and the server is brought to that (or the
   * delete goes again when they typed nothing).
   */
  function comesBackWithTheirs(uid: string, base: WireContent | undefined, server: WireBlock): void {
    const typed = typedSince(base, server);
    if (typed) options.onRemoteBlock?.({ ...server, type: typed.type, data: typed.data });
    if (!typed || !sameContent(typed, server)) makeDue(uid);
  }

  /** Whether the editor holds changes of a known block the server has not accepted yet. */
  function hasLocalChanges(uid: string, local: WireBlock | null): boolean {
    if (!local) return tree.has(uid);
    const base = tree.lastSent(uid);
    return !base || !sameContent(base, local) || timers.has(uid) || due.includes(uid) || reordered.has(uid);
  }

  /** A create answered «taken» (409) with the server's copy: the block exists already; carry on as an update on top of it. */
  function existsAlready(uid: string, server: WireBlock): void {
    const bases = basesOf(uid);
    created.delete(uid);
    const local = read(uid);
    tree.remember(server);
    if (!local) {
      // Deleted here (joined into another block) before the answer came: the server's copy may
      // hold what someone else typed into it, which was never joined here. Deleting it at the
      // server's version would drop that text; it comes back with what was typed since ours,
      // as after a refused delete (versionConflict).
      comesBackWithTheirs(uid, bases.lastSent ?? bases.created, server);
      return;
    }
    applyResolution(uid, resolveExisting(server, bases, local));
  }

  /** What is known of a block besides the editor: the bases a merge can start from. */
  const basesOf = (uid: string) => ({ lastSent: tree.lastSent(uid), created: created.get(uid) });

  /** Shows a resolution's block in the editor and sends the block again when it asks. */
  function applyResolution(uid: string, resolution: Resolution): void {
    if (resolution.show) options.onServerCopy(resolution.show);
    if (resolution.resend) makeDue(uid);
  }

  /**
   * A change made by someone else (docs/realtime.md): a newer version is put in the editor —
   * merged three-way with what is unsent here (base: what the server last had from us), and the
   * merge sent on top of it; a block not here yet is inserted; the same version at another place
   * is a move. Older or already known versions are ignored, so a change seen twice (an event and
   * the catch-up history) is applied once. `own`: this client wrote that version itself (the
   * catch-up says so) and lost the answer; the editor holds its text and what was typed since,
   * so it is not merged but taken as the base of what is still to send (merging would double it).
   */
  function receive(block: WireBlock, at?: string, own = false): void {
    if (disposed) return;
    if (inFlight.has(block.id)) {
      const waiting = held.get(block.id);
      if (!waiting || 'removedAt' in waiting || waiting.block.version <= block.version) held.set(block.id, { block, at, own });
      return;
    }
    const known = tree.version(block.id);
    const local = read(block.id);
    if (known !== undefined && block.version < known) return;
    // An older place than one already taken: keep the block where it is (its content may still be news).
    const placeIsNews = tree.takePlace(block.id, at);
    if (!placeIsNews && local) block = { ...block, parentId: local.parentId, placeAfter: local.placeAfter };
    // A block moved here (reordered, or under another parent than the server said) keeps its
    // place here: our move goes out next. Otherwise the server's place counts — also for a block
    // with only unsent text — unless it is the same place seen past blocks the server does not
    // have yet (a new paragraph being typed above it).
    const keepsLocalPlace = !!local && (movedHere(block.id, local) || samePlace(local, block));
    if (known !== undefined && block.version === known) {
      // Same content: only its place may have changed (a move does not raise the version).
      if (placeIsNews) tree.setParent(block.id, block.parentId);
      if (local && !keepsLocalPlace) options.onRemoteBlock?.({ ...local, parentId: block.parentId, placeAfter: block.placeAfter, version: known });
      return;
    }
    if (known === undefined && !local) {
      // Deleted here and answered: an event of that version or older (held while the delete was
      // on the way: a move) does not bring it back.
      const gone = deletedHere.get(block.id);
      if (gone !== undefined && block.version <= gone) return;
      if (own) {
        // Made here (its create's answer lost), then deleted here: the delete goes now.
        tree.remember(block);
        created.delete(block.id);
        makeDue(block.id);
        return;
      }
      // New to us: someone made it.
      tree.remember(block);
      options.onRemoteBlock?.(block);
      return;
    }
    if (!local) {
      // Deleted here, not yet sent: the delete goes out based on the version seen here, so the
      // server refuses it (422) and the block comes back with the text typed into it meanwhile.
      return;
    }
    // Unknown to the queue but here (made here and not yet answered, or forgotten after the
    // server lost it) counts as unsent.
    const bases = { ...basesOf(block.id), lastSent: mergeBase(block.id, block) };
    const unsent = known === undefined || hasLocalChanges(block.id, local);
    tree.remember(block);
    if (own) created.delete(block.id);
    const { content, resend } = own ? { content: local, resend: !sameContent(block, local) } : resolveRemoteChange(block, bases, local, unsent);
    const place = keepsLocalPlace ? { parentId: local.parentId, placeAfter: local.placeAfter } : { parentId: block.parentId, placeAfter: block.placeAfter };
    options.onRemoteBlock?.({ ...block, type: content.type, data: content.data, ...place });
    if (resend) schedule(block.id, debounceMs);
  }

  /** The block was moved here and the server has not heard yet. */
  function movedHere(uid: string, local: WireBlock): boolean {
    return reordered.has(uid) || tree.parentDiffers(uid, local.parentId);
  }

  /** The same place, counting only blocks the server has (a new block before it is not there yet). */
  function samePlace(local: WireBlock, block: WireBlock): boolean {
    return local.parentId === block.parentId && (local.placeAfter === block.placeAfter || tree.knownPlaceAfter(local, read) === block.placeAfter);
  }

  /** Blocks someone else deleted. A block with unsent text here stays and is made again on the server (nothing typed is lost). */
  function receiveRemoved(uids: readonly string[], removedVersions?: readonly number[]): void {
    if (disposed) return;
    const gone: string[] = [];
    for (const [i, uid] of uids.entries()) {
      // A deletion of a version older than ours (the block was brought back since; the event came late): it stays.
      const removedAt = removedVersions?.[i];
      if (removedAt !== undefined && (tree.version(uid) ?? 0) > removedAt) continue;
      if (inFlight.has(uid)) {
        held.set(uid, { removedAt });
        continue;
      }
      if (!tree.has(uid)) continue;
      const local = read(uid);
      if (local && unansweredDeletes.has(uid)) {
        // Our own delete, whose answer was lost, of a block brought back here since (an undo): it stays whole, made again.
        unansweredDeletes.delete(uid);
        forget(uid);
        schedule(uid, debounceMs);
        continue;
      }
      if (local && hasLocalChanges(uid, local) && keepTyped(uid, local)) continue;
      forget(uid);
      if (local) gone.push(uid);
    }
    if (gone.length > 0) options.onRemoteRemove?.(gone);
  }

  /**
   * A block deleted on the server while it has unsent changes here: what was typed into it here
   * stays (without the text the deleter removed, so a block joined into another is not doubled)
   * and is made again on the server. False when nothing was typed: the caller lets it go.
   */
  function keepTyped(uid: string, local: WireBlock): boolean {
    const typed = typedSince(tree.lastSent(uid), local);
    if (!typed) {
      forget(uid);
      return false;
    }
    if (sameContent(typed, local)) forget(uid);
    else {
      // Made again as a new block holding only what was typed: if someone brings the old one
      // back meanwhile (a 409), their text and ours both stay, theirs first.
      forget(uid, { type: typed.type, data: { ...typed.data, tokens: [] } as WireBlock['data'] });
      options.onServerCopy({ ...local, type: typed.type, data: typed.data });
    }
    schedule(uid, debounceMs);
    return true;
  }

  async function sendOneNow(uid: string): Promise<void> {
    try {
      if ((await send(uid)) === 'deferred') return;
      failures = 0;
      status.refresh();
    } catch (raw) {
      const error = raw as BlockSyncError;
      if (error.status === 422 && error.code === ERROR_CODES.blockVersionConflict && isWireBlock(error.data)) {
        versionConflict(uid, error.data);
        return;
      }
      if (error.status === 409 && isWireBlock(error.data)) {
        existsAlready(uid, error.data);
        return;
      }
      if (error.status === 404 && tree.has(uid)) {
        // The block is gone on the server (deleted elsewhere, with its children) while it still
        // has our changes here: what was typed here into it and the blocks under it is made again
        // (keepTyped); the rest of them goes as the deleter wanted.
        const gone: string[] = [];
        for (const id of [...tree.descendants(uid), uid]) {
          const local = read(id);
          if (!local) forget(id);
          // One unchanged here goes as the deleter wanted (a picture under it is not made again whole).
          else if (id !== uid && !hasLocalChanges(id, local)) {
            forget(id);
            gone.push(id);
          } else if (!keepTyped(id, local)) gone.push(id);
        }
        if (gone.length > 0) options.onRemoteRemove?.(gone);
        return;
      }
      const place = error.status === 422 && error.code === ERROR_CODES.validationFailed && placedBy?.uid === uid ? await placeWentAway(placedBy) : 'there';
      if (place === 'gone') {
        // The block it was placed after (or under) was deleted by someone meanwhile: that
        // deletion is taken here too, and the block goes again, placed by what is left.
        makeDue(uid);
        return;
      }
      const retried = placeRetries.get(uid) ?? 0;
      if (place === 'changed' && retried < PLACE_RETRIES) {
        // It changed since it was named (deleted and brought back, moved under another parent):
        // the refusal may be about a place that is no more. The block goes again as it stands
        // then (after a pause, for others' changes to arrive here), a few times at most: a
        // refusal that stands is taken as one.
        placeRetries.set(uid, retried + 1);
        schedule(uid, retryDelay());
        return;
      }
      if (isTransient(error) || place === 'unknown') {
        // (Whether the block it follows is still there could not be asked: try again later.)
        const delay = retryDelay();
        failures += 1;
        schedule(uid, delay);
        return;
      }
      // A refused delete or change of place: the block goes back where the server has it.
      const local = read(uid);
      const placeRefused = tree.has(uid) && (!local || movedHere(uid, local));
      refused.add(uid);
      reordered.delete(uid);
      status.refusal();
      const placed = placeRefused ? await serverCopyOf(uid) : null;
      if (placed) {
        options.onRejected?.(uid, error, placed);
        return;
      }
      const copy = tree.lastSent(uid);
      if (!local && copy) return; // deleted here, and where it stands on the server is unknown: a reload shows it
      options.onRejected?.(uid, error, copy ? { type: copy.type, data: copy.data } : null);
    }
  }

  /**
   * The place a create or move named, for the 422 that follows if it is no more: the parent and
   * the previous sibling, with the versions known of them when it was sent.
   */
  interface Placement {
    uid: string;
    parentId: string | null;
    placeAfter: string | null;
    versions: Map<string, number | undefined>;
  }
  let placedBy: Placement | null = null;
  /** How often a block was sent again because a place it named had changed (reset once it goes through). */
  const placeRetries = new Map<string, number>();

  function placement(uid: string, parentId: string | null, placeAfter: string | null): Placement {
    const versions = new Map<string, number | undefined>();
    for (const id of [parentId, placeAfter]) if (id) versions.set(id, tree.version(id));
    return { uid, parentId, placeAfter, versions };
  }

  /**
   * Whether the server lost some of the blocks a place named (404: they are taken as deleted by
   * someone else), has them at another version or the previous sibling under another parent
   * than the one sent (deleted and brought back meanwhile, moved), has them as they were, or
   * could not be asked (no connection).
   */
  async function placeWentAway(place: Placement): Promise<'gone' | 'changed' | 'there' | 'unknown'> {
    if (!options.api.getBlock) return 'there';
    const gone: string[] = [];
    let changed = false;
    for (const [id, version] of place.versions) {
      try {
        const block = await options.api.getBlock(id);
        if (block.version !== version || (id === place.placeAfter && block.parentId !== place.parentId)) changed = true;
      } catch (raw) {
        const error = raw as BlockSyncError;
        if (error.status === 404) gone.push(id);
        else if (isTransient(error)) return 'unknown';
      }
    }
    if (gone.length > 0) receiveRemoved(gone);
    return gone.length > 0 ? 'gone' : changed ? 'changed' : 'there';
  }

  /** The server's copy of a block with its place, or null if it cannot be read. */
  async function serverCopyOf(uid: string): Promise<WireBlock | null> {
    if (!options.api.getBlock) return null;
    try {
      const block = await options.api.getBlock(uid);
      tree.remember(block);
      return block;
    } catch {
      return null;
    }
  }

  function retryDelay(): number {
    return retryDelays[Math.min(failures, retryDelays.length - 1)];
  }

  /**
   * The sibling this block follows has a change of place still to send (its parent differs, or
   * it was reordered): it goes first, or this block would be placed after its old position.
   */
  function unsettled(id: string | null): string | null {
    if (!id || !tree.has(id) || refused.has(id)) return null;
    if (reordered.has(id)) return id;
    const current = read(id);
    return current && tree.parentDiffers(id, current.parentId) ? id : null;
  }

  /** Sends one block's current state; 'deferred' when it has to wait for the block before it. */
  async function send(uid: string): Promise<'sent' | 'deferred'> {
    // A refusal is judged by the place it named only when that request was a create or a move.
    placedBy = null;
    const block = read(uid);
    if (!block) {
      if (tree.has(uid)) {
        // The server deletes a block with its subtree: blocks under it that are still here
        // move out first. One the server refused keeps the block there (nothing is deleted).
        const staying = tree.stayingUnder(uid, read);
        if (staying.some((child) => refused.has(child))) {
          refused.add(uid);
          return 'sent';
        }
        if (staying.length > 0) return sendFirst(staying, uid);
        try {
          await api.deleteBlock(uid, tree.version(uid));
        } catch (error) {
          if (isTransient(error as BlockSyncError)) unansweredDeletes.add(uid);
          throw error;
        }
        deleted(uid);
      }
      return 'sent';
    }
    if (unansweredDeletes.has(uid)) {
      // Deleted here and brought back (an undo) while the delete's answer was lost: the server
      // may not have it any more; made again (revived), or a 409 carries on as an update.
      unansweredDeletes.delete(uid);
      forget(uid);
    }
    deletedHere.delete(uid);
    if (block.parentId && refused.has(block.parentId)) {
      // Its parent never reached the server: this block cannot be placed there either.
      refused.add(uid);
      return 'sent';
    }
    const known = tree.version(uid);
    if (known === undefined) {
      // Keep the tree and document order on the server: the parent and the block this one follows first.
      const before = [missing(block.parentId), missing(block.placeAfter) ?? unsettled(block.placeAfter)].filter((id): id is string => id !== null);
      if (before.length > 0) return sendFirst(before, uid);
      if (!created.has(uid)) created.set(uid, { type: block.type, data: block.data });
      const placeAfter = tree.knownPlaceAfter(block, read);
      placedBy = placement(uid, block.parentId, placeAfter);
      const answer = await api.createBlock({
        id: uid,
        pageId: block.pageId,
        type: block.type,
        data: block.data,
        parentId: block.parentId,
        placeAfter,
      });
      created.delete(uid);
      placedBy = null;
      placeRetries.delete(uid);
      tree.remember(answer);
      return 'sent';
    }
    if (movedHere(uid, block)) {
      const before = [missing(block.parentId), unsettled(block.placeAfter)].filter((id): id is string => id !== null);
      if (before.length > 0) return sendFirst(before, uid);
      const placeAfter = tree.knownPlaceAfter(block, read);
      placedBy = placement(uid, block.parentId, placeAfter);
      const moved = await api.moveBlock(uid, { parentId: block.parentId, placeAfter });
      placedBy = null;
      placeRetries.delete(uid);
      reordered.delete(uid);
      tree.remember(moved);
    }
    if (sameContent(tree.lastSent(uid), block)) return 'sent';
    let updated: WireBlock;
    try {
      updated = await api.updateBlock(uid, { version: known, type: block.type, data: block.data });
    } catch (error) {
      if (isTransient(error as BlockSyncError)) unanswered.set(uid, [...(unanswered.get(uid) ?? []).slice(-3), { type: block.type, data: block.data }]);
      throw error;
    }
    unanswered.delete(uid);
    tree.remember(updated);
    return 'sent';
  }

  return {
    /** Blocks loaded from the server, with their versions. */
    seed(blocks: readonly WireBlock[]) {
      for (const block of blocks) tree.remember(block);
    },
    /**
     * A block changed (content, type, place in the tree, or it appeared or went away): send it
     * once the debounce window passes. A change of parent is found by comparing with the server;
     * `reordered` says its order among its siblings changed too (that cannot be seen from here).
     */
    markDirty(uid: string, change: { reordered?: boolean } = {}) {
      refused.delete(uid);
      if (change.reordered) reordered.add(uid);
      schedule(uid, debounceMs);
    },
    receive,
    receiveRemoved,
    /** The highest version known for a block (undefined if the server does not have it yet). */
    versionOf(uid: string): number | undefined {
      return tree.version(uid);
    },
    /**
     * Whether the block stands here elsewhere than the server's copy says (another parent or
     * another block before it): a block kept where it was moved here, or one put at the end for
     * now because the block it follows is not here (deleted here and not yet on the server, or not
     * arrived yet).
     */
    placedElsewhere(block: WireBlock): boolean {
      const local = read(block.id);
      return local !== null && (local.parentId !== block.parentId || local.placeAfter !== block.placeAfter);
    },
    hasPending,
    status: status.current,
    /** Sends everything now and resolves when the queue is empty. */
    async flush(): Promise<void> {
      for (const uid of [...timers.keys()]) {
        clearTimeout(timers.get(uid));
        timers.delete(uid);
        if (!due.includes(uid)) due.push(uid);
      }
      await pump();
      while (running) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    dispose() {
      disposed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type BlockSyncQueue = ReturnType<typeof createBlockSyncQueue>;
