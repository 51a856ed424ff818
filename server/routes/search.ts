import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WireSearchHit } from '../../schema/search';
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
import { matchingPages, similarTitles, snippet, type Candidate, type SearchFilters } from '../search/query';
import { queryTerms } from '../search/terms';
import { requestWorkspace } from './pages';

/**
 * Candidates read at a time while filling a page of results (the first read twice what the page
 * needs: most people may read most pages, and each candidate's access is worked out); at most
 * `MAX_CANDIDATES` looked at for one answer.
 */
const CANDIDATE_BATCH = 200;
const MAX_CANDIDATES = 2_000;
/** Titles like the query (a typo) are looked for only when its words found fewer pages than this. */
const FUZZY_BELOW = 3;

const searchQueryShape = {
  q: z.string().max(200),
  limit: z.number().int().min(1).max(50).optional(),
  /** Results already shown (the full screen's «more»): this many pages are passed over. */
  offset: z.number().int().min(0).max(1_000).optional(),
  inTrash: z.boolean().optional(),
  author: z.string().max(64).optional(),
  after: z.iso.datetime({ offset: true }).optional(),
  before: z.iso.datetime({ offset: true }).optional(),
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
      const user = requireUser(request);
      const workspace = await requestWorkspace(app, request, user);
      await searchLimit(request, reply);
      const query = request.query;
      const limit = query.limit ?? 20;
      const skip = query.offset ?? 0;
      const terms = queryTerms(query.q);
      const filters: SearchFilters = {
        workspaceId: workspace.id,
        inTrash: query.inTrash ?? false,
        author: query.author,
        after: query.after,
        before: query.before,
      };

      // Pages in the order their best entry comes; each page's first entry is its match.
      const best = new Map<string, Candidate>();
      const wanted = skip + limit + 1;
      // The pages looked at (read with their matches) and their ancestors (for the paths shown),
      // each read once, with the caller's levels on them and whether each is a favourite.
      const rows = new Map<string, PageRow>();
      const levels = new Map<string, AccessLevel>();
      const favorites = new Set<string>();
      const roles = new Map([[workspace.id, workspace.role]]);
      const take = async (candidates: readonly Candidate[]) => {
        const fresh = candidates.filter((c) => !best.has(c.page.id));
        for (const c of fresh) rows.set(c.page.id, c.page);
        const found = fresh.map((c) => c.page);
        // A page read already (another candidate's ancestor) is not read again.
        const [above, liked] = await Promise.all([
          findPages(
            app.db,
            [...new Set(found.flatMap((p) => pagePath(p)))].filter((id) => !rows.has(id)),
          ),
          favoritePageIds(
            app.db,
            user.id,
            found.map((p) => p.id),
          ),
        ]);
        for (const row of above) rows.set(row.id, row);
        for (const id of liked) favorites.add(id);
        for (const [id, level] of await pageAccessLevels(app.db, user.id, [...found, ...above], roles)) levels.set(id, level);
        for (const c of fresh) if (!best.has(c.page.id) && allows(levels.get(c.page.id) ?? 'none', 'read')) best.set(c.page.id, c);
      };
      for (
        let offset = 0, size = Math.min(CANDIDATE_BATCH, 2 * wanted);
        offset < MAX_CANDIDATES && best.size < wanted;
        offset += size, size = CANDIDATE_BATCH
      ) {
        const batch = await matchingPages(app.db, terms, filters, offset, size);
        await take(batch);
        if (batch.length < size) break;
      }
      // Hardly anything found by its words: titles like the query (a typo) after them.
      if (best.size < FUZZY_BELOW && query.q.trim().length >= 3) await take(await similarTitles(app.db, query.q, filters, limit));

      const ordered = [...best.values()];
      const shown = ordered.slice(skip, skip + limit);
      // The ancestors shown: only those the caller may read.
      const ancestorOf = (id: string) => (allows(levels.get(id) ?? 'none', 'read') ? rows.get(id) : undefined);
      const hits: WireSearchHit[] = shown.map((c) => {
        const path = pagePath(c.page).flatMap((id) => {
          const a = ancestorOf(id);
          return a ? [{ id: a.id, title: a.title, icon: a.icon }] : [];
        });
        const kind = c.kind;
        const match = {
          ...snippet(c.text, terms),
          kind,
          blockId: kind === 'block' ? c.unit : null,
          fieldId: kind === 'cell' ? c.unit.slice(2) : null,
          fuzzy: c.fuzzy ?? false,
        };
        return { page: presentElement(c.page, levels.get(c.page.id)!, favorites.has(c.page.id)), path, match };
      });
      return envelope(hits, { offset: skip, hasMoreNext: ordered.length > skip + limit });
    },
  );
}
