/* Link previews read by the server (docs/api/blocks.md «Link previews»): `link_previews`, by address. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import type { WireLinkPreview } from '../../schema/linkPreview';

export type StoredLinkPreview = { preview: WireLinkPreview; failure: null; fetchedAt: string } | { preview: null; failure: string; fetchedAt: string };

export async function findLinkPreview(db: Kysely<Database>, url: string): Promise<StoredLinkPreview | null> {
  const row = await db.selectFrom('link_previews').selectAll().where('url', '=', url).executeTakeFirst();
  if (!row) return null;
  if (row.preview !== null) return { preview: JSON.parse(row.preview) as WireLinkPreview, failure: null, fetchedAt: row.fetched_at };
  return { preview: null, failure: row.failure ?? 'link.unreachable', fetchedAt: row.fetched_at };
}

/** Keeps what reading `url` gave (a preview or a failure's code), replacing what was kept. */
export async function saveLinkPreview(
  db: Kysely<Database>,
  url: string,
  outcome: { preview: WireLinkPreview | null; failure: string | null; fetchedAt: string },
): Promise<void> {
  const values = { preview: outcome.preview ? JSON.stringify(outcome.preview) : null, failure: outcome.failure, fetched_at: outcome.fetchedAt };
  await db
    .insertInto('link_previews')
    .values({ url, ...values })
    .onConflict((oc) => oc.column('url').doUpdateSet(values))
    .execute();
}

/** Forgets the previews read before `before` (ISO time); how many. */
export async function sweepLinkPreviews(db: Kysely<Database>, before: string): Promise<number> {
  const result = await db.deleteFrom('link_previews').where('fetched_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
