import type { WireBlock } from '../../schema/block';
import {
  channels,
  REALTIME_ERRORS,
  type BlockHistory,
  type ElementAdd,
  type ElementEdit,
  type ElementPageEdit,
  type ElementRemove,
  type RealtimeErrorBody,
} from '../../schema/realtime';
import type { BlockSyncQueue } from '../../plugins';
import type { RealtimeConnection } from '../app/realtimeConnection';

export interface LiveSyncOptions {
  connection: RealtimeConnection;
  pageId: string;
  userId: string;
  queue: BlockSyncQueue;
  /** The server time the page's blocks were read at (`meta.at` of GET note/{id}/blocks). */
  since: string | undefined;
  /** Too much changed to catch up (error 110): the page should be loaded again. */
  onReloadNeeded?(): void;
  /** Access to the page was taken away (error 107) or the join was refused. */
  onAccessLost?(error: RealtimeErrorBody): void;
  /** Someone else changed the page's title, icon or cover. */
  onPageEdited?(page: ElementPageEdit['page']): void;
  /** Joined (again) and caught up with what changed meanwhile. */
  onCaughtUp?(): void;
  /** The origin of this editor's own writes (default: the connection's, this tab's): their echo is skipped. */
  clientId?: string;
}

/**
 * Other people's edits of this page, live (docs/realtime.md): joins `element:{page}#{me}`, hands
 * every `edit`/`add`/`remove` — and, on every (re)join, the history since the newest change seen
 * — to the sync queue, which merges them with what is unsent here and puts them in the editor.
 * The echo of this app's own writes (origin = its client id) is skipped. Returns the unsubscribe.
 */
/** How long after the last structural change of others the places are read again (see settle). */
export const SETTLE_DELAY_MS = 400;

export function attachLiveSync({
  connection,
  pageId,
  userId,
  queue,
  since,
  onReloadNeeded,
  onAccessLost,
  onCaughtUp,
  onPageEdited,
  clientId,
}: LiveSyncOptions): () => void {
  const channel = channels.element(pageId, userId);
  const ownOrigin = clientId ?? connection.clientId;
  let latest = since;
  const seen = (at: unknown) => {
    if (typeof at === 'string' && (!latest || at > latest)) latest = at;
  };
  /** `own`: blocks whose version this client wrote itself (a write whose answer it lost). */
  const take = (blocks: readonly WireBlock[], at: string | undefined, own: ReadonlySet<string> = new Set()) => {
    for (const block of blocks) queue.receive(block, at, own.has(block.id));
  };
  /** `settled`: the answer of a settle itself (it does not ask again, whatever it leaves). */
  const applyHistory = (history: BlockHistory, settled = false) => {
    take(history.blocks, history.at, new Set(history.own));
    queue.receiveRemoved(history.removed, history.removedVersions);
    seen(history.at);
    // A block that could not stand where the server has it (the block before it is gone here):
    // the places are read again once nothing of ours is unsent.
    if (!settled && history.blocks.some((block) => queue.placedElsewhere(block))) settle(history.at);
  };

  /**
   * Blocks made or moved by others carry their place as it was when they were made. When
   * people insert at the same spot at once, those places interleave differently on each
   * client; so shortly after such changes (and once nothing of ours is unsent) the places of
   * everything changed since are read again from the server, which answers them as they are
   * now, in document order: every client ends with the server's order.
   */
  let settleFrom: string | undefined;
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const settle = (from: string | undefined) => {
    if (from && (!settleFrom || from < settleFrom)) settleFrom = from;
    clearTimeout(settleTimer);
    settleTimer = setTimeout(() => {
      if (closed) return;
      if (queue.hasPending()) return settle(undefined);
      const since = settleFrom;
      settleFrom = undefined;
      if (!since) return;
      void connection.request<{ history: BlockHistory }>('history', { channel, since }).then((answer) => {
        if (closed) return;
        if (answer.ok) applyHistory(answer.history, true);
        else if (answer.error.code === REALTIME_ERRORS.historyTooLarge) onReloadNeeded?.();
        // No answer (the connection dropped, a timeout): asked again, or the places stay as they are here.
        else settle(since);
      });
    }, SETTLE_DELAY_MS);
  };

  const unsubscribe = connection.subscribe(channel, {
    since: () => latest,
    onJoined(answer) {
      if (answer.history) applyHistory(answer.history as BlockHistory);
      else seen(answer.at);
      // Back after a drop: what waited for the connection goes now, not at its next retry.
      if (queue.status() === 'offline') void queue.flush();
      onCaughtUp?.();
    },
    onEvent(event, payload) {
      const change = payload as unknown as ElementEdit | ElementAdd | ElementRemove;
      seen(change.at);
      if (change.origin === ownOrigin) return;
      if (event === 'edit' && 'page' in change) onPageEdited?.((change as unknown as ElementPageEdit).page);
      else if (event === 'edit') {
        const { block } = change as ElementEdit;
        const known = queue.versionOf(block.id);
        queue.receive(block, change.at);
        // A move (same version) of someone else, or a block that could not stand where the server
        // has it (put at the end for now: the block before it was deleted here, the delete not yet
        // answered): places settle shortly.
        if ((known !== undefined && known >= block.version) || queue.placedElsewhere(block)) settle(change.at);
      } else if (event === 'add') {
        take((change as ElementAdd).blocks, change.at);
        settle(change.at);
      } else if (event === 'remove') queue.receiveRemoved((change as ElementRemove).ids, (change as ElementRemove).versions);
    },
    onError(error) {
      if (error.code === REALTIME_ERRORS.historyTooLarge) onReloadNeeded?.();
      else if (error.code === REALTIME_ERRORS.accessRevoked || error.code === REALTIME_ERRORS.forbidden || error.code === REALTIME_ERRORS.notFound)
        onAccessLost?.(error);
    },
  });
  return () => {
    closed = true;
    clearTimeout(settleTimer);
    unsubscribe();
  };
}
