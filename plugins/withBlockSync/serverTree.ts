import type { WireBlock } from '../../schema/block';

/** A block's content: what a merge and the "nothing changed" check look at. */
export type WireContent = Pick<WireBlock, 'type' | 'data'>;

/** How the queue reads a block as it is in the editor now (null when it is not there). */
export type ReadBlock = (uid: string) => WireBlock | null;

/**
 * What this client knows of the server's copy of the page: the blocks the server has, the highest
 * version seen of each, the content it last accepted (or sent us), each block's parent there and
 * the blocks under each parent, and when each block's place was last taken from a live event.
 * Knows nothing of the editor: a walk that needs to know what is still here is handed `read`.
 */
export function createServerTree() {
  /** Server-known blocks and the highest version known for each. */
  const versions = new Map<string, number>();
  /** What the server last accepted for each block, to skip edits that change nothing. */
  const lastSent = new Map<string, WireContent>();
  /** Each known block's parent on the server, and the blocks under each parent there. */
  const serverParent = new Map<string, string | null>();
  const serverChildren = new Map<string, Set<string>>();
  /**
   * The server time of the place (parent, previous sibling) last taken from the server for each
   * block: an event that arrives late (sent by another server process before a newer one) does
   * not move a block back to an older place.
   */
  const placedAt = new Map<string, string>();

  function setParent(uid: string, parentId: string | null | undefined): void {
    const previous = serverParent.get(uid);
    if (previous) serverChildren.get(previous)?.delete(uid);
    if (parentId === undefined) {
      serverParent.delete(uid);
      return;
    }
    serverParent.set(uid, parentId);
    if (parentId) {
      let children = serverChildren.get(parentId);
      if (!children) serverChildren.set(parentId, (children = new Set()));
      children.add(uid);
    }
  }

  return {
    /** The server has this copy of the block (an answer, a load, a live change): versions only go up. */
    remember(block: WireBlock): void {
      versions.set(block.id, Math.max(versions.get(block.id) ?? 0, block.version));
      // Kept as the block and serialized only when compared (a 20,000-block page loads without 20,000 JSON strings).
      lastSent.set(block.id, block);
      setParent(block.id, block.parentId);
    },
    /**
     * The server no longer has the block. What it last had stays (or `base` takes its place: what
     * a copy made again here starts from): if the block comes back from elsewhere, it is the base
     * our text is merged from.
     */
    forget(uid: string, base?: WireContent): void {
      if (base) lastSent.set(uid, base);
      placedAt.delete(uid);
      versions.delete(uid);
      setParent(uid, undefined);
    },
    /** The block's parent on the server changed (a move seen live; the version stays). */
    setParent,
    /** Whether the server has the block. */
    has: (uid: string): boolean => versions.has(uid),
    /** The highest version known for a block (undefined if the server does not have it). */
    version: (uid: string): number | undefined => versions.get(uid),
    /** What the server last accepted or sent of the block, even once it is gone there. */
    lastSent: (uid: string): WireContent | undefined => lastSent.get(uid),
    /** Whether the server has the block under another parent than `parentId`. */
    parentDiffers: (uid: string, parentId: string | null): boolean => serverParent.has(uid) && serverParent.get(uid) !== parentId,
    /**
     * Takes the server time `at` of a block's place unless a newer one was taken already; false
     * when the place is older than the one taken (the block stays where it is). Without `at`, always news.
     */
    takePlace(uid: string, at: string | undefined): boolean {
      if (at === undefined) return true;
      const previous = placedAt.get(uid);
      if (previous !== undefined && at < previous) return false;
      placedAt.set(uid, at);
      return true;
    },
    /** Every block under `uid` on the server, as far as this client knows. */
    descendants(uid: string): string[] {
      const out: string[] = [];
      const walk = (id: string) => {
        for (const child of serverChildren.get(id) ?? []) {
          out.push(child);
          walk(child);
        }
      };
      walk(uid);
      return out;
    },
    /**
     * The blocks the server would delete with `uid` although they are still in the editor: the
     * topmost ones under it (their own subtrees go along with them when they move out).
     */
    stayingUnder(uid: string, read: ReadBlock): string[] {
      const out: string[] = [];
      const walk = (id: string) => {
        for (const child of serverChildren.get(id) ?? []) {
          if (read(child)) out.push(child);
          else walk(child);
        }
      };
      walk(uid);
      return out;
    },
    /** The nearest block before this one, among its siblings in the editor, that the server has. */
    knownPlaceAfter(block: WireBlock, read: ReadBlock): string | null {
      let placeAfter = block.placeAfter;
      while (placeAfter && !versions.has(placeAfter)) placeAfter = read(placeAfter)?.placeAfter ?? null;
      return placeAfter;
    },
  };
}
