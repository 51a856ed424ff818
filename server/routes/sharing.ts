import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Mailer } from '../mail';
import { canEdit, canShare } from '../../schema/element';
import { ERROR_CODES } from '../../schema/errors';
import { idParams } from '../../schema/params';
import {
  addPageMembersBodySchema,
  memberAccessBodySchema,
  removePageMemberBodySchema,
  type GrantableLevel,
  type SkippedMember,
  type WireElementMember,
} from '../../schema/sharing';
import { emailSchema } from '../../schema/user';
import type { Database, PageRow, UserRow } from '../db/types';
import { AppError, forbidden, isUniqueViolation, notFound } from '../errors';
import { requireUser } from '../plugins/auth';
import { authorizePage } from '../policies/page';
import { envelope, presentUser } from '../presenters';
import { createNotification } from '../repositories/notifications';
import {
  ensureWorkspaceGuest,
  findGrant,
  listEffectiveMembers,
  removeGrant,
  setGrantLevel,
  upsertGrant,
  workspaceMemberIds,
} from '../repositories/pageMembers';
import { findPage } from '../repositories/pages';
import { createUserWithWorkspace, findUserByEmail, findUserById } from '../repositories/users';

/** The members of a page on the wire: explicit grants on it or inherited from an ancestor. */
async function presentMembers(db: Kysely<Database>, page: PageRow): Promise<WireElementMember[]> {
  return (await listEffectiveMembers(db, page)).map((m) => ({
    contentType: 'ElementMember',
    page: page.id,
    member: m.user.id,
    level: m.level as GrantableLevel,
    canEdit: canEdit(m.level),
    canShare: canShare(m.level),
    inherited: m.grantedOn !== page.id,
    grantedOn: m.grantedOn,
    user: presentUser(m.user),
  }));
}

/** An account for an invited address; a parallel invite of the same address may have made it first. */
async function userForInvite(db: Kysely<Database>, email: string): Promise<{ user: UserRow; created: boolean }> {
  const existing = await findUserByEmail(db, email);
  if (existing) return { user: existing, created: false };
  try {
    return { user: await createUserWithWorkspace(db, email), created: true };
  } catch (error) {
    const winner = isUniqueViolation(error) ? await findUserByEmail(db, email) : undefined;
    if (!winner) throw error;
    return { user: winner, created: false };
  }
}

function invitationText(sender: UserRow, page: PageRow, link: string): { subject: string; text: string } {
  const title = page.title.trim() || 'Без названия';
  return {
    subject: `${sender.name} открыл(а) вам доступ к странице «${title}»`,
    text:
      `${sender.name} (${sender.email}) приглашает вас к странице «${title}».\n\n` +
      `Открыть: ${link}\n\n` +
      'Чтобы войти, укажите этот адрес почты: мы пришлём код для входа.\n',
  };
}

export async function sharingRoutes(server: FastifyInstance, { config, mailer }: { config: Config; mailer: Mailer }) {
  const app = server.withTypeProvider<ZodTypeProvider>();

  async function loadPage(id: string): Promise<PageRow> {
    const page = await findPage(app.db, id);
    if (!page) throw notFound('page');
    return page;
  }

  /** The page to change the members of: only full access shares, and not while it is in the trash. */
  async function pageToShare(user: UserRow, id: string): Promise<{ page: PageRow }> {
    const page = await loadPage(id);
    await authorizePage(app.db, user.id, page, 'share');
    if (page.in_trash === 1) throw new AppError(409, ERROR_CODES.pageInTrash, 'the page is in the trash; restore it first');
    return { page };
  }

  /** The page's creator always keeps full access to it: their grant is nobody's to change. */
  function checkNotCreator(page: PageRow, userId: string): void {
    if (page.created_by === userId) throw forbidden("changing the access of the page's creator");
  }

  app.get('/api/v3/spaces/element/:id/members', { schema: { tags: ['sharing'], summary: 'People with access to a page through a grant, with their levels', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const page = await loadPage(request.params.id);
    await authorizePage(app.db, user.id, page, 'read');
    const members = await presentMembers(app.db, page);
    return envelope(members, { count: members.length, hasMoreNext: false });
  });

  app.post('/api/v3/spaces/element/:id/member/add', { schema: { tags: ['sharing'], summary: 'Share a page with people (by user id or e-mail)', params: idParams, body: addPageMembersBodySchema } }, async (request) => {
    const user = requireUser(request);
    const { page } = await pageToShare(user, request.params.id);
    // Only full access shares, and full is the highest level: nobody can give more than they hold.
    const entries = request.body;

    // Everything is checked before anything is written: a bad user id changes nothing.
    const byId = entries.filter((e) => e.userId !== undefined).map((e) => e.userId as string);
    const members = await workspaceMemberIds(app.db, page.workspace_id, byId);
    for (const id of byId) if (!members.has(id)) throw notFound('user in this workspace');

    const skipped: SkippedMember[] = [];
    const targets: Array<{ userId: string; level: GrantableLevel; invitedEmail?: string }> = [];
    const invited = new Set<string>();
    for (const entry of entries) {
      let userId: string;
      if (entry.userId !== undefined) {
        userId = entry.userId;
      } else {
        const email = emailSchema.safeParse(entry.email);
        if (!email.success) {
          skipped.push({ email: entry.email, reason: 'invalid_email' });
          continue;
        }
        const { user: invitee, created } = await userForInvite(app.db, email.data);
        if (created) invited.add(invitee.id);
        userId = invitee.id;
      }
      const reported = entry.userId !== undefined ? { userId } : { email: entry.email };
      if (userId === user.id) skipped.push({ ...reported, reason: 'self' });
      else if (userId === page.created_by) skipped.push({ ...reported, reason: 'owner' });
      else targets.push({ userId, level: entry.accessLevel });
    }

    const added = new Set<string>();
    await app.db.transaction().execute(async (trx) => {
      for (const target of targets) {
        await ensureWorkspaceGuest(trx, page.workspace_id, target.userId);
        if (await upsertGrant(trx, page.id, target.userId, target.level)) added.add(target.userId);
      }
      for (const userId of added) {
        await createNotification(trx, {
          userId,
          workspaceId: page.workspace_id,
          pageId: page.id,
          name: 'element_members.invite.member',
          context: { elementId: page.id, senderId: user.id },
        });
      }
    });

    // New accounts hear about it by e-mail; a mail failure does not undo the share.
    const link = `${config.publicUrl.replace(/\/+$/, '')}/${page.id}`;
    const notMailed: string[] = [];
    for (const userId of invited) {
      if (!added.has(userId)) continue;
      const invitee = await findUserById(app.db, userId);
      if (!invitee) continue;
      await mailer.send({ to: invitee.email, ...invitationText(user, page, link) }).catch((error: unknown) => {
        request.log.warn({ err: error, to: invitee.email }, 'could not send a page invitation');
        notMailed.push(invitee.email);
      });
    }

    const list = await presentMembers(app.db, page);
    return envelope(list, { count: list.length, hasMoreNext: false, added: [...added], skipped, notMailed });
  });

  app.post('/api/v3/spaces/element/:id/member/remove', { schema: { tags: ['sharing'], summary: "Remove a person's grant on a page", params: idParams, body: removePageMemberBodySchema } }, async (request) => {
    const user = requireUser(request);
    const { page } = await pageToShare(user, request.params.id);
    const { userId } = request.body;
    if (!(await findGrant(app.db, page.id, userId))) throw notFound('member of this page');
    checkNotCreator(page, userId);
    await removeGrant(app.db, page.id, userId);
    const list = await presentMembers(app.db, page);
    return envelope(list, { count: list.length, hasMoreNext: false });
  });

  app.post('/api/v3/spaces/element/:id/member/access', { schema: { tags: ['sharing'], summary: "Change a member's level on a page", params: idParams, body: memberAccessBodySchema } }, async (request) => {
    const user = requireUser(request);
    const { page } = await pageToShare(user, request.params.id);
    const { userId, accessLevel } = request.body;
    if (!(await findGrant(app.db, page.id, userId))) throw notFound('member of this page');
    checkNotCreator(page, userId);
    await setGrantLevel(app.db, page.id, userId, accessLevel);
    const list = await presentMembers(app.db, page);
    return envelope(list, { count: list.length, hasMoreNext: false });
  });
}
