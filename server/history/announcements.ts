import type { FastifyInstance } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { WirePageVersion } from '../../schema/history';
import type { Database, PageVersionTable } from '../db/types';
import { inOrderByKey, type Turn } from '../inOrder';
import { findUsersByIds } from '../repositories/users';
import { findVersionsByIds } from './versions';

/** A version's row as listed (`listVersions`, `findVersionsByIds`). */
export type VersionListRow = Omit<Selectable<PageVersionTable>, 'page_id'>;

/** Versions on the wire, their authors named. */
export async function presentVersions(db: Kysely<Database>, rows: VersionListRow[]): Promise<WirePageVersion[]> {
  const ids = [...new Set(rows.flatMap((r) => JSON.parse(r.authors) as string[]))];
  const users = await findUsersByIds(db, ids);
  const byId = new Map(users.map((u) => [u.id, u]));
  return rows.map((r) => ({
    id: Number(r.id),
    createdAt: r.created_at,
    title: r.title,
    authors: (JSON.parse(r.authors) as string[]).flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
    kind: r.kind,
    restoredFrom: r.restored_from === null ? null : Number(r.restored_from),
    changed: Number(r.changed),
  }));
}

/** These versions (nulls left out) as listed, oldest first. */
export async function versionsById(db: Kysely<Database>, ids: ReadonlyArray<number | null>): Promise<WirePageVersion[]> {
  const wanted = ids.filter((id): id is number => id !== null);
  if (wanted.length === 0) return [];
  return presentVersions(db, await findVersionsByIds(db, wanted));
}

/** How the process announces the versions it records (`versionAnnouncer`). */
export interface VersionAnnouncer {
  /** Announces `versions()` in `turn`: after the page's turns before it, each once the adapter has the one before. */
  announce(turn: Turn, pageId: string, versions: () => Promise<WirePageVersion[]>): Promise<void>;
  /** Runs `work` with the page's announcement turn it takes (`take()`: first inside its transaction, under the lock); a turn left unused is passed. */
  announcing<T>(pageId: string, work: (take: () => Turn) => Promise<T>): Promise<T>;
  /** The historian's: a turn taken now (inside its transaction), used with the version it recorded, or passed (null). */
  recorded(pageId: string): (versionId: number | null) => void;
}

/**
 * Everyone who has the page open hears of its new versions (`versionRecorded`, after the commit):
 * their history panels list them. The sockets on the page's element channel are readers of it
 * (checked as they join, and again when access changes).
 *
 * Versions of a page are announced in the order they were recorded: whoever records takes its
 * turn inside its transaction, under the page's lock, and announces in it after the commit, once
 * the page's turns before it are done — the historian's, after its commit, may still be reading
 * when a restore that came after it is done. A failure is logged and ends there: the page's next
 * announcements still go. Shared by the history routes (a restore, a version recorded now) and
 * the historian worker (server/workers/).
 */
export function versionAnnouncer(app: FastifyInstance): VersionAnnouncer {
  const inOrder = inOrderByKey();
  const failed = (error: unknown, versionId?: number) => app.log.warn({ err: error, versionId }, 'history: a recorded version could not be announced');
  const announce: VersionAnnouncer['announce'] = (turn, pageId, versions) =>
    turn
      .run(async () => {
        // Each in its turn; one that cannot be sent does not keep the next from going.
        for (const version of await versions()) await app.realtime.versionRecorded(pageId, version).catch((error: unknown) => failed(error, version.id));
      })
      .catch((error: unknown) => failed(error));
  return {
    announce,
    async announcing(pageId, work) {
      let turn: Turn | undefined;
      try {
        return await work(() => (turn ??= inOrder.turn(pageId)));
      } finally {
        turn?.pass();
      }
    },
    recorded(pageId) {
      const turn = inOrder.turn(pageId);
      return (versionId) => (versionId === null ? turn.pass() : void announce(turn, pageId, () => versionsById(app.db, [versionId])));
    },
  };
}
