import type { WireBlock } from '../../schema/block';
import { mergeBlockContent } from '../../schema/merge';
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
