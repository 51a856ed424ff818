import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Mailer } from '../mail';
import { idParams } from '../../schema/params';
import { SECTION_IDS, type AccessLevel, type SectionId } from '../../schema/constants';
import {
  clonePageBodySchema,
  createNoteBodySchema,
  createSyncedBodySchema,
  movePageBodySchema,
  patchElementBodySchema,
  placeAfterBodySchema,
  publicPageQueryShape,
  type WireElement,
  type WirePublicPage,
} from '../../schema/element';
import { jsonQuery, pageQueryShape } from '../../schema/query';
import { writeAside } from '../db/busy';
import { SYNCED_CONTENT, type Database, type PageRow, type UserRow } from '../db/types';
import { forbidden, invalidField, notFound } from '../errors';
import { PUBLIC_ROUTE, requireUser } from '../plugins/auth';
import { userLimit } from '../plugins/rateLimit';
import { requestOrigin } from '../realtime/sockets';
import { CLIENT_ID_HEADER } from '../../schema/realtime';
import { allows } from '../../schema/policies/page';
import { mayListSection } from '../../schema/policies/workspace';
import { assertNotInTrash, assertNotSyncedContent, authorizePage, isPubliclyReadable, isWritable, pageAccessLevels } from '../policies/page';
import { pageOf } from '../pagination';
import { envelope, presentElement } from '../presenters';
import { streamedIncluded } from '../jsonStream';
import { listPagesGrantedTo } from '../repositories/pageMembers';
import { findPage, findPages, listChildren, listLiveTitles, listSectionRoots, loadPage, pagePath } from '../repositories/pages';
import { addFavorite, favoritePageIds, listFavoritePages, removeFavorite } from '../repositories/favorites';
import { listTrashHeads } from '../repositories/trash';
import { listVisitedPages, recordVisit } from '../repositories/visits';
import { findMembership, isWireRole, listUserWorkspaces, type WorkspaceWithRole } from '../repositories/workspaces';
import { removeStoredFiles } from '../files/store';
import { listPageBlockRows, placedRowJson, type PlacedRow } from '../repositories/blocks';
import { clonePage } from '../commands/pages/clone';
import { createPage } from '../commands/pages/create';
import { movePage } from '../commands/pages/move';
import { reorderPage } from '../commands/pages/reorder';
import { removePageForever, restorePage, trashPage } from '../commands/pages/trash';
import { updatePage } from '../commands/pages/update';
import { loadPublicPage, presentPageFor, presentPublicElement, publicElement, publishedPlacedRow } from '../commands/pages/read';

export const WORKSPACE_HEADER = 'x-workspace-id';

const ELEMENT = 'Element';

/** A body-less POST may still send `{}`. */
const emptyBody = z.object({}).strict().nullish();

function workspaceHeader(request: FastifyRequest): string | undefined {
  const header = request.headers[WORKSPACE_HEADER];
  return typeof header === 'string' && header !== '' ? header : undefined;
}

/** The workspace a request acts in: the X-Workspace-Id header, else the user's first workspace. */
export async function requestWorkspace(app: FastifyInstance, request: FastifyRequest, user: UserRow): Promise<WorkspaceWithRole> {
  const wanted = workspaceHeader(request);
  const workspace = wanted ? await findMembership(app.db, wanted, user.id) : (await listUserWorkspaces(app.db, user.id))[0];
  if (!workspace) throw forbidden('this workspace');
  return workspace;
}

/** For lists across workspaces: the X-Workspace-Id header narrows them to one (403 when not a member). */
async function optionalWorkspace(app: FastifyInstance, request: FastifyRequest, user: UserRow): Promise<string | undefined> {
  const wanted = workspaceHeader(request);
  if (wanted === undefined) return undefined;
  if (!(await findMembership(app.db, wanted, user.id))) throw forbidden('this workspace');
  return wanted;
}

/** Search candidates whose access is worked out at a time. */
const SEARCH_BATCH = 100;

/** `GET section/{id}?scope="all"`: the shared section of every workspace of the caller's. */
const sectionQueryShape = { scope: z.enum(['workspace', 'all']).optional() };

function sectionParam(request: { params: { id: string } }): SectionId {
  const id = request.params.id;
  if (!(SECTION_IDS as readonly string[]).includes(id)) throw notFound('section');
  return id as SectionId;
}

/**
 * Pages as the caller sees them: with their access level and favourite flag, in the given order,
 * leaving out those the caller may not read. A fixed number of queries for any number of pages
 * (one, the favourites, when the caller's levels on them are `known` already).
 */
async function presentPagesFor(db: Kysely<Database>, userId: string, pages: readonly PageRow[]): Promise<WireElement[]> {
  const levels = await pageAccessLevels(db, userId, pages);
  const readable = pages.filter((p) => allows(levels.get(p.id) ?? 'none', 'read'));
  const favorites = await favoritePageIds(
    db,
    userId,
    readable.map((p) => p.id),
  );
  return readable.map((p) => presentElement(p, levels.get(p.id) as AccessLevel, favorites.has(p.id)));
}

/** Lower-case for search, whole Unicode (SQLite's lower() knows only ASCII). */
function foldCase(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

export async function pageRoutes(server: FastifyInstance, { config, mailer }: { config: Config; mailer: Mailer }) {
  void mailer;
  const app = server.withTypeProvider<ZodTypeProvider>();
  const titleSearchLimit = userLimit(app, 'title-search', config.userLimits.searchPer10s, 10_000, requireUser);

  /** The web app's connection that sent a write (X-Client-Id): its own realtime echo is skipped by it. */
  const originOf = (request: FastifyRequest) => requestOrigin(request.headers[CLIENT_ID_HEADER]);

  // ---- Sections -------------------------------------------------------------------------------

  app.get(
    '/api/v3/spaces/section/:id',
    {
      schema: {
        tags: ['pages'],
        summary: 'Pages of a sidebar section (favorite, all, shared, private); shared with scope="all" lists every workspace of yours',
        params: idParams,
        querystring: jsonQuery(sectionQueryShape),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const section = sectionParam(request);
      const workspace = await requestWorkspace(app, request, user);
      if (!mayListSection(workspace.role, section)) throw forbidden('this section');
      const everywhere = request.query.scope === 'all';
      if (everywhere && section !== 'shared') throw invalidField('scope "all" is for the shared section only', 'query.scope');
      let pages: PageRow[];
      if (section === 'favorite') {
        pages = await listFavoritePages(app.db, user.id, workspace.id);
      } else if (section === 'shared') {
        // Pages shared with the caller in every workspace of theirs (a page of another workspace
        // carries its workspaceId), or in this one. Only the topmost shared page of a shared tree:
        // its children are reached through it.
        const workspaceIds = everywhere ? (await listUserWorkspaces(app.db, user.id)).filter((w) => isWireRole(w.role)).map((w) => w.id) : workspace.id;
        const granted = await listPagesGrantedTo(app.db, user.id, workspaceIds);
        const ids = new Set(granted.map((p) => p.id));
        pages = granted.filter((p) => !pagePath(p).some((id) => ids.has(id)));
      } else {
        pages = await listSectionRoots(app.db, workspace.id, section, user.id);
      }
      const elements = await presentPagesFor(app.db, user.id, pages);
      return envelope(elements, { count: elements.length, hasMoreNext: false });
    },
  );

  app.post(
    '/api/v3/spaces/section/:id',
    { schema: { tags: ['pages'], summary: 'Create a page at the end of a section', params: idParams, body: createNoteBodySchema.nullish() } },
    async (request, reply) => {
      const user = requireUser(request);
      const section = sectionParam(request);
      const body = request.body ?? createNoteBodySchema.parse({});
      const workspace = await requestWorkspace(app, request, user);
      if (section !== 'private' && section !== 'all') throw forbidden('creating pages in this section');
      const { page, events } = await createPage(app.db, user.id, body, { workspace, section });
      await app.events.dispatch(events, originOf(request));
      reply.status(201);
      return envelope(presentElement(page, 'full'));
    },
  );

  // ---- Reading ---------------------------------------------------------------------------------

  app.get(
    '/api/v3/spaces/element/:id',
    { schema: { tags: ['pages'], summary: 'Load a page (and note the visit for recents)', params: idParams } },
    async (request) => {
      const user = requireUser(request);
      const page = await loadPage(app.db, request.params.id);
      const level = await authorizePage(app.db, user.id, page, 'read');
      // Noted beside the read: a page opens at once while another process holds SQLite's write lock.
      // A synced block's content is read by the editors of its blocks, not visited: no recent of its own.
      if (page.in_trash !== SYNCED_CONTENT) await writeAside(() => recordVisit(app.db, user.id, page.id), request.log);
      const element = await presentPageFor(app.db, user.id, page, level);
      // A synced block's content whose holder is in the trash is read-only as the holder is: `inTrash` says so.
      return envelope(page.in_trash === SYNCED_CONTENT && !(await isWritable(app.db, page)) ? { ...element, inTrash: true } : element);
    },
  );

  app.get(
    '/api/v3/spaces/element/public/:id',
    { ...PUBLIC_ROUTE, schema: { tags: ['pages'], summary: 'Load a public page, anonymously too (with its blocks and public children)', params: idParams } },
    async (request, reply) => {
      const page = await loadPublicPage(app.db, request.params.id);
      const element = await presentPublicElement(app.db, page);
      // Only public children are shown, and their path goes no higher than the page's public path.
      const children = (await listChildren(app.db, page.id))
        .filter(isPubliclyReadable)
        .map((child) => ({ ...publicElement(child), path: [...element.path, page.id] }));
      // A big page is read in slices and written out as a stream (docs/api/blocks.md).
      const blocks = await listPageBlockRows(app.db, page.id);
      // A database block goes out as a public reader gets it: no field no view names (docs/security.md «What a public reader can see»).
      const json = (placed: PlacedRow) => placedRowJson(publishedPlacedRow(placed));
      return reply.type('application/json; charset=utf-8').send(streamedIncluded(element, blocks, json, children));
    },
  );

  app.get(
    '/api/v3/spaces/page/public',
    {
      ...PUBLIC_ROUTE,
      schema: { tags: ['pages'], summary: 'The public record of a page: the page, who published it, when', querystring: jsonQuery(publicPageQueryShape) },
    },
    async (request) => {
      const page = await loadPublicPage(app.db, request.query.id);
      const record: WirePublicPage = {
        element: await presentPublicElement(app.db, page),
        userId: page.published_by,
        createdAt: page.published_at,
      };
      return envelope(record);
    },
  );

  app.get(
    '/api/v3/spaces/pagealias/:id',
    { ...PUBLIC_ROUTE, schema: { tags: ['pages'], summary: "A page's public alias (null until first published)", params: idParams } },
    async (request) => {
      const page = await findPage(app.db, request.params.id);
      if (!page || (!request.user && !isPubliclyReadable(page))) throw notFound('page');
      if (!isPubliclyReadable(page)) await authorizePage(app.db, requireUser(request).id, page, 'read');
      return envelope({ id: page.id, alias: page.alias });
    },
  );

  app.get(
    '/api/v3/spaces/element/:id/children',
    { schema: { tags: ['pages'], summary: 'Children of a page the caller may see, in order', params: idParams } },
    async (request) => {
      const user = requireUser(request);
      const page = await loadPage(app.db, request.params.id);
      await authorizePage(app.db, user.id, page, 'read');
      const elements = await presentPagesFor(app.db, user.id, await listChildren(app.db, page.id));
      return envelope(elements, { count: elements.length, hasMoreNext: false });
    },
  );

  app.get(
    '/api/v3/spaces/recents',
    {
      schema: {
        tags: ['pages'],
        summary: 'Pages the caller opened, newest first (paged); included: their ancestors the caller may read (for their paths)',
        querystring: jsonQuery(pageQueryShape),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const workspaceId = await optionalWorkspace(app, request, user);
      const elements = await presentPagesFor(app.db, user.id, await listVisitedPages(app.db, user.id, workspaceId));
      const { data, meta } = pageOf(elements, ELEMENT, request.query.cursor, request.query.limit);
      // The finder shows each page's path: the ancestors of those listed that the caller may read
      // (one not readable is left out, its title not given away).
      const ancestorIds = [...new Set(data.flatMap((element) => element.path))];
      const ancestors = ancestorIds.length > 0 ? await presentPagesFor(app.db, user.id, await findPages(app.db, ancestorIds)) : [];
      return envelope(data, meta, ancestors);
    },
  );

  const searchText = z
    .union([z.string().max(1000), z.number(), z.boolean(), z.null()])
    .transform((value) => (value === null ? undefined : String(value)))
    .optional();
  app.get(
    '/api/v3/spaces/trash',
    {
      schema: {
        tags: ['pages'],
        summary: 'Pages in the trash the caller may see, each with trashedAt; q filters titles (case-insensitive)',
        querystring: jsonQuery({ q: searchText, ...pageQueryShape }),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const workspaceId = await optionalWorkspace(app, request, user);
      let pages = await listTrashHeads(app.db, user.id, workspaceId);
      const q = request.query.q?.trim();
      if (q) {
        const needle = foldCase(q);
        pages = pages.filter((p) => foldCase(p.title).includes(needle));
      }
      // Each with when it went to the trash (its batch's time), which the trash dialog shows.
      const trashedAt = new Map(pages.map((p) => [p.id, p.trashed_at]));
      const elements = (await presentPagesFor(app.db, user.id, pages)).map((page) => ({ ...page, trashedAt: trashedAt.get(page.id) ?? null }));
      const { data, meta } = pageOf(elements, ELEMENT, request.query.cursor, request.query.limit);
      return envelope(data, meta);
    },
  );

  /**
   * Title search for the page picker (issue 15, `[[` and `@` in the editor): live pages of the
   * request's workspace whose title holds `q` (case-insensitive, whole Unicode), that the caller
   * may read; titles starting with `q` first, then the rest, each by title. At most `limit` (20).
   */
  app.get(
    '/api/v3/spaces/search',
    {
      schema: {
        tags: ['pages'],
        summary: 'Pages of the workspace the caller may read whose title holds q (case-insensitive), best first',
        querystring: jsonQuery({ q: searchText, limit: z.number().int().min(1).max(50).optional() }),
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const workspace = await requestWorkspace(app, request, user);
      // Reads every live title of the workspace: limited per user as the full-text search is (a bucket of its own: the picker asks as one types).
      await titleSearchLimit(request, reply);
      const needle = foldCase(request.query.q?.trim() ?? '');
      const limit = request.query.limit ?? 20;
      // Titles only for the match (a workspace may hold tens of thousands of pages); whole rows and
      // access only for the best candidates, a batch at a time, until `limit` readable ones are found:
      // pages the caller cannot read never take a place.
      const matching = (await listLiveTitles(app.db, workspace.id))
        .map((page) => ({ id: page.id, title: foldCase(page.title) }))
        .filter(({ title }) => title.includes(needle))
        .sort((a, b) => {
          const ap = a.title.startsWith(needle) ? 0 : 1;
          const bp = b.title.startsWith(needle) ? 0 : 1;
          if (ap !== bp) return ap - bp;
          if (a.title !== b.title) return a.title < b.title ? -1 : 1;
          return a.id < b.id ? -1 : 1;
        })
        .map(({ id }) => id);
      const elements: WireElement[] = [];
      for (let at = 0; at < matching.length && elements.length < limit; at += SEARCH_BATCH) {
        const batch = matching.slice(at, at + SEARCH_BATCH);
        const rows = new Map((await findPages(app.db, batch)).map((row) => [row.id, row]));
        const ordered = batch.flatMap((id) => (rows.has(id) ? [rows.get(id) as PageRow] : []));
        elements.push(...(await presentPagesFor(app.db, user.id, ordered)));
      }
      elements.splice(limit);
      return envelope(elements, { count: elements.length, hasMoreNext: false });
    },
  );

  /**
   * What the page links of a page point at (issue 15, links that follow renames): for each id
   * the page as the caller sees it (`ok`), `noAccess` (no title given away) or `deleted` (gone,
   * or in the trash). No visit is noted, unlike `GET element/{id}`.
   */
  app.get(
    '/api/v3/spaces/pageLinks',
    {
      schema: {
        tags: ['pages'],
        summary: 'The pages page links point at: each ok (with the page), noAccess or deleted',
        querystring: jsonQuery({ ids: z.array(z.string().uuid()).min(1).max(100) }),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const ids = [...new Set(request.query.ids)];
      const pages = await findPages(app.db, ids);
      const levels = await pageAccessLevels(app.db, user.id, pages);
      const byId = new Map(pages.map((p) => [p.id, p]));
      const favorites = await favoritePageIds(
        app.db,
        user.id,
        pages.map((p) => p.id),
      );
      const data = ids.map((id) => {
        const page = byId.get(id);
        if (!page) return { id, status: 'deleted' as const };
        const level = levels.get(id) ?? 'none';
        if (!allows(level, 'read')) return { id, status: 'noAccess' as const };
        if (page.in_trash === 1) return { id, status: 'deleted' as const };
        return { id, status: 'ok' as const, element: presentElement(page, level, favorites.has(id)) };
      });
      return envelope(data, { count: data.length, hasMoreNext: false });
    },
  );

  // ---- Changing --------------------------------------------------------------------------------

  app.patch(
    '/api/v3/spaces/element/:id',
    { schema: { tags: ['pages'], summary: 'Change one of title, icon, cover, isPublic', params: idParams, body: patchElementBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const { updated, level, events } = await updatePage(app.db, user.id, request.params.id, request.body);
      await app.events.dispatch(events, originOf(request));
      return envelope(await presentPageFor(app.db, user.id, updated, level));
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/children',
    { schema: { tags: ['pages'], summary: 'Create a page at the end of the children of a page', params: idParams, body: createNoteBodySchema.nullish() } },
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body ?? createNoteBodySchema.parse({});
      const { page, level, events } = await createPage(app.db, user.id, body, { parentId: request.params.id });
      await app.events.dispatch(events, originOf(request));
      reply.status(201);
      return envelope(presentElement(page, level));
    },
  );

  /**
   * A synced block's content (docs/api/blocks.md «Synced blocks»): a hidden page under page `{id}`
   * (its holder, which the caller may edit), with the client's id; the blocks are then written
   * into it with the block calls, and the synced block naming it on any page of the workspace.
   */
  app.post(
    '/api/v3/spaces/element/:id/synced',
    {
      schema: {
        tags: ['pages'],
        summary: "Create a synced block's content: a hidden page under the page, its blocks written with the block calls",
        params: idParams,
        body: createSyncedBodySchema,
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      // Ids are lower-case everywhere (a synced block's data names its page so).
      const id = request.body.id.toLowerCase();
      const { page, level, events } = await createPage(app.db, user.id, { type: 'Note', id }, { parentId: request.params.id, synced: true });
      await app.events.dispatch(events, originOf(request));
      reply.status(201);
      return envelope(presentElement(page, level));
    },
  );

  app.delete(
    '/api/v3/spaces/element/:id',
    { schema: { tags: ['pages'], summary: 'Move a page and its subtree to the trash', params: idParams } },
    async (request) => {
      const user = requireUser(request);
      const { trashed, level, events } = await trashPage(app.db, user.id, request.params.id);
      await app.events.dispatch(events, originOf(request));
      return envelope(await presentPageFor(app.db, user.id, trashed, level));
    },
  );

  app.post(
    '/api/v3/spaces/trash/:id/restore',
    { schema: { tags: ['pages'], summary: 'Take a page and what was trashed with it out of the trash', params: idParams, body: emptyBody } },
    async (request) => {
      const user = requireUser(request);
      const { restored, level, events } = await restorePage(app.db, user.id, request.params.id);
      await app.events.dispatch(events, originOf(request));
      return envelope(await presentPageFor(app.db, user.id, restored, level));
    },
  );

  app.post(
    '/api/v3/spaces/trash/:id/remove',
    { schema: { tags: ['pages'], summary: 'Delete a trashed page and everything below it for good', params: idParams, body: emptyBody } },
    async (request) => {
      const user = requireUser(request);
      const { removed: page, pageIds, storageKeys, events } = await removePageForever(app.db, user.id, request.params.id);
      await app.events.dispatch(events, originOf(request));
      await removeStoredFiles(app.fileStore, storageKeys, request.log);
      return envelope({ id: page.id, status: 'success' }, { removedPages: pageIds.length, removedFiles: storageKeys.length });
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/addToFavorites',
    { schema: { tags: ['pages'], summary: "Add a page to the caller's favourites", params: idParams, body: emptyBody } },
    async (request) => {
      const user = requireUser(request);
      const page = await loadPage(app.db, request.params.id);
      const level = await authorizePage(app.db, user.id, page, 'read');
      assertNotInTrash(page);
      assertNotSyncedContent(page);
      await addFavorite(app.db, user.id, page.id);
      return envelope(presentElement(page, level, true));
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/removeFromFavorites',
    { schema: { tags: ['pages'], summary: "Remove a page from the caller's favourites", params: idParams, body: emptyBody } },
    async (request) => {
      const user = requireUser(request);
      const page = await loadPage(app.db, request.params.id);
      const level = await authorizePage(app.db, user.id, page, 'read');
      await removeFavorite(app.db, user.id, page.id);
      return envelope(presentElement(page, level, false));
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/page/clone',
    { schema: { tags: ['pages'], summary: 'Deep-copy a page with its subtree and blocks', params: idParams, body: clonePageBodySchema } },
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      const { clone, count, events } = await clonePage(app.db, user.id, request.params.id, body);
      await app.events.dispatch(events, originOf(request));
      reply.status(201);
      return envelope(await presentPageFor(app.db, user.id, clone), { clonedPages: count });
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/move',
    {
      schema: {
        tags: ['pages'],
        summary: 'Move a page (with its subtree) under another page or to a section root',
        params: idParams,
        body: movePageBodySchema,
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { moved, events } = await movePage(app.db, user.id, request.params.id, request.body);
      await app.events.dispatch(events, originOf(request));
      return envelope(await presentPageFor(app.db, user.id, moved));
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/placeAfter',
    { schema: { tags: ['pages'], summary: 'Reorder a page among its current siblings', params: idParams, body: placeAfterBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const { placed, level, events } = await reorderPage(app.db, user.id, request.params.id, request.body.placeAfter);
      await app.events.dispatch(events, originOf(request));
      return envelope(await presentPageFor(app.db, user.id, placed, level));
    },
  );
}
