import type { WireBlock } from '../../schema/block';
import { insertionsKept, mergeBlockContent, mergeTokens } from '../../schema/merge';
import type { Token } from '../../schema/token';
import type { WireContent } from './serverTree';

/*
 * When the server's copy of a block and the editor's both moved on from what the server last had
 * from us (docs/sync.md): the editor's unsent edits are merged three-way onto the server's copy
 * (schema/merge.ts), never dropped, and the result is sent on top of it when it differs. These
 * functions only decide; the queue shows the result and sends it.
 */

/** Whether two blocks have the same type and data (compared when a block is due, not when it is loaded). */
export function sameContent(sent: WireContent | undefined, block: WireContent): boolean {
  return sent !== undefined && sent.type === block.type && JSON.stringify(sent.data) === JSON.stringify(block.data);
}

/** Whether an error's `data` is a block (the server's copy a 409 or a version conflict carries). */
export function isWireBlock(value: unknown): value is WireBlock {
  return typeof value === 'object' && value !== null && 'id' in value && 'version' in value && 'data' in value;
}

/** `local`'s changes since `base` merged onto `server`. */
function rebase(base: WireContent, local: WireContent, server: WireContent): WireContent {
  return mergeBlockContent(base, local, server) as WireContent;
}

/** What to do with the server's copy: show `show` in the editor (null: leave the editor as it is), and whether to send the block again on top of it. */
export interface Resolution {
  show: WireBlock | null;
  resend: boolean;
}

/**
 * A version conflict (422 block.version_conflict): someone else saved the block first. Our
 * unsent edits (what `local` holds beyond `base`, what the server last had from us) are rebased
 * onto their copy; with none, their copy is taken as it is.
 */
export function resolveVersionConflict(base: WireContent | undefined, local: WireContent, server: WireBlock): Resolution {
  if (!base || sameContent(base, local)) return { show: server, resend: false };
  const merged = rebase(base, local, server);
  return { show: { ...server, type: merged.type, data: merged.data }, resend: !sameContent(merged, server) };
}

/**
 * A create answered 409 with the block: our earlier create got through before the connection
 * dropped, or someone else brought it back first (a deleted block made again). It carries on as
 * an update on top of their copy. The base: the server's copy itself at version 1 (only our
 * create made it), else the last server copy known here, else our first create attempt (a wrong
 * guess can only repeat text, never drop any: the merge keeps everything either side inserted).
 */
export function resolveExisting(
  server: WireBlock,
  known: { lastSent: WireContent | undefined; created: WireContent | undefined },
  local: WireContent | null,
): Resolution {
  const sent = server.version === 1 ? server : (known.lastSent ?? known.created);
  if (!sent || !local) return { show: null, resend: true };
  const merged = rebase(sent, local, server);
  return {
    show: sameContent(merged, local) ? null : { ...server, type: merged.type, data: merged.data },
    resend: !sameContent(merged, server),
  };
}

/**
 * Someone else's newer version of a block that is also here. With nothing unsent here it is taken
 * as it is. Otherwise it is merged from the last server copy seen, the first create attempt (made
 * here and not yet answered), or nothing — keeping both texts rather than dropping theirs — and
 * the merge is sent on top of theirs when it differs.
 */
export function resolveRemoteChange(
  block: WireBlock,
  known: { lastSent: WireContent | undefined; created: WireContent | undefined },
  local: WireContent,
  unsent: boolean,
): { content: WireContent; resend: boolean } {
  if (!unsent) return { content: block, resend: false };
  const base = known.lastSent ?? known.created ?? { type: local.type, data: { tokens: [] } as WireBlock['data'] };
  const content = rebase(base, local, block);
  return { content, resend: !sameContent(content, block) };
}

/**
 * What is left of a block one side deleted while the other changed it: the text the other side
 * typed into it since `base` (what the deleter last saw), without the text the deleter removed —
 * a block joined into the one above (Backspace at its start) or cut away is not brought back
 * whole, which would double its text. Null when nothing was typed (a change of style or type
 * only): the deletion stands. Blocks that are not plain text (tables, pictures, databases) come
 * back whole, as before.
 */
export function typedSince(base: WireContent | undefined, changed: WireContent): WireContent | null {
  const tokens = (changed.data as { tokens?: unknown }).tokens;
  const baseTokens = base && (base.data as { tokens?: unknown }).tokens;
  if (!base || !Array.isArray(tokens) || !Array.isArray(baseTokens)) return changed;
  if ([...tokens, ...baseTokens].some((t: Token) => t.tableAddress)) return changed;
  const typed = mergeTokens(baseTokens as Token[], [], tokens as Token[]);
  if (typed.every((t) => t.text === '')) return null;
  return { type: changed.type, data: { ...changed.data, tokens: typed } as WireContent['data'] };
}

const tokensOf = (content: WireContent): Token[] | null => {
  const tokens = (content.data as { tokens?: unknown }).tokens;
  return Array.isArray(tokens) ? (tokens as Token[]) : null;
};

/**
 * The base to merge the server's copy `server` from when writes of ours went unanswered (the
 * connection dropped on the way back, or the server was restarted): the newest of them that made
 * it to the server (everything it inserted is in `server`), else what the server last accepted.
 * Merging from an older base than what the server holds of ours would insert our text twice.
 */
export function baseAfterLostAnswers(lastSent: WireContent | undefined, unanswered: readonly WireContent[], server: WireContent): WireContent | undefined {
  const base = lastSent && tokensOf(lastSent);
  const now = tokensOf(server);
  if (!base || !now) return lastSent;
  for (let i = unanswered.length - 1; i >= 0; i--) {
    const sent = tokensOf(unanswered[i]);
    if (sent && insertionsKept(base, sent, now)) return unanswered[i];
  }
  return lastSent;
}
