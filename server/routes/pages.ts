import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
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
  movePageBodySchema,
  MOVE_SECTION_IDS,
  patchElementBodySchema,
  placeAfterBodySchema,
  publicPageQueryShape,
  type CreatePageBody,
  type PatchElementBody,
  type WireElement,
  type WirePublicPage,
} from '../../schema/element';
import { ERROR_CODES } from '../../schema/errors';
import { newId } from '../../schema/ids';
import { jsonQuery, pageQueryShape } from '../../schema/query';
import type { Database, PageRow, UserRow } from '../db/types';
import { AppError, forbidden, isUniqueViolation, notFound } from '../errors';
import { PUBLIC_ROUTE, requireUser } from '../plugins/auth';
import { allows, authorizePage, isPubliclyReadable, pageAccessLevel, pageAccessLevels } from '../policies/page';
import { canCreateInSection, visibleSections } from '../policies/workspace';
import { pageOf } from '../pagination';
import { envelope, presentElement } from '../presenters';
import { listPageBlocks } from '../repositories/blocks';
import { listPagesGrantedTo } from '../repositories/pageMembers';
import {
  addFavorite,
  clonePageTree,
  favoritePageIds,
  findPage,
  findPageByIdOrAlias,
  findPages,
  insertPage,
  listChildren,
  listDescendants,
  listFavoritePages,
  listPagesAt,
  listSectionRoots,
  listTrashHeads,
  listVisitedPages,
  movePage,
  newAlias,
  pagePath,
  recordVisit,
  removeFavorite,
  removeSubtreeForever,
  restoreSubtree,
  setSortKey,
  sortKeyAfter,
  trashSubtree,
  updatePageFields,
  type PageFieldsUpdate,
  type PagePlace,
} from '../repositories/pages';
import { findMembership, listUserWorkspaces, type WorkspaceWithRole } from '../repositories/workspaces';
import { nowIso } from '../time';

export const WORKSPACE_HEADER = 'x-workspace-id';

const ELEMENT = 'Element';

/** A body-less POST may still send `{}`. */
const emptyBody = z.object({}).strict().nullish();

function workspaceHeader(request: FastifyRequest): string | undefined {
  const header = request.headers[WORKSPACE_HEADER];
  return typeof header === 'string' && header !== '' ? header : undefined;
}

/** The workspace a request acts in: the X-Workspace-Id header, else the user's first workspace. */
async function requestWorkspace(app: FastifyInstance, request: FastifyRequest, user: UserRow): Promise<WorkspaceWithRole> {
  const wanted = workspaceHeader(request);
  const workspace = wanted
    ? await findMembership(app.db, wanted, user.id)
    : (await listUserWorkspaces(app.db, user.id))[0];
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

function sectionParam(request: { params: { id: string } }): SectionId {
  const id = request.params.id;
  if (!(SECTION_IDS as readonly string[]).includes(id)) throw notFound('section');
  return id as SectionId;
}

const inTrash = () => new AppError(409, ERROR_CODES.pageInTrash, 'the page is in the trash; restore it first');
const pageExists = () => new AppError(409, ERROR_CODES.pageExists, 'a page with this id exists');
const invalid = (message: string, path: string) =>
  new AppError(422, ERROR_CODES.validationFailed, message, [{ path, message }]);

/**
 * Pages as the caller sees them: with their access level and favourite flag, in the given order,
 * leaving out those the caller may not read. A fixed number of queries for any number of pages.
 */
async function presentPagesFor(db: Kysely<Database>, userId: string, pages: readonly PageRow[]): Promise<WireElement[]> {
  const levels = await pageAccessLevels(db, userId, pages);
  const readable = pages.filter((p) => allows(levels.get(p.id) ?? 'none', 'read'));
  const favorites = await favoritePageIds(db, userId, readable.map((p) => p.id));
  return readable.map((p) => presentElement(p, levels.get(p.id) as AccessLevel, favorites.has(p.id)));
}

/** One page as the caller sees it, whose level is known. */
async function presentPageFor(db: Kysely<Database>, userId: string, page: PageRow, level?: AccessLevel): Promise<WireElement> {
  const known = level ?? (await pageAccessLevel(db, userId, page));
  const favorites = await favoritePageIds(db, userId, [page.id]);
  return presentElement(page, known, favorites.has(page.id));
}

/**
 * A public page as anyone sees it: read access, no favourite, and of its ancestors only the
 * unbroken run of public ones right above it (a private parent's id is not given away).
 */
async function presentPublicElement(db: Kysely<Database>, page: PageRow): Promise<WireElement> {
  const ancestorIds = pagePath(page);
  const ancestors = new Map((await findPages(db, ancestorIds)).map((p) => [p.id, p]));
  const visible: string[] = [];
  for (const id of [...ancestorIds].reverse()) {
    const ancestor = ancestors.get(id);
    if (!ancestor || !isPubliclyReadable(ancestor)) break;
    visible.unshift(id);
  }
  const element = presentElement(page, 'read', false);
  return { ...element, path: visible, parentId: visible.length > 0 ? page.parent_id : null };
}

/** A page that is public and not in the trash, by id or alias; anything else is 404 (nothing given away). */
async function loadPublicPage(db: Kysely<Database>, idOrAlias: string): Promise<PageRow> {
  const page = await findPageByIdOrAlias(db, idOrAlias);
  if (!page || !isPubliclyReadable(page)) throw notFound('public page');
  return page;
}

/** Removes deleted pages' files from the file store; a file that is gone already is fine. */
async function unlinkStoredFiles(filesDir: string, storageKeys: readonly string[], log: FastifyBaseLogger): Promise<void> {
  const root = path.resolve(filesDir);
  for (const key of storageKeys) {
    const file = path.resolve(root, key);
    // A storage key never leads outside the file store.
    if (!file.startsWith(root + path.sep)) continue;
    await fs.rm(file, { force: true }).catch((error: unknown) => log.warn({ err: error, file }, 'could not remove a deleted page file'));
  }
}

/** Lower-case for search, whole Unicode (SQLite's lower() knows only ASCII). */
function foldCase(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

export async function pageRoutes(server: FastifyInstance, { config, mailer }: { config: Config; mailer: Mailer }) {
  void mailer;
  const app = server.withTypeProvider<ZodTypeProvider>();

  async function loadPage(id: string): Promise<PageRow> {
    const page = await findPage(app.db, id);
    if (!page) throw notFound('page');
    return page;
  }

  /** Creates a page at a place; a taken id (also when a parallel request wins) is 409. */
  async function createPage(user: UserRow, body: CreatePageBody, workspaceId: string, parent: PageRow | null, section: 'private' | 'all' | null) {
    const id = body.id ?? newId();
    if (await findPage(app.db, id)) throw pageExists();
    return insertPage(app.db, {
      id,
      workspaceId,
      parent,
      section,
      type: body.type,
      title: body.title ?? '',
      defaultLayoutId: body.defaultLayoutId ?? null,
      createdBy: user.id,
      grantCreatorFull: parent === null,
    }).catch((error: unknown) => {
      throw isUniqueViolation(error) ? pageExists() : error;
    });
  }

  /** The ordered pages at a page's current place, itself left out. */
  async function siblingsOf(page: PageRow): Promise<PageRow[]> {
    const place: PagePlace | null =
      page.parent_id === null
        ? { workspaceId: page.workspace_id, section: page.section === 'all' ? 'all' : 'private' }
        : await findPage(app.db, page.parent_id).then((parent) => (parent ? { parent } : null));
    if (!place) return [];
    return (await listPagesAt(app.db, place)).filter((p) => p.id !== page.id);
  }

  /** `placeAfter` must be a live sibling the caller can see; null means first. */
  async function siblingToPlaceAfter(user: UserRow, siblings: readonly PageRow[], placeAfter: string | null): Promise<PageRow | null> {
    if (placeAfter === null) return null;
    const after = siblings.find((s) => s.id === placeAfter);
    if (!after || after.in_trash === 1 || !allows(await pageAccessLevel(app.db, user.id, after), 'read')) {
      throw invalid('placeAfter is not a page at the destination', 'body.placeAfter');
    }
    return after;
  }

  // ---- Sections -------------------------------------------------------------------------------

  app.get('/api/v3/spaces/section/:id', { schema: { tags: ['pages'], summary: 'Pages of a sidebar section (favorite, all, shared, private)', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const section = sectionParam(request);
    const workspace = await requestWorkspace(app, request, user);
    if (!visibleSections(workspace.role).includes(section)) throw forbidden('this section');
    let pages: PageRow[];
    if (section === 'favorite') {
      pages = await listFavoritePages(app.db, user.id, workspace.id);
    } else if (section === 'shared') {
      // Only the topmost shared page of a shared tree: its children are reached through it.
      const granted = await listPagesGrantedTo(app.db, user.id, workspace.id);
      const ids = new Set(granted.map((p) => p.id));
      pages = granted.filter((p) => !pagePath(p).some((id) => ids.has(id)));
    } else {
      pages = await listSectionRoots(app.db, workspace.id, section, user.id);
    }
    const elements = await presentPagesFor(app.db, user.id, pages);
    return envelope(elements, { count: elements.length, hasMoreNext: false });
  });

  app.post('/api/v3/spaces/section/:id', { schema: { tags: ['pages'], summary: 'Create a page at the end of a section', params: idParams, body: createNoteBodySchema.nullish() } }, async (request, reply) => {
    const user = requireUser(request);
    const section = sectionParam(request);
    const body = request.body ?? createNoteBodySchema.parse({});
    const workspace = await requestWorkspace(app, request, user);
    if (!canCreateInSection(workspace.role, section, workspace.is_private === 1)) throw forbidden('creating pages in this section');
    const page = await createPage(user, body, workspace.id, null, section as 'private' | 'all');
    reply.status(201);
    return envelope(presentElement(page, 'full'));
  });

  // ---- Reading ---------------------------------------------------------------------------------

  app.get('/api/v3/spaces/element/:id', { schema: { tags: ['pages'], summary: 'Load a page (and note the visit for recents)', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const page = await loadPage(request.params.id);
    const level = await authorizePage(app.db, user.id, page, 'read');
    await recordVisit(app.db, user.id, page.id);
    return envelope(await presentPageFor(app.db, user.id, page, level));
  });

  app.get('/api/v3/spaces/element/public/:id', { ...PUBLIC_ROUTE, schema: { tags: ['pages'], summary: 'Load a public page, anonymously too (with its blocks and public children)', params: idParams } }, async (request) => {
    const page = await loadPublicPage(app.db, request.params.id);
    const element = await presentPublicElement(app.db, page);
    // Only public children are shown, and their path goes no higher than the page's public path.
    const children = (await listChildren(app.db, page.id))
      .filter(isPubliclyReadable)
      .map((child) => ({ ...presentElement(child, 'read', false), path: [...element.path, page.id] }));
    const blocks = await listPageBlocks(app.db, page.id);
    return envelope(element, {}, [...blocks, ...children]);
  });

  app.get('/api/v3/spaces/page/public', { ...PUBLIC_ROUTE, schema: { tags: ['pages'], summary: 'The public record of a page: the page, who published it, when', querystring: jsonQuery(publicPageQueryShape) } }, async (request) => {
    const page = await loadPublicPage(app.db, request.query.id);
    const record: WirePublicPage = {
      element: await presentPublicElement(app.db, page),
      userId: page.published_by,
      createdAt: page.published_at,
    };
    return envelope(record);
  });

  app.get('/api/v3/spaces/pagealias/:id', { ...PUBLIC_ROUTE, schema: { tags: ['pages'], summary: "A page's public alias (null until first published)", params: idParams } }, async (request) => {
    const page = await findPage(app.db, request.params.id);
    if (!page || (!request.user && !isPubliclyReadable(page))) throw notFound('page');
    if (!isPubliclyReadable(page)) await authorizePage(app.db, requireUser(request).id, page, 'read');
    return envelope({ id: page.id, alias: page.alias });
  });

  app.get('/api/v3/spaces/element/:id/children', { schema: { tags: ['pages'], summary: 'Children of a page the caller may see, in order', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const page = await loadPage(request.params.id);
    await authorizePage(app.db, user.id, page, 'read');
    const elements = await presentPagesFor(app.db, user.id, await listChildren(app.db, page.id));
    return envelope(elements, { count: elements.length, hasMoreNext: false });
  });

  app.get('/api/v3/spaces/recents', { schema: { tags: ['pages'], summary: 'Pages the caller opened, newest first (paged)', querystring: jsonQuery(pageQueryShape) } }, async (request) => {
    const user = requireUser(request);
    const workspaceId = await optionalWorkspace(app, request, user);
    const elements = await presentPagesFor(app.db, user.id, await listVisitedPages(app.db, user.id, workspaceId));
    const { data, meta } = pageOf(elements, ELEMENT, request.query.cursor, request.query.limit);
    return envelope(data, meta);
  });

  const searchText = z
    .union([z.string().max(1000), z.number(), z.boolean(), z.null()])
    .transform((value) => (value === null ? undefined : String(value)))
    .optional();
  app.get('/api/v3/spaces/trash', { schema: { tags: ['pages'], summary: 'Pages in the trash the caller may see; q filters titles (case-insensitive)', querystring: jsonQuery({ q: searchText, ...pageQueryShape }) } }, async (request) => {
    const user = requireUser(request);
    const workspaceId = await optionalWorkspace(app, request, user);
    let pages = await listTrashHeads(app.db, user.id, workspaceId);
    const q = request.query.q?.trim();
    if (q) {
      const needle = foldCase(q);
      pages = pages.filter((p) => foldCase(p.title).includes(needle));
    }
    const elements = await presentPagesFor(app.db, user.id, pages);
    const { data, meta } = pageOf(elements, ELEMENT, request.query.cursor, request.query.limit);
    return envelope(data, meta);
  });

  // ---- Changing --------------------------------------------------------------------------------

  app.patch('/api/v3/spaces/element/:id', { schema: { tags: ['pages'], summary: 'Change one of title, icon, cover, isPublic', params: idParams, body: patchElementBodySchema } }, async (request) => {
    const user = requireUser(request);
    const body: PatchElementBody = request.body;
    if (body.id !== undefined && body.id !== request.params.id) throw invalid('the body id differs from the path id', 'body.id');
    const page = await loadPage(request.params.id);
    const level = await authorizePage(app.db, user.id, page, body.isPublic === undefined ? 'edit' : 'share');
    if (page.in_trash === 1) throw inTrash();
    let fields: PageFieldsUpdate;
    if (body.title !== undefined) {
      fields = { title: body.title };
    } else if (body.icon !== undefined) {
      fields = { icon: body.icon };
    } else if (body.cover !== undefined) {
      if (body.cover?.contentType === 'FileCover') {
        const file = await app.db.selectFrom('files').select(['page_id', 'workspace_id']).where('id', '=', body.cover.fileId).executeTakeFirst();
        if (!file) throw notFound('file');
        const belongs = file.page_id === page.id || (file.page_id === null && file.workspace_id === page.workspace_id);
        if (!belongs) throw forbidden('this file');
      }
      fields = { cover: body.cover === null ? null : JSON.stringify(body.cover) };
    } else if (body.isPublic === true) {
      // Publishing records who did it and when; a second publish changes nothing.
      fields = page.is_public === 1 ? {} : { is_public: 1, published_by: user.id, published_at: nowIso(), alias: page.alias ?? newAlias() };
    } else {
      fields = { is_public: 0, published_by: null, published_at: null };
    }
    const updated = await updatePageFields(app.db, page, fields);
    return envelope(await presentPageFor(app.db, user.id, updated, level));
  });

  app.post('/api/v3/spaces/element/:id/children', { schema: { tags: ['pages'], summary: 'Create a page at the end of the children of a page', params: idParams, body: createNoteBodySchema.nullish() } }, async (request, reply) => {
    const user = requireUser(request);
    const body = request.body ?? createNoteBodySchema.parse({});
    const parent = await loadPage(request.params.id);
    const level = await authorizePage(app.db, user.id, parent, 'edit');
    if (parent.in_trash === 1) throw inTrash();
    const page = await createPage(user, body, parent.workspace_id, parent, null);
    reply.status(201);
    return envelope(presentElement(page, level));
  });

  app.delete('/api/v3/spaces/element/:id', { schema: { tags: ['pages'], summary: 'Move a page and its subtree to the trash', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const page = await loadPage(request.params.id);
    const level = await authorizePage(app.db, user.id, page, 'edit');
    const trashed = page.in_trash === 1 ? page : await trashSubtree(app.db, page, user.id);
    return envelope(await presentPageFor(app.db, user.id, trashed, level));
  });

  app.post('/api/v3/spaces/trash/:id/restore', { schema: { tags: ['pages'], summary: 'Take a page and what was trashed with it out of the trash', params: idParams, body: emptyBody } }, async (request) => {
    const user = requireUser(request);
    const page = await loadPage(request.params.id);
    const level = await authorizePage(app.db, user.id, page, 'edit');
    if (page.in_trash === 0) throw new AppError(409, ERROR_CODES.pageNotInTrash, 'the page is not in the trash');
    const parent = page.parent_id === null ? undefined : await findPage(app.db, page.parent_id);
    if (parent?.in_trash === 1) {
      throw new AppError(409, ERROR_CODES.pageParentInTrash, 'the page above it is in the trash; restore that one first');
    }
    const restored = await restoreSubtree(app.db, page);
    return envelope(await presentPageFor(app.db, user.id, restored, level));
  });

  app.post('/api/v3/spaces/trash/:id/remove', { schema: { tags: ['pages'], summary: 'Delete a trashed page and everything below it for good', params: idParams, body: emptyBody } }, async (request) => {
    const user = requireUser(request);
    const page = await loadPage(request.params.id);
    await authorizePage(app.db, user.id, page, 'manage');
    if (page.in_trash === 0) throw new AppError(409, ERROR_CODES.pageNotInTrash, 'only a page in the trash can be deleted for good');
    const { pageIds, storageKeys } = await removeSubtreeForever(app.db, page);
    await unlinkStoredFiles(config.filesDir, storageKeys, request.log);
    return envelope({ id: page.id, status: 'success' }, { removedPages: pageIds.length, removedFiles: storageKeys.length });
  });

  app.post('/api/v3/spaces/element/:id/addToFavorites', { schema: { tags: ['pages'], summary: "Add a page to the caller's favourites", params: idParams, body: emptyBody } }, async (request) => {
    const user = requireUser(request);
    const page = await loadPage(request.params.id);
    const level = await authorizePage(app.db, user.id, page, 'read');
    if (page.in_trash === 1) throw inTrash();
    await addFavorite(app.db, user.id, page.id);
    return envelope(presentElement(page, level, true));
  });

  app.post('/api/v3/spaces/element/:id/removeFromFavorites', { schema: { tags: ['pages'], summary: "Remove a page from the caller's favourites", params: idParams, body: emptyBody } }, async (request) => {
    const user = requireUser(request);
    const page = await loadPage(request.params.id);
    const level = await authorizePage(app.db, user.id, page, 'read');
    await removeFavorite(app.db, user.id, page.id);
    return envelope(presentElement(page, level, false));
  });

  app.post('/api/v3/spaces/element/:id/page/clone', { schema: { tags: ['pages'], summary: 'Deep-copy a page with its subtree and blocks', params: idParams, body: clonePageBodySchema } }, async (request, reply) => {
    const user = requireUser(request);
    const body = request.body;
    const source = await loadPage(request.params.id);
    await authorizePage(app.db, user.id, source, 'read');
    if (source.in_trash === 1) throw inTrash();
    const workspace = await findMembership(app.db, body.workspaceId, user.id);
    if (!workspace) throw forbidden('this workspace');
    let parent: PageRow | null = null;
    if (body.toElement) {
      parent = await loadPage(body.toElement);
      await authorizePage(app.db, user.id, parent, 'edit');
      if (parent.workspace_id !== workspace.id) throw invalid('toElement is not in workspaceId', 'body.toElement');
      if (parent.in_trash === 1) throw inTrash();
    } else if (!canCreateInSection(workspace.role, 'private', workspace.is_private === 1)) {
      throw forbidden('creating pages in this workspace');
    }
    const newRootId = body.id ?? newId();
    if (await findPage(app.db, newRootId)) throw pageExists();

    // The copy holds what the caller can see: live descendants they may read, under copied parents.
    const descendants = (await listDescendants(app.db, source)).filter((p) => p.in_trash === 0);
    const levels = await pageAccessLevels(app.db, user.id, descendants);
    const copied = new Set([source.id]);
    const pages = [source];
    for (const page of descendants.sort((a, b) => pagePath(a).length - pagePath(b).length)) {
      if (page.parent_id !== null && copied.has(page.parent_id) && allows(levels.get(page.id) ?? 'none', 'read')) {
        copied.add(page.id);
        pages.push(page);
      }
    }
    const clone = await clonePageTree(app.db, { pages, newRootId, workspaceId: workspace.id, parent, userId: user.id }).catch((error: unknown) => {
      throw isUniqueViolation(error) ? pageExists() : error;
    });
    reply.status(201);
    return envelope(await presentPageFor(app.db, user.id, clone), { clonedPages: pages.length });
  });

  app.post('/api/v3/spaces/element/:id/move', { schema: { tags: ['pages'], summary: 'Move a page (with its subtree) under another page or to a section root', params: idParams, body: movePageBodySchema } }, async (request) => {
    const user = requireUser(request);
    const { dst, placeAfter } = request.body;
    const page = await loadPage(request.params.id);
    await authorizePage(app.db, user.id, page, 'manage');
    if (page.in_trash === 1) throw inTrash();
    let place: PagePlace;
    if ((MOVE_SECTION_IDS as readonly string[]).includes(dst)) {
      const section = dst as 'private' | 'all';
      const membership = await findMembership(app.db, page.workspace_id, user.id);
      if (!membership || !canCreateInSection(membership.role, section, membership.is_private === 1)) throw forbidden('this section');
      // A private section root is its creator's: nobody moves someone else's page into their own.
      if (section === 'private' && page.created_by !== user.id) throw forbidden('moving a page you did not create to private');
      place = { workspaceId: page.workspace_id, section };
    } else if ((SECTION_IDS as readonly string[]).includes(dst)) {
      throw invalid('pages cannot be moved into favorite or shared', 'body.dst');
    } else {
      const target = await loadPage(dst);
      await authorizePage(app.db, user.id, target, 'edit');
      if (target.workspace_id !== page.workspace_id) throw invalid('dst is in another workspace; clone the page instead', 'body.dst');
      if (target.in_trash === 1) throw inTrash();
      if (target.id === page.id || pagePath(target).includes(page.id)) {
        throw new AppError(422, ERROR_CODES.pageMoveCycle, 'a page cannot be moved into itself or its own subtree');
      }
      place = { parent: target };
    }
    const siblings = (await listPagesAt(app.db, place)).filter((p) => p.id !== page.id);
    const after = await siblingToPlaceAfter(user, siblings, placeAfter);
    const moved = await movePage(app.db, page, place, sortKeyAfter(siblings, after));
    return envelope(await presentPageFor(app.db, user.id, moved));
  });

  app.post('/api/v3/spaces/element/:id/placeAfter', { schema: { tags: ['pages'], summary: 'Reorder a page among its current siblings', params: idParams, body: placeAfterBodySchema } }, async (request) => {
    const user = requireUser(request);
    const page = await loadPage(request.params.id);
    const level = await authorizePage(app.db, user.id, page, 'edit');
    if (page.in_trash === 1) throw inTrash();
    const siblings = await siblingsOf(page);
    const after = await siblingToPlaceAfter(user, siblings, request.body.placeAfter);
    const placed = await setSortKey(app.db, page, sortKeyAfter(siblings, after));
    return envelope(await presentPageFor(app.db, user.id, placed, level));
  });
}
