import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SEARCH_KINDS, SEARCH_SECTIONS, SEARCH_SORTS, type WireSearchHit } from '../../schema/search';
import { envelope, presentElement } from '../presenters';
import { jsonQuery } from '../../schema/query';
import { allows } from '../../schema/policies/page';
import { pageAccessLevels } from '../policies/page';
import type { AccessLevel } from '../../schema/constants';
import { findPages, pagePath } from '../repositories/pages';
import { favoritePageIds } from '../repositories/favorites';
import type { PageRow } from '../db/types';
import type { UserLimits } from '../config';
import { requireUser } from '../plugins/auth';
import { userLimit } from '../plugins/rateLimit';
import { bestEntries, databaseNames, entriesById, pageFeatures, similarTitles, snippet, type SearchFilters } from '../search/query';
import { groupRows, rankPages } from '../search/rank';
import { parseQuery } from '../search/terms';
import { requestWorkspace } from './pages';

/**
 * Results (a page, or a database's rows) whose access is worked out at a time while filling a page
 * of them (the first time twice what the page needs: most people may read most pages); at most
 * `MAX_CANDIDATES` results looked at for one answer.
 */
const CANDIDATE_BATCH = 200;
const MAX_CANDIDATES = 2_000;
/** Titles like the query (a typo) are looked for only when its words found fewer pages than this. */
const FUZZY_BELOW = 3;
/** A database's rows shown in one result (the rest counted: «ещё N строк»). */
const ROWS_SHOWN = 3;

/** A page of a result, and the entry whose passage is shown (none: its title, found as like the query). */
/**
 * Whether the page's own row is still as the index's copy of it said (search_pages is copied by
 * the indexer, a moment after a page is trashed, moved or changed): the filters the copy answered.
 */
function stillMatches(page: PageRow, filters: SearchFilters): boolean {
  return (
    page.workspace_id === filters.workspaceId &&
    page.in_trash === (filters.inTrash ? 1 : 0) &&
    (!filters.database || page.database_id === filters.database) &&
    (!filters.after || page.updated_at >= filters.after) &&
    (!filters.before || page.updated_at < filters.before) &&
    (filters.kind !== 'pages' || page.database_id === null) &&
    (filters.kind !== 'rows' || page.database_id !== null)
  );
}

/**
 * The time a request's steps took, for a `Server-Timing` header (docs/search.md «Speed»: the
 * bench reads it; a browser's developer tools show it).
 */
function serverTiming() {
  let last = performance.now();
  const laps: Array<[string, number]> = [];
  return {
    lap(name: string) {
      const now = performance.now();
      laps.push([name, now - last]);
      last = now;
    },
    header: () => laps.map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`).join(', '),
  };
}

interface Found {
  page: PageRow;
  /** Its number in the index (`search_pages.seq`): its passage is looked up when shown; null for a title like the query. */
  seq: number | null;
  fuzzy: boolean;
}

const searchQueryShape = {
  q: z.string().max(200),
  limit: z.number().int().min(1).max(50).optional(),
  /** Results already shown (the full screen's «more»): this many pages are passed over. */
  offset: z.number().int().min(0).max(1_000).optional(),
  inTrash: z.boolean().optional(),
  author: z.string().max(64).optional(),
  after: z.iso.datetime({ offset: true }).optional(),
  before: z.iso.datetime({ offset: true }).optional(),
  /** Rows of this database (block id) only: a result's «ещё N строк». */
  database: z.string().max(64).optional(),
  /** Pages (not rows), databases (pages holding one) or rows of databases only. */
  kind: z.enum(SEARCH_KINDS).optional(),
  /** Pages of one part of the sidebar: the workspace's («all»), one's own private ones, those shared with one. */
  section: z.enum(SEARCH_SECTIONS).optional(),
  /** By relevance (the default) or the last edited first. */
  sort: z.enum(SEARCH_SORTS).optional(),
};

/**
 * Full-text search (issue 18, docs/search.md): `GET search/text` — pages of the request's workspace
 * whose title, blocks or database rows' text cells hold the query's words (stemmed: Russian and
 * English; the last word typed as a prefix), and, when few are, titles like the query (a typo).
 * Only pages the caller may read are returned, and only their text; their path keeps only the
 * ancestors the caller may read. The process's indexer (`searchIndexer`) runs in server/workers/.
 */
export async function searchRoutes(server: FastifyInstance, { limits }: { limits: UserLimits }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  // Per user, for all processes together (docs/security.md «Request limits»): the finder searches as one types.
  const searchLimit = userLimit(app, 'search', limits.searchPer10s, 10_000, requireUser);

  app.get(
    '/api/v3/spaces/search/text',
    {
      schema: {
        tags: ['search'],
        summary: 'Pages whose title, blocks or text cells hold the words of q (stemmed, prefix while typing), readable ones only',
        querystring: jsonQuery(searchQueryShape),
      },
    },
    async (request, reply) => {
      const timing = serverTiming();
      const user = requireUser(request);
      const workspace = await requestWorkspace(app, request, user);
      await searchLimit(request, reply);
      timing.lap('start');
      const query = request.query;
      const limit = query.limit ?? 20;
      const skip = query.offset ?? 0;
      const filters: SearchFilters = {
        workspaceId: workspace.id,
        inTrash: query.inTrash ?? false,
        author: query.author,
        after: query.after,
        before: query.before,
        database: query.database,
        kind: query.kind,
      };

      const parsed = parseQuery(query.q);
      // Every page holding a term, ranked (rank.ts); a database's rows as one result unless one
      // database is asked for.
      const features = await pageFeatures(app.db, parsed, filters);
      timing.lap('features');
      const ranked = rankPages(features, parsed, Date.now());
      // The last edited first (relevance breaking ties: the sort is stable); a database's rows
      // stand at the place of the newest of them.
      if (query.sort === 'edited') ranked.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
      const groups = filters.database ? ranked.map((page) => ({ databaseId: null, pages: [page] })) : groupRows(ranked);
      timing.lap('rank');

      const wanted = skip + limit + 1;
      // The pages looked at and their ancestors (for the paths shown), each read once, with the
      // caller's levels on them and whether each is a favourite.
      const rows = new Map<string, PageRow>();
      const levels = new Map<string, AccessLevel>();
      const favorites = new Set<string>();
      const roles = new Map([[workspace.id, workspace.role]]);
      const readable = (id: string) => allows(levels.get(id) ?? 'none', 'read');
      // The part of the sidebar a page is in: its root's section — one's own private pages, the
      // workspace's («all»), or reached by a share («shared»: someone else's private page, and
      // everything a guest sees). Its root is read with its ancestors (learn).
      const inSection = (id: string) => {
        if (!query.section) return true;
        const page = rows.get(id)!;
        const root = rows.get(pagePath(page)[0] ?? page.id);
        if (!root) return false;
        const shared = workspace.role === 'guest' || (root.section === 'private' && root.created_by !== user.id);
        return (shared ? 'shared' : root.section) === query.section;
      };
      const learn = async (found: readonly PageRow[]) => {
        const fresh = found.filter((p) => !levels.has(p.id));
        for (const p of fresh) rows.set(p.id, p);
        // A page read already (another's ancestor) is not read again.
        const [above, liked] = await Promise.all([
          findPages(
            app.db,
            [...new Set(fresh.flatMap((p) => pagePath(p)))].filter((id) => !rows.has(id)),
          ),
          favoritePageIds(
            app.db,
            user.id,
            fresh.map((p) => p.id),
          ),
        ]);
        for (const row of above) rows.set(row.id, row);
        for (const id of liked) favorites.add(id);
        for (const [id, level] of await pageAccessLevels(app.db, user.id, [...fresh, ...above], roles)) levels.set(id, level);
      };
      // The results: each group with the pages of it the caller may read, in rank order, each page
      // with the entry whose passage is shown (a title like the query: its title).
      const results: Array<{ databaseId: string | null; pages: Found[] }> = [];
      for (
        let at = 0, size = Math.min(CANDIDATE_BATCH, 2 * wanted);
        at < groups.length && at < MAX_CANDIDATES && results.length < wanted;
        at += size, size = CANDIDATE_BATCH
      ) {
        const batch = groups.slice(at, at + size);
        await learn(
          await findPages(
            app.db,
            // Their whole rows (an ancestor of an earlier result is read already).
            batch.flatMap((g) => g.pages.flatMap((r) => (levels.has(r.pageId) ? [] : [r.pageId]))),
          ),
        );
        for (const group of batch) {
          const kept = group.pages.filter((r) => readable(r.pageId) && inSection(r.pageId) && stillMatches(rows.get(r.pageId)!, filters));
          if (kept.length > 0 && results.length < wanted) {
            results.push({ databaseId: group.databaseId, pages: kept.map((r) => ({ page: rows.get(r.pageId)!, seq: r.seq, fuzzy: false })) });
          }
        }
      }
      // Hardly anything found by its words: titles like the query (a typo) after them — not for a
      // quoted phrase, which asks for those words as written.
      const resultIds = new Set(results.flatMap((r) => r.pages.map((c) => c.page.id)));
      if (results.length < FUZZY_BELOW && parsed.phrases.length === 0 && query.q.trim().length >= 3) {
        const similar = (await similarTitles(app.db, query.q, filters, limit)).filter((c) => !resultIds.has(c.page.id));
        await learn(similar.map((c) => c.page));
        for (const c of similar)
          if (readable(c.page.id) && inSection(c.page.id) && results.length < wanted)
            results.push({ databaseId: null, pages: [{ page: c.page, seq: null, fuzzy: true }] });
      }

      const shown = results.slice(skip, skip + limit);
      timing.lap('access');
      const best = await bestEntries(
        app.db,
        parsed,
        shown.flatMap((r) => r.pages.slice(0, ROWS_SHOWN)).flatMap((c) => (c.seq === null ? [] : [c.seq])),
        filters.kind === 'comments' ? 'comment' : undefined,
      );
      const entryOf = (c: Found) => (c.seq === null ? undefined : best.get(c.seq));
      const passages = await entriesById(
        app.db,
        shown.flatMap((r) => r.pages.slice(0, ROWS_SHOWN)).flatMap((c) => entryOf(c) ?? []),
      );
      const databases = await databaseNames(
        app.db,
        shown.flatMap((r) => (r.databaseId ? [r.databaseId] : [])),
        (id) => (readable(id) ? rows.get(id) : undefined),
      );
      // The ancestors shown: only those the caller may read.
      const ancestorOf = (id: string) => (readable(id) ? rows.get(id) : undefined);
      const hits: WireSearchHit[] = shown.flatMap((result) =>
        result.pages.slice(0, result.databaseId ? ROWS_SHOWN : 1).map((c): WireSearchHit => {
          // Its title when the entry is gone since (or it was found as a title like the query).
          const entry = entryOf(c);
          const { unit, kind, text } = (entry === undefined ? undefined : passages.get(entry)) ?? { unit: 'title', kind: 'title', text: c.page.title };
          const path = pagePath(c.page).flatMap((id) => {
            const a = ancestorOf(id);
            return a ? [{ id: a.id, title: a.title, icon: a.icon }] : [];
          });
          const match = {
            ...snippet(text, parsed.terms),
            kind,
            blockId: kind === 'block' ? unit : null,
            fieldId: kind === 'cell' ? unit.slice(2) : null,
            commentId: kind === 'comment' ? unit.slice(2) : null,
            fuzzy: c.fuzzy,
          };
          const database = result.databaseId ? databases.get(result.databaseId) : undefined;
          return {
            page: presentElement(c.page, levels.get(c.page.id)!, favorites.has(c.page.id)),
            path,
            match,
            ...(database ? { database: { ...database, found: result.pages.length } } : {}),
          };
        }),
      );
      // `next`: the offset of the next page of results (a database's rows one result, however many hits).
      timing.lap('passages');
      reply.header('server-timing', timing.header());
      return envelope(hits, { offset: skip, hasMoreNext: results.length > skip + limit, next: skip + shown.length });
    },
  );
}
