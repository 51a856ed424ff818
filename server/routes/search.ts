import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SEARCH_KINDS, SEARCH_SECTIONS, SEARCH_SORTS, type WireSearchHit } from '../../schema/search';
import { envelope, presentElement } from '../presenters';
import { jsonQuery } from '../../schema/query';
import { allows } from '../../schema/policies/page';
import { accessChainIds, pageAccessLevels } from '../policies/page';
import type { AccessLevel } from '../../schema/constants';
import { findPages, pagePath } from '../repositories/pages';
import { favoritePageIds } from '../repositories/favorites';
import { grantsOfUser } from '../repositories/pageMembers';
import type { PageRow } from '../db/types';
import type { UserLimits } from '../config';
import { requireUser } from '../plugins/auth';
import { userLimit } from '../plugins/rateLimit';
import { databaseNames, rankedPages, shownPassages, similarTitles, snippet, type SearchFilters } from '../search/query';
import { groupRows, type RankedGroup, type RankedPage } from '../search/rank';
import { parseQuery } from '../search/terms';
import { requestWorkspace } from './pages';

/**
 * The best pages read first (`rankedPages`): four times what the answer needs, at least this many;
 * when the caller may read too few of them, four times as many again, up to `MAX_CANDIDATES`
 * pages looked at for one answer.
 */
const FIRST_WINDOW = 100;
const MAX_CANDIDATES = 6_400;
/** Titles like the query (a typo) are looked for only when its words found fewer pages than this. */
const FUZZY_BELOW = 3;
/** A database's rows shown in one result (the rest counted: «ещё N строк»). */
const ROWS_SHOWN = 3;

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
  const laps = new Map<string, number>();
  return {
    /** The time since the last lap, added to `name`'s (a step done more than once counts once, all its times summed). */
    lap(name: string) {
      const now = performance.now();
      laps.set(name, (laps.get(name) ?? 0) + now - last);
      last = now;
    },
    header: () => [...laps].map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`).join(', '),
  };
}

/** A page of a result, and the entry whose passage is shown (none: its title, found as like the query). */
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
      const wanted = skip + limit + 1;
      const order = query.sort === 'edited' ? 'edited' : 'relevance';
      const now = Date.now();
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
        // A page read already (another's ancestor) is not read again. The grants on the pages and
        // their ancestors (whose chains are parts of theirs) read meanwhile.
        const [above, liked, grants] = await Promise.all([
          findPages(
            app.db,
            [...new Set(fresh.flatMap((p) => pagePath(p)))].filter((id) => !rows.has(id)),
          ),
          favoritePageIds(
            app.db,
            user.id,
            fresh.map((p) => p.id),
          ),
          grantsOfUser(app.db, user.id, accessChainIds(fresh)),
        ]);
        for (const row of above) rows.set(row.id, row);
        for (const id of liked) favorites.add(id);
        for (const [id, level] of await pageAccessLevels(app.db, user.id, [...fresh, ...above], roles, grants)) levels.set(id, level);
      };
      // The results: each group with the pages of it the caller may read, in rank order, each page
      // with the entry whose passage is shown (a title like the query: its title). The best pages
      // are read first (the ranking is the database's: rank.ts), more when too few are readable;
      // a database's rows are one result at the place of its best row (the last edited first:
      // its newest) — all of its rows read once it is reached — unless one database is asked for.
      const results: Array<{ databaseId: string | null; pages: Found[] }> = [];
      /** The results taken already (a database by its id, a page by its own): later windows begin with them again. */
      const done = new Set<string>();
      const keyOf = (group: RankedGroup<RankedPage>) => group.databaseId ?? group.pages[0].pageId;
      for (let size = Math.min(MAX_CANDIDATES, Math.max(FIRST_WINDOW, 4 * wanted)); ; size = Math.min(MAX_CANDIDATES, size * 4)) {
        const window = await rankedPages(app.db, parsed, filters, { order, limit: size, now });
        timing.lap('rank');
        const groups: Array<RankedGroup<RankedPage>> = (
          filters.database ? window.pages.map((page) => ({ databaseId: null, pages: [page] })) : groupRows(window.pages)
        ).filter((group) => !done.has(keyOf(group)));
        // A database's rows may go on past the window: all of them (each database reached once).
        const reached = groups.flatMap((group) => (group.databaseId ? [group.databaseId] : []));
        if (window.more && reached.length > 0) {
          const rowsOf = groupRows((await rankedPages(app.db, parsed, filters, { order, limit: MAX_CANDIDATES, now, databases: reached })).pages);
          for (const group of groups) if (group.databaseId) group.pages = rowsOf.find((g) => g.databaseId === group.databaseId)?.pages ?? group.pages;
          timing.lap('rows');
        }
        await learn(
          await findPages(
            app.db,
            // Their whole rows (an ancestor of an earlier result is read already).
            groups.flatMap((g) => g.pages.flatMap((r) => (levels.has(r.pageId) ? [] : [r.pageId]))),
          ),
        );
        for (const group of groups) {
          done.add(keyOf(group));
          const kept = group.pages.filter((r) => readable(r.pageId) && inSection(r.pageId) && stillMatches(rows.get(r.pageId)!, filters));
          if (kept.length > 0 && results.length < wanted) {
            results.push({ databaseId: group.databaseId, pages: kept.map((r) => ({ page: rows.get(r.pageId)!, seq: r.seq, fuzzy: false })) });
          }
        }
        timing.lap('access');
        if (results.length >= wanted || !window.more || size >= MAX_CANDIDATES) break;
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
      // The pages whose passages are shown: a page, or a database's first rows.
      const shownPages = shown.flatMap((r) => r.pages.slice(0, r.databaseId ? ROWS_SHOWN : 1));
      // Their passages, and the names of the databases shown, at once.
      const [passages, databases] = await Promise.all([
        shownPassages(
          app.db,
          parsed,
          shownPages.flatMap((c) => (c.seq === null ? [] : [c.seq])),
          filters.kind === 'comments' ? 'comment' : undefined,
        ),
        databaseNames(
          app.db,
          shown.flatMap((r) => (r.databaseId ? [r.databaseId] : [])),
          (id) => (readable(id) ? rows.get(id) : undefined),
        ),
      ]);
      // The ancestors shown: only those the caller may read.
      const ancestorOf = (id: string) => (readable(id) ? rows.get(id) : undefined);
      const hits: WireSearchHit[] = shown.flatMap((result) =>
        result.pages.slice(0, result.databaseId ? ROWS_SHOWN : 1).map((c): WireSearchHit => {
          // Its title when the entry is gone since (or it was found as a title like the query).
          const { unit, kind, text } = (c.seq === null ? undefined : passages.get(c.seq)) ?? { unit: 'title', kind: 'title', text: c.page.title };
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
