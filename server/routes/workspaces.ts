import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Mailer } from '../mail';
import type { WorkspaceRole } from '../../schema/constants';
import { ERROR_CODES } from '../../schema/errors';
import { idParams } from '../../schema/params';
import { jsonQuery } from '../../schema/query';
import {
  WORKSPACE_MEMBER_CONTENT_TYPE,
  addWorkspaceMembersBodySchema,
  createWorkspaceBodySchema,
  memberRoleBodySchema,
  removeWorkspaceMemberBodySchema,
  updateWorkspaceBodySchema,
  workspaceMembersQuerySchema,
  type WireWorkspaceMember,
} from '../../schema/workspace';
import type { UserRow } from '../db/types';
import { AppError, forbidden, isUniqueViolation, notFound } from '../errors';
import { pageOf } from '../pagination';
import { requireUser } from '../plugins/auth';
import { canDoInWorkspace, canRemoveMember, type WorkspaceAction } from '../policies/workspace';
import { envelope, presentUser, presentWorkspace } from '../presenters';
import { createUserWithWorkspace, findUserByEmail, findUserById } from '../repositories/users';
import {
  addMembers,
  createWorkspace,
  deleteWorkspace,
  findMember,
  findMembership,
  findWorkspace,
  isWireRole,
  listMembers,
  listUserWorkspaces,
  removeMember,
  setMemberRole,
  updateWorkspace,
  type MemberWithUser,
  type WorkspaceWithRole,
} from '../repositories/workspaces';

function presentMember(member: MemberWithUser): WireWorkspaceMember {
  return {
    id: member.user.id,
    contentType: WORKSPACE_MEMBER_CONTENT_TYPE,
    user: presentUser(member.user),
    role: member.role,
    createdAt: member.created_at,
  };
}

const invalid = (message: string, details?: unknown) => new AppError(422, ERROR_CODES.validationFailed, message, details);

export async function workspaceRoutes(server: FastifyInstance, { config, mailer }: { config: Config; mailer: Mailer }) {
  const app = server.withTypeProvider<ZodTypeProvider>();

  /** The caller's membership of the workspace of the path: 404 when there is no such workspace, 403 for outsiders. */
  async function membershipIn(workspaceId: string, user: UserRow): Promise<WorkspaceWithRole> {
    if (!(await findWorkspace(app.db, workspaceId))) throw notFound('workspace');
    const membership = await findMembership(app.db, workspaceId, user.id);
    if (!membership || !isWireRole(membership.role)) throw forbidden('this workspace');
    return membership;
  }

  async function authorizeWorkspace(workspaceId: string, user: UserRow, action: WorkspaceAction): Promise<WorkspaceWithRole> {
    const membership = await membershipIn(workspaceId, user);
    if (!canDoInWorkspace(membership.role, action)) throw forbidden('this workspace action');
    return membership;
  }

  /** Removes stored bytes of deleted files; a failure is logged, never shown (the records are gone already). */
  async function removeStoredFiles(keys: readonly string[]): Promise<void> {
    const root = path.resolve(config.filesDir);
    for (const key of keys) {
      const file = path.resolve(root, key);
      if (!file.startsWith(root + path.sep)) continue;
      await fs.rm(file, { force: true }).catch((error: unknown) => app.log.warn({ err: error, file }, 'could not remove a stored file'));
    }
  }

  /** Tells people they were added; a mail failure is logged and does not undo the membership. */
  async function sendInvitations(workspaceName: string, inviter: UserRow, users: readonly UserRow[]): Promise<void> {
    for (const user of users) {
      await mailer
        .send({
          to: user.email,
          subject: `Вас добавили в пространство «${workspaceName}»`,
          text: `${inviter.name} (${inviter.email}) добавил(а) вас в пространство «${workspaceName}».\n\nОткройте ${config.publicUrl} и войдите с адресом ${user.email}.\n`,
        })
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not send a workspace invitation'));
    }
  }

  app.get('/api/v3/spaces/workspace', { schema: { tags: ['workspaces'], summary: 'Workspaces of the signed-in user' } }, async (request) => {
    const user = requireUser(request);
    const workspaces = (await listUserWorkspaces(app.db, user.id)).map(presentWorkspace);
    return envelope(workspaces, { count: workspaces.length, hasMoreNext: false });
  });

  app.post('/api/v3/spaces/workspace', { schema: { tags: ['workspaces'], summary: 'Create a workspace; the caller becomes its admin', body: createWorkspaceBodySchema } }, async (request, reply) => {
    const user = requireUser(request);
    const body = request.body;
    const workspace = await createWorkspace(app.db, {
      name: body.name,
      avatar: body.avatar ?? null,
      isPrivate: body.private ?? false,
      userId: user.id,
    });
    reply.status(201);
    return envelope(presentWorkspace(workspace));
  });

  app.post('/api/v3/spaces/workspace/:id', { schema: { tags: ['workspaces'], summary: 'Change name, avatar or private (admins)', params: idParams, body: updateWorkspaceBodySchema } }, async (request) => {
    const user = requireUser(request);
    const membership = await authorizeWorkspace(request.params.id, user, 'update');
    await updateWorkspace(app.db, membership.id, request.body);
    const updated = await findMembership(app.db, membership.id, user.id);
    if (!updated) throw notFound('workspace');
    return envelope(presentWorkspace(updated));
  });

  app.delete('/api/v3/spaces/workspace/:id', { schema: { tags: ['workspaces'], summary: 'Delete a workspace and everything in it (admins)', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const membership = await authorizeWorkspace(request.params.id, user, 'delete');
    const storageKeys = await deleteWorkspace(app.db, membership.id);
    await removeStoredFiles(storageKeys);
    return envelope({ id: membership.id, status: 'success' });
  });

  app.get('/api/v3/spaces/workspace/:id/members', { schema: { tags: ['workspaces'], summary: 'Members of a workspace, paged (admins and participants)', params: idParams, querystring: jsonQuery(workspaceMembersQuerySchema) } }, async (request) => {
    const user = requireUser(request);
    const membership = await authorizeWorkspace(request.params.id, user, 'listMembers');
    const { roles, cursor, limit } = request.query;
    const members = (await listMembers(app.db, membership.id, roles)).map(presentMember);
    const page = pageOf(members, WORKSPACE_MEMBER_CONTENT_TYPE, cursor, limit);
    return envelope(page.data, page.meta);
  });

  app.post('/api/v3/spaces/workspace/:id/members/add', { schema: { tags: ['workspaces'], summary: 'Add members by user id or e-mail (admins)', params: idParams, body: addWorkspaceMembersBodySchema } }, async (request) => {
    const user = requireUser(request);
    const membership = await authorizeWorkspace(request.params.id, user, 'manageMembers');
    const entries = request.body.members;

    // Everything is checked before anything is written: known user ids, no one named twice.
    const problems: Array<{ path: string; message: string }> = [];
    const byId = new Map<string, UserRow>();
    for (const [index, entry] of entries.entries()) {
      if (!('userId' in entry)) continue;
      const found = await findUserById(app.db, entry.userId);
      if (found) byId.set(entry.userId, found);
      else problems.push({ path: `body.members.${index}.userId`, message: 'no such user' });
    }
    if (problems.length > 0) throw invalid('some members name no user', problems);
    const byEmail = new Map<string, UserRow | undefined>();
    for (const entry of entries) if ('email' in entry) byEmail.set(entry.email, await findUserByEmail(app.db, entry.email));
    const keyOf = (entry: (typeof entries)[number]) => ('userId' in entry ? entry.userId : (byEmail.get(entry.email)?.id ?? `email:${entry.email}`));
    const keys = entries.map(keyOf);
    const repeated = keys.findIndex((key, index) => keys.indexOf(key) !== index);
    if (repeated >= 0) throw invalid('a member is named twice', [{ path: `body.members.${repeated}`, message: 'named twice' }]);

    // Unknown e-mails become users (with a private workspace of their own, as at sign-up).
    for (const [email, known] of byEmail) {
      if (known) continue;
      const created = await createUserWithWorkspace(app.db, email).catch(async (error: unknown) => {
        const winner = isUniqueViolation(error) ? await findUserByEmail(app.db, email) : undefined;
        if (!winner) throw error;
        return winner;
      });
      byEmail.set(email, created);
    }
    const resolved = entries.map((entry) => ({
      user: ('userId' in entry ? byId.get(entry.userId) : byEmail.get(entry.email)) as UserRow,
      role: entry.role as WorkspaceRole,
    }));
    const added = new Set(await addMembers(app.db, membership.id, resolved.map((r) => ({ userId: r.user.id, role: r.role }))));
    await sendInvitations(membership.name, user, resolved.filter((r) => added.has(r.user.id)).map((r) => r.user));

    const members: WireWorkspaceMember[] = [];
    for (const { user: member } of resolved) {
      const stored = await findMember(app.db, membership.id, member.id);
      if (stored) members.push(presentMember(stored));
    }
    return envelope(members, { count: members.length, hasMoreNext: false, added: [...added] });
  });

  app.post('/api/v3/spaces/workspace/:id/member/role', { schema: { tags: ['workspaces'], summary: "Change a member's role (admins; never the last admin's)", params: idParams, body: memberRoleBodySchema } }, async (request) => {
    const user = requireUser(request);
    const membership = await authorizeWorkspace(request.params.id, user, 'manageMembers');
    const { userId, role } = request.body;
    if (!(await setMemberRole(app.db, membership.id, userId, role))) throw notFound('member');
    const member = await findMember(app.db, membership.id, userId);
    if (!member) throw notFound('member');
    return envelope(presentMember(member));
  });

  app.post('/api/v3/spaces/workspace/:id/members/remove', { schema: { tags: ['workspaces'], summary: 'Remove a member (admins), or leave (anyone; never the last admin)', params: idParams, body: removeWorkspaceMemberBodySchema } }, async (request) => {
    const user = requireUser(request);
    const membership = await membershipIn(request.params.id, user);
    const { userId } = request.body;
    if (!canRemoveMember(membership.role, user.id, userId)) throw forbidden('removing members');
    if (!(await removeMember(app.db, membership.id, userId))) throw notFound('member');
    return envelope({ id: userId, status: 'success' });
  });
}
