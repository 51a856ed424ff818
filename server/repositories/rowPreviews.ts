import type { Kysely } from 'kysely';
import type { CardPreview } from '../../schema/blocks/database';
import type { RowPreview, WireRow } from '../../schema/database';
import type { Cover } from '../../schema/element';
import { inChunks } from '../db/inChunks';
import type { Database } from '../db/types';

/**
 * A gallery's card pictures (docs/api/databases.md «Gallery and list»): for each row, its page's
 * cover (`pageCover`), or the first picture of its content (`pageContent`: the first image block
 * with a file — of the top level first, in its order — as Notion's card shows the page's first
 * image). Rows with none are left as they are; other previews (a files field, none) need nothing.
 */
export async function withPreviews(db: Kysely<Database>, rows: WireRow[], kind: CardPreview): Promise<WireRow[]> {
  if (rows.length === 0 || (kind !== 'pageCover' && kind !== 'pageContent')) return rows;
  const found = new Map<string, RowPreview>();
  for (const chunk of inChunks(rows.map((row) => row.id))) {
    if (kind === 'pageCover') {
      for (const page of await db.selectFrom('pages').select(['id', 'cover']).where('id', 'in', chunk).where('cover', 'is not', null).execute()) {
        try {
          found.set(page.id, { cover: JSON.parse(page.cover!) as Cover });
        } catch {
          // Not a cover as pages keep them: no picture.
        }
      }
      continue;
    }
    const images = await db
      .selectFrom('blocks')
      .select(['page_id', 'parent_id', 'sort_key', 'data'])
      .where('page_id', 'in', chunk)
      .where('type', '=', 'image')
      .where('deleted_at', 'is', null)
      .execute();
    const best = new Map<string, { top: boolean; key: string; fileId: string }>();
    for (const image of images) {
      let fileId: unknown;
      try {
        fileId = (JSON.parse(image.data) as { remoteData?: { fileId?: unknown } | null }).remoteData?.fileId;
      } catch {
        continue;
      }
      if (typeof fileId !== 'string') continue;
      const candidate = { top: image.parent_id === null, key: image.sort_key, fileId };
      const held = best.get(image.page_id);
      if (!held || (candidate.top && !held.top) || (candidate.top === held.top && candidate.key < held.key)) best.set(image.page_id, candidate);
    }
    for (const [pageId, { fileId }] of best) found.set(pageId, { fileId });
  }
  return rows.map((row) => (found.has(row.id) ? { ...row, preview: found.get(row.id) } : row));
}
