import { shownEmail } from '../repositories/users';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Mailer } from '../mail';
import { idParams } from '../../schema/params';
import { jsonQuery } from '../../schema/query';
import {
  WORKSPACE_MEMBER_CONTENT_TYPE,
  addWorkspaceMemberListBodySchema,
  addWorkspaceMembersBodySchema,
  createWorkspaceBodySchema,
  memberRoleBodySchema,
  removeWorkspaceMemberBodySchema,
  updateWorkspaceBodySchema,
  workspaceMembersQuerySchema,
  type MemberListOutcome,
  type WireWorkspaceMember,
} from '../../schema/workspace';
import type { UserRow } from '../db/types';
import { AppError, notFound } from '../errors';
import { ERROR_CODES } from '../../schema/errors';
import { pageOf } from '../pagination';
import { requireUser } from '../plugins/auth';
import { envelope, presentUser, presentWorkspace } from '../presenters';
import { removeStoredFiles } from '../files/store';
import { addWorkspaceMemberList, addWorkspaceMembers, authorizeWorkspace, changeMemberRole, removeWorkspaceMember } from '../commands/workspaces/members';
import { updateWorkspaceSettings } from '../commands/workspaces/update';
import { createWorkspace, deleteWorkspace, findMember, findMembership, listMembers, listUserWorkspaces, type MemberWithUser } from '../repositories/workspaces';

function presentMember(member: MemberWithUser): WireWorkspaceMember {
  return {
    id: member.user.id,
    contentType: WORKSPACE_MEMBER_CONTENT_TYPE,
    user: presentUser(member.user),
    role: member.role,
    createdAt: member.created_at,
  };
}

export async function workspaceRoutes(server: FastifyInstance, { config, mailer }: { config: Config; mailer: Mailer }) {
  const app = server.withTypeProvider<ZodTypeProvider>();

  /** Tells people they were added; a mail failure is logged and does not undo the membership. */
  async function sendInvitations(workspaceName: string, inviter: UserRow, users: readonly UserRow[]): Promise<void> {
    for (const user of users) {
      await mailer
        .send({
          to: user.email,
          subject: `Вас добавили в пространство «${workspaceName}»`,
          text: `${inviter.name} (${shownEmail(inviter)}) добавил(а) вас в пространство «${workspaceName}».\n\nОткройте ${config.publicUrl} и войдите с адресом ${user.email}.\n`,
        })
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not send a workspace invitation'));
    }
  }

  app.get('/api/v3/spaces/workspace', { schema: { tags: ['workspaces'], summary: 'Workspaces of the signed-in user' } }, async (request) => {
    const user = requireUser(request);
    const workspaces = (await listUserWorkspaces(app.db, user.id)).map(presentWorkspace);
    return envelope(workspaces, { count: workspaces.length, hasMoreNext: false });
  });

  app.post(
    '/api/v3/spaces/workspace',
    { schema: { tags: ['workspaces'], summary: 'Create a workspace; the caller becomes its admin', body: createWorkspaceBodySchema } },
    async (request, reply) => {
      const user = requireUser(request);
      // A workspace token reaches its workspace only: it makes no others (docs/api/auth.md «Workspace tokens»).
      if (request.tokenLimits?.workspaceId) throw new AppError(403, ERROR_CODES.tokenNotAllowed, 'a workspace token makes no workspaces');
      const body = request.body;
      const workspace = await createWorkspace(app.db, {
        name: body.name,
        avatar: body.avatar ?? null,
        isPrivate: body.private ?? false,
        userId: user.id,
      });
      reply.status(201);
      return envelope(presentWorkspace(workspace));
    },
  );

  app.post(
    '/api/v3/spaces/workspace/:id',
    { schema: { tags: ['workspaces'], summary: 'Change name, avatar or private (admins)', params: idParams, body: updateWorkspaceBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const membership = await updateWorkspaceSettings(app.db, user.id, request.params.id, request.body);
      const updated = await findMembership(app.db, membership.id, user.id);
      if (!updated) throw notFound('workspace');
      return envelope(presentWorkspace(updated));
    },
  );

  app.delete(
    '/api/v3/spaces/workspace/:id',
    { schema: { tags: ['workspaces'], summary: 'Delete a workspace and everything in it (admins)', params: idParams } },
    async (request) => {
      const user = requireUser(request);
      const membership = await authorizeWorkspace(app.db, request.params.id, user.id, 'delete');
      const storageKeys = await deleteWorkspace(app.db, membership.id);
      await removeStoredFiles(app.fileStore, storageKeys, request.log);
      return envelope({ id: membership.id, status: 'success' });
    },
  );

  app.get(
    '/api/v3/spaces/workspace/:id/members',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'Members of a workspace, paged (admins and participants)',
        params: idParams,
        querystring: jsonQuery(workspaceMembersQuerySchema),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const membership = await authorizeWorkspace(app.db, request.params.id, user.id, 'listMembers');
      const { roles, cursor, limit } = request.query;
      const members = (await listMembers(app.db, membership.id, roles)).map(presentMember);
      const page = pageOf(members, WORKSPACE_MEMBER_CONTENT_TYPE, cursor, limit);
      return envelope(page.data, page.meta);
    },
  );

  app.post(
    '/api/v3/spaces/workspace/:id/members/add',
    { schema: { tags: ['workspaces'], summary: 'Add members by user id or e-mail (admins)', params: idParams, body: addWorkspaceMembersBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const { workspace: membership, ...outcome } = await addWorkspaceMembers(
        app.db,
        user.id,
        request.params.id,
        request.body.members,
        config.inviteLimitPeople,
      );
      await sendInvitations(membership.name, user, [...outcome.admitted.values()]);

      // People this call brought in show only their id and e-mail (see WireInvitedUser).
      const members: WireWorkspaceMember[] = [];
      for (const person of outcome.people) {
        const invitee = outcome.admitted.get(person.index);
        const stored = await findMember(app.db, membership.id, (invitee ?? (person.user as UserRow)).id);
        if (!stored) continue;
        members.push(invitee ? { ...presentMember(stored), user: { id: invitee.id, email: shownEmail(invitee) } } : presentMember(stored));
      }
      return envelope(members, { count: members.length, hasMoreNext: false, added: [...outcome.admitted.values()].map((u) => u.id) });
    },
  );

  /**
   * A whole list at once (docs/api/workspaces.md): the e-mails of a pasted list or a CSV file, one
   * role. Answers who was added, who was a member already and what was not an e-mail; the
   * invitations are mailed after the answer (a few hundred mails do not hold the call).
   */
  app.post(
    '/api/v3/spaces/workspace/:id/members/add_list',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'Add a list of e-mails with one role (admins); reports the added, the members already and what is not an e-mail',
        params: idParams,
        body: addWorkspaceMemberListBodySchema,
      },
    },
    async (request) => {
      const user = requireUser(request);
      const outcome = await addWorkspaceMemberList(app.db, user.id, request.params.id, request.body, config.inviteLimitPeople);
      void sendInvitations(outcome.workspace.name, user, outcome.admitted);
      const invited = (u: UserRow) => ({ id: u.id, email: shownEmail(u) });
      const answer: MemberListOutcome = {
        added: outcome.admitted.map(invited),
        alreadyMembers: outcome.alreadyMembers.map(invited),
        invalid: outcome.invalid,
      };
      return envelope(answer);
    },
  );

  app.post(
    '/api/v3/spaces/workspace/:id/member/role',
    { schema: { tags: ['workspaces'], summary: "Change a member's role (admins; never the last admin's)", params: idParams, body: memberRoleBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const { userId, role } = request.body;
      const { workspace: membership, events } = await changeMemberRole(app.db, user.id, request.params.id, userId, role);
      // A lower role may take pages away (a guest has no shared section): checked before the answer.
      await app.events.dispatch(events, null);
      const member = await findMember(app.db, membership.id, userId);
      if (!member) throw notFound('member');
      return envelope(presentMember(member));
    },
  );

  app.post(
    '/api/v3/spaces/workspace/:id/members/remove',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'Remove a member (admins), or leave (anyone; never the last admin)',
        params: idParams,
        body: removeWorkspaceMemberBodySchema,
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { userId } = request.body;
      const { events } = await removeWorkspaceMember(app.db, user.id, request.params.id, userId);
      // Once this answers, nothing of the workspace's pages reaches them any more (docs/realtime.md).
      await app.events.dispatch(events, null);
      return envelope({ id: userId, status: 'success' });
    },
  );
}
