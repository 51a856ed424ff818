import type { Kysely } from 'kysely';
import type { WireBlock } from '../../schema/block';
import { newId } from '../../schema/ids';
import { allows } from '../../schema/policies/page';
import { SYNCED_CONTENT, type Database } from '../db/types';
import { pageAccessLevel } from '../policies/page';
import { listPageBlocks } from '../repositories/blocks';
import { findPage } from '../repositories/pages';
import { syncedPageIdOf } from '../repositories/syncedContent';

/**
 * Synced blocks in an export (docs/api/blocks.md «Synced blocks», docs/import-export.md): each is
 * written as its content's blocks in its place — the content's top blocks take the synced block's
 * place and parent, their children follow under them — when the exporter may read that content;
 * otherwise nothing. No marker: an export holds what the pages show, and reads back as plain
 * blocks. One expansion per export: the content is read once, and written with its own ids the
 * first time (a database in it is found by its id, and written once) — again (a second synced block
 * of the same content, on this page or another) with fresh ids and without its databases, so that
 * no id is twice in an export.
 */
export class SyncedExpansion {
  private readonly content = new Map<string, WireBlock[]>();
  /** The synced content written at least once in this export. */
  private readonly written = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly viewerId: string,
  ) {}

  /** Whether blocks of this page were written (its files are the export's, as the exported pages' are). */
  wrote(pageId: string): boolean {
    return this.written.has(pageId);
  }

  /** A page's blocks (in document order) with each synced block replaced by its content. */
  async expandSynced(blocks: readonly WireBlock[]): Promise<WireBlock[]> {
    if (!blocks.some((block) => block.type === 'synced')) return [...blocks];
    const out: WireBlock[] = [];
    /** Each synced block replaced: its parent, and the last of its content's top blocks (the block after it now follows that one). */
    const replaced = new Map<string, { parentId: string | null; last: string | null }>();
    for (const original of blocks) {
      let block = original;
      const under = block.parentId === null ? undefined : replaced.get(block.parentId);
      if (under) block = { ...block, parentId: under.parentId };
      const after = block.placeAfter === null ? undefined : replaced.get(block.placeAfter);
      if (after) block = { ...block, placeAfter: after.last };
      const pageId = syncedPageIdOf(block.type, block.data);
      if (pageId === null) {
        if (block.type !== 'synced') out.push(block);
        continue;
      }
      let last = block.placeAfter;
      for (const shown of await this.contentOf(pageId)) {
        if (shown.parentId !== null) out.push(shown);
        else {
          out.push({ ...shown, parentId: block.parentId, placeAfter: last });
          last = shown.id;
        }
      }
      replaced.set(block.id, { parentId: block.parentId, last });
    }
    return out;
  }

  /** The content a synced block shows, as this place in the export writes it (see the class). */
  private async contentOf(pageId: string): Promise<WireBlock[]> {
    let blocks = this.content.get(pageId);
    if (blocks === undefined) {
      const page = await findPage(this.db, pageId);
      const readable = page?.in_trash === SYNCED_CONTENT && allows(await pageAccessLevel(this.db, this.viewerId, page), 'read');
      blocks = readable ? await listPageBlocks(this.db, pageId) : [];
      this.content.set(pageId, blocks);
    }
    if (blocks.length === 0) return blocks;
    if (!this.written.has(pageId)) {
      this.written.add(pageId);
      return blocks;
    }
    const ids = new Map(blocks.map((block) => [block.id, newId()]));
    const fresh = (id: string | null) => (id === null ? null : (ids.get(id) ?? id));
    return blocks
      .filter((block) => block.type !== 'database')
      .map((block) => ({ ...block, id: fresh(block.id)!, parentId: fresh(block.parentId), placeAfter: fresh(block.placeAfter) }));
  }
}
