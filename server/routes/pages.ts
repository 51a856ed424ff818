import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Mailer } from '../mail';
import { idParams } from '../../schema/params';
import { SECTION_IDS, type SectionId } from '../../schema/constants';
import { createNoteBodySchema, patchElementBodySchema } from '../../schema/element';
import { ERROR_CODES } from '../../schema/errors';
import { newId } from '../../schema/ids';
import type { UserRow } from '../db/types';
import { AppError, forbidden, isUniqueViolation, notFound } from '../errors';
import { requireUser } from '../plugins/auth';
import { authorizePage, pageAccessLevel } from '../policies/page';
import { canCreateInSection, visibleSections } from '../policies/workspace';
import { envelope, presentElement } from '../presenters';
import { findPage, insertRootNote, listSectionRoots, updatePageTitle } from '../repositories/pages';
import { findMembership, listUserWorkspaces, type WorkspaceWithRole } from '../repositories/workspaces';

export const WORKSPACE_HEADER = 'x-workspace-id';

/** The workspace a request acts in: the X-Workspace-Id header, else the user's first workspace. */
async function requestWorkspace(app: FastifyInstance, request: FastifyRequest, user: UserRow): Promise<WorkspaceWithRole> {
  const header = request.headers[WORKSPACE_HEADER];
  const wanted = typeof header === 'string' && header !== '' ? header : undefined;
  const workspace = wanted
    ? await findMembership(app.db, wanted, user.id)
    : (await listUserWorkspaces(app.db, user.id))[0];
  if (!workspace) throw forbidden('this workspace');
  return workspace;
}

function sectionParam(request: { params: { id: string } }): SectionId {
  const id = request.params.id;
  if (!(SECTION_IDS as readonly string[]).includes(id)) throw notFound('section');
  return id as SectionId;
}

async function loadPage(app: FastifyInstance, id: string) {
  const page = await findPage(app.db, id);
  if (!page) throw notFound('page');
  return page;
}

export async function pageRoutes(server: FastifyInstance, { config, mailer }: { config: Config; mailer: Mailer }) {
  void config;
  void mailer;
  const app = server.withTypeProvider<ZodTypeProvider>();
  app.get('/api/v3/spaces/section/:id', { schema: { tags: ['pages'], summary: 'Root pages of a sidebar section', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const section = sectionParam(request);
    const workspace = await requestWorkspace(app, request, user);
    if (!visibleSections(workspace.role).includes(section)) throw forbidden('this section');
    // Favorite and shared sections are filled by the sharing and favourites API (issue 3).
    const roots = section === 'private' || section === 'all' ? await listSectionRoots(app.db, workspace.id, section, user.id) : [];
    const elements = [];
    for (const page of roots) {
      const level = await pageAccessLevel(app.db, user.id, page);
      if (level !== 'none') elements.push(presentElement(page, level));
    }
    return envelope(elements, { count: elements.length, hasMoreNext: false });
  });

  app.post('/api/v3/spaces/section/:id', { schema: { tags: ['pages'], summary: 'Create a Note in a section', params: idParams, body: createNoteBodySchema.optional() } }, async (request, reply) => {
    const user = requireUser(request);
    const section = sectionParam(request);
    const body = request.body ?? { type: 'Note' as const, contentType: 'Element' as const };
    const workspace = await requestWorkspace(app, request, user);
    if (!canCreateInSection(workspace.role, section, workspace.is_private === 1)) throw forbidden('creating pages in this section');
    const id = body.id ?? newId();
    const pageExists = () => new AppError(409, ERROR_CODES.pageExists, 'a page with this id exists');
    if (await findPage(app.db, id)) throw pageExists();
    const page = await insertRootNote(app.db, {
      id,
      workspaceId: workspace.id,
      section: section as 'private' | 'all',
      title: body.title ?? '',
      createdBy: user.id,
    }).catch((error: unknown) => {
      // A parallel create with the same id (a retried request) got there first.
      throw isUniqueViolation(error) ? pageExists() : error;
    });
    reply.status(201);
    return envelope(presentElement(page, 'full'));
  });

  app.get('/api/v3/spaces/element/:id', { schema: { tags: ['pages'], summary: 'Load a page', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const page = await loadPage(app, request.params.id);
    const level = await authorizePage(app.db, user.id, page, 'read');
    return envelope(presentElement(page, level));
  });

  app.patch('/api/v3/spaces/element/:id', { schema: { tags: ['pages'], summary: 'Change a page (title)', params: idParams, body: patchElementBodySchema } }, async (request) => {
    const user = requireUser(request);
    const body = request.body;
    if (body.id !== undefined && body.id !== request.params.id) {
      throw new AppError(422, ERROR_CODES.validationFailed, 'the body id differs from the path id');
    }
    const page = await loadPage(app, request.params.id);
    const level = await authorizePage(app.db, user.id, page, 'edit');
    await updatePageTitle(app.db, page.id, body.title);
    return envelope(presentElement({ ...page, title: body.title }, level));
  });
}
